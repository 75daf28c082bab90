// lookback-check's interface: exit codes, one-line usage errors, output
// shapes (table, counterexample, JSON, DOT).
#include "lookback/model/cli.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace {

using lookback::model::run_cli;

struct CliRun {
  int code;
  std::string out, err;
};

CliRun cli(std::vector<std::string> args) {
  std::ostringstream out, err;
  args.push_back("--quiet");
  const int code = run_cli(args, out, err);
  return {code, out.str(), err.str()};
}

TEST(Cli, UsageErrorsExitTwoWithOneClearLine) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--bogus"},
           {"--variant"},
           {"--variant", "no-such-variant"},
           {"--variant", "warp-lookback", "--tiles", "0"},
           {"--variant", "warp-lookback", "--tiles", "x"},
           {"--variant", "warp-lookback", "--memory-model", "tso"},
           {"--mutant", "warp-lookback"},
           {"--variant", "stop-at-aggregate"},
           {"--variant", "warp-lookback", "--launches", "3"},
           {"--list", "--all"},
           {}}) {
    const CliRun r = cli(args);
    EXPECT_EQ(r.code, 2) << (args.empty() ? "(no args)" : args[0]);
    EXPECT_EQ(r.err.rfind("lookback-check: ", 0), 0u) << r.err;
  }
}

TEST(Cli, HelpExitsZero) {
  EXPECT_EQ(cli({"--help"}).code, 0);
}

TEST(Cli, ListShowsEveryVariantWithItsExpectedVerdict) {
  const CliRun r = cli({"--list"});
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("warp-lookback"), std::string::npos);
  EXPECT_NE(r.out.find("killed by no-data-race"), std::string::npos);
  EXPECT_NE(r.out.find("killed by termination"), std::string::npos);
  // The longest name still has a space before its kind column, the longest
  // expected verdict before its summary.
  EXPECT_NE(r.out.find("fallback-inplace-fence-odd-tiles  mutant"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("killed by no-torn-descriptor  "), std::string::npos) << r.out;
}

TEST(Cli, ProductionVariantPassesWithExitZero) {
  const CliRun r =
      cli({"--variant", "warp-lookback", "--tiles", "3", "--layout", "packed", "--launches", "1"});
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("verdict: pass"), std::string::npos);
  EXPECT_NE(r.out.find(" executions (0 stuck), "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" executions/s, "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" graphs/s), "), std::string::npos) << r.out;
}

// A search cut short by --max-graphs with nothing violated is neither a
// pass nor a kill: exit 3, marked in the verdict (and in --all's table).
TEST(Cli, AnIncompleteSearchIsNotAPass) {
  const CliRun r = cli({"--variant", "warp-lookback", "--tiles", "3", "--layout", "packed",
                        "--launches", "1", "--max-graphs", "5", "--jobs", "1"});
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("verdict: pass (incomplete)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("INCOMPLETE: --max-graphs reached"), std::string::npos) << r.out;
  // Nor does a mutant's search cut short exit 0 (killed in time: 1; not: 3).
  const CliRun m = cli({"--mutant", "stop-at-aggregate", "--tiles", "3", "--layout", "packed",
                        "--max-graphs", "5", "--jobs", "1"});
  EXPECT_NE(m.code, 0) << m.out;
}

// --all's table alone does not say why a verdict is wrong: each UNEXPECTED
// row with a violation is followed by a counterexample (here variants fail
// termination under HSA progress at 2 tiles; a mutant that is not killed has
// none to show).
TEST(Cli, AllPrintsACounterexampleForEveryUnexpectedVerdict) {
  const CliRun r =
      cli({"--all", "--tiles", "2", "--launches", "1", "--layout", "split", "--progress", "hsa"});
  EXPECT_EQ(r.code, 1);
  std::size_t rows = 0, explained = 0;
  std::istringstream table(r.out);
  for (std::string line; std::getline(table, line);)
    rows += line.find("FAIL: ") != std::string::npos &&
            line.find("<-- UNEXPECTED") != std::string::npos;
  for (std::size_t at = r.out.find("\nUNEXPECTED "); at != std::string::npos;
       at = r.out.find("\nUNEXPECTED ", at + 1))
    ++explained;
  EXPECT_GT(rows, 0u) << r.out;
  EXPECT_EQ(explained, rows) << r.out;
  EXPECT_NE(r.out.find("UNEXPECTED warp-lookback: [termination] in "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("counterexample"), std::string::npos) << r.out;
}

TEST(Cli, MutantPrintsACounterexampleAndExitsOne) {
  const CliRun r = cli({"--mutant", "stop-at-aggregate", "--tiles", "3", "--layout", "packed"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("counterexample"), std::string::npos);
  EXPECT_NE(r.out.find("violated: correct-prefix: "), std::string::npos);
  EXPECT_NE(r.out.find("look-back read"), std::string::npos);
  EXPECT_NE(r.out.find("(from "), std::string::npos);
}

TEST(Cli, JsonOutputIsOneObject) {
  const CliRun r = cli({"--mutant", "no-reader-acquire", "--tiles", "2", "--json"});
  EXPECT_EQ(r.code, 1);
  ASSERT_FALSE(r.out.empty());
  EXPECT_EQ(r.out.front(), '{');
  EXPECT_NE(r.out.find("\"violated\":[\"no-data-race\""), std::string::npos);
  EXPECT_NE(r.out.find("\"counterexample\":"), std::string::npos);
  EXPECT_NE(r.out.find("\"executions_per_second\":"), std::string::npos);
  EXPECT_NE(r.out.find("\"reexplored\":"), std::string::npos);
}

TEST(Cli, DotFileHoldsTheCounterexampleGraph) {
  const std::string path = ::testing::TempDir() + "/lookback_cli_test.dot";
  std::remove(path.c_str());
  const CliRun r = cli({"--mutant", "fallback-plain-store", "--tiles", "3", "--dot", path});
  EXPECT_EQ(r.code, 1);
  std::ifstream f(path);
  ASSERT_TRUE(f.good());
  std::stringstream text;
  text << f.rdbuf();
  EXPECT_EQ(text.str().rfind("digraph execution", 0), 0u);
  EXPECT_NE(text.str().find("label=rf"), std::string::npos);
  EXPECT_NE(text.str().find("monotone-status"), std::string::npos);
}

TEST(Cli, SameInputSameOutput) {
  const CliRun a = cli({"--mutant", "split-value-overwritten", "--tiles", "3"});
  const CliRun b = cli({"--mutant", "split-value-overwritten", "--tiles", "3"});
  EXPECT_EQ(a.code, 1);
  // Identical apart from timings.
  auto strip = [](std::string s) {
    std::string out;
    std::istringstream in(s);
    for (std::string line; std::getline(in, line);)
      if (line.find(" graphs in ") == std::string::npos) out += line + "\n";
    return out;
  };
  EXPECT_EQ(strip(a.out), strip(b.out));
}

}  // namespace
