# Plots of this stress report: `gnuplot plots.gp` in this folder.
set terminal pngcairo size 1200,700 font ',10'
set termoption noenhanced
set datafile missing 'NaN'

# failures per second, mutant x knob
set output 'mutant_kill_matrix.png'
set title 'Failures per second of stress, per mutant and knob (log colour; 0: none seen; -: knob does not apply)'
unset key
set xtics rotate by 35 right
set ytics
set cblabel 'log10(failures / s)'
set palette defined (0 '#fee8c8', 1 '#fdbb84', 2 '#e34a33', 3 '#7f0000')
set xrange [-0.5:13.5]
set yrange [17.5:-0.5]
set xtics ('none' 0, 'delays' 1, 'tiles-reversed' 2, 'tiles-shuffled' 3, 'blocking' 4, 'occupancy-hogs' 5, 'memory-stress' 6, 'descriptor-readers' 7, 'pre-stress' 8, 'concurrent' 9, 'chaos' 10, 'fallback-race' 11, 'starved-tile' 12, 'dispatch-reversed' 13)
set ytics ('no-writer-release' 0, 'no-reader-acquire' 1, 'no-release-no-acquire' 2, 'writer-fence-only' 3, 'split-value-overwritten' 4, 'stop-at-aggregate' 5, 'prefix-before-lookback' 6, 'tile0-aggregate' 7, 'no-reset' 8, 'epoch-wrap-not-cleared' 9, 'hand-over-keeps-epoch' 10, 'fallback-plain-store' 11, 'fallback-unbounded-spin' 12, 'fallback-inplace-no-validation' 13, 'fallback-inplace-fence-odd-tiles' 14, 'count-tiles-not-blocks' 15, 'fold-without-second-pass' 16, 'blockidx-tile-id' 17)
set bmargin 9
set lmargin 30
plot 'plot_kill_matrix.dat' matrix columnheaders with image, \
     'plot_kill_labels.dat' using 1:2:3 with labels font ',8'
reset
set termoption noenhanced
set datafile missing 'NaN'

# P(kill within 60 s)
set output 'mutant_kill_60s.png'
set title 'P(kill within 60 s) per mutant, independent trials (Poisson), 95% interval'
unset key
set style fill solid 0.6 border -1
set boxwidth 0.7
set yrange [0:1.05]
set ylabel 'P(kill in 60 s)'
set grid ytics
set xtics rotate by 35 right
set bmargin 11
set xrange [-0.6:17.6]
plot 'plot_mutants.dat' using 1:3:xtic(2) with boxes lc rgb '#e34a33', \
     '' using 1:3:4:5 with yerrorbars lc rgb 'black' pt 0, \
     '' using 1:(0.04):8 with labels rotate by 90 left

# time to first kill
set output 'mutant_time_to_kill.png'
set title 'Stress time until the first kill, knobs in report order (log; none: not killed)'
set logscale y
set yrange [*:*]
set ylabel 'seconds'
plot 'plot_mutants.dat' using 1:6:xtic(2) with boxes lc rgb '#3182bd'
reset
set termoption noenhanced
set datafile missing 'NaN'

# litmus probes
set output 'litmus_weak_per_million.png'
set title 'Litmus probes: weak outcomes per million instances (red: forbidden by PTX; log)'
unset key
set style fill solid 0.6 border -1
set boxwidth 0.7
set logscale y
set yrange [0.01:*]
set ylabel 'per million'
set grid ytics
set xtics rotate by 25 right
set bmargin 8
set xrange [-0.6:6.6]
plot 'plot_litmus.dat' using 1:3:($4 > 0 ? 0x3182bd : 0xe34a33):xtic(2) with boxes lc rgb variable, \
     '' using 1:($3 == $3 ? $3 * 1.6 : 0.02):5 with labels
