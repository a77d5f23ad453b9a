#!/bin/bash
# lockstep-run.sh MODE LSDIR - the lockstep campaigns (tb/README.md).
#   quick: make test's part (a few minutes): for every tested geometry the
#          directed tests (every configuration, every transition) and seeded
#          random traffic with reconfigurations and shadow-memory
#          checkpoints; on the default geometry also random memory latency
#          and back-pressure, power-switch acknowledge delays, a real trace;
#          the top's tuner searching on real traces (array and serial
#          multiplier) and on random traffic with the phase trigger; each
#          side of the I+D top stc_cache_pair;
#          and every deliberately broken controller or tuner must be caught.
#   long:  at least 10^7 requests in total over the same geometries.
# Each run is one check; prints "N passed, N failed".
set -u
mode=${1:?usage: lockstep-run.sh quick|long LSDIR}
ls=${2:?usage: lockstep-run.sh quick|long LSDIR}
root="$(cd "$(dirname "$0")/.." && pwd)"
passed=0
failed=0
total_requests=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# run NAME TAG ARGS...: the harness must exit 0 with its "0 mismatches" line.
run() {
    local name=$1 tag=$2
    shift 2
    if "$ls/$tag/lockstep" --quiet "$@" >"$log" 2>&1 && grep -q ' 0 mismatches' "$log"; then
        passed=$((passed + 1))
        local n
        n=$(sed -n 's/^lockstep: \([0-9]*\) requests.*/\1/p' "$log")
        total_requests=$((total_requests + ${n:-0}))
        printf 'ok   %-50s %s; configs %s, transitions %s\n' "$tag: $name" \
            "$(sed -n 's/^lockstep: \([0-9]* requests, [0-9]* reconfigurations\).*/\1/p' "$log")" \
            "$(sed -n 's/^  configurations with traffic: \([0-9]*\) of \([0-9]*\)/\1\/\2/p' "$log")" \
            "$(sed -n 's/^  transitions .*: \([0-9]*\) of \([0-9]*\)/\1\/\2/p' "$log")"
    else
        failed=$((failed + 1))
        echo "FAIL $tag: $name ($ls/$tag/lockstep $*)"
        sed -n '1,60s/^/    /p' "$log"
    fi
}

# run_covering NAME PATTERN TAG ARGS...: run, and the report must also
# match the extended regular expression PATTERN (a case the run exists to
# reach).
run_covering() {
    local name=$1 pattern=$2 tag=$3
    shift 3
    local before=$failed
    run "$name" "$tag" "$@"
    if [ "$failed" = "$before" ] && ! grep -Eq "$pattern" "$log"; then
        passed=$((passed - 1))
        failed=$((failed + 1))
        echo "FAIL $tag: $name did not reach /$pattern/ ($ls/$tag/lockstep $*)"
        grep '^  tuner' "$log" | sed 's/^/    /'
    fi
}

# caught NAME TAG ARGS...: a broken controller; the harness must report a
# mismatch (and exit 0 because of --expect-mismatch).
caught() {
    local name=$1 tag=$2
    shift 2
    if "$ls/$tag/lockstep" --quiet --expect-mismatch "$@" >"$log" 2>&1 \
        && grep -q '^MISMATCH' "$log"; then
        passed=$((passed + 1))
        printf 'ok   %-58s %s\n' "$tag: $name caught" "$(grep -m1 -A1 '^MISMATCH' "$log" | tail -1 | cut -c3-90)"
    else
        failed=$((failed + 1))
        echo "FAIL $tag: $name was not caught ($ls/$tag/lockstep --expect-mismatch $*)"
        sed -n '1,20s/^/    /p' "$log"
    fi
}

# same_as_plain NAME TAG HOW ARGS...: the harness's fast evaluation (one
# evaluation a cycle, edges without Verilator's input-combinational pass,
# tb/README.md Speed) must report exactly what plain eval() with the clock
# toggled reports: HOW wave, the way a waveform run (--wave) evaluates, while
# writing one (a tag with waveform support); HOW eval, --plain-eval (the
# same evaluation, no waveform: any tag).
same_as_plain() {
    local name=$1 tag=$2 how=$3
    shift 3
    local fast plain wave
    fast=$(mktemp)
    plain=$(mktemp)
    wave=$(mktemp --suffix=.fst)
    local plain_args=(--plain-eval)
    [ "$how" = wave ] && plain_args=(--wave "$wave")
    # the report less its timing, which differs between two runs
    local untimed='s/, [0-9.]* s, [0-9]* requests\/s$//'
    "$ls/$tag/lockstep" "$@" 2>&1 | sed "$untimed" >"$fast"
    "$ls/$tag/lockstep" "${plain_args[@]}" "$@" 2>&1 | sed "$untimed" >"$plain"
    if grep -q ' 0 mismatches$' "$fast" && cmp -s "$fast" "$plain"; then
        passed=$((passed + 1))
        printf 'ok   %-58s %s\n' "$tag: $name" "$(tail -1 "$fast" | cut -c1-60)"
    else
        failed=$((failed + 1))
        echo "FAIL $tag: $name: not both without mismatches and equal ($ls/$tag/lockstep $*)"
        sed -n '1,20s/^/    fast: /p' "$fast"
        diff "$fast" "$plain" | sed -n '1,20s/^/    diff: /p'
    fi
    rm -f "$fast" "$plain" "$wave"
}

# The traces' architecture (i386, or amd64 where 32-bit programs cannot run;
# traces/make-traces.sh records it), empty when there are no traces.
arch=$("$root/scripts/trace-arch.sh" "$root/build/traces" 2>/dev/null || true)
trace=""
for candidate in "$root/build/traces/djpeg.$arch.lackey.zst" "$root"/build/traces/*.zst; do
    if [ -f "$candidate" ]; then trace=$candidate; break; fi
done

if [ "$mode" = quick ]; then
    for tag in default banks8 line32 banks2; do
        run "directed tests" "$tag" --directed --requests 2000 --seed 1
        for seed in 1 2 3; do
            # (walks that move lines, ARCHITECTURE.md 7, in rows with a move
            # and without)
            run_covering "random, reconfigurations, seed $seed" \
                'walk moves [1-9][0-9]* \(in [1-9]' "$tag" --seed "$seed" --requests 30000 \
                --reconfig-every 150 --checkpoint-every 10000 --clear-every 5000 \
                --clear-in-request 1000 --maintain-every 300
        done
        run "random, low locality, seed 4" "$tag" --seed 4 --requests 20000 --locality 20 \
            --hot 4096 --writes 50 --reconfig-every 300 --checkpoint-every 10000
    done
    for tag in c16 nowp nomv; do
        run "directed tests" "$tag" --directed --requests 2000 --seed 1
        run "random, reconfigurations, maintenance" "$tag" --seed 5 --requests 30000 \
            --reconfig-every 150 --checkpoint-every 10000 --maintain-every 300
    done
    # 16-bit counters past saturation: accesses and misses reach all ones
    # (by request ~66 000 and ~81 000), so the derived reads and read_misses
    # read all ones through the port at the checkpoints (ARCHITECTURE.md 9).
    run "16-bit counters saturated, derived counters read through the port" c16 --seed 6 \
        --requests 90000 --locality 20 --hot 65536 --writes 50 --checkpoint-every 45000
    run "I-cache: directed tests" icache --directed --requests 2000 --seed 1
    run "I-cache: random, stores rejected, maintenance" icache --seed 6 --requests 30000 \
        --writes 10 --reconfig-every 150 --checkpoint-every 10000 --maintain-every 300
    # The I+D top: each side of stc_cache_pair driven in turn, the other
    # held idle and watched (it must not move).
    run "stc_cache_pair D side: directed tests" pair-d --directed --requests 2000 --seed 1
    run "stc_cache_pair D side: random, reconfigurations" pair-d --seed 10 --requests 20000 \
        --reconfig-every 150 --checkpoint-every 10000 --clear-in-request 1000 --maintain-every 300
    run "stc_cache_pair I side: directed tests (stores become loads)" pair-i --directed \
        --requests 2000 --seed 1
    run "stc_cache_pair I side: random, maintenance" pair-i --seed 11 --requests 10000 \
        --reconfig-every 150 --maintain-every 200
    if [ -n "$trace" ]; then
        run "stc_cache_pair D side: data references of $(basename "$trace"), tuner, maintenance" \
            pair-d --trace "$trace" --requests 100000 --tune 256 --maintain-every 5000
        run "stc_cache_pair I side: fetches of $(basename "$trace"), tuner" pair-i \
            --trace "$trace" --requests 100000 --tune 256
    fi
    run "fixed 8K_4W_32B: directed, every change refused" fixed --directed --requests 2000 --seed 1
    run "fixed 8K_4W_32B: random, maintenance" fixed --seed 7 --requests 30000 \
        --reconfig-every 150 --checkpoint-every 10000 --maintain-every 300
    run "stc_sram's own simulation model" simsram --seed 8 --requests 15000 \
        --reconfig-every 100 --checkpoint-every 5000
    run "random memory latency and back-pressure" default --seed 5 --random-memory \
        --requests 30000 --reconfig-every 150 --checkpoint-every 10000 --ack-delay 3 \
        --maintain-every 300
    run "random memory latency and back-pressure" banks8 --seed 9 --random-memory \
        --requests 20000 --reconfig-every 150 --checkpoint-every 10000 --ack-delay 2
    for delay in 1 3; do
        run "ack delay $delay, T_mem 7" default --seed $((6 + delay)) --ack-delay "$delay" \
            --latency 7 --requests 20000 --reconfig-every 100 --checkpoint-every 10000
    done
    if [ -n "$trace" ]; then
        run "trace $(basename "$trace"), maintenance" default --trace "$trace" --requests 100000 \
            --reconfig-every 2000 --checkpoint-every 50000 --maintain-every 3000
    else
        echo "skip trace run: no build/traces/*.zst (make traces)"
    fi
    # Section 16 / issue 6 section 4: the top's tuner searches on real
    # programs, every cycle against ref/tuner_hw.c and every window against
    # the model's counters and ref/search.c, with both multipliers; then
    # random traffic with the phase trigger and counter clears.
    tune_traces=""
    for name in djpeg gzip mpeg2-sample1; do
        if [ -f "$root/build/traces/$name.$arch.lackey.zst" ]; then
            tune_traces="$tune_traces $root/build/traces/$name.$arch.lackey.zst"
        fi
    done
    [ -n "$tune_traces" ] || tune_traces=$trace
    for t in $tune_traces; do
        for tag in seed serial; do
            run "seed tuner searches on $(basename "$t"), retune every 16 windows" "$tag" \
                --trace "$t" --requests 150000 --tune 2048 --retune 16
        done
    done
    [ -n "$tune_traces" ] || echo "skip tuner trace runs: no build/traces/*.zst (make traces)"
    # The phase comparison at exactly THRESHOLD (no trigger) and one above.
    edge='distance at THRESHOLD [1-9][0-9]*, at THRESHOLD \+ 1 [1-9]'
    run_covering "tuner, phase trigger, counter clears" "$edge" seed --seed 4 --requests 40000 \
        --tune 512 --phase-threshold 6 --clear-every 3000
    run_covering "tuner, phase trigger, maintenance" "$edge" serial --seed 5 --requests 40000 \
        --tune 512 --phase-threshold 6 --maintain-every 2000
    # Coefficient registers written with other values than stcgen's: every
    # window's energy is checked with the written ones.
    for tag in seed serial; do
        run_covering "tuner, random coefficients, phase trigger" "coefficients random" "$tag" \
            --seed 6 --requests 40000 --tune 512 --phase-threshold 6 --tune-coefs 9
    done
    # Windows long enough to set the top bit of the 16-bit counts.
    run_covering "tuner, windows of 40000 accesses" "top bit set [1-9]" seed --seed 8 \
        --requests 300000 --tune 40000
    # Sections 17-18: the monitor tuner in the default top, its models in
    # every cycle from reset of every run of it (tb/monitor_side.h); the
    # runs above disable its decisions (software owns the configuration),
    # these enable them (--tune): the unit's changes on real programs' data
    # references and fetches, and random traffic with clears.
    offered=' [1-9][0-9]* changes offered'
    for t in $tune_traces; do
        for tag in default icache; do
            run_covering "monitor tuner decides on $(basename "$t")" "$offered" "$tag" --trace "$t" \
                --requests 150000 --tune 256
        done
    done
    run_covering "monitor tuner, random traffic, counter clears, maintenance" "$offered" default \
        --seed 4 --requests 60000 --tune 256 --clear-every 3000 --maintain-every 1000
    # Software asks for another configuration while the unit's change is
    # offered (16.5): it must wait, then be made (every 2nd change). Which
    # seeds meet the unit's changes depends on the tuner's defaults (seed 9
    # until they changed on 2026-12-07; seed 3 meets 6 of them now).
    run_covering "monitor tuner, software's change waiting behind each 2nd" \
        ' [1-9][0-9]* of them with software' default --seed 3 --requests 60000 --tune 256 --contend 2
    # (default has no waveform support, for speed: it is checked with
    # --plain-eval; wave is the same geometry with it; tb/lockstep.mk)
    same_as_plain "fast evaluation = plain eval(), monitor tuner" default eval --seed 5 \
        --requests 8000 --tune 256
    same_as_plain "fast evaluation = plain eval()" default eval --seed 3 --requests 5000 \
        --reconfig-every 150 --checkpoint-every 2000 --clear-in-request 500 --maintain-every 200
    same_as_plain "fast evaluation = a waveform run's, monitor tuner" wave wave --seed 5 \
        --requests 8000 --tune 256
    same_as_plain "fast evaluation = plain eval(), tuner" serial wave --seed 5 --requests 8000 \
        --tune 256 --phase-threshold 6 --clear-every 3000
    same_as_plain "fast evaluation = plain eval(), I+D top" pair-d wave --seed 10 --requests 3000 \
        --reconfig-every 150 --checkpoint-every 1000
    # The harness itself: a model whose memory or power switch is one cycle
    # slower than the RTL's must show up as a latency or reconfiguration
    # cycle mismatch.
    caught "model T_mem off by one" default --seed 1 --requests 1000 --model-latency 21
    caught "model T_wake off by one" default --seed 1 --requests 5000 --reconfig-every 50 \
        --model-wake 5
    # The generator's test aid: an unknown bug name is refused, nothing written.
    stcgen="$root/build/gcc/stcgen"
    out=$(mktemp -d)
    if [ -x "$stcgen" ]; then
        status=0
        "$stcgen" --debug-break no-such-bug --out "$out/x" >"$log" 2>&1 || status=$?
        if [ "$status" = 2 ] && grep -q "debug-break no-such-bug: unknown (known: skip-writeback" "$log" \
            && [ -z "$(ls -A "$out")" ]; then
            passed=$((passed + 1))
            echo "ok   stcgen --debug-break refuses an unknown name"
        else
            failed=$((failed + 1))
            echo "FAIL stcgen --debug-break no-such-bug: status $status"
            sed 's/^/    /' "$log"
        fi
    fi
    rm -rf "$out"
    for tag in "$ls"/broken-*/lockstep; do
        tag=$(basename "$(dirname "$tag")")
        case $tag in
        broken-tuner-*)
            caught "${tag#broken-}" "$tag" --seed 1 --requests 50000 --tune 1024 --retune 8 ;;
        broken-maint-*)
            caught "${tag#broken-}" "$tag" --seed 1 --requests 50000 --maintain-every 100 ;;
        broken-m*)
            # (seed 3: mtuner-flag needs software's change to meet the
            # unit's, which seed 1 stopped doing with the 2026-12-07 defaults)
            caught "${tag#broken-}" "$tag" --seed 3 --requests 100000 --tune 256 --contend 2 ;;
        broken-clear-late)
            caught "${tag#broken-}" "$tag" --seed 1 --requests 50000 --clear-in-request 500 ;;
        *)
            caught "${tag#broken-}" "$tag" --seed 1 --requests 200000 --reconfig-every 150 \
                --checkpoint-every 20000 ;;
        esac
    done
else
    for seed in 11 12 13 14; do
        run "random, seed $seed" default --seed "$seed" --requests 1000000 \
            --reconfig-every 500 --checkpoint-every 100000 --clear-every 20000 --maintain-every 2000
    done
    run "random memory" default --seed 15 --random-memory --requests 1000000 \
        --reconfig-every 500 --checkpoint-every 100000 --ack-delay 3
    for tag in banks8 line32 banks2; do
        for seed in 21 22; do
            run "random, seed $seed" "$tag" --seed "$seed" --requests 1000000 \
                --reconfig-every 500 --checkpoint-every 100000 --maintain-every 2000
        done
        run "directed tests" "$tag" --directed --requests 1000 --seed 23
    done
    if [ -n "$trace" ]; then
        for t in "$root"/build/traces/*.zst; do
            run "trace $(basename "$t")" default --trace "$t" --requests 300000 \
                --reconfig-every 5000 --checkpoint-every 100000
            for tag in default pair-i pair-d; do
                run "monitor tuner on $(basename "$t")" "$tag" --trace "$t" --requests 300000 \
                    --tune 256
            done
            for tag in seed serial; do
                run "tuner on $(basename "$t")" "$tag" --trace "$t" --requests 300000 \
                    --tune 4096 --retune 12
            done
        done
    fi
fi
echo "lockstep ($mode): $total_requests requests compared"
echo "lockstep-run: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
