/*
 * top_ports.h - the ports of the cache top stc_cache that pass straight
 * through to its controller (or, coherent, to its snoop port) (docs/ARCHITECTURE.md section 15.2), in one
 * table: the top (emit_top.c) declares and connects them, the I+D pair
 * (emit_pair.c) repeats them per cache.
 */
#ifndef STCGEN_TOP_PORTS_H
#define STCGEN_TOP_PORTS_H

#include "params.h"
#include "text.h"

#include <stdbool.h>
#include <stddef.h>

enum {
    STCGEN_MAX_TOP_PORTS = 80,
    STCGEN_SEED_TUNER_ADDR_BITS = 6 /* stc_tuner's reg_addr_i (gen/stc_tuner.v.in) */
};

typedef struct {
    bool input;       /* else an output */
    unsigned width;   /* bits */
    const char *name; /* e.g. "cpu_req_valid_i" */
    const char *what; /* comment, "" for none */
    bool writes;      /* only a cache that stores uses it (the pair leaves it
                         off its I-cache) */
    bool tuner;       /* the tuner's register port (section 16), not the
                         controller's; only when the tuner is built */
    bool coherence;   /* the coherent D-cache's bus handshake (--protocol on
                         the atomic bus, ARCHITECTURE.md 19.5); only then */
    bool snoop;       /* (coherence) the snoop port u_snoop's (19.4), not
                         the controller's */
} stcgen_top_port;

/* The ports in declaration order, widths from params (the tuner's only
 * when it is built). Returns the count. */
size_t stcgen_top_ports(const stcgen_params *params, stcgen_top_port *out, size_t max);

/* The uncached single-word port between the OBI adapter stc_cache_obi and
 * the AXI4 bridge stc_cache_axi (ARCHITECTURE.md 14.9, 14.10), as the
 * bridge declares it (requests in, responses out, like stc_cache's CPU
 * port); the adapter declares it mirrored. Returns the count. */
size_t stcgen_unc_ports(const stcgen_params *params, stcgen_top_port *out, size_t max);

/* Blocks beside stc_cache (the APB register block, the AXI4 bridge, the OBI
 * adapter) declare some of these ports mirrored, so that the two connect by
 * name. */

/* "[width-1:0]", or "" for one bit: a declaration's range. */
void stcgen_port_range(char *out, size_t len, unsigned width);
/* One line of a module's port list: direction, range, name, a comma unless
 * `last`, and `what` as a comment unless it is "". */
void stcgen_declare_port(stcgen_text *text, bool input, unsigned width, const char *name,
                         bool last, const char *what);
/* `port` declared for the block that drives or reads it: the direction
 * turned and the suffix with it (cfg_valid_i -> output cfg_valid_o).
 * Returns -1 and writes nothing for a name without an _i or _o suffix. */
int stcgen_declare_mirrored_port(stcgen_text *text, const stcgen_top_port *port, bool last);

#endif
