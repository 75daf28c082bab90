// The Promela exporter on its own (no SPIN needed): what it writes follows
// the Protocol value, it rejects what the explorer rejects, and the
// --emit-promela option of lookback-check behaves like the other options.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "lookback/model/cli.hpp"
#include "lookback/model/promela_export.hpp"
#include "lookback/model/protocol_model.hpp"

#include "cli_run.hpp"

namespace {

using lookback::model::testing::cli;
using lookback::model::testing::CliRun;
using lookback::model::testing::expect_one_line_error;

using namespace lookback::model;
using namespace lookback::protocol;

std::string text_of(const PromelaSpec& spec) {
  std::ostringstream out;
  write_promela(out, spec);
  return out.str();
}

std::string model_of(const char* name, Settings s = {}) {
  if (!s.tiles) s.tiles = 3;
  return text_of(promela_spec(*find_variant(name), s));
}

bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

// The body of one proctype.
std::string proctype(const std::string& model, const std::string& name) {
  const std::size_t at = model.find("proctype " + name + "(");
  if (at == std::string::npos) return {};
  return model.substr(at, model.find("} unless", at) - at);
}

TEST(PromelaExport, EveryCatalogueEntryExportsDeterministically) {
  for (const auto& v : kCatalogue) {
    const std::string a = model_of(v.name), b = model_of(v.name);
    EXPECT_EQ(a, b) << v.name;
    EXPECT_TRUE(has(a, "variant '" + std::string(v.name) + "'")) << v.name;
    EXPECT_TRUE(has(a, "proctype block_L0(byte thr; byte blk)")) << v.name;
    EXPECT_TRUE(has(a, "} unless { halt };")) << v.name;
  }
}

TEST(PromelaExport, TheModelFollowsTheProtocolFields) {
  // The flaw that stops at an AGGREGATE changes where the look-back stops.
  EXPECT_FALSE(has(model_of("warp-lookback"), "ls[0] == AGGREGATE"));
  EXPECT_TRUE(has(model_of("stop-at-aggregate"), "ls[0] == AGGREGATE"));
  // Tile 0 publishes PREFIX unless the flaw says otherwise.
  EXPECT_TRUE(has(model_of("warp-lookback"), "desc_write(0, PREFIX,"));
  EXPECT_TRUE(has(model_of("tile0-aggregate"), "desc_write(0, AGGREGATE,"));
  // Awaits are guards; the bounded wait of the fallback is a plain read
  // followed by a CAS publish, or a plain store under its flaw.
  EXPECT_TRUE(has(model_of("warp-lookback"), "wt[thr] = W_DESC + 0;"));
  EXPECT_FALSE(has(model_of("fallback"), "wt[thr] = W_DESC + 0;"));
  EXPECT_TRUE(has(model_of("fallback"), "CAS failed"));
  EXPECT_FALSE(has(model_of("fallback-plain-store"), "CAS failed"));
  EXPECT_TRUE(has(model_of("fallback-unbounded-spin"), "wt[thr] = W_DESC + 0;"));
  // Split layouts have value words and a torn-read check.
  Settings split;
  split.layout = Layout::Split;
  EXPECT_TRUE(has(model_of("warp-lookback", split), "incl_iv[CAP]"));
  EXPECT_TRUE(has(model_of("warp-lookback", split), "violated no-torn-descriptor"));
  EXPECT_FALSE(has(model_of("split-value-overwritten"), "incl_iv[CAP]"));
  // fence.sc events are ordered (part of the graph); others are comments.
  EXPECT_TRUE(has(model_of("fenced-lookback"), "fence.sc (before publishing)"));
  EXPECT_FALSE(has(model_of("warp-lookback"), "fence.sc (before publishing)"));
  // The progress model picks the monitor; fair relies on end states.
  EXPECT_TRUE(has(model_of("warp-lookback"), "a hang under obe"));
  Settings fair;
  fair.progress = Progress::Fair;
  EXPECT_FALSE(has(model_of("warp-lookback", fair), "progress_monitor"));
  // A second launch without the epoch reset gets the host between launches.
  EXPECT_TRUE(has(model_of("no-reset"), "proctype host_L1(byte thr)"));
  EXPECT_FALSE(has(model_of("warp-lookback"), "proctype block_L1"));
}

// With no flags, the model is the explorer's first run of the variant: the
// same tiles, window, layout and launches (SPIN.md says so).
TEST(PromelaExport, DefaultInstanceIsTheExplorersFirstRun) {
  for (const auto& v : kCatalogue) {
    const Instance promela = promela_spec(v, Settings{}).instance;
    const Instance explorer = plan_variant(v, Settings{}).front().instance;
    EXPECT_EQ(promela.tiles, explorer.tiles) << v.name;
    EXPECT_EQ(promela.window, explorer.window) << v.name;
    EXPECT_EQ(promela.layout, explorer.layout) << v.name;
    EXPECT_EQ(promela.launches, explorer.launches) << v.name;
    EXPECT_EQ(promela.wrap_launch, explorer.wrap_launch) << v.name;
  }
}

TEST(PromelaExport, RejectsWhatTheExplorerRejects) {
  for (const auto& v : kCatalogue)
    for (Layout layout : {Layout::Packed, Layout::Split}) {
      Settings s;
      s.layout = layout;
      const PromelaSpec spec = promela_spec(v, s);
      bool explorer_rejects = false;
      try {
        (void)build_protocol_system(spec.protocol, spec.instance);
      } catch (const std::invalid_argument&) {
        explorer_rejects = true;
      }
      std::ostringstream out;
      if (explorer_rejects)
        EXPECT_THROW(write_promela(out, spec), std::invalid_argument) << v.name;
      else
        EXPECT_NO_THROW(write_promela(out, spec)) << v.name;
    }
  Settings big;
  big.tiles = 16;  // the interval encoding holds tiles 0..15
  EXPECT_THROW(model_of("warp-lookback", big), std::invalid_argument);
}

// The left fold (deterministic variants): a second pass after the window
// with the PREFIX, from the values the first pass kept of the windows it
// passed (Protocol::held_windows) or reading them again, folds that track
// bracketing, and the left-fold check; none of it in a tree variant's model.
TEST(PromelaExport, LeftFoldVariantsRefoldTheWindowsTheyPassed) {
  Settings four;
  four.tiles = 4;
  const std::string det = model_of("warp-lookback-deterministic", four);  // 4 held
  EXPECT_TRUE(has(det, "fold left-fold (4 held windows)"));
  EXPECT_TRUE(has(det, "/* second pass: tiles 2 down to 1, from the values kept */"));
  EXPECT_TRUE(has(det, "lheld0[1] = liv[1]"));
  EXPECT_TRUE(has(det, "acc = IV_FOLD(acc, lheld0[0])"));
  EXPECT_FALSE(has(det, "/* second pass: tiles 2 down to 1 */"));
  EXPECT_TRUE(has(det, "goto lb_pass_3_2;"));
  EXPECT_TRUE(has(det, "IV_FOLD(acc, liv[0])"));
  EXPECT_TRUE(has(det, "violated left-fold"));
  EXPECT_FALSE(has(det, "IV_JOIN(wsum"));
  Settings reread = four;
  reread.held_windows = 0;
  const std::string again = model_of("warp-lookback-deterministic", reread);
  EXPECT_TRUE(has(again, "/* second pass: tiles 2 down to 1 */"));
  EXPECT_FALSE(has(again, "lheld"));
  const std::string tree = model_of("warp-lookback", four);
  EXPECT_FALSE(has(tree, "second pass"));
  EXPECT_FALSE(has(tree, "IV_FOLD"));
  EXPECT_FALSE(has(tree, "left-fold"));
  EXPECT_FALSE(has(tree, "lheld"));
  reread.held_windows = 1;
  EXPECT_THROW(model_of("warp-lookback", reread), std::invalid_argument);
  // The mutant folds each window in front of the nearer ones, with no
  // second pass.
  const std::string flawed = model_of("fold-without-second-pass", four);
  EXPECT_FALSE(has(flawed, "second pass"));
  EXPECT_FALSE(has(flawed, "lheld"));
  EXPECT_FALSE(has(flawed, "held windows"));
  EXPECT_TRUE(has(flawed, "acc = IV_FOLD(wsum, acc)"));
  // The split layout: tile 3 passing window [2, 1] reads its value words
  // (tile 2's aggregate word) before it keeps the values.
  Settings split = four;
  split.layout = Layout::Split;
  const std::string det_split = model_of("warp-lookback-deterministic", split);
  const std::size_t window = det_split.find("/* look-back window: tiles 2 down to 1 */");
  const std::size_t passed = det_split.find("goto lb_pass_3_2;", window);
  ASSERT_NE(passed, std::string::npos);
  const std::size_t kept = det_split.rfind("lheld0[0] = liv[0]", passed);
  const std::size_t value_read = det_split.rfind("seen_iv = agg_iv[2]", kept);
  ASSERT_NE(kept, std::string::npos);
  EXPECT_TRUE(value_read != std::string::npos && value_read > window)
      << "tile 3 keeps tile 2's value without reading its value word";
}

// Persistent blocks: fewer proctypes than tiles, a draw loop, and the last
// draw and the finished counter compared with the blocks' (not the tiles').
TEST(PromelaExport, PersistentBlocksLoopOverTickets) {
  const std::string m = model_of("pipelined");  // 3 tiles on 2 blocks
  EXPECT_TRUE(has(m, "A persistent block of launch 0 (3 tiles, 2 blocks"));
  EXPECT_TRUE(has(m, "run block_L0(1, 1);"));
  EXPECT_FALSE(has(m, "run block_L0(2, 2);"));
  EXPECT_TRUE(has(m, "goto draw_L0;"));
  EXPECT_FALSE(has(m, "out of range: the ticket was not reset"));
  // Two launches, the second of 4 tiles on 2 blocks. Where it hands its
  // word over (launch 0 wraps), it does so after 4 tiles and one draw past
  // them per block; where it wraps, its last finisher is its last block.
  Settings reuse;
  reuse.launches = 2;
  reuse.tiles = 4;
  const std::string hands = proctype(model_of("pipelined", reuse), "block_L1");
  EXPECT_TRUE(has(hands, ":: fdraw == 5 ->"));
  EXPECT_TRUE(has(proctype(model_of("count-tiles-not-blocks", reuse), "block_L1"),
                  ":: fdraw == 3 ->"));  // 4 tiles
  reuse.wrap_launch = 1;
  const std::string wraps = proctype(model_of("pipelined", reuse), "block_L1");
  EXPECT_TRUE(has(wraps, ":: fdone == 1 ->"));  // 2 blocks
  EXPECT_FALSE(has(wraps, ":: fdone == 3 ->"));
  EXPECT_TRUE(has(proctype(model_of("count-tiles-not-blocks", reuse), "block_L1"),
                  ":: fdone == 3 ->"));  // 4 tiles
  EXPECT_FALSE(has(model_of("warp-lookback"), "goto draw_L0;"));
  // Without the epoch reset the first draw still carries the start gate, once: the
  // loop's draws do not start the block again.
  PromelaSpec host_reset = promela_spec(*find_variant("pipelined"), Settings{});
  host_reset.protocol.reset = Reset::HostMemset;
  std::ostringstream out;
  write_promela(out, host_reset);
  const std::string text = out.str();
  const std::size_t block = text.find("proctype block_L0");
  ASSERT_NE(block, std::string::npos);
  const std::string body = text.substr(block, text.find("} unless", block) - block);
  std::size_t gates = 0;
  for (std::size_t at = body.find("started[thr] = 1;"); at != std::string::npos;
       at = body.find("started[thr] = 1;", at + 1))
    ++gates;
  EXPECT_EQ(gates, 1u);
}

// The last drawer's hand-over: ticket 0 and the epoch spec.hpp's
// handed_over_epoch gives, the next one, or under the flaw this launch's.
TEST(PromelaExport, TheHandOverStoresTheEpochTheSpecGives) {
  Settings reuse;
  reuse.tiles = 3;
  reuse.launches = 2;
  reuse.wrap_launch = 1;  // launch 0 hands over; launch 1 reads it
  for (const char* name : {"warp-lookback", "hand-over-keeps-epoch"}) {
    const PromelaSpec spec = promela_spec(*find_variant(name), reuse);
    const Protocol& p = spec.protocol;
    const std::uint32_t e = first_epoch(p, spec.instance);  // launch 0's
    const std::string launch0 = proctype(text_of(spec), "block_L0");
    const std::size_t branch = launch0.find(":: bep[thr] == " + std::to_string(e) + " ->");
    ASSERT_NE(branch, std::string::npos) << name;
    const std::size_t store = launch0.find("epoch = ", branch);
    ASSERT_NE(store, std::string::npos) << name;
    EXPECT_EQ(launch0.substr(store, launch0.find(';', store) - store),
              "epoch = " + std::to_string(handed_over_epoch(p, e)))
        << name;
  }
}

TEST(PromelaExportCli, WritesTheModelAndChecksNothing) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("lookback-emit-" + std::to_string(::getpid()) + ".pml");
  const CliRun r =
      cli({"--mutant", "stop-at-aggregate", "--tiles", "3", "--emit-promela", path.string()});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(has(r.out, "verdict"));
  std::ifstream f(path);
  std::stringstream text;
  text << f.rdbuf();
  EXPECT_TRUE(has(text.str(), "variant 'stop-at-aggregate'"));
  EXPECT_TRUE(has(text.str(), "3 tiles, window 2"));
  std::filesystem::remove(path);
}

TEST(PromelaExportCli, ErrorsExitTwoWithOneLine) {
  struct Case {
    std::vector<std::string> args;
    std::string what;
    bool usage;  // a bad command line (the usage text follows), not a bad input
  };
  for (const Case& c : std::vector<Case>{
           {{"--variant", "warp-lookback", "--emit-promela", "/nonexistent-dir/m.pml"},
            "cannot write /nonexistent-dir/m.pml: No such file or directory",
            false},
           {{"--all", "--emit-promela", "m.pml"}, "--emit-promela does not apply to --all", true},
           {{"--variant", "warp-lookback", "--memory-model", "ptx", "--emit-promela", "m.pml"},
            "--emit-promela models interleavings only: use --memory-model sc or none",
            true},
           // An instance the explorer refuses names the variant.
           {{"--mutant", "split-value-overwritten", "--layout", "packed", "--emit-promela",
             "m.pml"},
            "split-value-overwritten: split-value-overwritten needs the split layout",
            false},
           {{"--variant", "warp-lookback", "--tiles", "16", "--emit-promela", "m.pml"},
            "warp-lookback: --emit-promela supports at most 15 tiles",
            false}})
    expect_one_line_error(c.args, c.what, c.usage);
  const CliRun bad_path =
      cli({"--variant", "warp-lookback", "--emit-promela", "/nonexistent-dir/m.pml"});
  EXPECT_EQ(bad_path.err,
            "lookback-check: cannot write /nonexistent-dir/m.pml: No such file or directory\n");
  const CliRun refused =
      cli({"--mutant", "split-value-overwritten", "--layout", "packed", "--emit-promela", "m.pml"});
  EXPECT_EQ(refused.err.rfind("lookback-check: split-value-overwritten: ", 0), 0u) << refused.err;
}

}  // namespace
