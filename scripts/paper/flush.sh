#!/usr/bin/env bash
# flush.sh - the flush contrast (seed 7.5): what a size search from large to
# small costs in writebacks against one from small to large. Two
# measurements, both with the trace driving the cache (walks and their
# writebacks happen):
#   1. `stcsim tune --mode hardware --search heuristic`, ascending against
#      --descending, one-off and re-tuning every 100000 accesses
#      (docs/TUNING.md 5; window and warm-up 4096);
#   2. the seed's size walk alone over the whole program (`stcsim
#      --reconfig-every N --order list:...`): 2K -> 4K -> 8K against
#      8K -> 4K -> 2K, direct-mapped 16 B lines, a move every third of the
#      trace.
# jq programs and Markdown (with `code`) are single-quoted on purpose:
# shellcheck disable=SC2016
set -euo pipefail
# shellcheck source=scripts/paper/lib.sh
. "$(dirname "$0")/lib.sh"
need PAPER_OUT PAPER_DIR
load_traces
raw=$PAPER_OUT/raw
out=$(section_file 70-flush)
mapfile -t sched < <(for t in "${TRACES[@]}"; do echo "$raw/sched-$(prog_of "$t").json"; done)

# Per program: walk writebacks (I + D) and their energy (uJ).
jqp -r -n --slurpfile a "$raw/t-flush-asc.json" --slurpfile d "$raw/t-flush-desc.json" \
    --slurpfile ar "$raw/t-flush-asc-re.json" --slurpfile dr "$raw/t-flush-desc-re.json" \
    --slurpfile s <(jq -s . "${sched[@]}") '
  include "fmt";
  # a scheduled run: walk writebacks, priced at its own writeback energy per line
  def wb($c): ($c.icache.walk_writebacks + $c.dcache.walk_writebacks);
  def wbnj($c): [("icache", "dcache") as $k | $c[$k] as $x
                 | if ($x.writebacks + $x.walk_writebacks) > 0
                   then $x.walk_writebacks * $c.energy[$k].writeback_nj / ($x.writebacks + $x.walk_writebacks)
                   else 0 end] | add;
  "# program\tasc_wb\tasc_uJ\tdesc_wb\tdesc_uJ\tasc_re_wb\tasc_re_uJ\tdesc_re_wb\tdesc_re_uJ\tup_wb\tup_uJ\tdown_wb\tdown_uJ\tbase_uJ\tup_moves\tdown_moves",
  (range(0; $a[0].traces | length) as $i
   | $s[0][$i] as $sc | $sc.configs[0] as $up | $sc.configs[1] as $down
   | ($a[0].traces[$i]) as $t
   | [($t.name | prog),
      ($a[0].traces[$i].walk_writebacks | tostring), ($a[0].traces[$i].walk_writeback_nj / 1000 | fixed(3)),
      ($d[0].traces[$i].walk_writebacks | tostring), ($d[0].traces[$i].walk_writeback_nj / 1000 | fixed(3)),
      ($ar[0].traces[$i].walk_writebacks | tostring), ($ar[0].traces[$i].walk_writeback_nj / 1000 | fixed(3)),
      ($dr[0].traces[$i].walk_writebacks | tostring), ($dr[0].traces[$i].walk_writeback_nj / 1000 | fixed(3)),
      (wb($up) | tostring), (wbnj($up) / 1000 | fixed(3)),
      (wb($down) | tostring), (wbnj($down) / 1000 | fixed(3)),
      (($t.icache.baseline_nj[0] + $t.dcache.baseline_nj[0]) / 1000 | fixed(3)),
      ($up.dcache.reconfigs | tostring), ($down.dcache.reconfigs | tostring)]
   | @tsv)' >"$PAPER_OUT/data/flush.tsv"

# Every scheduled run must have made exactly the two moves it was set up for.
awk -F'\t' '!/^#/ && ($15 != 2 || $16 != 2) { print "flush: " $1 " made " $15 " / " $16 " moves, not 2"; bad = 1 }
    END { exit bad }' "$PAPER_OUT/data/flush.tsv" || die "a size-walk schedule wrapped around"

plot flush.gp fig-flush

table=$(jqp -r -R -s '
  include "fmt";
  [split("\n")[] | select(length > 0 and (startswith("#") | not)) | split("\t") | map(tonumber? // .)] as $r
  | def m($i): [$r[] | .[$i]] | mean;
    def cell($w; $e): "\($w) / \($e | fixed(1))";
  "| program | tune asc | tune desc | tune asc, re-tune | tune desc, re-tune | size walk up | size walk down | program energy (8K_4W_32B) uJ |",
  "|---|---:|---:|---:|---:|---:|---:|---:|",
  ($r[] | "| \(.[0]) | \(cell(.[1]; .[2])) | \(cell(.[3]; .[4])) | \(cell(.[5]; .[6])) | \(cell(.[7]; .[8])) | \(cell(.[9]; .[10])) | \(cell(.[11]; .[12])) | \(.[13] | fixed(1)) |"),
  "| **mean** | \(cell(m(1) | fixed(1); m(2))) | \(cell(m(3) | fixed(1); m(4))) | \(cell(m(5) | fixed(1); m(6))) | \(cell(m(7) | fixed(1); m(8))) | \(cell(m(9) | fixed(1); m(10))) | \(cell(m(11) | fixed(1); m(12))) | \(m(13) | fixed(1)) |",
  "| **programs where down > up** | - | \([$r[] | select(.[4] > .[2])] | length) of \($r | length) | - | \([$r[] | select(.[8] > .[6])] | length) of \($r | length) | - | \([$r[] | select(.[12] > .[10])] | length) of \($r | length) | - |"
' "$PAPER_OUT/data/flush.tsv")

contrast=$(jqp -r -R -s '
  include "fmt";
  [split("\n")[] | select(length > 0 and (startswith("#") | not)) | split("\t") | map(tonumber? // .)] as $r
  | def m($i): [$r[] | .[$i]] | mean;
  ($paper["flush.extra_mj"] * 1e6) as $pflush | ($paper["tuner.search_nj"]) as $ptuner
  | def line($what; $up; $down):
      ((m($down) - m($up)) * 1000) as $x
      | "| \($what) | \(m($up) | fixed(1)) | \(m($down) | fixed(1)) | \($x / 1000 | fixed(1)) | \($x / $ptuner | fixed(0)) | \(100 * ([$r[] | (.[$down] - .[$up]) / .[13]] | mean) | fixed(2)) % |";
  "| measurement | small to large, uJ | large to small, uJ | extra of large to small, uJ (mean) | extra / the paper'"'"'s tuner search (\($ptuner) nJ) | extra / program energy (mean) |",
  "|---|---:|---:|---:|---:|---:|",
  line("tune, one-off search"; 2; 4),
  line("tune, re-tune every 100000"; 6; 8),
  line("size walk over the whole program"; 10; 12),
  "| paper (seed 7.5) | - | - | \($pflush / 1000 | fixed(0)) (\($paper["flush.extra_mj"]) mJ) | \($paper["flush.ratio"]) (about) | \(100 * $paper["flush.extra_mj"] / 1000 / $paper["program.energy_mean_j"] | fixed(2)) % of the mean program (\($paper["program.energy_mean_j"]) J) |"
' "$PAPER_OUT/data/flush.tsv")

{
    printf '## The flush contrast (seed 7.5)\n\n'
    printf 'The seed: searching the size from large to small would have to write back the dirty lines of every bank switched off, on average %s mJ per benchmark, about %s times its tuner'"'"'s %s nJ per search; so it searches from small to large. stc'"'"'s reconfiguration walk writes back only the dirty lines that must move (docs/ARCHITECTURE.md 13.1), and in this write-back cache growing moves lines too (a line'"'"'s home bank changes), so both directions cost writebacks. Cells: walk writebacks (I + D) / their energy in uJ.\n\n' \
        "$(pv flush.extra_mj)" "$(pv flush.ratio)" "$(pv tuner.search_nj)"
    jq -r -n --slurpfile a "$raw/t-flush-asc-re.json" --slurpfile s "${sched[0]}" '
      "- *tune*: the seed'"'"'s heuristic as its hardware runs it (`--mode hardware --search heuristic`, window \($a[0].window) and warm-up \($a[0].warmup) accesses), walking up (the seed) or down (`--descending`), one search at the start or a new one every \($a[0].retune_every) accesses;",
      "- *size walk*: only the size, \($s[0].configs[0].name | ltrimstr("order:list:") | split(",") | join(" -> ")) or \($s[0].configs[1].name | ltrimstr("order:list:") | split(",") | join(" -> ")), one move after each third of the program (a cache full of the program'"'"'s dirty data at each move).", ""'
    printf '%s\n\n' "$table"
    printf '%s\n\n' "$contrast"
    figure_md fig-flush "Flush contrast: walk writeback energy per program, small to large against large to small"
    printf 'Commands (`scripts/paper/flush.sh`, `flush.gp`; N = a third of the trace'"'"'s references + 1):\n\n'
    mapfile -t names < <(for t in "${TRACES[@]}"; do echo "sched-$(prog_of "$t")"; done)
    commands_md t-flush-asc t-flush-desc t-flush-asc-re t-flush-desc-re "${names[@]}"
    printf 'Data: [data/flush.tsv](data/flush.tsv).\n\n'
} >"$out"
