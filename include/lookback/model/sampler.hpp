// Sampling single executions of a System, steered by a vector of choices.
//
// The explorer (explorer.hpp) builds every execution of a bounded instance;
// past a handful of tiles there are far too many. The sampler builds one,
// with the explorer's semantics and nothing of its own: the same program
// replay (Ctx), the same candidate events for each operation, the same
// consistency check (PTX: the incremental axioms, with bit rows for
// kMaxSampledEvents events, enough for 64 tiles over two launches; RC11/SC:
// the from-scratch axioms, up to kMaxEvents events) and the same safety
// checks (the programs' own checks, no-data-race, monotone-status). Each decision takes the next
// entry c of the choice vector (0 once it is used up) and reduces it modulo
// the number of alternatives k; a decision with one alternative takes none:
//   - which thread performs the next event: the runnable threads in rotation
//     from the one that ran last, so 0 keeps running it (a thread with no
//     step, e.g. a wait no write ends yet, passes to the next);
//   - which write a read (or RMW) reads from, newest first in coherence
//     order, the initial value last; where a write goes in coherence order,
//     last first. An alternative the memory model forbids passes to the next.
// So an all-zero (or empty) vector is a schedule with as few switches and
// stale reads as the program allows, and RapidCheck, shrinking a vector
// towards fewer and smaller entries, shrinks towards fewer context switches
// and fewer stale reads. Every graph the explorer builds is some vector's
// (up to the naming of interchangeable threads), though not uniformly
// likely: an alternative that follows forbidden ones is taken more often.
//
// Scheduling follows the explorer: a step that commutes with every other
// thread's (own input tile, fence.acq_rel) runs eagerly and takes no choice;
// System::resident bounds the started, unfinished threads of a launch; and
// of interchangeable threads (System::symmetry_class, e.g. blocks taking a
// ticket) only the lowest-numbered one not yet started may start, which
// loses no execution up to the naming of threads.
//
// Only safety is decided: termination is a property of all executions under
// a progress model, not of one. An execution where no thread can step while
// some is unfinished ends `stuck` (all waiting: a hang, not a violation).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lookback/model/explorer.hpp"

namespace lookback::model {

struct SampleOptions {
  MemoryModel model = MemoryModel::Ptx;
  bool check_races = true;
  // Stop after this many events (0: run to the end). A safety violation has
  // a finite witness, so searching the first `max_events` events of every
  // schedule is sound, and bounds what a schedule that finds none costs.
  int max_events = 0;
};

struct Sample {
  // The first safety property violated, if any; the sample ends there.
  std::optional<Violation> violation;
  ExecutionGraph graph;       // the execution built (up to the violation)
  std::vector<int> schedule;  // thread of each event, in order
  bool finished = false;      // every thread ran to its end
  bool stuck = false;         // no violation, no thread can step, some unfinished
  bool cut = false;           // stopped at SampleOptions::max_events
  int decisions = 0;          // decisions taken (entries of the vector read, or 0 past it)
};

// One execution of `sys`, steered by `choices`. Deterministic: the same
// system, choices and options give the same sample. Throws
// std::invalid_argument when an execution exceeds the event bound
// (kMaxSampledEvents under PTX, kMaxEvents under RC11 and SC).
Sample sample_execution(const System& sys, std::span<const int> choices,
                        const SampleOptions& opt = {});

// Of a finished sample of a protocol system: whether it computed the scan,
// independently of the blocks' own checks (they look at prefixes, not at
// the output). Every tile of every launch (`tiles_of`: launch_tiles of the
// instance; a persistent variant runs fewer blocks) wrote its output exactly
// once, and it is [0..tile] of that launch. The first way it did not, or
// nothing.
std::optional<std::string> scan_output_error(const Sample& s, const std::vector<int>& tiles_of);

}  // namespace lookback::model
