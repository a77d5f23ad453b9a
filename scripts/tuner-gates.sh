#!/bin/bash
# tuner-gates.sh STCGEN - gate-equivalent estimate of the seed tuner
# stc_tuner (stcgen --tuner seed) for each multiplier and coefficient
# option (default geometry): Yosys `synth
# -flatten; abc -g NAND,NOR,AND,OR,XOR,XNOR,MUX`, then each cell weighted by
# its NanGate 45 nm area in NAND2 units (INV 0.667, NAND2/NOR2 1, AND2/OR2
# 1.333, XOR2/XNOR2 2, MUX2 2.333, flop with asynchronous reset 6.667;
# docs/ARCHITECTURE.md 16.8). The ABC script moves such numbers by up to
# ~30 %: compare the options with each other, not with other tools.
# Last four rows: the default tuner's monitor (ARCHITECTURE.md 17) of a
# D-cache and an I-cache (READ_ONLY), its arrays left out (stc_sram read
# as a black box: they are SRAM bits, like the cache's), and the monitor
# tuner's decision unit stc_monitor_tuner (section 18) for each.
set -eu
STCGEN=${1:?usage: tuner-gates.sh STCGEN}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# synth_row NAME TOP YOSYS_READ: synthesise TOP and print its row.
synth_row() {
    yosys -q -p "$3; synth -flatten -top $2; abc -g NAND,NOR,AND,OR,XOR,XNOR,MUX; opt_clean -purge; tee -q -o $work/stat.txt stat" >/dev/null
    awk -v name="$1" '
        BEGIN { w["$_NOT_"]=0.667; w["$_NAND_"]=1; w["$_NOR_"]=1; w["$_AND_"]=1.333;
                w["$_OR_"]=1.333; w["$_XOR_"]=2; w["$_XNOR_"]=2; w["$_MUX_"]=2.333;
                w["$_ANDNOT_"]=1.333; w["$_ORNOT_"]=1.333 }
        $1 == "stc_sram" { next }
        $1 ~ /^\$_/ { cells += $2; if ($1 ~ /DFF/) { flops += $2; ge += 6.667 * $2 }
                      else if ($1 in w) ge += w[$1] * $2; else { print "unknown cell " $1; exit 1 } }
        END { printf "%-28s %7d %7d %7.0f\n", name, cells, flops, ge }' "$work/stat.txt"
}

printf '%-28s %7s %7s %7s\n' options cells flops GE
for options in "" "--tuner-mult serial" "--tuner-coeff const" "--tuner-mult serial --tuner-coeff const"; do
    rm -rf "$work/out"
    # shellcheck disable=SC2086
    "$STCGEN" --tuner seed $options --out "$work/out"
    synth_row "seed ${options:-(array, registers)}" stc_tuner "read_verilog $work/out/stc_tuner.v"
done
rm -rf "$work/out"
"$STCGEN" --out "$work/out"
for read_only in 0 1; do
    name="monitor, D-cache"
    [ "$read_only" = 1 ] && name="monitor, I-cache"
    synth_row "$name" stc_monitor "read_verilog -DSYNTHESIS $work/out/stc_monitor.v; read_verilog -lib $work/out/stc_sram.v; chparam -set READ_ONLY $read_only stc_monitor"
done
for read_only in 0 1; do
    name="decision unit, D-cache"
    [ "$read_only" = 1 ] && name="decision unit, I-cache"
    synth_row "$name" stc_monitor_tuner "read_verilog $work/out/stc_monitor_tuner.v; chparam -set READ_ONLY $read_only stc_monitor_tuner"
done
