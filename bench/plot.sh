#!/usr/bin/env bash
# Plots bandwidth versus n from a lookback_bench CSV, one PNG per operation:
#   bench/plot.sh bench/results/h100_bench.csv bench/results/plots
# Needs gnuplot (Debian: gnuplot-nox). Copy and CUB are the reference lines.
set -euo pipefail
csv=$1
out=${2:-$(dirname "$csv")/plots}
command -v gnuplot >/dev/null || { echo "plot.sh: gnuplot is needed (apt-get install gnuplot-nox)" >&2; exit 2; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Only the operations timed against a copy , tuning sweeps left out (the main suite).
for op in $(awk -F, 'NR > 1 && $3 == "copy" && $1 !~ /^tune/ { print $1 }' "$csv" | sort -u); do
  impls=$(awk -F, -v op="$op" 'NR > 1 && $1 == op { print $3 }' "$csv" | sort -u)
  plot=""
  for impl in $impls; do
    # Powers of two only (the odd sizes would zigzag the lines), sorted by n.
    awk -F, -v op="$op" -v impl="$impl" \
      'NR > 1 && $1 == op && $3 == impl { k = int(log($2) / log(2) + 0.5); if (2 ^ k == $2) print $2, $6 }' "$csv" |
      sort -n >"$tmp/$op.$impl.dat"
    style="linespoints lw 2"
    case $impl in copy) style="lines dt 2 lw 2 lc rgb 'black'" ;; cub) style="lines dt 3 lw 2 lc rgb 'red'" ;; esac
    plot+="${plot:+, }'$tmp/$op.$impl.dat' using 1:2 with $style title '$impl' noenhanced"
  done
  gnuplot <<GP
set terminal pngcairo size 900,560 font ',10'
set output '$out/$op.png'
set title '$op: bandwidth vs n (one read + one write per element)' noenhanced
set logscale x 2
set format x '2^{%L}'
set xlabel 'n (elements)'
set ylabel 'GB/s'
set key top left
set grid
plot $plot
GP
  echo "$out/$op.png"
done
