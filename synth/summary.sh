#!/bin/bash
# synth/summary.sh - the headline table of several synthesis reports (Markdown).
# Usage: synth/summary.sh [--baseline FIXED_REPORT_JSON] REPORT_JSON...
# "Cache logic" is every module but the tuner (cache controller and
# datapath, power controller; SRAMs excluded); its critical path is the
# largest register-to-register time among those modules (OSU 0.18 um).
# Without a baseline the overhead columns say "not available".
set -euo pipefail
base=""
if [ "${1:-}" = "--baseline" ]; then base=$2; shift 2; fi
[ $# -ge 1 ] || { echo "usage: synth/summary.sh [--baseline FIXED_REPORT_JSON] REPORT_JSON..." >&2; exit 2; }
for f in "$@" ${base:+"$base"}; do
    [ -f "$f" ] || { echo "summary: $f: no such file" >&2; exit 2; }
done
if [ -n "$base" ]; then basej=$(cat "$base"); else basej=null; fi

jq -r -s --argjson base "$basej" '
def num: if type == "number" then (. * 10 | round / 10 | tostring) else tostring end;
def ns: if type == "number" then (. * 100 | round / 100 | tostring) else tostring end;
def pct($a; $b): if ($a | type) == "number" and ($b | type) == "number" and $b > 0
                 then ((($a - $b) / $b * 1000 | round) / 10 | tostring) + " %" else "not available" end;
def logic: [.modules[] | select(.role != "tuner") | .ge * .instances] | add;
def logic_osu: [.modules[] | select(.role != "tuner") | .osu_area_um2 | select(type == "number")] | add // "not run";
def path: [.modules[] | select(.role != "tuner") | .reg2reg_ns | select(type == "number")] | max // "not run";
def modge($role): [.modules[] | select(.role == $role) | .ge * .instances] | add // "not available";
"## Synthesis summary",
"",
"GE: gate equivalents (NAND2 = 1, synth/lib/stc_ge.lib). Cache logic: every module",
"but the tuner, SRAMs excluded. Path: largest register-to-register time of the cache",
"logic, OSU 0.18 um typical corner (synth/README.md). \(.[0].yosys_version).",
"",
"| design | cache ctrl GE | power ctrl GE | tuner GE | cache logic GE | flops | SRAM bits | reg-file bits | cache logic um^2 | path ns | depth |",
"|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
(.[], (if $base != null then $base else empty end) |
  "| \(.name) | \(modge("cache controller and datapath") | num) | \(modge("power controller") | num) | \(modge("tuner") | num) | \(logic | num) | \(.totals.flops) | \(.sram_bits) | \(.regfile_bits // 0) | \(logic_osu | num) | \(path | ns) | \(.totals.logic_depth) |"),
"",
"### Tuner against the seed (~4000 gates, 164 cycles per search)",
"",
(if any(.[]; .tuner.present) then
   "| design | tuner GE | vs 4000 | cycles per search | vs 164 |",
   "|---|---:|---:|---:|---:|",
   (.[] | select(.tuner.present) |
     "| \(.name) | \(.tuner.ge | num) | \(pct(.tuner.ge; 4000)) | \(.tuner.search_cycles) | \(pct(.tuner.search_cycles | tonumber? // "n/a"; 164)) |")
 else "Not available: no report holds a tuner module (stc_tuner)." end),
"",
"### Configurable cache logic against the fixed 8K_4W_32B baseline",
"",
(if $base == null then
   "Not available: no fixed baseline (stcgen --fixed 8K_4W_32B) was synthesized.",
   "",
   "| design | cache logic GE | area overhead | path ns | path overhead |",
   "|---|---:|---:|---:|---:|",
   (.[] | "| \(.name) | \(logic | num) | not available | \(path | ns) | not available |")
 else
   "Baseline \($base.name): cache logic \($base | logic | num) GE, path \($base | path | ns) ns.",
   "",
   "| design | cache logic GE | area overhead | path ns | path overhead |",
   "|---|---:|---:|---:|---:|",
   (.[] | "| \(.name) | \(logic | num) | \(pct(logic; $base | logic)) | \(path | ns) | \(pct(path; $base | path)) |")
 end)
' "$@"
