// Export of one bounded protocol instance as a Promela model, so that SPIN
// can check it independently of our explorer (sequentially consistent
// interleavings only: SPIN has no weak-memory semantics).
//
// The model is generated from the same `Protocol` value the explorer
// interprets; see models/SPIN.md for what it covers and how the
// cross-check test runs it.
#pragma once

#include <ostream>
#include <string>

#include "lookback/model/protocol_model.hpp"
#include "lookback/model/verdict.hpp"
#include "lookback/protocol/catalogue.hpp"

namespace lookback::model {

// Everything that fixes one exported instance.
struct PromelaSpec {
  std::string name;  // written into the model's header only
  protocol::Protocol protocol;
  Instance instance;
  protocol::Progress progress = protocol::Progress::Fair;
  // Report every reachable await as a fallback-wait-free violation (the
  // explorer does so for variants that claim termination without fairness).
  bool check_wait_free = false;
};

// The one instance `lookback-check --emit-promela` writes for `v` under the
// command-line settings: the flags where given, else the variant's layout
// (packed for by-size variants), its launch count, its progress claim and the
// checker's default bounds.
PromelaSpec promela_spec(const protocol::NamedVariant& v, const Settings& s);

// Writes the model. Throws std::invalid_argument (one line) for instances the
// explorer rejects too, and for instances too large for the encoding.
void write_promela(std::ostream& out, const PromelaSpec& spec);

}  // namespace lookback::model
