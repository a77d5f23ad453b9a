/* emit.h - one emitter per generated file (gen/emit_*.c). */
#ifndef STCGEN_EMIT_H
#define STCGEN_EMIT_H

#include "files.h"
#include "params.h"
#include "text.h"

void stcgen_emit_sram(stcgen_text *text, const stcgen_file *file, const stcgen_params *params);
void stcgen_emit_regfile(stcgen_text *text, const stcgen_file *file, const stcgen_params *params);
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
void stcgen_emit_core(stcgen_text *text, const stcgen_file *file, const stcgen_params *params);

#endif
