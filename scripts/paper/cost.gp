# cost.gp - tuning cost (cost.sh): shares of the program's energy, log
# scale (they span six decades), the seed's ratio as a dashed line.
# paper_ratio, paper_nj, paper_j: from paper-values.tsv (cost.sh).
load dir.'/style.gp'
set title 'What tuning costs, as a share of the program energy (I + D)'
set ylabel 'tuning energy / program energy (log scale)'
set logscale y 10
set yrange [1e-10:1e2]
set format y '1e%L'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set xtics rotate by -35 scale 0
set key top center maxrows 2 width -2
set arrow 1 from graph 0, first paper_ratio to graph 1, first paper_ratio nohead lt 9
f = data.'/cost.tsv'
plot f using 6:xtic(1) title 'monitor tuner: shadow-tag arrays' lt 2, \
     '' using 8 title 'monitor tuner: walks of its moves' lt 6, \
     '' using 13 title 'seed heuristic (hw): extra energy of searching' lt 4, \
     NaN with lines lt 9 title sprintf('paper: %g nJ per search / %g J', paper_nj, paper_j)
