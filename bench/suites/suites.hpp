// The benchmark's suites (--suite), one file each under bench/suites/; the
// explore suite is three files of groups. Each runs its operation groups
// (all, or the one --group names) and adds its rows to the report.
#pragma once

#include "harness/settings.hpp"

namespace lookback_bench {

void main_suite(const Settings& s);
void tuning_suite(const Settings& s);
void stats_suite(const Settings& s);
void trace_suite(const Settings& s);
// --suite explore: the open questions of the moment; earlier sweeps are in
// git history next to their logs under bench/results/.
void explore_shape_groups(const Settings& s);
void explore_input_groups(const Settings& s);
void explore_protocol_groups(const Settings& s);

}  // namespace lookback_bench
