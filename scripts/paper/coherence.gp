# coherence.gp - misses by class (coherence.sh): one stacked bar per value
# of the swept parameter, misses per 1000 references of the seven kernels
# together. file, title_text, xlabel_text: set by coherence.sh.
load dir.'/style.gp'
set title title_text
set xlabel xlabel_text
set ylabel 'misses per 1000 references (all kernels)'
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.7
set xtics scale 0
set yrange [0:*]
set key outside right top vertical Left reverse noopaque
f = data.'/'.file
plot f using 2:xtic(1) title 'compulsory' lt 1, \
     '' using 3 title 'capacity' lt 3, \
     '' using 4 title 'conflict' lt 6, \
     '' using 5 title 'true sharing' lt 4, \
     '' using 6 title 'false sharing' lt 2
