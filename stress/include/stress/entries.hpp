// Every catalogue entry as a stress kernel (see entry.hpp).
#pragma once

#include <vector>

#include "stress/entry.hpp"

namespace lookback::stress {

// In catalogue order: entries()[i].index == i.
std::vector<EntryRunner> all_entries();

}  // namespace lookback::stress
