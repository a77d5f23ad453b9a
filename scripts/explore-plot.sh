#!/usr/bin/env bash
# scripts/explore-plot.sh - the energy-area figure of an `stcsim explore
# --json` report (docs/EXPLORER.md): every explored geometry as a point
# (area of the I+D pair against the energy summed over the traces; way
# prediction built or not told apart), the Pareto front as a line, its
# points numbered in the order of the report's front list (by area).
#
# Usage: scripts/explore-plot.sh REPORT.json OUT.svg|OUT.png
#
# gnuplot with the figures' shared style (scripts/paper/style.gp: fixed
# size and fonts, no date): the same report gives the same bytes.
# Exit status: 0, 1 when gnuplot or jq fails, 2 on bad usage.
set -euo pipefail

die() { echo "explore-plot: $*" >&2; exit "${2:-1}"; }

[ $# -eq 2 ] || die "usage: scripts/explore-plot.sh REPORT.json OUT.svg|OUT.png" 2
report=$1
out=$2
case $out in
    *.svg) term=svg ;;
    *.png) term=png ;;
    *) die "$out: the output must end in .svg or .png" 2 ;;
esac
[ -f "$report" ] || die "$report: no such file" 2
command -v jq >/dev/null || die "jq not found"
command -v gnuplot >/dev/null || die "gnuplot not found"
jq -e '(.geometries | type) == "array" and (.front | type) == "array"' "$report" >/dev/null 2>&1 ||
    die "$report: not an stcsim explore --json report (with traces)" 2

style=$(cd "$(dirname "$0")/paper" && pwd)/style.gp
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# area mm^2, energy uJ, name; one file per kind of point.
jq -r '.geometries[] | select(.way_prediction) | [.area.total_um2 / 1e6, .total.energy_nj / 1e3, .name] | @tsv' \
    "$report" >"$tmp/wp.tsv"
jq -r '.geometries[] | select(.way_prediction | not) | [.area.total_um2 / 1e6, .total.energy_nj / 1e3, .name] | @tsv' \
    "$report" >"$tmp/nowp.tsv"
# The front's points are numbered in its order (by area, as the report
# lists it: the number is the line of the front table), placed alternately
# below-right and above-left of their points so that neighbours stay apart.
jq -r '.front | to_entries[] | [.value.area_um2 / 1e6, .value.energy_nj / 1e3, .key + 1] | @tsv' \
    "$report" >"$tmp/front.tsv"
awk 'NR % 2 == 1' "$tmp/front.tsv" >"$tmp/front-odd.tsv"
awk 'NR % 2 == 0' "$tmp/front.tsv" >"$tmp/front-even.tsv"
traces=$(jq -r '[.traces[].name] | length' "$report")

LC_ALL=C.UTF-8 gnuplot -e "term='$term'; out='$out'" - <<EOF || die "gnuplot failed"
load '$style'
set title sprintf('Which cache to generate: energy over %d traces against area (I + D pair)', $traces)
set xlabel 'area of the I+D pair, mm^2 (SRAM at 5.85 um^2/bit + logic, OSU 0.18 um; log scale)'
set ylabel 'energy of the cheapest configurations, summed over the traces, uJ (log scale)'
set logscale x 2
set logscale y 2
set format x '%g'
set format y '%g'
set grid xtics ytics lc rgb '#dddddd' lt 1
set key top right
plot '$tmp/wp.tsv' using 1:2 with points lt 1 pt 7 ps 0.7 title 'way prediction built', \
     '$tmp/nowp.tsv' using 1:2 with points lt 2 pt 4 ps 0.9 title 'without way prediction', \
     '$tmp/front.tsv' using 1:2 with linespoints lt 4 pt 6 ps 1.4 title 'Pareto front (numbered by area, as listed)', \
     '$tmp/front-odd.tsv' using 1:2:3 with labels left offset 0.5, -0.5 font ',9' notitle, \
     '$tmp/front-even.tsv' using 1:2:3 with labels right offset -0.5, 0.5 font ',9' notitle
EOF
[ -s "$out" ] || die "gnuplot wrote no $out"
