// Read blocks, PTX only, no occupancy bound: a thread whose last step was a
// plain read of a shared location (a load or a failed CAS) goes on alone
// until it performs a step that is neither such a read nor a local step
// (execution_step.hpp, is_local): its run of reads is explored as one block
// with the step that ends it. A local step neither starts nor ends a block.
// Local steps and eager stores (eager_stores.hpp) of other threads still go
// first.
// Like eager stores, the search is trusted only where it meets no violation
// and no await; else it is void and runs again without both (explorer.cpp).
//
// Claim: where neither search meets a violation or an await, both reach the
// same maximal graphs; where the full search meets a violation, the reduced
// one meets one or is voided. Why: a read can always be delayed. In a path
// ... r e ... where r is a read of thread t and e an event of another
// thread, swap them: e does not read r (a read writes nothing), so S + e is
// a subset of the later graph closed under program order, reads-from and
// fence-SC order, hence consistent, with e a candidate there; then S + e + r
// is the same graph as before. Under PTX a read may take any write present
// that keeps the graph consistent, so r keeps its source (not under SC,
// where only the latest write may be read). The checks see the same: a
// program replays the same values; a race between r and e is found when
// the later of the two is added, with the same causality (nothing reads r);
// coherence orders, and so monotone-status, do not involve reads. Delaying
// every such read until just before its thread's next event (or, for the
// reads a thread ends with, to the end of their launch, one thread's after
// another's: with two launches the second starts only after) gives a
// path in which each thread's run of shared reads is contiguous with the
// step that ends it, its own local steps among them in program order (they
// commute with everything). Then move local steps and stores forward to where they
// become due, lowest thread first, as the explorer schedules them (they
// commute, eager_stores.hpp); they may fall inside a block, but a local read
// starts no block, so on the path so built at most one thread is ever in a
// block, and it is the one the explorer continues. A store a thread not yet started begins with
// is not a step the explorer forces, so where one is due the rule is off
// (blocks_apply). The path so built is one the reduced search takes, to the
// same maximal graph, or to the violating event (a path that ends on reads
// of other threads continues their blocks first: those add events, never
// take one away, so the violation is still met or another one is). With an
// occupancy bound delaying a thread's first read can keep it from starting,
// so the rule is off there.
#pragma once

#include <vector>

#include "execution_step.hpp"

namespace lookback::model::detail {

// Whether the read-block rule may force a thread in state `ts`: no runnable
// thread that has not started yet has a store as its next step.
bool blocks_apply(const ExecutionGraph& g, const std::vector<ThreadState>& ts,
                  const std::vector<bool>& runnable);

}  // namespace lookback::model::detail
