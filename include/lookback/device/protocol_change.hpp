// Configurations whose protocols differ from their catalogue entry's in a
// field or two: what the benchmark's exploration rows and the tests compare
// a catalogue protocol with. Unverified: the model checks catalogue entries
// only (protocol/catalogue.hpp), so none of these belongs in a user's build.
#pragma once

#include "lookback/protocol/spec.hpp"

namespace lookback::unverified {

// Base (a ScanConfig, or one with its flags mapped) with Change, a constexpr
// Protocol -> Protocol function object, applied to both of its protocols.
template <class Base, class Change>
struct ProtocolChange : Base {
  static constexpr protocol::Protocol protocol = Change{}(Base::protocol);
  static constexpr protocol::Protocol protocol_in_place = Change{}(Base::protocol_in_place);
};

// Another number of passed windows a left fold keeps for its second pass
// (Protocol::held_windows; the catalogue's deterministic entries hold 4).
template <int kHeld>
struct HeldWindowsChange {
  constexpr protocol::Protocol operator()(protocol::Protocol p) const {
    p.held_windows = kHeld;
    return p;
  }
};
template <class Base, int kHeld>
using Holding = ProtocolChange<Base, HeldWindowsChange<kHeld>>;

}  // namespace lookback::unverified
