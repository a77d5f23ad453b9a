#!/usr/bin/env bash
# cost.sh - what tuning itself costs, against the program's energy (seed
# 7.4: 11.9 nJ per search against 2.34 J per program on average). Ours:
#   - the default monitor tuner: its shadow-tag arrays' energy (lookups and
#     leakage, charged in the run; `hardware.monitor_nj`) per decision, and
#     the walks of the moves it makes;
#   - the seed's heuristic as hardware: the extra energy of searching (the
#     cache running in worse candidates and walking between them,
#     `hardware.search_extra_nj`) per search.
# Neither prices the tuner's own logic (the decision unit, the seed
# tuner's datapath); stcgen reports their cycle counts.
# jq programs and Markdown (with `code`) are single-quoted on purpose:
# shellcheck disable=SC2016
set -euo pipefail
# shellcheck source=scripts/paper/lib.sh
. "$(dirname "$0")/lib.sh"
need PAPER_OUT PAPER_DIR STCGEN
load_traces
raw=$PAPER_OUT/raw
out=$(section_file 85-cost)

# stcgen's own account of its tuners' compute time (the "tuner:" lines of
# --summary; the generated files go to a scratch folder, deleted after).
scratch=$PAPER_OUT/stcgen-scratch
rm -rf "$scratch"
mkdir -p "$scratch"
"$STCGEN" --summary --out "$scratch/monitor" | grep '^tuner:' >"$raw/stcgen-monitor.txt"
"$STCGEN" --tuner seed --summary --out "$scratch/seed" | grep '^tuner:' >"$raw/stcgen-seed.txt"
rm -rf "$scratch"
seed_cycles=$(sed -n 's/.*longest search (\([0-9]*\) configurations) \([0-9]*\) compute cycles.*/\2/p' "$raw/stcgen-seed.txt")
seed_configs=$(sed -n 's/.*longest search (\([0-9]*\) configurations).*/\1/p' "$raw/stcgen-seed.txt")
mon_d=$(sed -n 's/.*a decision takes \([0-9]*\) accesses.*/\1/p' "$raw/stcgen-monitor.txt")
mon_i=$(sed -n 's/.*a decision takes [0-9]* accesses (D-cache[^)]*) or \([0-9]*\) (I-cache).*/\1/p' "$raw/stcgen-monitor.txt")
for v in seed_cycles seed_configs mon_d mon_i; do
    [ -n "${!v}" ] || die "cannot read $v from stcgen --summary (raw/stcgen-*.txt): its wording changed?"
done

jqp -r -n --slurpfile m "$raw/t-hw-monitor.json" --slurpfile s "$raw/t-hw-seed.json" '
  include "fmt";
  def both($t; f): ($t.icache | f) + ($t.dcache | f);
  "# program\tprogram_nJ\tmonitor_nJ\tdecisions\tmonitor_nJ_per_decision\tmonitor_share\tmonitor_walk_nJ\tmonitor_walk_share\tseed_program_nJ\tseed_searches\tseed_extra_nJ\tseed_extra_nJ_per_search\tseed_extra_share\tseed_walk_nJ",
  (range(0; $m[0].traces | length) as $i | $m[0].traces[$i] as $a | $s[0].traces[$i] as $b
   | both($a; .run_nj.total) as $run | both($a; .hardware.monitor_nj.total) as $mon
   | both($a; .hardware.searches_started) as $dec | both($a; .hardware.walk_nj.total) as $walk
   | both($b; .run_nj.total) as $srun | both($b; .hardware.searches_started) as $ss
   | both($b; .hardware.search_extra_nj) as $sx
   | [($a.name | prog), ($run | fixed(1)), ($mon | fixed(1)), ($dec | tostring),
      ($mon / $dec | fixed(4)), ($mon / $run | fixed(6)), ($walk | fixed(1)), ($walk / $run | fixed(6)),
      ($srun | fixed(1)), ($ss | tostring), ($sx | fixed(1)), ($sx / $ss | fixed(1)),
      (if $sx > 0 then $sx / $run | fixed(6) else "-" end), (both($b; .hardware.walk_nj.total) | fixed(1))]
   | @tsv)' >"$PAPER_OUT/data/cost.tsv"

paper_ratio=$(jq -n --argjson e "$(pv tuner.search_nj)" --argjson p "$(pv program.energy_mean_j)" '$e * 1e-9 / $p')
plot cost.gp fig-cost "paper_ratio=$paper_ratio" "paper_nj=$(pv tuner.search_nj)" "paper_j=$(pv program.energy_mean_j)"

table=$(jqp -r -R -s '
  include "fmt";
  [split("\n")[] | select(length > 0 and (startswith("#") | not)) | split("\t") | map(tonumber? // .)] as $r
  | def m($i): [$r[] | .[$i]] | mean;
  "| program | program energy uJ | monitor uJ | decisions | monitor nJ / decision | monitor share | its walks share | seed hw: searches (I + D) | extra nJ / search | extra share |",
  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ($r[] | "| \(.[0]) | \(.[1] / 1000 | fixed(1)) | \(.[2] / 1000 | fixed(2)) | \(.[3]) | \(.[4] | fixed(3)) | \(100 * .[5] | fixed(2)) % | \(100 * .[7] | fixed(2)) % | \(.[9]) | \(.[11] | fixed(0)) | \(if .[12] == "-" then "negative" else "\(100 * .[12] | fixed(2)) %" end) |"),
  "| **mean** | \(m(1) / 1000 | fixed(1)) | \(m(2) / 1000 | fixed(2)) | \(m(3) | fixed(0)) | \(m(4) | fixed(3)) | \(100 * m(5) | fixed(2)) % | \(100 * m(7) | fixed(2)) % | \(m(9) | fixed(1)) | \(m(11) | fixed(0)) | \(100 * ([$r[] | .[10] / .[8]] | mean) | fixed(2)) % |",
  "| paper (seed 7.4) | \($paper["program.energy_mean_j"] * 1e6 | fixed(0)) (mean; \($paper["program.energy_min_j"] * 1e6 | fixed(0)) to \($paper["program.energy_max_j"] * 1e6 | fixed(0))) | - | one search | \($paper["tuner.search_nj"]) | \(100 * $paper["tuner.search_nj"] * 1e-9 / $paper["program.energy_mean_j"] | sci) % | - | 1 per cache | - | - |"
' "$PAPER_OUT/data/cost.tsv")

window=$(jq '.window' "$raw/t-hw-monitor.json")
ratios=$(jqp -r -R -s --argjson pr "$paper_ratio" --argjson window "$window" '
  include "fmt";
  [split("\n")[] | select(length > 0 and (startswith("#") | not)) | split("\t") | map(tonumber? // .)] as $r
  | "The seed: one search costs \($paper["tuner.search_nj"]) nJ against \($paper["program.energy_mean_j"]) J per program, a ratio of \($pr | sci). Here the monitor tuner costs \([$r[] | .[5]] | min | sci) to \([$r[] | .[5]] | max | sci) of the program'"'"'s energy (mean \([$r[] | .[5]] | mean | sci)), \(([$r[] | .[5]] | mean) / $pr | sci) times the seed'"'"'s ratio, and \([$r[] | .[4]] | mean | fixed(2)) nJ per decision, one decision every \($window) accesses of each cache; the seed'"'"'s heuristic as hardware costs \([$r[] | .[11]] | median | fixed(0)) nJ of extra cache energy per search (median; from \([$r[] | .[11]] | min | fixed(0)) to \([$r[] | .[11]] | max | fixed(0)) nJ), \(([$r[] | .[11]] | median) / $paper["tuner.search_nj"] | fixed(0)) times the seed'"'"'s \($paper["tuner.search_nj"]) nJ. Our programs are short (\([$r[] | .[1]] | min / 1000 | fixed(0)) to \([$r[] | .[1]] | max / 1000 | fixed(0)) uJ against the seed'"'"'s mean \($paper["program.energy_mean_j"]) J), which makes every fixed cost a larger share."
' "$PAPER_OUT/data/cost.tsv")

{
    printf '## What tuning costs\n\n'
    printf 'The seed'"'"'s tuner: about %s gates, %s cycles and %s nJ per search (%s mW at %s MHz), against memory-access energies of %s J to %s J per program (mean %s J). ' \
        "$(pv tuner.gates)" "$(pv tuner.cycles)" "$(pv tuner.search_nj)" "$(pv tuner.power_mw)" "$(pv tuner.clock_mhz)" \
        "$(pv program.energy_min_j)" "$(pv program.energy_max_j)" "$(pv program.energy_mean_j)"
    printf 'stc'"'"'s tuners (stcgen --summary): the seed'"'"'s heuristic in hardware computes its longest search (%s configurations) in **%s cycles** (seed: %s); the default monitor tuner takes **%s accesses** per decision for a D-cache, %s for an I-cache (one step per access). ' \
        "$seed_configs" "$seed_cycles" "$(pv tuner.cycles)" "$mon_d" "$mon_i"
    printf 'Energy: the monitor'"'"'s shadow-tag arrays are charged in every run (`hardware.monitor_nj`: lookups and leakage), and so are the walks of its moves; the seed tuner'"'"'s own logic and the monitor'"'"'s decision unit are not priced. For the seed'"'"'s heuristic as hardware the cost of tuning is the cache energy spent in worse candidates and walks while searching (`hardware.search_extra_nj`, docs/TUNING.md 3); "negative" where the program'"'"'s later phase costs more per access than its search window did.\n\n'
    printf '%s\n\n' "$ratios"
    printf '%s\n\n' "$table"
    figure_md fig-cost "Tuning cost as a share of the program's energy, log scale, against the seed's $(pv tuner.search_nj) nJ / $(pv program.energy_mean_j) J"
    printf 'Commands (`scripts/paper/cost.sh`, `cost.gp`; DIR a scratch folder, deleted; outputs [raw/stcgen-seed.txt](raw/stcgen-seed.txt), [raw/stcgen-monitor.txt](raw/stcgen-monitor.txt)):\n\n'
    printf '```\n%s --tuner seed --summary --out DIR\n%s --summary --out DIR\n```\n\n' "$STCGEN" "$STCGEN"
    commands_md t-hw-monitor t-hw-seed
    printf 'Data: [data/cost.tsv](data/cost.tsv).\n\n'
} >"$out"
