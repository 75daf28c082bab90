#!/bin/bash
# Quarter steps 2^17-2^23: every deterministic candidate next to the default (f32, f64), two passes.
cd "$(dirname "$0")" && xz -dkf lookback_bench.xz && chmod +x lookback_bench || exit 3
mkdir -p csv
for p in 1 2; do
  for g in explore_default_det explore_default_det_f64; do
    ./lookback_bench --suite explore --group $g --min-log 16 --max-log 24 --csv csv/${g}_p$p.csv > csv/${g}_p$p.log 2>&1
    echo "$g p$p rc $?"
  done
done
grep -h "result checks" csv/*.log | sort | uniq -c
tar czf $OUT/quarter.tgz csv
