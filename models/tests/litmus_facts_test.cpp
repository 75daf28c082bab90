// The facts the checker must reproduce (issue 9): every file under
// models/litmus/ gets the verdict its `expect` lines claim, the classic
// shapes' expect lines say what the table below says, and the suite command
// agrees.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "lookback/model/litmus.hpp"
#include "lookback/model/litmus_check.hpp"
#include "lookback/model/litmus_parse.hpp"

#ifndef LOOKBACK_LITMUS_DIR
#error "LOOKBACK_LITMUS_DIR must name models/litmus"
#endif

namespace {

using namespace lookback::model;
namespace fs = std::filesystem;

std::vector<std::string> litmus_files() {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(LOOKBACK_LITMUS_DIR))
    if (e.path().extension() == ".litmus") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

LitmusTest load(const std::string& path) {
  std::ifstream f(path);
  std::ostringstream s;
  s << f.rdbuf();
  return parse_litmus(s.str());
}

class LitmusFact : public testing::TestWithParam<std::string> {};

TEST_P(LitmusFact, VerdictMatchesEveryExpectLine) {
  const LitmusTest t = load(GetParam());
  ASSERT_FALSE(t.expect.empty()) << GetParam() << " states no expectation";
  for (const auto& [model, allowed] : t.expect)
    EXPECT_EQ(check_litmus(t, model).target_allowed, allowed)
        << t.name << " under " << to_string(model);
}

std::string test_name(const testing::TestParamInfo<std::string>& info) {
  std::string s = fs::path(info.param).stem().string();
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(Files, LitmusFact, testing::ValuesIn(litmus_files()), test_name);

// Issue 9's table, column by column: all relaxed | release/acquire |
// fence.acq_rel in every thread | fence.sc in every thread | fence in the
// writer only. A = the weak outcome is allowed, F = forbidden.
TEST(LitmusFacts, ClassicShapesFollowTheTable) {
  const std::vector<std::string> columns = {"rlx", "rel-acq", "fence-acqrel", "fence-sc",
                                            "writer-fence"};
  const std::map<std::string, std::pair<std::string, std::string>> table = {
      // shape: {ptx, rc11}
      {"MP", {"AFFFA", "AFFFA"}},   {"SB", {"AAAFA", "AAAFA"}},  {"LB", {"AFFFA", "FFFFF"}},
      {"IRIW", {"AAAFA", "AAAFA"}}, {"WRC", {"AFFFA", "AFFFA"}}, {"2+2W", {"AAAFA", "AAAFA"}},
  };
  for (const auto& [shape, verdicts] : table)
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const std::string file =
          std::string(LOOKBACK_LITMUS_DIR) + "/" + shape + "+" + columns[c] + ".litmus";
      ASSERT_TRUE(fs::exists(file)) << file;
      const LitmusTest t = load(file);
      const std::map<MemoryModel, bool> want = {{MemoryModel::Ptx, verdicts.first[c] == 'A'},
                                                {MemoryModel::Rc11, verdicts.second[c] == 'A'},
                                                {MemoryModel::Sc, false}};
      EXPECT_EQ(t.expect, want) << file << ": expect lines differ from the table";
      for (const auto& [model, allowed] : want)
        EXPECT_EQ(check_litmus(t, model).target_allowed, allowed)
            << t.name << " under " << to_string(model);
    }
}

TEST(LitmusFacts, SuiteCommandPassesOnTheShippedFiles) {
  std::ostringstream out, err;
  EXPECT_EQ(run_litmus_suite(LOOKBACK_LITMUS_DIR, false, out, err), 0) << out.str() << err.str();
  EXPECT_NE(out.str().find("ALL AS EXPECTED"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("MP+rel-acq "), std::string::npos) << out.str();
}

}  // namespace
