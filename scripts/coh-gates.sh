#!/bin/bash
# coh-gates.sh STCGEN - gate-equivalent estimate of the coherence RTL that
# `stcgen --protocol P` writes (docs/ARCHITECTURE.md 19), default geometry,
# by the NAND2-equivalent method of scripts/lib/nand2-ge.sh (the one
# tuner-gates.sh uses): the protocol tables of MSI, MESI and MOESI on the
# atomic bus (processor and snoop rows) and the split-transaction bus, the
# bus arbiter and the atomic bus's sequencer (stc_coh_bus, 19.6, its arbiter
# included) for 2, 4 and 8 cores, and one core's snoop port
# (stc_coh_snoop, 19.4) for each protocol on the default geometry and on 8
# banks of 4 KB with 32-byte lines, its duplicate tag array a black box
# whose bits are printed after the rows; the D-cache controller without and
# with coherence (19.5) and one core's port to the bus (19.7); last, one
# core's whole cache (stc_cache without a tuner) without and with each
# protocol. Compare rows
# with each other, not
# with other tools (the ABC script moves such numbers by up to ~30 %).
set -eu -o pipefail
STCGEN=${1:?usage: coh-gates.sh STCGEN}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=scripts/lib/nand2-ge.sh
. "$(dirname "$0")/lib/nand2-ge.sh"

# generate NAME OPTIONS...: stcgen's output into $work/NAME.
generate() {
    local name=$1
    shift
    rm -rf "${work:?}/$name"
    "$STCGEN" "$@" --out "$work/$name" >/dev/null
}

printf '%-28s %7s %7s %7s\n' module cells flops GE
for protocol in msi mesi moesi; do
    generate atomic --protocol "$protocol"
    synth_row "proc table, $protocol" stc_coh_proc_table "read_verilog $work/atomic/stc_coh_proc_table.v"
    synth_row "snoop table, $protocol" stc_coh_snoop_table "read_verilog $work/atomic/stc_coh_snoop_table.v"
    generate split --protocol "$protocol" --bus split
    synth_row "split table, $protocol" stc_coh_sp_table "read_verilog $work/split/stc_coh_sp_table.v"
done
for cores in 2 4 8; do
    generate arbiter --protocol mesi --cores "$cores"
    synth_row "arbiter, $cores cores" stc_coh_arbiter "read_verilog $work/arbiter/stc_coh_arbiter.v"
    synth_row "bus (with arbiter), $cores cores" stc_coh_bus \
        "read_verilog $work/arbiter/stc_coh_bus.v $work/arbiter/stc_coh_arbiter.v"
done
bits=()
for geometry in default banks8; do
    options=()
    [ "$geometry" = banks8 ] && options=(--banks 8 --bank-bytes 4096 --line-bytes 32)
    for protocol in msi mesi moesi; do
        generate snoop --protocol "$protocol" "${options[@]}"
        out=$work/snoop
        synth_row "snoop port, $protocol, $geometry" stc_coh_snoop \
            "read_verilog -DSYNTHESIS $out/stc_coh_snoop.v $out/stc_coh_snoop_table.v; read_verilog -lib $out/stc_regfile_2w.v"
        rows=$(sed -n 's/^#define STC_GEN_ROWS *\([0-9]*\)u.*/\1/p' "$out/stc_geometry_gen.h")
        banks=$(sed -n 's/^#define STC_GEN_BANKS *\([0-9]*\)u.*/\1/p' "$out/stc_geometry_gen.h")
        entry=$(sed -n 's/^#define STC_GEN_COH_ENTRY_BITS *\([0-9]*\)u.*/\1/p' "$out/stc_geometry_gen.h")
        bits+=("snoop port, $protocol, $geometry: $rows rows x $banks banks x $entry bits = $((rows * banks * entry)) register-file bits")
    done
done
# The D-cache controller without and with coherence (19.5: the processor
# side), its register files black boxes, and one core's port to the bus.
generate plain
synth_row "controller, no coherence" stc_cache_ctrl \
    "read_verilog -DSYNTHESIS $work/plain/stc_cache_ctrl.v; read_verilog -lib $work/plain/stc_regfile.v"
for protocol in msi mesi moesi; do
    generate ctrl --protocol "$protocol"
    out=$work/ctrl
    synth_row "controller, $protocol" stc_cache_ctrl \
        "read_verilog -DSYNTHESIS $out/stc_cache_ctrl.v $out/stc_coh_proc_table.v; read_verilog -lib $out/stc_regfile.v $out/stc_regfile_2w.v"
done
synth_row "port to the bus" stc_coh_port "read_verilog $work/ctrl/stc_coh_port.v"
# One core's whole cache (stc_cache, --no-tuner: controller, power
# controller and, with coherence, the snoop port and its tables) without
# and with each protocol: the coherence overhead of a core. Its SRAMs and
# register files are black boxes (their bits: the snoop port's rows
# above); the port to the bus and the bus are outside stc_cache.
core_cache_row() {
    local name=$1
    shift
    generate core --no-tuner "$@"
    local files=() libs=()
    for file in "$work"/core/*.v; do
        case $(basename "$file") in
            stc_sram.v | stc_regfile.v | stc_regfile_2w.v) libs+=("$file") ;;
            stc_cache_*.v | stc_coh_*.v | stc_coherent_system.v)
                # the wrappers, the system and its bus parts are not the cache's;
                # the controller and the snoop port and its tables are
                case $(basename "$file") in
                    stc_cache_ctrl.v | stc_coh_snoop.v | stc_coh_*table.v) files+=("$file") ;;
                esac
                ;;
            *) files+=("$file") ;;
        esac
    done
    synth_row "$name" stc_cache "read_verilog -DSYNTHESIS ${files[*]}; read_verilog -lib ${libs[*]}"
}
core_cache_row "core cache, no coherence"
for protocol in msi mesi moesi; do
    core_cache_row "core cache, $protocol" --protocol "$protocol"
done
printf '%s\n' "${bits[@]}"
