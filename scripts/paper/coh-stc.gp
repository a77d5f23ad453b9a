# coh-stc.gp - snoop lookups and their energy per stc configuration
# (coherence.sh): every core of 4 in the same configuration (x, canonical
# order), one line per kernel; top: snoop lookups per 1000 references,
# bottom: the snoop lookups' energy (docs/ENERGY.md 3.9.1), both log scale.
# file, names (the kernels, blank-separated, in the file's column order),
# title_text: set by coherence.sh.
load dir.'/style.gp'
if (term eq 'svg') {
    set terminal svg size 960,760 fixed noenhanced font 'Sans,13' background rgb 'white'
} else {
    set terminal pngcairo size 960,760 noenhanced font 'Sans,10' background rgb 'white'
}
set output out
f = data.'/'.file
n = words(names)
set linetype 7 lc rgb '#e377c2' lw 2 pt 1 ps 0.8
set linetype 8 lc rgb '#7f7f7f' lw 2 pt 2 ps 0.8
set logscale y
set key outside right top vertical Left reverse noopaque
set multiplot layout 2,1 title title_text
set ylabel 'snoop lookups per 1000 references'
set xtics scale 0 rotate by 60 right font ',9'
set format x ''
set bmargin 1
plot for [i=1:n] f using 0:(column(i + 1)):xtic('') with linespoints lt i title word(names, i)
set ylabel 'snoop energy (uJ)'
set format x '%g'
set bmargin 7
plot for [i=1:n] f using 0:(column(n + i + 1)):xtic(1) with linespoints lt i title word(names, i)
unset multiplot
