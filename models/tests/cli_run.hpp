// Runs lookback-check's command line in process (run_cli, --quiet added) and
// checks its usage errors: for the CLI tests of the checker and of the
// Promela export.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "lookback/model/cli.hpp"

namespace lookback::model::testing {

struct CliRun {
  int code;
  std::string out, err;
};

inline CliRun cli(std::vector<std::string> args) {
  std::ostringstream out, err;
  args.push_back("--quiet");
  const int code = run_cli(args, out, err);
  return {code, out.str(), err.str()};
}

// An error's one line on stderr, naming the problem (`what`): exit code 2,
// and after the line the usage text where the command line itself is wrong
// (`usage`), nothing where only its input is.
inline void expect_one_line_error(const std::vector<std::string>& args, const std::string& what,
                                  bool usage = true) {
  static const std::string kUsageText = cli({"--help"}).out;
  const CliRun r = cli(args);
  EXPECT_EQ(r.code, 2) << what;
  EXPECT_TRUE(r.out.empty()) << what << "\n" << r.out;
  std::string line = r.err;
  if (usage) {
    ASSERT_FALSE(kUsageText.empty());
    ASSERT_GE(r.err.size(), kUsageText.size()) << r.err;
    EXPECT_EQ(r.err.substr(r.err.size() - kUsageText.size()), kUsageText) << r.err;
    line = r.err.substr(0, r.err.size() - kUsageText.size());
  }
  EXPECT_EQ(line.rfind("lookback-check: ", 0), 0u) << line;
  EXPECT_EQ(std::count(line.begin(), line.end(), '\n'), 1) << line;
  EXPECT_NE(line.find(what), std::string::npos) << "expected '" << what << "' in: " << line;
}

}  // namespace lookback::model::testing
