#!/usr/bin/env bash
# jobs.sh PHASE: print the stcsim runs of the page, one "NAME<TAB>COMMAND" a
# line (run-jobs.sh runs them, the sections quote them with cmd_of). Phase 1
# needs nothing; phase 2 needs phase 1's sweeps (a trace's length).
# The longest runs (hardware-mode tuning) come first so the two cores stay
# busy to the end.
set -euo pipefail
# shellcheck source=scripts/paper/lib.sh
. "$(dirname "$0")/lib.sh"
need PAPER_OUT STCSIM UCURVE_TRACE TIMELINE_TRACE ENERGY_FILE MC_TRACEDIR MC_KERNELS
load_traces
T="${TRACES[*]}"

# The U-curve's sizes: 4 banks of 256 B .. 16 KiB = 1 KiB .. 64 KiB. 16 KiB
# banks (1024 rows) are the largest the default energy model prices
# (docs/ENERGY.md 3.7).
UCURVE_BANK_BYTES="256 512 1024 2048 4096 8192 16384"
# The coherence sweeps (coherence.sh reads the same lists from lib.sh).
COH_SIZES=$COH_SIZE_LIST COH_CORES=$COH_CORE_LIST COH_LINES=$COH_LINE_LIST

job() {
    local name=$1
    shift
    printf '%s\t%s\n' "$name" "$*"
}

case ${1:-} in
phase1)
    hw="$STCSIM tune --json --mode hardware"
    flush="$hw --search heuristic --window 4096 --warmup 4096"
    job t-hw-monitor "$hw $T"
    job t-hw-probe "$hw --search probe --probe-rounds 4 --margin 4 $T"
    job t-hw-seed "$hw --search heuristic $T"
    # One program's D-cache over time (timeline.sh), a point every
    # decision window of the monitor.
    job t-timeline-monitor "$hw --timeline 256 $TIMELINE_TRACE"
    job t-timeline-seed "$hw --search heuristic --timeline 256 $TIMELINE_TRACE"
    job t-flush-asc "$flush $T"
    job t-flush-desc "$flush --descending $T"
    job t-flush-asc-re "$flush --retune-every 100000 $T"
    job t-flush-desc-re "$flush --retune-every 100000 --descending $T"
    job t-oracle-seed "$STCSIM tune --json $T"
    job t-oracle-exh "$STCSIM tune --json --search exhaustive $T"
    job t-oracle-other "$STCSIM tune --json --order line,assoc,wp,size $T"
    job t-oracle-desc "$STCSIM tune --json --descending $T"
    for t in "${TRACES[@]}"; do
        job "sweep-$(prog_of "$t")" "$STCSIM --json $t"
    done
    for b in $UCURVE_BANK_BYTES; do
        job "geo-$b" "$STCSIM --json -g banks=4,bank_bytes=$b $UCURVE_TRACE"
    done
    # The table file must be the table the runs used (built in).
    job energy-file "$STCSIM --json --energy $ENERGY_FILE ${TRACES[0]}"
    # The coherence seed's Figures 5.11-5.13 on the multi-core traces
    # (coherence.sh): every kernel, MESI; per-core cache size at 4 cores,
    # core count, block size at 4 cores; and the three protocols.
    coh="$STCSIM coherence --json"
    for k in $MC_KERNELS; do
        for size in $COH_SIZES; do
            job "coh-size-$k-$size" "$coh --cores 4 --size $size $MC_TRACEDIR/$k.t4.mc.zst"
        done
        for n in $COH_CORES; do
            job "coh-cores-$k-$n" "$coh --cores $n $MC_TRACEDIR/$k.t$n.mc.zst"
        done
        for line in $COH_LINES; do
            job "coh-line-$k-$line" "$coh --cores 4 --line $line $MC_TRACEDIR/$k.t4.mc.zst"
        done
        for protocol in msi mesi moesi; do
            job "coh-proto-$k-$protocol" "$coh --cores 4 --protocol $protocol $MC_TRACEDIR/$k.t4.mc.zst"
        done
    done
    ;;
phase2)
    # The seed's size walk once up and once down over the whole program: a
    # change every third of the trace, so each run makes exactly two moves
    # (2K -> 4K -> 8K, or 8K -> 4K -> 2K) and never wraps around (3 x every
    # > refs: no change at the last reference).
    for t in "${TRACES[@]}"; do
        p=$(prog_of "$t")
        refs=$(jq '.references | .ifetch + .load + .store + .modify' "$PAPER_OUT/raw/sweep-$p.json")
        every=$((refs / 3 + 1))
        job "sched-$p" "$STCSIM --json --reconfig-every $every --order list:2K_1W_16B,4K_1W_16B,8K_1W_16B --order list:8K_1W_16B,4K_1W_16B,2K_1W_16B $t"
    done
    ;;
*)
    die "usage: jobs.sh phase1|phase2"
    ;;
esac
