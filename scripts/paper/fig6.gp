# fig6.gp - Figure 6 (fig56.sh): on-chip, off-chip and total energy over
# cache size (I + D), log-log; the U of the total is the point.
load dir.'/style.gp'
set title sprintf('Figure 6: %s, energy over cache size (I + D)', prog)
set xlabel 'cache size (KB, 4 banks, log scale)'
set ylabel 'energy of the run (µJ, log scale)'
set logscale x 2
set logscale y 10
set xtics (1, 2, 4, 8, 16, 32, 64)
set xrange [0.85:75]
set key bottom left
set arrow 1 from first paper_kb, graph 0 to first paper_kb, graph 1 nohead lt 9
set label 1 sprintf(' paper (parser): %g KB', paper_kb) at first paper_kb, graph 0.06 left
f = data.'/fig56.tsv'
plot f using 1:8 with linespoints lt 4 lw 3 title 'total, 4-way 32 B', \
     f using 1:7 with linespoints lt 2 title 'off-chip (misses, writebacks, stall)', \
     f using 1:6 with linespoints lt 1 title 'on-chip (probes, leakage)', \
     f using 1:12 with linespoints lt 4 dt 2 title 'total, direct-mapped 32 B', \
     NaN with lines lt 9 title 'paper: parser minimum'
