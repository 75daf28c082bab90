// lookback-check's interface: exit codes, one-line usage errors, output
// shapes (table, counterexample, JSON, DOT).
#include "lookback/model/cli.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli_run.hpp"

namespace {

using lookback::model::testing::cli;
using lookback::model::testing::CliRun;
using lookback::model::testing::expect_one_line_error;


TEST(Cli, UsageErrorsExitTwoWithOneClearLine) {
  // cli() appends --quiet, which is then the value --variant lacks.
  for (const auto& [args, what] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--bogus"}, "unknown option '--bogus'"},
           {{"--variant"}, "--variant needs a value, not the option '--quiet'"},
           {{"--variant", "no-such-variant"}, "unknown variant 'no-such-variant' (see --list)"},
           {{"--variant", "warp-lookback", "--tiles", "0"},
            "--tiles: expected an integer in 1..16, got '0'"},
           {{"--variant", "warp-lookback", "--tiles", "x"},
            "--tiles: expected an integer in 1..16, got 'x'"},
           {{"--variant", "warp-lookback", "--memory-model", "tso"},
            "--memory-model: unknown value 'tso' (expected ptx|rc11|sc)"},
           {{"--mutant", "warp-lookback"},
            "'warp-lookback' is a production variant: use --variant"},
           {{"--variant", "stop-at-aggregate"}, "'stop-at-aggregate' is a mutant: use --mutant"},
           {{"--variant", "warp-lookback", "--launches", "3"},
            "--launches: expected an integer in 1..2, got '3'"},
           {{"--list", "--all"},
            "choose one of --list, --all, --variant, --mutant, --litmus, --litmus-suite"},
           {{}, "nothing to do"}})
    expect_one_line_error(args, what);
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

// --first stops a mutant's search at its expected property, not at the
// first of any: count-tiles-not-blocks meets monotone-status and termination
// before the data race it is killed by, and must still count as killed.
TEST(Cli, FirstStopsAMutantAtItsExpectedProperty) {
  const CliRun r = cli({"--mutant", "count-tiles-not-blocks", "--first", "--json"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("\"as_expected\":true"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"no-data-race\""), std::string::npos) << r.out;
  // The search went past the first property it met.
  EXPECT_NE(r.out.find("\"monotone-status\""), std::string::npos) << r.out;
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

// Options the chosen command does not read are refused, not ignored; so are
// repeats and an option where a value belongs. Nothing runs.
TEST(Cli, OptionsTheCommandDoesNotReadAreRefused) {
  const std::string variant = "warp-lookback";
  struct Refused {
    std::vector<std::string> args;
    std::string option;
  };
  for (const auto& [args, option] : std::vector<Refused>{
           {{"--list", "--tiles", "3"}, "--tiles"},
           {{"--all", "--dot", "x.dot"}, "--dot"},
           {{"--all", "--emit-promela", "x.pml"}, "--emit-promela"},
           {{"--litmus", "f.litmus", "--tiles", "3"}, "--tiles"},
           {{"--litmus", "f.litmus", "--dot", "x.dot"}, "--dot"},
           {{"--litmus-suite", "dir", "--memory-model", "sc"}, "--memory-model"},
           {{"--litmus-suite", "dir", "--jobs", "2"}, "--jobs"},
           {{"--variant", variant, "--emit-promela", "x.pml", "--json"}, "--json"},
           {{"--variant", variant, "--emit-promela", "x.pml", "--max-graphs", "9"}, "--max-graphs"},
           {{"--variant", variant, "--emit-promela", "x.pml", "--first"}, "--first"}}) {
    const CliRun r = cli(args);
    EXPECT_EQ(r.code, 2) << args[0] << " " << option;
    EXPECT_EQ(r.err.rfind("lookback-check: " + option + " does not apply to --", 0), 0u) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  const CliRun twice = cli({"--variant", variant, "--tiles", "3", "--tiles", "4"});
  EXPECT_EQ(twice.code, 2);
  EXPECT_NE(twice.err.find("--tiles given twice"), std::string::npos) << twice.err;
  // `--dot --json` would have written a file named --json.
  const CliRun flag_as_value = cli({"--variant", variant, "--dot", "--json"});
  EXPECT_EQ(flag_as_value.code, 2);
  EXPECT_NE(flag_as_value.err.find("--dot needs a value, not the option '--json'"),
            std::string::npos)
      << flag_as_value.err;
  EXPECT_TRUE(flag_as_value.out.empty());
}

// Every run's instance is built before any is explored: a flag that does not
// suit one run fails at once (no table, no partial output) and names it.
TEST(Cli, AFlagThatDoesNotSuitARunFailsBeforeAnythingRuns) {
  const CliRun all = cli({"--all", "--layout", "packed"});
  EXPECT_EQ(all.code, 2);
  EXPECT_TRUE(all.out.empty()) << all.out;
  EXPECT_NE(all.err.find("split-value-overwritten (packed, 1 launch): "), std::string::npos)
      << all.err;
  // pipelined's one-launch run takes 5 blocks (6 tiles); its two-launch run
  // has 4 tiles and cannot.
  const CliRun blocks = cli({"--variant", "pipelined", "--blocks", "5"});
  EXPECT_EQ(blocks.code, 2);
  EXPECT_TRUE(blocks.out.empty()) << blocks.out;
  EXPECT_NE(blocks.err.find("pipelined (packed, 2 launches, launch 0 wraps): --blocks"),
            std::string::npos)
      << blocks.err;
}

// --wrap-launch picks the wrapping launch of the two-launch runs under the
// epoch reset and leaves the one-launch runs alone; a variant with no such run
// refuses it.
TEST(Cli, WrapLaunchAppliesToTheTwoLaunchEpochRuns) {
  const CliRun r = cli(
      {"--variant", "warp-lookback", "--tiles", "3", "--layout", "packed", "--wrap-launch", "1"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("1 launch, ptx"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 launches, ptx, progress obe, launch 1 wraps"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("launch 0 wraps"), std::string::npos) << r.out;
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--variant", "warp-lookback", "--launches", "1", "--wrap-launch", "0"},
           {"--mutant", "stop-at-aggregate", "--wrap-launch", "0"}}) {
    const CliRun refused = cli(args);
    EXPECT_EQ(refused.code, 2) << args[1];
    EXPECT_NE(refused.err.find(args[1] + ": --wrap-launch needs a run of two launches"),
              std::string::npos)
        << refused.err;
  }
}

// --held-windows overrides how many passed windows a left fold keeps for
// its second pass (the run says so); a tree look-back and --all refuse it.
TEST(Cli, HeldWindowsOverridesTheLeftFoldsSecondPass) {
  const CliRun r = cli({"--variant", "warp-lookback-deterministic", "--tiles", "4", "--window", "1",
                        "--layout", "packed", "--launches", "1", "--held-windows", "1"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find(", 1 held window]"), std::string::npos) << r.out;
  const CliRun catalogue = cli({"--variant", "warp-lookback-deterministic", "--tiles", "4",
                                "--window", "1", "--layout", "packed", "--launches", "1"});
  EXPECT_EQ(catalogue.code, 0) << catalogue.err;
  EXPECT_NE(catalogue.out.find(", 4 held windows]"), std::string::npos) << catalogue.out;
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--variant", "warp-lookback", "--held-windows", "1"},
           {"--mutant", "fold-without-second-pass", "--held-windows", "1"},
           {"--variant", "warp-lookback", "--emit-promela", "x.pml", "--held-windows", "1"}}) {
    const CliRun refused = cli(args);
    EXPECT_EQ(refused.code, 2) << args.size();
    EXPECT_NE(refused.err.find("--held-windows applies to left-fold (deterministic) variants with "
                               "a second pass only"),
              std::string::npos)
        << refused.err;
    EXPECT_TRUE(refused.out.empty()) << refused.out;
  }
  const CliRun all = cli({"--all", "--held-windows", "1"});
  EXPECT_EQ(all.code, 2);
  EXPECT_NE(all.err.find("--held-windows does not apply to --all"), std::string::npos) << all.err;
  const CliRun range = cli({"--variant", "warp-lookback-deterministic", "--held-windows", "9"});
  EXPECT_EQ(range.code, 2);
  EXPECT_NE(range.err.find("--held-windows: expected an integer in 0..8"), std::string::npos)
      << range.err;
}

// With --all, --wrap-launch applies to the runs where it picks between two
// (the catalogue's other entries run as without it); it must fit one.
TEST(Cli, AllTakesWrapLaunchWhereItFits) {
  const std::vector<std::string> small = {"--tiles",  "2",     "--launches", "2",
                                          "--layout", "split", "--progress", "hsa"};
  auto all = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"--all"};
    args.insert(args.end(), small.begin(), small.end());
    args.insert(args.end(), extra.begin(), extra.end());
    return cli(args);
  };
  // A variant's row of the table, its words but the last two (time and
  // exec/s vary from run to run).
  auto row = [](const std::string& out, const std::string& name) {
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) {
      if (line.rfind(name + " ", 0) != 0) continue;
      std::vector<std::string> words;
      std::istringstream split(line);
      for (std::string word; split >> word;)
        words.push_back(word);
      words.resize(words.size() - 2);
      std::string text;
      for (const auto& word : words)
        text += word + " ";
      return text;
    }
    return "no row " + name;
  };
  const CliRun both = all({});
  const CliRun wrap1 = all({"--wrap-launch", "1"});
  EXPECT_NE(wrap1.code, 2) << wrap1.err;
  EXPECT_NE(wrap1.out.find("11 production variants, 18 mutants"), std::string::npos) << wrap1.out;
  // Explored once (launch 1 wraps) instead of twice: fewer executions.
  EXPECT_NE(row(both.out, "warp-lookback"), row(wrap1.out, "warp-lookback"));
  // No choice to make: no reset at all, or a 1-bit epoch (launch 0 wraps).
  for (const char* name : {"no-reset", "epoch-wrap-not-cleared"}) {
    EXPECT_EQ(row(both.out, name), row(wrap1.out, name)) << name;
    EXPECT_EQ(row(both.out, name).rfind(name, 0), 0u) << both.out;
  }
  const CliRun none = cli({"--all", "--launches", "1", "--wrap-launch", "0"});
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.err.find("--all has none"), std::string::npos) << none.err;
}

// --emit-promela takes --wrap-launch on the same terms as a check, and with
// a command that cannot emit a model the command is named.
TEST(Cli, EmitPromelaRefusesWhatACheckRefuses) {
  const CliRun wrap =
      cli({"--variant", "warp-lookback", "--emit-promela", ::testing::TempDir() + "/x.pml",
           "--launches", "1", "--wrap-launch", "0"});
  EXPECT_EQ(wrap.code, 2);
  EXPECT_NE(wrap.err.find("warp-lookback: --wrap-launch needs two launches"), std::string::npos)
      << wrap.err;
  const CliRun litmus = cli({"--litmus", "f.litmus", "--tiles", "3", "--emit-promela", "x.pml"});
  EXPECT_EQ(litmus.code, 2);
  EXPECT_EQ(litmus.err.rfind("lookback-check: --emit-promela does not apply to --litmus", 0), 0u)
      << litmus.err;
}

TEST(Cli, ListAsJsonNamesEveryVariant) {
  const CliRun text = cli({"--list"});
  const CliRun json = cli({"--list", "--json"});
  EXPECT_EQ(json.code, 0);
  EXPECT_EQ(json.out.rfind("{\"variants\":[{\"name\":\"warp-lookback\",\"kind\":\"production\","
                           "\"expected\":\"pass\",\"summary\":",
                           0),
            0u)
      << json.out;
  EXPECT_NE(json.out.find("{\"name\":\"stop-at-aggregate\",\"kind\":\"mutant\",\"expected\":"
                          "\"correct-prefix\""),
            std::string::npos)
      << json.out;
  auto count = [](const std::string& s, const std::string& what) {
    std::size_t n = 0;
    for (auto at = s.find(what); at != std::string::npos; at = s.find(what, at + 1))
      ++n;
    return n;
  };
  EXPECT_EQ(count(json.out, "{\"name\":"), count(text.out, "\n"));
}

// An unwritable --dot path is found before the search, not after it.
TEST(Cli, DotPathIsCheckedBeforeTheSearch) {
  const std::string dir = ::testing::TempDir();
  for (const std::string& path : {dir + "/no-such-folder/x.dot", dir}) {
    const CliRun r = cli({"--mutant", "fallback-plain-store", "--tiles", "3", "--dot", path});
    EXPECT_EQ(r.code, 2) << path;
    EXPECT_EQ(r.err.rfind("lookback-check: cannot write " + path, 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

// '-' is not stdout to --dot or --emit-promela (it would be a file named
// '-'), and an empty file name is no file.
TEST(Cli, OutputFilesNeedAName) {
  for (const std::string flag : {"--dot", "--emit-promela"})
    for (const std::string file : {"-", ""}) {
      const CliRun r = cli({"--mutant", "fallback-plain-store", "--tiles", "3", flag, file});
      EXPECT_EQ(r.code, 2) << flag << " '" << file << "'";
      EXPECT_EQ(r.err.rfind("lookback-check: " + flag, 0), 0u) << r.err;
      EXPECT_TRUE(r.out.empty()) << r.out;
    }
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
