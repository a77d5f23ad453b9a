/* files.c - the one list of files stcgen writes. */
#include "files.h"

#include "emit.h"

#include <string.h>

/* Verilog leaves first, the highest module last among the Verilog files
 * (stcgen_lint_top names it). */
static const stcgen_file file_table[] = {
    {"stc_sram.v", STCGEN_VERILOG, STCGEN_SRAM_MODULE,
     "single-port SRAM wrapper for every tag and data array", false, false,
     STCGEN_COH_ALWAYS, stcgen_emit_sram},
    {"stc_regfile.v", STCGEN_VERILOG, STCGEN_REGFILE_MODULE,
     "always-on register file: the controller's row state and split counters, the monitor's shadow tags", false, false,
     STCGEN_COH_ALWAYS, stcgen_emit_regfile},
    {"stc_regfile_2w.v", STCGEN_VERILOG, "stc_regfile_2w",
     "always-on register file with two write ports: a coherent cache's row state and snoop tags",
     false, false, STCGEN_COH_ATOMIC, stcgen_emit_regfile_2w},
    /* The protocol's tables, generated from ref/coherence_protocol.c: the
     * coherent controller reads the processor rows, the snoop port the
     * snoop rows; the split table is a leaf ([coherence-rtl] goes on). */
    {"stc_coh_proc_table.v", STCGEN_VERILOG, "stc_coh_proc_table",
     "coherence protocol, atomic bus: the processor's rows (load, store, evict)",
     false, false, STCGEN_COH_ATOMIC, stcgen_emit_coh_proc_table},
    {"stc_coh_snoop_table.v", STCGEN_VERILOG, "stc_coh_snoop_table",
     "coherence protocol, atomic bus: the snoop rows", false,
     false, STCGEN_COH_ATOMIC, stcgen_emit_coh_snoop_table},
    {"stc_coh_snoop.v", STCGEN_VERILOG, "stc_coh_snoop",
     "coherence, atomic bus: one core's snoop port, its duplicate tag array", false, false,
     STCGEN_COH_ATOMIC, stcgen_emit_coh_snoop},
    {"stc_coh_sp_table.v", STCGEN_VERILOG, "stc_coh_sp_table",
     "coherence protocol, split-transaction bus: every row, transient states",
     false, false, STCGEN_COH_SPLIT, stcgen_emit_coh_sp_table},
    {"stc_coh_arbiter.v", STCGEN_VERILOG, "stc_coh_arbiter",
     "the coherent bus's round-robin arbiter", false, false, STCGEN_COH_ANY,
     stcgen_emit_coh_arbiter},
    {"stc_coh_bus.v", STCGEN_VERILOG, "stc_coh_bus",
     "coherence, atomic bus: the bus (tenures, snoops, data windows, words)", false, false,
     STCGEN_COH_ATOMIC, stcgen_emit_coh_bus},
    {"stc_coh_port.v", STCGEN_VERILOG, "stc_coh_port",
     "coherence, atomic bus: one core's joint between its cache and the bus", false, false,
     STCGEN_COH_ATOMIC, stcgen_emit_coh_port},
    {"stc_power_ctrl.v", STCGEN_VERILOG, STCGEN_POWER_MODULE,
     "per-bank power switch and isolation sequencer", false, false, STCGEN_COH_ALWAYS,
     stcgen_emit_power},
    {"stc_tuner.v", STCGEN_VERILOG, "stc_tuner",
     "hardware tuner: search state machines, energy datapath, triggers, registers", true, false,
     STCGEN_COH_ALWAYS, stcgen_emit_tuner},
    {"stc_monitor.v", STCGEN_VERILOG, "stc_monitor",
     "the tuner's miss monitor: sampled shadow tags and counts by stack depth", false, true,
     STCGEN_COH_ALWAYS, stcgen_emit_monitor},
    {"stc_monitor_tuner.v", STCGEN_VERILOG, "stc_monitor_tuner",
     "the monitor tuner's decision unit: the energy of every configuration, the move",
     false, true, STCGEN_COH_ALWAYS, stcgen_emit_monitor_tuner},
    {"stc_cache_ctrl.v", STCGEN_VERILOG, "stc_cache_ctrl",
     "cache controller and datapath: lookup, fill, writeback, walk, counters", false, false,
     STCGEN_COH_ALWAYS, stcgen_emit_ctrl},
    /* Instantiated by nobody: the user puts it beside stc_cache (a leaf). */
    {"stc_cache_apb.v", STCGEN_VERILOG, "stc_cache_apb",
     "APB4 register block for one stc_cache: configuration, maintenance, counters, tuner",
     false, false, STCGEN_COH_ALWAYS, stcgen_emit_apb},
    /* Likewise: one per cache, between its memory port and the interconnect. */
    {"stc_cache_axi.v", STCGEN_VERILOG, "stc_cache_axi",
     "AXI4 manager bridge for one stc_cache's memory port", false, false, STCGEN_COH_ALWAYS,
     stcgen_emit_axi},
    /* Likewise: one per cache, between the CPU's OBI port and its CPU port. */
    {"stc_cache_obi.v", STCGEN_VERILOG, "stc_cache_obi",
     "OBI subordinate adapter for one stc_cache's CPU port, with an uncached range", false, false,
     STCGEN_COH_ALWAYS, stcgen_emit_obi},
    {"stc_cache.v", STCGEN_VERILOG, STCGEN_TOP_MODULE,
     "the cache top: controller, bank SRAMs, power controller, tuner", false, false,
     STCGEN_COH_ALWAYS, stcgen_emit_top},
    {"stc_cache_pair.v", STCGEN_VERILOG, "stc_cache_pair",
     "an I-cache and a D-cache, each an stc_cache", false, false, STCGEN_COH_ALWAYS,
     stcgen_emit_pair},
    {"stc_coherent_system.v", STCGEN_VERILOG, "stc_coherent_system",
     "coherence, atomic bus: the N-core top (caches, their ports, the bus, the memory port)",
     false, false, STCGEN_COH_ATOMIC, stcgen_emit_coh_system},
    {"stc_geometry_gen.h", STCGEN_C_HEADER, NULL, "geometry and derived widths for testbenches",
     false, false, STCGEN_COH_ALWAYS, stcgen_emit_header},
    {"stc_cache_regs.h", STCGEN_C_HEADER, NULL,
     "the register map of stc_cache_apb for software (offsets, fields, reset values)", false,
     false, STCGEN_COH_ALWAYS, stcgen_emit_apb_header},
    {"stc_cache.upf", STCGEN_UPF, NULL, "power intent: one switchable domain per bank",
     false, false, STCGEN_COH_ALWAYS, stcgen_emit_upf},
    {"stc_coherent_system.upf", STCGEN_UPF, NULL,
     "power intent of the N-core system: one switchable domain per bank per core", false, false,
     STCGEN_COH_ATOMIC, stcgen_emit_coh_upf},
    {"stc_cache.core", STCGEN_CORE, NULL, "FuseSoC core description", false, false,
     STCGEN_COH_ALWAYS, stcgen_emit_core},
    {"stc_cache_regs.md", STCGEN_DOC, NULL, "the register map of stc_cache_apb as tables",
     false, false, STCGEN_COH_ALWAYS, stcgen_emit_apb_markdown},
};

size_t stcgen_files(const stcgen_file **files)
{
    *files = file_table;
    return sizeof file_table / sizeof file_table[0];
}

bool stcgen_file_wanted(const stcgen_file *file, const stcgen_params *params)
{
    bool split = params->coh_bus == STC_COH_BUS_SPLIT;
    bool coherence_wanted =
        file->coherence == STCGEN_COH_ALWAYS ||
        (params->coherence && (file->coherence == STCGEN_COH_ANY ||
                               (file->coherence == STCGEN_COH_SPLIT) == split));
    return (!file->tuner_only || stcgen_seed_tuner(params)) &&
           (!file->monitor_only || params->monitor) && coherence_wanted;
}

const char *stcgen_lint_top(void)
{
    return "stc_cache_pair";
}

bool stcgen_is_output_name(const char *name)
{
    for (size_t index = 0; index < sizeof file_table / sizeof file_table[0]; index++) {
        if (strcmp(file_table[index].name, name) == 0) {
            return true;
        }
    }
    return false;
}
