#!/usr/bin/env bash
# fig3.sh - Figure 3: per program, the energy of the optimum (each cache in
# its own best configuration, exhaustive over the 27) against the
# conventional 8K_4W_32B and 8K_1W_32B caches, normalised to 8K_4W_32B,
# I + D and per cache. The seed gives no per-program values for Figure 3;
# its Table 1 savings (heuristic choice) are marked where a program of the
# same kind exists (kinds.tsv), and its Table 1 mean as a line.
# jq programs and Markdown (with `code`) are single-quoted on purpose:
# shellcheck disable=SC2016
set -euo pipefail
# shellcheck source=scripts/paper/lib.sh
. "$(dirname "$0")/lib.sh"
need PAPER_OUT PAPER_DIR STCSIM
load_traces
mapfile -t files < <(sweeps)
out=$(section_file 20-fig3)

# One row per program. Ratios keep 6 decimals in the data file (the check
# recomputes one from stcsim's JSON), 3 on the page.
jqp -r -s --argjson kinds "$(kinds_json)" '
  include "fmt";
  def cfg($n): first(.configs[] | select(.name == $n));
  "# program\ttrace\topt_I\topt_D\topt_over_4w\tdm_over_4w\tI_opt_over_4w\tI_dm_over_4w\tD_opt_over_4w\tD_dm_over_4w\tpaper_bench\tpaper_1_minus_saved",
  (.[] | (.trace | split("/") | last | split(".")[0]) as $p
   | cfg("8K_4W_32B") as $b4 | cfg("8K_1W_32B") as $b1
   | (.configs | min_by(.energy.icache.total_nj)) as $oi
   | (.configs | min_by(.energy.dcache.total_nj)) as $od
   | ($oi.energy.icache.total_nj + $od.energy.dcache.total_nj) as $opt
   | ($kinds[$p].paper // "-") as $bench
   | [$p, .trace, $oi.name, $od.name,
      ($opt / $b4.energy.total_nj | fixed(6)),
      ($b1.energy.total_nj / $b4.energy.total_nj | fixed(6)),
      ($oi.energy.icache.total_nj / $b4.energy.icache.total_nj | fixed(6)),
      ($b1.energy.icache.total_nj / $b4.energy.icache.total_nj | fixed(6)),
      ($od.energy.dcache.total_nj / $b4.energy.dcache.total_nj | fixed(6)),
      ($b1.energy.dcache.total_nj / $b4.energy.dcache.total_nj | fixed(6)),
      $bench,
      (if $bench == "-" then "-" else (1 - $paper["t1.\($bench).saved"] / 100 | fixed(2)) end)]
   | @tsv)' "${files[@]}" >"$PAPER_OUT/data/fig3.tsv"

nconf=$(jq '.configs | length' "${files[0]}")
paper_t1=$(jq -n --argjson s "$(pv t1.mean.saved)" '1 - $s / 100')
paper_head=$(jq -n --argjson s "$(pv headline.mean_saved)" '1 - $s / 100')
plot fig3.gp fig3 "paper_t1=$paper_t1" "paper_head=$paper_head"

{
    printf '## Figure 3: the optimum against the conventional caches\n\n'
    printf 'Per program, the energy (I- and D-cache together, whole run) of the optimum -- each cache in its own best configuration of the %s, found by exhaustive search over whole-trace energies -- and of the direct-mapped 8K_1W_32B cache, both divided by the energy of the conventional 4-way 8K_4W_32B cache (the seed'"'"'s cnv4w32 and cnv1w32). Lower is better. ' "$nconf"
    printf 'The seed gives no per-program numbers for its Figure 3; the diamonds are its Table 1 savings (the heuristic'"'"'s choice, 1 - E%%) for the benchmark of the same kind (kinds.tsv: match "same kind" or "approximate"), the dashed line its Table 1 mean (1 - %s %%) and the dotted line its headline mean (1 - %s %%).\n\n' "$(pv t1.mean.saved)" "$(pv headline.mean_saved)"
    figure_md fig3 "Figure 3: energy of the optimum and of 8K_1W_32B, normalised to 8K_4W_32B (I + D), per program"
    printf 'Commands (one LRU-stack pass per trace gives all %s configurations; `scripts/paper/fig3.sh` takes the minimum per cache with jq, `scripts/paper/fig3.gp` draws):\n\n' "$nconf"
    mapfile -t names < <(for t in "${TRACES[@]}"; do echo "sweep-$(prog_of "$t")"; done)
    commands_md "${names[@]}"
    printf 'Data: [data/fig3.tsv](data/fig3.tsv).\n\n'
    printf '| program | optimum I | optimum D | optimum / 8K_4W_32B (I+D) | 8K_1W_32B / 8K_4W_32B (I+D) | I: optimum, 8K_1W_32B | D: optimum, 8K_1W_32B | paper benchmark (match) | paper Table 1: 1 - E%% |\n'
    printf '|---|---|---|---:|---:|---|---|---|---:|\n'
    jqp -r -R -s --argjson kinds "$(kinds_json)" '
      include "fmt";
      [split("\n")[] | select(length > 0 and (startswith("#") | not)) | split("\t")] as $rows
      | def n($i): tonumber | fixed(3);
      ($rows[] | "| \(.[0]) | \(.[2]) | \(.[3]) | \(.[4] | n(0)) | \(.[5] | n(0)) | \(.[6] | n(0)), \(.[7] | n(0)) | \(.[8] | n(0)), \(.[9] | n(0)) | \(if .[10] == "-" then "none" else "\(.[10]) (\($kinds[.[0]].match))" end) | \(.[11]) |"),
      "| **mean** | - | - | **\([$rows[] | .[4] | tonumber] | mean | fixed(3))** | \([$rows[] | .[5] | tonumber] | mean | fixed(3)) | \([$rows[] | .[6] | tonumber] | mean | fixed(3)), \([$rows[] | .[7] | tonumber] | mean | fixed(3)) | \([$rows[] | .[8] | tonumber] | mean | fixed(3)), \([$rows[] | .[9] | tonumber] | mean | fixed(3)) | paper mean (19 benchmarks) | \(1 - $paper["t1.mean.saved"] / 100 | fixed(2)) |",
      "| **saved vs 8K_4W_32B** | - | - | **\(100 * (1 - ([$rows[] | .[4] | tonumber] | mean)) | fixed(1)) %** (best \(100 * (1 - ([$rows[] | .[4] | tonumber] | min)) | fixed(1)) %, \([$rows[] | select(.[4] | tonumber < 1)] | length) of \($rows | length) below 1) | - | - | - | paper headline | about \($paper["headline.mean_saved"]) % mean, up to about \($paper["headline.max_saved"]) % |"
    ' "$PAPER_OUT/data/fig3.tsv"
    printf '\n'
} >"$out"
