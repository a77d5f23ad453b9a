#!/usr/bin/env bash
# fig56.sh - Figures 5-6: one program over cache sizes 1 KB .. 64 KB (4 banks
# of 256 B .. 16 KB, `stcsim -g bank_bytes=...`), the miss rate (Figure 5)
# and the on-chip, off-chip and total energy (Figure 6, the U-curve), for
# the conventional organisation (all 4 banks, 4 ways, 32 B lines) and,
# dashed, direct-mapped.
#
# Why gzip (the default; PAPER_UCURVE picks another): the seed's Figures
# 5-6 use parser, a SPEC CPU2000 program; gzip is the one SPEC CPU2000
# program among ours (164.gzip), and a real program (Debian's build), not a
# kernel. The page states whether its minimum lies inside the range.
# jq programs and Markdown (with `code`) are single-quoted on purpose:
# shellcheck disable=SC2016
set -euo pipefail
# shellcheck source=scripts/paper/lib.sh
. "$(dirname "$0")/lib.sh"
need PAPER_OUT PAPER_DIR UCURVE UCURVE_TRACE
load_traces
out=$(section_file 30-fig56)
mapfile -t names < <(awk -F'\t' '$1 ~ /^geo-/ { print $1 }' "$PAPER_OUT/jobs.tsv")
[ "${#names[@]}" -gt 2 ] || die "no geo-* jobs"
files=()
for n in "${names[@]}"; do files+=("$PAPER_OUT/raw/$n.json"); done

# On-chip: probes, leakage, walks. Off-chip: misses and writebacks, which
# include the processor's stall and the block fill (docs/ENERGY.md 1).
jqp -r -s '
  include "fmt";
  def rate($c): 100 * $c.request_misses / $c.requests;
  "# size_kib\tbank_bytes\tconfig\tI_miss_pct\tD_miss_pct\tonchip_uJ\toffchip_uJ\ttotal_uJ\tdm_config\tdm_I_miss_pct\tdm_D_miss_pct\tdm_total_uJ\thit_nJ\tmiss_nJ\tstatic_nJ_per_cycle",
  (.[] | (.geometry.banks * .geometry.bank_bytes) as $size
   | [.configs[] | select(.size_bytes == $size and .line_bytes == 32 and (.way_prediction | not))] as $full
   | first($full[] | select(.ways == 4)) as $c
   | first($full[] | select(.ways == 1)) as $d
   | [($size / 1024 | fixed(0)), (.geometry.bank_bytes | tostring), $c.name,
      (rate($c.icache) | fixed(4)), (rate($c.dcache) | fixed(4)),
      (($c.energy.icache.probe_nj + $c.energy.icache.static_nj + $c.energy.icache.reconfig_nj
        + $c.energy.dcache.probe_nj + $c.energy.dcache.static_nj + $c.energy.dcache.reconfig_nj) / 1000 | fixed(3)),
      (($c.energy.icache.miss_nj + $c.energy.icache.writeback_nj
        + $c.energy.dcache.miss_nj + $c.energy.dcache.writeback_nj) / 1000 | fixed(3)),
      ($c.energy.total_nj / 1000 | fixed(3)),
      $d.name, (rate($d.icache) | fixed(4)), (rate($d.dcache) | fixed(4)),
      ($d.energy.total_nj / 1000 | fixed(3)),
      ($c.energy.icache.probe_nj / $c.icache.accesses | fixed(5)),
      ($c.energy.icache.miss_nj / $c.icache.misses | fixed(3)),
      ($c.energy.icache.static_nj / $c.icache.cycles | fixed(7))]
   | @tsv)' "${files[@]}" >"$PAPER_OUT/data/fig56.tsv"

rows=$(grep -vc '^#' "$PAPER_OUT/data/fig56.tsv")
[ "$rows" -eq "${#names[@]}" ] || die "fig56: $rows rows for ${#names[@]} geometries"
parser_kb=$(pv fig6.parser_min_kb)
plot fig5.gp fig5 "paper_kb=$parser_kb" "prog='$UCURVE'"
plot fig6.gp fig6 "paper_kb=$parser_kb" "prog='$UCURVE'"

# The minima, read back from the data file.
summary=$(jqp -r -R -s '
  include "fmt";
  [split("\n")[] | select(length > 0 and (startswith("#") | not)) | split("\t")] as $r
  | ($r | min_by(.[7] | tonumber)) as $m | ($r | min_by(.[11] | tonumber)) as $dm
  | ($r | map(.[0] | tonumber)) as $sizes
  | "The total energy of the 4-way organisation is lowest at **\($m[0]) KB** (\($m[7] | tonumber | fixed(1)) uJ; \($r[0][0]) KB: \($r[0][7] | tonumber | fixed(1)) uJ, \($r[-1][0]) KB: \($r[-1][7] | tonumber | fixed(1)) uJ), "
    + "the direct-mapped one at **\($dm[0]) KB**; the paper'"'"'s parser at \($paper["fig6.parser_min_kb"]) KB. "
    + "The 4-way minimum lies \(if ($m[0] | tonumber) > ($sizes | min) and ($m[0] | tonumber) < ($sizes | max) then "inside the measured range: the U-curve is there" else "at an edge of the measured range: no U-curve in this range" end). "
    + "D-cache miss rate (4-way): \($r[0][4] | tonumber | fixed(2)) % at \($r[0][0]) KB, \($m[4] | tonumber | fixed(2)) % at the minimum, \($r[-1][4] | tonumber | fixed(2)) % at \($r[-1][0]) KB."
' "$PAPER_OUT/data/fig56.tsv")

# The range, from the runs' own geometries.
range=$(jq -r -n --slurpfile lo "${files[0]}" --slurpfile hi "${files[-1]}" '
  ($lo[0].geometry) as $a | ($hi[0].geometry) as $b
  | "Sizes are \($a.banks) banks of \($a.bank_bytes) B to \($b.banks) banks of \($b.bank_bytes) B (\($a.banks * $a.bank_bytes / 1024) KB to \($b.banks * $b.bank_bytes / 1024) KB, `-g banks=\($a.banks),bank_bytes=...`); the largest bank has \($b.bank_bytes / $b.line_bytes) rows of \($b.line_bytes) B, the tallest the default energy model prices (docs/ENERGY.md 3.7), so no larger size is measured."')

{
    printf '## Figures 5-6: miss rate and energy over cache size (the U-curve)\n\n'
    printf 'Program: **%s** (`%s`). The seed uses parser, a SPEC CPU2000 program, from %s KB to %s KB; gzip is the one SPEC CPU2000 program among ours (164.gzip) and a real program, not a kernel. ' \
        "$UCURVE" "$UCURVE_TRACE" "$(pv fig5.min_kb)" "$(pv fig5.max_kb)"
    printf '%s ' "$range"
    printf 'Each size is the whole cache powered, 4 ways and 32 B lines (the conventional organisation scaled), and direct-mapped with 32 B lines (dashed). '
    printf 'On-chip energy = probes + leakage (+ walks, none here); off-chip = misses + writebacks, each including the processor'"'"'s stall cycles and the block fill (docs/ENERGY.md 1). The dashed vertical line is the paper'"'"'s parser minimum.\n\n'
    printf '%s\n\n' "$summary"
    figure_md fig5 "Figure 5: $UCURVE, I- and D-cache miss rate over cache size"
    figure_md fig6 "Figure 6: $UCURVE, on-chip, off-chip and total energy (I + D) over cache size"
    printf 'Commands (`scripts/paper/fig56.sh`, `fig5.gp`, `fig6.gp`):\n\n'
    commands_md "${names[@]}"
    printf 'Data: [data/fig56.tsv](data/fig56.tsv). The energy table of each geometry is the default model scaled to it; the last three columns show what the runs were charged (4-way, I-cache: energy per probe, per 32 B miss, leakage per cycle).\n\n'
    printf '| size | bank | 4-way config | I miss %% | D miss %% | on-chip uJ | off-chip uJ | total uJ | direct-mapped total uJ | I miss %% (DM) | D miss %% (DM) | hit nJ | miss nJ | static nJ/cycle |\n'
    printf '|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n'
    jqp -r -R -s 'include "fmt";
      split("\n")[] | select(length > 0 and (startswith("#") | not)) | split("\t")
      | def n($d): tonumber | fixed($d);
      "| \(.[0]) KB | \(.[1]) B | \(.[2]) | \(.[3] | n(3)) | \(.[4] | n(3)) | \(.[5] | n(1)) | \(.[6] | n(1)) | \(.[7] | n(1)) | \(.[11] | n(1)) | \(.[9] | n(3)) | \(.[10] | n(3)) | \(.[12] | n(4)) | \(.[13] | n(2)) | \(.[14] | n(6)) |"' \
        "$PAPER_OUT/data/fig56.tsv"
    printf '\n'
} >"$out"
