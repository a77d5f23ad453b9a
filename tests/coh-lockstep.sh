#!/bin/bash
# The coherent system's RTL in lockstep with the coherent stc model
# (tb/coh/README.md, docs/ARCHITECTURE.md 19.5-19.7): for each protocol and
# core count below, stcgen --protocol P --cores N writes the caches, the
# ports and the bus; Verilator builds tb/coh/tb_coh_system.sv with the C
# harness tb/coh/coh_lockstep.c linked against the model; three seeds run
# and each must print PASS (every answer's cycle and word, every change of
# configuration's last cycle, the counters, the grants); the caches that
# reset to 8K_4W_16B change to a random legal configuration about every
# 200 operations, the others are fixed (--fixed) in a configuration of
# longer logical lines with way prediction, or direct-mapped; every
# protocol on 2 and 4 cores, MOESI on 3 too; a quarter of the references
# to lines every core shares (read by all, written by core 0 only), with
# checkpoints of every slot's state. The coherent controller's deliberately broken variants
# (--debug-break upgrade-silent, fill-shared, no-supply) and a protocol table whose
# snoop does not invalidate (coh-no-invalidate) must fail with a MISMATCH.
#
#   tests/coh-lockstep.sh STCGEN OUTDIR HARNESS_OBJECT MODEL_OBJECTS...
#
# COH_LOCKSTEP_REFS (default 4000) sets the references per core of each
# run: make coh-lockstep-long sets it for at least 10^7 in all.
set -u
stcgen=${1:?usage: coh-lockstep.sh STCGEN OUTDIR HARNESS_OBJECT MODEL_OBJECTS...}
out=${2:?}
harness=${3:?}
shift 3
model_objs=$(realpath "$@" | tr "\n" " ")
harness=$(realpath "$harness")
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
passed=0
failed=0
references=0
two_run_races=0   # core 0's stores that met another core's miss of two bursts (--race)
supplies=0        # lines a cache supplied (M or O snooped by a read)
probe_waits=0     # cycles a load's second probe waited for a supply's read
REFS=${COH_LOCKSTEP_REFS:-4000}
# A quarter of the references go to 1 KiB every core shares (core 0 the only
# writer: no upgrade race, which the controller does not handle yet;
# tb/coh/README.md), the rest to each core's own range. Other cores' loads
# of lines core 0 holds M or O are supplied by its cache.
SHARED=25

check() {
    local what=$1
    shift
    if "$@"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL $what"
    fi
}

# build TAG PROTOCOL CORES [stcgen options...]: $out/TAG/obj/coh_lockstep
build() {
    local tag=$1 protocol=$2 cores=$3
    shift 3
    local dir=$out/$tag
    rm -rf "$dir"
    mkdir -p "$dir"
    "$stcgen" --protocol "$protocol" --cores "$cores" --no-tuner --out "$dir/rtl" "$@" \
        >"$dir/stcgen.log" 2>&1 || { cat "$dir/stcgen.log"; return 1; }
    # (Verilated code compiles about twice as fast with clang++: tb/lockstep.mk)
    local cxx=()
    command -v clang++ >/dev/null && cxx=(-MAKEFLAGS "CXX=clang++")
    # the snoop-port array's shape, for the harness's view of it
    local rb eb excl=1
    [ "$protocol" = msi ] && excl=0
    rb=$(sed -n 's/^#define STC_GEN_ROW_BITS *\([0-9]*\)u.*/\1/p' "$dir/rtl/stc_geometry_gen.h")
    eb=$(sed -n 's/^#define STC_GEN_COH_ENTRY_BITS *\([0-9]*\)u.*/\1/p' "$dir/rtl/stc_geometry_gen.h")
    # (no SYNTHESIS: the register files start as their hash of the address,
    # not 0 = I, and the SRAMs lose their words when a bank sleeps)
    verilator --cc --exe --build -j 2 -O3 --x-assign fast --x-initial fast "${cxx[@]}" \
        -Wno-fatal -Wno-lint -Wno-style -Wno-WIDTH \
        --top-module tb_coh_system -GN="$cores" -GRB="$rb" -GEB="$eb" -GEXCL="$excl" -Mdir "$dir/obj" \
        "$root/tb/coh/tb_coh_system.sv" "$dir"/rtl/*.v "$root/tb/coh/coh_dut_verilator.cpp" \
        -CFLAGS "-I$root/tb/coh" -LDFLAGS "$harness $model_objs -lzstd -lz -lm -pthread" \
        -o coh_lockstep >"$dir/build.log" 2>&1 || { tail -20 "$dir/build.log"; return 1; }
}

# passes TAG PROTOCOL CORES CONFIG SEED [OPTIONS...]: the run prints PASS
# and no MISMATCH
passes() {
    local log=$out/$1/run-$5.log
    "$out/$1/obj/coh_lockstep" --protocol "$2" --cores "$3" --config "$4" --refs "$REFS" \
        --seed "$5" --shared "$SHARED" "${@:6}" >"$log" 2>&1
    local status=$?
    cat "$log"
    [ $status -eq 0 ] && grep -q '^PASS' "$log" && ! grep -q MISMATCH "$log" || return 1
    references=$((references + $(sed -n 's/^PASS .*: \([0-9]*\) references.*/\1/p' "$log")))
    two_run_races=$((two_run_races + $(sed -n 's/^PASS .*, \([0-9]*\) of [0-9]* two-run misses$/\1/p' "$log")))
    supplies=$((supplies + $(sed -n 's/^PASS .*, \([0-9]*\) lines supplied by a cache.*/\1/p' "$log")))
    probe_waits=$((probe_waits + $(sed -n 's/^PASS .*supplied by a cache (\([0-9]*\) cycles a second.*/\1/p' "$log")))
}

# caught TAG PROTOCOL CORES: the broken build's run reports a MISMATCH
caught() {
    local log=$out/$1/run.log
    "$out/$1/obj/coh_lockstep" --protocol "$2" --cores "$3" --refs "$REFS" --seed 1 \
        --shared "$SHARED" >"$log" 2>&1
    local status=$?
    echo "$1: $(grep -m1 MISMATCH "$log")"
    [ $status -ne 0 ] && grep -q MISMATCH "$log"
}

# PROTOCOL CORES CONFIG: the reset configuration (8K_4W_16B), or a cache
# fixed in a configuration with longer logical lines and way prediction
# (stcgen --fixed; the harness does not reconfigure yet).
for run in "msi 2 8K_4W_16B" "msi 4 8K_4W_64B_P" "mesi 2 8K_2W_32B_P" "mesi 4 8K_4W_16B" \
    "moesi 2 8K_4W_16B" "moesi 3 8K_1W_16B" "moesi 4 8K_4W_16B"; do
    set -- $run
    tag=$1-n$2-$3
    fixed=()
    reconfig=(--reconfig 200)   # a change of configuration about every 200 operations
    [ "$3" = 8K_4W_16B ] || { fixed=(--fixed "$3"); reconfig=(); }
    check "$tag: stcgen and Verilator build" build "$tag" "$1" "$2" "${fixed[@]}"
    [ -x "$out/$tag/obj/coh_lockstep" ] || continue
    # seeds 1 and 2 with --race (another core's burst meeting core 0's
    # store to a later line of it: ARCHITECTURE.md 19.6), seed 3 without
    for seed in 1 2 3; do
        race=(--race 1)
        [ "$seed" = 3 ] && race=()
        check "$tag seed $seed: lockstep" passes "$tag" "$1" "$2" "$3" "$seed" "${reconfig[@]}" \
            "${race[@]}"
    done
done

# (coh-no-invalidate: the protocol table's snoop row (S, BusRdX) keeps S,
# a table Rumur rejects: a cache keeps a copy core 0's store miss should
# have invalidated. In MSI, where core 0's loads take S, its store misses
# meet such copies within the run; MESI's traffic did not in 4000 references.)
for broken in "upgrade-silent msi 2" "fill-shared mesi 2" "coh-no-invalidate msi 2" \
    "no-supply moesi 2"; do
    set -- $broken
    tag=broken-$1
    check "$tag: builds" build "$tag" "$2" "$3" --debug-break "$1"
    [ -x "$out/$tag/obj/coh_lockstep" ] || continue
    check "$tag: the lockstep catches it" caught "$tag" "$2" "$3"
done

# The race traffic must reach a miss of two bursts: the case whose second
# run was snooped late until 2026-12-06 (ARCHITECTURE.md 19.7).
check "--race reaches core 0's store inside a miss of two bursts ($two_run_races times)" \
    test "$two_run_races" -gt 0
# Supplies (ARCHITECTURE.md 19.5): lines read from a cache's data array,
# and loads whose second probe met such a read (the cycle both the RTL and
# the model charge).
check "caches supply lines ($supplies times)" test "$supplies" -gt 0
check "a second probe waits for a supply's read ($probe_waits cycles)" test "$probe_waits" -gt 0
echo "coh-lockstep: $references references in lockstep, $two_run_races races with misses of two" \
    "bursts, $supplies lines supplied, $probe_waits second-probe waits, $passed passed, $failed failed"
[ "$failed" -eq 0 ]
