/* emit_monitor.h - the parts of stc_monitor's emitter (emit_monitor.c: the
 * module, stage 0, the counts; emit_monitor_map.c: one set mapping). */
#ifndef STCGEN_EMIT_MONITOR_H
#define STCGEN_EMIT_MONITOR_H

#include "emit.h"

/* Width of the clear walk's counter and row (clear_q, clear_row). */
unsigned stcgen_monitor_clear_width(const stcgen_params *params);

/* Mapping `index`'s declarations, SRAM and stage-1 update. */
void stcgen_emit_monitor_map(stcgen_text *text, const stcgen_params *params, unsigned index);

#endif
