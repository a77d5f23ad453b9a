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
# to lines every core shares (read and written by all), with
# checkpoints of every slot's state, every valid line's bytes and every
# memory word (tb/coh/coh.vlt makes the arrays readable); seeds 2 and 3 behind a memory whose
# latency is drawn for each wait from 2-40 cycles (seed 1 and the traces:
# the fixed 20); with COH_LOCKSTEP_MC_TRACES, a run on
# a real kernel's trace for each build of 2 and 4 cores. The coherent controller's deliberately broken variants
# (--debug-break upgrade-silent, fill-shared, no-supply, lost-upgrade), a protocol table whose
# snoop does not invalidate (coh-no-invalidate) and a bus deaf to the
# memory's handshake (coh-bus-fixed-latency) must fail with a MISMATCH.
# One build keeps stcgen's default tuner (MOESI, 2 cores, --with-tuner):
# each core's monitor tuner runs in lockstep with its C twin
# (tb/coh/coh_tuner.h), its changes beside software's, and the top's joint
# with it broken three ways (b2b-decide, monitor-line, tuner-mux) must be
# caught too; the tuners must make changes.
#
#   tests/coh-lockstep.sh STCGEN OUTDIR HARNESS_OBJECT MODEL_OBJECTS...
#
# COH_LOCKSTEP_REFS (default 4000) sets the references per core of each
# run: make coh-lockstep-long sets it for at least 10^7 in all.
# COH_LOCKSTEP_MC_TRACES: the folder of make mc-traces; each tag of 2 or 4
# cores then also runs on a real kernel's trace (--mc-trace: each core's
# references in the trace's order for that thread, the interleaving the
# RTL's), the kernel picked by the tag (lock, migratory, packed, queue:
# true sharing with many writers, migration, false sharing, a queue).
set -u
stcgen=${1:?usage: coh-lockstep.sh STCGEN OUTDIR HARNESS_OBJECT MODEL_OBJECTS...}
out=${2:?}
harness=${3:?}
shift 3
model_objs=$(realpath "$@" | tr "\n" " ")
harness=$(realpath "$harness")
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib/vl-build.sh
. "$root/tests/lib/vl-build.sh"
mkdir -p "$out"
passed=0
failed=0
references=0
two_run_races=0   # core 0's stores that met another core's miss of two bursts (--race)
supplies=0        # lines a cache supplied (M or O snooped by a read)
probe_waits=0     # cycles a load's second probe waited for a supply's read
lost_upgrades=0   # stores that hit S or O and lost the bus to another core's invalidation
trace_runs=0      # runs on a multi-core trace
tuner_changes=0   # changes the caches' monitor tuners made (the --with-tuner builds)
REFS=${COH_LOCKSTEP_REFS:-4000}
# The C++ optimisation of a build's model: Verilator's own default (-Os),
# but -O0 for the broken builds below, whose one run stops at its first
# mismatch (measured on MESI 4 cores: -Os 27 s to build and 1.9 s a run,
# -O1 20 s and 2.5 s, -O0 9 s and 7.4 s). The others keep -Os: the long
# runs and make bench-coh-lockstep use their binaries.
OPT_FAST_OF_BUILD=()
# A quarter of the references go to 1 KiB every core shares and writes
# (tb/coh/README.md; 64 bytes in the runs without --race: four lines, where
# stores meet each other's upgrades), the rest to each core's own range.
# Lines a core holds M or O are supplied by its cache.
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

# build TAG PROTOCOL CORES [--with-tuner] [stcgen options...]: $out/TAG/obj/coh_lockstep;
# the caches without tuners, or with --with-tuner with stcgen's default one
# (the monitor tuner, which the harness then runs in lockstep too)
build() {
    local tag=$1 protocol=$2 cores=$3
    shift 3
    local tuner=(--no-tuner) define=()
    if [ "${1:-}" = --with-tuner ]; then
        tuner=()
        define=(-DTB_COH_TUNER)
        shift
    fi
    local dir=$out/$tag
    rm -rf "$dir"
    mkdir -p "$dir"
    "$stcgen" --protocol "$protocol" --cores "$cores" "${tuner[@]}" --out "$dir/rtl" "$@" \
        >"$dir/stcgen.log" 2>&1 || { cat "$dir/stcgen.log"; return 1; }
    # (Verilated code compiles about twice as fast with clang++: tb/lockstep.mk)
    local cxx=()
    command -v clang++ >/dev/null && cxx=(CXX=clang++)
    cxx+=("${OPT_FAST_OF_BUILD[@]}")
    # the snoop-port array's shape, for the harness's view of it
    local rb eb excl=1
    [ "$protocol" = msi ] && excl=0
    rb=$(sed -n 's/^#define STC_GEN_ROW_BITS *\([0-9]*\)u.*/\1/p' "$dir/rtl/stc_geometry_gen.h")
    eb=$(sed -n 's/^#define STC_GEN_COH_ENTRY_BITS *\([0-9]*\)u.*/\1/p' "$dir/rtl/stc_geometry_gen.h")
    # (no SYNTHESIS: the register files start as their hash of the address,
    # not 0 = I, and the SRAMs lose their words when a bank sleeps)
    vl_build "$dir/obj" "${cxx[@]}" -- --cc --exe -O3 --x-assign fast --x-initial fast \
        -Wno-fatal -Wno-lint -Wno-style -Wno-WIDTH \
        --top-module tb_coh_system -GN="$cores" -GRB="$rb" -GEB="$eb" -GEXCL="$excl" \
        "${define[@]}" "$root/tb/coh/coh.vlt" \
        "$root/tb/coh/tb_coh_system.sv" "$dir"/rtl/*.v "$root/tb/coh/coh_dut_verilator.cpp" \
        -CFLAGS "-I$root/tb/coh -I$(cd "$dir/rtl" && pwd)" -LDFLAGS "$harness $model_objs -lzstd -lz -lm -pthread" \
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
    lost_upgrades=$((lost_upgrades + $(sed -n 's/^PASS .*, \([0-9]*\) upgrades lost.*/\1/p' "$log")))
    local made
    made=$(sed -n 's/^TUNERS .*, \([0-9]*\) made$/\1/p' "$log")
    tuner_changes=$((tuner_changes + ${made:-0}))
}

# caught TAG PROTOCOL CORES [OPTIONS...]: the broken build's run reports a MISMATCH
caught() {
    local log=$out/$1/run.log
    "$out/$1/obj/coh_lockstep" --protocol "$2" --cores "$3" --refs "$REFS" --seed 1 \
        --shared "$SHARED" "${@:4}" >"$log" 2>&1
    local status=$?
    echo "$1: $(grep -m1 MISMATCH "$log")"
    [ $status -ne 0 ] && grep -q MISMATCH "$log"
}

# refused TAG OPTION VALUE: the harness exits 2 before running, naming the
# option and its value
refused() {
    local log=$out/$1/refused.log
    "$out/$1/obj/coh_lockstep" --protocol mesi --cores 2 "$2" "$3" >"$log" 2>&1
    local status=$?
    echo "$1 $2 $3: $(head -1 "$log")"
    [ $status -eq 2 ] && grep -q -- "$2 $3" "$log" && ! grep -q '^PASS' "$log"
}

# PROTOCOL CORES CONFIG: the reset configuration (8K_4W_16B), or a cache
# fixed in a configuration with longer logical lines and way prediction
# (stcgen --fixed; the harness does not reconfigure yet).
runs=("msi 2 8K_4W_16B" "msi 4 8K_4W_64B_P" "mesi 2 8K_2W_32B_P" "mesi 4 8K_4W_16B"
    "moesi 2 8K_4W_16B" "moesi 3 8K_1W_16B" "moesi 4 8K_4W_16B")
expected_trace_runs=6
# COH_LOCKSTEP_MANY_CORES (make coh-lockstep-long): also MOESI on 8 cores,
# a quarter of the references per core (its runs take about 3x as long a
# reference), its trace the lock kernel's 8 threads
if [ -n "${COH_LOCKSTEP_MANY_CORES:-}" ]; then
    runs+=("moesi 8 8K_4W_16B")
    expected_trace_runs=7
fi
for run in "${runs[@]}"; do
    set -- $run
    tag=$1-n$2-$3
    fewer=()
    [ "$2" -gt 4 ] && fewer=(--refs $((REFS / 4)))
    fixed=()
    reconfig=(--reconfig 200)   # a change of configuration about every 200 operations
    [ "$3" = 8K_4W_16B ] || { fixed=(--fixed "$3"); reconfig=(); }
    check "$tag: stcgen and Verilator build" build "$tag" "$1" "$2" "${fixed[@]}"
    [ -x "$out/$tag/obj/coh_lockstep" ] || continue
    # bad numbers are refused by name (once, on the first build)
    if [ "$tag" = msi-n2-8K_4W_16B ]; then
        for bad in "--refs abc" "--refs 0" "--shared 101" "--race 2" "--cores 9" "--seed -1" \
            "--check-every 5x"; do
            check "$tag: refuses $bad" refused "$tag" $bad
        done
    fi
    # seeds 1 and 2 with --race (another core's burst meeting core 0's
    # store to a later line of it: ARCHITECTURE.md 19.6), seed 3 without,
    # its shared data one 64-byte block (upgrades lost to each other);
    # seeds 2 and 3 behind a memory whose latency is drawn for each wait
    # (the handshake of 19.6; the model takes the same latencies)
    for seed in 1 2 3; do
        race=(--race 1)
        [ "$seed" = 3 ] && race=(--shared-bytes 64)
        latency=(--mem-latency 2-40)
        [ "$seed" = 1 ] && latency=()
        check "$tag seed $seed: lockstep" passes "$tag" "$1" "$2" "$3" "$seed" "${reconfig[@]}" \
            "${race[@]}" "${latency[@]}" "${fewer[@]}"
    done
    if [ -n "${COH_LOCKSTEP_MC_TRACES:-}" ] && [ "$2" != 3 ]; then
        case $tag in
            msi-n2-*) kernel=lock ;; msi-n4-*) kernel=migratory ;;
            mesi-n2-*) kernel=queue ;; mesi-n4-*) kernel=lock ;;
            moesi-n2-*) kernel=migratory ;; moesi-n8-*) kernel=lock ;; *) kernel=packed ;;
        esac
        trace=$COH_LOCKSTEP_MC_TRACES/$kernel.t$2.mc.zst
        check "$tag on $kernel.t$2: lockstep" passes "$tag" "$1" "$2" "$3" 4 "${reconfig[@]}" \
            --shared 0 --mc-trace "$trace" "${fewer[@]}"
        trace_runs=$((trace_runs + 1))
    fi
done

# The caches with stcgen's default tuner, the monitor tuner (ARCHITECTURE.md
# 17-18, 19.8): every core's decision unit against its C twin in every
# cycle (tb/coh/coh_tuner.h: each flop, its access events, its change
# taken before the next request), the changes it makes run by the model as
# software's are; software changes the configuration about every 500
# operations beside it (configurations the tuner then moves away from).
tag=moesi-n2-tuner
check "$tag: stcgen and Verilator build" build "$tag" moesi 2 --with-tuner
if [ -x "$out/$tag/obj/coh_lockstep" ]; then
    check "$tag seed 1: lockstep" passes "$tag" moesi 2 8K_4W_16B 1 --reconfig 500 --race 1
    check "$tag seed 2: lockstep" passes "$tag" moesi 2 8K_4W_16B 2 --reconfig 500 \
        --mem-latency 2-40
fi

# (coh-no-invalidate: the protocol table's snoop row (S, BusRdX) keeps S,
# a table Rumur rejects: a cache keeps a copy core 0's store miss should
# have invalidated. In MSI, where core 0's loads take S, its store misses
# meet such copies within the run; MESI's traffic did not in 4000 references.)
# (lost-upgrade: a store's BusUpgr sent although another core's
# invalidation took its slot; the shared data one block, as in seed 3)
# (coh-bus-fixed-latency: the bus takes a run's first beat 20 cycles after
# its read whatever the memory's mem_rready_i says: right behind a memory
# of the fixed latency 20, caught behind one whose latency varies)
OPT_FAST_OF_BUILD=(OPT_FAST=-O0)
for broken in "upgrade-silent msi 2" "fill-shared mesi 2" "coh-no-invalidate msi 2" \
    "no-supply moesi 2" "lost-upgrade moesi 2 --shared-bytes 64" \
    "coh-bus-fixed-latency mesi 2 --mem-latency 2-40"; do
    set -- $broken
    tag=broken-$1
    check "$tag: builds" build "$tag" "$2" "$3" --debug-break "$1"
    [ -x "$out/$tag/obj/coh_lockstep" ] || continue
    check "$tag: the lockstep catches it" caught "$tag" "$2" "$3" "${@:4}"
done
# ... and the top's joint with its monitor tuner, in the system: b2b-decide
# (the next request taken in the decision's access), monitor-line (the
# monitor sees the wrong line), tuner-mux (the tuner's change takes its
# banks field from software's pins)
for broken in b2b-decide monitor-line tuner-mux; do
    tag=broken-$broken
    check "$tag: builds" build "$tag" mesi 2 --with-tuner --debug-break "$broken"
    [ -x "$out/$tag/obj/coh_lockstep" ] || continue
    check "$tag: the lockstep catches it" caught "$tag" mesi 2 --reconfig 500
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
check "stores lose their upgrade's race ($lost_upgrades times)" test "$lost_upgrades" -gt 0
check "the monitor tuners change configurations ($tuner_changes times)" test "$tuner_changes" -gt 0
if [ -n "${COH_LOCKSTEP_MC_TRACES:-}" ]; then
    check "runs on multi-core traces ($trace_runs)" test "$trace_runs" -eq "$expected_trace_runs"
fi
echo "coh-lockstep: $references references in lockstep, $two_run_races races with misses of two" \
    "bursts, $supplies lines supplied, $probe_waits second-probe waits, $lost_upgrades lost" \
    "upgrades, $tuner_changes tuner changes, $passed passed, $failed failed"
[ "$failed" -eq 0 ]
