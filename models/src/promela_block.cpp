// The block (and host) processes of the Promela model: one proctype per
// launch, its code unrolled per tile id from the Protocol value, the way
// protocol_model.cpp's BlockProgram runs it.
//
// Granularity: every shared-memory access (and every fence.sc, whose order
// the explorer records) is one atomic step, so SPIN interleaves exactly the
// events the explorer interleaves. Local work (symbolic sums, checks, loads
// of read-only inputs) runs between steps and is invisible to other blocks.
// A thread's first operation carries its start (the launch gate and the
// occupancy bound) and its last one its finish, so that "started" and
// "finished" change at the same events as in the explorer.
#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "promela_writer.hpp"

namespace lookback::model::promela {

namespace {

using namespace protocol;

std::string str(int n) {
  return std::to_string(n);
}

// A statement that ends the branch when `ok` does not hold: the model's
// counterpart of Ctx::require. `args` are printf arguments for `what`.
std::string require(const std::string& ok, Property p, const std::string& what,
                    const std::string& args = "") {
  const std::string flag = property_flag(p);
  return "if\n:: !(" + ok + ") ->\n  printf(\"lookback: violated " + to_string(p) + ": " + what +
         "\\n\"" + (args.empty() ? "" : ", " + args) + ");\n  " + flag + " = 1;\n  assert(!" +
         flag + ");\n  halt = 1;\n:: else -> skip;\nfi";
}

class BlockWriter {
 public:
  BlockWriter(Writer& w, const PromelaSpec& s, const Geometry& g, int launch)
      : w_(w),
        p_(s.protocol),
        inst_(s.instance),
        g_(g),
        launch_(launch),
        tiles_(g.tiles_of[static_cast<std::size_t>(launch)]),
        blocks_(g.threads_in(2 * launch)) {}

  // proctype block_L<launch>; returns the most shared events one block records.
  int block() {
    if (persistent(p_)) return persistent_block();
    phase_ = 2 * launch_;
    w_.line("/* A block of launch " + str(launch_) + " (" + str(tiles_) + " tiles). */");
    w_.line("proctype block_L" + str(launch_) + "(byte thr; byte blk) {");
    w_.in();
    w_.line(p_.tile_id == TileIdSource::BlockIdx ? "byte tile = blk;  /* tile id from blockIdx */"
                                                 : "byte tile;");
    declare_locals();
    w_.line("{");
    w_.in();
    open_gate();
    int prefix = 0;
    if (draws()) {
      const bool ticket = p_.tile_id == TileIdSource::Ticket;
      draw(ticket ? "tile" : "",
           ticket ? require("tile < " + str(tiles_), Property::CorrectPrefix,
                            "tile id %d out of range: the ticket was not reset", "tile")
                  : "",
           true);
      ++prefix;
    }
    const std::string gate = gate_;
    int most = 0;
    w_.line("if");
    for (int t = 0; t < tiles_; ++t) {
      gate_ = gate;  // without an epoch or ticket, the first step is in the tile's code
      events_ = prefix;
      w_.line(":: tile == " + str(t) + " ->");
      w_.in();
      tile(t);
      w_.out();
      most = std::max(most, events_);
    }
    w_.line("fi;");
    w_.out();
    w_.line("} unless { halt };");
    w_.out();
    w_.line("}");
    w_.blank();
    return most;
  }

  // proctype host_L<launch>: re-arms the launch (host-side reset).
  int host() {
    phase_ = 2 * launch_ - 1;
    events_ = 0;
    w_.line("/* The host between launch " + str(launch_ - 1) + " and launch " + str(launch_) +
            " (reset " + to_string(p_.reset) + "). */");
    w_.line("proctype host_L" + str(launch_) + "(byte thr) {");
    w_.in();
    w_.line("{");
    w_.in();
    open_gate();
    if (p_.reset == Reset::HostMemset)
      for (int k = 0; k < g_.capacity; ++k)
        clear_descriptor(k);
    step({}, "", {"ticket = 0", "H_W(" + str(g_.loc_ticket) + ")", "finish()"});
    w_.out();
    w_.line("} unless { halt };");
    w_.out();
    w_.line("}");
    w_.blank();
    return events_;
  }

 private:
  void open_gate() {
    gate_ = "phase == " + str(phase_);
    if (inst_.resident > 0) gate_ += " && busy < " + str(inst_.resident);
  }

  // One atomic step: `pre`, then (blocking until) `guard`, then `body`. The
  // pending start gate, if any, goes first.
  void step(const std::vector<std::string>& pre, const std::string& guard,
            const std::vector<std::string>& body, bool shared = true) {
    atomic("atomic {", step_lines(pre, guard, body), "};");
    if (shared) ++events_;
  }

  // One lane of a warp-wide read: if `when` holds, one atomic step of
  // `body`, whose history entry goes through H_L (lane k's slot).
  struct LaneStep {
    std::string when;  // the lane reads at all ("" = always)
    std::vector<std::string> body;
  };

  // The explorer's Ctx::begin_lanes for reads that do not spin: the lanes'
  // steps in any order (the kernel's lanes read concurrently), each once;
  // then their history entries in lane order, so that an execution has one
  // history whatever order its lanes took. Under an occupancy bound the
  // lanes read in lane order, as the explorer's do there under SC
  // (execution_step.cpp, candidates).
  void lanes(const std::vector<LaneStep>& steps, const std::vector<std::string>& after = {}) {
    // A thread's start gate rides on its first step, which one lane of many
    // cannot carry; no block begins with a window read.
    if (!gate_.empty()) throw std::logic_error("a block's first step is a window read");
    if (inst_.resident > 0)
      lanes_in_order(steps);
    else
      lanes_in_any_order(steps);
    std::vector<std::string> flush{"lread = 0;"};
    for (std::size_t k = 0; k < steps.size(); ++k)
      flush.push_back("H_FLUSH(" + str(static_cast<int>(k)) + ");");
    for (const auto& a : after)
      flush.push_back(a + ";");
    // atomic, not d_step: the loop's break may not jump into a d_step.
    atomic("atomic {", flush, "};");
  }

  void lanes_in_any_order(const std::vector<LaneStep>& steps) {
    w_.line("do");
    for (std::size_t k = 0; k < steps.size(); ++k) {
      const std::string bit = str(1 << k);
      std::string first = "(lread & " + bit + ") == 0";
      if (!steps[k].when.empty()) first += " && (" + steps[k].when + ")";
      std::vector<std::string> body = steps[k].body;
      body.push_back("lread = lread | " + bit);
      std::vector<std::string> lines = step_lines({}, "", body);
      lines.insert(lines.begin(), "(" + first + ") ->");
      atomic(":: atomic {", lines, "}");
      ++events_;
    }
    w_.line(":: else -> break;");
    w_.line("od;");
  }

  void lanes_in_order(const std::vector<LaneStep>& steps) {
    for (const LaneStep& l : steps) {
      if (l.when.empty()) {
        step({}, "", l.body);
        continue;
      }
      w_.line("if");
      w_.line(":: " + l.when + " ->");
      w_.in();
      step({}, "", l.body);
      w_.out();
      w_.line(":: else -> skip;");
      w_.line("fi;");
    }
  }

  std::vector<std::string> step_lines(const std::vector<std::string>& pre, const std::string& guard,
                                      const std::vector<std::string>& body) {
    std::vector<std::string> lines;
    if (!gate_.empty()) {
      lines.push_back("(" + gate_ + ") ->");
      lines.push_back("started[thr] = 1;");
      lines.push_back("busy++;");
      gate_.clear();
    }
    for (const auto& s : pre)
      lines.push_back(s + ";");
    if (!guard.empty()) lines.push_back("(" + guard + ") ->");
    for (const auto& s : body)
      if (!s.empty()) lines.push_back(s + ";");  // "" leaves a part out
    if (lines.empty()) lines.push_back("skip;");
    return lines;
  }

  void atomic(const std::string& open, const std::vector<std::string>& lines,
              const std::string& close) {
    w_.line(open);
    w_.in();
    for (const auto& l : lines) {
      std::istringstream split(l);
      for (std::string one; std::getline(split, one);)
        w_.line(one);
    }
    w_.out();
    w_.line(close);
  }

  // Local work, one indivisible transition: it joins the pending start gate
  // if the thread has not started.
  void local(const std::vector<std::string>& body) {
    if (!gate_.empty()) return step({}, "", body, false);
    w_.line("d_step {");
    w_.in();
    for (const auto& s : body) {
      std::istringstream split(s + ";");
      for (std::string one; std::getline(split, one);)
        w_.line(one);
    }
    w_.out();
    w_.line("};");
  }

  void fence(Fence f, const std::string& where) {
    if (f == Fence::None) return;
    if (f == Fence::AcqRel) {
      w_.line("/* fence.acq_rel (" + where + "): no effect and no order under interleaving */");
      return;
    }
    w_.line("/* fence.sc (" + where + "): the order of fence.sc events is part of the graph */");
    step({}, "", {"H_W(" + str(g_.loc_fence_sc) + ")"});
  }

  std::string word(const char* part, int tile, Status s) const {
    const bool incl = s == Status::Prefix && g_.two_value_words;
    return std::string(incl ? "incl_" : "agg_") + part + "[" + str(tile) + "]";
  }
  int word_loc(int tile, Status s) const {
    return s == Status::Prefix ? g_.loc_incl(tile) : g_.loc_agg(tile);
  }
  std::string ph() const { return str(phase_); }

  void clear_descriptor(int k) {
    step({}, "",
         {"desc_write(" + str(k) + ", INVALID, 0, IV_EMPTY, 0, " + ph() + ")",
          "H_W(" + str(g_.loc_desc(k)) + ")"});
  }

  void publish(int t, Status s, const std::string& value) {
    std::vector<std::string> checks;
    if (s == Status::Prefix)
      for (std::string& c : prefix_checks(value, iv_literal(launch_, 0, t),
                                          "tile " + str(t) + " publishes PREFIX %d"))
        checks.push_back(std::move(c));
    const std::string pub = str(pub_id(g_, launch_, t, s));
    const std::string st = status_name(s);
    if (g_.split) {
      checks.push_back(word("iv", t, s) + " = " + value);
      checks.push_back(word("pub", t, s) + " = " + pub);
      checks.push_back("H_W(" + str(word_loc(t, s)) + ")");
      step({}, "", checks);
      checks.clear();
    }
    fence(p_.publish_fence, "before publishing");
    checks.push_back("desc_write(" + str(t) + ", " + st + ", bep[thr], " +
                     (g_.split ? std::string("IV_EMPTY") : value) + ", " + pub + ", " + ph() + ")");
    checks.push_back("H_W(" + str(g_.loc_desc(t)) + ")");
    step({}, "", checks);
  }

  void declare_locals() {
    w_.line("short aggr, incl, acc, wsum, red, seen_iv, seen_pub;");
    w_.line("byte seen_st, seen_eff, stop;");
    w_.line("int seen_ep;");
    w_.line("bit cas_ok;");
    w_.line("int fdone, fdraw;  /* counter read; ticket of the last draw */");
    const std::string lanes = "[" + str(inst_.window) + "]";
    w_.line("byte ls" + lanes + ";   /* lane: status as seen in this launch */");
    w_.line("bit lknown" + lanes + ";  /* lane: liv is its fallback's own reduction */");
    w_.line("short liv" + lanes + ";  /* lane: value */");
    w_.line("byte lw_st" + lanes + "; int lw_ep" + lanes + "; short lw_iv" + lanes +
            "; short lw_pub" + lanes + ";  /* lane: the word read */");
    w_.line("int lread;  /* lanes of the current warp-wide read that have read */");
    w_.line("short lrf" + lanes + " = -1;  /* lane: its read's history entry, until flushed */");
    for (int d = 0; d < held_windows(); ++d)
      w_.line("short " + held_name(d) + lanes + ";  /* lane: value in passed window " + str(d) +
              " (kept) */");
  }

  void tile(int t) {
    begin_tile(t, "aggr");
    resolve_tile(t);
    // As in the kernels and the explorer, the block counts itself finished
    // (epoch hand-over) before its output. It only matters to a later
    // launch: with one launch the explorer leaves it out, and so does the
    // model.
    if (counts_finish()) finish_launch("");
    output(t, "finish()");
  }

  // The tile's input (the aggregate, into `var`) and its first publish.
  void begin_tile(int t, const std::string& var) {
    // Only the owner writes its input tile (in place), and later: the load
    // commutes with everything, as in the explorer (load_unshared).
    if (p_.in_place)
      local({var + " = io_iv[" + str(launch_ * g_.capacity + t) + "]  /* own input tile */"});
    else
      local({var + " = " + iv_literal(launch_, t, t) + "  /* read-only input tile */"});
    const Status first = first_publish_status(p_, t);
    publish(t, first, var);
  }

  // The look-back from tile t (aggregate in aggr) and its PREFIX (in incl).
  void resolve_tile(int t) {
    const Status first = first_publish_status(p_, t);
    // A tile that has published its PREFIX is done, except under the flaw
    // that publishes PREFIX before looking back; tile 0 has no predecessor.
    if (t > 0 && (first == Status::Aggregate || p_.flaw == Flaw::PrefixBeforeLookback)) {
      lookback(t);
      std::vector<std::string> body = prefix_checks("acc", iv_literal(launch_, 0, t - 1),
                                                    "tile " + str(t) + " uses exclusive prefix %d");
      body.push_back("incl = " + combine("acc", "aggr"));
      local(body);
      publish(t, Status::Prefix, "incl");
    } else {
      local({"incl = aggr"});
    }
  }

  // a (+) b as the look-back combines them: IV_FOLD tracks a left fold's
  // bracketing (Fold::LeftFold), IV_JOIN a tree's tiles only.
  std::string combine(const std::string& a, const std::string& b) const {
    return (left_fold() ? "IV_FOLD(" : "IV_JOIN(") + a + ", " + b + ")";
  }
  bool left_fold() const { return p_.fold == Fold::LeftFold; }

  // A prefix (`value`) must cover `want`'s tiles and, under the left fold,
  // be bracketed as one (the explorer's same_tiles and require_left_fold).
  std::vector<std::string> prefix_checks(const std::string& value, const std::string& want,
                                         const std::string& what) const {
    if (!left_fold()) return {require(value + " == " + want, Property::CorrectPrefix, what, value)};
    return {require("IV_T(" + value + ") == " + want, Property::CorrectPrefix, what, value),
            require("!IV_RG(" + value + ")", Property::LeftFold,
                    what + ", not the left fold of the aggregates", value)};
  }

  // The tile's output (incl); `finish` is added to the step (the thread's
  // last one when it says finish()).
  void output(int t, const std::string& finish) {
    // A persistent block takes it before every second tile's output only
    // (output_fence_before). output_fence is acq_rel or none, with no effect
    // under interleaving, so the export keeps one comment per output site
    // and tells no tiles apart (an SC fence would need the explorer's
    // placement here).
    const char* which = !persistent(p_) ? "before the output"
                        : output_fence_before(p_, 0)
                            ? "before this output if it is the block's 1st, 3rd, ..."
                            : "before this output if it is the block's 2nd, 4th, ...";
    fence(output_fence(p_), which);
    const std::string out = str(launch_ * g_.capacity + t);
    if (p_.in_place) {
      step({}, "",
           {"io_iv[" + out + "] = incl", "H_W(" + str(g_.loc_io(launch_, t)) + ")", finish});
    } else {
      step({}, "", {"out_iv[" + out + "] = incl  /* private output tile */", finish}, false);
    }
  }

  bool counts_finish() const { return p_.reset == Reset::Epoch && inst_.launches > 1; }
  // As the explorer's draw(): a block draws from the launch word (ticket and
  // epoch, one RMW) when the variant takes tickets or resets by epoch; the
  // last drawer hands the word over (two launches only).
  // (A blockIdx variant with one launch: the explorer leaves its draw out.)
  bool draws() const { return p_.tile_id == TileIdSource::Ticket || counts_finish(); }

  // The draw: the ticket into fdraw and `into` (if any), on the block's
  // first draw the epoch into bep[thr], then `tail`.
  void draw(const std::string& into, const std::string& tail, bool first) {
    const bool epoch = p_.reset == Reset::Epoch;
    step({}, "",
         {"fdraw = ticket", "ticket = ticket + 1", epoch && first ? "bep[thr] = epoch" : "",
          into.empty() ? "" : into + " = fdraw", "H_W(" + str(g_.loc_ticket) + ")", tail});
  }

  // Persistent blocks (protocol::persistent), as the explorer's
  // run_persistent: draw a ticket; if it is a tile, load it and publish its
  // aggregate; then look back for the tile drawn before (if any), publish its
  // PREFIX and write its output; until a ticket is past the last tile. One
  // copy of each tile's begin and resolve code (dispatched on the tile id),
  // so every label is written once.
  int persistent_block() {
    phase_ = 2 * launch_;
    w_.line("/* A persistent block of launch " + str(launch_) + " (" + str(tiles_) + " tiles, " +
            str(blocks_) + " blocks, up to two tiles held at once). */");
    w_.line("proctype block_L" + str(launch_) + "(byte thr; byte blk) {");
    w_.in();
    w_.line("byte older, newer;  /* the tile held, the tile drawn after it */");
    w_.line("bit holds;  /* older is a tile */");
    w_.line("short aggr_new;  /* newer's aggregate */");
    declare_locals();
    w_.line("{");
    w_.in();
    open_gate();
    const int events = 0;
    const bool tiles_count = p_.flaw == Flaw::CountTilesNotBlocks;
    // The draw; a block that draws past the last tile before holding one
    // finishes right there (or after counting itself, with two launches).
    const std::string none_left = "newer >= " + str(tiles_);
    const std::string finish_if_idle =
        counts_finish() && !tiles_count
            ? ""
            : "if\n:: !holds && " + none_left + " -> finish();\n:: else -> skip;\nfi";
    // The first draw is written apart from the loop's, so that the start
    // gate it carries runs once, and it sets the block's epoch.
    draw("newer", finish_if_idle, true);
    w_.line("goto drawn_L" + str(launch_) + ";");
    w_.line("draw_L" + str(launch_) + ":");
    draw("newer", finish_if_idle, false);
    w_.line("drawn_L" + str(launch_) + ":");
    w_.line("if");
    w_.line(":: newer < " + str(tiles_) + " ->");
    w_.in();
    int most_begin = 0;
    w_.line("if");
    for (int t = 0; t < tiles_; ++t) {
      w_.line(":: newer == " + str(t) + " ->");
      w_.in();
      const int before = events_;
      begin_tile(t, "aggr_new");
      most_begin = std::max(most_begin, events_ - before);
      w_.out();
    }
    w_.line("fi;");
    w_.out();
    w_.line(":: else -> skip;");
    w_.line("fi;");
    w_.line("if");
    w_.line(":: holds ->");
    w_.in();
    int most_resolve = 0;
    w_.line("if");
    for (int t = 0; t < tiles_; ++t) {
      w_.line(":: older == " + str(t) + " ->");
      w_.in();
      const int before = events_;
      resolve_tile(t);
      if (counts_finish()) {
        if (tiles_count) {
          finish_launch("");
        } else {
          w_.line("if");
          w_.line(":: " + none_left + " ->");
          w_.in();
          finish_launch("");
          w_.out();
          w_.line(":: else -> skip;");
          w_.line("fi;");
        }
      }
      output(t, "if\n:: " + none_left + " -> finish();\n:: else -> skip;\nfi");
      most_resolve = std::max(most_resolve, events_ - before);
      w_.out();
    }
    w_.line("fi;");
    w_.out();
    w_.line(":: else ->");
    w_.in();
    if (counts_finish() && !tiles_count) {
      w_.line("if");
      w_.line(":: " + none_left + " ->");
      w_.in();
      const int before = events_;
      finish_launch("finish()");
      most_resolve = std::max(most_resolve, events_ - before);
      w_.out();
      w_.line(":: else -> skip;");
      w_.line("fi;");
    } else {
      w_.line("skip;");
    }
    w_.out();
    w_.line("fi;");
    w_.line("if");
    w_.line(":: " + none_left + " -> goto end_L" + str(launch_) + ";");
    w_.line(":: else -> skip;");
    w_.line("fi;");
    local({"older = newer", "aggr = aggr_new", "holds = 1"});
    w_.line("goto draw_L" + str(launch_) + ";");
    w_.line("end_L" + str(launch_) + ":");
    w_.line("skip;");
    w_.out();
    w_.line("} unless { halt };");
    w_.out();
    w_.line("}");
    w_.blank();
    // A bound on one block's shared events: it draws at most every tile
    // and one more ticket, and begins and resolves each tile at most once.
    return events + (tiles_ + 1) + tiles_ * (most_begin + most_resolve);
  }

  // One read of every lane of window j (m lanes), then the look-back fence:
  // the kernel's wait_window round (and the explorer's read_window).
  void read_window(int j, int m, bool bounded) {
    std::vector<LaneStep> reads;
    for (int k = 0; k < m; ++k) {
      const int idx = j - k;
      const std::string eff = "EFF(d_st[" + str(idx) + "], d_ep[" + str(idx) + "], bep[thr])";
      std::vector<std::string> read = lane_read(idx, k);
      const std::string loc = str(g_.loc_desc(idx));
      if (bounded) {
        // The bounded wait gives up after some spins: under interleaving
        // that is one read at a moment the scheduler chooses.
        read.push_back("H_L(" + str(k) + ", " + loc + ")");
        reads.push_back({"", read});
      } else {
        // Spinning lanes are read in lane order, as the explorer does
        // under SC (execution_step.cpp, candidates).
        read.push_back("H_R(" + loc + ")");
        read.insert(read.begin(), "wt[thr] = W_NONE");
        step({"WAIT_FREE_CHECK", "wt[thr] = W_DESC + " + str(idx)}, eff + " != INVALID", read);
      }
    }
    if (bounded) lanes(reads);
    fence(p_.lookback_fence, "after the window's reads");
  }

  // Lane k's read of descriptor idx into its lane registers.
  std::vector<std::string> lane_read(int idx, int k) const {
    const std::string d = "[" + str(idx) + "]", l = "[" + str(k) + "]";
    return {"lw_st" + l + " = d_st" + d,
            "lw_ep" + l + " = d_ep" + d,
            "lw_iv" + l + " = d_iv" + d,
            "lw_pub" + l + " = d_pub" + d,
            "ls" + l + " = EFF(d_st" + d + ", d_ep" + d + ", bep[thr])",
            "liv" + l + " = d_iv" + d,
            "lknown" + l + " = 0"};
  }

  // ls[0] ... ls[m - 1]: whether lane k is the closest INVALID one, or any is.
  static std::string closest_invalid(int k) {
    std::string c = "ls[" + str(k) + "] == INVALID";
    for (int i = 0; i < k; ++i)
      c += " && ls[" + str(i) + "] != INVALID";
    return c;
  }
  static std::string any_invalid(int m) {
    std::string c;
    for (int k = 0; k < m; ++k)
      c += (k ? " || " : "") + std::string("ls[") + str(k) + "] == INVALID";
    return c;
  }

  // As the explorer's lookback: each window read; while a lane is INVALID
  // (bounded waits), the fallback takes the closest one and, if another is
  // still INVALID, the window is read again (at most one round per lane:
  // descriptors only move from INVALID to a status of the launch); then the
  // values of the lanes from the closest PREFIX on.
  void lookback(int t) {
    const bool bounded = bounded_wait(p_);
    local({"acc = IV_EMPTY"});
    for (int j = t - 1; j >= 0; j -= inst_.window) {
      const int m = std::min(inst_.window, j + 1);  // lanes before descriptor 0 are padding
      w_.line("/* look-back window: tiles " + str(j) + " down to " + str(j - m + 1) + " */");
      read_window(j, m, bounded);
      if (bounded) {
        const std::string resolved = "lb_resolved_" + str(t) + "_" + str(j);
        for (int r = 0; r < m; ++r) {
          w_.line("/* round " + str(r) + ": the closest INVALID lane falls back */");
          w_.line("if");
          for (int k = 0; k < m; ++k) {
            w_.line(":: " + closest_invalid(k) + " ->");
            w_.in();
            fallback(t, j, j - k, k, r);
            w_.out();
          }
          w_.line(":: else -> goto " + resolved + ";");
          w_.line("fi;");
          if (r + 1 < m && p_.spin_bound > 1) {
            w_.line("if");
            w_.line(":: " + any_invalid(m) + " ->");
            w_.in();
            read_window(j, m, true);
            w_.out();
            w_.line(":: else -> skip;");
            w_.line("fi;");
          }
        }
        w_.line(resolved + ":");
        w_.line("skip;");
      }
      if (has_second_pass(p_))
        left_window(t, j, m);
      else
        window_sum(t, j, m);
    }
    // The look-back passed tile 0 without meeting a PREFIX (a flawed
    // variant): as the explorer, it waits on the padding word, which nothing
    // writes (the kernel re-reads the window that holds tile 0 until its
    // watchdog gives up: the same hang).
    w_.line("lb_pad_" + str(t) + ":");
    step({"WAIT_FREE_CHECK", "wt[thr] = W_PAD"}, "pad_st != INVALID", {"wt[thr] = W_NONE"}, false);
    w_.line("goto lb_pad_" + str(t) + ";");
    w_.line("lb_done_" + str(t) + ":");
    w_.line("skip;");
  }

  // Split layout: lane k's value word, the one matching its status, checked
  // against the status word it was read with.
  std::vector<std::string> split_value(int t, int idx, int k) {
    const std::string l = "[" + str(k) + "]";
    std::string pick;
    if (g_.two_value_words) {
      pick = "if\n:: ls" + l + " == PREFIX -> seen_iv = " + word("iv", idx, Status::Prefix) +
             "; seen_pub = " + word("pub", idx, Status::Prefix) + "; H_L(" + str(k) + ", " +
             str(g_.loc_incl(idx)) +
             ");\n:: else -> seen_iv = " + word("iv", idx, Status::Aggregate) +
             "; seen_pub = " + word("pub", idx, Status::Aggregate) + "; H_L(" + str(k) + ", " +
             str(g_.loc_agg(idx)) + ");\nfi";
    } else {
      pick = "seen_iv = " + word("iv", idx, Status::Aggregate) +
             "; seen_pub = " + word("pub", idx, Status::Aggregate) + "; H_L(" + str(k) + ", " +
             str(g_.loc_agg(idx)) + ")";
    }
    return {pick,
            require("seen_pub == lw_pub" + l, Property::NoTornDescriptor,
                    "tile " + str(t) + " read a status of tile " + str(idx) +
                        " with the value of another publish (%d)",
                    "seen_iv"),
            "liv" + l + " = seen_iv"};
  }

  // Decoupled fallback of round r for lane k (descriptor idx), still
  // INVALID after the bounded wait: reduce its input here and publish the
  // aggregate monotonically (the kernel's WindowLookback::fallback).
  void fallback(int t, int j, int idx, int k, int r) {
    const std::string l = "[" + str(k) + "]", d = "[" + str(idx) + "]";
    const std::string done = "fb_done_" + str(t) + "_" + str(j) + "_" + str(k) + "_" + str(r);
    if (p_.in_place) {
      step({}, "",
           {"red = io_iv[" + str(launch_ * g_.capacity + idx) + "]",
            "H_R(" + str(g_.loc_io(launch_, idx)) + ")"});
    } else {
      local({"red = " + iv_literal(launch_, idx, idx) + "  /* read-only input tile */"});
    }
    if (fallback_validates(p_)) {
      fence(validation_fence(p_), "before re-reading the descriptor");
      step({}, "", {see(idx), "H_R(" + str(g_.loc_desc(idx)) + ")"});
      fence(p_.lookback_fence, "after the validation's read");
      w_.line("if");
      w_.line(":: seen_eff != INVALID ->");
      w_.in();
      adopt(k);
      w_.line("goto " + done + ";");
      w_.out();
      w_.line(":: else -> skip;");
      w_.line("fi;");
      // The CAS expects what the validation read.
      local({"lw_st" + l + " = seen_st; lw_ep" + l + " = seen_ep; lw_iv" + l +
             " = seen_iv; lw_pub" + l + " = seen_pub"});
    }
    const Status fs = fallback_status(idx);
    // A fallback's publish carries what the owner's would: same publish id.
    const std::string pub = str(pub_id(g_, launch_, idx, fs));
    if (g_.split)
      step({}, "",
           {word("iv", idx, fs) + " = red", word("pub", idx, fs) + " = " + pub,
            "H_W(" + str(word_loc(idx, fs)) + ")"});
    fence(p_.publish_fence, "before the fallback's publish");
    const std::string write = "desc_write(" + str(idx) + ", " + status_name(fs) + ", bep[thr], " +
                              (g_.split ? std::string("IV_EMPTY") : "red") + ", " + pub + ", " +
                              ph() + "); H_W(" + str(g_.loc_desc(idx)) + ")";
    const std::string won =
        "ls" + l + " = " + status_name(fs) + "; liv" + l + " = red; lknown" + l + " = 1";
    if (!fallback_uses_cas(p_)) {
      step({}, "", {write});
      local({won});
    } else {
      step({}, "",
           {"if\n:: d_st" + d + " == lw_st" + l + " && d_ep" + d + " == lw_ep" + l + " && d_iv" +
            d + " == lw_iv" + l + " && d_pub" + d + " == lw_pub" + l + " ->\n  cas_ok = 1; " +
            write + ";\n:: else ->  /* the CAS failed: it read what is there */\n  cas_ok = 0; " +
            see(idx) + "; H_R(" + str(g_.loc_desc(idx)) + ");\nfi"});
      w_.line("if");
      w_.line(":: cas_ok ->");
      w_.in();
      local({won});
      w_.out();
      w_.line(":: else ->");
      w_.in();
      adopt(k);
      w_.out();
      w_.line("fi;");
    }
    w_.line(done + ":");
    w_.line("skip;");
    fence(p_.lookback_fence, "after the fallback: the CAS's read is a look-back read too");
  }

  // Copies descriptor `idx` as read now into the seen_* temporaries.
  std::string see(int idx) const {
    const std::string d = "[" + str(idx) + "]";
    return "seen_st = d_st" + d + "; seen_ep = d_ep" + d + "; seen_iv = d_iv" + d +
           "; seen_pub = d_pub" + d + "; seen_eff = EFF(d_st" + d + ", d_ep" + d + ", bep[thr])";
  }

  // The fallback takes the descriptor word it found instead of publishing
  // its own reduction; its value is read with the window's (split layout).
  void adopt(int k) {
    const std::string l = "[" + str(k) + "]";
    local({"lw_st" + l + " = seen_st; lw_ep" + l + " = seen_ep; lw_iv" + l + " = seen_iv; lw_pub" +
               l + " = seen_pub",
           "ls" + l + " = seen_eff; liv" + l + " = seen_iv; lknown" + l + " = 0"});
  }

  // stop: the lane of the window's closest PREFIX (or, under its flaw,
  // AGGREGATE), 255 if none.
  void find_stop(int m) {
    std::vector<std::string> find{"stop = 255"};
    for (int k = 0; k < m; ++k) {
      std::string ends = "ls[" + str(k) + "] == PREFIX";
      if (p_.flaw == Flaw::StopAtAggregate) ends += " || ls[" + str(k) + "] == AGGREGATE";
      find.push_back("if\n:: stop == 255 && (" + ends + ") -> stop = " + str(k) +
                     ";\n:: else -> skip;\nfi");
    }
    local(find);
  }

  // Split layout: the value words of the lanes from the closest PREFIX on
  // (all without one), read now, but for a lane whose fallback published
  // its own.
  void split_values(int t, int j, int m) {
    if (!g_.split) return;
    std::vector<LaneStep> reads;
    for (int k = 0; k < m; ++k) {
      const std::string l = "[" + str(k) + "]";
      reads.push_back(
          {"(stop == 255 || stop >= " + str(k) + ") && !lknown" + l + " && ls" + l + " != INVALID",
           split_value(t, j - k, k)});
    }
    // The lanes' scratch words would otherwise keep the last lane's
    // value: one end state per order.
    lanes(reads, {"seen_iv = 0", "seen_pub = 0"});
  }

  // `into` (+)= value(lowest lane) (+) ... (+) value(lane 0), one lane at a
  // time, the lanes from the closest PREFIX on (all without one).
  std::string fold_lanes(const std::string& into, int m) const {
    std::string body;
    for (int k = m - 1; k >= 0; --k)
      body += std::string(body.empty() ? "" : ";\n") + "if\n:: stop == 255 || stop >= " + str(k) +
              " -> " + into + " = " + combine(into, "liv[" + str(k) + "]") +
              ";\n:: else -> skip;\nfi";
    return body;
  }

  // Where the window's look-back stops, the values of the lanes from there
  // on, their sum put in front of what was accumulated (operand order
  // matters; under FoldWithoutSecondPass the left fold's).
  void window_sum(int t, int j, int m) {
    find_stop(m);
    split_values(t, j, m);
    local({"wsum = IV_EMPTY", fold_lanes("wsum", m), "acc = " + combine("wsum", "acc")});
    w_.line("if");
    w_.line(":: stop != 255 -> goto lb_done_" + str(t) + ";");
    w_.line(":: else -> skip;");
    w_.line("fi;");
  }

  // The left fold (explorer: lookback under Fold::LeftFold): a window
  // without a PREFIX is passed without its values (but for the first
  // p.held_windows passed, whose values are read and kept); at the closest
  // PREFIX the fold starts, and the windows passed are read again, farthest
  // first (refold), or folded from what was kept, before the look-back ends.
  void left_window(int t, int j, int m) {
    find_stop(m);
    const std::string passed = "lb_pass_" + str(t) + "_" + str(j);
    const int depth = (t - 1 - j) / inst_.window;  // windows passed before this one
    w_.line("if");
    if (depth < held_windows()) {
      w_.line(":: stop == 255 ->");
      w_.in();
      split_values(t, j, m);
      std::vector<std::string> keep;
      for (int k = 0; k < m; ++k)
        keep.push_back(held_name(depth) + "[" + str(k) + "] = liv[" + str(k) + "]");
      local(keep);
      w_.line("goto " + passed + ";");
      w_.out();
    } else {
      w_.line(":: stop == 255 -> goto " + passed + ";");
    }
    w_.line(":: else -> skip;");
    w_.line("fi;");
    split_values(t, j, m);
    local({"acc = IV_EMPTY", fold_lanes("acc", m)});
    for (int nearer = j + inst_.window; nearer <= t - 1; nearer += inst_.window) {
      const int d = (t - 1 - nearer) / inst_.window;
      if (d >= held_windows()) {
        refold(t, nearer);
        continue;
      }
      // Folded from the values kept, then cleared: one end state per order.
      w_.line("/* second pass: tiles " + str(nearer) + " down to " +
              str(nearer - inst_.window + 1) + ", from the values kept */");
      std::vector<std::string> body;
      for (int k = inst_.window - 1; k >= 0; --k) {
        const std::string v = held_name(d) + "[" + str(k) + "]";
        body.push_back("acc = " + combine("acc", v));
        body.push_back(v + " = 0");
      }
      local(body);
    }
    w_.line("goto lb_done_" + str(t) + ";");
    w_.line(passed + ":");
    w_.line("skip;");
  }

  // Fold::LeftFold: the passed windows whose values the look-back keeps.
  int held_windows() const { return protocol::held_windows(p_); }
  static std::string held_name(int d) { return "lheld" + str(d); }

  // The second pass over window j, which is whole (WindowLookback::refold):
  // each lane reads its descriptor once (INVALID there, after its first pass
  // saw it published, is a monotone-status violation), then the values, and
  // the fold goes on, or starts again at a PREFIX the window has by now.
  void refold(int t, int j) {
    const int m = inst_.window;
    std::vector<LaneStep> reads;
    for (int k = 0; k < m; ++k) {
      const int idx = j - k;
      std::vector<std::string> read = lane_read(idx, k);
      read.push_back("H_L(" + str(k) + ", " + str(g_.loc_desc(idx)) + ")");
      read.push_back(require("ls[" + str(k) + "] != INVALID", Property::MonotoneStatus,
                             "tile " + str(t) + "'s second pass read desc[" + str(idx) +
                                 "] INVALID, which its first pass saw published"));
      reads.push_back({"", read});
    }
    w_.line("/* second pass: tiles " + str(j) + " down to " + str(j - m + 1) + " */");
    lanes(reads);
    fence(p_.lookback_fence, "after the second pass's reads");
    find_stop(m);
    split_values(t, j, m);
    local({"if\n:: stop != 255 -> acc = IV_EMPTY;\n:: else -> skip;\nfi", fold_lanes("acc", m)});
  }

  // Epoch reset, after the block's last descriptor access (as the
  // explorer's finish_launch; fdraw holds its last draw). In a launch whose
  // epoch does not wrap, the last drawer stores the next launch word. In one
  // that wraps, the block counts itself finished, and the last one resets
  // the counter, clears every descriptor and stores the next launch word.
  // `finish` (finish() or empty) goes with the last step of every path:
  // where the block's program ends here.
  void finish_launch(const std::string& finish) {
    const std::string last = str(last_finisher(p_, tiles_, blocks_));
    w_.line("if");
    for (std::uint32_t e : g_.epochs) {
      w_.line(":: bep[thr] == " + std::to_string(e) + " ->");
      w_.in();
      if (!wraps(p_, e)) {
        w_.line("if");
        w_.line(":: fdraw == " + str(last_draw(p_, tiles_, blocks_)) + " ->");
        w_.in();
        step({}, "",
             {"ticket = 0", "epoch = " + std::to_string(handed_over_epoch(p_, e)),
              "H_W(" + str(g_.loc_ticket) + ")", finish});
        w_.out();
        w_.line(":: else ->");
        w_.in();
        if (finish.empty())
          w_.line("skip;");
        else
          step({}, "", {finish}, false);
        w_.out();
        w_.line("fi;");
        w_.out();
        continue;
      }
      step({}, "",
           {"fdone = done", "done = done + 1", "H_W(" + str(g_.loc_done) + ")",
            finish.empty()
                ? ""
                : "if\n:: fdone != " + last + " -> " + finish + ";\n:: else -> skip;\nfi"});
      w_.line("if");
      w_.line(":: fdone == " + last + " ->");
      w_.in();
      step({}, "", {"done = 0", "H_W(" + str(g_.loc_done) + ")"});
      if (p_.flaw != Flaw::EpochWrapNotCleared)
        for (int k = 0; k < g_.capacity; ++k)
          clear_descriptor(k);
      step({}, "", {"ticket = 0", "epoch = 0", "H_W(" + str(g_.loc_ticket) + ")", finish});
      w_.out();
      w_.line(":: else -> skip;");
      w_.line("fi;");
      w_.out();
    }
    w_.line(
        ":: else -> printf(\"lookback: exporter error: epoch %d not foreseen\\n\", bep[thr]); "
        "assert(false);");
    w_.line("fi;");
  }

  Writer& w_;
  const Protocol p_;
  const Instance inst_;
  const Geometry& g_;
  const int launch_, tiles_, blocks_;
  int phase_ = 0;
  std::string gate_;  // start gate the next step must carry
  int events_ = 0;    // shared events written so far on this path (upper bound)
};

}  // namespace

int write_blocks(Writer& w, const PromelaSpec& spec, const Geometry& g) {
  int most = 1;
  for (int l = 0; l < static_cast<int>(g.tiles_of.size()); ++l) {
    if (l > 0 && spec.protocol.reset != Reset::Epoch)
      most = std::max(most, BlockWriter(w, spec, g, l).host());
    most = std::max(most, BlockWriter(w, spec, g, l).block());
  }
  return most;
}

}  // namespace lookback::model::promela
