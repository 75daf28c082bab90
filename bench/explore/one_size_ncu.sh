#!/bin/bash
# Profiles lookback_one_size launches with Nsight Compute on the lent GPU:
# kernel durations per size, then warp-state and per-SASS-line stall samples
# of one launch per (variant, n). Clocks stay as they are (--clock-control
# none). Usage: one_size_ncu.sh BIN OUTDIR "variant:n variant:n ..."
# NCU_EXTRA: more options for the profile, e.g. "--warp-sampling-interval 0"
# (a one-block launch otherwise yields a handful of stall samples).
# Outputs per case: dur_*.csv (every launch's duration), details_*.txt,
# sass_*.csv (per SASS instruction: executions and stall samples by reason).
set -u
bin=$1 out=$2 cases=$3
ncu=/usr/local/cuda/bin/ncu
mkdir -p "$out"
for c in $cases; do
  v=${c%%:*} n=${c##*:}
  tag=${v}_${n}
  "$ncu" --clock-control none -k regex:scan_kernel --metrics gpu__time_duration.sum,launch__grid_size \
    --csv "$bin" "$v" "$n" 30 > "$out/dur_$tag.csv" 2> "$out/dur_$tag.err"
  "$ncu" --clock-control none -k regex:scan_kernel --launch-skip 20 --launch-count 1 \
    --section WarpStateStats --section SourceCounters --section LaunchStats --section Occupancy \
    --import-source no ${NCU_EXTRA:-} -f -o "$out/rep_$tag" "$bin" "$v" "$n" 30 > "$out/rep_$tag.log" 2>&1
  "$ncu" --import "$out/rep_$tag.ncu-rep" --page details > "$out/details_$tag.txt" 2>&1
  "$ncu" --import "$out/rep_$tag.ncu-rep" --page source --csv --print-source sass \
    > "$out/sass_$tag.csv" 2> "$out/sass_$tag.err"
done
