# style.gp - the terminal and looks every figure shares (loaded first).
# term ('svg' or 'png') and out are set by lib.sh's plot. Fixed sizes and
# fonts: the output must be the same bytes on every run.
set encoding utf8
if (term eq 'svg') {
    set terminal svg size 960,540 fixed noenhanced font 'Sans,13' background rgb 'white'
} else {
    set terminal pngcairo size 960,540 noenhanced font 'Sans,10' background rgb 'white'
}
set output out
set datafile separator "\t"
set datafile missing "-"
set grid ytics lc rgb '#dddddd' lt 1
set border 3
set tics nomirror
set key top left Left reverse noopaque
set linetype 1 lc rgb '#1f77b4' lw 2 pt 7 ps 0.8
set linetype 2 lc rgb '#ff7f0e' lw 2 pt 5 ps 0.8
set linetype 3 lc rgb '#2ca02c' lw 2 pt 9 ps 0.8
set linetype 4 lc rgb '#d62728' lw 2 pt 11 ps 0.8
set linetype 5 lc rgb '#9467bd' lw 2 pt 13 ps 0.8
set linetype 6 lc rgb '#8c564b' lw 2 pt 3 ps 0.8
# the paper's values: black, dashed, diamonds
set linetype 9 lc rgb '#000000' lw 1.5 dt 2 pt 12 ps 1.5
