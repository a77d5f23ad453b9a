#!/usr/bin/env bash
# table1.sh - Table 1: per program the configurations chosen and the energy
# saved by the optimum (oracle, exhaustive), the seed's heuristic (oracle:
# judged on whole-trace energies, as the seed's Table 1) and the default
# hardware tuner (the monitor, its own energy and walks charged), with the
# seed's Table 1 row of the same kind of program beside (kinds.tsv).
# jq programs and Markdown (with `code`) are single-quoted on purpose:
# shellcheck disable=SC2016
set -euo pipefail
# shellcheck source=scripts/paper/lib.sh
. "$(dirname "$0")/lib.sh"
need PAPER_OUT PAPER_DIR
load_traces
raw=$PAPER_OUT/raw
out=$(section_file 50-table1)

jqp -r -n --argjson kinds "$(kinds_json)" \
    --slurpfile exh "$raw/t-oracle-exh.json" --slurpfile seed "$raw/t-oracle-seed.json" \
    --slurpfile hw "$raw/t-hw-monitor.json" '
  include "fmt";
  def s2($t): "\($t.energy_saved_percent[0] | fixed(1)) / \($t.energy_saved_percent[1] | fixed(1))";
  def pc($b; $k): "\($paper["t1.\($b).\($k)cfg"]) (\($paper["t1.\($b).\($k)ex"]))";
  [range(0; $exh[0].traces | length) as $i
   | {e: $exh[0].traces[$i], s: $seed[0].traces[$i], h: $hw[0].traces[$i]}
   | . + {p: (.e.name | prog)} | . + {k: ($kinds[.p] // {paper: "-", match: "none"})}] as $rows
  | "| program | optimum I / D | saved % | seed heuristic I (n) / D (n) | saved % | loss I / D % | hardware tuner (final) I / D | saved % | paper benchmark (match) | paper I (n) / D (n) | paper E% |",
    "|---|---|---:|---|---:|---:|---|---:|---|---|---:|",
    ($rows[] | "| \(.p) | \(.e.icache.config) / \(.e.dcache.config) | \(s2(.e)) | \(.s.icache.config) (\(.s.icache.examined)) / \(.s.dcache.config) (\(.s.dcache.examined)) | \(s2(.s)) | \(.s.icache.loss_percent | fixed(1)) / \(.s.dcache.loss_percent | fixed(1)) | \(.h.icache.hardware.final_config) / \(.h.dcache.hardware.final_config) | \(s2(.h)) | "
      + (if .k.paper == "-" then "none | - | - |"
         else "\(.k.paper) (\(.k.match)) | \(pc(.k.paper; "i")) / \(pc(.k.paper; "d")) | \($paper["t1.\(.k.paper).saved"]) |" end)),
    "| **mean** | - | **\([$rows[].e.energy_saved_percent[0]] | mean | fixed(1)) / \([$rows[].e.energy_saved_percent[1]] | mean | fixed(1))** | examined \([$rows[].s.icache.examined] | mean | fixed(1)) / \([$rows[].s.dcache.examined] | mean | fixed(1)) | **\([$rows[].s.energy_saved_percent[0]] | mean | fixed(1)) / \([$rows[].s.energy_saved_percent[1]] | mean | fixed(1))** | \([$rows[].s.icache.loss_percent] | mean | fixed(1)) / \([$rows[].s.dcache.loss_percent] | mean | fixed(1)) | - | **\([$rows[].h.energy_saved_percent[0]] | mean | fixed(1)) / \([$rows[].h.energy_saved_percent[1]] | mean | fixed(1))** | paper mean (\($paper["t1.benchmarks"]) benchmarks) | examined \($paper["t1.mean.iex"]) / \($paper["t1.mean.dex"]) | \($paper["t1.mean.saved"]) |"
' >"$PAPER_OUT/data/table1.md"

# Findings of the table, against the seed's own statements (7.2, 7.6).
facts=$(jqp -r -n --slurpfile exh "$raw/t-oracle-exh.json" --slurpfile seed "$raw/t-oracle-seed.json" '
  include "fmt";
  ($exh[0].traces | length) as $n
  | [$exh[0].traces[] | .icache.config, .dcache.config] as $opt
  | [$paper | to_entries[] | select(.key | test("^t1\\.[a-z0-9]+\\.[id]cfg$")) | .value] as $pcfg
  | ($paper["t1.benchmarks"]) as $pn
  | "- The heuristic (seed order, oracle) finds the optimum of \([$seed[0].traces[] | select(.icache.optimum_found)] | length) of \($n) I-caches and \([$seed[0].traces[] | select(.dcache.optimum_found)] | length) of \($n) D-caches; the paper: \($pn) of \($pn) I-caches and \($pn - $paper["t1.missed"]) of \($pn) D-caches. Its worst loss against the optimum: \([$seed[0].traces[] | .icache.loss_percent, .dcache.loss_percent] | max | fixed(1)) % (paper: \($paper["t1.pjpeg.loss"]) %, pjpeg D).",
    "- It examines \([$seed[0].traces[].icache.examined] | mean | fixed(1)) (I) and \([$seed[0].traces[].dcache.examined] | mean | fixed(1)) (D) configurations on average of \($paper["configs.all"]) (paper: \($paper["t1.mean.iex"]) and \($paper["t1.mean.dex"])).",
    "- Direct-mapped optima: \([$opt[] | select(test("_1W_"))] | length) of \($opt | length) caches (paper Table 1: \([$pcfg[] | select(test("_1W_"))] | length) of \($pcfg | length) chosen configurations are direct-mapped). With way prediction: \([$opt[] | select(endswith("_P"))] | length) of \($opt | length) (paper: \($paper["t1.wp_chosen"]) of \($pcfg | length)).",
    "- Performance: cycles of the optimum against 8K_4W_32B (I + D; positive = slower): mean \([$exh[0].traces[].cycles_lost_percent] | mean | fixed(2)) %, worst \([$exh[0].traces[].cycles_lost_percent] | max | fixed(2)) % (\($exh[0].traces | max_by(.cycles_lost_percent) | .name | prog)), \([$exh[0].traces[] | select(.cycles_lost_percent > $paper["headline.perf_loss"])] | length) of \($n) above \($paper["headline.perf_loss"]) %; the paper: usually below \($paper["headline.perf_loss"]) %."
')

{
    printf '## Table 1: chosen configurations and energy saved\n\n'
    printf 'Per program: the optimum (oracle, exhaustive: every configuration judged on the whole trace), the seed'"'"'s heuristic (oracle: the seed order size, line, associativity, way prediction, ascending; what the seed'"'"'s Table 1 reports; in brackets the configurations examined), and the default hardware tuner (`--mode hardware`: the monitor tuner of stcgen, the trace driving the cache, its own energy and every walk charged; its final configuration). Saved %%: energy (I + D, whole run) saved against 8K_4W_32B / against 8K_1W_32B. Loss: how much more each cache costs than its optimum. '
    printf 'The seed'"'"'s row of the same kind of program is beside (kinds.tsv says why each match is "same kind" or only "approximate"); the seed does not say which conventional cache its E%% is measured against.\n\n'
    cat "$PAPER_OUT/data/table1.md"
    printf '\n%s\n\n' "$facts"
    printf 'Commands:\n\n'
    commands_md t-oracle-exh t-oracle-seed t-hw-monitor
    printf 'The seed'"'"'s rows without a program of ours: %s (all rows: section "The paper'"'"'s values").\n\n' \
        "$(jq -r -n --argjson k "$(kinds_json)" --argjson p "$(paper_json)" '
            ([$k[].paper] | unique) as $used
            | [$p | keys[] | select(test("^t1\\.[a-z0-9]+\\.saved$")) | split(".")[1] | select(. != "mean")
               | select(. as $b | $used | index($b) | not)] | join(", ")')"
} >"$out"
