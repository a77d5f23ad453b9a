#!/bin/bash
# synth/report.sh - turn synth.sh's raw results into report.json (stdout).
# Usage: synth/report.sh WORK_DIR RTL_DIR GE_ONLY
# Called by synth/synth.sh; WORK_DIR holds ge_stat.json, ge_ltp.txt,
# srams.txt, synth.ys, and unless GE_ONLY=1 osu_stat.json, sta.jsonl and
# sta_*.tcl. Paths of WORK_DIR are written as "OUT" so the report does not
# depend on where it was built.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: synth/report.sh WORK_DIR RTL_DIR GE_ONLY" >&2; exit 2; }
w=$1
rtl=$2
ge_only=$3
GE_LIB=synth/lib/stc_ge.lib
OSU_LIB=${STC_OSU_LIB:-/usr/share/qflow/tech/osu018/osu018_stdcells.lib}

# cell areas of a Liberty file as {"CELL": area, ...}
lib_areas() {
    awk '
        /^[ \t]*cell[ \t]*\(/ { c = $0; sub(/^[^(]*\([ \t]*"?/, "", c); sub(/"?[ \t]*\).*$/, "", c); next }
        /^[ \t]*area[ \t]*:/ && c != "" { a = $0; sub(/^[^:]*:[ \t]*/, "", a); sub(/[ \t]*;.*$/, "", a); printf "%s\t%s\n", c, a; c = "" }
    ' "$1" | jq -R -n '[inputs | split("\t") | {(.[0]): (.[1] | tonumber)}] | add'
}

# "name<TAB>depth" per module, from ltp's "Longest topological path in M (length=N)"
jq -R -n '[inputs | capture("Longest topological path in (?<m>[^ ]+) \\(length=(?<n>[0-9]+)\\)")
          | {(.m | ltrimstr("\\")): (.n | tonumber)}] | add // {}' < "$w/ge_ltp.txt" > "$w/depth.json"

# Array instances: "cell \stc_sram \u_x" (or \stc_regfile) then
# "parameter [signed] \P V"; a register file writes single bits (GRAN 1).
awk '
    /^ *cell \\stc_(sram|regfile) / {
        if (n) print line
        n = 1; kind = $2; sub(/^\\stc_/, "", kind); line = $3; sub(/^\\/, "", line)
        line = line "\tKIND=" kind
        next
    }
    /^ *parameter / && n { p = $(NF-1); sub(/^\\/, "", p); line = line "\t" p "=" $NF; next }
    /^ *end/ && n { print line; n = 0 }
    END { if (n) print line }
' "$w/srams.txt" | LC_ALL=C sort |
jq -R -n '[inputs | split("\t") | {instance: .[0]} + ([.[1:][] | split("=") | {(.[0]): .[1]}] | add)
          | {instance, kind: .KIND, depth: (.DEPTH | tonumber), width: (.WIDTH | tonumber),
             gran: ((.GRAN // "1") | tonumber),
             bits: ((.DEPTH | tonumber) * (.WIDTH | tonumber))}]' > "$w/srams.json"

# the generator's header: command, name, parameters (first file's header)
hdr=$rtl/stc_cache.v
gen_cmd=$(awk '/^\/\/ +stcgen( |$)/ { sub(/^\/\/ +/, ""); print; exit }' "$hdr")
[ -n "$gen_cmd" ] || gen_cmd="unknown (no stcgen command in $hdr)"
name=$(awk '/^\/\/ cache / { sub(/^\/\/ cache /, ""); sub(/,.*$/, ""); print; exit }' "$hdr")
[ -n "$name" ] || name=$(basename "$rtl")
awk '/^\/\/ parameters:/ { on = 1; next } /^\/\/ [a-z]/ && on { exit }
     on && /^\/\/   [a-z_]+ +[^ ]+/ { printf "%s\t%s\n", $2, $3 }' "$hdr" |
    jq -R -n '[inputs | split("\t") | {(.[0]): .[1]}] | add // {}' > "$w/params.json"
search_cycles="not available"
if [ -f "$rtl/stc_geometry_gen.h" ]; then
    v=$(awk '$1 == "#define" && $2 == "STC_GEN_TUNER_LONGEST_COMPUTE" { sub(/u$/, "", $3); print $3 }' "$rtl/stc_geometry_gen.h")
    [ -n "$v" ] && search_cycles=$v
    # the monitor tuner (ARCHITECTURE.md 18) computes one step per access
    v=$(awk '$1 == "#define" && $2 == "STC_GEN_MONITOR_STEPS" { sub(/u$/, "", $3); print $3 }' "$rtl/stc_geometry_gen.h")
    m=$(awk '$1 == "#define" && $2 == "STC_GEN_TUNER_MONITOR" { sub(/u$/, "", $3); print $3 }' "$rtl/stc_geometry_gen.h")
    [ -n "$v" ] && [ "$m" = 1 ] && search_cycles="$v accesses a decision (monitor tuner, one step per access)"
fi

latches=$(awk '{ print $1; exit }' "$w/latches.txt")
lib_areas "$GE_LIB" > "$w/ge_areas.json"
if [ "$ge_only" = 1 ]; then
    echo '{}' > "$w/osu_areas.json"
    echo '{"modules":{}}' > "$w/osu_stat_use.json"
    echo '[]' > "$w/sta.json"
    echo '{}' > "$w/fanout.json"
    osu_lib="not run"; sta_version="not run"
else
    lib_areas "$OSU_LIB" > "$w/osu_areas.json"
    cp "$w/osu_stat.json" "$w/osu_stat_use.json"
    awk '{ printf "%s\t%s\n", $1, $2 }' "$w/fanout_buffers.txt" |
        jq -R -n '[inputs | split("\t") | {(.[0]): (.[1] | tonumber)}] | add // {}' > "$w/fanout.json"
    jq -s . "$w/sta.jsonl" > "$w/sta.json"
    osu_lib=$OSU_LIB; sta_version=$(cat "$w/sta_version.txt")
fi

scripts=$(for f in "$w"/synth.ys "$w"/fanout_repair.sh "$w"/osu_restat.ys "$w"/sta_*.tcl; do if [ -f "$f" ]; then echo "## ${f##*/}"; cat "$f"; fi; done |
          sed "s|$w|OUT|g")

jq -n \
  --arg name "$name" --arg rtl "$rtl" --arg gen_cmd "$gen_cmd" \
  --arg yosys "$(cat "$w/yosys_version.txt")" --arg sta "$sta_version" \
  --arg ge_lib "$GE_LIB" --arg osu_lib "$osu_lib" --arg scripts "$scripts" \
  --arg search_cycles "$search_cycles" --arg ge_only "$ge_only" --arg latches "$latches" \
  --slurpfile ge "$w/ge_stat.json" --slurpfile osu "$w/osu_stat_use.json" \
  --slurpfile gea "$w/ge_areas.json" --slurpfile osua "$w/osu_areas.json" \
  --slurpfile depth "$w/depth.json" --slurpfile srams "$w/srams.json" \
  --slurpfile fanout "$w/fanout.json" --slurpfile stares "$w/sta.json" --slurpfile params "$w/params.json" '
def r3: (. * 1000 | round) / 1000;
def role:
  if . == "stc_cache" then "top (wiring; SRAMs blackboxed)"
  elif . == "stc_cache_ctrl" then "cache controller and datapath"
  elif . == "stc_power_ctrl" then "power controller"
  elif startswith("stc_tuner") or startswith("stc_monitor") then "tuner"
  else "other" end;
def mods($s): $s.modules | with_entries(.key |= ltrimstr("\\"));
def area($types; $a): [$types | to_entries[] | select($a[.key] != null) | .value * $a[.key]] | add // 0;
def count($types; $a; $re): [$types | to_entries[] | select($a[.key] != null and (.key | test($re))) | .value] | add // 0;
(mods($ge[0])) as $gm | (mods($osu[0])) as $om | $gea[0] as $ga | $osua[0] as $oa |
($stares[0] | map({(.module): .}) | add // {}) as $st |
($gm | keys) as $names |
# instances of each module under stc_cache
def inst($m):
  if $m == "stc_cache" then 1
  else [$names[] as $p | ($gm[$p].num_cells_by_type[$m] // 0) as $k | select($k > 0) | $k * inst($p)] | add // 0 end;
def maxnum: map(select(type == "number")) | max;
def ns($v): if $v == null then (if $ge_only == "1" then "not run" else "none" end)
            elif $v == "none" then "none" else ($v | tonumber) end;
[ $names[] as $m | $gm[$m].num_cells_by_type as $t | ($om[$m].num_cells_by_type // {}) as $ot | {
    name: $m, role: ($m | role), instances: inst($m),
    cells: count($t; $ga; "."),
    flops: count($t; $ga; "DFF"),
    ge: (area($t; $ga) | r3),
    ge_flops: ([$t | to_entries[] | select(.key | test("DFF")) | select($ga[.key] != null) | .value * $ga[.key]] | add // 0 | r3),
    logic_depth: ($depth[0][$m] // 0),
    osu_cells: (if $ge_only == "1" then "not run" else count($ot; $oa; ".") end),
    osu_area_um2: (if $ge_only == "1" then "not run" else (area($ot; $oa) | r3) end),
    osu_fanout_buffers: (if $ge_only == "1" then "not run" else ($fanout[0][$m] // 0) end),
    osu_ge: (if $ge_only == "1" then "not run" else (area($ot; $oa) / $oa["NAND2X1"] | r3) end),
    reg2reg_ns: (if $m == "stc_cache" then "see submodules" else ns($st[$m].reg2reg) end),
    in2reg_ns: (if $m == "stc_cache" then "see submodules" else ns($st[$m].in2reg) end),
    reg2out_ns: (if $m == "stc_cache" then "see submodules" else ns($st[$m].reg2out) end),
    in2out_ns: (if $m == "stc_cache" then "see submodules" else ns($st[$m].in2out) end),
    submodules: ([$t | to_entries[] | select($ga[.key] == null) | {(.key): .value}] | add // {})
  } ] as $rows |
{
  name: $name,
  rtl_dir: $rtl,
  generator_command: $gen_cmd,
  parameters: $params[0],
  yosys_version: $yosys,
  opensta_version: $sta,
  ge_library: ($ge_lib + " (NAND2 = 1 GE; NanGate 45 nm X1 area ratios, synth/README.md)"),
  osu_library: $osu_lib,
  checks: { latches: ($latches | tonumber), logic_loops: 0, yosys_check_problems: 0 },
  modules: $rows,
  srams: $srams[0],
  sram_bits: ([$srams[0][] | select(.kind == "sram") | .bits] | add // 0),
  regfile_bits: ([$srams[0][] | select(.kind == "regfile") | .bits] | add // 0),
  # the array bits by what they hold (instance names: ARCHITECTURE.md 14.3,
  # 15.1, 17.2): bank tags, bank lines, the row state of the controller (valid,
  # dirty and recency bits) and the upper bits of its split counters, the
  # shadow tags of the monitor
  array_bits_by_role: {
    tag: ([$srams[0][] | select(.instance | test("^u_bank[0-9]+_tag$")) | .bits] | add // 0),
    data: ([$srams[0][] | select(.instance | test("^u_bank[0-9]+_data$")) | .bits] | add // 0),
    row_state: ([$srams[0][] | select(.instance == "u_rowstate") | .bits] | add // 0),
    counters: ([$srams[0][] | select(.instance | test("^u_cnt_hi_")) | .bits] | add // 0),
    monitor: ([$srams[0][] | select(.instance | test("u_array$")) | .bits] | add // 0)
  },
  totals: {
    ge: ([$rows[] | .ge * .instances] | add | r3),
    flops: ([$rows[] | .flops * .instances] | add),
    cells: ([$rows[] | .cells * .instances] | add),
    osu_area_um2: (if $ge_only == "1" then "not run" else ([$rows[] | .osu_area_um2 * .instances] | add | r3) end),
    osu_ge: (if $ge_only == "1" then "not run" else ([$rows[] | .osu_ge * .instances] | add | r3) end),
    logic_depth: ([$rows[].logic_depth] | max),
    reg2reg_ns: ([$rows[].reg2reg_ns] | maxnum // (if $ge_only == "1" then "not run" else "none" end)),
    worst_ns: ([$rows[] | .reg2reg_ns, .in2reg_ns, .reg2out_ns, .in2out_ns] | maxnum // (if $ge_only == "1" then "not run" else "none" end))
  },
  tuner: {
    present: any($rows[]; .role == "tuner"),
    ge: ([$rows[] | select(.role == "tuner") | .ge * .instances] | add // "not available"),
    search_cycles: $search_cycles
  },
  scripts: $scripts
}'
