// The litmus commands of lookback-check: one file, or a directory of them
// checked against their `expect` lines.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "lookback/model/cli.hpp"
#include "lookback/model/litmus.hpp"
#include "lookback/model/litmus_check.hpp"
#include "lookback/model/litmus_parse.hpp"
#include "lookback/model/litmus_report.hpp"

namespace lookback::model {

namespace {

constexpr MemoryModel kModels[] = {MemoryModel::Ptx, MemoryModel::Rc11, MemoryModel::Sc};

// Reads and parses one file; on failure writes the one error line to `error`.
std::optional<LitmusTest> load(const std::string& path, std::string& error) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    error = path + ": is a directory (--litmus-suite checks one)";
    return std::nullopt;
  }
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    error = path + ": cannot read the file";
    return std::nullopt;
  }
  std::ostringstream text;
  text << f.rdbuf();
  try {
    return parse_litmus(text.str());
  } catch (const LitmusSyntaxError& e) {
    error = format_error(path, e);
    return std::nullopt;
  }
}

// check_litmus with `progress` told which test and model it hears about.
LitmusResult check(const LitmusTest& test, MemoryModel model, const LitmusRunProgress& progress) {
  LitmusProgress on_progress;
  if (progress)
    on_progress = [&](const std::string& what, std::uint64_t done, std::uint64_t total) {
      progress("litmus " + test.name + " under " + to_string(model), what, done, total);
    };
  return check_litmus(test, model, /*prune=*/true, on_progress);
}

std::optional<bool> expectation(const LitmusTest& t, MemoryModel m) {
  const auto it = t.expect.find(m);
  if (it == t.expect.end()) return std::nullopt;
  return it->second;
}

}  // namespace

int run_litmus_file(const std::string& path, MemoryModel model, bool json, std::ostream& out,
                    std::ostream& err, const LitmusRunProgress& progress) {
  std::string error;
  const auto test = load(path, error);
  if (!test) {
    err << error << "\n";
    return kExitUsage;
  }
  LitmusResult r;
  try {
    r = check(*test, model, progress);
  } catch (const std::runtime_error& e) {
    err << path << ": " << e.what() << "\n";
    return kExitUsage;
  }
  const auto expected = expectation(*test, model);
  if (json)
    out << result_json(*test, r, expected) << "\n";
  else
    print_result(out, *test, r, expected);
  return !expected || *expected == r.target_allowed ? kExitPass : kExitViolated;
}

int run_litmus_suite(const std::string& dir, bool json, std::ostream& out, std::ostream& err,
                     const LitmusRunProgress& progress) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    err << "lookback-check: " << dir << " is not a directory\n";
    return kExitUsage;
  }
  // Every file-system call with an error_code: a link loop or an unreadable
  // folder is an input error (one line, exit 2), not an exception.
  std::vector<fs::path> files;
  fs::recursive_directory_iterator it(dir, ec);
  for (const fs::recursive_directory_iterator end; !ec && it != end; it.increment(ec)) {
    std::error_code entry_ec;
    if (it->is_regular_file(entry_ec) && it->path().extension() == ".litmus")
      files.push_back(it->path());
    if (entry_ec) {
      err << "lookback-check: cannot read " << it->path().string() << ": " << entry_ec.message()
          << "\n";
      return kExitUsage;
    }
  }
  if (ec) {
    err << "lookback-check: cannot read " << dir << ": " << ec.message() << "\n";
    return kExitUsage;
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    err << "lookback-check: no *.litmus files under " << dir << "\n";
    return kExitUsage;
  }

  int checks = 0, mismatches = 0, malformed = 0;
  std::vector<std::string> json_tests;
  if (!json) {
    out << std::left << std::setw(34) << "litmus test";
    for (MemoryModel m : kModels)
      out << std::setw(13) << to_string(m);
    out << std::right << std::setw(9) << "time"
        << "\n";
  }
  for (const auto& file : files) {
    std::string error;
    const auto test = load(file.string(), error);
    if (!test) {
      ++malformed;
      if (json)
        json_tests.push_back(std::string("{\"file\":") + json_string(file.string()) +
                             ",\"error\":" + json_string(error) + "}");
      else
        out << std::left << std::setw(34) << file.filename().string() << error << "\n";
      continue;
    }
    std::string row, results;
    double seconds = 0;
    for (MemoryModel m : kModels) {
      const auto expected = expectation(*test, m);
      if (!expected) {
        row += "-            ";
        continue;
      }
      LitmusResult r;
      try {
        r = check(*test, m, progress);
      } catch (const std::runtime_error& e) {
        ++malformed;
        error = file.string() + ": " + e.what();
        break;
      }
      ++checks;
      seconds += r.seconds;
      const bool ok = *expected == r.target_allowed;
      mismatches += !ok;
      std::string cell = r.target_allowed ? "A" : "F";
      if (!ok) cell += std::string(" (want ") + (*expected ? "A" : "F") + ")";
      cell.resize(std::max<std::size_t>(cell.size() + 1, 13), ' ');
      row += cell;
      if (!results.empty()) results += ",";
      results += result_json(*test, r, expected);
    }
    if (json) {
      json_tests.push_back(std::string("{\"file\":") + json_string(file.string()) +
                           ",\"test\":" + json_string(test->name) + ",\"error\":" +
                           (error.empty() ? std::string("null") : json_string(error)) +
                           ",\"results\":[" + results + "]}");
    } else if (!error.empty()) {
      out << std::left << std::setw(34) << test->name << error << "\n";
    } else {
      std::ostringstream t;
      t << std::fixed << std::setprecision(2) << seconds << "s";
      out << std::left << std::setw(34) << test->name << row << std::right << std::setw(9)
          << t.str() << (test->expect.empty() ? "  (no expect lines)" : "") << "\n"
          << std::flush;
    }
  }
  const bool all_ok = mismatches == 0 && malformed == 0;
  if (json) {
    out << "{\"all_as_expected\":" << (all_ok ? "true" : "false") << ",\"checks\":" << checks
        << ",\"mismatches\":" << mismatches << ",\"errors\":" << malformed << ",\"tests\":[";
    for (std::size_t k = 0; k < json_tests.size(); ++k)
      out << (k ? "," : "") << json_tests[k];
    out << "]}\n";
  } else {
    out << "\nA = the condition's outcome is allowed, F = forbidden, - = no expect line\n"
        << files.size() << " tests, " << checks << " verdicts: ";
    if (all_ok)
      out << "ALL AS EXPECTED\n";
    else
      out << mismatches << " differ from their expect lines, " << malformed
          << " files could not be checked\n";
  }
  if (malformed) return kExitUsage;
  return mismatches ? kExitViolated : kExitPass;
}

}  // namespace lookback::model
