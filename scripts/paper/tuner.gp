# tuner.gp - tuners on real programs (tuner.sh): energy saved per program.
load dir.'/style.gp'
set title 'Hardware tuner on real programs: energy saved vs 8K_4W_32B (I + D)'
set ylabel 'energy saved vs 8K_4W_32B (%)'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set xtics rotate by -35 scale 0
set key bottom left
set grid ytics
set arrow 1 from graph 0, first paper_t1 to graph 1, first paper_t1 nohead lt 9
set arrow 2 from graph 0, first 0 to graph 1, first 0 nohead lc rgb '#000000' lw 1
f = data.'/tuner.tsv'
plot f using 2:xtic(1) title 'optimum' lt 3, \
     '' using 3 title 'oracle seed heuristic' lt 1, \
     '' using 4 title 'hw seed heuristic' lt 4, \
     '' using 5 title 'hw probe' lt 6, \
     '' using 6 title 'hw monitor (default)' lt 2, \
     NaN with lines lt 9 title 'paper Table 1 mean'
