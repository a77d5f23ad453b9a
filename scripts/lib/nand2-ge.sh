# shellcheck shell=bash
# nand2-ge.sh - sourced by the gate-estimate scripts (tuner-gates.sh,
# coh-gates.sh): one module synthesised by Yosys (`synth -flatten; abc -g
# NAND,NOR,AND,OR,XOR,XNOR,MUX`) and each cell weighted by its NanGate 45 nm
# area in NAND2 units (INV 0.667, NAND2/NOR2 1, AND2/OR2 1.333, XOR2/XNOR2
# 2, MUX2 2.333, flop with asynchronous reset 6.667; docs/ARCHITECTURE.md
# 16.8). stc_sram and stc_regfile instances are black boxes, counted as
# bits elsewhere. The caller sets work (a scratch folder).

# synth_row NAME TOP YOSYS_READ: synthesise TOP and print its row (name,
# cells, flops, GE).
synth_row() {
    : "${work:?synth_row needs work, a scratch folder}"
    yosys -q -p "$3; synth -flatten -top $2; abc -g NAND,NOR,AND,OR,XOR,XNOR,MUX; opt_clean -purge; tee -q -o $work/stat.txt stat" >/dev/null
    awk -v name="$1" '
        BEGIN { w["$_NOT_"]=0.667; w["$_NAND_"]=1; w["$_NOR_"]=1; w["$_AND_"]=1.333;
                w["$_OR_"]=1.333; w["$_XOR_"]=2; w["$_XNOR_"]=2; w["$_MUX_"]=2.333;
                w["$_ANDNOT_"]=1.333; w["$_ORNOT_"]=1.333 }
        $1 == "stc_sram" || $1 == "stc_regfile" { next }
        $1 ~ /^\$_/ { cells += $2; if ($1 ~ /DFF/) { flops += $2; ge += 6.667 * $2 }
                      else if ($1 in w) ge += w[$1] * $2; else { print "unknown cell " $1; exit 1 } }
        END { printf "%-28s %7d %7d %7.0f\n", name, cells, flops, ge }' "$work/stat.txt"
}
