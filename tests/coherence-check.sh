#!/bin/bash
# Model-check the snooping coherence protocols with Rumur (docs/COHERENCE.md
# section 6): every protocol at 2, 3 and 4 caches (MSI also 5) must pass
# single-writer, data-value and deadlock checks, reach every state and every
# possible row (and so never an impossible one); every deliberately broken
# table must fail on the property it breaks; the tables in docs/COHERENCE.md
# must be what `stcmurphi --table` prints. The same for the split-transaction
# bus (docs/COHERENCE.md section 8): MSI at 2-5 caches with deadlock and
# liveness checks, every transient state reached (3 caches and more), every
# possible row (4 and more), and its broken tables caught.
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
cflags=(-std=c11 -O2)
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
    found=$(grep -E 'invariant ".*" failed|Assertion failed|failed|read of undefined|not hit|deadlock' \
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
# default) and the liveness property are checked at every size.
split_states() {
    "$STCMURPHI" --table --bus split --protocol "$1" | sed -n 's/^States: \(.*\)\.$/\1/p' | tr '^' '_'
}
check_split() {
    local protocol=$1 caches=$2 extra=${3:-} name="split-$1-$2${3:+-nosym}"
    check "$name" "$extra" -- --protocol "$protocol" --bus split --caches "$caches" || return 0
    local errors unhit
    errors=$(grep -oE '[0-9]+ error\(s\) found' "$work/$name.out" | grep -oE '^[0-9]+' || echo 0)
    unhit=$(grep -c 'cover ".*" not hit' "$work/$name.out" || true)
    if [ "$errors" -ne "$unhit" ] || grep -qE 'failed|deadlock|liveness.*(fail|not)|read of undefined' \
        "$work/$name.out"; then
        fail "$name: Rumur found an error:"
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
    printf '%-6s split, %d caches%s: ok, %6s states in %s, %d of %d rows, %d of %d states reached%s\n' \
        "$protocol" "$caches" "${extra:+ (no symmetry reduction)}" "$(states_of "$work/$name.out")" \
        "$(grep -oE 'fired in [0-9]+s' "$work/$name.out" | sed 's/fired in //')" \
        "$rows_hit" "$rows_emitted" "$(( $(split_states "$protocol" | wc -w) - $(echo $missing | wc -w) ))" \
        "$(split_states "$protocol" | wc -w)" "${missing:+ (not:$missing)}"
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
for caches in 2 3; do
    check_split msi "$caches" "--symmetry-reduction off"
done
single_writer_split='invariant "single-writer: a cache that may write holds the only readable copy" failed'
check_break msi no-transient-invalidate "$single_writer_split" --bus split
check_break msi no-is-d-i "$single_writer_split" --bus split
check_break msi no-writeback "deadlock" --bus split
echo "split-transaction bus: $((SECONDS - split_start)) s"

check_bad_args "--break" --protocol msi --caches 2 --break no-shared
check_bad_args "--break" --protocol msi --caches 2 --bus split --break no-invalidate
check_bad_args "--bus" --protocol msi --caches 2 --bus atomc
check_bad_args "--protocol" --protocol mesi --caches 2 --bus split
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
