#!/bin/bash
# Synthesis flow checks (synth/README.md), quick enough for `make test`:
#   - bad input: status 2, a message, no output folder;
#   - the checks can fail: a design with a latch and one with a logic loop
#     are refused (status 1, the reason named, nothing written);
#   - the default geometry (rtl_out/) synthesizes with stc_sram blackboxed
#     and every report field filled (synth/check-report.sh): modules, the
#     8 bank SRAMs and the monitor tuner's 9 arrays with their shapes, GE,
#     depth, OSU area, OpenSTA times (the monitor's paths end at its
#     arrays' pins); the monitor tuner reported as the tuner;
#   - check-report.sh itself fails on a report with a gap or a latch;
#   - determinism: two runs on a small design give the same bytes; a
#     module stc_tuner* is reported as the tuner, with the header's cycles;
#   - the summary says "not available" without a baseline and 0 % overhead
#     against itself.
# Budgets are reported by `make synth`, not asserted here.
# Usage: tests/synth-check.sh   (from anywhere; runs in the repository root)
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root" || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

# shellcheck source=tests/lib/checks.sh
. "$root/tests/lib/checks.sh"

# refuse NAME STATUS PATTERN COMMAND...: passes when the command exits with
# STATUS and its stderr holds PATTERN
refuse() {
    local name=$1 status=$2 pattern=$3 rc
    shift 3
    "$@" >"$work/out" 2>"$work/log"
    rc=$?
    if [ "$rc" -eq "$status" ] && grep -q -- "$pattern" "$work/log"; then
        passed=$((passed + 1))
    else
        echo "    (status $rc, expected $status; pattern '$pattern')" >> "$work/log"
        fail "$name"
    fi
}
nothing_in() { # DIR: no entry at all (no report, no temporary folder)
    [ -z "$(ls -A "$1")" ]
}

# --- bad input
mkdir -p "$work/o" "$work/notgen"
echo "module x; endmodule" > "$work/notgen/x.v"
refuse "missing folder" 2 "not a folder" synth/synth.sh "$work/nope" "$work/o/r"
refuse "not a generated folder" 2 "no stc_cache.v" synth/synth.sh "$work/notgen" "$work/o/r"
refuse "usage" 2 "usage" synth/synth.sh "$work/notgen"
check "bad input wrote nothing" nothing_in "$work/o"

# --- the checks can fail
mkdir -p "$work/latch" "$work/loop"
cat > "$work/latch/stc_sram.v" <<'EOF'
module stc_sram (input wire clk_i);
endmodule
EOF
cp "$work/latch/stc_sram.v" "$work/loop/stc_sram.v"
cat > "$work/latch/stc_cache.v" <<'EOF'
module stc_cache (input wire clk_i, input wire en_i, input wire d_i, output reg q_o);
  always @* if (en_i) q_o = d_i;
endmodule
EOF
cat > "$work/loop/stc_cache.v" <<'EOF'
module stc_cache (input wire clk_i, input wire a_i, input wire b_i, output wire y_o);
  wire p, q;
  assign p = q ^ a_i;
  assign q = p & b_i;
  assign y_o = q;
endmodule
EOF
refuse "a latch is refused" 1 "latch" synth/synth.sh --ge-only "$work/latch" "$work/o/latch"
refuse "a logic loop is refused" 1 "logic loop" synth/synth.sh --ge-only "$work/loop" "$work/o/loop"
check "refused designs wrote nothing" nothing_in "$work/o"

# --- the default geometry, full flow
def=rtl_out/b4_2k_l16_a32
r=$work/o/default
check "default geometry synthesizes" synth/synth.sh "$def" "$r"
check "every report field is filled" synth/check-report.sh "$r/report.json"
check "report.md written" grep -q "^# Synthesis report: b4_2k_l16_a32" "$r/report.md"
check "Yosys version and script in the report" \
    bash -c "grep -q 'Yosys 0\\.' '$r/report.md' && grep -q '^abc -liberty synth/lib/stc_ge.lib' '$r/report.md'"
# the 8 bank SRAMs (tags 21 bits, lines 128), the monitor tuner's 9 register
# files (one per set mapping of W ways and s lines, a row per watched set,
# W x (1 valid + 6 tag + s x ceil(log2(W + 1))) bits a row: s = 1: 32 x 40 +
# 64 x 18 + 128 x 8, s = 2: 16 x 52 + 32 x 22 + 64 x 9, s = 4: 8 x 76 +
# 16 x 30 + 32 x 11 = 7008 bits: ARCHITECTURE.md 17.2) and the
# controller's row-state register file (32 groups of 4 rows x (4 valid + 6
# recency + 4 dirty + 8 fill length) bits: ARCHITECTURE.md 15.1) and its two
# copies of the split counters' upper bits (16 words of 32 - 8 bits: 15.1)
check "8 bank SRAMs, 9 monitor arrays, the row-state and counter register files blackboxed with their shapes" \
    jq -e '([.srams[] | select(.instance | test("^u_bank"))] | length) == 8
           and ([.srams[] | select((.instance | test("^u_bank")) and .kind == "sram" and .depth == 128 and (.width == 21 or .width == 128))] | length) == 8
           and ([.srams[] | select((.instance | test("u_array$")) and .kind == "regfile")] | length) == 9
           and ([.srams[] | select(.instance == "u_rowstate" and .kind == "regfile" and .depth == 32 and .width == 88)] | length) == 1
           and ([.srams[] | select((.instance | test("^u_cnt_hi_(svc|rd)$")) and .kind == "regfile" and .depth == 16 and .width == 24)] | length) == 2
           and (.srams | length) == 20
           and .sram_bits == 4 * 128 * (21 + 128) and .regfile_bits == 32 * 88 + 7008 + 2 * 16 * 24' "$r/report.json"
check "the monitor tuner reported as the tuner, its decision length given" \
    jq -e '.tuner.present and (.tuner.search_cycles | startswith("126 accesses"))
           and ([.modules[] | select(.role == "tuner") | .name] | sort) == ["stc_monitor", "stc_monitor_tuner"]' "$r/report.json"
check "controller and power controller reported" \
    jq -e '([.modules[].name] | index("stc_cache_ctrl") != null and index("stc_power_ctrl") != null)
           and all(.modules[] | select(.name != "stc_cache"); .osu_area_um2 > 0 and (.reg2reg_ns | type) == "number")' "$r/report.json"
check "no flop-exploded SRAM in the logic (fewer than 8000 flops)" jq -e '.totals.flops < 8000' "$r/report.json"
check "array bits by role: tags, lines, row state (valid, recency, dirty, fill length), monitor" \
    jq -e '.array_bits_by_role == {tag: (4 * 128 * 21), data: (4 * 128 * 128),
                                   row_state: (32 * 4 * (4 + 6 + 4 + 8)), monitor: 7008,
                                   counters: (2 * 16 * 24)}' "$r/report.json"
check "no per-row state in the controller's flops (fewer than 1000)" \
    jq -e '[.modules[] | select(.name == "stc_cache_ctrl") | .flops][0] < 1000' "$r/report.json"

# --- check-report.sh can fail
for mut in '.modules[1].ge = null' '.yosys_version = ""' '.checks.latches = 1' '.srams = []' \
           '.modules[1].reg2reg_ns = "x"'; do
    jq "$mut" "$r/report.json" > "$work/mut.json"
    refuse "check-report rejects: $mut" 1 "check-report" synth/check-report.sh "$work/mut.json"
done

# --- determinism, on a small design (the power controller, a stand-in
# tuner and one SRAM under a top): two full runs give the same bytes;
# --ge-only keeps the GE numbers and marks the 0.18 um fields "not run";
# the tuner is reported as such
mkdir -p "$work/small"
cp "$def/stc_power_ctrl.v" "$def/stc_sram.v" "$work/small/"
cat > "$work/small/stc_cache.v" <<'EOF'
module stc_cache (
  input  wire       clk_i,
  input  wire       rst_ni,
  input  wire [3:0] on_req_i,
  input  wire [3:0] ack_i,
  output wire [3:0] pwr_en_o,
  output wire [3:0] iso_o,
  output wire [3:0] ready_o,
  output wire       busy_o,
  input  wire [1:0] addr_i,
  output wire [7:0] rdata_o,
  input  wire [7:0] a_i,
  output wire [15:0] acc_o
);
  stc_tuner #(.W(8)) u_tuner (.clk_i(clk_i), .rst_ni(rst_ni), .a_i(a_i), .acc_o(acc_o));
  stc_power_ctrl u_power (.clk_i(clk_i), .rst_ni(rst_ni), .on_req_i(on_req_i), .ack_i(ack_i),
    .pwr_en_o(pwr_en_o), .iso_o(iso_o), .ready_o(ready_o), .busy_o(busy_o));
  stc_sram #(.DEPTH(4), .WIDTH(8), .GRAN(8), .SEED(32'd0)) u_bank0_data (.clk_i(clk_i),
    .pwr_i(pwr_en_o[0]), .req_i(1'b1), .we_i(1'b0), .addr_i(addr_i), .wmask_i(1'b1),
    .wdata_i(8'd0), .rdata_o(rdata_o));
endmodule
EOF
# a stand-in tuner (parameter overridden: the module is renamed back to
# stc_tuner) and the header line that gives its cycles per search
cat > "$work/small/stc_tuner.v" <<'EOF'
module stc_tuner #(parameter integer W = 4) (
  input  wire           clk_i,
  input  wire           rst_ni,
  input  wire [W-1:0]   a_i,
  output reg  [2*W-1:0] acc_o
);
  always @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) acc_o <= {2*W{1'b0}};
    else         acc_o <= acc_o + a_i * a_i;
endmodule
EOF
printf '#define STC_GEN_TUNER_LONGEST_COMPUTE    42u  /* test */\n' > "$work/small/stc_geometry_gen.h"
check "small design, run 1" synth/synth.sh "$work/small" "$work/o/s1"
check "small design, run 2" synth/synth.sh "$work/small" "$work/o/s2"
check "same report.json twice" cmp "$work/o/s1/report.json" "$work/o/s2/report.json"
check "same report.md twice" cmp "$work/o/s1/report.md" "$work/o/s2/report.md"
check "small design, GE only" synth/synth.sh --ge-only "$work/small" "$work/o/s3"
# shellcheck disable=SC2016 # jq variables, not shell
check "GE only: same GE, 0.18 um fields not run" \
    jq -e --slurpfile full "$work/o/s1/report.json" \
    '[.modules[] | {name, ge, logic_depth}] == [$full[0].modules[] | {name, ge, logic_depth}]
     and all(.modules[] | select(.name != "stc_cache"); .osu_area_um2 == "not run" and .reg2reg_ns == "not run")
     and .totals.osu_area_um2 == "not run"' "$work/o/s3/report.json"

check "the tuner is found by itself (renamed, GE, cycles per search)" \
    jq -e '.tuner.present and .tuner.search_cycles == "42" and .tuner.ge > 0
           and ([.modules[] | select(.name == "stc_tuner" and .role == "tuner" and .flops == 16)] | length) == 1' \
    "$work/o/s1/report.json"
check "the summary has a tuner row against 4000 GE and 164 cycles" \
    bash -c "synth/summary.sh '$work/o/s1/report.json' | grep -q '^| small | [0-9.]* | -[0-9.]* % | 42 | -74.4 % |'"

# --- summary
check "summary without baseline" bash -c "synth/summary.sh '$r/report.json' | grep -q 'Not available: no fixed baseline'"
check "summary against itself: 0 % overhead" \
    bash -c "synth/summary.sh --baseline '$r/report.json' '$r/report.json' | grep -q '| 0 % |.* | 0 % |'"

echo "synth-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
