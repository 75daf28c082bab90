// Exhaustive exploration of every execution graph of a System under a memory
// model, checking safety properties on each new event and termination under
// a progress model on each reachable graph.
//
// Graphs grow one event at a time in an order that respects program order
// and reads-from; every distinct graph (up to the naming of events) is
// visited once, however many interleavings lead to it. A read may take any
// write already in the graph that keeps the graph consistent, a write any
// consistent coherence position. Executions with reads-from edges against
// program order (load buffering) are not built: that is exact for RC11 and
// SC, and for PTX on programs whose writes depend on their earlier reads
// (true of the protocol programs: tile ids are address dependencies and
// every later step branches on the look-back). Litmus tests, which need
// load buffering, are enumerated instead (litmus.hpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lookback/model/consistency.hpp"
#include "lookback/model/program.hpp"

namespace lookback::model {

using protocol::Progress;

struct ExploreOptions {
  MemoryModel model = MemoryModel::Ptx;
  Progress progress = Progress::Obe;
  bool check_termination = true;
  // fallback-wait-free: no block ever waits unboundedly (every wait has a
  // spin bound), so a block running alone finishes in a bounded number of
  // its own steps whatever the others do.
  bool check_wait_free = false;
  bool check_races = true;
  // Identify graphs that differ only by permuting interchangeable threads
  // (System::symmetry_class); off under progress models that rank blocks.
  bool symmetry = true;
  // PTX: treat the writes of System::interchangeable locations as one write
  // per launch (one source per value for a read, one coherence position for
  // a write, graphs equal up to which of them was read are one graph; sound:
  // models/src/interchangeable.hpp). Off: every choice, for cross-checks.
  bool interchangeable = true;
  // PTX: perform stores to System::eager_writes locations as soon as they
  // come up, alone (sound: models/src/eager_writes.hpp). Off: every
  // interleaving. Not under SC, where a read takes only the latest write, so
  // when a store goes changes what is read.
  bool eager_writes = true;
  // PTX: perform every plain store as soon as it is its started thread's
  // next operation, alone (models/src/eager_stores.hpp). The search trusts
  // itself only where it meets no violation and no await; else it runs
  // again without it. Off: every interleaving of stores, for cross-checks.
  bool eager_stores = true;
  // PTX, no occupancy bound: a thread that has read a shared location goes
  // on alone until its next step that is not such a read
  // (models/src/read_blocks.hpp); voided like eager stores. Off: every
  // interleaving of reads, for cross-checks.
  bool read_blocks = true;
  // Workers exploring at once, over one shared visited set. The counts are
  // the same whatever their number. A search that meets a violation (and
  // one cut short by stop_at_first or max_graphs) is run alone, so that its
  // counterexample does not depend on which worker got there first. With
  // jobs > 1, System::programs are called from several threads at once
  // (the protocol programs are pure functions of the graph), and so is
  // on_execution, one call at a time.
  int jobs = 1;
  // Stop at the first violation instead of exploring everything; with
  // stop_only_at, at the first violation of that property (a mutant's
  // expected one: others met on the way are kept and the search goes on).
  bool stop_at_first = false;
  std::optional<Property> stop_only_at;
  // Test hook: recompute every PTX verdict from scratch (Derived) and throw
  // std::logic_error if the incremental one differs.
  bool cross_check = false;
  // Test hook: called with every maximal graph (each execution counted),
  // also by a search that is voided later and run again (reexplored), and
  // by a parallel search that met a violation and is run again alone; how
  // many such calls a voided parallel search makes depends on the timing
  // of its workers. on_restart then tells the caller to forget them.
  std::function<void(const ExecutionGraph&)> on_execution;
  // Test hook: called after a search is given up, before it is run again;
  // the executions reported so far belong to the search given up. Called on
  // the thread that called explore(), after every worker has been joined.
  // After the last on_restart (from the start if there is none),
  // on_execution sees exactly the result's executions.
  std::function<void()> on_restart;
  // Give up (result marked incomplete) after this many graphs; 0 = never.
  std::uint64_t max_graphs = 0;
  // Called about once a second with the number of graphs visited so far.
  std::function<void(std::uint64_t graphs, std::uint64_t executions)> on_progress;
};

struct Violation {
  Property property = Property::None;
  std::string message;
  ExecutionGraph graph;
  std::vector<int> schedule;  // thread of each added event, in order
  int failing_thread = -1;
};

struct ExploreResult {
  std::uint64_t graphs = 0;      // distinct graphs visited (partial ones too)
  std::uint64_t executions = 0;  // maximal graphs: every thread finished or stuck
  std::uint64_t stuck = 0;       // maximal graphs with some thread still waiting
  double seconds = 0;
  bool complete = true;  // false when max_graphs cut the search short
  // System::interchangeable or System::eager_writes did not hold, or the
  // eager-stores search met a violation or an await, so the search ran
  // again without them.
  bool reexplored = false;
  int max_thread_steps = 0;  // most events any one block performed
  // Shortest counterexample found for each violated property.
  std::map<Property, Violation> violations;
  bool passed() const { return violations.empty(); }
};

ExploreResult explore(const System& sys, const ExploreOptions& opt);

}  // namespace lookback::model
