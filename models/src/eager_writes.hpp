// Eager writes (System::eager_writes), PTX only: a thread whose next operation is a
// plain store (not an RMW) to such a location L performs it at once, alone,
// like a local step (execution_step.hpp, is_local). The declaration is a
// hint the explorer checks on every access to L: every access of L is strong
// (relaxed or stronger, not .cta-scoped: no two accesses of L ever race), none
// is an RMW or an await, L is no descriptor (monotone-status never looks at
// it), and a thread neither finishes nor fails right after a store to L
// (so no check of its own sits between the store and its next step). Split value
// words of the fallback variants are such locations: relaxed, written before
// a status store or a CAS, only ever loaded after a status.
//
// Claim: exploring only the paths that add such a store w of thread t as
// soon as it is t's next operation finds every graph the full search finds,
// up to the events still to be added, and every violated property, and
// every hang. Why: take any path of the full search from a graph S in which
// t's next operation is w, to a graph H. Its events in order are
// e_1 ... e_k (then w, if H holds it). Move w to the front (or add it, if H
// does not hold it: a store is always addable, at the end of L's coherence).
// - Each graph of the new path is S + w + e_1..e_j, a subset of H + w closed
//   under program order, reads-from and fence-SC order (e_1..e_j read no w:
//   they were added before it; w reads nothing). All causality edges point
//   from older to newer events and are derived only from events below them,
//   so the relations of the subset are those of H restricted (causality
//   possibly smaller): every axiom instance (a forbidden com edge against
//   causality, a cycle of SC-per-location, an RMW skipping a write) is one of
//   H + w's, so the subset is consistent. Each e_j is a candidate there with
//   the same source and the same place in coherence relative to the events
//   present (under PTX a read may take any write present that keeps the
//   graph consistent; under SC only the latest, which moving w changes).
// - The checks made on adding e_j see the same values (a thread's program
//   state depends on its own reads only), the same descriptor coherence
//   neighbours (L is no descriptor), and the same races: a race is checked
//   when the later of its two events is added, with causality into it final
//   then, and no access of L races. So every violation the old path met is
//   met on the new one, at a graph of at most one more event (w), and the
//   adding of w itself reports nothing (t neither fails nor finishes after
//   it: checked), so no path of the new search is cut short where the old
//   one went on.
// - With System::interchangeable on L as well, w goes last in L's coherence
//   rather than where H has it; graphs differing only in L's coherence are
//   one graph there (interchangeable.hpp), so the argument holds up to it.
// - Hangs: S is not checked (as for local steps). t is started and can step
//   at S, so under FAIR, OBE, HSA and LOBE S hangs only where S + w does;
//   under UNFAIR a thread blocked at S is blocked at S + w, as w adds no
//   write to a location any await reads (no await on L), and changes no
//   causality edge among older events. Occupancy is unchanged because t is
//   not finished after w (checked). Executions (maximal graphs) are the same
//   set: every one holds w, and every graph holding w is reached.
// A program that breaks the declaration is noticed on the first graph that
// does (its prefix was explored with every path the exact search has, up to
// this reordering) and the search runs again without it.
#pragma once

#include "execution_step.hpp"

namespace lookback::model::detail {

// Whether `op` is a store the explorer performs eagerly.
bool is_eager_write(const System& sys, const Op& op);

// Whether `op` keeps the assumptions of an eager-write location (always
// true off one).
bool keeps_eager(const System& sys, const Op& op);

}  // namespace lookback::model::detail
