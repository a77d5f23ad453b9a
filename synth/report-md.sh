#!/bin/bash
# synth/report-md.sh - report.json (synth/report.sh) as Markdown on stdout.
# Usage: synth/report-md.sh REPORT_JSON
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: synth/report-md.sh REPORT_JSON" >&2; exit 2; }
jq -r '
def ns: if type == "number" then (. * 1000 | round / 1000 | tostring) else . end;
def num: if type == "number" then (. * 10 | round / 10 | tostring) else tostring end;
"# Synthesis report: \(.name)",
"",
"- RTL: `\(.rtl_dir)` (generator: `\(.generator_command)`)",
"- Yosys: \(.yosys_version); OpenSTA: \(.opensta_version)",
"- GE library: `\(.ge_library)`",
"- 0.18 um library: `\(.osu_library)`",
"- Checks (asserted by the script): \(.checks.latches) latches, \(.checks.logic_loops) logic loops, \(.checks.yosys_check_problems) Yosys check problems",
"",
"GE: gate equivalents (NAND2 = 1, synth/lib/stc_ge.lib); OSU GE: OSU um^2 / NAND2X1 um^2. Depth: combinational cells on the longest",
"path inside the module (GE mapping). Times: OSU 0.18 um, typical corner, no",
"wire load, minimum clock period per path class in ns (clock-to-Q + logic +",
"setup; inputs arrive at the clock edge, outputs are due at the next edge).",
"",
"## Modules (stc_sram blackboxed)",
"",
"| module | role | instances | cells | flops | GE | GE in flops | depth | OSU um^2 | OSU GE | fanout buffers added | reg-to-reg ns | in-to-reg ns | reg-to-out ns | in-to-out ns |",
"|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
(.modules[] | "| \(.name) | \(.role) | \(.instances) | \(.cells) | \(.flops) | \(.ge | num) | \(.ge_flops | num) | \(.logic_depth) | \(.osu_area_um2 | num) | \(.osu_ge | num) | \(.osu_fanout_buffers) BUFX4 | \(.reg2reg_ns | ns) | \(.in2reg_ns | ns) | \(.reg2out_ns | ns) | \(.in2out_ns | ns) |"),
"| **total** | | | \(.totals.cells) | \(.totals.flops) | \(.totals.ge | num) | | \(.totals.logic_depth) | \(.totals.osu_area_um2 | num) | \(.totals.osu_ge | num) | | \(.totals.reg2reg_ns | ns) | worst of all: \(.totals.worst_ns | ns) | | |",
"",
"## Arrays (blackboxed, not in the totals)",
"",
"SRAMs (stc_sram, synchronous read) and the always-on register files of the controller",
"and the monitor (stc_regfile, read in the cycle it is addressed; its read time is not",
"in the path numbers above).",
"",
"| instance | kind | depth x width | write granule | bits |",
"|---|---|---|---:|---:|",
(.srams[] | "| \(.instance) | \(.kind) | \(.depth) x \(.width) | \(.gran) | \(.bits) |"),
"| **total SRAM** | | | | \(.sram_bits) |",
"| **total register file** | | | | \(.regfile_bits) |",
"",
"By role: bank tags \(.array_bits_by_role.tag), bank lines \(.array_bits_by_role.data), valid, dirty and recency bits (register file) \(.array_bits_by_role.row_state), upper bits of the split counters (register file, two copies) \(.array_bits_by_role.counters), monitor shadow tags \(.array_bits_by_role.monitor) bits.",
"",
"## Tuner",
"",
(if .tuner.present then "Tuner GE: \(.tuner.ge | num); compute cycles per search: \(.tuner.search_cycles) (seed: 164)."
 else "No tuner module in this folder: tuner GE and cycles per search not available." end),
"",
"## Parameters (from the generated header)",
"",
"| parameter | value |",
"|---|---|",
(.parameters | to_entries[] | "| \(.key) | \(.value) |"),
"",
"## Scripts",
"",
"```",
.scripts,
"```"
' "$1"
