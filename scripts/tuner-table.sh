#!/usr/bin/env bash
# tuner-table.sh STCSIM TRACE... - how close each tuner gets to the
# whole-trace optimum (docs/TUNING.md section 6): one Markdown row per trace.
#
# Columns (energy of I- and D-cache together, whole run):
#   optimum      oracle, exhaustive: the best fixed configuration per cache,
#                saved against the conventional 8K_4W_32B-like baseline
#   oracle seed  the seed's heuristic judged on whole-trace energies
#   hw seed      `stcsim tune --mode hardware --search heuristic`: the seed's
#                heuristic as the RTL's seed tuner (stcgen --tuner seed) runs
#                it, its defaults (searches and walks included)
#   hw probe     the probe search (model only, not yet in the RTL), with
#                $PROBE_OPTS (default below)
#   hw monitor   `stcsim tune --mode hardware` with its defaults: the monitor
#                search, stcgen's default tuner (shadow tags of every set
#                mapping for a rotating sample of the sets, its own energy
#                charged), plus $MONITOR_OPTS (default none)
# Each cell: energy saved vs the baseline (%), and in brackets the loss
# against the optimum (%). Last lines: means, worst loss, traces worse than
# the baseline by more than 1 %.
#
# Environment: PROBE_OPTS  options of the probe run
#              MONITOR_OPTS options of the monitor run
#              TUNE_OPTS   options added to every run (e.g. -g ...)
set -euo pipefail

[ $# -ge 2 ] || { echo "usage: $0 STCSIM TRACE..." >&2; exit 2; }
STCSIM=$1
shift
command -v jq >/dev/null || { echo "tuner-table: jq is needed (apt-get install jq)" >&2; exit 1; }
PROBE_OPTS=${PROBE_OPTS:---search probe --probe-rounds 4 --margin 4}
MONITOR_OPTS=${MONITOR_OPTS:-}
TUNE_OPTS=${TUNE_OPTS:-}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# run NAME OPTIONS...: one stcsim tune --json over every trace.
run() {
    local name=$1
    shift
    # shellcheck disable=SC2086
    "$STCSIM" tune --json $TUNE_OPTS "$@" "${TRACES[@]}" >"$TMP/$name.json"
}
TRACES=("$@")
run oracle_seed
run hw_seed --mode hardware --search heuristic
# shellcheck disable=SC2086
run hw_probe --mode hardware $PROBE_OPTS
# shellcheck disable=SC2086
run hw_monitor --mode hardware $MONITOR_OPTS

# Per trace: optimum, run and baseline energies (I + D), examined counts.
jq -r --slurpfile seed "$TMP/oracle_seed.json" --slurpfile hw "$TMP/hw_seed.json" \
    --slurpfile probe "$TMP/hw_probe.json" --slurpfile monitor "$TMP/hw_monitor.json" -n '
  def cell($t): ($t.icache.run_nj.total + $t.dcache.run_nj.total) as $run
    | ($t.icache.baseline_nj[0] + $t.dcache.baseline_nj[0]) as $base
    | ($t.icache.optimum_nj + $t.dcache.optimum_nj) as $opt
    | {saved: (100 * (1 - $run / $base)), loss: (100 * ($run / $opt - 1)),
       opt_saved: (100 * (1 - $opt / $base)),
       examined: "\($t.icache.examined)/\($t.dcache.examined)"};
  [range(0; $seed[0].traces | length) as $i
   | {name: $seed[0].traces[$i].name,
      os: cell($seed[0].traces[$i]), hs: cell($hw[0].traces[$i]),
      hp: cell($probe[0].traces[$i]), hm: cell($monitor[0].traces[$i])}] as $rows
  | def f: (. * 10 | round / 10 | tostring);
    def c($x): "\($x.saved | f) (\($x.loss | f)) \($x.examined)";
  def mean($k): [$rows[] | .[$k].saved] | add / length | f;
  def worst($k): [$rows[] | .[$k].loss] | max | f;
  def worse($k): [$rows[] | select(.[$k].saved < -1)] | length;
  "| trace | optimum saved | oracle seed | hw seed | hw probe | hw monitor |",
  "|---|---|---|---|---|---|",
  ($rows[] | "| \(.name) | \(.os.opt_saved | f) | \(c(.os)) | \(c(.hs)) | \(c(.hp)) | \(c(.hm)) |"),
  "| mean saved | \([$rows[].os.opt_saved] | add / length | f) | \(mean("os")) | \(mean("hs")) | \(mean("hp")) | \(mean("hm")) |",
  "| worst loss vs optimum | 0 | \(worst("os")) | \(worst("hs")) | \(worst("hp")) | \(worst("hm")) |",
  "| traces > 1 % worse than the baseline | 0 | \(worse("os")) | \(worse("hs")) | \(worse("hp")) | \(worse("hm")) |"'
echo
echo "cells: energy saved vs the baseline (8K_4W_32B for the default geometry) %, (loss vs the optimum %), configurations or probe windows examined I/D in the first search (monitor: configurations estimated at each decision)"
echo "hw probe options: $PROBE_OPTS"
echo "hw monitor options: ${MONITOR_OPTS:-none (stcsim tune --mode hardware defaults: --search monitor --window 256 --margin 7 --walk-min 256)}"
