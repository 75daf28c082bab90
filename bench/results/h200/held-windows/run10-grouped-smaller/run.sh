#!/bin/bash
# Bench experiments: BINS (stripped lookback_bench builds) on the held-windows groups.
cd "$(dirname "$0")" && tar xf bins.tar.xz || exit 3
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
mkdir -p csv
start=$SECONDS
run() {  # name group tag
  local left=$(( ${BUDGET:-560} - (SECONDS - start) ))
  [ $left -gt 20 ] || { echo "skip $1 $2 $3"; return; }
  timeout $left ./$1 --suite explore --group $2 --min-log ${MINLOG:-18} --max-log ${MAXLOG:-26} --csv csv/$1_$3.csv >> $OUT/$1.log 2>&1
  echo "$1 $3 rc $? at $((SECONDS - start)) s"
}
for tag in ${PASSES:-f32a f64 f32b}; do
  case $tag in f64) g=explore_held_windows_f64;; *) g=explore_held_windows;; esac
  for b in ${BINS:-base b8 b4}; do run $b $g $tag; done
done
tar czf $OUT/csv.tgz csv
