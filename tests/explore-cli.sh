#!/bin/bash
# `stcsim explore` (docs/EXPLORER.md): bad input exits non-zero with a
# message naming the option or file and nothing on stdout; a small real run
# on the project's traces gives the same JSON for --jobs 1 and --jobs 2,
# the plain stcsim sweep's cheapest configurations, a front no point of
# which is dominated, stcgen commands that stcgen accepts (and refuses
# for every geometry the explorer skipped), and the front's figure
# (scripts/explore-plot.sh).
# Usage: explore-cli.sh STCSIM STCGEN [TRACES_DIR]   (default build/traces)
set -u
STCSIM=${1:?usage: explore-cli.sh STCSIM STCGEN [TRACES_DIR]}
STCGEN=${2:?usage: explore-cli.sh STCSIM STCGEN [TRACES_DIR]}
TRACES=${3:-build/traces}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); }

# expect_error NAME STATUS EXPECTED-STDERR-SUBSTRING -- explore arguments...
expect_error() {
    local name=$1 want_status=$2 expected=$3
    shift 4
    local status=0
    "$STCSIM" explore "$@" >"$work/out" 2>"$work/err" </dev/null || status=$?
    if [ "$status" -ne "$want_status" ]; then
        fail "$name: exit status $status, want $want_status"; cat "$work/err"; return
    fi
    if [ -s "$work/out" ]; then
        fail "$name: wrote to stdout:"; head -3 "$work/out"; return
    fi
    if ! grep -qF -- "$expected" "$work/err"; then
        fail "$name: stderr lacks '$expected':"; cat "$work/err"; return
    fi
    pass
}

traces=()
for trace in "$TRACES"/*.lackey.zst; do
    case $trace in *.main.*) continue ;; esac
    [ -f "$trace" ] && [ "${#traces[@]}" -lt 3 ] && traces+=("$trace")
done
[ "${#traces[@]}" -ge 2 ] || { echo "explore-cli: no traces in $TRACES (make traces)" >&2; exit 1; }
t0=${traces[0]}
printf 'I  0400a000,4\n L 0800fff0\n' >"$work/bad.lackey"
printf 'I  0400a000,4\n' >"$work/good.lackey"
sed 's/banks=4 /banks=8 /' energy/default-0.18um.txt >"$work/other-geometry.txt"

expect_error no-trace       2 "no trace given"             --
expect_error unknown        2 "unknown option '--bogus'"   -- --bogus "$t0"
expect_error banks-3        2 "--banks '3'"                -- --banks 3 "$t0"
expect_error banks-64       2 "--banks '2,64'"             -- --banks 2,64 "$t0"
expect_error banks-empty    2 "--banks '4,,8'"             -- --banks 4,,8 "$t0"
expect_error banks-word     2 "--banks 'four'"             -- --banks four "$t0"
expect_error bank-bytes     2 "--bank-bytes '1000'"        -- --bank-bytes 1000 "$t0"
expect_error line-bytes     2 "--line-bytes '2'"           -- --line-bytes 2 "$t0"
expect_error wp             2 "--wp 'maybe'"               -- --wp maybe "$t0"
expect_error jobs-0         2 "--jobs '0'"                 -- --jobs 0 "$t0"
expect_error limit-0        2 "--limit '0'"                -- --limit 0 "$t0"
expect_error format         2 "--format 'xyz'"             -- --format xyz "$t0"
expect_error missing-value  2 "option --banks needs a value" -- "$t0" --banks
expect_error geometry-range 2 "give them with --banks"     -- -g banks=8 "$t0"
expect_error geometry-bad   2 "--geometry: "               -- -g addr_bits=99 "$t0"
expect_error stdin          2 "standard input (-)"         -- -
expect_error area-trace     2 "--area-only takes no trace" -- --area-only "$t0"
expect_error all-skipped    2 "no geometry left"           -- --banks 4 --bank-bytes 512 --line-bytes 32 "$t0"
expect_error energy-missing 2 "--energy: $work/none.txt"   -- --energy "$work/none.txt" "$t0"
expect_error energy-other   2 "names no explored geometry" -- --banks 4 --bank-bytes 2048 --line-bytes 16 --energy "$work/other-geometry.txt" "$t0"
expect_error energy-partial 2 "no table for geometry b4_2k_l32_a32" -- --banks 4 --bank-bytes 2048 --line-bytes 16,32 --energy energy/default-0.18um.txt "$t0"
expect_error trace-missing  1 "$work/none.lackey"          -- --banks 4 "$t0" "$work/none.lackey"
expect_error trace-bad      1 "bad.lackey:2:"              -- --jobs 2 --banks 2,4 "$work/good.lackey" "$work/bad.lackey" "$t0"

# --help: usage on stdout, status 0.
if "$STCSIM" explore --help >"$work/help" 2>&1 && grep -q "usage: stcsim explore" "$work/help"; then
    pass
else
    fail "--help"
fi

# A small real run: identical JSON for 1 and 2 workers, nothing on stderr
# (no progress line when stderr is not a terminal).
# shellcheck disable=SC2054  # the commas are the lists' own
range=(--banks 1,2,4 --bank-bytes 1024,2048 --line-bytes 16,32 --limit 100000)
"$STCSIM" explore "${range[@]}" --jobs 1 --json "${traces[@]}" >"$work/j1.json" 2>"$work/j1.err" || fail "run --jobs 1"
"$STCSIM" explore "${range[@]}" --jobs 2 --json "${traces[@]}" >"$work/j2.json" 2>"$work/j2.err" || fail "run --jobs 2"
if cmp -s "$work/j1.json" "$work/j2.json"; then pass; else fail "--jobs 1 and --jobs 2 differ"; fi
if [ ! -s "$work/j1.err" ] && [ ! -s "$work/j2.err" ]; then pass; else fail "stderr not empty"; cat "$work/j2.err"; fi
"$STCSIM" explore "${range[@]}" "${traces[@]}" >"$work/table.txt" 2>/dev/null || fail "table run"
if grep -q "^Pareto front" "$work/table.txt"; then pass; else fail "table: no front"; fi

# 11 geometries with prediction, 11 without (b1 _nowp is the same cache:
# skipped with a reason).
if jq -e '(.geometries | length) == 20 and (.skipped | length) == 4
          and (.traces | length) == 3 and all(.traces[]; .references == 100000)
          and (.front | length) >= 2 and all(.front[]; .stcgen | startswith("stcgen --banks"))' \
    "$work/j1.json" >/dev/null; then
    pass
else
    fail "json shape"; jq -c '{g: (.geometries | length), s: (.skipped | length), f: (.front | length)}' "$work/j1.json"
fi

# The front: marked on its geometries, sorted by area, none dominated by
# any geometry; every geometry off it dominated by one on it.
if jq -e '
    [.geometries[] | {n: .name, e: .total.energy_nj, a: .area.total_um2, f: .on_front}] as $g
    | ([$g[] | select(.f) | .n] | sort) == ([.front[].name] | sort)
      and ([.front[].area_um2] == ([.front[].area_um2] | sort))
      and all($g[] | select(.f); . as $p | all($g[]; (.e <= $p.e and .a <= $p.a and (.e < $p.e or .a < $p.a)) | not))
      and all($g[] | select(.f | not); . as $p | any($g[] | select(.f); .e <= $p.e and .a <= $p.a))' \
    "$work/j1.json" >/dev/null; then
    pass
else
    fail "front is not the Pareto front"
fi

# The cheapest configuration of each cache equals plain stcsim's sweep of
# that geometry (same trace, same limit), with and without prediction.
"$STCSIM" -g banks=2,bank_bytes=1024,line_bytes=32 --limit 100000 --json "${traces[1]}" >"$work/plain.json" ||
    fail "plain stcsim"
for wp in true false; do
    if jq -e -n --slurpfile x "$work/j1.json" --slurpfile p "$work/plain.json" --argjson wp "$wp" '
        ($p[0].configs | map(select($wp or (.way_prediction | not)))) as $c
        | ($c | min_by(.energy.icache.total_nj)) as $i | ($c | min_by(.energy.dcache.total_nj)) as $d
        | ($x[0].geometries[] | select(.banks == 2 and .bank_bytes == 1024 and .line_bytes == 32
                                       and .way_prediction == $wp) | .per_trace[1]) as $e
        | $e.icache.config == $i.name and $e.dcache.config == $d.name
          and $e.icache.energy_nj == $i.energy.icache.total_nj
          and $e.dcache.energy_nj == $d.energy.dcache.total_nj' >/dev/null; then
        pass
    else
        fail "explore and plain stcsim disagree (way prediction $wp)"
    fi
done

# stcgen accepts every front point's command, and refuses every skipped
# geometry that stcgen itself refuses.
"$STCSIM" explore --area-only --json --banks 1,8 --bank-bytes 512 --line-bytes 16,32 >"$work/area.json" ||
    fail "--area-only"
i=0
while IFS= read -r command; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    if "$STCGEN" ${command#stcgen } --out "$work/gen$i" >/dev/null 2>"$work/gen.err"; then pass; else fail "stcgen refused: $command"; cat "$work/gen.err"; fi
    rm -rf "$work/gen$i"
done < <(jq -r '.front[].stcgen' "$work/j1.json")
while IFS=$'\t' read -r command reason; do
    case $reason in "stcgen refuses"*) ;; *) continue ;; esac
    i=$((i + 1))
    # shellcheck disable=SC2086
    if "$STCGEN" ${command#stcgen } --out "$work/gen$i" >/dev/null 2>&1; then fail "stcgen accepted a skipped geometry: $command"; else pass; fi
    rm -rf "$work/gen$i"
done < <(jq -r '.skipped[] | [.stcgen, .reason] | @tsv' "$work/area.json")

# --energy with the default geometry's table file: the same energies.
if ! "$STCSIM" explore --banks 4 --bank-bytes 2048 --line-bytes 16 --limit 50000 --json "$t0" >"$work/e1.json" ||
    ! "$STCSIM" explore --banks 4 --bank-bytes 2048 --line-bytes 16 --limit 50000 --json \
        --energy energy/default-0.18um.txt "$t0" >"$work/e2.json"; then
    fail "--energy run"
fi
if jq -e -n --slurpfile a "$work/e1.json" --slurpfile b "$work/e2.json" '
    [$a[0].geometries[].total.energy_nj] == [$b[0].geometries[].total.energy_nj]
    and all($b[0].geometries[]; .energy_table | endswith("default-0.18um.txt"))' >/dev/null; then
    pass
else
    fail "--energy with the default table changed the energies"
fi

# --tuned: the tuner's twin where it is modelled, exactly stcsim tune
# --mode hardware (whose JSON rounds to 0.1 nJ); a reason where it is not.
if "$STCSIM" explore --tuned --banks 4 --bank-bytes 2048 --line-bytes 16 --limit 50000 --json "$t0" >"$work/t.json" &&
    "$STCSIM" tune --mode hardware --limit 50000 --json "$t0" >"$work/tune.json" &&
    jq -e -n --slurpfile x "$work/t.json" --slurpfile h "$work/tune.json" '
        ($h[0].traces[0] | .icache.run_nj.total + .dcache.run_nj.total) as $hw
        | $x[0].tuned
        and all($x[0].geometries[] | select(.way_prediction);
                (.per_trace[0].tuned.energy_nj - $hw | fabs) < 0.2 and .total.tuned_nj == .per_trace[0].tuned.energy_nj)
        and all($x[0].geometries[] | select(.way_prediction | not);
                .total.tuned_nj == null and (.total.tuned_unavailable | length) > 0 and .per_trace[0].tuned == null)' \
        >/dev/null; then
    pass
else
    fail "--tuned differs from stcsim tune --mode hardware"
fi

# The figure (scripts/explore-plot.sh, gnuplot; make test installs it for
# the paper): an SVG, the same bytes twice, every front point numbered
# (the numbers that are not powers of two, which the log axes' ticks
# could also print); bad usage refused with exit 2 and no file.
plot=scripts/explore-plot.sh
if "$STCSIM" explore --banks 1,2,4 --bank-bytes 1024,2048 --limit 50000 --json "${traces[@]}" \
    >"$work/plot.json" && "$plot" "$work/plot.json" "$work/a.svg" && "$plot" "$work/plot.json" "$work/b.svg" &&
    cmp -s "$work/a.svg" "$work/b.svg" && grep -q '<svg' "$work/a.svg" &&
    grep -q 'Which cache to generate' "$work/a.svg"; then
    labels_ok=1
    for ((k = 3; k <= $(jq '.front | length' "$work/plot.json"); k++)); do
        ((k & (k - 1))) || continue
        grep -q "<text>$k</text>" "$work/a.svg" || { labels_ok=0; fail "plot: front point $k not numbered"; }
    done
    [ "$labels_ok" -eq 1 ] && pass
else
    fail "plot: scripts/explore-plot.sh on an explore report"
fi
"$STCSIM" --json -c 8K_4W_32B --limit 1000 "$t0" >"$work/not-explore.json" 2>/dev/null
for bad in "$work/plot.json $work/c.txt" "$work/missing.json $work/c.svg" "$work/not-explore.json $work/c.svg"; do
    status=0
    # shellcheck disable=SC2086
    "$plot" $bad >/dev/null 2>"$work/err" || status=$?
    if [ "$status" -eq 2 ] && [ -s "$work/err" ] && [ ! -e "$work/c.svg" ] && [ ! -e "$work/c.txt" ]; then
        pass
    else
        fail "plot $bad: exit $status, want 2 with a message and no file"
    fi
done

echo "explore-cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
