// The comparison at the heart of the SPIN cross-check: our explorer's
// verdict on one bounded instance under sequential consistency against
// SPIN's verdict on the Promela model exported from the same Protocol.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "lookback/model/promela_export.hpp"
#include "spin_runner.hpp"

namespace lookback::model::spin {

struct CheckerVerdict {
  std::set<protocol::Property> violated;  // check_variant, as lookback-check reports it
  // The same instance explored without symmetry reduction: the unit SPIN
  // counts in (one end state per execution graph).
  std::set<protocol::Property> violated_unreduced;
  std::uint64_t executions = 0, stuck = 0, graphs = 0;
  bool complete = true;
};

// Settings that make check_variant explore exactly `spec`'s instance, in sc.
Settings settings_for(const PromelaSpec& spec);

// Runs the explorer on `spec`'s instance of `v` (v.protocol, with spec's
// tile-id source) both ways.
CheckerVerdict check(const protocol::NamedVariant& v, const PromelaSpec& spec);

// Properties SPIN can decide on an interleaving model (all but no-data-race,
// which is defined by the memory model's happens-before).
std::set<protocol::Property> spin_decidable(const std::set<protocol::Property>& all);

// Every way the two verdicts disagree (empty: they agree). Execution counts
// are compared unless the explorer met a data race, which cuts its graph
// where SPIN goes on.
std::vector<std::string> disagreements(const SpinVerdict& spin, const CheckerVerdict& checker);

std::string to_string(const CheckerVerdict& v);

}  // namespace lookback::model::spin
