// Rendering an execution for people (per-block event lists) and machines
// (Graphviz DOT, and the schedule that rebuilds it).
#pragma once

#include <ostream>
#include <string>

#include "lookback/model/explorer.hpp"

namespace lookback::model {

// Per thread, its events in program order with access modes, what each read
// observed and from which write; then the violated property in one line.
void print_counterexample(std::ostream& os, const System& sys, const Violation& v);

// The execution graph as DOT: po edges solid, rf dashed, co dotted.
void write_dot(std::ostream& os, const System& sys, const ExecutionGraph& g,
               const std::string& title);

// One line describing an event, e.g. "W.release desc[1] = AGGREGATE[1]/e0".
std::string describe(const System& sys, const ExecutionGraph& g, int id);

}  // namespace lookback::model
