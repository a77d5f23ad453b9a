# scripts/lib/cpu-time.sh - CPU time of a command, for the benchmarks
# (sourced; the caller sets $work to a scratch folder).

# cpu_once CMD...: user+system seconds of one run (bash's time keyword, so
# no extra package is needed).
cpu_once() {
    local TIMEFORMAT='%U %S'
    { time "$@" >/dev/null 2>"$work/stderr"; } 2>"$work/time"
    awk '{ print $1 + $2 }' "$work/time"
}

# cpu_seconds CMD...: the best of 3 runs.
cpu_seconds() {
    local best="" t
    for _ in 1 2 3; do
        t=$(cpu_once "$@")
        if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
    done
    echo "$best"
}
