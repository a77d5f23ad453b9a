#!/usr/bin/env bash
# fig78.sh - Figures 7-8: the mean over all programs of the I-cache (7) and
# D-cache (8) miss rate and energy for every size x associativity x line
# (the 18 configurations without way prediction, as the seed's figures;
# way prediction's energy as diamonds), each program's energy normalised to
# its own 8K_4W_32B first so every program weighs the same. Then how far
# each parameter alone moves the energy, against the seed's reading of its
# Figures 7-8 (size most, line for the D-cache, associativity least).
# jq programs and Markdown (with `code`) are single-quoted on purpose:
# shellcheck disable=SC2016
set -euo pipefail
# shellcheck source=scripts/paper/lib.sh
. "$(dirname "$0")/lib.sh"
need PAPER_OUT PAPER_DIR
load_traces
mapfile -t files < <(sweeps)
out=$(section_file 40-fig78)

# Clusters in the seed's order (8, 4, 2 KB; more ways first); lines 16/32/64.
jqp -r -s '
  include "fmt";
  def rate($c): 100 * $c.request_misses / $c.requests;
  def get($s; $n): first($s.configs[] | select(.name == $n));
  . as $all
  | ["8K_4W", "8K_2W", "8K_1W", "4K_2W", "4K_1W", "2K_1W"] as $clusters
  | ["16B", "32B", "64B"] as $lines
  | def missmean($k; $n): [$all[] | rate(get(.; $n)[$k])] | mean;
    def emean($k; $n): [$all[] | get(.; $n).energy[$k].total_nj / get(.; "8K_4W_32B").energy[$k].total_nj] | mean;
  "# cluster\tI_miss_16\tI_miss_32\tI_miss_64\tD_miss_16\tD_miss_32\tD_miss_64\tI_E_16\tI_E_32\tI_E_64\tD_E_16\tD_E_32\tD_E_64\tI_EP_16\tI_EP_32\tI_EP_64\tD_EP_16\tD_EP_32\tD_EP_64",
  ($clusters[] as $c
   | [$c]
     + [$lines[] as $l | missmean("icache"; "\($c)_\($l)") | fixed(4)]
     + [$lines[] as $l | missmean("dcache"; "\($c)_\($l)") | fixed(4)]
     + [$lines[] as $l | emean("icache"; "\($c)_\($l)") | fixed(4)]
     + [$lines[] as $l | emean("dcache"; "\($c)_\($l)") | fixed(4)]
     + [$lines[] as $l | if ($c | endswith("_1W")) then "-" else emean("icache"; "\($c)_\($l)_P") | fixed(4) end]
     + [$lines[] as $l | if ($c | endswith("_1W")) then "-" else emean("dcache"; "\($c)_\($l)_P") | fixed(4) end]
   | @tsv)' "${files[@]}" >"$PAPER_OUT/data/fig78.tsv"

plot fig78.gp fig7 "cache='I'" "title7='Figure 7: I-cache, mean over %d programs'" "nprog=${#TRACES[@]}"
plot fig78.gp fig8 "cache='D'" "title7='Figure 8: D-cache, mean over %d programs'" "nprog=${#TRACES[@]}"

# Spread of the mean normalised energy when one parameter alone changes:
# max / min over its values, the other parameters fixed, over every setting
# of the others where all its values are legal.
spread=$(jqp -r -R -s '
  include "fmt";
  [split("\n")[] | select(length > 0 and (startswith("#") | not)) | split("\t")
   | {key: .[0], value: .}] | from_entries as $t
  | def e($k; $c; $li): $t[$c][(if $k == "I" then 7 else 10 end) + $li] | tonumber;
    def ratio(xs): (xs | max) / (xs | min);
    def row($k):
      [range(0; 3) as $li | ratio([e($k; "2K_1W"; $li), e($k; "4K_1W"; $li), e($k; "8K_1W"; $li)])] as $size
      | [("8K_4W", "8K_2W", "8K_1W", "4K_2W", "4K_1W", "2K_1W") as $c | ratio([range(0; 3) as $li | e($k; $c; $li)])] as $line
      | ([range(0; 3) as $li | ratio([e($k; "8K_1W"; $li), e($k; "8K_2W"; $li), e($k; "8K_4W"; $li)])]
         + [range(0; 3) as $li | ratio([e($k; "4K_1W"; $li), e($k; "4K_2W"; $li)])]) as $assoc
      | {k: $k, size: $size, line: $line, line2k: $line[5], assoc: $assoc}
      | . + {order: ([{p: "size", v: (.size | max)}, {p: "line", v: (.line | max)}, {p: "associativity", v: (.assoc | max)}]
                     | sort_by(-.v) | map(.p) | join(" > "))};
  (row("I"), row("D")) as $r
  | "| \($r.k)-cache | \($r.size | min | fixed(2))-\($r.size | max | fixed(2))x | \($r.line | min | fixed(2))-\($r.line | max | fixed(2))x (2 KB: \($r.line2k | fixed(2))x) | \($r.assoc | min | fixed(2))-\($r.assoc | max | fixed(2))x | \($r.order) |"' \
    "$PAPER_OUT/data/fig78.tsv")

{
    printf '## Figures 7-8: miss rate and energy over size, line and associativity\n\n'
    printf 'Mean over the %d programs of the I-cache (Figure 7) and D-cache (Figure 8) miss rate (misses per request) and energy, for the %s configurations without way prediction (as the seed'"'"'s figures), grouped by size and associativity, one bar per line size. Each program'"'"'s energy is first divided by its own 8K_4W_32B energy, so every program weighs the same. Diamonds: the same configuration with way prediction on (not in the seed'"'"'s figures; with this energy model it is where the optima are, Figure 3).\n\n' "${#TRACES[@]}" "$(jq '[.configs[] | select(.way_prediction | not)] | length' "${files[0]}")"
    figure_md fig7 "Figure 7: I-cache mean miss rate and normalised energy per configuration"
    figure_md fig8 "Figure 8: D-cache mean miss rate and normalised energy per configuration"
    printf 'Commands: the per-trace sweeps of Figure 3 (raw/sweep-*.json); `scripts/paper/fig78.sh` averages with jq, `scripts/paper/fig78.gp` draws. Data: [data/fig78.tsv](data/fig78.tsv).\n\n'
    printf '**How much each parameter moves the energy** (mean normalised energy; max / min over the parameter'"'"'s values with the others fixed, range over the settings of the others: size over 2/4/8 KB at 1 way; line over 16/32/64 B in every size x ways; associativity over 1/2/4 ways at 8 KB and 1/2 at 4 KB). The seed reads its Figures 7-8 as: size moves the energy most (%sx or more), line size matters for the D-cache (most at 2 KB) and little for the I-cache, associativity least (order: size > line > associativity).\n\n' "$(pv fig7.size_ratio)"
    printf '| cache | size | line | associativity | order by largest spread |\n|---|---|---|---|---|\n'
    printf '%s\n\n' "$spread"
    printf 'Mean values (miss rate %%, energy / 8K_4W_32B):\n\n'
    printf '| configuration | I miss %% | D miss %% | I energy | D energy | I energy, way prediction | D energy, way prediction |\n|---|---:|---:|---:|---:|---:|---:|\n'
    jqp -r -R -s 'include "fmt";
      split("\n")[] | select(length > 0 and (startswith("#") | not)) | split("\t") as $r
      | range(0; 3) as $li
      | def n($i; $d): $r[$i] | if . == "-" then "-" else tonumber | fixed($d) end;
      "| \($r[0])_\(["16B", "32B", "64B"][$li]) | \(n(1 + $li; 3)) | \(n(4 + $li; 3)) | \(n(7 + $li; 3)) | \(n(10 + $li; 3)) | \(n(13 + $li; 3)) | \(n(16 + $li; 3)) |"' \
        "$PAPER_OUT/data/fig78.tsv"
    printf '\n'
} >"$out"
