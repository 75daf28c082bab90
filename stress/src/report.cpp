#include "stress/report.hpp"

#include <cmath>
#include <iomanip>
#include <map>
#include <sstream>

#include "lookback/json.hpp"

namespace lookback::stress {

const char* to_string(FlawClass c) {
  switch (c) {
    case FlawClass::Unknown:
      return "-";
    case FlawClass::Interleaving:
      return "interleaving";
    case FlawClass::WeakMemory:
      return "weak memory";
    case FlawClass::NotKilled:
      return "none found";
  }
  return "?";
}

FlawClass classify_flaw(bool ptx_killed, const std::vector<std::string>& sc_violated) {
  for (const auto& p : sc_violated)
    if (p != "no-data-race") return FlawClass::Interleaving;
  return ptx_killed ? FlawClass::WeakMemory : FlawClass::NotKilled;
}

double MutantResult::kills_per_second(const std::string& knob) const {
  for (const auto& c : tries)
    if (c.knob == knob) return c.failures_per_second();
  return -1;
}

std::string MutantResult::best_knob() const {
  std::string best;
  double rate = 0;
  for (const auto& c : tries)
    if (c.failures_per_second() > rate) {
      rate = c.failures_per_second();
      best = c.knob;
    }
  return best;
}

std::uint64_t MutantResult::launches() const {
  std::uint64_t n = 0;
  for (const auto& c : tries)
    n += c.launches;
  for (const auto& c : extra_tries)
    n += c.launches;
  return n;
}

double MutantResult::seconds() const {
  double t = 0;
  for (const auto& c : tries)
    t += c.seconds;
  for (const auto& c : extra_tries)
    t += c.seconds;
  return t;
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

// Three significant digits, k/M suffixes for large values.
std::string rate_text(double v) {
  if (v <= 0) return "0";
  std::ostringstream os;
  os << std::setprecision(3);
  if (v >= 1e6)
    os << v / 1e6 << "M";
  else if (v >= 1e4)
    os << v / 1e3 << "k";
  else
    os << v;
  return os.str();
}

std::string seconds_text(double s) {
  if (s < 0) return "-";
  if (s < 0.01) return fixed(s * 1e3, 2) + " ms";
  return fixed(s, s < 10 ? 3 : 1) + " s";
}

std::string per_million(std::uint64_t weak, std::uint64_t instances) {
  return instances ? fixed(1e6 * static_cast<double>(weak) / static_cast<double>(instances), 1)
                   : "-";
}

// A markdown table: `rows` rows named row_name(i), one right-aligned column
// per knob; cell(i, knob) gives the text of a cell.
template <class RowName, class Cell>
void knob_table(std::ostream& os, const char* first_column, std::size_t rows, RowName row_name,
                const std::vector<Knob>& knobs, Cell cell) {
  os << "| " << first_column << " |";
  for (const auto& k : knobs)
    os << " " << k.name << " |";
  os << "\n|---|";
  for (std::size_t i = 0; i < knobs.size(); ++i)
    os << "---:|";
  os << "\n";
  for (std::size_t i = 0; i < rows; ++i) {
    os << "| " << row_name(i) << " |";
    for (const auto& k : knobs)
      os << " " << cell(i, k) << " |";
    os << "\n";
  }
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
  os << "Launches (wrong results / watchdog trips / other errors / status regressions where "
        "nonzero; - where the knob does not apply):\n\n";
  knob_table(
      os, "variant", variants.size(), [&](std::size_t i) { return variants[i]; }, r.knobs,
      [&](std::size_t i, const Knob& k) {
        const auto it = cells[variants[i]].find(k.name);
        if (it == cells[variants[i]].end()) return std::string("-");
        const CellResult& c = *it->second;
        std::ostringstream cell;
        cell << c.launches;
        if (c.failures())
          cell << " (**" << c.wrong_launches << "/" << c.watchdog_trips << "/" << c.other_errors
               << "/" << c.status_regressions << "**)";
        return cell.str();
      });
  for (const auto& c : r.correct)
    if (c.failures())
      os << "\nFAILURE " << c.entry << " under " << c.knob << ": " << c.first_failure << "\n";
  for (const auto& c : r.correct)
    if (!c.note.empty())
      os << "\nNote: " << c.entry << " under " << c.knob << ": " << c.note << "\n";

  os << "\n## Mutant kill matrix\n\n"
        "A mutant is killed on the GPU when a launch gives a wrong result, trips the watchdog, "
        "raises another device error, or leaves a descriptor below the status its owner "
        "published last (a status that moved backwards: the final-state check after every "
        "launch). Each mutant first runs every knob that applies to it for a fixed slice, in "
        "the order above (the first knob that killed it and the stress time until then: "
        "*time to first kill*); the knob with the most failures per second then runs "
        "independent trials (fresh temp storage and seeds, each stopped at its first failure "
        "or its cap). **P(kill in 60 s) = 1 - exp(-60 \u03bb)** with \u03bb = kills / stress "
        "seconds over those trials (kills as a Poisson process; the maximum-likelihood rate "
        "of a censored exponential), 95% interval from the exact Poisson bounds on \u03bb. "
        "*Flaw* is the model's classification: *interleaving* when a sequentially consistent "
        "execution already violates a property other than no-data-race, *weak memory* when "
        "only a PTX-relaxed one does.\n\n"
        "| mutant | flaw | expected property | model (PTX) | model (SC) | GPU | first knob | "
        "time to first kill | trial knob | trials killed | median time to kill | kills/s | "
        "P(kill in 60 s) [95%] | first failure |\n"
        "|---|---|---|---|---|---|---|---:|---|---:|---:|---:|---:|---|\n";
  for (const auto& m : r.mutants) {
    const KillEstimate e = m.estimate();
    os << "| " << m.name << " | " << to_string(m.flaw) << " | " << m.expected_property << " | "
       << m.model_verdict << " | " << (m.model_sc_verdict.empty() ? "-" : m.model_sc_verdict)
       << " | " << (m.gpu_killed ? "**killed**" : "not killed") << " | "
       << (m.first_knob.empty() ? "-" : m.first_knob) << " | " << seconds_text(m.time_to_first_kill)
       << " | " << (m.trial_knob.empty() ? "-" : m.trial_knob) << " | ";
    if (e.trials)
      os << e.killed << "/" << e.trials << " (cap " << seconds_text(m.trial_cap_seconds) << ")";
    else
      os << "-";
    os << " | " << seconds_text(e.median_time_to_kill) << " | "
       << (e.trials ? rate_text(e.rate) : "-") << " | ";
    if (e.trials)
      os << fixed(e.p, 3) << " [" << fixed(e.p_low, 3) << ", " << fixed(e.p_high, 3) << "]";
    else
      os << "-";
    os << " | " << (m.first_failure.empty() ? "-" : m.first_failure) << " |\n";
  }

  // Failures per second, mutant x knob (the pass).
  os << "\n### Failures per second, per knob\n\n"
        "Each mutant under each knob that applies to it, for the same slice (failure events "
        "per second of stress; 0: none; -: the knob does not apply).\n\n";
  knob_table(
      os, "mutant", r.mutants.size(), [&](std::size_t i) { return r.mutants[i].name; }, r.knobs,
      [&](std::size_t i, const Knob& k) {
        const double v = r.mutants[i].kills_per_second(k.name);
        return v < 0 ? std::string("-") : v > 0 ? "**" + rate_text(v) + "**" : std::string("0");
      });

  os << "\nNot killed on this GPU (the model's verdict stands for them):\n\n";
  bool any = false;
  for (const auto& m : r.mutants)
    if (!m.gpu_killed) {
      any = true;
      os << "- " << m.name << " (" << to_string(m.flaw) << "): " << m.launches()
         << " launches over " << fixed(m.seconds(), 1)
         << " s under every knob that applies, no failure; model: " << m.model_verdict
         << (m.model_sc_verdict.empty() ? "" : "; interleavings only (SC): " + m.model_sc_verdict)
         << ".\n";
    }
  if (!any) os << "- none\n";
  for (const auto& m : r.mutants)
    for (const auto& c : m.tries)
      if (!c.note.empty())
        os << "\nNote: " << m.name << " under " << c.knob << ": " << c.note << "\n";

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

  if (!r.plots.pngs.empty() || !r.plots.note.empty()) {
    os << "\n## Plots\n\n";
    if (!r.plots.note.empty()) os << r.plots.note << "\n\n";
    for (const auto& png : r.plots.pngs)
      os << "![" << png << "](" << png << ")\n\n";
  }
}

namespace {
void cell_json(std::ostream& os, const CellResult& c) {
  os << "{\"entry\":" << json_string(c.entry) << ",\"knob\":" << json_string(c.knob)
     << ",\"launches\":" << c.launches << ",\"wrong_launches\":" << c.wrong_launches
     << ",\"watchdog_trips\":" << c.watchdog_trips << ",\"other_errors\":" << c.other_errors
     << ",\"status_regressions\":" << c.status_regressions << ",\"seconds\":" << c.seconds
     << ",\"first_failure_seconds\":" << c.first_failure_seconds
     << ",\"first_failure\":" << json_string(c.first_failure) << ",\"note\":" << json_string(c.note)
     << "}";
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
    const KillEstimate e = m.estimate();
    os << (i ? ",\n" : "\n") << "{\"name\":" << json_string(m.name)
       << ",\"flaw\":" << json_string(to_string(m.flaw))
       << ",\"expected_property\":" << json_string(m.expected_property)
       << ",\"model_verdict\":" << json_string(m.model_verdict)
       << ",\"model_killed\":" << (m.model_killed ? "true" : "false")
       << ",\"model_sc_verdict\":" << json_string(m.model_sc_verdict)
       << ",\"gpu_killed\":" << (m.gpu_killed ? "true" : "false")
       << ",\"first_knob\":" << json_string(m.first_knob)
       << ",\"time_to_first_kill\":" << m.time_to_first_kill
       << ",\"first_failure\":" << json_string(m.first_failure)
       << ",\"reproducibility\":{\"method\":\"independent trials, Poisson: p = 1 - exp(-60 * "
          "kills / stress seconds), exact 95% interval\""
       << ",\"knob\":" << json_string(m.trial_knob)
       << ",\"trial_cap_seconds\":" << m.trial_cap_seconds << ",\"trials\":" << e.trials
       << ",\"killed\":" << e.killed << ",\"exposure_seconds\":" << e.exposure_seconds
       << ",\"kills_per_second\":" << e.rate << ",\"kills_per_second_95\":[" << e.rate_low << ","
       << e.rate_high << "]"
       << ",\"median_time_to_kill\":" << e.median_time_to_kill << ",\"kill_within_60s\":" << e.p
       << ",\"kill_within_60s_95\":[" << e.p_low << "," << e.p_high << "],\"trial_times\":[";
    for (std::size_t t = 0; t < m.trials.size(); ++t)
      os << (t ? "," : "") << "[" << (m.trials[t].killed ? 1 : 0) << "," << m.trials[t].seconds
         << "]";
    os << "]},\"tries\":[";
    for (std::size_t t = 0; t < m.tries.size(); ++t) {
      if (t) os << ",";
      cell_json(os, m.tries[t]);
    }
    os << "],\"extra_tries\":[";
    for (std::size_t t = 0; t < m.extra_tries.size(); ++t) {
      if (t) os << ",";
      cell_json(os, m.extra_tries[t]);
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
  os << "],\n\"plots\":{\"rendered\":" << (r.plots.rendered ? "true" : "false")
     << ",\"note\":" << json_string(r.plots.note) << ",\"files\":[";
  for (std::size_t i = 0; i < r.plots.pngs.size(); ++i)
    os << (i ? "," : "") << json_string(r.plots.pngs[i]);
  os << "]}}\n";
}

}  // namespace lookback::stress
