// Interchangeable writes (System::interchangeable), PTX only: the writes of
// one launch to such a location L carry one value, none is weak, an RMW or
// releasing (release order, or a release fence or release write to L before
// it in its thread), none is .cta-scoped, none equals the initial value or a
// value of another launch; L is read by plain loads only (no RMW, no await,
// no weak load) and is no descriptor. Split value words of a fallback with
// no fences before them are such locations: owner and fallbacks store the
// same value.
//
// Claim: two graphs that differ only in which write of L each read of L
// takes (with the same value, and the same "initial or not") and in the
// coherence order of L have the same futures: every extension consistent
// after one is consistent after the other with the same choices elsewhere,
// reads the same values and meets the same checks. Why:
// - What a read of L brings into causality order is its source alone: a
//   plain write heads no release sequence and observes nothing through an
//   RMW. So causality order differs between the two graphs only in which
//   writes of L it holds, and those constrain accesses to L only
//   (coherence, causality axiom); base causality (synchronisation, fence-SC,
//   launches) is the same. Every axiom on other locations, every data race
//   there, and which writes an await there may read (termination) agree.
// - L is free of races (no weak access), of awaits, and of monotone-status
//   (no descriptor); the values read from L decide the programs' paths.
// - Which values a new read of L may take is the same in both: the initial
//   value iff no write of L is in its causality predecessors and its own
//   earlier accesses of L all read it; the value of launch p iff no write of
//   a later launch is, nor was read or written by its own earlier accesses
//   (launches order coherence: all of launch p precede launch p+1). Both
//   depend on values read and on base causality only.
// - A new read of L reading the last write of a launch's run is consistent
//   whenever reading any write of it is (the later the source, the fewer
//   writes the read reads-before, and no cycle can enter through it). A new
//   write placed last in coherence is always consistent (nothing follows
//   it; no RMW on L to break atomicity).
// Hence a read of L tries one source per value (the initial value and the
// last write of each launch), a write goes last, and the fingerprint names
// a read of L by its value, not its source, and leaves out L's coherence
// order. The graph a counterexample shows is one of the equivalent ones,
// of the same size. Where a program breaks the assumptions the explorer
// notices on the graph that first does (its prefix was explored exactly,
// up to this equivalence) and explores again without the reduction.
#pragma once

#include "execution_step.hpp"

namespace lookback::model::detail {

// Whether `op` of thread t keeps L's assumptions in `g` (always true off
// an interchangeable location).
bool keeps_interchangeable(const System& sys, const ExecutionGraph& g, int t, const Op& op);

// Whether candidate `c` is the one kept for an access to an interchangeable
// location: a read takes the initial value or the last write of a run of
// equal values in coherence; a write goes last.
bool kept_interchangeable(const ExecutionGraph& g, const Candidate& c);

}  // namespace lookback::model::detail
