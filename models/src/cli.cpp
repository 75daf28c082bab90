#include "lookback/model/cli.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <thread>

#include "lookback/json.hpp"
#include "lookback/model/counterexample.hpp"
#include "lookback/model/litmus.hpp"
#include "lookback/model/promela_export.hpp"
#include "lookback/model/verdict.hpp"

namespace lookback::model {

namespace {

using namespace protocol;

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Width of the variant-name column of --list and --all: the longest
// catalogue name and two spaces, so no name runs into the next column.
constexpr int name_column_width() {
  std::size_t longest = 0;
  for (const auto& v : kCatalogue)
    longest = std::max(longest, std::string_view(v.name).size());
  return static_cast<int>(longest) + 2;
}
constexpr int kNameColumn = name_column_width();

constexpr const char* kUsage =
    "usage: lookback-check (--list | --all | --variant NAME | --mutant NAME |\n"
    "                       --litmus FILE | --litmus-suite DIR) [options]\n"
    "  --tiles N             tiles per launch, 1..16                 (default 4; 3 for 2 "
    "launches;\n"
    "                        persistent variants 6, the persistent fallbacks 5; 4 for 2\n"
    "                        launches; fallback mutants in place or split 3)\n"
    "  --window W            look-back window, 1..32                 (default 2)\n"
    "  --launches N          launches sharing temp storage, 1..2\n"
    "  --wrap-launch L       in the runs of two launches under the epoch reset: the launch\n"
    "                        whose epoch wraps, 0..1 (default: both, in two runs, where the\n"
    "                        epoch has >= 2 bits); refused for a variant with no such run;\n"
    "                        --all applies it where it has a choice\n"
    "  --layout packed|split descriptor layout                       (default: the variant's; "
    "both\n"
    "                        for production variants)\n"
    "  --memory-model ptx|rc11|sc                                    (default ptx)\n"
    "  --progress fair|obe|hsa|lobe|unfair                           (default: the variant's "
    "claim)\n"
    "  --tile-id ticket|blockidx   override where tile ids come from\n"
    "  --held-windows K      override how many passed windows a left-fold (deterministic)\n"
    "                        variant keeps for its second pass, 0..8 (--variant, --mutant)\n"
    "  --resident R          at most R blocks resident at once       (default: all)\n"
    "  --blocks B            blocks per launch of a persistent variant, 1..tiles\n"
    "                        (default: half the tiles)\n"
    "  --first               stop at the first violation (a mutant: at the first of the\n"
    "                        property it is expected to violate)\n"
    "  --max-graphs N        give up after N graphs (result marked incomplete; exit 3)\n"
    "  --jobs N              worker threads, 1..64 (default: the cores); the counts and\n"
    "                        verdicts do not depend on it\n"
    "  --json                machine-readable output on stdout (also for --list)\n"
    "  --dot FILE            write the counterexample's execution graph (Graphviz)\n"
    "  --emit-promela FILE   write the instance as a Promela model for SPIN instead of checking\n"
    "                        it (interleavings only: sc; see models/SPIN.md)\n"
    "  --quiet               no progress lines on stderr\n"
    "An option the chosen command does not read is refused, as is an option given twice.\n"
    "exit: 0 pass, 1 property violated (--all: a verdict differs from the expected), 2 usage,\n"
    "      3 nothing violated but --max-graphs cut the search short (not a pass)\n";

template <class E>
E parse_enum(const std::string& flag, const std::string& v,
             std::initializer_list<std::pair<const char*, E>> options) {
  std::string names;
  for (const auto& [name, e] : options) {
    if (v == name) return e;
    names += names.empty() ? name : std::string("|") + name;
  }
  throw UsageError(flag + ": unknown value '" + v + "' (expected " + names + ")");
}

int parse_int(const std::string& flag, const std::string& v, int lo, int hi) {
  int n = 0;
  auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || ptr != v.data() + v.size() || n < lo || n > hi)
    throw UsageError(flag + ": expected an integer in " + std::to_string(lo) + ".." +
                     std::to_string(hi) + ", got '" + v + "'");
  return n;
}

struct Options {
  enum class Mode { None, List, All, Variant, Mutant, Litmus, LitmusSuite } mode = Mode::None;
  std::string mode_flag;  // as given: --list, --all, ...
  std::string target;
  std::vector<std::string> given;  // the other options, in order
  Settings settings;
  bool json = false;
  bool quiet = false;
  std::string dot;
  std::string promela;
};

// Whether the command `o` asks for reads option `flag`: anything else given
// is refused rather than silently ignored.
bool reads_option(const Options& o, const std::string& flag) {
  using Mode = Options::Mode;
  static const std::vector<std::string> checking = {
      "--tiles",      "--window",  "--launches",    "--wrap-launch", "--layout",
      "--progress",   "--tile-id", "--resident",    "--blocks",      "--first",
      "--max-graphs", "--jobs",    "--memory-model"};
  auto in = [&](std::initializer_list<const char*> flags) {
    return std::find(flags.begin(), flags.end(), flag) != flags.end();
  };
  if (flag == "--quiet") return true;
  const bool checks = std::find(checking.begin(), checking.end(), flag) != checking.end();
  switch (o.mode) {
    case Mode::List:
    case Mode::LitmusSuite:
      return flag == "--json";
    case Mode::Litmus:
      return in({"--json", "--memory-model"});
    case Mode::All:
      return checks || flag == "--json";
    case Mode::Variant:
    case Mode::Mutant:
      // --emit-promela writes a model instead of checking: it reads the
      // instance's bounds, not the search's options or outputs.
      if (!o.promela.empty())
        return flag == "--emit-promela" || flag == "--held-windows" ||
               (checks && !in({"--first", "--max-graphs", "--jobs"}));
      return checks || in({"--json", "--dot", "--held-windows"});
    case Mode::None:
      break;
  }
  return false;
}

// The default worker count: every core (the counts do not depend on it).
int default_jobs() {
  const unsigned cores = std::thread::hardware_concurrency();
  return static_cast<int>(std::clamp(cores, 1u, 64u));
}

Options parse(const std::vector<std::string>& args) {
  Options o;
  o.settings.jobs = default_jobs();
  auto set_mode = [&](Options::Mode m, const std::string& flag, std::string target = {}) {
    if (o.mode != Options::Mode::None)
      throw UsageError(
          "choose one of --list, --all, --variant, --mutant, --litmus, --litmus-suite");
    o.mode = m;
    o.mode_flag = flag;
    o.target = std::move(target);
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    // A value that is itself an option means the value was left out
    // (`--dot --json` would write a file named --json).
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw UsageError(a + " needs a value");
      if (args[i + 1].rfind("--", 0) == 0)
        throw UsageError(a + " needs a value, not the option '" + args[i + 1] + "'");
      return args[++i];
    };
    // A file the option writes. '-' would make a file named '-' (stdout
    // carries the verdict), and an empty name would leave the option unread.
    auto file_value = [&]() -> std::string {
      std::string file = value();
      if (file.empty()) throw UsageError(a + " needs a file name");
      if (file == "-") throw UsageError(a + " writes a file: '-' is not stdout here");
      return file;
    };
    const bool mode_flag = a == "--list" || a == "--all" || a == "--variant" || a == "--mutant" ||
                           a == "--litmus" || a == "--litmus-suite";
    if (a.rfind("--", 0) == 0 && a != "--help" && !mode_flag) {
      if (std::find(o.given.begin(), o.given.end(), a) != o.given.end())
        throw UsageError(a + " given twice");
      o.given.push_back(a);
    }
    if (a == "--help" || a == "-h")
      throw UsageError("");
    else if (a == "--list")
      set_mode(Options::Mode::List, a);
    else if (a == "--all")
      set_mode(Options::Mode::All, a);
    else if (a == "--variant")
      set_mode(Options::Mode::Variant, a, value());
    else if (a == "--mutant")
      set_mode(Options::Mode::Mutant, a, value());
    else if (a == "--litmus")
      set_mode(Options::Mode::Litmus, a, value());
    else if (a == "--litmus-suite")
      set_mode(Options::Mode::LitmusSuite, a, value());
    else if (a == "--tiles")
      o.settings.tiles = parse_int(a, value(), 1, 16);
    else if (a == "--window")
      o.settings.window = parse_int(a, value(), 1, 32);
    else if (a == "--launches")
      o.settings.launches = parse_int(a, value(), 1, 2);
    else if (a == "--wrap-launch")
      o.settings.wrap_launch = parse_int(a, value(), 0, 1);
    else if (a == "--resident")
      o.settings.resident = parse_int(a, value(), 1, 16);
    else if (a == "--blocks")
      o.settings.blocks = parse_int(a, value(), 1, 16);
    else if (a == "--jobs")
      o.settings.jobs = parse_int(a, value(), 1, 64);
    else if (a == "--max-graphs")
      o.settings.max_graphs = static_cast<std::uint64_t>(parse_int(a, value(), 1, 2000000000));
    else if (a == "--layout")
      o.settings.layout =
          parse_enum<Layout>(a, value(), {{"packed", Layout::Packed}, {"split", Layout::Split}});
    else if (a == "--memory-model")
      o.settings.model = parse_enum<MemoryModel>(
          a, value(),
          {{"ptx", MemoryModel::Ptx}, {"rc11", MemoryModel::Rc11}, {"sc", MemoryModel::Sc}});
    else if (a == "--progress")
      o.settings.progress = parse_enum<Progress>(a, value(),
                                                 {{"fair", Progress::Fair},
                                                  {"obe", Progress::Obe},
                                                  {"hsa", Progress::Hsa},
                                                  {"lobe", Progress::Lobe},
                                                  {"unfair", Progress::Unfair}});
    else if (a == "--held-windows")
      o.settings.held_windows = parse_int(a, value(), 0, 8);
    else if (a == "--tile-id")
      o.settings.tile_id = parse_enum<TileIdSource>(
          a, value(), {{"ticket", TileIdSource::Ticket}, {"blockidx", TileIdSource::BlockIdx}});
    else if (a == "--first")
      o.settings.stop_at_first = true;
    else if (a == "--json")
      o.json = true;
    else if (a == "--quiet")
      o.quiet = true;
    else if (a == "--dot")
      o.dot = file_value();
    else if (a == "--emit-promela")
      o.promela = file_value();
    else
      throw UsageError("unknown option '" + a + "'");
  }
  if (o.mode == Options::Mode::None) throw UsageError("nothing to do");
  // --emit-promela with a command other than --variant / --mutant is the
  // error, before the options it does not read.
  const bool promela_fits = o.mode == Options::Mode::Variant || o.mode == Options::Mode::Mutant;
  if (!o.promela.empty() && !promela_fits)
    throw UsageError("--emit-promela does not apply to " + o.mode_flag);
  for (const std::string& flag : o.given)
    if (!reads_option(o, flag))
      throw UsageError(flag + " does not apply to " +
                       (o.promela.empty() ? o.mode_flag : "--emit-promela"));
  if (!o.promela.empty() && o.settings.model.value_or(MemoryModel::Sc) != MemoryModel::Sc)
    throw UsageError("--emit-promela models interleavings only: use --memory-model sc or none");
  return o;
}

// Progress lines on stderr. A run (named by `what`) reports about once a
// second; its first line comes a second in, then one a second for its first
// ten seconds, then one every ten, so a long run's log stays readable.
class ProgressLines {
 public:
  explicit ProgressLines(std::ostream& err) : err_(err) {}

  template <class Counts>
  void report(const std::string& what, const Counts& counts) {
    const auto now = Clock::now();
    if (what != what_) {  // a new run: its first report is about a second in
      what_ = what;
      start_ = now - std::chrono::seconds(1);
      last_ = Clock::time_point{};
    }
    const auto running = now - start_;
    const auto every =
        running < std::chrono::seconds(10) ? std::chrono::seconds(1) : std::chrono::seconds(10);
    if (now - last_ < every) return;
    last_ = now;
    err_ << "  ... " << what << ": " << counts() << " after "
         << std::chrono::duration_cast<std::chrono::seconds>(running).count() << " s\n"
         << std::flush;
  }

 private:
  using Clock = std::chrono::steady_clock;
  std::ostream& err_;
  std::string what_;
  Clock::time_point start_, last_;
};

const char* kind_name(Kind k) {
  return k == Kind::Production ? "production" : "mutant";
}

std::string verdict_text(const CheckRun& r) {
  const auto v = r.violated();
  if (v.empty()) return r.complete() ? "pass" : "pass (incomplete)";
  std::string s = r.variant.kind == Kind::Mutant && r.as_expected() ? "killed: " : "FAIL: ";
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::string(to_string(v[i]));
  return s;
}

std::string instance_text(const InstanceRun& r) {
  std::ostringstream os;
  os << to_string(r.instance.layout) << ", " << r.instance.tiles << " tiles, window "
     << r.instance.window << ", " << r.instance.launches << " launch"
     << (r.instance.launches > 1 ? "es" : "") << ", " << to_string(r.model) << ", progress "
     << to_string(r.progress);
  if (has_wrap_launch(r.protocol, r.instance.launches))
    os << ", launch " << r.instance.wrap_launch << " wraps";
  if (r.instance.resident) os << ", resident " << r.instance.resident;
  if (protocol::persistent(r.protocol))
    os << ", " << blocks_for(r.protocol, r.instance) << " persistent blocks";
  if (protocol::has_second_pass(r.protocol))
    os << ", " << r.protocol.held_windows << " held window"
       << (r.protocol.held_windows == 1 ? "" : "s");
  return os.str();
}

// A rate for humans: 0 when the run was too short to time.
double per_second(std::uint64_t count, double seconds) {
  return seconds > 0 ? static_cast<double>(count) / seconds : 0;
}

void print_run_json(std::ostream& out, const CheckRun& r) {
  out << "{\"name\":\"" << r.variant.name << "\",\"kind\":\"" << kind_name(r.variant.kind)
      << "\",\"expected\":\"" << to_string(r.variant.expected)
      << "\",\"as_expected\":" << (r.as_expected() ? "true" : "false") << ",\"violated\":[";
  const auto v = r.violated();
  for (std::size_t i = 0; i < v.size(); ++i)
    out << (i ? "," : "") << "\"" << to_string(v[i]) << "\"";
  out << "],\"executions\":" << r.executions() << ",\"graphs\":" << r.graphs()
      << ",\"seconds\":" << r.seconds() << ",\"complete\":" << (r.complete() ? "true" : "false")
      << ",\"instances\":[";
  for (std::size_t i = 0; i < r.runs.size(); ++i) {
    const auto& run = r.runs[i];
    out << (i ? "," : "") << "{\"instance\":\"" << instance_text(run)
        << "\",\"executions\":" << run.result.executions << ",\"graphs\":" << run.result.graphs
        << ",\"seconds\":" << run.result.seconds
        << ",\"executions_per_second\":" << per_second(run.result.executions, run.result.seconds)
        << ",\"reexplored\":" << (run.result.reexplored ? "true" : "false") << ",\"violations\":[";
    bool first = true;
    for (const auto& [p, viol] : run.result.violations) {
      std::ostringstream ce;
      print_counterexample(ce, run.system, viol);
      out << (first ? "" : ",") << "{\"property\":\"" << to_string(p) << "\",\"message\":\""
          << json_escape(viol.message) << "\",\"events\":" << viol.graph.size()
          << ",\"counterexample\":\"" << json_escape(ce.str()) << "\"}";
      first = false;
    }
    out << "]}";
  }
  out << "]}";
}

// --emit-promela: the instance as a Promela model (nothing is checked here).
int emit_promela(const NamedVariant& v, const Options& o, std::ostream& out) {
  std::ostringstream model;
  try {
    write_promela(model, promela_spec(v, o.settings));
  } catch (const std::invalid_argument& e) {  // an instance the explorer refuses too
    throw std::invalid_argument(std::string(v.name) + ": " + e.what());
  }
  std::ofstream f(o.promela);
  if (!(f << model.str()) || !f.flush())
    throw std::invalid_argument("cannot write " + o.promela + ": " + std::strerror(errno));
  out << "wrote " << o.promela << "\n";
  return kExitPass;
}

// --dot's file must be writable before a check that may run for minutes,
// not found unwritable after it. A regular file (or none) is tested by
// opening it, as permission bits say nothing to root, and one made only for
// the test is removed again; anything else there (a device, a pipe, a
// dangling link) is left to the write, which reports its own error.
void check_writable(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status target = fs::status(path, ec);
  if (fs::is_directory(target))
    throw std::invalid_argument("cannot write " + path + ": a directory");
  const bool nothing_there = !fs::exists(fs::symlink_status(path, ec));
  if (!nothing_there && !fs::is_regular_file(target)) return;
  const fs::path parent = fs::path(path).parent_path();
  const fs::path dir = parent.empty() ? fs::path(".") : parent;
  if (!fs::is_directory(dir, ec))
    throw std::invalid_argument("cannot write " + path + ": no directory " + dir.string());
  if (!std::ofstream(path, std::ios::app))
    throw std::invalid_argument("cannot write " + path + ": " + std::strerror(errno));
  if (nothing_there) fs::remove(path, ec);
}

// "[property] in <instance>" and the shortest counterexample of `p` over r's
// runs (p must be violated in one of them).
void print_shortest_counterexample(std::ostream& out, const CheckRun& r, Property p) {
  const InstanceRun* where = nullptr;
  const Violation* ce = r.counterexample(p, &where);
  out << "[" << to_string(p) << "] in " << instance_text(*where) << "\n";
  print_counterexample(out, where->system, *ce);
}

int check_one(const Options& o, std::ostream& out, std::ostream& err) {
  const auto v = find_variant(o.target);
  if (!v) throw UsageError("unknown variant '" + o.target + "' (see --list)");
  if (o.mode == Options::Mode::Variant && v->kind != Kind::Production)
    throw UsageError("'" + o.target + "' is a mutant: use --mutant");
  if (o.mode == Options::Mode::Mutant && v->kind != Kind::Mutant)
    throw UsageError("'" + o.target + "' is a production variant: use --variant");
  if (!o.promela.empty()) return emit_promela(*v, o, out);
  auto runs = plan_variant(*v, o.settings);
  if (!o.dot.empty()) check_writable(o.dot);
  const CheckRun r = explore_variant(*v, std::move(runs), o.settings);
  if (o.json) {
    print_run_json(out, r);
    out << "\n";
  } else {
    out << kind_name(v->kind) << " " << v->name << ": " << v->summary << "\n";
    for (const auto& run : r.runs) {
      const auto& res = run.result;
      out << "  [" << instance_text(run) << "]\n    " << res.executions << " executions ("
          << res.stuck << " stuck), " << res.graphs << " graphs in " << std::fixed
          << std::setprecision(2) << res.seconds << " s (" << std::setprecision(0)
          << per_second(res.executions, res.seconds) << " executions/s, "
          << per_second(res.graphs, res.seconds) << " graphs/s), longest block "
          << res.max_thread_steps << " steps"
          << (res.reexplored ? "; explored again without the voided reductions" : "")
          << (res.complete ? "" : "  INCOMPLETE: --max-graphs reached") << "\n";
    }
    out << "verdict: " << verdict_text(r) << "\n";
    for (Property p : r.violated()) {
      out << "\n";
      print_shortest_counterexample(out, r, p);
    }
  }
  if (!o.dot.empty()) {
    const auto v2 = r.violated();
    if (!v2.empty()) {
      const Property p = (v->kind == Kind::Mutant && r.as_expected()) ? v->expected : v2.front();
      const InstanceRun* where = nullptr;
      const Violation* ce = r.counterexample(p, &where);
      std::ofstream f(o.dot);
      write_dot(f, where->system, ce->graph, std::string(v->name) + ": " + to_string(p));
      if (!f.flush())
        throw std::invalid_argument("cannot write " + o.dot + ": " + std::strerror(errno));
    } else {
      err << "lookback-check: no counterexample, so no --dot file written\n";
    }
  }
  if (!r.violated().empty()) return kExitViolated;
  return r.complete() ? kExitPass : kExitIncomplete;
}

int check_all(const Options& o, std::ostream& out) {
  // Every variant's runs are built (and the flags checked against each)
  // before any is explored: a flag that does not suit one fails at once.
  // --wrap-launch applies to the runs it fits, and must fit one.
  std::vector<std::vector<InstanceRun>> plans;
  bool wrap_fits = false;
  for (const auto& v : kCatalogue) {
    plans.push_back(plan_variant(v, o.settings, /*wrap_launch_where_it_fits=*/true));
    wrap_fits |= std::any_of(plans.back().begin(), plans.back().end(), [](const InstanceRun& r) {
      return wrap_launches(r.protocol, r.instance.launches).size() > 1;
    });
  }
  if (o.settings.wrap_launch && !wrap_fits)
    throw std::invalid_argument(
        "--wrap-launch needs a run of two launches under the epoch reset, and --all has none "
        "(see --launches)");
  std::vector<CheckRun> runs;
  bool all_ok = true, mismatch = false;
  if (!o.json) {
    out << std::left << std::setw(kNameColumn) << "variant" << std::setw(12) << "kind"
        << std::setw(20) << "expected" << std::setw(58) << "verdict" << std::right << std::setw(12)
        << "executions" << std::setw(10) << "graphs" << std::setw(9) << "time" << std::setw(10)
        << "exec/s"
        << "\n";
  }
  for (std::size_t k = 0; k < std::size(kCatalogue); ++k) {
    const auto& v = kCatalogue[k];
    CheckRun r = explore_variant(v, std::move(plans[k]), o.settings);
    all_ok &= r.as_expected();
    mismatch |= !r.as_expected() && !r.inconclusive();
    if (!o.json) {
      std::ostringstream t;
      t << std::fixed << std::setprecision(2) << r.seconds() << "s";
      out << std::left << std::setw(kNameColumn) << v.name << std::setw(12) << kind_name(v.kind)
          << std::setw(20) << (v.kind == Kind::Mutant ? to_string(v.expected) : "-")
          << std::setw(58)
          << (verdict_text(r) + (r.as_expected()    ? ""
                                 : r.inconclusive() ? "  <-- INCOMPLETE"
                                                    : "  <-- UNEXPECTED"))
          << std::right << std::setw(12) << r.executions() << std::setw(10) << r.graphs()
          << std::setw(9) << t.str() << std::setw(10) << std::fixed << std::setprecision(0)
          << per_second(r.executions(), r.seconds()) << "\n"
          << std::flush;
    }
    runs.push_back(std::move(r));
  }
  if (o.json) {
    out << "{\"all_as_expected\":" << (all_ok ? "true" : "false") << ",\"variants\":[";
    for (std::size_t i = 0; i < runs.size(); ++i) {
      if (i) out << ",";
      print_run_json(out, runs[i]);
    }
    out << "]}\n";
  } else {
    // A verdict that differs from the expected one shows why: the shortest
    // counterexample of its first violated property, so a CI log carries it.
    for (const auto& r : runs) {
      const auto violated = r.violated();
      if (r.as_expected() || violated.empty()) continue;
      out << "\nUNEXPECTED " << r.variant.name << ": ";
      print_shortest_counterexample(out, r, violated.front());
    }
    int prod = 0, mut = 0, killed = 0;
    for (const auto& r : runs) {
      if (r.variant.kind == Kind::Production)
        ++prod;
      else {
        ++mut;
        killed += r.as_expected();
      }
    }
    out << "\n"
        << prod << " production variants, " << mut << " mutants, " << killed
        << " killed as expected: "
        << (all_ok     ? "ALL AS EXPECTED"
            : mismatch ? "MISMATCH"
                       : "INCOMPLETE (--max-graphs)")
        << "\n";
  }
  return all_ok ? kExitPass : mismatch ? kExitViolated : kExitIncomplete;
}

void list(std::ostream& out, bool json) {
  if (json) {
    out << "{\"variants\":[";
    for (std::size_t k = 0; k < std::size(kCatalogue); ++k) {
      const auto& v = kCatalogue[k];
      out << (k ? "," : "") << "{\"name\":" << json_string(v.name) << ",\"kind\":\""
          << kind_name(v.kind) << "\",\"expected\":\""
          << (v.kind == Kind::Production ? "pass" : to_string(v.expected))
          << "\",\"summary\":" << json_string(v.summary) << "}";
    }
    out << "]}\n";
    return;
  }
  for (const auto& v : kCatalogue) {
    // The widest expected verdict ("killed by no-torn-descriptor") fits with
    // a space to spare.
    out << std::left << std::setw(kNameColumn) << v.name << std::setw(12) << kind_name(v.kind)
        << std::setw(30)
        << (v.kind == Kind::Production ? std::string("pass")
                                       : std::string("killed by ") + to_string(v.expected))
        << " " << v.summary << "\n";
  }
}

}  // namespace

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  try {
    Options o = parse(args);
    LitmusRunProgress litmus_progress;
    if (!o.quiet) {
      auto lines = std::make_shared<ProgressLines>(err);
      o.settings.on_progress = [lines](const std::string& what, std::uint64_t g, std::uint64_t e) {
        lines->report(what, [&] {
          return std::to_string(g) + " graphs, " + std::to_string(e) + " executions";
        });
      };
      litmus_progress = [lines](const std::string& run, const std::string& what, std::uint64_t done,
                                std::uint64_t total) {
        lines->report(run, [&] {
          return std::to_string(done) + " of " + std::to_string(total) + " " + what;
        });
      };
    }
    switch (o.mode) {
      case Options::Mode::List:
        list(out, o.json);
        return kExitPass;
      case Options::Mode::All:
        return check_all(o, out);
      case Options::Mode::Variant:
      case Options::Mode::Mutant:
        return check_one(o, out, err);
      case Options::Mode::Litmus:
        return run_litmus_file(o.target, o.settings.model.value_or(MemoryModel::Ptx), o.json, out,
                               err, litmus_progress);
      case Options::Mode::LitmusSuite:
        return run_litmus_suite(o.target, o.json, out, err, litmus_progress);
      case Options::Mode::None:
        break;
    }
    throw UsageError("nothing to do");
  } catch (const UsageError& e) {
    if (*e.what())
      err << "lookback-check: " << e.what() << "\n";
    else {
      out << kUsage;
      return kExitPass;
    }
    err << kUsage;
    return kExitUsage;
  } catch (const std::invalid_argument& e) {
    err << "lookback-check: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    // Anything else from reading the input (a file system error while
    // walking a suite, say): one line and the input-error code, no abort.
    err << "lookback-check: " << e.what() << "\n";
    return kExitUsage;
  }
}

}  // namespace lookback::model
