#include "stress/report.hpp"

#include <cmath>
#include <iomanip>
#include <map>
#include <sstream>

#include "lookback/json.hpp"

namespace lookback::stress {

double MutantResult::kill_within_60s() const {
  return 1.0 - std::exp(-kills_per_second() * 60.0);
}

std::uint64_t Report::correct_launches() const {
  std::uint64_t n = 0;
  for (const auto& c : correct)
    n += c.launches;
  return n;
}
std::uint64_t Report::correct_failures() const {
  std::uint64_t n = 0;
  for (const auto& c : correct)
    n += c.failures();
  return n;
}

namespace {

std::string fixed(double v, int digits) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(digits) << v;
  return os.str();
}

std::string per_million(std::uint64_t weak, std::uint64_t instances) {
  return instances ? fixed(1e6 * static_cast<double>(weak) / static_cast<double>(instances), 1)
                   : "-";
}

}  // namespace

void write_markdown(std::ostream& os, const Report& r) {
  os << "# lookback stress report: " << r.gpu << "\n\n"
     << "| | |\n|---|---|\n"
     << "| GPU | " << r.gpu << " (" << r.sm_count << " SMs) |\n"
     << "| driver | " << r.driver << " |\n"
     << "| CUDA runtime | " << r.cuda_runtime << " |\n"
     << "| date | " << r.date << " |\n"
     << "| command | `" << r.command << "` |\n"
     << "| seed | " << r.seed << " |\n"
     << "| budget / elapsed | " << fixed(r.budget_seconds, 0) << " s / "
     << fixed(r.elapsed_seconds, 0) << " s |\n"
     << "| watchdog | every wait loop gives up after " << r.watchdog_rounds << " rounds |\n\n";

  os << "Scans: u32 inclusive sum, instrumented kernels generated from the catalogue's "
        "protocol values, random sizes (mostly 1-16 tiles, up to each knob's max), four "
        "rotating inputs, every launch checked against the CPU reference on the device "
        "and its error flag read.\n\n";

  os << "## Knobs\n\n| knob | what | parameters |\n|---|---|---|\n";
  for (const auto& k : r.knobs)
    os << "| " << k.name << " | " << k.description << " | `" << describe_parameters(k) << "` |\n";

  os << "\n## Correct variants (must be 0 failures)\n\n"
     << "Total: **" << r.correct_launches() << " launches, " << r.correct_failures()
     << " failures**.\n\n";
  std::vector<std::string> variants;
  std::map<std::string, std::map<std::string, const CellResult*>> cells;
  for (const auto& c : r.correct) {
    if (!cells.count(c.entry)) variants.push_back(c.entry);
    cells[c.entry][c.knob] = &c;
  }
  os << "Launches (wrong results / watchdog trips / other errors where nonzero):\n\n| variant |";
  for (const auto& k : r.knobs)
    os << " " << k.name << " |";
  os << "\n|---|";
  for (std::size_t i = 0; i < r.knobs.size(); ++i)
    os << "---:|";
  os << "\n";
  for (const auto& v : variants) {
    os << "| " << v << " |";
    for (const auto& k : r.knobs) {
      const auto it = cells[v].find(k.name);
      if (it == cells[v].end()) {
        os << " - |";
        continue;
      }
      const CellResult& c = *it->second;
      os << " " << c.launches;
      if (c.failures())
        os << " (**" << c.wrong_launches << "/" << c.watchdog_trips << "/" << c.other_errors
           << "**)";
      os << " |";
    }
    os << "\n";
  }
  for (const auto& c : r.correct)
    if (c.failures())
      os << "\nFAILURE " << c.entry << " under " << c.knob << ": " << c.first_failure << "\n";

  os << "\n## Mutant kill matrix\n\n"
        "A mutant is killed on the GPU when a launch gives a wrong result or trips the "
        "watchdog or another device error. Knobs are tried in the order above until one "
        "kills; that knob then runs for a rate measurement. P(kill in 60 s) assumes kills "
        "arrive as a Poisson process at the measured rate.\n\n"
        "| mutant | expected property | model | GPU | first knob | time to first kill | "
        "kills/s | P(kill in 60 s) | first failure |\n"
        "|---|---|---|---|---|---:|---:|---:|---|\n";
  for (const auto& m : r.mutants) {
    os << "| " << m.name << " | " << m.expected_property << " | " << m.model_verdict << " | "
       << (m.gpu_killed ? "**killed**" : "not killed") << " | "
       << (m.first_knob.empty() ? "-" : m.first_knob) << " | "
       << (m.time_to_first_kill >= 0 ? fixed(m.time_to_first_kill, 3) + " s" : "-") << " | "
       << (m.gpu_killed ? fixed(m.kills_per_second(), 1) : "0") << " | "
       << fixed(m.kill_within_60s(), 3) << " | "
       << (m.first_failure.empty() ? "-" : m.first_failure) << " |\n";
  }
  os << "\nNot killed on this GPU (the model's verdict stands for them):\n\n";
  for (const auto& m : r.mutants)
    if (!m.gpu_killed) {
      std::uint64_t launches = 0;
      double seconds = 0;
      for (const auto& t : m.tries) {
        launches += t.launches;
        seconds += t.seconds;
      }
      os << "- " << m.name << ": " << launches << " launches over " << fixed(seconds, 1)
         << " s under every knob, no failure; model: " << m.model_verdict << ".\n";
    }

  os << "\n## Litmus probes (inter-block, .gpu scope)\n\n";
  if (!r.litmus_error.empty()) os << "Not run: " << r.litmus_error << "\n";
  os << "| shape | weak outcome | PTX | instances | weak | per million |\n"
        "|---|---|---|---:|---:|---:|\n";
  for (const auto& l : r.litmus)
    os << "| " << l.shape << " | " << l.weak_outcome << " | "
       << (l.allowed_by_ptx ? "allowed" : "forbidden") << " | " << l.instances << " | " << l.weak
       << " | " << per_million(l.weak, l.instances) << " |\n";

  os << "\n## Throughput (instrumented build, no perturbation)\n\n"
        "| variant | n | GB/s |\n|---|---:|---:|\n";
  for (const auto& t : r.throughput)
    os << "| " << t.variant << " | " << t.n << " | " << fixed(t.gbps, 0) << " |\n";
  os << "\nThe benchmark (bench/) times the production (uninstrumented) kernels against CUB "
        "and a copy; these figures only show what the stress build runs at.\n";
}

namespace {
void cell_json(std::ostream& os, const CellResult& c) {
  os << "{\"entry\":" << json_string(c.entry) << ",\"knob\":" << json_string(c.knob)
     << ",\"launches\":" << c.launches << ",\"wrong_launches\":" << c.wrong_launches
     << ",\"watchdog_trips\":" << c.watchdog_trips << ",\"other_errors\":" << c.other_errors
     << ",\"seconds\":" << c.seconds << ",\"first_failure_seconds\":" << c.first_failure_seconds
     << ",\"first_failure\":" << json_string(c.first_failure) << "}";
}
}  // namespace

void write_json(std::ostream& os, const Report& r) {
  os << "{\"gpu\":" << json_string(r.gpu) << ",\"sm_count\":" << r.sm_count
     << ",\"driver\":" << json_string(r.driver)
     << ",\"cuda_runtime\":" << json_string(r.cuda_runtime) << ",\"date\":" << json_string(r.date)
     << ",\"command\":" << json_string(r.command) << ",\"seed\":" << r.seed
     << ",\"budget_seconds\":" << r.budget_seconds << ",\"elapsed_seconds\":" << r.elapsed_seconds
     << ",\"watchdog_rounds\":" << r.watchdog_rounds << ",\n\"knobs\":[";
  for (std::size_t i = 0; i < r.knobs.size(); ++i)
    os << (i ? ",\n" : "\n") << "{\"name\":" << json_string(r.knobs[i].name)
       << ",\"description\":" << json_string(r.knobs[i].description)
       << ",\"parameters\":" << json_string(describe_parameters(r.knobs[i])) << "}";
  os << "],\n\"correct\":{\"launches\":" << r.correct_launches()
     << ",\"failures\":" << r.correct_failures() << ",\"cells\":[";
  for (std::size_t i = 0; i < r.correct.size(); ++i) {
    os << (i ? ",\n" : "\n");
    cell_json(os, r.correct[i]);
  }
  os << "]},\n\"mutants\":[";
  for (std::size_t i = 0; i < r.mutants.size(); ++i) {
    const auto& m = r.mutants[i];
    os << (i ? ",\n" : "\n") << "{\"name\":" << json_string(m.name)
       << ",\"expected_property\":" << json_string(m.expected_property)
       << ",\"model_verdict\":" << json_string(m.model_verdict)
       << ",\"model_killed\":" << (m.model_killed ? "true" : "false")
       << ",\"gpu_killed\":" << (m.gpu_killed ? "true" : "false")
       << ",\"first_knob\":" << json_string(m.first_knob)
       << ",\"time_to_first_kill\":" << m.time_to_first_kill
       << ",\"kills_per_second\":" << m.kills_per_second()
       << ",\"kill_within_60s\":" << m.kill_within_60s()
       << ",\"first_failure\":" << json_string(m.first_failure) << ",\"tries\":[";
    for (std::size_t t = 0; t < m.tries.size(); ++t) {
      if (t) os << ",";
      cell_json(os, m.tries[t]);
    }
    os << "]}";
  }
  os << "],\n\"litmus\":{\"error\":" << json_string(r.litmus_error) << ",\"shapes\":[";
  for (std::size_t i = 0; i < r.litmus.size(); ++i) {
    const auto& l = r.litmus[i];
    os << (i ? ",\n" : "\n") << "{\"shape\":" << json_string(l.shape)
       << ",\"weak_outcome\":" << json_string(l.weak_outcome)
       << ",\"allowed_by_ptx\":" << (l.allowed_by_ptx ? "true" : "false")
       << ",\"instances\":" << l.instances << ",\"weak\":" << l.weak << ",\"seconds\":" << l.seconds
       << "}";
  }
  os << "]},\n\"throughput\":[";
  for (std::size_t i = 0; i < r.throughput.size(); ++i)
    os << (i ? "," : "") << "{\"variant\":" << json_string(r.throughput[i].variant)
       << ",\"n\":" << r.throughput[i].n << ",\"gbps\":" << r.throughput[i].gbps << "}";
  os << "]}\n";
}

}  // namespace lookback::stress
