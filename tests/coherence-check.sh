#!/bin/bash
# Model-check the snooping coherence protocols with Rumur (docs/COHERENCE.md
# section 6): every protocol at 2, 3 and 4 caches (MSI also 5) must pass
# single-writer, data-value and deadlock checks, reach every state and every
# possible row (and so never an impossible one); every deliberately broken
# table must fail on the property it breaks; the tables in docs/COHERENCE.md
# must be what `stcmurphi --table` prints. The same for the split-transaction
# bus (docs/COHERENCE.md section 8): MSI at 2-5 caches, MESI and MOESI at
# 2-4, with deadlock checks and the liveness property proved at every one
# of those sizes (Rumur must say it tried the proof and found no error),
# every transient state reached (3 caches and more), every possible row (4
# and more), and broken tables of each caught.
# Usage: coherence-check.sh STCMURPHI [COHERENCE.md]
set -euo pipefail
STCMURPHI=${1:?usage: coherence-check.sh STCMURPHI [COHERENCE.md]}
DOC=${2:-$(dirname "$0")/../docs/COHERENCE.md}
CC=${CC:-cc}

for tool in rumur "$CC"; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "coherence-check: '$tool' not found; install it (Debian package rumur:" \
             "scripts/ensure-tools.sh rumur:rumur, or make coherence-check)" >&2
        exit 1
    fi
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Rumur's verifier uses C11 atomics; on x86-64 the 16-byte compare-and-swap
# needs -mcx16 (Rumur's README). One thread: the models are small, and the
# first error found is then always the same.
# -O1: Rumur's verifiers compile in about half the time of -O2 and the
# largest model here (MOESI, split bus, 3 caches) runs 0.9 s instead of
# 0.7: compiling is most of this check's time (2026-12-06).
cflags=(-std=c11 -O1)
case "$(uname -m)" in x86_64 | amd64) cflags+=(-mcx16) ;; esac
rumur_flags=(--threads 1 --colour off)

failures=0
fail() {
    echo "FAIL $*"
    failures=$((failures + 1))
}

# check NAME RUMUR-FLAGS -- STCMURPHI-ARGS: emit the model, turn it into a
# verifier, run it; the verifier's output is in $work/NAME.out, its exit
# status in $status. Returns non-zero only if a step before the run failed.
check() {
    local name=$1 extra=$2
    shift 3
    if ! "$STCMURPHI" "$@" -o "$work/$name.m" 2>"$work/$name.err"; then
        fail "$name: stcmurphi $*: $(cat "$work/$name.err")"
        return 1
    fi
    # shellcheck disable=SC2086
    if ! rumur "${rumur_flags[@]}" $extra "$work/$name.m" -o "$work/$name.c" >"$work/$name.err" 2>&1; then
        fail "$name: rumur rejected the model:"; head -5 "$work/$name.err"
        return 1
    fi
    if ! "$CC" "${cflags[@]}" -o "$work/$name" "$work/$name.c" -lpthread >"$work/$name.err" 2>&1; then
        fail "$name: the verifier does not compile:"; head -5 "$work/$name.err"
        return 1
    fi
    status=0
    "$work/$name" >"$work/$name.out" 2>&1 || status=$?
}

states_of() {
    grep -oE '[0-9]+ states,' "$1" | grep -oE '[0-9]+' || echo "?"
}

# The protocol's states, from the table itself ("States: I S M.").
protocol_states() {
    "$STCMURPHI" --table --protocol "$1" | sed -n 's/^States: \(.*\)\.$/\1/p'
}

# A correct protocol: no error, every state and every possible row covered.
check_protocol() {
    local protocol=$1 caches=$2 name="$1-$2"
    check "$name" "" -- --protocol "$protocol" --caches "$caches" || return 0
    if [ "$status" -ne 0 ] || ! grep -q 'No error found' "$work/$name.out"; then
        fail "$name: Rumur found an error:"
        sed -n '/error trace/,/End of the error trace/p' "$work/$name.out" | head -40
        return 0
    fi
    local state missing=""
    for state in $(protocol_states "$protocol"); do
        grep -qE "cover \"reachable: a cache in $state\" hit [1-9][0-9]* times" "$work/$name.out" ||
            missing="$missing $state"
    done
    if [ -n "$missing" ]; then
        fail "$name: states never reached:$missing"
        return 0
    fi
    local rows_emitted rows_hit
    rows_emitted=$(grep -c 'cover "row reached: ' "$work/$name.m" || true)
    rows_hit=$(grep -cE 'cover "row reached: .*" hit [1-9][0-9]* times' "$work/$name.out" || true)
    if [ "$rows_hit" -ne "$rows_emitted" ]; then
        fail "$name: $rows_hit of $rows_emitted possible rows reached"
        return 0
    fi
    # The same model without symmetry reduction: the raw count, and a
    # result that does not rest on the reduction.
    check "$name-nosym" "--symmetry-reduction off" -- --protocol "$protocol" --caches "$caches" ||
        return 0
    if [ "$status" -ne 0 ] || ! grep -q 'No error found' "$work/$name-nosym.out"; then
        fail "$name: Rumur found an error without symmetry reduction"
        return 0
    fi
    printf '%-6s %d caches: ok, %5s states (%s without symmetry reduction), %d rows and %d states reached\n' \
        "$protocol" "$caches" "$(states_of "$work/$name.out")" "$(states_of "$work/$name-nosym.out")" \
        "$rows_hit" "$(protocol_states "$protocol" | wc -w)"
}

# A broken table: the verifier must fail, on the expected property.
# check_break PROTOCOL BREAK EXPECTED [STCMURPHI-ARGS...]
check_break() {
    local protocol=$1 broken=$2 expected=$3 caches=2 name="$1-$2"
    shift 3
    check "$name" "" -- --protocol "$protocol" --caches "$caches" --break "$broken" "$@" || return 0
    local found
    found=$(grep -E 'invariant ".*" failed|Assertion failed|failed|violated|read of undefined|not hit|deadlock' \
        "$work/$name.out" | head -1 | sed 's/^[[:space:]]*//; s/^Assertion failed: [^ ]*: /assertion failed: /' || true)
    if [ "$status" -eq 0 ]; then
        fail "$name: the broken table passed the check"
    elif ! grep -qF -- "$expected" "$work/$name.out"; then
        fail "$name: failed for another reason: $found (expected: $expected)"
    else
        printf '%-6s --break %-13s caught: %s (after %s states)\n' "$protocol" "$broken" \
            "$found" "$(states_of "$work/$name.out")"
    fi
}

# The split-transaction bus: the covers a model this small cannot hit are
# the only errors allowed (a state XY^D_SI needs 3 caches, its Other-X rows
# a fourth; the epochs race 3); at 3 caches and more every state must be
# reached, at 4 and more every row and both races. Deadlock (Rumur's
# default) is checked at every size. Liveness: Rumur counts a missed cover
# as an error and then skips its final liveness proof, saying nothing; so
# a run proves liveness only from 4 caches (every cover hit) or in a model
# emitted with --no-covers, and each such run must show the proof (see
# require_liveness). Every (protocol, caches) checked here must have one.
# check_split PROTOCOL CACHES [RUMUR-FLAGS [STCMURPHI-FLAGS]]
split_states() {
    "$STCMURPHI" --table --bus split --protocol "$1" | sed -n 's/^States: \(.*\)\.$/\1/p' | tr '^' '_'
}
declare -A split_sizes=() live_proved=()
# require_liveness NAME PROTOCOL CACHES HOW: the run NAME must show that
# Rumur tried to prove the liveness property ("trying to prove remaining
# liveness constraints...", printed only when no error came before) and
# that no error followed; HOW (which run) is recorded in $live_proved.
require_liveness() {
    local name=$1 protocol=$2 caches=$3 how=$4 what="$1: $2, split bus, $3 caches"
    sed -n '/trying to prove remaining liveness constraints/,$p' "$work/$name.out" >"$work/$name.live"
    if [ ! -s "$work/$name.live" ]; then
        fail "$what: Rumur did not try to prove the liveness constraints (a missed cover or" \
            "an earlier error stops it; or the model has no liveness property)"
        return 1
    fi
    if [ "$status" -ne 0 ] || ! grep -q 'No error found' "$work/$name.live" ||
        grep -qE 'violated|error\(s\) found' "$work/$name.live"; then
        fail "$what: liveness not proved:" \
            "$(grep -E 'violated|error\(s\) found' "$work/$name.live" | head -2 | tr -s '\t\n' '  ')"
        return 1
    fi
    local key=$protocol-$caches
    live_proved[$key]="${live_proved[$key]:+${live_proved[$key]}; }$how"
}
check_split() {
    local protocol=$1 caches=$2 extra=${3:-} emit=${4:-} name="split-$1-$2${3:+-nosym}${4:+-nocov}"
    split_sizes[$protocol-$caches]=1
    # shellcheck disable=SC2086
    check "$name" "$extra" -- --protocol "$protocol" --bus split --caches "$caches" $emit || return 0
    if [ -n "$emit" ]; then
        if [ "$status" -ne 0 ] || ! grep -q 'No error found' "$work/$name.out"; then
            fail "$name: $protocol, split bus, $caches caches: Rumur found an error:"
            grep -E 'failed|violated|deadlock|read of undefined' "$work/$name.out" | head -3
            return 0
        fi
        require_liveness "$name" "$protocol" "$caches" "$emit${extra:+, no symmetry reduction}" ||
            return 0
        printf '%-6s split, %d caches, %s%s: ok, %6s states in %s (safety, deadlock, liveness proved)\n' \
            "$protocol" "$caches" "$emit" "${extra:+, no symmetry reduction}" \
            "$(states_of "$work/$name.out")" \
            "$(grep -oE 'fired in [0-9]+s' "$work/$name.out" | sed 's/fired in //')"
        return 0
    fi
    local errors unhit
    errors=$(grep -oE '[0-9]+ error\(s\) found' "$work/$name.out" | grep -oE '^[0-9]+' || echo 0)
    unhit=$(grep -c 'cover ".*" not hit' "$work/$name.out" || true)
    if [ "$errors" -ne "$unhit" ] || grep -qE 'failed|deadlock|liveness.*(fail|not)|read of undefined' \
        "$work/$name.out"; then
        fail "$name: $protocol, split bus, $caches caches: Rumur found an error:" \
            "$(grep -E 'failed|violated|deadlock|read of undefined' "$work/$name.out" | head -1 |
                sed 's/^[[:space:]]*//')"
        sed -n '/error trace/,/End of the error trace/p' "$work/$name.out" | head -40
        return 0
    fi
    local state missing="" rows_emitted rows_hit
    for state in $(split_states "$protocol"); do
        grep -qE "cover \"reachable: a cache in $state\" hit" "$work/$name.out" ||
            missing="$missing $state"
    done
    rows_emitted=$(grep -c 'cover "row reached: ' "$work/$name.m" || true)
    rows_hit=$(grep -cE 'cover "row reached: .*" hit [1-9][0-9]* times' "$work/$name.out" || true)
    if [ "$caches" -ge 3 ] && [ -n "$missing" ]; then
        fail "$name: states never reached:$missing"
        return 0
    fi
    if [ "$caches" -ge 4 ] && { [ "$unhit" -ne 0 ] || [ "$rows_hit" -ne "$rows_emitted" ]; }; then
        fail "$name: $rows_hit of $rows_emitted possible rows reached, $unhit covers not hit"
        return 0
    fi
    # Every cover hit (required from 4 caches): Rumur must have proved liveness.
    local live=""
    if [ "$unhit" -eq 0 ]; then
        require_liveness "$name" "$protocol" "$caches" "every cover hit${extra:+, no symmetry reduction}" ||
            return 0
        live=", liveness proved"
    fi
    printf '%-6s split, %d caches%s: ok, %6s states in %s, %d of %d rows, %d of %d states reached%s%s\n' \
        "$protocol" "$caches" "${extra:+ (no symmetry reduction)}" "$(states_of "$work/$name.out")" \
        "$(grep -oE 'fired in [0-9]+s' "$work/$name.out" | sed 's/fired in //')" \
        "$rows_hit" "$rows_emitted" "$(( $(split_states "$protocol" | wc -w) - $(echo $missing | wc -w) ))" \
        "$(split_states "$protocol" | wc -w)" "${missing:+ (not:$missing)}" "$live"
}

# Every (protocol, caches) run on the split bus has a run that proved liveness.
check_split_liveness() {
    local protocol caches key
    for protocol in msi mesi moesi; do
        for caches in 2 3 4 5 6 7 8; do
            key=$protocol-$caches
            [ -n "${split_sizes[$key]:-}" ] || continue
            if [ -z "${live_proved[$key]:-}" ]; then
                fail "split-$key: $protocol, split bus, $caches caches: no run proved the liveness property"
            else
                printf '%-6s split, %d caches: liveness proved (%s)\n' "$protocol" "$caches" "${live_proved[$key]}"
            fi
        done
    done
}

# Bad arguments: exit 2, a message naming the parameter, no file written.
check_bad_args() {
    local expected=$1
    shift
    local rc=0
    rm -f "$work/bad.m"
    "$STCMURPHI" "$@" -o "$work/bad.m" >/dev/null 2>"$work/bad.err" || rc=$?
    if [ "$rc" -ne 2 ] || [ -e "$work/bad.m" ] || ! grep -qF -- "$expected" "$work/bad.err"; then
        fail "stcmurphi $*: exit $rc, expected 2 and '$expected' with no output: $(cat "$work/bad.err")"
    fi
}

start=$SECONDS
for protocol in msi mesi moesi; do
    for caches in 2 3 4; do
        check_protocol "$protocol" "$caches"
    done
done
check_protocol msi 5

# With stale data left in invalidated frames (as hardware leaves it): more
# states, the same verdict; the counts to set beside other models' (doc 5).
for caches in 2 3 4 5; do
    name="msi-$caches-stale"
    check "$name" "" -- --protocol msi --caches "$caches" --stale-data || continue
    if [ "$status" -ne 0 ] || ! grep -q 'No error found' "$work/$name.out"; then
        fail "$name: Rumur found an error with stale data kept"
        continue
    fi
    printf 'msi    %d caches, --stale-data: ok, %5s states\n' "$caches" "$(states_of "$work/$name.out")"
done

single_writer='invariant "single-writer: a cache in M'
stale_miss='data-value: a miss receives the last written value'
for protocol in msi mesi moesi; do
    check_break "$protocol" no-invalidate "$single_writer"
    check_break "$protocol" no-supply "$stale_miss"
done
for protocol in mesi moesi; do
    check_break "$protocol" no-shared 'invariant "single-writer: a cache in M or E holds the only valid copy" failed'
done

split_start=$SECONDS
for caches in 2 3 4 5; do
    check_split msi "$caches"
done
# Without symmetry reduction and without covers at 2 and 3 caches: the
# raw count, a verdict that does not rest on the reduction, and the
# liveness proof the runs above cannot give (they miss covers). The
# unreduced proof covers the reduced model too, at no extra verifier.
for caches in 2 3; do
    check_split msi "$caches" "--symmetry-reduction off" --no-covers
done
single_writer_split='invariant "single-writer: a cache that may write holds the only readable copy" failed'
check_break msi no-transient-invalidate "$single_writer_split" --bus split
check_break msi no-is-d-i "$single_writer_split" --bus split
check_break msi no-writeback "deadlock" --bus split
echo "split-transaction bus, MSI: $((SECONDS - split_start)) s"

# MESI and MOESI (docs/COHERENCE.md 8.7): 2 caches without covers, so that
# the liveness property is proved there too; 3 and 4 with every cover, 3
# also without symmetry reduction and without covers (the liveness proof
# at 3 caches, as for MSI). The broken tables without covers, for the same
# reason (owner-no-supply is a request that starves: only liveness sees it).
split_e_start=$SECONDS
for protocol in mesi moesi; do
    check_split "$protocol" 2 "" --no-covers
    check_split "$protocol" 3
    check_split "$protocol" 4
    check_split "$protocol" 3 "--symmetry-reduction off" --no-covers
done
check_break mesi no-shared "$single_writer_split" --bus split --no-covers
check_break mesi silent-e-evict "deadlock" --bus split --no-covers
check_break mesi store-after-pute 'invariant "data-value: memory is current when it owns the block and waits for nothing" failed' \
    --bus split --no-covers
check_break moesi owner-no-supply 'liveness property "quiescence: every request can be ordered and answered" violated' \
    --bus split --no-covers
echo "split-transaction bus, MESI and MOESI: $((SECONDS - split_e_start)) s"
check_split_liveness

check_bad_args "--break" --protocol msi --caches 2 --break no-shared
check_bad_args "--break" --protocol msi --caches 2 --bus split --break no-invalidate
check_bad_args "--bus" --protocol msi --caches 2 --bus atomc
check_bad_args "--break" --protocol mesi --caches 2 --bus split --break owner-no-supply
check_bad_args "--break" --protocol msi --caches 2 --bus split --break store-after-pute
check_bad_args "--no-covers" --protocol msi --caches 2 --no-covers
check_bad_args "--stale-data" --protocol msi --caches 2 --bus split --stale-data
check_bad_args "--protocol" --protocol mosi --caches 2
check_bad_args "--caches" --protocol msi --caches 1
check_bad_args "--caches" --protocol msi

# The document's tables are this output, between its two markers.
check_doc_tables() {
    local marker=$1
    shift
    sed -n "/<!-- $marker: begin -->/,/<!-- $marker: end -->/p" "$DOC" |
        sed '1d;$d' >"$work/doc-tables.md"
    "$STCMURPHI" "$@" >"$work/tables.md"
    if ! diff -u "$work/tables.md" "$work/doc-tables.md" >"$work/tables.diff"; then
        fail "$DOC: its tables differ from '$marker' (regenerate them):"
        head -20 "$work/tables.diff"
    else
        echo "docs: the tables in $(basename "$DOC") equal $marker"
    fi
}
check_doc_tables "stcmurphi --table" --table
check_doc_tables "stcmurphi --table --bus split" --table --bus split

if [ "$failures" -ne 0 ]; then
    echo "coherence-check: $failures failure(s)"
    exit 1
fi
echo "coherence-check: all checks passed in $((SECONDS - start)) s"
