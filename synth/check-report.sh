#!/bin/bash
# synth/check-report.sh - check that a report.json is complete and clean.
# Usage: synth/check-report.sh REPORT_JSON
# Fails (status 1, one line per problem) if any field is null or empty, a
# number that must be one is not, the report counts a latch, a module has
# no area or the SRAM list is empty. "none" (no such path), "not run" and
# "not available" are values, not gaps.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: synth/check-report.sh REPORT_JSON" >&2; exit 2; }
[ -f "$1" ] || { echo "check-report: $1: no such file" >&2; exit 2; }
problems=$(jq -r '
  def isnum: type == "number";
  def need($ok; $msg): if $ok then empty else $msg end;
  [paths(. == null or . == "" or . == [] or . == {}) | select(.[-1] != "submodules")
   | map(tostring) | join(".") | "empty field: " + .][],
  need(.yosys_version | startswith("Yosys "); "yosys_version is not a Yosys version"),
  need(.checks.latches == 0; "latches: \(.checks.latches)"),
  need(.checks.logic_loops == 0; "logic loops: \(.checks.logic_loops)"),
  need(.checks.yosys_check_problems == 0; "Yosys check problems: \(.checks.yosys_check_problems)"),
  need((.modules | length) >= 2; "fewer than 2 modules"),
  need((.srams | length) >= 2; "fewer than 2 SRAMs"),
  (.srams[] | need((.bits | isnum) and .bits == .depth * .width; "SRAM \(.instance): bits")),
  (.srams[] | need(.kind == "sram" or .kind == "regfile"; "array \(.instance): kind")),
  need((.regfile_bits | isnum); "regfile_bits"),
  (.modules[] | select(.name != "stc_cache") |
     need((.ge | isnum) and .ge > 0; "\(.name): ge"),
     need((.cells | isnum) and .cells > 0; "\(.name): cells"),
     need(.logic_depth | isnum; "\(.name): logic_depth"),
     need((.osu_area_um2 | isnum) or .osu_area_um2 == "not run"; "\(.name): osu_area_um2"),
     need((.osu_ge | isnum) or .osu_ge == "not run"; "\(.name): osu_ge"),
     need((.reg2reg_ns | isnum) or .reg2reg_ns == "none" or .reg2reg_ns == "not run"; "\(.name): reg2reg_ns"),
     (.in2reg_ns, .reg2out_ns, .in2out_ns | need(isnum or . == "none" or . == "not run"; "a path time is \(.)"))),
  need(.totals.ge | isnum; "totals.ge"),
  need(any(.modules[]; .role == "cache controller and datapath"); "no cache controller module")
' "$1")
if [ -n "$problems" ]; then
    printf '%s\n' "$problems" | sed "s|^|check-report: $1: |" >&2
    exit 1
fi
