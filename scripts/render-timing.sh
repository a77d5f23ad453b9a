#!/bin/bash
# The timing diagrams of docs/TIMING.md, from the RTL: scripts/timing/
# simulate.sh generates a fresh default stc cache with STCGEN, simulates
# tests/rtl/tb_timing.v and converts its VCD into OUTDIR/NAME.json (one per
# diagram of docs/timing/scenarios.txt); then WaveDrom (the npm package
# wavedrom-cli, pinned by scripts/timing/package.json and package-lock.json,
# installed with `npm ci` into NODE_DIR) renders each into OUTDIR/NAME.svg.
# Diagrams no longer in the scenarios are removed from OUTDIR. The same
# command gives the same bytes. `make docs-timing` runs it into docs/timing.
# Usage: render-timing.sh STCGEN [OUTDIR]   (OUTDIR default docs/timing;
#        NODE_DIR default build/node)
set -eu
STCGEN=${1:?usage: render-timing.sh STCGEN [OUTDIR]}
root="$(cd "$(dirname "$0")/.." && pwd)"
OUTDIR=${2:-$root/docs/timing}
NODE_DIR=${NODE_DIR:-$root/build/node}
"$root/scripts/ensure-tools.sh" node:nodejs npm:npm

# The pinned renderer (reinstalled when the lock file changes).
mkdir -p "$NODE_DIR"
cli="$NODE_DIR/node_modules/wavedrom-cli/wavedrom-cli.js"
if [ ! -f "$cli" ] || ! cmp -s "$root/scripts/timing/package-lock.json" "$NODE_DIR/package-lock.json"; then
    cp "$root/scripts/timing/package.json" "$root/scripts/timing/package-lock.json" "$NODE_DIR/"
    echo "render-timing: npm ci --prefix $NODE_DIR (wavedrom-cli $(sed -n 's/.*"wavedrom-cli": "\(.*\)".*/\1/p' "$root/scripts/timing/package.json"))"
    npm ci --prefix "$NODE_DIR" --no-audit --no-fund --loglevel=error >/dev/null
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$root/scripts/timing/simulate.sh" "$STCGEN" "$work/json"

mkdir -p "$OUTDIR"
for f in "$OUTDIR"/*.json "$OUTDIR"/*.svg; do
    [ -e "$f" ] || continue
    b=$(basename "$f"); b=${b%.*}
    [ -f "$work/json/$b.json" ] || rm -f "$f"
done
n=0
for j in "$work/json"/*.json; do
    name=$(basename "$j" .json)
    cp "$j" "$OUTDIR/$name.json"
    node "$cli" -i "$OUTDIR/$name.json" -s "$OUTDIR/$name.svg"
    [ -s "$OUTDIR/$name.svg" ] || { echo "render-timing: $name.svg not written" >&2; exit 1; }
    n=$((n + 1))
done
echo "render-timing: $n diagrams in $OUTDIR"
