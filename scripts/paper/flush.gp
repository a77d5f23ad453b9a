# flush.gp - the flush contrast (flush.sh): walk writeback energy per
# program, each direction of the two measurements.
load dir.'/style.gp'
set title 'Flush contrast: walk writeback energy, small to large vs large to small'
set ylabel 'walk writeback energy (µJ)'
set yrange [0:*]
set offsets 0, 0, graph 0.25, 0
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set xtics rotate by -35 scale 0
set key top left
f = data.'/flush.tsv'
plot f using 3:xtic(1) title 'tune, ascending (seed)' lt 1, \
     '' using 5 title 'tune, descending' lt 2, \
     '' using 11 title 'size walk 2K->4K->8K' lt 3, \
     '' using 13 title 'size walk 8K->4K->2K' lt 4
