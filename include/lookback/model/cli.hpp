// The lookback-check command, callable from tests with captured streams.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace lookback::model {

inline constexpr int kExitPass = 0;
inline constexpr int kExitViolated = 1;
inline constexpr int kExitUsage = 2;
// Nothing violated, but --max-graphs cut the search short: not a pass.
inline constexpr int kExitIncomplete = 3;

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace lookback::model
