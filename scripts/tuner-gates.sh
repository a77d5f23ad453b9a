#!/bin/bash
# tuner-gates.sh STCGEN - gate-equivalent estimate of the seed tuner
# stc_tuner (stcgen --tuner seed) for each multiplier (array, serial,
# radix4, radix16), coefficient and register-block option (default
# geometry): Yosys `synth -flatten; abc -g NAND,NOR,AND,OR,XOR,XNOR,MUX`,
# then each cell weighted by
# its NanGate 45 nm area in NAND2 units (INV 0.667, NAND2/NOR2 1, AND2/OR2
# 1.333, XOR2/XNOR2 2, MUX2 2.333, flop with asynchronous reset 6.667;
# docs/ARCHITECTURE.md 16.8). The ABC script moves such numbers by up to
# ~30 %: compare the options with each other, not with other tools.
# Then four rows: the default tuner's monitor (ARCHITECTURE.md 17) of a
# D-cache and an I-cache (READ_ONLY), its arrays left out (stc_regfile read
# as a black box: they are register-file bits, like the controller's), and the monitor
# tuner's decision unit stc_monitor_tuner (section 18) for each. Last, by
# part: the smallest seed option within the seed's 164 cycles, and the
# default D-cache's monitor (its counts, their halving and read port) and
# decision unit (its multiplier).
set -eu -o pipefail
STCGEN=${1:?usage: tuner-gates.sh STCGEN}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=scripts/lib/nand2-ge.sh
. "$(dirname "$0")/lib/nand2-ge.sh"

printf '%-28s %7s %7s %7s\n' options cells flops GE
for options in "" "--tuner-mult serial" "--tuner-coeff const" "--tuner-mult serial --tuner-coeff const" \
    "--tuner-mult radix4" "--tuner-mult radix16" "--tuner-mult radix4 --tuner-coeff const" \
    "--tuner-mult radix16 --tuner-coeff const" "--tuner-regs lean" \
    "--tuner-mult radix16 --tuner-regs lean" "--tuner-mult radix4 --tuner-coeff const --tuner-regs lean" \
    "--tuner-mult radix16 --tuner-coeff const --tuner-regs lean" "--tuner-triggers off" \
    "--tuner-mult radix16 --tuner-coeff const --tuner-triggers off" \
    "--tuner-mult radix4 --tuner-coeff const --tuner-regs lean --tuner-triggers off" \
    "--tuner-mult radix16 --tuner-coeff const --tuner-regs lean --tuner-triggers off"; do
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
    synth_row "$name" stc_monitor "read_verilog -DSYNTHESIS $work/out/stc_monitor.v; read_verilog -lib $work/out/stc_regfile.v; chparam -set READ_ONLY $read_only stc_monitor"
done
for read_only in 0 1; do
    name="decision unit, D-cache"
    [ "$read_only" = 1 ] && name="decision unit, I-cache"
    synth_row "$name" stc_monitor_tuner "read_verilog $work/out/stc_monitor_tuner.v; chparam -set READ_ONLY $read_only stc_monitor_tuner"
done

# Where the gates of the smallest seed option that meets the seed's 164
# cycles are (radix 16, constants, lean registers): its RTL with one part
# cut out at a time (a sed on the generated file; the script stops if the
# line is not there), each row the GE without the part and the part's share.
# parts_of TITLE FILE TOP READ: the whole module's row, kept in $row and
# $whole, and the header line; the cuts after it apply to FILE (top TOP,
# Yosys reading "READ" after it).
parts_of() {
    cut_file=$2
    cut_top=$3
    cut_read=$4
    row=$(synth_row whole "$cut_top" "read_verilog -DSYNTHESIS $cut_file; $cut_read")
    whole=$(echo "$row" | awk '{ print $NF }')
    printf '%s\n' "parts of $1 ($whole GE): GE without the part, the part"
}
rm -rf "$work/out"
"$STCGEN" --tuner seed --tuner-mult radix16 --tuner-coeff const --tuner-regs lean --out "$work/out"
parts_of "seed radix16 const lean" "$work/out/stc_tuner.v" stc_tuner ""
echo "$row" | awk '{ printf "  %-26s %7s %7d %7s %7.0f\n", "its flops", "", $3, "", 6.667 * $3 }'
# cut NAME SED...: synthesise $cut_file (parts_of's) with the sed
# expressions applied; print the row and the part's share ($whole minus
# the row).
cut() {
    local name=$1
    shift
    sed "$@" "$cut_file" >"$work/cut.v"
    if cmp -s "$cut_file" "$work/cut.v"; then
        echo "tuner-gates: the cut of '$name' matched nothing in $(basename "$cut_file")" >&2
        exit 1
    fi
    synth_row "  $name" "$cut_top" "read_verilog -DSYNTHESIS $work/cut.v; $cut_read" |
        awk -v whole="$whole" '{ printf "%s %7.0f\n", $0, whole - $NF }'
}
# shellcheck disable=SC2016
cut "multiplier and coefficients" -e 's/^  wire \[31:0\] product   = .*/  wire [31:0] product   = {16'"'"'d0, op_count};/'
cut "coefficient constants" -e 's/^  wire \[15:0\] op_coef = .*/  wire [15:0] op_coef = {10'"'"'d0, op_idx};/'
cut "register read port" -e 's/^  assign reg_rdata_o     = rdata;/  assign reg_rdata_o     = 32'"'"'d0;/'
cut "phase and periodic triggers" \
    -e 's/^\( *if (sw_start\) || (tuned_q && win_end && (trig_phase || trig_period))\() begin\)$/\1\2/'

# Where the gates of the default tuner are (ARCHITECTURE.md 17.4, 18.5):
# the D-cache's monitor and decision unit with one part cut out at a time.
# The monitor's only output is its counts, so a cut keeps what it removes
# the inputs of alive with Yosys `keep`.
rm -rf "$work/out"
"$STCGEN" --out "$work/out"
parts_of "the default D-cache monitor" "$work/out/stc_monitor.v" stc_monitor \
    "read_verilog -lib $work/out/stc_regfile.v; chparam -set READ_ONLY 0 stc_monitor"
counts=$(grep -c '^  assign cnt_inc\[' "$cut_file")
# shellcheck disable=SC2016
cut "$counts counts (all of them)" \
    -e 's/^  wire \[\([0-9]*\):0\] cnt_inc;/  (* keep *) wire [\1:0] cnt_inc;/' \
    -e 's/^  assign cnt_o = cnt_read;/  assign cnt_o = 16'"'"'d0;/' \
    -e 's/^  assign watched_o = .*/  assign watched_o = 16'"'"'d0;/'
# shellcheck disable=SC2016
cut "their halving muxes" -e 's/: halve ? sum\[CB:1\] : sum\[CB-1:0\];/: sum[CB-1:0];/'
# shellcheck disable=SC2016
cut "their read port" \
    -e 's/^  reg  \[\([0-9]*\):0\] cnt_q, cnt_d; .*/  (* keep *) reg  [\1:0] cnt_q;\n  reg  [\1:0] cnt_d;/' \
    -e 's/^  assign cnt_o = cnt_read;/  assign cnt_o = 16'"'"'d0;/'
parts_of "the default D-cache decision unit" "$work/out/stc_monitor_tuner.v" stc_monitor_tuner \
    "chparam -set READ_ONLY 0 stc_monitor_tuner"
# (the operands' concatenation, C + 8 bits as the product, keeps both alive)
# shellcheck disable=SC2016
cut "multiplier (C x 8 bits)" \
    -e 's/^\(  wire \[[0-9]*:0\] scaled    = \)operand_q \* st_mant;/\1{operand_q, st_mant};/'
# The coefficient's shift: the product's multiplexer over the shifts the
# program uses, and the shift's decode from the step.
# shellcheck disable=SC2016
cut "coefficient shift" -e 's/^    case (st_shift)  /    case (4'"'"'d0)  /'
# The program's case table: every step's operation, count, coefficient
# and codes decoded from step_sel (the next step, into ctl_q). Cut, they
# are step_sel's bits themselves
# (every use downstream stays, with values that vary).
# shellcheck disable=SC2016
cut "step program (case table)" \
    -e '/^        [0-9]*'"'"'d[0-9]*: begin .* end/d' \
    -e 's/^    nx_op = OP_KEEP; nx_cnt = \([0-9]*\)'"'"'d0; .*/    nx_op = step_sel[2:0]; nx_cnt = {step_sel, step_sel} >> (14 - \1); nx_mac = step_sel[3]; nx_first = step_sel[4]; nx_mant = {step_sel, step_sel[0]};/' \
    -e 's/^    nx_shift = 4'"'"'d0; nx_close = 1'"'"'b0; nx_code = 9'"'"'h000; nx_last = 1'"'"'b0;/    nx_shift = step_sel[3:0]; nx_close = step_sel[5]; nx_code = {step_sel, step_sel[1:0]}; nx_last = step_sel[6];/'
# The register block: its read port, and the decision and change counts
# that only it reads (CTRL's enable bit stays writable).
# shellcheck disable=SC2016
cut "register read port, counts" -e 's/^    case (reg_addr_i)/    case (3'"'"'d7)/'
