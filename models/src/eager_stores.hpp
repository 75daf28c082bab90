// Eager stores, PTX only: every plain store (not an RMW), to any location,
// goes as soon as it is its started thread's next operation, alone, like a
// local step (execution_step.hpp, is_local). This generalises eager writes
// (eager_writes.hpp) from declared value words to all stores. What eager
// writes asks of a location (strong accesses, no await, no descriptor, no
// thread ending on the store) is there so that a moved store cannot cut a
// path short with a check of its own (a race, monotone-status, a finished
// thread) before another violation is met. Here that is not needed: the
// reduced search is only trusted where it meets no violation at all.
//
// The search runs with the reduction until it meets anything it cannot
// vouch for: a violated property (any), a descriptor whose coherence order
// of one launch and epoch is out of status order anywhere (not only next
// to the new write: a moved store can sit between the two writes of a
// descent), or a thread whose next operation is an await (termination and
// fallback-wait-free look at partial graphs, where a store that came early
// may end a wait). Then the result is void and the search runs again
// without the reduction (explorer.cpp), so every verdict, counterexample
// and count of a variant that fails comes from the search without it.
//
// Claim: if the search without eager stores meets a violation, the reduced
// search meets one of the things above; if neither does, both reach the
// same maximal graphs (executions, stuck or not). Why, for one path π of
// the full search that reaches a state S where the reduced search forces
// thread t's store w but π goes on with e_1 ... e_k (to a violation or a
// maximal graph H): move w to the front (or add it, if π never adds it: a
// store placed last in coherence, read by nobody, closes no cycle, splits
// no RMW and releases nothing anybody acquires). As in eager_writes.hpp,
// each graph S + w + e_1..e_j is consistent (a subset of H + w closed under
// program order, reads-from and fence-SC order; causality edges point from
// older to newer events and only come from events below them) and each
// e_j is a candidate there with the same source, so every thread replays
// the same values. The checks on e_j see a superset of what they saw on π,
// by w: a race of e_j with an older event is still there (causality among
// the older events is unchanged, w is read by nobody before its place on
// π); a program's `require` sees the same values; a monotone descent next
// to e_j is still a descent of the same launch and epoch, found by the
// strengthened check even if w now sits between the two writes; an await
// reached on π is reached on the new path by the same thread at the same
// point of its program. A store that finishes its thread only lets the
// next launch, or a block waiting for a resident slot, start earlier, which
// removes no later step (but it can end an hsa hang, a block that cannot
// start for want of a slot: under hsa with an occupancy bound nothing is
// forced, explorer.cpp). Locations declared interchangeable
// (interchangeable.hpp) filter the candidates of both searches alike; the
// fallbacks' executions are compared with that filter on
// (eager_stores_test.cpp). Repeating the move at every forced state (each
// move makes the reduced search follow the path one step further, and paths
// are bounded by the events of an execution) gives a path of the reduced
// search that meets a violation no later than π's (so the search is voided)
// or reaches H with w in it; a maximal graph holds all its threads' stores,
// so H + w = H. Conversely every path of the reduced search is one of the
// full search. SC is left out, where a read takes only the latest write
// and moving a store changes what is read.
#pragma once

#include "execution_step.hpp"

namespace lookback::model::detail {

// Whether `op` is a store the reduction performs eagerly: a plain store,
// not an RMW, to any location.
bool is_plain_store(const Op& op);

// Whether the graph's last event is a write to a descriptor whose
// coherence order holds a write of the same launch and epoch with a higher
// status before it or a lower one after it (anywhere, not only next to it).
bool out_of_status_order(const System& sys, const ExecutionGraph& g);

}  // namespace lookback::model::detail
