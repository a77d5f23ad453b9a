/*
 * geometry.h - the fixed physical shape of one configurable cache and every
 * width derived from it (docs/ARCHITECTURE.md section 1).
 *
 * The geometry is chosen when the hardware is generated and never changes at
 * run time; configurations (config.h) choose among the shapes it allows.
 * Every derived width lives here so the C model and the generator cannot
 * disagree about an address bit.
 */
#ifndef STC_GEOMETRY_H
#define STC_GEOMETRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    STC_MAX_BANKS = 32,          /* recency order and masks fit in 32 bits */
    STC_LINE_SIZES = 3,          /* logical line = 1, 2 or 4 physical lines */
    STC_MAX_SUBLINES = 4,        /* physical lines in the largest logical line */
    STC_WORD_BYTES = 4,          /* CPU data word and memory beat */
    /* The generated RTL's smallest bank (stcgen refuses fewer rows): its
     * row state, and a coherent cache's snoop array, hold 4 rows a word
     * in a register file of at least 2 words. The model takes 4 rows. */
    STC_RTL_MIN_ROWS = 8
};

typedef struct {
    /* Chosen by the user. */
    unsigned banks;       /* B: number of banks, power of two, 1..32 */
    unsigned bank_bytes;  /* bytes in one bank, power of two */
    unsigned line_bytes;  /* physical line P, power of two, >= 4 */
    unsigned addr_bits;   /* address width, 8..64 */
    unsigned mem_latency; /* memory cycles before the first beat of a burst */
    unsigned wake_cycles; /* cycles to power up one bank (switch + acknowledge) */

    /* Derived by stc_geometry_init. */
    unsigned rows;           /* physical lines per bank = bank_bytes / line_bytes */
    unsigned offset_bits;    /* log2(line_bytes): byte offset inside a physical line */
    unsigned row_bits;       /* log2(rows): row index inside a bank */
    unsigned bank_shift;     /* offset_bits + row_bits = log2(bank_bytes) */
    unsigned bank_bits;      /* log2(banks) */
    unsigned tag_bits;       /* addr_bits - bank_shift: the full tag, always compared */
    unsigned beats_per_line; /* line_bytes / STC_WORD_BYTES */
    uint64_t addr_mask;      /* addr_bits ones */
} stc_geometry;

/* The paper's cache: 4 banks of 2 KiB, 16 B physical lines, 32-bit addresses,
 * memory latency 20 cycles, bank wake-up 4 cycles. */
void stc_geometry_default(stc_geometry *geometry);

/* Check the user-chosen fields and fill in the derived ones. On an illegal
 * value returns -1 and writes into err a message naming the parameter and the
 * rule it breaks ("bank_bytes=3000: must be a power of two"). */
int stc_geometry_init(stc_geometry *geometry, char *err, size_t err_len);

/* Set one user field from "name=value" (names: banks, bank_bytes, line_bytes,
 * addr_bits, mem_latency, wake_cycles). Does not re-derive: call
 * stc_geometry_init afterwards. Returns -1 with a message for an unknown name
 * or a value that is not a decimal number. */
int stc_geometry_set(stc_geometry *geometry, const char *assignment, char *err, size_t err_len);

/* Parse a comma-separated list of assignments, e.g.
 * "banks=8,bank_bytes=1024", on top of the values already in geometry
 * (usually stc_geometry_default's), and init. */
int stc_geometry_parse(stc_geometry *geometry, const char *list, char *err, size_t err_len);

static inline unsigned stc_log2(uint64_t power_of_two)
{
    unsigned bits = 0;
    while ((power_of_two >> bits) > 1) {
        bits++;
    }
    return bits;
}

static inline bool stc_is_power_of_two(uint64_t value)
{
    return value != 0 && (value & (value - 1)) == 0;
}

#endif
