// `lookback-check --litmus FILE` and `--litmus-suite DIR`: reports,
// witnesses and exit codes (0 as expected, 1 mismatch, 2 malformed).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "lookback/model/cli.hpp"

namespace {

using namespace lookback::model;
namespace fs = std::filesystem;

constexpr const char* kMpRelaxed = R"(litmus MP+rlx
thread P0:
  st.relaxed.gpu [x], 1
  st.relaxed.gpu [y], 1
thread P1:
  r0 = ld.relaxed.gpu [y]
  r1 = ld.relaxed.gpu [x]
exists (P1:r0 == 1 /\ P1:r1 == 0)
)";

// A scratch directory, removed with its files.
class LitmusCli : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("litmus_cli_" +
            std::string(testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  int run(std::vector<std::string> args) {
    out_.str("");
    err_.str("");
    return run_cli(args, out_, err_);
  }

  fs::path dir_;
  std::ostringstream out_, err_;
};

TEST_F(LitmusCli, AllowedOutcomeComesWithAWitness) {
  const std::string f = write("mp.litmus", std::string(kMpRelaxed) + "expect ptx allowed\n");
  EXPECT_EQ(run({"--litmus", f}), kExitPass) << err_.str();
  const std::string out = out_.str();
  EXPECT_NE(out.find("allowed; `exists` holds"), std::string::npos) << out;
  EXPECT_NE(out.find("witness"), std::string::npos) << out;
  EXPECT_NE(out.find("r0 = ld.relaxed.gpu [y]"), std::string::npos) << out;
  EXPECT_NE(out.find("reads 1 from P0 #1"), std::string::npos) << out;
  EXPECT_NE(out.find("reads 0 from init"), std::string::npos) << out;
  EXPECT_NE(out.find("as expected"), std::string::npos) << out;
}

TEST_F(LitmusCli, ExitCodeFollowsTheExpectLineOfTheChosenModel) {
  const std::string f =
      write("mp.litmus", std::string(kMpRelaxed) + "expect ptx forbidden\nexpect sc forbidden\n");
  EXPECT_EQ(run({"--litmus", f}), kExitViolated);  // ptx allows it
  EXPECT_NE(out_.str().find("MISMATCH"), std::string::npos) << out_.str();
  EXPECT_EQ(run({"--litmus", f, "--memory-model", "sc"}), kExitPass);
  EXPECT_EQ(out_.str().find("witness"), std::string::npos) << out_.str();
  EXPECT_EQ(run({"--litmus", f, "--memory-model", "rc11"}), kExitPass);  // no expect line
}

TEST_F(LitmusCli, JsonOutput) {
  const std::string f = write("mp.litmus", kMpRelaxed);
  EXPECT_EQ(run({"--litmus", f, "--json", "--memory-model", "rc11"}), kExitPass);
  const std::string out = out_.str();
  EXPECT_EQ(out.rfind("{\"test\":\"MP+rlx\",\"model\":\"rc11\"", 0), 0u) << out;
  EXPECT_NE(out.find("\"verdict\":\"allowed\""), std::string::npos) << out;
  EXPECT_NE(out.find("\"expected\":null"), std::string::npos) << out;
}

TEST_F(LitmusCli, ForallVerdictIsAboutACounterexample) {
  const std::string f = write("f.litmus", R"(litmus F
thread P0:
  r0 = atom.add [x], 1
thread P1:
  r0 = atom.add [x], 1
forall (x == 2)
expect ptx forbidden
)");
  EXPECT_EQ(run({"--litmus", f}), kExitPass) << out_.str();
  EXPECT_NE(out_.str().find("`forall` holds"), std::string::npos) << out_.str();
}

TEST_F(LitmusCli, MalformedFileGetsOneErrorLineAndExit2) {
  const std::string f = write("bad.litmus", "litmus B\nthread P0:\n  r0 = ld.relaxed [x]\n");
  EXPECT_EQ(run({"--litmus", f}), kExitUsage);
  EXPECT_EQ(err_.str(), f + ":3:8: ld.relaxed needs a scope: .cta, .gpu or .sys\n");
  EXPECT_EQ(run({"--litmus", (dir_ / "missing.litmus").string()}), kExitUsage);
}

TEST_F(LitmusCli, SuiteExitCodes) {
  write("a.litmus", std::string(kMpRelaxed) + "expect ptx allowed\nexpect sc forbidden\n");
  EXPECT_EQ(run({"--litmus-suite", dir_.string()}), kExitPass) << out_.str();
  EXPECT_NE(out_.str().find("1 tests, 2 verdicts: ALL AS EXPECTED"), std::string::npos)
      << out_.str();
  write("b.litmus", std::string(kMpRelaxed) + "expect ptx forbidden\n");
  EXPECT_EQ(run({"--litmus-suite", dir_.string()}), kExitViolated);
  EXPECT_NE(out_.str().find("A (want F)"), std::string::npos) << out_.str();
  write("c.litmus", "litmus C\n");
  EXPECT_EQ(run({"--litmus-suite", dir_.string()}), kExitUsage);
  EXPECT_NE(out_.str().find("c.litmus:2:1: no threads"), std::string::npos) << out_.str();
  EXPECT_EQ(run({"--json", "--litmus-suite", dir_.string()}), kExitUsage);
  EXPECT_NE(out_.str().find("\"all_as_expected\":false"), std::string::npos) << out_.str();
}

// fence.sc orders are built per thread: sixteen fences in one thread are one
// order under PTX (filtering all 16! permutations never finished), and four
// threads of four fences, 63,063,000 orders, are refused up front.
TEST_F(LitmusCli, ManyScFencesAreOrderedPerThread) {
  std::string one = "litmus F16\nthread P0:\n";
  for (int i = 0; i < 16; ++i)
    one += "  fence.sc.gpu\n";
  one += "  st.relaxed.gpu [x], 1\nexists (x == 1)\nexpect ptx allowed\n";
  EXPECT_EQ(run({"--litmus", write("one.litmus", one)}), kExitPass) << out_.str() << err_.str();
  std::string four = "litmus F4x4\n";
  for (int t = 0; t < 4; ++t) {
    four += "thread P" + std::to_string(t) + ":\n";
    for (int i = 0; i < 4; ++i)
      four += "  fence.sc.gpu\n";
  }
  four += "  st.relaxed.gpu [x], 1\nexists (x == 1)\n";
  EXPECT_EQ(run({"--litmus", write("four.litmus", four)}), kExitUsage);
  EXPECT_NE(err_.str().find("orders of the fence.sc events"), std::string::npos) << err_.str();
}

// A link that loops is read as an input error, one line, exit 2 (the
// directory walk used to throw and abort).
TEST_F(LitmusCli, SuiteWithAnUnreadableEntryIsAnInputError) {
  write("a.litmus", std::string(kMpRelaxed) + "expect ptx allowed\n");
  fs::create_symlink("loop.litmus", dir_ / "loop.litmus");
  EXPECT_EQ(run({"--litmus-suite", dir_.string()}), kExitUsage);
  const std::string err = err_.str();
  EXPECT_EQ(err.rfind("lookback-check: cannot read ", 0), 0u) << err;
  EXPECT_NE(err.find("loop.litmus"), std::string::npos) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
}

TEST_F(LitmusCli, ADirectoryIsNotALitmusFile) {
  EXPECT_EQ(run({"--litmus", dir_.string()}), kExitUsage);
  EXPECT_NE(err_.str().find("is a directory"), std::string::npos) << err_.str();
}

// A straight-line program: `writers` threads each store `stores` times to
// every location of `locs` (distinct values), then `readers` threads each
// load `loads` times from every location; ends with `tail` (condition,
// expect lines).
std::string stores_then_loads(const std::vector<std::string>& locs, int writers, int stores,
                              int readers, int loads, const std::string& tail) {
  std::string text = "litmus generated\n";
  for (int t = 0; t < writers; ++t) {
    text += "thread W" + std::to_string(t) + ":\n";
    for (const auto& loc : locs)
      for (int i = 1; i <= stores; ++i)
        text += "  st.relaxed.gpu [" + loc + "], " + std::to_string(100 * t + i) + "\n";
  }
  for (int t = 0; t < readers; ++t) {
    text += "thread R" + std::to_string(t) + ":\n";
    int reg = 0;
    for (const auto& loc : locs)
      for (int i = 0; i < loads; ++i)
        text += "  r" + std::to_string(reg++) + " = ld.relaxed.gpu [" + loc + "]\n";
  }
  return text + tail;
}

// Coherence keeps a thread's writes to a location in program order, so only
// those orders are built: a dozen writes of one thread are one candidate (12!
// orders were refused), and the bound counts interleavings, not permutations.
TEST_F(LitmusCli, WritesOfOneThreadHaveOneCoherenceOrder) {
  const std::string one =
      stores_then_loads({"x"}, 1, 12, 0, 0, "exists (x == 12)\nexpect ptx allowed\n");
  EXPECT_EQ(run({"--litmus", write("w12.litmus", one)}), kExitPass) << err_.str();
  EXPECT_NE(out_.str().find("1 candidate executions"), std::string::npos) << out_.str();
}

// Two caps: candidates (checked by the axioms, about 60,000 a second) and the
// locations' choices before their filters (millions a second), each
// refused at once, before anything is enumerated.
TEST_F(LitmusCli, CandidatesAndLocationChoicesHaveTheirOwnCaps) {
  // Two threads write x and y three times each, two read each twice: each
  // location's choices are in the thousands, the candidates their product.
  const std::string wide = stores_then_loads({"x", "y"}, 2, 3, 2, 2, "exists (R0:r0 == 1)\n");
  EXPECT_EQ(run({"--litmus", write("wide.litmus", wide)}), kExitUsage);
  EXPECT_NE(err_.str().find("more than 4000000 candidate executions"), std::string::npos)
      << err_.str();
  // Nine writes in three threads and six reads of one location: 9!/(3!3!3!)
  // coherence orders times 10^6 sources.
  const std::string deep = stores_then_loads({"x"}, 3, 3, 2, 3, "exists (R0:r0 == 1)\n");
  EXPECT_EQ(run({"--litmus", write("deep.litmus", deep)}), kExitUsage);
  EXPECT_NE(err_.str().find("more than 25000000 reads-from and coherence choices to filter"),
            std::string::npos)
      << err_.str();
  // The cap on choices covers every location together: x and y each have
  // 3^15 (14.3M) choices, under it alone.
  const std::string both = stores_then_loads({"x", "y"}, 1, 2, 1, 15, "exists (R0:r0 == 1)\n");
  EXPECT_EQ(run({"--litmus", write("both.litmus", both)}), kExitUsage);
  EXPECT_NE(err_.str().find("more than 25000000 reads-from and coherence choices to filter"),
            std::string::npos)
      << err_.str();
  // Three threads of six writes to a location nobody reads: its 17M coherence
  // orders all pass the filter, so they are refused as candidates at once,
  // not after building four million of them.
  const std::string unread = stores_then_loads({"x"}, 3, 6, 0, 0, "exists (x == 1)\n");
  EXPECT_EQ(run({"--litmus", write("unread.litmus", unread)}), kExitUsage);
  EXPECT_NE(err_.str().find("more than 4000000 candidate executions"), std::string::npos)
      << err_.str();
  // Four threads of an RMW and a load on one location: 9.4M choices before
  // the filter, 576 candidates after it. Checked (a 4M bound on the choices
  // refused it).
  std::string rmw = "litmus ATOM4\n";
  for (int t = 0; t < 4; ++t)
    rmw += "thread P" + std::to_string(t) +
           ":\n  r0 = atom.relaxed.gpu.add [x], 1\n  r1 = ld.relaxed.gpu [x]\n";
  rmw += "forall (x == 4)\nexpect ptx forbidden\n";  // no counterexample: atomic adds
  EXPECT_EQ(run({"--litmus", write("atom4.litmus", rmw)}), kExitPass) << err_.str();
  EXPECT_NE(out_.str().find("576 candidate executions"), std::string::npos) << out_.str();
  EXPECT_NE(out_.str().find("`forall` holds"), std::string::npos) << out_.str();
}

TEST_F(LitmusCli, CheckingOptionsDoNotApply) {
  const std::string f = write("mp.litmus", std::string(kMpRelaxed) + "expect ptx allowed\n");
  EXPECT_EQ(run({"--litmus", f, "--tiles", "3"}), kExitUsage);
  EXPECT_NE(err_.str().find("--tiles does not apply to --litmus"), std::string::npos) << err_.str();
  EXPECT_TRUE(out_.str().empty()) << out_.str();
}

TEST_F(LitmusCli, SuiteNeedsFiles) {
  EXPECT_EQ(run({"--litmus-suite", dir_.string()}), kExitUsage);
  EXPECT_NE(err_.str().find("no *.litmus files"), std::string::npos) << err_.str();
  EXPECT_EQ(run({"--litmus-suite", (dir_ / "nowhere").string()}), kExitUsage);
}

}  // namespace
