#!/bin/bash
# The default-det calls, from a git-ignored folder carried with a stripped,
# xz-compressed lookback_bench beside this script: each of $BENCH_GROUPS in two
# passes, --min-log 16 --max-log $MAXLOG, CSVs and logs tarred into
# $OUT/$ARCHIVE (the device tool returns 8 files a call). As run:
#   first call  BENCH_GROUPS="explore_default_det explore_default_det_f64" MAXLOG=28
#               (it wrote its 8 files into $OUT untarred)
#   tiers/      BENCH_GROUPS="explore_default_det explore_default_det_f64 explore_held_windows explore_held_windows_f64" MAXLOG=26 ARCHIVE=tiers.tgz
#   quarter/    the default groups, MAXLOG=24 ARCHIVE=quarter.tgz (quarter/bench.diff's build)
cd "$(dirname "$0")" && xz -dkf lookback_bench.xz && chmod +x lookback_bench || exit 3
mkdir -p csv
for p in 1 2; do
  for g in ${BENCH_GROUPS:-explore_default_det explore_default_det_f64}; do
    ./lookback_bench --suite explore --group "$g" --min-log 16 --max-log "${MAXLOG:-28}" \
      --csv "csv/${g}_p$p.csv" >"csv/${g}_p$p.log" 2>&1
    echo "$g p$p rc $?"
  done
done
grep -h "result checks" csv/*.log | sort | uniq -c
tar czf "$OUT/${ARCHIVE:-csv.tgz}" csv
