// PTX consistency maintained event by event, for the explorer.
//
// The explorer only ever appends an event that has no program-order or
// reads-from successor yet. Every edge of the PTX causality order (program
// order, observation, release/acquire synchronisation, fence-SC order in
// order of addition, launch boundaries) then points from an older event to a
// newer one, so appending e adds causality edges *into* e only: the
// relations of the older events never change. We keep, per event, the sets
// of its predecessors under each relation and check only the axiom instances
// that mention e. SC-per-location is the one relation with edges in both
// directions (coherence and from-reads); we keep its reachability closure.
//
// `Derived` (consistency.hpp) computes the same verdicts from scratch; a test
// checks the two agree on every graph of several explorations.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "lookback/model/graph.hpp"
#include "lookback/model/relation.hpp"

namespace lookback::model {

// `MaxEvents` bounds the graph (the width of the per-event bit sets): the
// explorer's `IncrementalPtx` uses kMaxEvents, the sampler kMaxSampledEvents.
template <int MaxEvents>
class BasicIncrementalPtx {
 public:
  // Accounts for the graph's last event. Returns nullptr when the graph is
  // still consistent, else the name of the violated axiom. A rejected event
  // leaves the state of the older events untouched: the caller may remove it
  // from the graph (ExecutionGraph::remove_last) and append another in its
  // place (the sampler tries candidates this way). An accepted one is taken
  // back by undo_last.
  const char* append(const ExecutionGraph& g);

  // Takes back the last accepted append, while its event is still the
  // graph's last: the explorer visits a child graph in place and then steps
  // back to the parent, instead of copying the parent for every child. Only
  // after keep_undo_log(): the log costs a reach set per changed event, which
  // the sampler (it never steps back) should not pay.
  void undo_last();
  void keep_undo_log() { undoable_ = true; }

  // A data race between the last event and an older one, if any.
  std::optional<std::pair<int, int>> race(const ExecutionGraph& g) const;

 private:
  using Bits = BasicBits<MaxEvents>;
  struct Sets {
    Bits prefix;  // h with prefix(h, e): e is a write released by h
    Bits obs;     // writes e observes (strong reads-from, through RMWs)
    Bits cbase;   // cause_base predecessors
    Bits cause;   // causality-order predecessors
    Bits reach;   // events reachable from e in strong-com | po-loc
  };
  std::vector<Sets> s_;
  // What undo_last restores: the reach sets of older events that an append
  // overwrote (oldest first), and, per accepted append, where its changes
  // start.
  struct Change {
    int event;
    Bits reach;
  };
  std::vector<Change> changes_;
  std::vector<std::size_t> marks_;
  bool undoable_ = false;
};

using IncrementalPtx = BasicIncrementalPtx<kMaxEvents>;
extern template class BasicIncrementalPtx<kMaxEvents>;
extern template class BasicIncrementalPtx<kMaxSampledEvents>;

// Morally strong (PTX): a thread's own events, or two strong operations each
// inside the other's scope.
bool morally_strong(const ExecutionGraph& g, int a, int b);

}  // namespace lookback::model
