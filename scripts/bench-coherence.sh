#!/usr/bin/env bash
# bench-coherence.sh STCSIM MCDIR [REPEAT] - the coherent model's speed
# against the single-cache model's, per reference (issue 16: within 3x).
#
# For every 4-thread trace MCDIR/KERNEL.t4.mc.zst (make mc-traces), repeated
# REPEAT times (default 16) so each run is long enough to time, it prints
# references per second (CPU time, best of 3) of:
#   stcsim coherence --cores 4 (MESI; 8 KiB, 4 ways, 32 B per core)
#   stcsim -c 8K_4W_32B on the same references without the core field (one
#   8 KiB 4-way 32 B cache sees them all), both with the default one-pass
#   engine and with --engine model (ref/cache.c, the single-cache model)
# and the coherent model's time per reference over the single cache's.
# Both read plain text, so parsing costs the same on both sides. A
# benchmark, not a test: it asserts nothing.
set -euo pipefail
usage="usage: bench-coherence.sh STCSIM MCDIR [REPEAT]"
STCSIM=${1:?$usage}
MCDIR=${2:?$usage}
REPEAT=${3:-16}
case $REPEAT in '' | *[!0-9]* | 0) echo "bench-coherence: REPEAT=$REPEAT: a positive number" >&2; exit 2 ;; esac
shopt -s nullglob
traces=("$MCDIR"/*.t4.mc.zst)
[ ${#traces[@]} -gt 0 ] || { echo "bench-coherence: no $MCDIR/*.t4.mc.zst (run make mc-traces)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=scripts/lib/cpu-time.sh
. "$(dirname "$0")/lib/cpu-time.sh"
mrate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.2f", n / (s > 0 ? s : 1e-9) / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / (b > 0 ? b : 1e-9) }'; }
add() { awk -v a="$1" -v b="$2" 'BEGIN { print a + b }'; }

echo "coherent model (4 cores, MESI) against one cache, M refs/s ($(nproc) cores, CPU time, best of 3;"
echo "each trace x$REPEAT; ratio = coherent time per reference / single cache's)"
printf '  %-12s %10s %10s %10s %10s %8s %8s\n' trace references coherent one-pass model \
    'x1pass' 'xmodel'
total_refs=0 total_coh=0 total_pass=0 total_model=0
for zst in "${traces[@]}"; do
    name=$(basename "$zst" .mc.zst)
    mc=$work/$name.mc
    din=$work/$name.din
    for _ in $(seq "$REPEAT"); do zstd -dcq "$zst" | grep -v '^#'; done >"$mc"
    # the same references for one cache: din is the record without its core
    cut -d' ' -f2- "$mc" >"$din"
    refs=$(wc -l <"$mc")
    # a failing run would time nothing: check each once before timing it
    "$STCSIM" coherence --cores 4 "$mc" >/dev/null
    "$STCSIM" -c 8K_4W_32B "$din" >/dev/null
    coh=$(cpu_seconds "$STCSIM" coherence --cores 4 "$mc")
    pass=$(cpu_seconds "$STCSIM" -c 8K_4W_32B "$din")
    model=$(cpu_seconds "$STCSIM" -c 8K_4W_32B --engine model "$din")
    printf '  %-12s %10d %10s %10s %10s %8s %8s\n' "$name" "$refs" "$(mrate "$refs" "$coh")" \
        "$(mrate "$refs" "$pass")" "$(mrate "$refs" "$model")" "$(ratio "$coh" "$pass")x" \
        "$(ratio "$coh" "$model")x"
    total_refs=$((total_refs + refs))
    total_coh=$(add "$total_coh" "$coh")
    total_pass=$(add "$total_pass" "$pass")
    total_model=$(add "$total_model" "$model")
    rm -f "$mc" "$din"
done
printf '  %-12s %10d %10s %10s %10s %8s %8s\n' all "$total_refs" "$(mrate "$total_refs" "$total_coh")" \
    "$(mrate "$total_refs" "$total_pass")" "$(mrate "$total_refs" "$total_model")" \
    "$(ratio "$total_coh" "$total_pass")x" "$(ratio "$total_coh" "$total_model")x"
echo "  target (issue 16): the coherent model within 3x of the single-cache model per reference"
