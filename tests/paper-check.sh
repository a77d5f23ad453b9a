#!/usr/bin/env bash
# paper-check.sh PAPERDIR - check the evidence page `make paper` wrote:
#   1. complete: index.html and index.md, every figure as non-empty SVG and
#      PNG, every file the page links to, every section (the coherence one
#      with its table of the seed's trends);
#   2. filled: every table has rows, no empty cell, no nan/inf/null in a
#      table or a data file; the HTML has as many tables and images as the
#      Markdown;
#   3. true: one point of Figure 3's data (the first program's optimum
#      against 8K_4W_32B) recomputed from a fresh `stcsim --json` run, and
#      Figure 6's 8 KB point equal to the default-geometry sweep of the same
#      program, and the coherence Figure 5.13's false sharing at 32-byte
#      blocks recomputed from the same stcsim coherence runs made afresh,
#      and one point of the stc snoop figure (the first kernel, all cores
#      in 2K_1W_16B: snoop lookups per 1000 references and their energy)
#      from a fresh `stcsim coherence --stc-config` run, and the run over
#      time's last point (the monitor's D-cache saving) equal to a fresh
#      `stcsim tune --mode hardware` run without --timeline.
# STCSIM is the simulator for step 3 (default: the one the page's jobs ran,
# jobs.tsv's first command, so `make B=DIR paper-check` checks DIR's page
# with DIR's stcsim; else build/gcc/stcsim).
# Exit 0 all good, 1 a check failed, 2 bad usage.
set -euo pipefail

usage() {
    echo "usage: tests/paper-check.sh PAPERDIR   (e.g. build/paper, written by make paper)" >&2
    exit 2
}
[ $# -eq 1 ] || usage
dir=$1
[ -d "$dir" ] || { echo "paper-check: no folder '$dir' (run make paper first)" >&2; usage; }
STCSIM=${STCSIM:-$(awk -F'\t' 'NR == 1 { split($2, words, " "); print words[1] }' "$dir/jobs.tsv" 2>/dev/null || true)}
STCSIM=${STCSIM:-build/gcc/stcsim}
[ -x "$STCSIM" ] || { echo "paper-check: no stcsim at '$STCSIM' (run make, or set STCSIM)" >&2; usage; }
command -v jq >/dev/null || { echo "paper-check: jq is needed (scripts/ensure-tools.sh jq:jq)" >&2; exit 2; }

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
fails=0
fail() {
    echo "paper-check: FAIL: $*" >&2
    fails=$((fails + 1))
}
md=$dir/index.md
html=$dir/index.html

# 1. Complete.
for f in "$md" "$html"; do [ -s "$f" ] || fail "$f missing or empty"; done
[ -s "$md" ] || { echo "paper-check: cannot go on without $md" >&2; exit 1; }
for fig in fig3 fig5 fig6 fig7 fig8 fig-tuner fig-timeline fig-flush fig-cost fig-coh-size fig-coh-cores fig-coh-line fig-coh-stc-snoop; do
    if ! [ -s "$dir/$fig.svg" ] || ! grep -q '<svg' "$dir/$fig.svg"; then
        fail "$fig.svg missing, empty or not SVG"
    fi
    if ! [ -s "$dir/$fig.png" ] || [ "$(head -c 4 "$dir/$fig.png" | tail -c 3)" != PNG ]; then
        fail "$fig.png missing, empty or not PNG"
    fi
    grep -q "($fig.svg)" "$md" || fail "index.md does not show $fig.svg"
done
# every local file the page links to or shows
while read -r target; do
    [ -s "$dir/$target" ] || fail "index.md links to $target, which is missing or empty"
done < <(grep -o '](\([^)#:]*\))' "$md" | sed 's/^](//; s/)$//' | sort -u)
for heading in '## Figure 3' '## Figures 5-6' '## Figures 7-8' '## Table 1' '## The search order' \
    '## The flush contrast' '## The hardware tuner on real programs' '## One run over time' \
    '## What tuning costs' \
    '## Coherence' "## The paper's values"; do
    grep -qF -- "$heading" "$md" || fail "section '$heading' missing"
done
grep -q '^| kernel | 8K_4W_32B, uJ | each core tuned alone |' "$md" ||
    fail "the coherence section has no table of the coherent tuner against 8K_4W_32B and alone"
tuned_rows=$(awk '/^\| kernel \| 8K_4W_32B, uJ \|/ { on = 1; next } on && /^\|---/ { next }
                  on && /^\| / { n++; next } on { on = 0 } END { print n + 0 }' "$md")
[ "$tuned_rows" -ge 1 ] || fail "the coherent tuner's table has no kernel rows"
grep -q '^| Fig. 5.13, block 32 to 256 B: true sharing |' "$md" ||
    fail "the coherence section has no table of the seed's trends"

# 2. Filled. Tables: runs of lines starting with "|"; the second line is the
# separator; a table needs at least one row after it.
awk '
    /^\|/ { n++; if (n == 2) next
            line = $0; sub(/^\|/, "", line); sub(/\|[ ]*$/, "", line)
            k = split(line, c, "|")
            for (i = 1; i <= k; i++) if (c[i] ~ /^[ ]*$/) { print "line " NR ": empty cell " i; bad = 1 }
            next }
    { if (n == 1 || n == 2) { print "line " NR ": table without rows"; bad = 1 }; if (n) tables++; n = 0 }
    END { if (n) tables++; print "tables " tables > "/dev/stderr"; exit bad }' "$md" 2>"$tmp" ||
    fail "index.md has empty tables or cells (above)"
tables=$(sed -n 's/^tables //p' "$tmp")
if grep '^|' "$md" | grep -qiwE 'nan|-?inf|null|undefined'; then
    fail "a table holds nan/inf/null: $(grep '^|' "$md" | grep -iwE 'nan|-?inf|null|undefined' | head -1)"
fi
for data in fig3 fig56 fig78 tuner timeline flush cost coh-size coh-cores coh-line coh-stc-snoop; do
    f=$dir/data/$data.tsv
    [ -s "$f" ] || { fail "data/$data.tsv missing"; continue; }
    [ "$(grep -vc '^#' "$f")" -gt 0 ] || fail "data/$data.tsv has no rows"
    if grep -v '^#' "$f" | grep -qiwE 'nan|-?inf|null'; then fail "data/$data.tsv holds nan/inf/null"; fi
    awk -F'\t' '!/^#/ { for (i = 1; i <= NF; i++) if ($i == "") { bad = 1 } } END { exit bad }' "$f" ||
        fail "data/$data.tsv has an empty field"
done
[ "$(grep -c '<table>' "$html")" -eq "${tables:-0}" ] ||
    fail "index.html has $(grep -c '<table>' "$html") tables, index.md ${tables:-0}"
[ "$(grep -o '<img ' "$html" | wc -l)" -eq "$(grep -c '^!\[' "$md")" ] ||
    fail "index.html and index.md show different numbers of images"

# afresh COMMAND [OPTION]: a job's command (jobs.tsv) run again with this
# check's STCSIM in place of the page's, leaving out OPTION and its value.
afresh() {
    local drop=${2:-}
    # shellcheck disable=SC2086
    set -- $1
    shift # the page's stcsim
    local args=()
    while [ $# -gt 0 ]; do
        if [ -n "$drop" ] && [ "$1" = "$drop" ]; then shift 2; else args+=("$1"); shift; fi
    done
    "$STCSIM" "${args[@]}"
}

# 3. True. Figure 3, first program: optimum (each cache's minimum over the 27)
# over 8K_4W_32B, from a fresh stcsim run, against the data file.
row=$(grep -v '^#' "$dir/data/fig3.tsv" | head -1)
prog=$(cut -f1 <<<"$row")
trace=$(cut -f2 <<<"$row")
page=$(cut -f5 <<<"$row")
[ -f "$trace" ] || { echo "paper-check: trace $trace of data/fig3.tsv is gone (run from the repository root)" >&2; exit 2; }
fresh=$("$STCSIM" --json "$trace" | jq '
    ((.configs | map(.energy.icache.total_nj) | min) + (.configs | map(.energy.dcache.total_nj) | min))
    / (.configs[] | select(.name == "8K_4W_32B") | .energy.total_nj)')
if awk -v a="$page" -v b="$fresh" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 5e-7) }'; then
    echo "paper-check: Figure 3, $prog: optimum / 8K_4W_32B = $page on the page, $fresh from stcsim: agree"
else
    fail "Figure 3, $prog: page says $page, stcsim says $fresh"
fi
# Figure 6 at the default geometry (4 x 2048 B) is the default sweep's 8K_4W_32B.
ucurve=$(sed -n 's/^Program: \*\*\([^*]*\)\*\*.*/\1/p' "$md")
f6=$(awk -F'\t' '!/^#/ && $2 == 2048 { print $8 }' "$dir/data/fig56.tsv")
sweep=$(jq '.configs[] | select(.name == "8K_4W_32B") | .energy.total_nj / 1000' "$dir/raw/sweep-$ucurve.json" 2>/dev/null || true)
if [ -n "$f6" ] && [ -n "$sweep" ] &&
    awk -v a="$f6" -v b="$sweep" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 5e-4) }'; then
    echo "paper-check: Figure 6, $ucurve at 8 KB: $f6 uJ, the default sweep $sweep uJ: agree"
else
    fail "Figure 6, '$ucurve' at 8 KB: data '$f6' uJ, default sweep '$sweep' uJ"
fi

# Coherence, Figure 5.13 at 32-byte blocks: false-sharing misses per 1000
# references of all kernels, from the same stcsim runs made afresh.
mapfile -t coh_cmds < <(awk -F'\t' '$1 ~ /^coh-line-.*-32$/ { print $2 }' "$dir/jobs.tsv")
if [ "${#coh_cmds[@]}" -eq 0 ]; then
    fail "jobs.tsv has no coh-line-*-32 runs"
else
    for c in "${coh_cmds[@]}"; do
        afresh "$c"
    done | jq -s '([.[].total.miss_false_sharing] | add) * 1000 / ([.[].total.references] | add)' >"$tmp"
    fresh=$(cat "$tmp")
    page=$(awk -F'\t' '!/^#/ && $1 == "32 B" { print $6 }' "$dir/data/coh-line.tsv")
    if [ -n "$page" ] && awk -v a="$page" -v b="$fresh" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 5e-4) }'; then
        echo "paper-check: coherence, 32 B blocks: $page false-sharing misses per 1000 references on the page, $fresh from stcsim: agree"
    else
        fail "coherence, 32 B blocks: page says '$page' false-sharing misses per 1000 references, stcsim says '$fresh'"
    fi
fi

# The stc snoop figure: the first kernel with every core in 2K_1W_16B, from
# its job's command run afresh.
stc_cmd=$(awk -F'\t' '$1 ~ /^coh-stc-.*-2K_1W_16B$/ { print $2; exit }' "$dir/jobs.tsv")
if [ -z "$stc_cmd" ]; then
    fail "jobs.tsv has no coh-stc-*-2K_1W_16B run"
else
    kernel=$(awk -F'\t' '$1 ~ /^coh-stc-.*-2K_1W_16B$/ { sub(/^coh-stc-/, "", $1); sub(/-2K_1W_16B$/, "", $1); print $1; exit }' "$dir/jobs.tsv")
    fresh=$(afresh "$stc_cmd" | jq -r '"\(.total.snoop_lookups * 1000 / .total.references) \(.energy_nj.total.snoop / 1000)"') ||
        fresh="no energy from $STCSIM"
    page=$(awk -F'\t' '/^#/ { for (i = 2; i <= NF; i++) if ($i == "lookups_'"$kernel"'") l = i; else if ($i == "snoop_uJ_'"$kernel"'") e = i }
                      !/^#/ && $1 == "2K_1W_16B" { print $l, $e }' "$dir/data/coh-stc-snoop.tsv")
    if [ -n "$page" ] && awk -v p="$page" -v f="$fresh" 'BEGIN { split(p, a, " "); split(f, b, " ")
            d1 = a[1] - b[1]; d2 = a[2] - b[2]; if (d1 < 0) d1 = -d1; if (d2 < 0) d2 = -d2
            exit !(d1 <= 5e-4 && d2 <= 5e-5 && b[1] > 0) }'; then
        echo "paper-check: stc snoops, $kernel at 2K_1W_16B: $page (lookups per 1000 references, uJ) on the page, $fresh from stcsim: agree"
    else
        fail "stc snoops, $kernel at 2K_1W_16B: page says '$page', stcsim says '$fresh'"
    fi
fi

# The run over time: its last point is the whole run, which a run without
# --timeline reports by itself.
timeline_cmd=$(awk -F'\t' '$1 == "t-timeline-monitor" { print $2 }' "$dir/jobs.tsv")
if [ -z "$timeline_cmd" ]; then
    fail "jobs.tsv has no t-timeline-monitor run"
else
    fresh=$(afresh "$timeline_cmd" --timeline | jq '.traces[0].dcache | 100 * (1 - .run_nj.total / .baseline_nj[0])') ||
        fresh="no run from $STCSIM"
    page=$(grep -v '^#' "$dir/data/timeline.tsv" | tail -1 | cut -f2)
    if [ -n "$page" ] && awk -v a="$page" -v b="$fresh" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 5e-3) }'; then
        echo "paper-check: run over time: the monitor's D-cache saved $page % at the end of the timeline, $fresh % in a run without it: agree"
    else
        fail "run over time: the timeline ends at '$page' % saved, a run without --timeline says '$fresh'"
    fi
fi

if [ "$fails" -ne 0 ]; then
    echo "paper-check: $fails check(s) failed" >&2
    exit 1
fi
echo "paper-check: $dir complete: 13 figures (SVG + PNG), $tables tables, data and links present, no empty or nan cells"
