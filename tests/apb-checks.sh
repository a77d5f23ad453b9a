#!/bin/bash
# The APB register block stc_cache_apb and its register map
# (docs/INTEGRATION.md; gen/apb_regs.c is the one table, gen/emit_apb.c
# writes stc_cache_apb.v, stc_cache_regs.h and stc_cache_regs.md):
#   - for the default geometry, the seed tuner, no tuner, the fixed
#     baseline, 16-bit counters and addresses, 64-bit counters and
#     addresses: the three files are written; stc_cache_apb.v is `verilator
#     --lint-only -Wall` clean with and without SYNTHESIS, the whole output
#     compiles in Icarus (-g2005 -Wall) without a warning, Yosys `proc;
#     check -assert` finds no latch; the FuseSoC core lists the block and
#     not the Markdown; every register of the Markdown table has the same
#     offset in the C header and in the Verilog decode; stc_cache_pair with
#     two blocks, every control port connected by name as
#     docs/INTEGRATION.md 1.3 says (i_<block port> to the pair's
#     i_<mirrored name>), is Verilator -Wall clean (widths included);
#   - stc_cache_regs.h compiles with gcc (and clang) -std=c11 -Wall -Wextra
#     -Werror -pedantic in a tiny program that uses its macros and checks,
#     at compile time, its ID, GEOMETRY and CONFIG reset values against
#     stc_geometry_gen.h (another emitter's view of the same geometry);
#   - tests/rtl/tb_apb.v on the default geometry (stc_cache + the block, an
#     APB requester and protocol checker; everything checked through APB)
#     in Icarus and, with a C++ compiler, in Verilator; red: tb_apb fails
#     on each deliberately broken block (--debug-break apb-refused-write,
#     apb-slverr-hold);
#   - the same command twice gives the same bytes, and bad parameters are
#     still refused with nothing written.
# Usage: apb-checks.sh STCGEN
set -u
STCGEN=${1:?usage: apb-checks.sh STCGEN}
STCGEN="$(cd "$(dirname "$STCGEN")" && pwd)/$(basename "$STCGEN")"
root="$(cd "$(dirname "$0")/.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
CC=${CC:-gcc}

# shellcheck source=tests/lib/checks.sh
. "$root/tests/lib/checks.sh"
# shellcheck source=tests/lib/vl-build.sh
. "$root/tests/lib/vl-build.sh"

for tool in verilator iverilog vvp yosys "$CC"; do
    if ! command -v "$tool" >/dev/null; then
        echo "apb-checks: $tool is missing (make installs it: scripts/ensure-tools.sh)"
        exit 1
    fi
done

# shellcheck disable=SC2016
YOSYS_CHECK='proc; check -assert; select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$sr'

# A value from a generated geometry header: header_value DIR NAME.
header_value() {
    sed -n "s/^#define STC_GEN_$2 *\([0-9]*\)u.*/\1/p" "$1/stc_geometry_gen.h"
}

# Every register of the Markdown table at the same offset in the C header
# and in the Verilog decode: same_offsets DIR.
same_offsets() {
    local dir=$1 rows=0 offset name word
    while read -r offset name; do
        rows=$((rows + 1))
        grep -Eq "^#define STC_REG_${name}(\(n\))? +\(?${offset}u" "$dir/stc_cache_regs.h" \
            || { echo "$name: offset $offset not in stc_cache_regs.h"; return 1; }
        word=$(printf '%03x' $((offset / 4)))
        if grep -q "^  localparam .* R_${name} " "$dir/stc_cache_apb.v"; then
            # one word, or an array: its base's word in the comparison
            grep -Eq "dec_reg = R_${name};" "$dir/stc_cache_apb.v" \
                || { echo "$name: no decode"; return 1; }
            grep -Eq "(word == 10'h${word}\) dec_reg = R_${name};|word\[9:[0-9]+\] == [0-9]+'h[0-9a-f]+.*dec_reg = R_${name};)" \
                "$dir/stc_cache_apb.v" || { echo "$name: decode differs"; return 1; }
        else
            echo "$name: no register number in stc_cache_apb.v"; return 1
        fi
    done < <(sed -n 's/^| \(0x[0-9a-f]*\)[^|]* | \([A-Z_]*\) |.*/\1 \2/p' "$dir/stc_cache_regs.md")
    [ "$rows" -ge 8 ] || { echo "only $rows registers in the Markdown table"; return 1; }
}

# pair_wrapper DIR: a module with stc_cache_pair and two stc_cache_apb, the
# control ports connected by name as docs/INTEGRATION.md 1.3 says.
pair_wrapper() {
    local dir=$1
    awk '
    /^module stc_cache_apb/ { inmod = 1 }
    inmod && /^ *(input|output) +wire/ {
        line = $0; sub(/\/\/.*/, "", line); gsub(/,/, "", line)
        n = split(line, f, " ")
        name = f[n]; range = (n == 4) ? f[3] : ""
        if (name ~ /^(cfg|mnt|cnt|tun)_/) { names[++count] = name; ranges[count] = range }
    }
    /^\);/ { inmod = 0 }
    END {
        print "`timescale 1ns / 1ps"; print "`default_nettype none"
        print "module apb_pair_wrap (input wire clk, input wire rst_n);"
        for (p = 1; p <= 2; p++) {
            pre = (p == 1) ? "i_" : "d_"
            for (k = 1; k <= count; k++) printf "  wire %s %s%s;\n", ranges[k], pre, names[k]
        }
        print "  stc_cache_pair u_pair ("
        print "    .clk_i (clk), .rst_ni (rst_n),"
        for (p = 1; p <= 2; p++) {
            pre = (p == 1) ? "i_" : "d_"
            for (k = 1; k <= count; k++) {
                mirror = names[k]; last = substr(mirror, length(mirror), 1)
                mirror = substr(mirror, 1, length(mirror) - 1) (last == "i" ? "o" : "i")
                printf "    .%s%s (%s%s)%s\n", pre, mirror, pre, names[k], (p == 2 && k == count) ? "" : ","
            }
        }
        print "  );"
        for (p = 1; p <= 2; p++) {
            pre = (p == 1) ? "i_" : "d_"
            printf "  stc_cache_apb u_%sregs (\n", pre
            print "    .clk_i (clk), .rst_ni (rst_n), .psel_i (1'\''b0), .penable_i (1'\''b0),"
            print "    .pwrite_i (1'\''b0), .paddr_i (12'\''d0), .pwdata_i (32'\''d0), .pstrb_i (4'\''d0),"
            print "    .pready_o (), .prdata_o (), .pslverr_o (),"
            for (k = 1; k <= count; k++)
                printf "    .%s (%s%s)%s\n", names[k], pre, names[k], (k == count) ? "" : ","
            print "  );"
        }
        print "endmodule"
    }' "$dir/stc_cache_apb.v"
}

# The C check: compile-time agreement with stc_geometry_gen.h, and the
# macros used the way bare-metal code uses them (on a fake register file).
cat >"$work/regs_check.c" <<'C'
#include "stc_cache_regs.h"
#include "stc_geometry_gen.h"

#include <stdio.h>

_Static_assert(STC_REG_ID_RESET >> 16 == STC_CACHE_REGS_MAGIC, "ID magic");
_Static_assert(STC_FIELD_GET(STC_REG_ID_RESET, STC_REG_ID_TUNER) ==
                   (STC_GEN_TUNER ? (STC_GEN_TUNER_MONITOR ? 1u : 2u) : 0u), "ID tuner");
_Static_assert(STC_FIELD_GET(STC_REG_ID_RESET, STC_REG_ID_WP) == STC_GEN_WAY_PREDICTION, "ID wp");
_Static_assert(STC_FIELD_GET(STC_REG_ID_RESET, STC_REG_ID_MOVES) == STC_GEN_WALK_MOVES, "ID moves");
_Static_assert(1u << STC_REG_GEOMETRY_BANKS_LOG2_RESET == STC_GEN_BANKS, "banks");
_Static_assert(1u << STC_REG_GEOMETRY_BANK_BYTES_LOG2_RESET == STC_GEN_BANK_BYTES, "bank bytes");
_Static_assert(1u << STC_REG_GEOMETRY_LINE_BYTES_LOG2_RESET == STC_GEN_LINE_BYTES, "line bytes");
_Static_assert(STC_FIELD_GET(STC_REG_GEOMETRY_RESET, STC_REG_GEOMETRY_ADDR_BITS) ==
                   STC_GEN_ADDR_BITS, "address bits");
_Static_assert(STC_FIELD_GET(STC_REG_GEOMETRY_RESET, STC_REG_GEOMETRY_COUNTER_BITS) ==
                   STC_GEN_COUNTER_BITS, "counter bits");
_Static_assert(STC_REG_COUNTER_COUNT == 20u && STC_CNT_WALK_INVALIDATIONS == 19u, "counters");
_Static_assert(STC_REG_COUNTER(STC_CNT_MISSES) == STC_REG_COUNTER(0) + 20u, "counter offsets");

static uint32_t fake[STC_CACHE_REGS_SIZE / 4];

int main(void)
{
    uintptr_t base = (uintptr_t)fake;
    STC_CACHE_REG(base, STC_REG_CONFIG) = STC_FIELD_PREP(STC_REG_CONFIG_BANKS_LOG, 2) |
                                          STC_FIELD_PREP(STC_REG_CONFIG_WAYS_LOG, 1) |
                                          STC_FIELD_PREP(STC_REG_CONFIG_WP, 1);
    STC_CACHE_REG(base, STC_REG_MAINT_CTRL) =
        STC_FIELD_PREP(STC_REG_MAINT_CTRL_OP, STC_MAINT_OP_CLEAN) |
        STC_FIELD_PREP(STC_REG_MAINT_CTRL_ALL, 1);
    uint32_t config = STC_CACHE_REG(base, STC_REG_CONFIG);
    if (config != 0x10au || STC_FIELD_GET(config, STC_REG_CONFIG_WAYS_LOG) != 1u ||
        fake[STC_REG_MAINT_CTRL / 4] != 0x5u || STC_REG_CONFIG_RESET == 0u) {
        printf("regs_check: FAIL %#x\n", (unsigned)config);
        return 1;
    }
    printf("regs_check: PASS %s\n", STC_CACHE_REGS_NAME);
    return 0;
}
C

geometries=(
    "default|"
    "seed|--tuner seed"
    "notuner|--no-tuner"
    "fixed|--fixed 8K_4W_32B"
    "narrow|--counter-bits 16 --addr-bits 16"
    "wide|--counter-bits 64 --addr-bits 64"
)
for entry in "${geometries[@]}"; do
    tag=${entry%%|*}
    args=${entry#*|}
    out="$work/$tag"
    # shellcheck disable=SC2086
    quiet "$tag: stcgen $args" "$STCGEN" $args --out "$out"
    [ -d "$out" ] || continue
    for file in stc_cache_apb.v stc_cache_regs.h stc_cache_regs.md; do
        check "$tag: $file written" test -s "$out/$file"
        check "$tag: $file header has the command" \
            grep -qx "\(//\|#\| \*\)   stcgen${args:+ $args}" "$out/$file"
    done
    [ -s "$out/stc_cache_apb.v" ] || continue
    for define in "" -DSYNTHESIS; do
        quiet "$tag: verilator -Wall stc_cache_apb $define" \
            verilator --lint-only -Wall --default-language 1364-2005 $define \
            --top-module stc_cache_apb "$out/stc_cache_apb.v"
        quiet "$tag: iverilog -g2005 -Wall $define (every file)" \
            iverilog -g2005 -Wall $define -o "$work/all.vvp" "$out"/*.v
    done
    quiet "$tag: yosys stc_cache_apb" \
        yosys -q -p "read_verilog $out/stc_cache_apb.v; hierarchy -check -top stc_cache_apb; $YOSYS_CHECK"
    check "$tag: the core lists stc_cache_apb.v" grep -qx "      - stc_cache_apb.v" "$out/stc_cache.core"
    check "$tag: the core does not list the Markdown" bash -c "! grep -q 'stc_cache_regs.md' '$out/stc_cache.core'"
    check "$tag: Markdown, C header and Verilog agree on the offsets" same_offsets "$out"
    pair_wrapper "$out" >"$work/wrap-$tag.v"
    quiet "$tag: stc_cache_pair and two blocks connected by name (verilator -Wall)" \
        verilator --lint-only -Wall -Wno-PINMISSING -Wno-UNUSEDSIGNAL -Wno-DECLFILENAME \
        -Wno-PINCONNECTEMPTY --default-language 1364-2005 --top-module apb_pair_wrap \
        "$work/wrap-$tag.v" "$out"/*.v
    for compiler in "$CC" clang; do
        command -v "$compiler" >/dev/null || continue
        if "$compiler" -std=c11 -Wall -Wextra -Werror -pedantic -I"$out" -o "$work/regs_check" \
            "$work/regs_check.c" >"$work/log" 2>&1; then
            sim "$tag: stc_cache_regs.h with $compiler" "regs_check: PASS" "$work/regs_check"
        else
            fail "$tag: stc_cache_regs.h compiles with $compiler"
        fi
    done
done

# Counters wider than a word have a high-word register; narrower ones and
# 32-bit addresses do not, and their offsets are refused (tb_apb checks it).
check "wide: COUNTER_HI and MAINT_ADDR_HI" \
    grep -q "^#define STC_REG_COUNTER_HI .*0x020u" "$work/wide/stc_cache_regs.h"
check "default: no COUNTER_HI" bash -c "! grep -q COUNTER_HI '$work/default/stc_cache_regs.h'"
check "seed: the tuner window is 64 registers" \
    grep -q "^#define STC_REG_TUNER_COUNT .*64u" "$work/seed/stc_cache_regs.h"
check "notuner: no tuner window" bash -c "! grep -q STC_REG_TUNER '$work/notuner/stc_cache_regs.h'"

# The block beside a generated cache, through APB only.
out="$work/default"
params=()
for name in BANKS BANK_BYTES LINE_BYTES ADDR_BITS COUNTER_BITS WAY_PREDICTION WALK_MOVES TUNER \
    TUNER_MONITOR ROWS; do
    params+=("-Ptb_apb.$name=$(header_value "$out" "$name")")
done
if iverilog -g2005 -Wall "${params[@]}" -o "$work/apb.vvp" "$root/tests/rtl/tb_apb.v" "$out"/*.v \
    >"$work/log" 2>&1 && [ ! -s "$work/log" ]; then
    sim "default: tb_apb (ID, configuration, maintenance, counters, refusals)" "tb_apb: PASS" \
        vvp -n "$work/apb.vvp"
else
    fail "default: tb_apb compiles"
fi
if command -v g++ >/dev/null && command -v make >/dev/null; then
    vparams=()
    for param in "${params[@]}"; do vparams+=("-G${param#-Ptb_apb.}"); done
    # (testbench code: only the generated RTL is held to -Wall)
    if vl_build "$work/vl-apb" -- --cc --exe --main --timing -Wno-fatal -Wno-lint -Wno-style \
        --top-module tb_apb "${vparams[@]}" -o tb "$root/tests/rtl/tb_apb.v" "$out"/*.v \
        >"$work/log" 2>&1; then
        sim "verilator: tb_apb" "tb_apb: PASS" "$work/vl-apb/tb"
    else
        fail "verilator: tb_apb builds"
    fi
else
    echo "apb-checks: no C++ compiler: the Verilator run of tb_apb skipped"
fi

# Red: each broken block (--debug-break apb-*) fails tb_apb in Icarus: a
# refused write that still takes effect (the CONFIG readback after the
# refusals), PSLVERR held past its access (the protocol checker).
for name in apb-refused-write apb-slverr-hold; do
    broken="$work/broken-$name"
    quiet "stcgen --debug-break $name" "$STCGEN" --debug-break "$name" --out "$broken"
    check "$name: the block says it is broken" \
        grep -q "^// BROKEN on purpose (--debug-break $name)" "$broken/stc_cache_apb.v"
    check "$name: only the block differs in the RTL" bash -c \
        "for f in '$out'/*.v; do b=\$(basename \"\$f\"); [ \"\$b\" = stc_cache_apb.v ] && continue; \
         diff <(grep -v '^//' \"\$f\") <(grep -v '^//' '$broken'/\"\$b\") || exit 1; done"
    if iverilog -g2005 -Wall "${params[@]}" -o "$work/broken.vvp" "$root/tests/rtl/tb_apb.v" \
        "$broken"/*.v >"$work/log" 2>&1 && [ ! -s "$work/log" ]; then
        vvp -n "$work/broken.vvp" >"$work/$name.log" 2>&1
        if grep -q "tb_apb: PASS" "$work/$name.log"; then
            fail "$name: tb_apb catches the broken block"
        else
            check "$name: tb_apb catches the broken block" grep -q "^FAIL" "$work/$name.log"
            grep -m1 "^FAIL" "$work/$name.log" | sed 's/^/    /'
        fi
    else
        fail "$name: tb_apb compiles on the broken block"
    fi
done
check "--debug-break apb-slverr-hold: the protocol checker's message" \
    grep -q "FAIL apb protocol: PSLVERR outside the access phase" "$work/apb-slverr-hold.log"

# Determinism, and bad parameters still refused.
quiet "stcgen twice (1)" "$STCGEN" --tuner seed --out "$work/twice1"
quiet "stcgen twice (2)" "$STCGEN" --tuner seed --out "$work/twice2"
check "same command, same bytes" diff -r "$work/twice1" "$work/twice2"
check "same bytes as the checked output" diff -r "$work/twice1" "$work/seed"
mkdir "$work/bad"
check "--counter-bits 8 refused with status 2" bash -c \
    "'$STCGEN' --counter-bits 8 --out '$work/bad/out' 2>'$work/bad.err'; test \$? = 2"
check "--counter-bits 8: the message" grep -q "counter_bits=8\|--counter-bits 8" "$work/bad.err"
check "--counter-bits 8: nothing written" test -z "$(ls -A "$work/bad")"

echo "apb-checks: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
