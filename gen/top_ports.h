/*
 * top_ports.h - the ports of the cache top stc_cache that pass straight
 * through to its controller (docs/ARCHITECTURE.md section 15.2), in one
 * table: the top (emit_top.c) declares and connects them, the I+D pair
 * (emit_pair.c) repeats them per cache.
 */
#ifndef STCGEN_TOP_PORTS_H
#define STCGEN_TOP_PORTS_H

#include "params.h"

#include <stdbool.h>
#include <stddef.h>

enum {
    STCGEN_MAX_TOP_PORTS = 56,
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
} stcgen_top_port;

/* The ports in declaration order, widths from params (the tuner's only
 * when it is built). Returns the count. */
size_t stcgen_top_ports(const stcgen_params *params, stcgen_top_port *out, size_t max);

#endif
