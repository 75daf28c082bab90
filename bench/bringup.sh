#!/usr/bin/env bash
# The groups whose answers depend on the GPU, for a GPU the library was not
# tuned on (or a new driver): where the default configuration switches
# tiers (explore_default, _u64, _u16, _u8: each ends with the default
# against its fastest tier at every size), the 8-byte persistent shapes the
# default picks by bandwidth per SM (explore_u64_shapes, explore_f64_shapes),
# where the wide shape starts to pay (explore_wide_switch, _f64), the
# deterministic default against the default for f32 and f64
# (explore_default_det, _f64: its tiers' switches and first-wave pacing
# rates were chosen on an H200, config.hpp) and the main table. PASSES
# passes of the group list, one after the other, so that a slow spell of
# the card shows as a pass that disagrees. Then, where it was built next to
# BENCH (or $FLAG_LATENCY names it), lookback_flag_latency: how long a
# descriptor publish takes to reach another SM's look-back, idle and under
# a streaming copy (bench/explore/flag_latency.cu; about 10 s).
#   bench/bringup.sh BENCH OUTDIR [PASSES]    (PASSES: 3)
# Writes OUTDIR/gpu.txt, OUTDIR/<group>_p<pass>.{csv,log} and
# OUTDIR/flag_latency.{csv,log}; exits non-zero
# if any run failed a result check, could not run or ran past
# $BRINGUP_TIMEOUT seconds (default 600; an untuned GPU may hang a kernel
# that the library bounds only in its test builds).
set -uo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 BENCH OUTDIR [PASSES]" >&2
  exit 2
fi
bench=$1
out=$2
passes=${3:-3}
limit=${BRINGUP_TIMEOUT:-600}
if ! [[ $passes =~ ^[1-9][0-9]*$ && $limit =~ ^[1-9][0-9]*$ ]]; then
  echo "$0: PASSES ($passes) and BRINGUP_TIMEOUT ($limit) are whole numbers above 0" >&2
  exit 2
fi
mkdir -p "$out"
nvidia-smi --query-gpu=name,serial,driver_version,clocks.sm,clocks.mem --format=csv \
  >"$out/gpu.txt" 2>&1
status=0
run_program() {  # name, program, its arguments...
  local name=$1
  shift
  timeout "$limit" "$@" --csv "$out/$name.csv" >"$out/$name.log" 2>&1
  local rc=$?
  [ $rc -eq 0 ] || status=1
  echo "$name: exit $rc, $(tail -n 1 "$out/$name.log")"
}
run() {  # name, bench arguments...
  local name=$1
  shift
  run_program "$name" "$bench" "$@"
}
for pass in $(seq 1 "$passes"); do
  for group in explore_default explore_default_u64 explore_default_u16 explore_default_u8; do
    run "${group}_p$pass" --suite explore --group "$group" --min-log 16 --max-log 24
  done
  for group in explore_u64_shapes explore_f64_shapes; do
    run "${group}_p$pass" --suite explore --group "$group" --min-log 20 --max-log 30
  done
  for group in explore_wide_switch explore_wide_switch_f64; do
    run "${group}_p$pass" --suite explore --group "$group" --min-log 20 --max-log 25
  done
  for group in explore_default_det explore_default_det_f64; do
    run "${group}_p$pass" --suite explore --group "$group" --min-log 17 --max-log 24
  done
done
run main --suite main --min-log 10 --max-log 30
flag=${FLAG_LATENCY:-$(dirname "$bench")/lookback_flag_latency}
if [ -x "$flag" ]; then
  run_program flag_latency "$flag"
else
  echo "flag_latency: skipped, no $flag"
fi
exit $status
