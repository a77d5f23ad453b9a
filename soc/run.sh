#!/bin/bash
# soc/run.sh - build and check the example SoC (make soc; soc/README.md).
# Usage: soc/run.sh STCGEN STCSIM OUTDIR
#
#  1. stcgen writes the default caches' RTL into OUTDIR/rtl;
#  2. the C programs under soc/programs are compiled for RV32I with
#     picolibc (OUTDIR/programs: ELF, binary, $readmemh image, listing);
#  3. Verilator builds two simulators: OUTDIR/vl-soc (stc_soc: the core
#     through the generated OBI adapters, caches, AXI4 bridges and APB
#     register blocks) and OUTDIR/vl-ref (stc_soc_ref: the same core
#     straight to memory);
#  4. per program (OUTDIR/run/PROG):
#     (0) the run without caches prints what the program built for the
#         host prints (a check of the core and of the start-up code);
#     (1) both runs end with exit code 0 and the same console output
#         (lines starting with '#' are informational and not compared);
#     (2) each cache's hardware counters, read through APB at the end,
#         equal stcsim's counts for the trace of the requests that cache
#         accepted, replayed in the configuration the cache ran in (18
#         counters; busy cycles equal stcsim's at T_mem = LAT + 2 plus one
#         per writeback);
#     (3) tune: the program started both hardware tuners through APB,
#         waited for their decisions and printed the configurations they
#         chose, which are the ones (2) checked; it also wrote and read a
#         buffer through the D-cache's uncached window around a clean and
#         an invalidation of its lines (stale before each, right after).
# Exit status 0 only if every check passed.
set -euo pipefail

if [ $# -ne 3 ]; then
    echo "usage: $0 STCGEN STCSIM OUTDIR" >&2
    exit 2
fi
stcgen=$1
stcsim=$2
out=$3
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
programs=${SOC_PROGRAMS:-"crc32 qsort matmul hash tune"}   # SOC_PROGRAMS: a subset
lat=10            # the AXI4 memory model's latency (tb_axi_mem LAT)
tmem=$((lat + 2)) # the latency the caches see through the AXI4 bridges
t0=$(date +%s)

# Tools: the RISC-V compiler and picolibc (Debian), Verilator, jq.
"$root/scripts/ensure-tools.sh" riscv64-unknown-elf-gcc:gcc-riscv64-unknown-elf \
    verilator:verilator jq:jq
"$root/scripts/ensure-packages.sh" picolibc-riscv64-unknown-elf

mkdir -p "$out"
out=$(cd "$out" && pwd)

# ---------------------------------------------------------------- 1. RTL
echo "== soc: stcgen --out $out/rtl"
"$stcgen" --out "$out/rtl" --force >/dev/null
if [ ! -f "$out/rtl/stc_cache_obi.v" ]; then
    echo "soc: FAIL: stcgen wrote no stc_cache_obi.v (the OBI adapter)" >&2
    exit 1
fi
geo="$out/rtl/stc_geometry_gen.h"
gval() { sed -n "s/^#define $1 *\([0-9]*\)u.*/\1/p" "$geo"; }
geometry="banks=$(gval STC_GEN_BANKS),bank_bytes=$(gval STC_GEN_BANK_BYTES),line_bytes=$(gval STC_GEN_LINE_BYTES),addr_bits=$(gval STC_GEN_ADDR_BITS)"
echo "   geometry $geometry"

# ---------------------------------------------------------------- 2. programs
echo "== soc: programs (riscv64-unknown-elf-gcc -march=rv32i, picolibc)"
pdir="$out/programs"
mkdir -p "$pdir"
cflags=(-march=rv32i -mabi=ilp32 -O2 -g -Wall -Wextra -Werror -ffreestanding
        -DPICOLIBC_INTEGER_PRINTF_SCANF --specs=picolibc.specs -nostartfiles
        -T "$here/programs/link.ld" -I "$here/programs" -I "$out/rtl"
        -Wl,--gc-sections -Wl,--no-warn-rwx-segments)
for p in $programs; do
    riscv64-unknown-elf-gcc "${cflags[@]}" -o "$pdir/$p.elf" \
        "$here/programs/crt0.S" "$here/programs/soc.c" "$here/programs/$p.c"
    riscv64-unknown-elf-objcopy -O binary "$pdir/$p.elf" "$pdir/$p.bin"
    # One little-endian 32-bit word a line, from address 0: $readmemh.
    od -An -v -tx4 -w4 "$pdir/$p.bin" > "$pdir/$p.hex"
    riscv64-unknown-elf-objdump -d "$pdir/$p.elf" > "$pdir/$p.lst"
    # The same program for the host (SOC_HOST: no caches, the host's
    # printf): what the core must print.
    "${CC:-gcc}" -std=c11 -O2 -Wall -Wextra -Werror -DSOC_HOST -I "$here/programs" -I "$out/rtl" \
        -o "$pdir/$p.host" "$here/programs/$p.c"
done

# ---------------------------------------------------------------- 3. simulators
vl_build() {   # dir top files...
    local dir=$1 top=$2
    shift 2
    verilator --cc --exe --build -j 2 --prefix Vtb --top-module "$top" \
        -Wno-fatal -Wno-lint -Wno-style --x-assign fast --x-initial fast \
        -CFLAGS -O1 -Mdir "$dir" -o Vtb "$@" "$here/tb/tb_main.cpp" > "$dir.log" 2>&1 || {
        echo "soc: FAIL: verilator build of $top (log: $dir.log)" >&2
        tail -30 "$dir.log" >&2
        exit 1
    }
}
rtl_common=("$here/rtl/stc_rv32i.v" "$here/rtl/stc_soc_obi_demux.v" "$here/rtl/stc_soc_obi_apb.v"
            "$here/rtl/stc_soc_console.v" "$here/rtl/stc_soc_periph.v")
gen_rtl=()
for f in "$out"/rtl/*.v; do gen_rtl+=("$f"); done
echo "== soc: verilator --lint-only -Wall: stc_soc and stc_soc_ref"
for top in stc_soc stc_soc_ref; do
    verilator --lint-only -Wall --default-language 1364-2005 --top-module "$top" \
        "${rtl_common[@]}" "$here/rtl/$top.v" "${gen_rtl[@]}" > "$out/lint-$top.log" 2>&1 || {
        echo "soc: FAIL: $top is not lint clean (log: $out/lint-$top.log)" >&2
        head -30 "$out/lint-$top.log" >&2
        exit 1
    }
done
echo "== soc: verilator: tb_soc (with caches) and tb_soc_ref (without)"
vl_build "$out/vl-soc" tb_soc -GLAT=$lat "${rtl_common[@]}" "$here/rtl/stc_soc.v" \
    "${gen_rtl[@]}" "$here/tb/tb_axi_mem.v" "$here/tb/tb_soc.v"
vl_build "$out/vl-ref" tb_soc_ref "${rtl_common[@]}" "$here/rtl/stc_soc_ref.v" \
    "$here/tb/tb_obi_mem.v" "$here/tb/tb_soc_ref.v"

# ---------------------------------------------------------------- 4. runs and checks
fails=0
fail() {
    echo "   FAIL: $*"
    fails=$((fails + 1))
}
# Every counter stcsim also counts, except the two that depend on memory
# timing (the model's fixed T_mem is not the AXI4 memory's): cycles gets
# its own check below; reconfig_cycles is 0 here (the tuners change the
# configuration only in tune's first run, whose counts are cleared).
compared="requests request_misses accesses reads writes misses read_misses write_misses
first_probe_hits second_probe_hits fills fill_bursts writebacks reconfigs walk_rows
banks_woken walk_writebacks walk_invalidations"
summary="$out/summary.txt"
: > "$summary"

for p in $programs; do
    echo "== soc: $p"
    rdir="$out/run/$p"
    rm -rf "$rdir"
    mkdir -p "$rdir"
    ts=$(date +%s)
    rc_ref=0
    "$out/vl-ref/Vtb" +image="$pdir/$p.hex" > "$rdir/ref.out" 2> "$rdir/ref.log" || rc_ref=$?
    tr=$(date +%s)
    rc_soc=0
    "$out/vl-soc/Vtb" +image="$pdir/$p.hex" +tuner_off +counters="$rdir/counters.json" \
        +trace_i="$rdir/i.lackey" +trace_d="$rdir/d.lackey" +mark_i="$rdir/i.mark" +mark_d="$rdir/d.mark" \
        > "$rdir/soc.out" 2> "$rdir/soc.log" || rc_soc=$?
    te=$(date +%s)
    sed 's/^/   ref: /' "$rdir/ref.log" | grep 'tb:' || true
    sed 's/^/   soc: /' "$rdir/soc.log" | grep 'tb:' || true

    # (0) the core: the reference run prints what the host build prints
    rc_host=0
    "$pdir/$p.host" > "$rdir/host.out" || rc_host=$?
    if [ $rc_host -ne 0 ]; then
        fail "$p: the host build exited with $rc_host"
    elif diff <(grep -v '^#' "$rdir/host.out") <(grep -v '^#' "$rdir/ref.out") > "$rdir/host.diff"; then
        echo "   (0) output without caches == the host build's"
    else
        fail "$p: the core's output differs from the host build's ($rdir/host.diff)"
    fi

    # (1) exit codes and output
    grep -q 'tb: .* exit=0 ' "$rdir/ref.log" && [ $rc_ref -eq 0 ] ||
        fail "$p: the reference run did not end with exit code 0"
    grep -q 'tb: .* exit=0 ' "$rdir/soc.log" && [ $rc_soc -eq 0 ] ||
        fail "$p: the run with caches did not end with exit code 0"
    grep -q 'axi_err=0' "$rdir/soc.log" || fail "$p: an AXI4 response was not OKAY"
    grep -v '^#' "$rdir/ref.out" > "$rdir/ref.cmp" || true
    grep -v '^#' "$rdir/soc.out" > "$rdir/soc.cmp" || true
    if [ ! -s "$rdir/ref.cmp" ]; then
        fail "$p: the reference run printed nothing"
    elif diff -u "$rdir/ref.cmp" "$rdir/soc.cmp" > "$rdir/out.diff"; then
        echo "   (1) output with caches == output without ($(wc -l < "$rdir/ref.cmp") lines), exit 0"
    else
        fail "$p: output differs from the reference run ($rdir/out.diff)"
        head -20 "$rdir/out.diff"
    fi
    sed 's/^/   | /' "$rdir/soc.out"

    # (2) hardware counters == stcsim on the logged trace
    if [ ! -s "$rdir/counters.json" ]; then
        fail "$p: no counters read"
        continue
    fi
    for c in icache dcache; do
        ch=${c:0:1}
        trace=$rdir/$ch.lackey
        cfg=$(jq -r ".$c.config" "$rdir/counters.json")
        mark=$(cat "$rdir/$ch.mark")
        if [ "$mark" -lt 0 ]; then
            fail "$p: $c was emptied after its counters were cleared: no trace matches them"
            continue
        fi
        # stcsim on the whole trace (from the cache's last empty state) and,
        # if the counters were cleared after some of it, on that part: the
        # counters cover the difference.
        "$stcsim" -g "$geometry,mem_latency=$tmem" -c "$cfg" --json "$trace" > "$rdir/$c.stcsim.json"
        if [ "$mark" -gt 0 ]; then
            head -n "$mark" "$trace" > "$rdir/$ch.before-clear.lackey"
            "$stcsim" -g "$geometry,mem_latency=$tmem" -c "$cfg" --json "$rdir/$ch.before-clear.lackey" \
                > "$rdir/$c.before-clear.stcsim.json"
        fi
        sim() {
            local v
            v=$(jq -r ".configs[0].$c.$1" "$rdir/$c.stcsim.json")
            if [ "$mark" -gt 0 ]; then
                v=$((v - $(jq -r ".configs[0].$c.$1" "$rdir/$c.before-clear.stcsim.json")))
            fi
            echo "$v"
        }
        hwc() { jq -r ".$c.$1" "$rdir/counters.json"; }
        bad=""
        for k in $compared; do
            hw=$(hwc "$k")
            sw=$(sim "$k")
            if [ "$hw" != "$sw" ]; then
                bad="$bad $k(hw $hw, stcsim $sw)"
            fi
        done
        hw_acc=$(hwc accesses)
        hw_miss=$(hwc misses)
        hw_wb=$(hwc writebacks)
        hw_cyc=$(hwc cycles)
        sw_cyc=$(sim cycles)
        # Busy cycles: stcsim's fixed-latency memory with T_mem = LAT + 2
        # (the bridge registers the AR and each R beat: +2) for reads; a
        # writeback's response comes one cycle later than that (its last W
        # beat passes the bridge's one-beat register first), so + 1 per
        # writeback (misses' and walks').
        want_cyc=$((sw_cyc + hw_wb + $(hwc walk_writebacks)))
        lines=$(($(wc -l < "$trace") - mark))
        if [ -n "$bad" ]; then
            fail "$p: $c in $cfg: hardware counters != stcsim:$bad"
        else
            echo "   (2) $c $cfg: $lines requests traced; accesses $hw_acc, misses $hw_miss, writebacks $hw_wb: hardware == stcsim (18 counters)"
        fi
        if [ "$hw_cyc" != "$want_cyc" ]; then
            fail "$p: $c busy cycles $hw_cyc != stcsim's $sw_cyc (T_mem $tmem) + 1 per writeback = $want_cyc"
        else
            echo "   (2) $c busy cycles $hw_cyc == stcsim's $sw_cyc (T_mem $tmem) + 1 per writeback"
        fi
        printf '%-7s %-7s %-12s acc %8s miss %6s wb %5s  cycles %8s (stcsim %8s)\n' \
            "$p" "$c" "$cfg" "$hw_acc" "$hw_miss" "$hw_wb" "$hw_cyc" "$sw_cyc" >> "$summary"
    done

    # (2') the comparison has teeth: the same D trace in another
    # configuration (half the ways) must not give the same misses.
    if [ "$p" = crc32 ]; then
        "$stcsim" -g "$geometry,mem_latency=$tmem" -c 8K_2W_16B --json "$rdir/d.lackey" > "$rdir/dcache.teeth.json"
        if [ "$(jq -r '.configs[0].dcache.misses' "$rdir/dcache.teeth.json")" = "$(jq -r '.dcache.misses' "$rdir/counters.json")" ]; then
            fail "$p: stcsim in 8K_2W_16B gives the hardware's D misses too: the check (2) would not see a wrong configuration"
        else
            echo "   (2') control: the D trace in 8K_2W_16B gives $(jq -r '.configs[0].dcache.misses' "$rdir/dcache.teeth.json") misses, not the hardware's $(jq -r '.dcache.misses' "$rdir/counters.json")"
        fi
    fi

    # (3) the tuner program
    if [ "$p" = tune ]; then
        for c in I D; do
            line=$(grep "^# $c-cache tuner:" "$rdir/soc.out" || true)
            dec=$(echo "$line" | sed -n 's/.*tuner: \([0-9]*\) decisions.*/\1/p')
            chose=$(echo "$line" | sed -n 's/.* chose \([^ ]*\)$/\1/p')
            lc=$(echo "$c" | tr ID id)cache
            ran=$(jq -r ".$lc.config" "$rdir/counters.json")
            if [ -z "$line" ] || [ -z "$dec" ] || [ "$dec" -lt 8 ]; then
                fail "tune: the $c-cache tuner did not report 8 decisions ($line)"
            elif [ "$chose" != "$ran" ]; then
                fail "tune: the $c-cache tuner chose $chose but the cache ran in $ran"
            else
                echo "   (3) $c-cache tuner: $dec decisions, chose $chose (the configuration (2) checked)"
            fi
        done
        # The coherence part (the D-cache's uncached window and scope-line
        # maintenance) shows stale words before each operation with caches:
        # else its "ok" lines would prove nothing.
        s1=$(sed -n 's/^# before the clean, \([0-9]*\) of.*/\1/p' "$rdir/soc.out")
        s2=$(sed -n 's/^# before the invalidation, \([0-9]*\) of.*/\1/p' "$rdir/soc.out")
        if [ -z "$s1" ] || [ -z "$s2" ] || [ "$s1" -eq 0 ] || [ "$s2" -eq 0 ]; then
            fail "tune: no stale words before the clean ($s1) or the invalidation ($s2): the uncached window does not bypass the D-cache"
        else
            echo "   (3) uncached window: $s1 words stale in memory before the clean, $s2 in the D-cache before the invalidation; right after each"
        fi
    fi
    echo "   time: reference $((tr - ts)) s, with caches $((te - tr)) s"
done

echo "== soc: $(($(date +%s) - t0)) s"
cat "$summary"
if [ $fails -ne 0 ]; then
    echo "soc: $fails check(s) FAILED"
    exit 1
fi
echo "soc: all checks passed"
