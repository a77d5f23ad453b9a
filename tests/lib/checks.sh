# tests/lib/checks.sh - the pass/fail helpers of the shell test scripts,
# sourced by them. The caller sets `work` (a scratch folder), `passed=0`
# and `failed=0`, and prints "NAME: $passed passed, $failed failed" at
# the end. Each check keeps its command's output in $work/log and shows
# its first 30 lines on failure.
# shellcheck shell=bash disable=SC2154

# fail NAME: count a failure and show the log.
fail() {
    echo "FAIL $1"
    failed=$((failed + 1))
    if [ -s "$work/log" ]; then sed -n '1,30s/^/    /p' "$work/log"; fi
}

# check NAME COMMAND...: passes when the command succeeds.
check() {
    local name=$1
    shift
    : >"$work/log"
    if "$@" >"$work/log" 2>&1; then
        passed=$((passed + 1))
    else
        fail "$name"
    fi
}

# quiet NAME COMMAND...: passes when the command exits 0 and prints nothing.
quiet() {
    local name=$1
    shift
    if "$@" >"$work/log" 2>&1 && [ ! -s "$work/log" ]; then
        passed=$((passed + 1))
    else
        fail "$name"
    fi
}

# sim NAME PATTERN COMMAND...: passes when the command exits 0 and its output
# holds PATTERN and no FAIL.
sim() {
    local name=$1 pattern=$2
    shift 2
    if "$@" >"$work/log" 2>&1 && grep -q -- "$pattern" "$work/log" && ! grep -q FAIL "$work/log"; then
        passed=$((passed + 1))
    else
        fail "$name"
    fi
}
