#!/usr/bin/env bash
# oracle-cachegrind.sh STCSIM TRACEDIR - compare stc's miss counts with
# valgrind's cachegrind, an independent cache simulator, exactly.
#
# For every trace that traces/make-traces.sh marks oracle-comparable (real
# Debian programs and the kernels, index.txt), cachegrind re-runs the
# very command that made the trace (NAME.cmd: same directory, environment,
# valgrind options) once per configuration, with its first-level caches set
# to that geometry:
#     --I1=SIZE,WAYS,LINE --D1=SIZE,WAYS,LINE   (LRU, write-allocate)
# and stcsim simulates the trace once for all configurations:
#     STCSIM --format lackey --all --json NAME.lackey.zst
#
# Checks, per program:
#   1. the run is the traced one: cachegrind's Ir, Dr, Dw equal the trace's
#      I, L+M, S counts (NAME.counts), and stc read the same counts
#      (references.ifetch, load+modify, store; icache/dcache.requests);
#   2. for the 18 configurations without way prediction (2K 1 way; 4K 1, 2
#      ways; 8K 1, 2, 4 ways; lines of 16, 32, 64 bytes):
#      icache.request_misses == I1mr and dcache.request_misses == D1mr+D1mw.
# No tolerance. Prints one line per (program, configuration), then
#     oracle-cachegrind: N passed, M failed
# counting (program, configuration, cache) triples; a program whose counts
# (check 1) disagree has all its triples failed. Exit status 1 on any failure.
#
# Line sizes cachegrind refuses: cachegrind needs lines at least as wide as
# the guest's widest register. For i386 programs that is 16 bytes (SSE), so
# all 18 configurations are compared; for amd64 programs (the traces made
# on a machine that cannot run i386 code, traces/make-traces.sh) on an AVX
# machine it is 32 bytes, and the 16-byte configurations are skipped (and
# listed as skipped). The minimum is found, not assumed: one cachegrind run
# per architecture with 16-byte lines, whose refusal names the minimum.
#
# Addresses above 2^32 (an amd64 program's stack under valgrind): stc takes
# them modulo 2^32 (its report counts them as "truncated"), cachegrind does
# not, so the exact miss equality also shows that no two regions alias after
# truncation (make-traces.sh checks the same on the address ranges). For
# i386 traces any truncated address is a failure.
#
# cachegrind results are cached in TRACEDIR/cachegrind/, keyed by the
# trace's recipe stamp, the configuration and valgrind's version.
# Environment: ORACLE_JOBS (parallel cachegrind runs, default 2),
#              ORACLE_ONLY (space-separated trace names, default all).
set -euo pipefail
# The programs run where make-traces.sh ran them: in a working directory of
# fixed path length linking TRACEDIR's files (the path's length moves the
# stack's addresses under valgrind).
# shellcheck source=../traces/fixed-cwd.sh
. "$(cd "$(dirname "$0")/.." && pwd)/traces/fixed-cwd.sh"

# --- internal: one cachegrind run (called through xargs, in parallel) ---
if [ "${1:-}" = --cachegrind-job ]; then
    # --cachegrind-job TRACEDIR NAME CONFIG
    dir=$2 name=$3 cfg=$4
    out=$dir/cachegrind/$name.$cfg
    key="$(cat "$dir/$name.stamp") $cfg $(valgrind --version)"
    if [ -f "$out.summary" ] && [ "$(head -n 1 "$out.summary")" = "key: $key" ]; then
        exit 0
    fi
    IFS=_ read -r size ways line <<<"$cfg"
    bytes=$((${size%K} * 1024))
    ways=${ways%W}
    line=${line%B}
    cwd=$(sed -n 's/^cwd: //p' "$dir/$name.cmd")
    prefix=$(sed -n 's/^prefix: //p' "$dir/$name.cmd")
    command=$(sed -n 's/^command: //p' "$dir/$name.cmd")
    [ -n "$prefix" ] && [ -n "$command" ] || { echo "oracle: $dir/$name.cmd is incomplete" >&2; exit 1; }
    geom="--I1=$bytes,$ways,$line --D1=$bytes,$ways,$line --LL=1048576,16,64"
    rm -f "$out.out" "$out.summary"
    rundir=$(fixed_cwd_make "$dir" "$cwd" "${command%% *}") || { echo "oracle: cannot make a working directory in /tmp" >&2; exit 1; }
    rc=0
    # Same shape as the lackey run: program stdout to /dev/null, valgrind's
    # log on fd 3, stderr to a file, stdin /dev/null.
    # shellcheck disable=SC2086
    (cd "$rundir/$cwd" && $prefix --tool=cachegrind --cache-sim=yes $geom \
        --cachegrind-out-file="$out.out" --log-fd=3 $command \
        3>"$out.log" >/dev/null 2>"$out.stderr" </dev/null) || rc=$?
    fixed_cwd_remove "$rundir"
    if [ $rc -ne 0 ]; then
        echo "oracle: cachegrind failed for $name $cfg (see $out.log, $out.stderr)" >&2
        exit 1
    fi
    # events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw
    ev=$(sed -n 's/^events: *//p' "$out.out")
    sum=$(sed -n 's/^summary: *//p' "$out.out")
    [ "$(echo $ev)" = "Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw" ] ||
        { echo "oracle: unexpected cachegrind events '$ev' in $out.out" >&2; exit 1; }
    grep -q "^desc: I1 cache: *$bytes B, $line B," "$out.out" ||
        { echo "oracle: cachegrind did not use the I1 geometry of $cfg (see $out.out)" >&2; exit 1; }
    { echo "key: $key"; echo "$sum"; } >"$out.summary"
    rm -f "$out.out" "$out.log" "$out.stderr"
    exit 0
fi

[ $# -eq 2 ] || { echo "usage: $0 STCSIM TRACEDIR" >&2; exit 2; }
STCSIM=$1
TRACEDIR=$2
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(dirname "$HERE")
JOBS=${ORACLE_JOBS:-2}
ONLY=${ORACLE_ONLY:-}
t_start=$(date +%s)

"$REPO/scripts/ensure-tools.sh" jq:jq valgrind:valgrind zstd:zstd
[ -x "$STCSIM" ] || { echo "oracle: $STCSIM is not an executable" >&2; exit 2; }

"$REPO/traces/make-traces.sh" "$TRACEDIR"
TRACEDIR=$(cd "$TRACEDIR" && pwd)
mkdir -p "$TRACEDIR/cachegrind"

CONFIGS=""
for line in 16 32 64; do
    for sw in 2K_1W 4K_1W 4K_2W 8K_1W 8K_2W 8K_4W; do
        CONFIGS="$CONFIGS ${sw}_${line}B"
    done
done

# Programs: every oracle-comparable trace in the index.
PROGRAMS=$(awk '!/^#/ && $4 == "yes" { print $1 }' "$TRACEDIR/index.txt")
if [ -n "$ONLY" ]; then
    PROGRAMS=$(for p in $PROGRAMS; do case " $ONLY " in *" $p "*) echo "$p" ;; esac; done)
fi
[ -n "$PROGRAMS" ] || { echo "oracle: no oracle-comparable traces in $TRACEDIR/index.txt" >&2; exit 1; }
nreal=$(for p in $PROGRAMS; do awk -v p="$p" '$1 == p && $3 ~ /^real/' "$TRACEDIR/index.txt"; done | wc -l)
arch_of() { awk -v p="$1" '!/^#/ && $1 == p { print $2 }' "$TRACEDIR/index.txt"; }
programs_of() {
    local p
    for p in $PROGRAMS; do
        if [ "$(arch_of "$p")" = "$1" ]; then echo "$p"; fi
    done
}
ARCHS=$(for p in $PROGRAMS; do arch_of "$p"; done | sort -u | paste -s -d' ')
echo "oracle: $(echo $PROGRAMS | wc -w) programs ($nreal real ${ARCHS// / and } programs), $(echo $CONFIGS | wc -w) configurations"
if [ -z "$ONLY" ] && [ "$nreal" -lt 3 ]; then
    echo "oracle: only $nreal real programs are oracle-comparable in $TRACEDIR/index.txt; 3 are needed" >&2
    exit 1
fi

# The smallest line cachegrind accepts, per architecture: one run, with
# 16-byte lines, of the first program of that architecture (its own command,
# from NAME.cmd). cachegrind refuses a line narrower than the guest's widest
# register at start-up, saying so: "the minimum line size (16) must be equal
# to or larger than the maximum register size (32)"; a run that completes
# means 16 bytes is accepted. Cached in TRACEDIR/cachegrind/min-line.ARCH.
min_line() {
    local arch=$1 p key cache cwd prefix command log rc=0 min rundir
    p=$(programs_of "$arch" | head -n 1)
    key="$(cat "$TRACEDIR/$p.stamp") $(valgrind --version)"
    cache=$TRACEDIR/cachegrind/min-line.$arch
    if [ -f "$cache" ] && [ "$(head -n 1 "$cache")" = "key: $key" ]; then
        sed -n 2p "$cache"
        return 0
    fi
    cwd=$(sed -n 's/^cwd: //p' "$TRACEDIR/$p.cmd")
    prefix=$(sed -n 's/^prefix: //p' "$TRACEDIR/$p.cmd")
    command=$(sed -n 's/^command: //p' "$TRACEDIR/$p.cmd")
    log=$TRACEDIR/cachegrind/min-line.$arch.log
    rundir=$(fixed_cwd_make "$TRACEDIR" "$cwd" "${command%% *}") || return 1
    # shellcheck disable=SC2086
    (cd "$rundir/$cwd" && $prefix --tool=cachegrind --cache-sim=yes --I1=2048,1,16 --D1=2048,1,16 \
        --LL=1048576,16,64 --cachegrind-out-file=/dev/null --log-fd=3 $command \
        3>"$log" >/dev/null 2>&1 </dev/null) || rc=$?
    fixed_cwd_remove "$rundir"
    if [ $rc -eq 0 ]; then
        min=16
    else
        min=$(sed -n 's/.*larger than the maximum register size (\([0-9]*\)).*/\1/p' "$log" | head -n 1)
        [ -n "$min" ] || {
            echo "oracle: cachegrind failed on $p with 16-byte lines, and not for the line size (see $log)" >&2
            return 1
        }
    fi
    printf 'key: %s\n%s\n' "$key" "$min" >"$cache"
    rm -f "$log"
    echo "$min"
}
declare -A MIN_LINE
for a in $ARCHS; do
    MIN_LINE[$a]=$(min_line "$a") || exit 1
done
# configs_of PROGRAM: the configurations compared for it.
configs_of() {
    local c line min=${MIN_LINE[$(arch_of "$1")]}
    for c in $CONFIGS; do
        line=${c##*_}
        line=${line%B}
        [ "$line" -lt "$min" ] || echo "$c"
    done
}
nskipped=0
for a in $ARCHS; do
    min=${MIN_LINE[$a]}
    skipped_lines=$(for line in 16 32 64; do [ "$line" -ge "$min" ] || echo "${line} B"; done | paste -s -d' ')
    if [ -n "$skipped_lines" ]; then
        n=$(programs_of "$a" | wc -l)
        nconf=$(for c in $CONFIGS; do line=${c##*_}; [ "${line%B}" -ge "$min" ] || echo "$c"; done | wc -l)
        nskipped=$((nskipped + n * nconf))
        echo "oracle: SKIPPED for the $n $a programs: the $nconf configurations with lines of $skipped_lines" \
            "(cachegrind refuses lines narrower than the guest's widest register, $min bytes for $a" \
            "programs on this machine); the configurations with lines >= $min B are compared"
    else
        echo "oracle: $a programs: cachegrind accepts ${min}-byte lines, all configurations are compared"
    fi
done

# cachegrind, in parallel (cached runs return at once).
echo "oracle: running cachegrind (cached results are reused)"
for p in $PROGRAMS; do for c in $(configs_of "$p"); do echo "$p $c"; done; done |
    xargs -P "$JOBS" -n 2 bash "$0" --cachegrind-job "$TRACEDIR" ||
    { echo "oracle: some cachegrind runs failed (messages above)" >&2; exit 1; }

# stcsim, one pass per trace, two at a time.
echo "oracle: running $STCSIM"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for p in $PROGRAMS; do echo "$p"; done |
    xargs -P "$JOBS" -I{} sh -c '"$1" --format lackey --all --json "$2/$3.lackey.zst" >"$4/$3.json" 2>"$4/$3.err"; echo $? >"$4/$3.rc"' \
        sh "$STCSIM" "$TRACEDIR" {} "$tmp"

passed=0
failed=0
problems=""
note() { problems="$problems$1"$'\n'; }

printf '%-20s %-10s %9s %9s %9s %9s  %s\n' program config stc-I cg-I stc-D cg-D result
for p in $PROGRAMS; do
    json=$tmp/$p.json
    ok_prog=1
    if [ "$(cat "$tmp/$p.rc")" != 0 ]; then
        note "$p: stcsim exited with status $(cat "$tmp/$p.rc"): $(head -c 300 "$tmp/$p.err")"
        ok_prog=0
    elif ! jq -e '.configs | length > 0' "$json" >/dev/null 2>&1; then
        note "$p: stcsim printed no valid JSON with configs ($(head -c 200 "$json"))"
        ok_prog=0
    fi
    # Trace counts made by make-traces.sh.
    read -r tI tL tS tM <<<"$(awk '$1 == "I" { i = $2 } $1 == "L" { l = $2 } $1 == "S" { s = $2 }
        $1 == "M" { m = $2 } END { print i, l, s, m }' "$TRACEDIR/$p.counts")"
    # stc's per-configuration numbers: name ireq imiss dreq dmiss
    stc=""
    if [ $ok_prog -eq 1 ]; then
        read -r sI sL sS sM sT <<<"$(jq -r '.references | "\(.ifetch) \(.load) \(.store) \(.modify) \(.truncated // 0)"' "$json")"
        stc=$(jq -r '.configs[] | select(.way_prediction == false) |
            "\(.name) \(.icache.requests) \(.icache.request_misses) \(.dcache.requests) \(.dcache.request_misses)"' "$json")
        if [ "$sI $sL $sS $sM" != "$tI $tL $tS $tM" ]; then
            note "$p: stc read I L S M = $sI $sL $sS $sM, the trace has $tI $tL $tS $tM"
            ok_prog=0
        fi
        if [ "$sT" != 0 ] && [ "$(arch_of "$p")" = i386 ]; then
            note "$p: stc truncated $sT addresses"
            ok_prog=0
        elif [ "$sT" != 0 ]; then
            echo "note $p: stc took $sT of $((sI + sL + sS + sM)) addresses modulo 2^32 ($(arch_of "$p"))"
        fi
    fi
    # Check 1: the cachegrind run is the traced run (any configuration will do
    # for Ir/Dr/Dw; all are checked below per configuration).
    pconfigs=$(configs_of "$p")
    for c in $pconfigs; do
        read -r Ir I1mr _ Dr D1mr _ Dw D1mw _ <<<"$(sed -n 2p "$TRACEDIR/cachegrind/$p.$c.summary")"
        if [ "$Ir $Dr $Dw" != "$tI $((tL + tM)) $tS" ]; then
            note "$p $c: cachegrind Ir Dr Dw = $Ir $Dr $Dw, trace I L+M S = $tI $((tL + tM)) $tS (not the same run)"
            ok_prog=0
            break
        fi
    done
    if [ $ok_prog -eq 1 ]; then
        echo "counts $p: I $tI = Ir, L+M $((tL + tM)) = Dr, S $tS = Dw: OK"
    fi
    # Check 2: misses.
    for c in $pconfigs; do
        read -r Ir I1mr _ Dr D1mr _ Dw D1mw _ <<<"$(sed -n 2p "$TRACEDIR/cachegrind/$p.$c.summary")"
        cgI=$I1mr
        cgD=$((D1mr + D1mw))
        row=$(echo "$stc" | awk -v c="$c" '$1 == c' | head -n 1)
        if [ -z "$row" ]; then
            if [ $ok_prog -eq 1 ]; then
                note "$p $c: no such configuration (with way_prediction false) in stc's output"
            fi
            printf '%-20s %-10s %9s %9s %9s %9s  %s\n' "$p" "$c" - "$cgI" - "$cgD" FAIL
            failed=$((failed + 2))
            continue
        fi
        read -r _ iReq iMiss dReq dMiss <<<"$row"
        res=""
        for side in I D; do
            if [ $side = I ]; then
                req=$iReq miss=$iMiss want_req=$Ir want_miss=$cgI
            else
                req=$dReq miss=$dMiss want_req=$((Dr + Dw)) want_miss=$cgD
            fi
            if [ $ok_prog -eq 1 ] && [ "$req" = "$want_req" ] && [ "$miss" = "$want_miss" ]; then
                passed=$((passed + 1))
            else
                failed=$((failed + 1))
                res="$res $side"
                if [ "$req" != "$want_req" ]; then
                    note "$p $c ${side}-cache: stc requests $req, cachegrind $want_req"
                fi
                if [ "$miss" != "$want_miss" ]; then
                    note "$p $c ${side}-cache: stc request_misses $miss, cachegrind $want_miss (difference $((miss - want_miss)))"
                fi
            fi
        done
        if [ -z "$res" ]; then
            res=OK
        elif [ $ok_prog -eq 0 ] && [ "$iReq $iMiss $dReq $dMiss" = "$Ir $cgI $((Dr + Dw)) $cgD" ]; then
            res="FAIL (counts)"
        else
            res="DIFF$res"
        fi
        printf '%-20s %-10s %9s %9s %9s %9s  %s\n' "$p" "$c" "$iMiss" "$cgI" "$dMiss" "$cgD" "$res"
    done
done

if [ -n "$problems" ]; then
    echo
    echo "oracle: differences:"
    printf '%s' "$problems" | sed 's/^/  /'
fi
echo "oracle: $(($(date +%s) - t_start)) s"
if [ $nskipped -gt 0 ]; then
    echo "oracle: $nskipped (program, configuration) pairs skipped: line narrower than cachegrind's minimum (above)"
fi
echo "oracle-cachegrind: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
