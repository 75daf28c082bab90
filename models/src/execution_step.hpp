// One step of an execution, shared by the two drivers of the semantics: the
// explorer (explorer.cpp), which branches on every choice, and the sampler
// (sampler.cpp), which takes one. Here: replaying a thread's program to find
// its next operation, which threads the scheduler may run, the events an
// operation may add (consistency is the caller's check), and the safety
// checks on a new event that are not the program's own `require`s.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lookback/model/consistency.hpp"
#include "lookback/model/program.hpp"

namespace lookback::model::detail {

struct ThreadState {
  bool finished = false;
  bool failed = false;
  std::optional<Op> next;
  // Explorer, read blocks (read_blocks.hpp): the thread's last step that
  // was not local was a plain read of a shared location: its block goes on.
  bool in_read_block = false;
};

// Re-runs thread t's program over its events in `g`: finds its next
// operation (in `s.next`), or that it finished, or a property it found
// violated (then returned, and the thread marked failed).
std::optional<PropertyViolation> advance(const System& sys, const ExecutionGraph& g, int t,
                                         ThreadState& s);

inline bool started(const ExecutionGraph& g, int t) {
  return !g.thread_events(t).empty();
}
inline bool done(const ThreadState& s) {
  return s.finished || s.failed;
}

// The launch (phase) running now: the lowest one with an unfinished thread,
// or -1 when every thread is done.
inline int current_phase(const ExecutionGraph& g, const std::vector<ThreadState>& ts) {
  int phase = -1;
  for (int t = 0; t < g.threads(); ++t)
    if (!done(ts[t]) && (phase < 0 || g.thread(t).phase < phase)) phase = g.thread(t).phase;
  return phase;
}

// Occupancy (System::resident): a thread not yet started may start only
// while fewer than `resident` threads of its launch are started and
// unfinished.
inline bool may_start(const System& sys, const ExecutionGraph& g,
                      const std::vector<ThreadState>& ts, int t) {
  if (started(g, t) || sys.resident <= 0) return true;
  int busy = 0;
  for (int u = 0; u < g.threads(); ++u)
    if (g.thread(u).phase == g.thread(t).phase && started(g, u) && !done(ts[u])) ++busy;
  return busy < sys.resident;
}

// An operation that commutes with every other thread's: a fence.acq_rel (no
// choice to make, no order it joins) or an access to a location only one
// thread touches or nobody writes. Running such operations first, and alone,
// prunes interleavings without losing any graph, violation or hang (a local
// step never unblocks another thread; the one it can let start, by ending
// its thread and freeing a resident slot, matters only under hsa, where the
// explorer forces nothing when there is an occupancy bound).
inline bool is_local(const System& sys, const Op& op) {
  if (op.kind == EventKind::Fence) return op.fence == Fence::AcqRel;
  return op.commutes || (!sys.local.empty() && sys.local[op.loc]);
}

// One way for a thread to perform its next operation: the event (with its
// reads-from source and values) and, for writes, its coherence position.
struct Candidate {
  Event event;
  int co_pos = -1;
};

// Every way for thread t to perform `op` in `g`, consistent or not: a read
// takes any write of its location or the initial value (an await only those
// that end the wait; SC only the latest, but for a window read's lanes
// that do not spin, without an occupancy bound),
// a write any coherence position (SC: the last). Order: sources from the
// initial value along the coherence order, write positions from the first.
std::vector<Candidate> candidates(const System& sys, const ExecutionGraph& g, int t, const Op& op,
                                  MemoryModel m);

// "data race on L: block 0 #3 and block 1 #6 are unordered and not both strong".
std::string race_message(const System& sys, const ExecutionGraph& g, std::pair<int, int> race);

// Whether descriptor write `a`, placed before write `b` in coherence order,
// belongs to the same launch and epoch and carries a higher status: the
// status moved down (what monotone-status forbids).
inline bool status_goes_down(const ExecutionGraph& g, int a, int b) {
  const Event& x = g.event(a);
  const Event& y = g.event(b);
  return g.thread(x.thread).phase == g.thread(y.thread).phase && x.wval.epoch == y.wval.epoch &&
         x.wval.status > y.wval.status;
}

// monotone-status for the graph's last event: when it is a write to a
// descriptor that sits next to a write of the same launch and epoch with a
// higher status in coherence order, says how the status moved down.
std::optional<std::string> monotone_violation(const System& sys, const ExecutionGraph& g);

}  // namespace lookback::model::detail
