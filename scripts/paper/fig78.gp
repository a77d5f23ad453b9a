# fig78.gp - Figures 7 and 8 (fig78.sh): cache = 'I' or 'D'. Top: mean miss
# rate; bottom: mean normalised energy, way prediction as diamonds.
load dir.'/style.gp'
if (term eq 'svg') {
    set terminal svg size 960,760 fixed noenhanced font 'Sans,13' background rgb 'white'
} else {
    set terminal pngcairo size 960,760 noenhanced font 'Sans,10' background rgb 'white'
}
set output out
f = data.'/fig78.tsv'
m = (cache eq 'I') ? 2 : 5
e = (cache eq 'I') ? 8 : 11
p = (cache eq 'I') ? 14 : 17
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set xtics scale 0
set xlabel 'size and associativity (one bar per line size)'
set multiplot layout 2,1 title sprintf(title7, nprog)
set ylabel 'miss rate (% of requests)'
set yrange [0:*]
set key top left
plot f using m:xtic(1) title '16 B line' lt 1, '' using m+1 title '32 B line' lt 2, '' using m+2 title '64 B line' lt 3
set ylabel 'energy / energy of 8K_4W_32B'
set key top left
plot f using e:xtic(1) title '16 B line' lt 1, '' using e+1 title '32 B line' lt 2, '' using e+2 title '64 B line' lt 3, \
     '' using ($0 - 0.25):p with points lt 9 title 'with way prediction', \
     '' using ($0):p+1 with points lt 9 notitle, \
     '' using ($0 + 0.25):p+2 with points lt 9 notitle
unset multiplot
