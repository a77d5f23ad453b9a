/* emit.h - one emitter per generated file (gen/emit_*.c). */
#ifndef STCGEN_EMIT_H
#define STCGEN_EMIT_H

#include "files.h"
#include "params.h"
#include "text.h"

/*
 * The time unit and precision every generated Verilog file declares, first,
 * before `default_nettype none (ARCHITECTURE.md 14.1). The RTL has no delays,
 * but a simulation that mixes files with and without a `timescale fails
 * (Verilator's TIMESCALEMOD) or warns (Icarus), so ours must never be the
 * files without one. One definition for the emitters; the templates
 * (stc_cache_ctrl.v.in, stc_tuner.v.in) spell out the same line, and
 * tests/rtl-checks.sh checks that every file starts with exactly this line.
 */
#define STCGEN_TIMESCALE "`timescale 1ns / 1ps"

void stcgen_emit_sram(stcgen_text *text, const stcgen_file *file, const stcgen_params *params);
void stcgen_emit_regfile(stcgen_text *text, const stcgen_file *file, const stcgen_params *params);
void stcgen_emit_coh_system(stcgen_text *text, const stcgen_file *file,
                            const stcgen_params *params);
void stcgen_emit_regfile_2w(stcgen_text *text, const stcgen_file *file,
                            const stcgen_params *params);
void stcgen_emit_power(stcgen_text *text, const stcgen_file *file, const stcgen_params *params);
void stcgen_emit_tuner(stcgen_text *text, const stcgen_file *file, const stcgen_params *params);
void stcgen_emit_monitor(stcgen_text *text, const stcgen_file *file, const stcgen_params *params);
void stcgen_emit_monitor_tuner(stcgen_text *text, const stcgen_file *file,
                               const stcgen_params *params);
void stcgen_emit_ctrl(stcgen_text *text, const stcgen_file *file, const stcgen_params *params);
void stcgen_emit_top(stcgen_text *text, const stcgen_file *file, const stcgen_params *params);
void stcgen_emit_pair(stcgen_text *text, const stcgen_file *file, const stcgen_params *params);
void stcgen_emit_header(stcgen_text *text, const stcgen_file *file, const stcgen_params *params);
void stcgen_emit_upf(stcgen_text *text, const stcgen_file *file, const stcgen_params *params);
void stcgen_emit_coh_upf(stcgen_text *text, const stcgen_file *file,
                         const stcgen_params *params);
void stcgen_emit_core(stcgen_text *text, const stcgen_file *file, const stcgen_params *params);
/* The APB register block and its map (emit_apb.c, apb_regs.c's one table). */
void stcgen_emit_apb(stcgen_text *text, const stcgen_file *file, const stcgen_params *params);
void stcgen_emit_apb_header(stcgen_text *text, const stcgen_file *file,
                            const stcgen_params *params);
void stcgen_emit_apb_markdown(stcgen_text *text, const stcgen_file *file,
                              const stcgen_params *params);
/* The AXI4 bridge of the memory port (emit_axi.c). */
void stcgen_emit_axi(stcgen_text *text, const stcgen_file *file, const stcgen_params *params);
/* The OBI adapter of the CPU port, with its uncached range (emit_obi.c). */
void stcgen_emit_obi(stcgen_text *text, const stcgen_file *file, const stcgen_params *params);
/* The coherence protocol's tables (emit_coh_table.c, ARCHITECTURE.md 19.1). */
void stcgen_emit_coh_proc_table(stcgen_text *text, const stcgen_file *file,
                                const stcgen_params *params);
void stcgen_emit_coh_snoop_table(stcgen_text *text, const stcgen_file *file,
                                 const stcgen_params *params);
void stcgen_emit_coh_sp_table(stcgen_text *text, const stcgen_file *file,
                              const stcgen_params *params);
/* One core's snoop port, its duplicate tag array (emit_coh_snoop.c,
 * ARCHITECTURE.md 19.4). */
void stcgen_emit_coh_snoop(stcgen_text *text, const stcgen_file *file,
                           const stcgen_params *params);
/* The atomic bus's sequencer (emit_coh_bus.c, ARCHITECTURE.md 19.6). */
void stcgen_emit_coh_bus(stcgen_text *text, const stcgen_file *file, const stcgen_params *params);
/* One core's joint between its coherent cache and the bus (emit_coh_port.c,
 * ARCHITECTURE.md 19.7). */
void stcgen_emit_coh_port(stcgen_text *text, const stcgen_file *file, const stcgen_params *params);
/* The bus arbiter (emit_coh_arbiter.c, ARCHITECTURE.md 19.3). */
void stcgen_emit_coh_arbiter(stcgen_text *text, const stcgen_file *file,
                             const stcgen_params *params);

#endif
