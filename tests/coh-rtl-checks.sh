#!/bin/bash
# The coherence protocol's tables as RTL (`stcgen --protocol P [--bus B]`,
# docs/ARCHITECTURE.md 19.1):
#   - for MSI, MESI and MOESI on the atomic and the split-transaction bus:
#     the table modules are `verilator --lint-only -Wall` clean, compile in
#     Icarus (-g2005 -Wall) without a warning and pass Yosys `proc; check
#     -assert` with no latch; the testbench that tools/stccohtb.c writes
#     from the C model's lookups drives every input code (states and events
#     beyond the protocol's included) and every output must match
#     (PASS with exactly 2^state_bits x 2^event_bits checks);
#   - the files are there exactly with --protocol (atomic: the processor and
#     snoop tables, split: the split table), the name ends in _<protocol>
#     [_split], the FuseSoC core lists them, the cache's own files keep
#     their bodies (only the header differs);
#   - the bus arbiter for 2, 3, 5 and 8 cores: lint, and every grant of
#     4000 cycles of seeded traffic equal to a round-robin reference's
#     (tools/stccohtb.c --arbiter), no core waiting N or more tenures of
#     others; the fixed-priority arbiter (--debug-break coh-arb-fixed)
#     caught;
#   - every deliberately broken table of each protocol and bus
#     (`--debug-break coh-NAME`, the tables Rumur must reject) is caught
#     by the same testbench, naming the row; a break that changes nothing
#     in a protocol is refused;
#   - the output is the same bytes when generated twice;
#   - bad options are refused with the option named and nothing written.
#   - the snoop port (19.4) of every protocol on four geometries (default,
#     8 banks of 32-byte lines, 1 bank, 2 banks): lint, and the testbench
#     that tools/stcsnooptb.c writes from its C reference (the reset walk,
#     then 6000 cycles of writes and snoops under changing configurations,
#     every output compared in every cycle), whose traffic must reach every
#     snoop row of the protocol, same-cycle writes seen by a hit, double
#     matches (more than one bank) and state changes; and a testbench from
#     the coherent stc model's own traffic (--model: 3 cores, core 0
#     reconfigured now and then, its changed slots written as the contract
#     says, every snoop answered by the model's stc_cache_lookup and
#     states); the two broken ports
#     (--debug-break coh-snoop-no-forward, coh-snoop-all-banks) caught; no
#     snoop port on the split bus;
#   - the bus sequencer (19.6) for 2, 3, 5 and 8 cores, behind a memory of
#     latency 20 (the default, 16-byte lines), 2 (the least its handshake
#     allows; 4-byte lines: windows of 2-3 cycles) and one drawn from 2-40
#     for each wait (64-byte lines): lint, and the testbench of
#     tools/stcbustb.c (a cycle-level reference whose every duration is the
#     atomic model's, ref/coherent_cycles.c; 200 tenures of BusWBs, bursts
#     and BusUpgrs with random snoop answers and random words on every data
#     input, every output every cycle),
#     whose traffic must reach every kind of item, supplied and streamed
#     lines, flushes with and without a supply, two suppliers (flagged),
#     back-to-back tenures and owners pausing between items, and the
#     snoop of a miss's lines at its first burst: bursts covered by it
#     (answers kept), lines snooped ahead (BusRdX among them, two
#     suppliers there flagging), later bursts snooped again (in the same
#     group too), bursts on a BusWB's line, and first bursts on lines the
#     tenure before kept (at the grant and after a pause); the bus that
#     makes every memory line wait T (--debug-break coh-bus-latency-again)
#     caught, and the bus that ignores the memory's mem_rready_i and waits
#     a fixed 20 cycles (coh-bus-fixed-latency) caught behind the varying
#     memory (it passes behind the fixed one);
# Usage: coh-rtl-checks.sh STCGEN STCCOHTB STCSNOOPTB STCBUSTB
set -u
usage="usage: coh-rtl-checks.sh STCGEN STCCOHTB STCSNOOPTB STCBUSTB"
STCGEN=${1:?$usage}
STCCOHTB=${2:?$usage}
STCSNOOPTB=${3:?$usage}
STCBUSTB=${4:?$usage}
root="$(cd "$(dirname "$0")/.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

# shellcheck source=tests/lib/checks.sh
. "$root/tests/lib/checks.sh"

for tool in verilator iverilog vvp yosys; do
    if ! command -v "$tool" >/dev/null; then
        echo "coh-rtl-checks: $tool is missing (make installs it: scripts/ensure-tools.sh)"
        exit 1
    fi
done

# shellcheck disable=SC2016
YOSYS_CHECK='proc; check -assert; select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$sr'

# state_bits PROTOCOL BUS: the width of a state code (19.1).
state_bits() {
    case "$1-$2" in
    msi-atomic | mesi-atomic) echo 2 ;;
    moesi-atomic) echo 3 ;;
    *) echo 5 ;;
    esac
}

# lint TAG TOP YOSYS_EXTRA FILE...: Verilator -Wall, Icarus -Wall without a
# warning, and Yosys `check -assert` without latches (YOSYS_EXTRA: commands
# after reading, e.g. a chparam; the files read with SYNTHESIS defined) on
# TOP and the files it needs.
lint() {
    local tag=$1 top=$2 extra=$3
    shift 3
    quiet "$tag: lint (verilator -Wall)" verilator --lint-only -Wall "$@" --top-module "$top"
    quiet "$tag: compiles in Icarus without a warning" iverilog -g2005 -Wall -o /dev/null "$@"
    check "$tag: yosys check, no latch" \
        yosys -q -p "read_verilog -DSYNTHESIS $*; $extra hierarchy -check -top $top; $YOSYS_CHECK"
}

# run_tb NAME OUT TB: compile the testbench with OUT's table modules and run it.
run_tb() {
    local name=$1 out=$2 tb=$3
    iverilog -g2005 -Wall -o "$work/tb.vvp" "$tb" "$out"/stc_coh_*table.v >"$work/log" 2>&1 &&
        vvp -n "$work/tb.vvp" >>"$work/log" 2>&1
}

# upf_instances SYSDIR: every instance the system UPF names (its domains'
# elements, its isolation signals' power controllers) is an instance of
# the elaborated design (Yosys, the SRAMs and power controllers kept whole)
upf_instances() {
    local sys=$1 named missing=0
    yosys -q -l "$work/upf-yosys.log" -p "read_verilog $sys/*.v; hierarchy -top stc_coherent_system;
        setattr -mod -set keep_hierarchy 1 *stc_sram* *stc_power_ctrl*; flatten" >/dev/null 2>&1 ||
        return 1
    sed -n 's/^Keeping stc_coherent_system\.\([^ ]*\) (found keep_hierarchy attribute)\.$/\1/p' \
        "$work/upf-yosys.log" | sort -u >"$work/upf-design.txt"
    named=$( (sed -n 's/^create_power_domain PD_CORE[0-9]*_BANK[0-9]* -elements {\(.*\)}$/\1/p' \
        "$sys/stc_coherent_system.upf" | tr ' ' '\n'
        sed -n 's|^    -isolation_signal \(.*\)/iso_o\[[0-9]*\] \\$|\1|p' \
            "$sys/stc_coherent_system.upf") | tr '/' '.' | sort -u)
    [ -n "$named" ] || return 1
    for instance in $named; do
        grep -qxF "$instance" "$work/upf-design.txt" || { echo "not in the design: $instance"; missing=1; }
    done
    [ "$missing" = 0 ]
}

for protocol in msi mesi moesi; do
    for bus in atomic split; do
        tag="$protocol $bus"
        out="$work/$protocol-$bus"
        quiet "$tag: stcgen --protocol $protocol --bus $bus" \
            "$STCGEN" --protocol "$protocol" --bus "$bus" --out "$out"
        if [ "$bus" = atomic ]; then
            modules="stc_coh_proc_table stc_coh_snoop_table"
            events=$((4 + 8))
            absent=stc_coh_sp_table
        else
            modules="stc_coh_sp_table"
            events=16
            absent="stc_coh_proc_table stc_coh_snoop stc_coh_bus stc_coherent_system stc_regfile_2w"
        fi
        for module in $modules; do
            lint "$tag: $module" "$module" "" "$out/$module.v"
            check "$tag: the core lists $module.v" grep -q "$module.v" "$out/stc_cache.core"
        done
        if [ "$bus" = atomic ]; then
            # the coherent D-cache's controller (19.5), its port to the bus
            # (19.7), and the I+D pair around them
            lint "$tag: stc_coh_port" stc_coh_port "" "$out/stc_coh_port.v"
            check "$tag: the core lists stc_coh_port.v" grep -q "stc_coh_port.v" "$out/stc_cache.core"
            lint "$tag: coherent stc_cache_ctrl" stc_cache_ctrl "" "$out/stc_cache_ctrl.v" \
                "$out/stc_coh_proc_table.v" "$out/stc_regfile.v" "$out/stc_regfile_2w.v"
            quiet "$tag: stc_cache_pair lint (verilator -Wall)" verilator --lint-only -Wall \
                -Wno-DECLFILENAME --top-module stc_cache_pair "$out"/*.v
            quiet "$tag: stc_cache_pair compiles in Icarus without a warning" \
                iverilog -g2005 -Wall -o /dev/null -s stc_cache_pair "$out"/*.v
            # the N-core top (19.8): MSI on 2 cores, MESI on 4 with the
            # tuners, MOESI on 8
            cores=2 tuner=(--no-tuner)
            [ "$protocol" = mesi ] && cores=4 tuner=()
            [ "$protocol" = moesi ] && cores=8
            sys="$work/$protocol-system-$cores"
            quiet "$tag: stcgen --cores $cores ${tuner[*]}" \
                "$STCGEN" --protocol "$protocol" --cores "$cores" "${tuner[@]}" --out "$sys"
            lint "$tag: stc_coherent_system, $cores cores ${tuner[*]}" stc_coherent_system "" \
                "$sys"/*.v
            check "$tag: the core lists stc_coherent_system.v" \
                grep -q "stc_coherent_system.v" "$sys/stc_cache.core"
            # its power intent (19.8): a domain per bank per core, core c's
            # bank b switched by pwr_en_o[c*4 + b], every instance it names
            # in the design (Yosys elaborates the smallest system, 2 cores)
            upf="$sys/stc_coherent_system.upf"
            check "$tag: the system UPF has a domain per bank per core" \
                test "$(grep -c '^create_power_domain PD_CORE[0-9]*_BANK[0-9]* -elements' "$upf")" \
                = $((cores * 4))
            check "$tag: each bank's switch is the system's pwr_en_o[core * 4 + bank]" \
                test "$(awk '/^create_power_switch SW_CORE/ { split($2, n, /[^0-9]+/); want = n[2] * 4 + n[3] }
                    /-control_port/ { if ($0 !~ "pwr_en_o\\[" want "\\]") bad++ ; seen++ }
                    END { print seen + 0, bad + 0 }' "$upf")" = "$((cores * 4)) 0"
            check "$tag: the core lists stc_coherent_system.upf" \
                grep -q "stc_coherent_system.upf" "$sys/stc_cache.core"
            if [ "$cores" = 2 ]; then
                check "$tag: every instance the system UPF names is in the design" \
                    upf_instances "$sys"
            fi
        fi
        for module in $absent; do
            check "$tag: no $module.v" test ! -e "$out/$module.v"
        done
        suffix="_$protocol"
        [ "$bus" = split ] && suffix="${suffix}_split"
        suffix="${suffix}_n2"
        check "$tag: the name ends in $suffix" \
            grep -q "STC_GEN_NAME \"b4_2k_l16_a32$suffix\"" "$out/stc_geometry_gen.h"
        check "$tag: stccohtb writes the testbench" \
            bash -c "'$STCCOHTB' --protocol $protocol --bus $bus >'$work/tb-$protocol-$bus.v'"
        expected=$(((1 << $(state_bits "$protocol" "$bus")) * events))
        if run_tb "$tag" "$out" "$work/tb-$protocol-$bus.v" &&
            grep -qx "PASS $expected checks" "$work/log" && ! grep -q MISMATCH "$work/log"; then
            passed=$((passed + 1))
        else
            fail "$tag: every input code matches the C model's table ($expected checks)"
        fi
        quiet "$tag: again" "$STCGEN" --protocol "$protocol" --bus "$bus" --out "$work/again"
        check "$tag: deterministic (same bytes twice)" diff -r "$out" "$work/again"
        rm -rf "$work/again"
    done
done

# The broken tables: every one that applies must be caught, naming its row.
breaks_atomic="no-invalidate no-supply no-shared"
breaks_split="no-transient-invalidate no-is-d-i no-writeback no-shared silent-e-evict owner-no-supply store-after-pute"
caught=0
for protocol in msi mesi moesi; do
    for bus in atomic split; do
        names=$breaks_atomic
        [ "$bus" = split ] && names=$breaks_split
        for name in $names; do
            out="$work/broken"
            rm -rf "$out"
            if ! "$STCGEN" --protocol "$protocol" --bus "$bus" --debug-break "coh-$name" \
                --out "$out" >"$work/err" 2>&1; then
                # A break that changes nothing in this protocol: refused, nothing written.
                check "$protocol $bus coh-$name: refused with a reason" \
                    grep -q "stcgen: --debug-break coh-$name: .*$protocol" "$work/err"
                check "$protocol $bus coh-$name: nothing written" test ! -e "$out"
                continue
            fi
            check "$protocol $bus coh-$name: the name says BROKEN" \
                grep -q "_BROKEN_coh_" "$out/stc_geometry_gen.h"
            run_tb "broken" "$out" "$work/tb-$protocol-$bus.v"
            if grep -q "^FAIL " "$work/log" && grep -q "^MISMATCH " "$work/log"; then
                passed=$((passed + 1))
                caught=$((caught + 1))
            else
                fail "$protocol $bus coh-$name: the broken table is caught"
            fi
        done
    done
done
# 3 atomic breaks in MESI and MOESI, 2 in MSI; split: MSI 3, MESI 6, MOESI 7.
check "24 broken tables caught" test "$caught" -eq 24

# The bus arbiter (19.3) for 2, 3, 5 and 8 cores: lint, and the testbench
# that tools/stccohtb.c writes from its round-robin reference (4000 cycles
# of seeded traffic, every grant compared, the fairness bound); the
# fixed-priority arbiter (--debug-break coh-arb-fixed) must fail both.
for cores in 2 3 5 8; do
    out="$work/arbiter-$cores"
    quiet "arbiter $cores: stcgen --cores $cores" "$STCGEN" --protocol mesi --cores "$cores" --out "$out"
    check "arbiter $cores: the name ends in _mesi_n$cores" \
        grep -q "STC_GEN_NAME \"b4_2k_l16_a32_mesi_n$cores\"" "$out/stc_geometry_gen.h"
    lint "arbiter $cores" stc_coh_arbiter "" "$out/stc_coh_arbiter.v"
    check "arbiter $cores: stccohtb writes the testbench" \
        bash -c "'$STCCOHTB' --arbiter $cores >'$work/tb-arbiter-$cores.v'"
    iverilog -g2005 -Wall -o "$work/tb.vvp" "$work/tb-arbiter-$cores.v" "$out/stc_coh_arbiter.v" \
        >"$work/log" 2>&1 && vvp -n "$work/tb.vvp" >>"$work/log" 2>&1
    if grep -qx "PASS 4000 checks" "$work/log" && ! grep -q "MISMATCH\|UNFAIR" "$work/log"; then
        passed=$((passed + 1))
    else
        fail "arbiter $cores: every grant is the round-robin rule's, fair"
    fi
done
for cores in 3 8; do
    out="$work/arbiter-broken-$cores"
    quiet "arbiter $cores coh-arb-fixed: generated" \
        "$STCGEN" --protocol mesi --cores "$cores" --debug-break coh-arb-fixed --out "$out"
    iverilog -g2005 -Wall -o "$work/tb.vvp" "$work/tb-arbiter-$cores.v" "$out/stc_coh_arbiter.v" \
        >"$work/log" 2>&1 && vvp -n "$work/tb.vvp" >>"$work/log" 2>&1
    if grep -q "^FAIL " "$work/log" && grep -q "^MISMATCH " "$work/log" && grep -q "^UNFAIR" "$work/log"; then
        passed=$((passed + 1))
    else
        fail "arbiter $cores: the fixed-priority arbiter is caught (grants and fairness)"
    fi
done

# The snoop port (19.4): lint with its table and register file, and the
# testbench of tools/stcsnooptb.c (its own C reference of the duplicate tag
# array, the configurations of ref/config.c, the rows of the C table).
# run_snoop_tb OUT TB: compile and run it against OUT's snoop port.
run_snoop_tb() {
    iverilog -g2005 -Wall -o "$work/tb.vvp" "$2" "$1/stc_coh_snoop.v" "$1/stc_coh_snoop_table.v" \
        "$1/stc_regfile_2w.v" >"$work/log" 2>&1 && vvp -n "$work/tb.vvp" >>"$work/log" 2>&1
}
for protocol in msi mesi moesi; do
    for geometry in default banks=8,bank_bytes=4096,line_bytes=32 banks=1 banks=2; do
        tag="snoop $protocol $geometry"
        out="$work/snoop-$protocol-$geometry"
        options=()
        if [ "$geometry" != default ]; then
            # banks=8,bank_bytes=4096 -> --banks 8 --bank-bytes 4096
            IFS=',' read -r -a assignments <<<"$geometry"
            for assignment in "${assignments[@]}"; do
                name=${assignment%%=*}
                options+=("--${name//_/-}" "${assignment#*=}")
            done
        fi
        quiet "$tag: stcgen" "$STCGEN" --protocol "$protocol" "${options[@]}" --out "$out"
        lint "$tag" stc_coh_snoop "" "$out/stc_coh_snoop.v" "$out/stc_coh_snoop_table.v" \
            "$out/stc_regfile_2w.v"
        check "$tag: the core lists stc_coh_snoop.v" grep -q "stc_coh_snoop.v" "$out/stc_cache.core"
        geometry_option=()
        [ "$geometry" != default ] && geometry_option=(-g "$geometry")
        tb="$work/tb-snoop-$protocol-$geometry.v"
        check "$tag: stcsnooptb writes the testbench" \
            bash -c "'$STCSNOOPTB' --protocol $protocol ${geometry_option[*]} >'$tb'"
        rows=$(sed -n 's/^#define STC_GEN_ROWS *\([0-9]*\)u.*/\1/p' "$out/stc_geometry_gen.h")
        expected=$((rows + 6000))
        if run_snoop_tb "$out" "$tb" && grep -qx "PASS $expected checks" "$work/log" &&
            ! grep -q MISMATCH "$work/log"; then
            passed=$((passed + 1))
        else
            fail "$tag: every output of $expected cycles matches the C reference"
        fi
        # The traffic must reach what the port is for.
        coverage=$(grep '^// coverage:' "$tb")
        pattern='hits ([0-9]+) forwarded ([0-9]+) multi ([0-9]+) changes ([0-9]+) unknown [0-9]+ rows ([0-9]+) of ([0-9]+)'
        hits=0 forwarded=0 multi=0 changes=0 reached=0 total=-1
        if [[ $coverage =~ $pattern ]]; then
            hits=${BASH_REMATCH[1]} forwarded=${BASH_REMATCH[2]} multi=${BASH_REMATCH[3]}
            changes=${BASH_REMATCH[4]} reached=${BASH_REMATCH[5]} total=${BASH_REMATCH[6]}
        fi
        check "$tag: traffic reaches every snoop row ($coverage)" \
            test "$reached" -eq "$total" -a "$total" -gt 0
        check "$tag: hits, same-cycle writes seen, state changes" \
            test "$hits" -gt 100 -a "$forwarded" -gt 20 -a "$changes" -gt 50
        over=0
        [[ $coverage =~ snoop-over-write\ ([0-9]+) ]] && over=${BASH_REMATCH[1]}
        check "$tag: snoops' own writes over the same cycle's write of their slot ($over)" \
            test "$over" -gt 10
        several=0
        [[ $coverage =~ multi-line-changes\ ([0-9]+) ]] && several=${BASH_REMATCH[1]}
        check "$tag: snoops changing several lines of a group in one cycle ($several)" \
            test "$several" -gt 10
        if [ "$geometry" != banks=1 ]; then
            check "$tag: double matches reached" test "$multi" -gt 10
        fi
        # The coherent stc model's own traffic: core 0's slots written as
        # 19.4's contract says, every snoop answered by the model.
        tb="$work/tb-snoop-model-$protocol-$geometry.v"
        check "$tag: stcsnooptb --model writes the testbench" \
            bash -c "'$STCSNOOPTB' --protocol $protocol --model ${geometry_option[*]} >'$tb'"
        expected=$(grep -c '^    cyc(' "$tb")
        if run_snoop_tb "$out" "$tb" && grep -qx "PASS $expected checks" "$work/log" &&
            ! grep -q MISMATCH "$work/log"; then
            passed=$((passed + 1))
        else
            fail "$tag: every answer of $expected cycles is the coherent stc model's"
        fi
        coverage=$(grep '^// coverage:' "$tb")
        pattern='hits ([0-9]+) .* changes ([0-9]+) .* rows ([0-9]+) of ([0-9]+) slot-writes ([0-9]+) reconfigs ([0-9]+)'
        model_ok=0
        if [[ $coverage =~ $pattern ]] && [ "${BASH_REMATCH[1]}" -gt 100 ] &&
            [ "${BASH_REMATCH[2]}" -gt 50 ] && [ "${BASH_REMATCH[3]}" -eq "${BASH_REMATCH[4]}" ] &&
            [ "${BASH_REMATCH[5]}" -gt 100 ] && [ "${BASH_REMATCH[6]}" -gt 3 ]; then
            model_ok=1
        fi
        check "$tag: the model's traffic reaches hits, changes, every row, reconfigurations ($coverage)" \
            test "$model_ok" -eq 1
    done
    for name in no-forward all-banks; do
        out="$work/snoop-broken"
        rm -rf "$out"
        quiet "snoop $protocol coh-snoop-$name: generated" \
            "$STCGEN" --protocol "$protocol" --debug-break "coh-snoop-$name" --out "$out"
        run_snoop_tb "$out" "$work/tb-snoop-$protocol-default.v"
        if grep -q "^FAIL " "$work/log" && grep -q "^MISMATCH " "$work/log"; then
            passed=$((passed + 1))
        else
            fail "snoop $protocol coh-snoop-$name: the broken port is caught"
        fi
    done
done

# The bus sequencer (19.6): lint with its arbiter, and the testbench of
# tools/stcbustb.c (a cycle-level reference timed by ref/coherent_cycles.c).
# run_bus_tb OUT TB: compile and run it against OUT's bus.
run_bus_tb() {
    iverilog -g2005 -Wall -o "$work/tb.vvp" "$2" "$1/stc_coh_bus.v" "$1/stc_coh_arbiter.v" \
        >"$work/log" 2>&1 && vvp -n "$work/tb.vvp" >>"$work/log" 2>&1
}
# bus_verdict NAME OUT TB WANT: run TB against OUT's bus; its verdict must be
# WANT: PASS, or FAIL with a MISMATCH (a broken bus caught).
bus_verdict() {
    run_bus_tb "$2" "$3"
    if { [ "$4" = PASS ] && grep -q "^PASS " "$work/log"; } ||
        { [ "$4" = FAIL ] && grep -q "^FAIL " "$work/log" && grep -q "^MISMATCH " "$work/log"; }; then
        passed=$((passed + 1))
    else
        fail "$1"
    fi
}
for cores in 2 3 5 8; do
    for timing in 20:16 2:4 2-40:64; do
        latency=${timing%%:*}
        line=${timing#*:}
        tag="bus $cores cores T=$latency ${line}B"
        out="$work/bus-$cores-$latency-$line"
        quiet "$tag: stcgen" "$STCGEN" --protocol msi --cores "$cores" --line-bytes "$line" --out "$out"
        lint "$tag" stc_coh_bus "" "$out/stc_coh_bus.v" "$out/stc_coh_arbiter.v"
        check "$tag: the core lists stc_coh_bus.v" grep -q "stc_coh_bus.v" "$out/stc_cache.core"
        tb="$work/tb-bus-$cores-$latency-$line.v"
        check "$tag: stcbustb writes the testbench" \
            bash -c "'$STCBUSTB' --cores $cores --mem-latency $latency -g line_bytes=$line >'$tb'"
        expected=$(grep -c '^    cyc(' "$tb")
        if run_bus_tb "$out" "$tb" && grep -qx "PASS $expected checks" "$work/log" &&
            ! grep -q MISMATCH "$work/log"; then
            passed=$((passed + 1))
        else
            fail "$tag: every output of $expected cycles matches the reference"
        fi
        coverage=$(grep '^// coverage:' "$tb")
        reached=1
        # (a name whole: "ahead" is not "two-ahead")
        for name in tenures back-to-back upgr wb rd rdx supplied continued flush-supplied \
            flush-alone owner-gaps lead-pauses releases empty covered ahead ahead-rdx \
            uncovered-second uncovered-same after-wb stale-grant stale-lead; do
            pattern=" $name ([0-9]+)"
            if ! [[ $coverage =~ $pattern ]] || [ "${BASH_REMATCH[1]}" -lt 5 ]; then
                reached=0
                echo "coh-rtl-checks: $tag: $name reached fewer than 5 times"
            fi
        done
        pattern=" two-suppliers ([0-9]+)"
        if [ "$cores" -gt 2 ] && { ! [[ $coverage =~ $pattern ]] || [ "${BASH_REMATCH[1]}" -lt 1 ]; }; then
            reached=0
            echo "coh-rtl-checks: $tag: no line with two suppliers"
        fi
        # two suppliers of a line only snooped ahead, flagging alone
        pattern=" two-ahead ([0-9]+)"
        if [ "$cores" -gt 2 ] && { ! [[ $coverage =~ $pattern ]] || [ "${BASH_REMATCH[1]}" -lt 5 ]; }; then
            reached=0
            echo "coh-rtl-checks: $tag: two-ahead reached fewer than 5 times"
        fi
        check "$tag: traffic reaches every case ($coverage)" test "$reached" -eq 1
    done
done
out="$work/bus-broken"
quiet "bus coh-bus-latency-again: generated" \
    "$STCGEN" --protocol msi --cores 3 --debug-break coh-bus-latency-again --out "$out"
bus_verdict "bus coh-bus-latency-again: the bus without burst streaming is caught" \
    "$out" "$work/tb-bus-3-20-16.v" FAIL
# The bus that ignores mem_rready_i and takes a run's first beat T = 20
# cycles after mem_rd_o: right behind a memory of that fixed latency, so
# only the bench whose memory varies its latency can catch it.
out="$work/bus-fixed"
quiet "bus coh-bus-fixed-latency: generated" \
    "$STCGEN" --protocol msi --cores 3 --debug-break coh-bus-fixed-latency --out "$out"
"$STCBUSTB" --cores 3 --mem-latency 2-40 >"$work/tb-bus-3-varying-16.v"
bus_verdict "bus coh-bus-fixed-latency: passes behind a memory of latency 20" \
    "$out" "$work/tb-bus-3-20-16.v" PASS
bus_verdict "bus coh-bus-fixed-latency: the bus deaf to mem_rready_i is caught behind latencies 2-40" \
    "$out" "$work/tb-bus-3-varying-16.v" FAIL

# Without --protocol nothing changes: no table files. With --bus split the
# cache's own files differ only in their header comments; on the atomic
# bus the D-cache's controller takes part (ARCHITECTURE.md 19.5: its top
# passes the bus handshake through), the other files again only their
# headers; the coherent controller is checked by make coh-lockstep.
quiet "stcgen (default)" "$STCGEN" --out "$work/default"
check "no coherence files by default" bash -c "! ls '$work/default'/stc_coh_* 2>/dev/null"
body() { sed '1,/^$/d; /^\/\/   \|^\/\/ coherence:\|^\/\/ cache \|^\/\/ parameters:\|^\/\/ derived/d' "$1"; }
for file in stc_cache_ctrl.v stc_cache.v stc_monitor.v stc_sram.v; do
    check "--bus split leaves $file's body as it was" \
        diff <(body "$work/default/$file") <(body "$work/mesi-split/$file")
done
for file in stc_monitor.v stc_sram.v; do
    check "--protocol (atomic) leaves $file's body as it was" \
        diff <(body "$work/default/$file") <(body "$work/mesi-atomic/$file")
done
check "the atomic bus's controller asks for the bus and upgrades (or misses: a lost race)" \
    bash -c "grep -q 'assign bus_req_o' '$work/mesi-atomic/stc_cache_ctrl.v' &&
             grep -q 'm_req_upgr  = 1.b1' '$work/mesi-atomic/stc_cache_ctrl.v' &&
             grep -q 'upg_kept = upg_q && valid_q\[victim_q\]' '$work/mesi-atomic/stc_cache_ctrl.v'"
check "the atomic bus's top passes the bus handshake through" \
    grep -q "bus_own_i" "$work/mesi-atomic/stc_cache.v"
check "the default controller has no coherence" \
    bash -c "! grep -q 'bus_req_o\|upg_q' '$work/default/stc_cache_ctrl.v' '$work/default/stc_cache.v'"

for bad in "--protocol mosi|stcgen: --protocol mosi: unknown protocol 'mosi'" \
    "--bus split|stcgen: --bus split: needs --protocol" \
    "--protocol msi --bus ring|stcgen: --bus ring: unknown bus model 'ring'" \
    "--protocol msi --debug-break coh-no-shared|stcgen: --debug-break coh-no-shared:" \
    "--debug-break coh-no-supply|stcgen: --debug-break coh-no-supply: needs --protocol" \
    "--protocol mesi --debug-break coh-bogus|stcgen: --debug-break coh-bogus: unknown break 'bogus'" \
    "--protocol mesi --bus split --debug-break coh-no-supply|unknown split break 'no-supply'" \
    "--protocol msi --bus split --debug-break coh-snoop-no-forward|the snoop port and the bus sequencer are the atomic bus's" \
    "--protocol msi --bus split --debug-break coh-bus-latency-again|the snoop port and the bus sequencer are the atomic bus's" \
    "--debug-break upgrade-silent|breaks the coherent controller: needs --protocol msi|mesi|moesi on the atomic bus" \
    "--protocol mesi --bus split --debug-break fill-shared|breaks the coherent controller: needs --protocol" \
    "--protocol msi --debug-break fill-shared|MSI reads every line into S already" \
    "--protocol msi --cores 9|stcgen: --cores 9: must be from 2 to 8" \
    "--protocol msi --cores 1|stcgen: --cores 1: must be from 2 to 8" \
    "--protocol msi --cores 0|stcgen: --cores 0: must be from 2 to 8" \
    "--cores 4|stcgen: --cores 4: needs --protocol"; do
    IFS='|' read -r opt message <<<"$bad"
    # shellcheck disable=SC2086
    if "$STCGEN" $opt --out "$work/bad" >"$work/err" 2>&1; then
        fail "$opt is refused"
    else
        cp "$work/err" "$work/log"
        check "$opt: message" grep -qF "$message" "$work/err"
        check "$opt: nothing written" test ! -e "$work/bad"
    fi
done

echo "coh-rtl-checks: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
