#!/bin/bash
# Every deterministic tier next to the default configuration: explore_default_det and
# explore_held_windows (f32 and f64), two passes, one process each.
cd "$(dirname "$0")" && xz -dkf lookback_bench.xz && chmod +x lookback_bench || exit 3
mkdir -p csv
for p in 1 2; do
  for g in explore_default_det explore_default_det_f64 explore_held_windows explore_held_windows_f64; do
    ./lookback_bench --suite explore --group $g --min-log 16 --max-log 26 --csv csv/${g}_p$p.csv > csv/${g}_p$p.log 2>&1
    echo "$g p$p rc $?"
  done
done
grep -h "result checks" csv/*.log | sort | uniq -c
tar czf $OUT/tiers.tgz csv
