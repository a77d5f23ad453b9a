#!/usr/bin/env bash
# mc-traces-check.sh TRACEDIR STCSIM - check the multi-core traces that
# traces/make-mc-traces.sh made in TRACEDIR (traces/mc/README.md):
#   1. every trace of index.txt runs through `STCSIM coherence --cores N
#      --protocol mesi --json` with exit status 0 (it parses; no data,
#      single-writer or other violation), N being the thread count of its
#      name; every core 0..N-1 has references, and the model counts as many
#      references as the tracer wrote records;
#   2. the kernels' known sharing holds, measured by the model (MESI, its
#      default geometry 8 KiB, 4 ways, 32-byte lines):
#        one thread    no true- or false-sharing miss, no cache-to-cache
#                      transfer, no invalidation;
#        padded        no coherence miss at all (N >= 2);
#        packed        false-sharing misses on at least 10 % of the
#                      references, no true-sharing miss (no word is shared);
#        lock          true-sharing misses and cache-to-cache transfers
#                      grow with the threads: 2 < 4 < 8;
#        migratory     true-sharing misses grow 2 < 4 < 8; the record moves
#                      on every update (MESI transfers >= updates - 1); with
#                      MOESI, whose owner serves every reader, the transfers
#                      grow 2 < 4 < 8;
#        queue         a true-sharing miss and a transfer per item at least;
#        stencil       coherence misses and transfers grow 2 < 4 < 8;
#        matmul        (almost) no coherence miss: at most 0.1 % of misses;
#   3. determinism: lock.t4 and stencil.t8 made twice at once into two
#      fresh directories by make-mc-traces.sh (while another process loads
#      the CPUs) are the same bytes, and the same as TRACEDIR's; a seeded
#      schedule run twice gives the same bytes, and another seed others.
# Takes ~20-30 s on 2 cores. Exit status 0 when everything holds.
set -euo pipefail

die() { echo "mc-traces-check: error: $*" >&2; exit 1; }
[ $# -eq 2 ] || die "usage: $0 TRACEDIR STCSIM"
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(dirname "$HERE")
DIR=$(cd "$1" && pwd) || die "no trace directory $1"
STCSIM=$2
[ -x "$STCSIM" ] || die "$STCSIM is not an executable"
[ -f "$DIR/index.txt" ] || die "$DIR/index.txt missing: make the traces first (traces/make-mc-traces.sh $1)"
command -v jq >/dev/null || die "jq is needed"

fails=0
fail() { echo "mc-traces-check: FAIL: $*" >&2; fails=$((fails + 1)); }
ok() { echo "mc-traces-check: ok: $*"; }

TMP=$(mktemp -d)
LOAD_PID=""
cleanup() {
    if [ -n "$LOAD_PID" ]; then kill "$LOAD_PID" 2>/dev/null || true; fi
    rm -rf "$TMP"
}
trap cleanup EXIT

# ------------------------------------------------- 1. parse, cores, counts ---
# run NAME [PROTOCOL]: the model's JSON report of trace NAME in $TMP,
# its path in JSON[NAME.PROTOCOL].
declare -A JSON
run() {
    local name=$1 proto=${2:-mesi} threads=${1##*.t} out rc=0
    out=$TMP/$name.$proto.json
    "$STCSIM" coherence --cores "$threads" --protocol "$proto" --json "$DIR/$name.mc.zst" \
        >"$out" 2>"$TMP/err" || rc=$?
    if [ $rc -ne 0 ]; then
        fail "$name ($proto): stcsim coherence exit status $rc: $(head -c 300 "$TMP/err"; jq -c '.violations.first' "$out" 2>/dev/null)"
        return 1
    fi
    JSON[$name.$proto]=$out
}
# total EXPR NAME [PROTOCOL]: jq EXPR of the totals of NAME's run.
total() { jq -r ".total | .$1" "${JSON[$2.${3:-mesi}]}"; }

names=$(awk '!/^#/ { print $1 }' "$DIR/index.txt")
[ -n "$names" ] || die "$DIR/index.txt lists no trace"
count=0
for name in $names; do
    threads=${name##*.t}
    records=$(awk -v n="$name" '$1 == n { print $4 }' "$DIR/index.txt")
    run "$name" || continue
    count=$((count + 1))
    j=${JSON[$name.mesi]}
    [ "$(jq '.violations.count' "$j")" = 0 ] || fail "$name: violations $(jq -c .violations "$j")"
    [ "$(jq '.per_core | length' "$j")" = "$threads" ] || fail "$name: not $threads cores"
    idle=$(jq '[.per_core[] | select(.references == 0)] | length' "$j")
    [ "$idle" = 0 ] || fail "$name: $idle of its $threads cores have no reference"
    [ "$(total references "$name")" = "$records" ] ||
        fail "$name: the model read $(total references "$name") references, the tracer wrote $records"
    if [ "$threads" = 1 ]; then
        s=$(jq '.total | .miss_true_sharing + .miss_false_sharing + .c2c_received + .inv_sent' "$j")
        [ "$s" = 0 ] || fail "$name: one thread, yet $s sharing misses, transfers and invalidations"
    fi
done
ok "$count traces parse with no violation, cores as named, references = records, one thread: no sharing"

# ------------------------------------------------------ 2. known sharing ---
have() { [ -n "${JSON[$1.mesi]:-}" ]; }
# grows KERNEL EXPR [PROTOCOL]: the jq EXPR of the totals grows 2 < 4 < 8.
grows() {
    local k=$1 expr=$2 proto=${3:-mesi} v2 v4 v8
    for t in 2 4 8; do have "$k.t$t" || { fail "$k.t$t missing"; return 0; }; done
    [ "$proto" = mesi ] || for t in 2 4 8; do run "$k.t$t" "$proto" || return 0; done
    v2=$(jq ".total | .$expr" "${JSON[$k.t2.$proto]}")
    v4=$(jq ".total | .$expr" "${JSON[$k.t4.$proto]}")
    v8=$(jq ".total | .$expr" "${JSON[$k.t8.$proto]}")
    if [ "$v2" -gt 0 ] && [ "$v2" -lt "$v4" ] && [ "$v4" -lt "$v8" ]; then
        ok "$k: $expr ($proto) grows: $v2 < $v4 < $v8"
    else
        fail "$k: $expr ($proto) does not grow 2 < 4 < 8 threads: $v2, $v4, $v8"
    fi
}
size_of() { sed -n 's/.* --size \([0-9]*\) .*/\1/p' "$DIR/$1.cmd"; }

for t in 2 4 8; do
    n=padded.t$t
    if have $n; then
        c=$(total 'miss_true_sharing + .miss_false_sharing' $n)
        if [ "$c" = 0 ]; then ok "$n: no coherence miss"; else fail "$n: $c coherence misses (expected none)"; fi
    fi
    n=packed.t$t
    if have $n; then
        fs=$(total miss_false_sharing $n) ts=$(total miss_true_sharing $n) r=$(total references $n)
        if [ $((fs * 10)) -ge "$r" ] && [ "$ts" = 0 ]; then
            ok "$n: $fs false-sharing misses in $r references, no true sharing"
        else
            fail "$n: $fs false-sharing misses in $r references (want >= 10 %), $ts true-sharing (want 0)"
        fi
    fi
    n=queue.t$t
    if have $n; then
        items=$(size_of $n) ts=$(total miss_true_sharing $n) c2c=$(total c2c_received $n)
        if [ "$ts" -ge "$items" ] && [ "$c2c" -ge "$items" ]; then
            ok "$n: $ts true-sharing misses, $c2c transfers for $items items"
        else
            fail "$n: $ts true-sharing misses, $c2c transfers for $items items (want >= one each per item)"
        fi
    fi
    n=migratory.t$t
    if have $n; then
        updates=$(($(size_of $n) / t * t)) c2c=$(total c2c_received $n)
        if [ "$c2c" -ge $((updates - 1)) ]; then
            ok "$n: $c2c transfers for $updates updates"
        else
            fail "$n: $c2c transfers for $updates updates (the record moves on every update)"
        fi
    fi
    n=matmul.t$t
    if have $n; then
        c=$(total 'miss_true_sharing + .miss_false_sharing' $n) m=$(total misses $n)
        if [ $((c * 1000)) -le "$m" ]; then
            ok "$n: $c coherence misses of $m"
        else
            fail "$n: $c coherence misses of $m (want at most 0.1 %)"
        fi
    fi
done
grows lock miss_true_sharing
grows lock c2c_received
grows migratory miss_true_sharing
grows migratory c2c_received moesi
grows stencil 'miss_true_sharing + .miss_false_sharing'
grows stencil c2c_received

# ------------------------------------------------------ 3. determinism ---
# Two fresh builds and runs at the same time, with a third process loading
# the CPUs: the schedule must not depend on timing.
(while :; do :; done) &
LOAD_PID=$!
pids=()
for d in a b; do
    STC_MC_ONLY="lock.t4 stencil.t8" "$REPO/traces/make-mc-traces.sh" "$TMP/$d" \
        >"$TMP/make-$d.log" 2>&1 &
    pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || fail "make-mc-traces.sh into a temporary directory failed: $(cat "$TMP"/make-*.log)"; done
kill "$LOAD_PID" 2>/dev/null || true
wait "$LOAD_PID" 2>/dev/null || true
LOAD_PID=""
for n in lock.t4 stencil.t8; do
    if cmp -s "$TMP/a/$n.mc.zst" "$TMP/b/$n.mc.zst"; then
        ok "$n: made twice at once under load, same bytes"
    else
        fail "$n: two runs of make-mc-traces.sh gave different traces"
    fi
    if [ -f "$DIR/$n.mc.zst" ]; then
        if cmp -s "$TMP/a/$n.mc.zst" "$DIR/$n.mc.zst"; then
            ok "$n: same bytes as $DIR's"
        else
            fail "$n: differs from $DIR's (stale? remake with traces/make-mc-traces.sh)"
        fi
    fi
done
# A seeded schedule: the same seed twice gives the same trace, another
# seed another one.
prog=$TMP/a/bin/mc-kernels
if [ -x "$prog" ]; then
    h1=$("$prog" migratory --threads 4 --size 2000 --quantum 4 --seed 7 | sha256sum)
    h2=$("$prog" migratory --threads 4 --size 2000 --quantum 4 --seed 7 | sha256sum)
    h3=$("$prog" migratory --threads 4 --size 2000 --quantum 4 --seed 8 | sha256sum)
    if [ "$h1" = "$h2" ] && [ "$h1" != "$h3" ]; then
        ok "seeded schedule: same seed same bytes, another seed another trace"
    else
        fail "seeded schedule: seed 7 twice $([ "$h1" = "$h2" ] && echo equal || echo DIFFERENT), seed 8 $([ "$h1" != "$h3" ] && echo different || echo EQUAL)"
    fi
fi

[ "$fails" -eq 0 ] || die "$fails check(s) failed"
echo "mc-traces-check: all checks passed"
