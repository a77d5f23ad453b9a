/*
 * debug_break.h - `stcgen --debug-break NAME` (a test aid, ARCHITECTURE.md
 * 14.1, never on by default): a deliberately broken controller, tuner or
 * top multiplexer for
 * the lockstep harness (tb/) to catch, a broken AXI4 memory bridge for
 * tests/axi-checks.sh, a broken OBI adapter for tests/obi-checks.sh or a
 * broken APB register block for tests/apb-checks.sh to catch. Each bug replaces one line of one
 * module's template, found by exact match, with a wrong one; if the template
 * line changes, the option fails with a message instead of breaking nothing.
 */
#ifndef STCGEN_DEBUG_BREAK_H
#define STCGEN_DEBUG_BREAK_H

#include <stddef.h>

typedef enum {
    STCGEN_BREAK_CTRL,
    STCGEN_BREAK_TUNER,
    STCGEN_BREAK_TOP,
    STCGEN_BREAK_AXI, /* the AXI4 memory bridge stc_cache_axi (emit_axi.c) */
    STCGEN_BREAK_OBI, /* the OBI adapter stc_cache_obi (emit_obi.c) */
    STCGEN_BREAK_APB  /* the APB register block stc_cache_apb (emit_apb.c) */
} stcgen_break_module;

/* 0 if NAME is a known bug whose template line occurs exactly once in its
 * module's template; else -1 with the reason (and the known names) in err. */
int stcgen_debug_break_check(const char *name, char *err, size_t err_len);

/* What bug NAME does, for the generated file's comment; NULL if NAME is
 * NULL, unknown or breaks another module. */
const char *stcgen_debug_break_what(const char *name, stcgen_break_module module);

/* The line to emit for template line `line` of `module` with bug NAME (NULL:
 * none): the broken replacement where it matches, else the line itself. */
const char *stcgen_debug_break_line(const char *name, stcgen_break_module module,
                                    const char *line);

/* The templates, NULL-terminated (emit_ctrl.c, emit_tuner.c), and the
 * top's configuration multiplexer (emit_top.c). */
const char *const *stcgen_ctrl_template_lines(void);
const char *const *stcgen_tuner_template_lines(void);
const char *const *stcgen_top_mux_lines(void);
/* The top's back-to-back rule with the monitor tuner (emit_top.c). */
const char *const *stcgen_top_gap_lines(void);
/* The AXI4 bridge's lines a bug may replace (emit_axi.c). */
const char *const *stcgen_axi_break_lines(void);
/* The OBI adapter's lines a bug may replace (emit_obi.c). */
const char *const *stcgen_obi_break_lines(void);
/* The APB register block's lines a bug may replace (emit_apb.c). */
const char *const *stcgen_apb_break_lines(void);

#endif
