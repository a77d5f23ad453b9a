#!/usr/bin/env bash
# timeline.sh - one run over time (docs/TUNING.md 4.1, `stcsim tune
# --timeline`): the D-cache of one program (PAPER_TIMELINE, default cjpeg)
# under the default monitor tuner and under the seed's heuristic as its
# hardware runs it, a point every decision window (256 accesses): the
# energy saved against 8K_4W_32B so far, and the configuration in use.
# The whole-run optimum's saving (oracle, hindsight) is the dashed line.
# jq programs and Markdown (with `code`) are single-quoted on purpose:
# shellcheck disable=SC2016
set -euo pipefail
# shellcheck source=scripts/paper/lib.sh
. "$(dirname "$0")/lib.sh"
need PAPER_OUT PAPER_DIR TIMELINE TIMELINE_TRACE
load_traces
raw=$PAPER_OUT/raw
out=$(section_file 85-timeline)
monitor=$raw/t-timeline-monitor.json
seed=$raw/t-timeline-seed.json

# Configurations in a reading order: size, then ways, line, prediction.
jq_order='def order_key: capture("^(?<k>[0-9]+)K_(?<w>[0-9]+)W_(?<l>[0-9]+)B(?<p>_P)?$")
  | (.k | tonumber) * 100000 + (.w | tonumber) * 1000 + (.l | tonumber) * 2 + (if .p then 1 else 0 end);'

# Every configuration either run used, in that order: its row on the plot.
mapfile -t configs < <(jq -r -n --slurpfile m "$monitor" --slurpfile s "$seed" "$jq_order"'
  [($m[0], $s[0]).traces[0].dcache.timeline.points[][2]] | unique | sort_by(order_key)[]')
[ "${#configs[@]}" -gt 0 ] || die "no timeline points in $monitor"
ytics=""
for index in "${!configs[@]}"; do ytics+="${ytics:+, }\"${configs[$index]}\" $index"; done

jqp -r -n --slurpfile m "$monitor" --slurpfile s "$seed" --args '
  include "fmt";
  ($ARGS.positional | to_entries | map({(.value): .key}) | add) as $row
  | def points($run): $run.traces[0].dcache.timeline.points;
    def saved($p): if $p[5][0] > 0 then 100 * (1 - $p[4] / $p[5][0]) else 0 end;
  points($m[0]) as $pm | points($s[0]) as $ps
  | if ($pm | length) != ($ps | length) or ([$pm[][0]] != [$ps[][0]])
    then error("the two runs have different timeline points") else . end
  | "# accesses\tmonitor_saved_pct\tmonitor_row\tmonitor_config\tseed_saved_pct\tseed_row\tseed_config",
    (range(0; $pm | length) as $i
     | [($pm[$i][0] | tostring), (saved($pm[$i]) | fixed(3)), ($row[$pm[$i][2]] | tostring), $pm[$i][2],
        (saved($ps[$i]) | fixed(3)), ($row[$ps[$i][2]] | tostring), $ps[$i][2]]
     | @tsv)' "${configs[@]}" >"$PAPER_OUT/data/timeline.tsv"

optimum_saved=$(jq -r '.traces[0].dcache | 100 * (1 - .optimum_nj / .baseline_nj[0])' "$monitor")
optimum=$(jq -r '.traces[0].dcache.optimum' "$monitor")
plot timeline.gp fig-timeline "prog='$TIMELINE'" "optimum_saved=$optimum_saved" \
    "optimum='$optimum'" "rows=${#configs[@]}" "config_tics='set ytics (${ytics})'"

# What the figure shows, read back from the runs: when each tuner settled
# in its final configuration, and the saving at the end.
summary=$(jqp -r -n --slurpfile m "$monitor" --slurpfile s "$seed" '
  include "fmt";
  def story($run; $who):
    $run.traces[0].dcache as $c | $c.timeline.points as $p
    | ($p[-1][2]) as $final
    | ([range(0; $p | length) | select($p[.][2] != $final)] | last) as $last_other
    | (if $last_other == null then 0 else $p[$last_other][0] end) as $settled
    | "\($who): \($p[-1][3]) configuration changes; in \($final) from access \($settled) of \($p[-1][0]) to the end; saved \(100 * (1 - $p[-1][4] / $p[-1][5][0]) | fixed(1)) % of 8K_4W_32B'"'"'s energy over the whole run (\($c.hardware.walk_writebacks) walk writebacks)";
  "- " + story($m[0]; "**monitor (default)**"),
  "- " + story($s[0]; "**seed heuristic (hardware)**"),
  "- whole-run optimum (oracle, hindsight): \($m[0].traces[0].dcache.optimum), \(100 * (1 - $m[0].traces[0].dcache.optimum_nj / $m[0].traces[0].dcache.baseline_nj[0]) | fixed(1)) % saved"')

{
    printf '## One run over time: the search and its choice\n\n'
    printf 'The D-cache of **%s** (`%s`), tuned by the default monitor tuner (`stcgen`'"'"'s default) and by the seed'"'"'s heuristic as its hardware runs it (`stcgen --tuner seed`), a point every %s D-cache accesses (`stcsim tune --timeline`, docs/TUNING.md 4.1). Top: the energy saved against 8K_4W_32B *so far* (each run'"'"'s energy from the start to that access, walks and the monitor'"'"'s own energy included, against a plain 8K_4W_32B cache fed the same accesses); the dashed line is the whole-run optimum'"'"'s saving, which only hindsight can choose. Bottom: the configuration in use. Access counts on a log scale: the seed'"'"'s search is over in its first few thousand accesses, while the monitor keeps deciding every window for the whole run.\n\n' \
        "$TIMELINE" "$TIMELINE_TRACE" "$(jq '.traces[0].dcache.timeline.interval' "$monitor")"
    printf '%s\n\n' "$summary"
    figure_md fig-timeline "$TIMELINE, D-cache: energy saved so far and configuration over the run"
    printf 'Commands (`scripts/paper/timeline.sh`, `timeline.gp`):\n\n'
    commands_md t-timeline-monitor t-timeline-seed
    printf 'Data: [data/timeline.tsv](data/timeline.tsv); every point of both caches in the raw JSON (`timeline` of each cache).\n\n'
} >"$out"
