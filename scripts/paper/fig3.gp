# fig3.gp - Figure 3 (fig3.sh): clustered bars per program, the paper's
# Table 1 values as diamonds, its means as horizontal lines.
load dir.'/style.gp'
set title 'Figure 3: energy of the optimum vs conventional caches (I + D)'
set ylabel 'energy / energy of 8K_4W_32B'
set yrange [0:*]
set offsets 0, 0, graph 0.35, 0
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set xtics rotate by -35 scale 0
set key top right
set arrow 1 from graph 0, first paper_t1 to graph 1, first paper_t1 nohead lt 9
set arrow 2 from graph 0, first paper_head to graph 1, first paper_head nohead lc rgb '#000000' lw 1.5 dt 3
f = data.'/fig3.tsv'
plot f using 5:xtic(1) title 'optimum (exhaustive, per cache)' lt 1, \
     '' using (1.0) title '8K_4W_32B (cnv4w32)' lt 5, \
     '' using 6 title '8K_1W_32B (cnv1w32)' lt 2, \
     '' using ($0 - 0.25):12 with points lt 9 title 'paper Table 1 (heuristic), program of the same or a similar kind', \
     NaN with lines lt 9 title 'paper Table 1 mean', \
     NaN with lines lc rgb '#000000' lw 1.5 dt 3 title 'paper headline mean'
