#!/usr/bin/env bash
# tuner.sh - the hardware tuner on the real programs (docs/TUNING.md 6, the
# table of `make bench-tuner`, same arithmetic as scripts/tuner-table.sh):
# per program the energy saved against 8K_4W_32B by the optimum, the seed's
# heuristic judged on whole traces (oracle), the seed's heuristic as its
# hardware runs it, the probe search and the default monitor tuner, and each
# one's loss against the optimum. Bar chart + table.
# jq programs and Markdown (with `code`) are single-quoted on purpose:
# shellcheck disable=SC2016
set -euo pipefail
# shellcheck source=scripts/paper/lib.sh
. "$(dirname "$0")/lib.sh"
need PAPER_OUT PAPER_DIR
load_traces
raw=$PAPER_OUT/raw
out=$(section_file 80-tuner)

args=()
for run in oracle-exh oracle-seed hw-seed hw-probe hw-monitor; do args+=(--slurpfile "${run//-/_}" "$raw/t-$run.json"); done

# saved: stcsim's own energy_saved_percent (1 - run / baseline); loss = run /
# optimum - 1, from the per-cache energies (6 significant digits in the
# JSON: enough for one decimal); I + D, whole run.
jqp -r -n "${args[@]}" '
  include "fmt";
  def run($t): $t.icache.run_nj.total + $t.dcache.run_nj.total;
  def opt($t): $t.icache.optimum_nj + $t.dcache.optimum_nj;
  def saved($t): $t.energy_saved_percent[0];
  def loss($t): 100 * (run($t) / opt($t) - 1);
  "# program\toptimum_saved\toracle_seed_saved\thw_seed_saved\thw_probe_saved\thw_monitor_saved\toracle_seed_loss\thw_seed_loss\thw_probe_loss\thw_monitor_loss\tex_oracle_seed\tex_hw_seed\tex_hw_probe\tex_hw_monitor",
  (range(0; $oracle_seed[0].traces | length) as $i
   | [$oracle_seed[0].traces[$i], $hw_seed[0].traces[$i], $hw_probe[0].traces[$i], $hw_monitor[0].traces[$i]] as $ts
   | [($ts[0].name | prog), ($oracle_exh[0].traces[$i].energy_saved_percent[0] | fixed(4))]
     + [$ts[] | saved(.) | fixed(4)] + [$ts[] | loss(.) | fixed(4)]
     + [$ts[] | "\(.icache.examined)/\(.dcache.examined)"]
   | @tsv)' >"$PAPER_OUT/data/tuner.tsv"

plot tuner.gp fig-tuner "paper_t1=$(pv t1.mean.saved)"

table=$(jqp -r -R -s '
  include "fmt";
  [split("\n")[] | select(length > 0 and (startswith("#") | not)) | split("\t") | map(tonumber? // .)] as $r
  | def c($row; $k): "\($row[$k] | fixed(1)) (\($row[$k + 4] | fixed(1))) \($row[$k + 8])";
    def mean_of($k): [$r[] | .[$k]] | mean | fixed(1);
    def worst($k): [$r[] | .[$k + 4]] | max | fixed(1);
    def worse($k): [$r[] | select(.[$k] < -1)] | length;
  "| program | optimum saved | oracle seed | hw seed | hw probe | hw monitor (default) |",
  "|---|---:|---:|---:|---:|---:|",
  ($r[] | . as $row | "| \(.[0]) | \(.[1] | fixed(1)) | \(c($row; 2)) | \(c($row; 3)) | \(c($row; 4)) | \(c($row; 5)) |"),
  "| **mean saved** | \(mean_of(1)) | \(mean_of(2)) | \(mean_of(3)) | \(mean_of(4)) | **\(mean_of(5))** |",
  "| worst loss vs optimum | 0.0 | \(worst(2)) | \(worst(3)) | \(worst(4)) | \(worst(5)) |",
  "| programs > 1 % worse than 8K_4W_32B | 0 | \(worse(2)) | \(worse(3)) | \(worse(4)) | \(worse(5)) |",
  "| paper Table 1 (heuristic, oracle) | - | \($paper["t1.mean.saved"]) (\($paper["t1.benchmarks"]) benchmarks) | - | - | - |"
' "$PAPER_OUT/data/tuner.tsv")

{
    printf '## The hardware tuner on real programs\n\n'
    printf 'Energy (I + D, whole run) saved against 8K_4W_32B, per tuner: the optimum (oracle, exhaustive); *oracle seed*: the seed'"'"'s heuristic on whole-trace energies (what the seed'"'"'s Table 1 reports); *hw seed*: the same heuristic as its hardware (`stcgen --tuner seed`) runs it, measuring windows of the running program, walks included; *hw probe*: the probe search (model only); *hw monitor*: the default tuner of `stcgen` (shadow tags, a decision every %s accesses, its own energy charged). Cells: saved %% (loss against the optimum %%) configurations examined I/D in the first search (monitor: estimated at each decision; probe: probe windows). The same table as `make bench-tuner`. The dashed line is the seed'"'"'s Table 1 mean, which is the oracle heuristic'"'"'s saving on the seed'"'"'s programs and energy model.\n\n' "$(jq '.window' "$raw/t-hw-monitor.json")"
    figure_md fig-tuner "Energy saved against 8K_4W_32B per program and tuner"
    printf '%s\n\n' "$table"
    printf 'Commands (`scripts/paper/tuner.sh`, `tuner.gp`):\n\n'
    commands_md t-oracle-exh t-oracle-seed t-hw-seed t-hw-probe t-hw-monitor
    printf 'Data: [data/tuner.tsv](data/tuner.tsv).\n\n'
} >"$out"
