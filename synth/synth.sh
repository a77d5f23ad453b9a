#!/bin/bash
# synth/synth.sh - synthesize one stcgen output folder and write its report.
#
# Usage: synth/synth.sh [--ge-only] RTL_DIR OUT_DIR
#
# RTL_DIR is a folder written by stcgen (stc_cache.v on top, stc_sram.v the
# SRAM wrapper, any other *.v a module under the top). Every module under
# stc_cache is synthesized with stc_sram blackboxed, twice: mapped onto
# synth/lib/stc_ge.lib (gate equivalents, logic depth) and onto the OSU
# 0.18 um library (area in um^2, OpenSTA timing). OUT_DIR receives
# report.json, report.md, the Yosys scripts and logs and the OSU netlist;
# it is built beside its destination and renamed into place at the end, so
# a failure leaves no half-written report. --ge-only skips the OSU mapping
# and OpenSTA (their fields then say "not run"). Run from the repository
# root (the scripts name files relative to it, so reports do not depend on
# where the clone is).
#
# Exit status: 0 done, 1 a tool failed or a check failed (latch, logic loop,
# Yosys check problem), 2 bad usage or input.
set -euo pipefail

die() { echo "synth.sh: $*" >&2; exit "${2:-2}"; }

ge_only=0
if [ "${1:-}" = "--ge-only" ]; then ge_only=1; shift; fi
[ $# -eq 2 ] || die "usage: synth/synth.sh [--ge-only] RTL_DIR OUT_DIR"
rtl=${1%/}
out=${2%/}

GE_LIB=synth/lib/stc_ge.lib
OSU_LIB=${STC_OSU_LIB:-/usr/share/qflow/tech/osu018/osu018_stdcells.lib}
[ -f "$GE_LIB" ] || die "run from the repository root ($GE_LIB not found)"
[ -d "$rtl" ] || die "$rtl: not a folder"
[ -f "$rtl/stc_cache.v" ] || die "$rtl: no stc_cache.v (not an stcgen output folder)"
[ -f "$rtl/stc_sram.v" ] || die "$rtl: no stc_sram.v (not an stcgen output folder)"
command -v yosys >/dev/null || die "yosys not found (make synth-deps installs it)" 1
command -v jq >/dev/null || die "jq not found (make synth-deps installs it)" 1
if [ "$ge_only" = 0 ]; then
    [ -f "$OSU_LIB" ] || die "$OSU_LIB not found (Debian package qflow-tech-osu018; make synth-deps)" 1
    command -v sta >/dev/null || die "sta not found (Debian package opensta; make synth-deps)" 1
fi

# Module sources: every .v but the wrapper, in name order (deterministic).
srcs=()
while IFS= read -r f; do
    srcs+=("$f")
done < <(find "$rtl" -maxdepth 1 -name '*.v' ! -name stc_sram.v ! -name stc_regfile.v | LC_ALL=C sort)

parent=$(dirname "$out")
mkdir -p "$parent"
tmp=$(mktemp -d "$parent/.$(basename "$out").tmp.XXXXXX")
if [ -z "${STC_SYNTH_KEEP:-}" ]; then trap 'rm -rf "$tmp"' EXIT; fi

# The array wrappers, read as blackboxes: the bank SRAMs (stc_sram) and the
# controller's always-on row-state register file (stc_regfile, if the
# folder has one).
read_wrappers() {
    echo "read_verilog -DSYNTHESIS -lib $rtl/stc_sram.v"
    if [ -f "$rtl/stc_regfile.v" ]; then echo "read_verilog -DSYNTHESIS -lib $rtl/stc_regfile.v"; fi
}
read_cmds() {
    read_wrappers
    for f in "${srcs[@]}"; do echo "read_verilog -DSYNTHESIS $f"; done
    echo "hierarchy -check -top stc_cache"
}

# Pass 1: elaborate only, to learn the module names. A module derived for
# a parameter ($paramod\NAME\P=V, or $paramod$HASH\NAME when Yosys hashes
# long parameter lists) is renamed NAME (NAME_pN if NAME is derived more
# than once) so reports and the netlist use plain names.
read_cmds > "$tmp/elab.ys"
echo "tee -q -o $tmp/modules.txt ls" >> "$tmp/elab.ys"
yosys -q -l "$tmp/elab.log" "$tmp/elab.ys" >/dev/null 2>&1 ||
    die "yosys failed to elaborate $rtl (log: see below)
$(grep -i -m5 error "$tmp/elab.log")" 1
awk '/^  / { sub(/^  /, ""); print }' "$tmp/modules.txt" | LC_ALL=C sort > "$tmp/modlist"
: > "$tmp/rename.ys"
awk -v q="'" '
    /^\$paramod\\/ {
        base = $0; sub(/^\$paramod\\/, "", base); sub(/\\.*$/, "", base)
        n[base]++; name[NR] = $0; b[NR] = base; next
    }
    /^\$paramod\$[0-9a-f]+\\/ {
        base = $0; sub(/^[^\\]*\\/, "", base)
        n[base]++; name[NR] = $0; b[NR] = base; next
    }
    { plain[$0] = 1 }
    END {
        for (i = 1; i <= NR; i++) if (i in name) {
            nb = b[i]
            if (n[nb] > 1 || (nb in plain)) nb = nb "_p" (++k[b[i]])
            printf "rename %s %s\nchtype -map %s %s\n", name[i], nb, name[i], nb
        }
    }' "$tmp/modlist" > "$tmp/rename.ys"
# Parameters of a renamed module's instances are already applied.
if [ -s "$tmp/rename.ys" ]; then
    awk '/^rename/ { print "setparam -unset * t:" $3 }' "$tmp/rename.ys" > "$tmp/unset.ys"
fi

# Pass 2: one synthesis, mapped twice.
{
    echo "# stc synthesis script (synth/synth.sh), Yosys; inputs: $rtl"
    echo "read_liberty -lib $GE_LIB"
    [ "$ge_only" = 0 ] && echo "read_liberty -lib $OSU_LIB"
    read_cmds
    cat "$tmp/rename.ys"
    [ -s "$tmp/rename.ys" ] && cat "$tmp/unset.ys"
    [ -s "$tmp/rename.ys" ] && echo "hierarchy -check -top stc_cache"
    cat <<'EOF'
proc
# no latch may come out of the processes
tee -q -o @T@/latches.txt select -count t:$dlatch t:$adlatch t:$dlatchsr
select -assert-none t:$dlatch t:$adlatch t:$dlatchsr
synth -top stc_cache
select -assert-none t:$_DLATCH_* t:$_DLATCHSR_* t:$_SR_*
# logic loops, multiple or missing drivers: none allowed
check -assert
design -save generic
# gate equivalents: NAND2 = 1
dfflibmap -liberty @GE@
abc -liberty @GE@
opt_clean -purge
check -assert
tee -q -o @T@/ge_stat.json stat -json
tee -q -o @T@/ge_stat.txt stat -liberty @GE@
# logic depth: cells on the longest path between flops, arrays and ports
# (the blackboxed arrays deselected like the flops: ltp would otherwise
# chain a write port's inputs to the read port's outputs)
tee -q -o @T@/ge_ltp.txt ltp t:STC_DFF* t:stc_sram %u t:stc_regfile %u %n stc_cache %d
tee -q -o @T@/srams.txt dump t:stc_sram t:stc_regfile
EOF
    if [ "$ge_only" = 0 ]; then
        cat <<'EOF'
# OSU 0.18 um: area in um^2, netlist for OpenSTA
design -load generic
dfflibmap -liberty @OSU@
# timing-driven with buffering (fanout <= 8) and sizing: without it the
# decoders' fanout makes unbuffered nets of hundreds of ns
abc -D 5000 -liberty @OSU@ -script +strash;&get,-n;&fraig,-x;&put;scorr;dc2;dretime;strash;&get,-n;&dch,-f;&nf,{D};&put;buffer,-p,-N,8;upsize,{D};dnsize,{D};stime,-p
opt_clean -purge
check -assert
tee -q -o @T@/osu_stat_abc.txt stat -liberty @OSU@
# OpenSTA reads no parameters: the netlist leaves out the top
delete stc_cache
# (-simple-lhs: OpenSTA reads no concatenation on an assign's left side)
write_verilog -noattr -noexpr -simple-lhs @T@/osu_netlist_abc.v
EOF
    fi
} | sed -e "s|@T@|$tmp|g" -e "s|@GE@|$GE_LIB|g" -e "s|@OSU@|$OSU_LIB|g" > "$tmp/synth.ys"

if ! yosys -q -l "$tmp/synth.log" "$tmp/synth.ys" >/dev/null 2>&1; then
    if grep -q 'Assertion failed: selection is not empty.*LATCH\|Assertion failed: selection is not empty.*dlatch' "$tmp/synth.log"; then
        echo "synth.sh: $rtl: a latch is inferred (not allowed):" >&2
    elif grep -q -i 'found logic loop' "$tmp/synth.log"; then
        echo "synth.sh: $rtl: a combinational logic loop (not allowed):" >&2
    else
        echo "synth.sh: yosys failed on $rtl:" >&2
    fi
    grep -E -i -m10 '^error|warning: .*(loop|latch|driver)' "$tmp/synth.log" >&2 || true
    exit 1
fi
yosys -V > "$tmp/yosys_version.txt"

# Fanout repair: every net but the clock gets a BUFX4 tree, at most 8 loads
# per driver (ABC's buffering does not reach flip-flop outputs and module
# inputs); the area and the timing are those of the repaired netlist.
if [ "$ge_only" = 0 ]; then
    fanout_cmd=(awk -v maxfo=8 -v buf=BUFX4 -v bufin=A -v bufout=Y -v clock=clk_i
        -v counts="$tmp/fanout_buffers.txt" -f synth/buffer-fanout.awk
        "$OSU_LIB" "$tmp/osu_netlist_abc.v" "$tmp/osu_netlist_abc.v")
    echo "${fanout_cmd[*]} > $tmp/osu_netlist.v" > "$tmp/fanout_repair.sh"
    "${fanout_cmd[@]}" > "$tmp/osu_netlist.v"
    rm -f "$tmp/osu_netlist_abc.v"
    {
        echo "read_liberty -lib $OSU_LIB"
        # the array wrappers' ports, for modules that hold arrays
        read_wrappers
        echo "read_verilog $tmp/osu_netlist.v"
        echo "check -assert"
        # (-top: Yosys 0.23 writes broken JSON for a design without a top)
        echo "tee -q -o $tmp/osu_stat.json stat -json -top $(awk '/^module /{ sub(/^module /, ""); sub(/\(.*/, ""); print; exit }' "$tmp/osu_netlist.v")"
        echo "tee -q -o $tmp/osu_stat.txt stat -liberty $OSU_LIB"
    } > "$tmp/osu_restat.ys"
    if ! yosys -q -l "$tmp/osu_restat.log" "$tmp/osu_restat.ys" >/dev/null 2>&1; then
        echo "synth.sh: the buffered netlist does not pass Yosys check:" >&2
        grep -i -m5 'error\|warning' "$tmp/osu_restat.log" >&2 || true
        exit 1
    fi
fi

# OpenSTA, once per module with flops (and logic), top excluded: its only
# logic is the submodules and the blackboxed SRAMs, whose timing is not
# modelled. Inputs arrive at the clock edge, outputs are due at the next.
if [ "$ge_only" = 0 ]; then
    sta_version=$(sta -version 2>/dev/null | head -1 || true)
    echo "${sta_version:-unknown}" > "$tmp/sta_version.txt"
    # OpenSTA reads no parameters: the array instances inside a module (the
    # monitor's SRAMs, the controller's row-state register file) are left
    # out, so its paths end at the array pins (as the top's are not
    # modelled, above): a register file's read time is not in the numbers.
    awk '/^  stc_(sram|regfile) #\($/ { skip = 1 } !skip { print } skip && /^  \);$/ { skip = 0 }' \
        "$tmp/osu_netlist.v" > "$tmp/sta_netlist.v"
    jq -r '.modules | keys[] | ltrimstr("\\")' "$tmp/osu_stat.json" | LC_ALL=C sort |
    while IFS= read -r m; do
        [ "$m" = stc_cache ] && continue
        cat > "$tmp/sta_$m.tcl" <<EOF
read_liberty $OSU_LIB
read_verilog $tmp/sta_netlist.v
link_design $m
create_clock -name clk -period 100 [get_ports clk_i]
set_input_delay 0 -clock clk [delete_from_list [all_inputs] [get_ports clk_i]]
set_output_delay 0 -clock clk [all_outputs]
puts "== reg2reg"
report_checks -path_delay max -from [all_registers -clock_pins] -to [all_registers -data_pins] -digits 3
puts "== in2reg"
report_checks -path_delay max -from [delete_from_list [all_inputs] [get_ports {clk_i rst_ni}]] -to [all_registers -data_pins] -digits 3
puts "== reg2out"
report_checks -path_delay max -from [all_registers -clock_pins] -to [all_outputs] -digits 3
puts "== in2out"
report_checks -path_delay max -from [delete_from_list [all_inputs] [get_ports {clk_i rst_ni}]] -to [all_outputs] -digits 3
exit
EOF
        if ! sta -no_init -no_splash -exit "$tmp/sta_$m.tcl" > "$tmp/sta_$m.txt" 2>&1; then
            echo "synth.sh: OpenSTA failed on $m:" >&2
            tail -5 "$tmp/sta_$m.txt" >&2
            exit 1
        fi
        grep -q -i '^error' "$tmp/sta_$m.txt" && { grep -i '^error' "$tmp/sta_$m.txt" >&2; exit 1; }
        # minimum period per path class = period - slack (100 ns clock)
        awk -v m="$m" '
            /^== / { cls = $2; next }
            /No paths/ && cls != "" { v[cls] = "none" }
            /slack/ && cls != "" && !(cls in v) { v[cls] = sprintf("%.3f", 100 - $1) }
            END {
                printf "{\"module\":\"%s\"", m
                split("reg2reg in2reg reg2out in2out", c, " ")
                for (i = 1; i <= 4; i++)
                    printf ",\"%s\":\"%s\"", c[i], (c[i] in v) ? v[c[i]] : "none"
                print "}"
            }' "$tmp/sta_$m.txt"
    done > "$tmp/sta.jsonl"
fi

synth/report.sh "$tmp" "$rtl" "$ge_only" > "$tmp/report.json"
synth/report-md.sh "$tmp/report.json" > "$tmp/report.md"
# keep the reports, scripts, logs, netlist and raw tool output; drop the
# intermediate files of the report generator
(cd "$tmp" && rm -f sta_netlist.v elab.ys elab.log modules.txt modlist unset.ys rename.ys depth.json fanout.json \
    ge_areas.json osu_areas.json osu_stat_use.json params.json srams.json sta.json)
rm -rf "$out"
mv "$tmp" "$out"
trap - EXIT
echo "synth.sh: $rtl -> $out/report.md"
