# fig5.gp - Figure 5 (fig56.sh): miss rate over cache size, log-log.
load dir.'/style.gp'
set title sprintf('Figure 5: %s, miss rate over cache size', prog)
set xlabel 'cache size (KB, 4 banks, log scale)'
set ylabel 'miss rate (% of requests, log scale)'
set logscale xy 2
set logscale y 10
set xtics (1, 2, 4, 8, 16, 32, 64)
set xrange [0.85:75]
set key bottom left
set arrow 1 from first paper_kb, graph 0 to first paper_kb, graph 1 nohead lt 9
set label 1 sprintf(' paper (parser): %g KB', paper_kb) at first paper_kb, graph 0.06 left
f = data.'/fig56.tsv'
plot f using 1:5 with linespoints lt 2 title 'D-cache, 4-way 32 B', \
     f using 1:4 with linespoints lt 1 title 'I-cache, 4-way 32 B', \
     f using 1:11 with linespoints lt 2 dt 2 title 'D-cache, direct-mapped 32 B', \
     f using 1:10 with linespoints lt 1 dt 2 title 'I-cache, direct-mapped 32 B', \
     NaN with lines lt 9 title 'paper: parser flattens / lowest energy'
