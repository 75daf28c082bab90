#!/bin/bash
# explore_default_det and _f64, two passes each, and a main-suite f32 check.
cd "$(dirname "$0")" && xz -dk lookback_bench.xz && chmod +x lookback_bench || exit 3
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
for p in 1 2; do
  for g in explore_default_det explore_default_det_f64; do
    ./lookback_bench --suite explore --group $g --min-log 16 --max-log 28 --csv $OUT/${g}_p$p.csv > $OUT/${g}_p$p.log 2>&1
    echo "$g p$p rc $?"
  done
done
