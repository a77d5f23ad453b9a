#!/usr/bin/env bash
# paper.sh STCSIM STCGEN TRACEDIR OUTDIR - build the evidence page (issue 18):
# OUTDIR/index.html and OUTDIR/index.md, every figure as SVG and PNG, each
# figure's data (OUTDIR/data), every stcsim run's JSON (OUTDIR/raw) and the
# exact commands. `make paper` runs it from the repository root.
#
# Numbers on the page come from the runs; the paper's own numbers come from
# paper-values.tsv only. Nothing depends on the date or the order in which
# files are listed, so two runs give the same bytes.
#
# Environment: PAPER_UCURVE  the program of Figures 5-6 (default gzip, see
#                            fig56.sh for why)
#              PAPER_TIMELINE  the program of the run over time (default
#                            cjpeg, see timeline.sh)
set -euo pipefail
PAPER_DIR=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/paper/lib.sh
. "$PAPER_DIR/lib.sh"

usage() {
    echo "usage: scripts/paper/paper.sh STCSIM STCGEN TRACEDIR OUTDIR" >&2
    echo "  e.g. scripts/paper/paper.sh build/gcc/stcsim build/gcc/stcgen build/traces build/paper" >&2
    echo "  (make paper does this after building the tools and the traces)" >&2
    exit 2
}
[ $# -eq 4 ] || usage
STCSIM=$1 STCGEN=$2 TRACEDIR=$3 OUT=$4
[ -x "$STCSIM" ] || { echo "paper: no stcsim at '$STCSIM' (run make first)" >&2; usage; }
[ -x "$STCGEN" ] || { echo "paper: no stcgen at '$STCGEN' (run make first)" >&2; usage; }
[ -d "$TRACEDIR" ] || { echo "paper: no trace folder '$TRACEDIR' (make traces writes it)" >&2; usage; }
for tool in jq gnuplot awk xargs; do
    command -v "$tool" >/dev/null ||
        die "$tool is needed (make paper installs it: scripts/ensure-tools.sh gnuplot:gnuplot-nox jq:jq)"
done

# The traces: the real programs in the recorded architecture, not the
# *.main variants, in C-locale order (the page's row order).
ARCH=$("$PAPER_DIR/../trace-arch.sh" "$TRACEDIR")
# (TRACEDIR/: a folder that is a symbolic link is followed.)
mapfile -t TRACE_LIST < <(find "$TRACEDIR/" -maxdepth 1 -name "*.$ARCH.lackey.zst" ! -name '*.main.*' |
    LC_ALL=C sort)
[ "${#TRACE_LIST[@]}" -gt 0 ] || die "no $TRACEDIR/*.$ARCH.lackey.zst traces (make traces)"

UCURVE=${PAPER_UCURVE:-gzip}
UCURVE_TRACE=$TRACEDIR/$UCURVE.$ARCH.lackey.zst
[ -f "$UCURVE_TRACE" ] || die "no trace $UCURVE_TRACE for Figures 5-6 (PAPER_UCURVE names a program)"
TIMELINE=${PAPER_TIMELINE:-cjpeg}
TIMELINE_TRACE=$TRACEDIR/$TIMELINE.$ARCH.lackey.zst
[ -f "$TIMELINE_TRACE" ] || die "no trace $TIMELINE_TRACE for the run over time (PAPER_TIMELINE names a program)"
# The multi-core traces of the coherence section (make mc-traces): every
# kernel of their index at 1, 2, 4 and 8 threads.
MC_TRACEDIR=${PAPER_MC_TRACES:-$(dirname "$TRACEDIR")/mc-traces}
[ -f "$MC_TRACEDIR/index.txt" ] || die "no multi-core traces in $MC_TRACEDIR (make mc-traces writes them; PAPER_MC_TRACES names another folder)"
MC_KERNELS=$(awk '!/^#/ { print $2 }' "$MC_TRACEDIR/index.txt" | LC_ALL=C sort -u | tr '\n' ' ')
for k in $MC_KERNELS; do
    for n in 1 2 4 8; do
        [ -f "$MC_TRACEDIR/$k.t$n.mc.zst" ] || die "no trace $MC_TRACEDIR/$k.t$n.mc.zst (make mc-traces)"
    done
done
ENERGY_FILE=$(realpath --relative-to=. "$PAPER_DIR/../../energy/default-0.18um.txt")
[ -f "$ENERGY_FILE" ] || die "no energy table $ENERGY_FILE"

# Build into OUT.new and swap at the end: a failed run leaves the last good
# page in place, and no file of an older run survives into the new one.
WORK=$OUT.new
rm -rf "$WORK"
mkdir -p "$WORK/raw" "$WORK/data" "$WORK/sections"
printf '%s\n' "${TRACE_LIST[@]}" >"$WORK/traces.txt"
export PAPER_DIR PAPER_OUT=$WORK STCSIM STCGEN TRACEDIR ARCH UCURVE UCURVE_TRACE TIMELINE \
    TIMELINE_TRACE ENERGY_FILE \
    MC_TRACEDIR MC_KERNELS
export LC_ALL=C

echo "paper: ${#TRACE_LIST[@]} traces ($ARCH), stcsim runs two at a time" >&2
"$PAPER_DIR/jobs.sh" phase1 >"$WORK/jobs.tsv"
"$PAPER_DIR/run-jobs.sh" "$WORK/jobs.tsv" "$WORK/raw"
"$PAPER_DIR/jobs.sh" phase2 >"$WORK/jobs2.tsv"
"$PAPER_DIR/run-jobs.sh" "$WORK/jobs2.tsv" "$WORK/raw"
cat "$WORK/jobs2.tsv" >>"$WORK/jobs.tsv"
rm "$WORK/jobs2.tsv"

# One script per section; each writes WORK/sections/NN-name.md and its
# figures and data files.
for section in setup fig3 fig56 fig78 table1 order flush tuner timeline cost coherence values; do
    echo "paper: section $section" >&2
    "$PAPER_DIR/$section.sh"
done
"$PAPER_DIR/assemble.sh"

rm -rf "$OUT"
mv "$WORK" "$OUT"
echo "paper: wrote $OUT/index.html and $OUT/index.md" >&2
