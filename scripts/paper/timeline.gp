# timeline.gp - one run over time (timeline.sh): the energy saved so far
# (top) and the configuration in use (bottom), monitor and seed heuristic.
# Set by timeline.sh: prog, optimum, optimum_saved, rows (configurations
# on the bottom axis), config_tics (a "set ytics (...)" naming them).
load dir.'/style.gp'
f = data.'/timeline.tsv'
set multiplot layout 2,1 title sprintf('%s, D-cache: the hardware tuners over one run', prog)
set logscale x 10
set lmargin 15
set key bottom left
set ylabel 'saved vs 8K_4W_32B so far (%)'
set yrange [*:*]
set offsets 0, 0, 5, 5
set format x ''
set arrow 1 from graph 0, first optimum_saved to graph 1, first optimum_saved nohead lt 9
set arrow 2 from graph 0, first 0 to graph 1, first 0 nohead lc rgb '#000000' lw 1
plot f using 1:2 with lines lt 2 title 'monitor (default)', \
     f using 1:5 with lines lt 4 title 'seed heuristic (hardware)', \
     NaN with lines lt 9 title sprintf('whole-run optimum %s (hindsight)', optimum)
unset arrow 1
unset arrow 2
set format x '%.0s%c'
set xlabel 'D-cache accesses (log scale)'
set ylabel ''
set yrange [-0.5:rows - 0.5]
eval config_tics
set key top left
set offsets 0, 0, 0, 0
plot f using 1:3 with steps lt 2 title 'monitor (default)', \
     f using 1:6 with steps lt 4 dt 2 title 'seed heuristic (hardware)'
unset multiplot
