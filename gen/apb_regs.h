/*
 * apb_regs.h - the register map of stc_cache_apb, the APB register block
 * (docs/INTEGRATION.md), as one table.
 *
 * Three files are written from it: the Verilog decode (emit_apb.c,
 * stc_cache_apb.v), the C header (stc_cache_regs.h) and the Markdown table
 * (stc_cache_regs.md). Offsets, field positions, access rights and reset
 * values live only here, so the three cannot drift apart. The map depends
 * on the geometry (counter width, address width, tuner kind), so it is
 * built from stcgen_params, and every width in it comes from the cache's
 * port table (top_ports.c).
 */
#ifndef STCGEN_APB_REGS_H
#define STCGEN_APB_REGS_H

#include "params.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    STCGEN_APB_ADDR_BITS = 12,  /* PADDR: a 4 KiB window */
    STCGEN_APB_MAX_FIELDS = 8,
    STCGEN_APB_MAX_REGS = 16,
    STCGEN_APB_COUNTERS = 20,   /* section 9's counters, numbered as 15.2 */
    STCGEN_APB_MAGIC = 0x57CA,  /* ID[31:16]: "stc cache" */
    STCGEN_APB_VERSION = 1      /* ID[15:8]: this map's version */
};

/* What a register does: emit_apb.c generates its behaviour from this. */
typedef enum {
    STCGEN_APB_ID,          /* constant: magic, version, build options */
    STCGEN_APB_GEOMETRY,    /* constant: the geometry */
    STCGEN_APB_CONFIG,      /* write: request a change; read: the current configuration */
    STCGEN_APB_STATUS,      /* what is in progress, the last change's error */
    STCGEN_APB_MAINT_ADDR,  /* byte address of a maintenance operation, low word */
    STCGEN_APB_MAINT_ADDR_HI, /* its high word (addr_bits > 32 only) */
    STCGEN_APB_MAINT_CTRL,  /* write: start an operation */
    STCGEN_APB_CNT_CLEAR,   /* write 1: clear every counter */
    STCGEN_APB_COUNTER_HI,  /* the high word of the counter read last (counter_bits > 32) */
    STCGEN_APB_COUNTER,     /* array: counter n at offset + 4n */
    STCGEN_APB_TUNER        /* array: tuner register n at offset + 4n (tuner built) */
} stcgen_apb_role;

typedef struct {
    const char *name; /* upper case, C-macro part: "BANKS_LOG" */
    unsigned lsb;
    unsigned width;
    uint32_t reset;   /* the field's value after reset (a constant's value) */
    const char *what;
} stcgen_apb_field;

typedef struct {
    const char *name;     /* upper case: "CONFIG" */
    stcgen_apb_role role;
    unsigned offset;      /* byte offset of the (first) word */
    unsigned count;       /* words: 1, or an array's length */
    bool writable;        /* a write has an effect (else PSLVERR) */
    bool readable;        /* a read returns something meaningful (else 0) */
    const char *access;   /* for the docs: "RO", "RW", "WO" */
    uint32_t reset;       /* the value read after reset (0 for arrays) */
    const char *what;
    size_t fields;
    stcgen_apb_field field[STCGEN_APB_MAX_FIELDS];
} stcgen_apb_reg;

typedef struct {
    size_t count;
    stcgen_apb_reg reg[STCGEN_APB_MAX_REGS];
    /* Widths of the cache's control ports, from top_ports.c. */
    unsigned banks_log_bits, ways_log_bits, sub_log_bits; /* cfg_*_log */
    unsigned mnt_addr_bits;   /* mnt_addr (word address) */
    unsigned cnt_sel_bits;    /* cnt_sel */
    unsigned counter_bits;    /* cnt_value */
    unsigned tun_addr_bits;   /* tun_addr, 0 without a tuner */
    unsigned tuner_kind;      /* 0 none, 1 monitor tuner, 2 seed tuner */
} stcgen_apb_map;

/* Section 9's counter names in 15.2's numbering (cnt_sel), lower case. */
extern const char *const stcgen_apb_counter_names[STCGEN_APB_COUNTERS];

/* Build the map of params' cache. Returns 0, or -1 if a port it needs is
 * missing from the port table or the table overflows (a programming error:
 * the emitters then fail the text). */
int stcgen_apb_map_build(const stcgen_params *params, stcgen_apb_map *map);

/* The register of a role (the first one), or NULL if this map has none. */
const stcgen_apb_reg *stcgen_apb_find(const stcgen_apb_map *map, stcgen_apb_role role);

/* The field of a register by name, or NULL. */
const stcgen_apb_field *stcgen_apb_field_find(const stcgen_apb_reg *reg, const char *name);

#endif
