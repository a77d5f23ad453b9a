/*
 * config.h - one run-time configuration of a configurable cache
 * (docs/ARCHITECTURE.md section 2).
 *
 * A configuration picks how many banks are powered (the size), how many of
 * them a line may live in (the associativity, by way concatenation), how many
 * physical lines make one logical line (line concatenation) and whether way
 * prediction is on. Names read like the seed's: "8K_4W_32B", "8K_2W_16B_P".
 */
#ifndef STC_CONFIG_H
#define STC_CONFIG_H

#include "geometry.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    unsigned banks_on;   /* k: powered banks 0..k-1; power of two, 1..B */
    unsigned ways;       /* a: candidate banks per address; power of two, 1..k */
    unsigned sublines;   /* physical lines per logical line: 1, 2 or 4 */
    bool way_predict;    /* first probe only the predicted bank; needs ways > 1 */
} stc_config;

/* Longest name: "4194304K_32W_1024B_P" and similar, with room to spare. */
enum { STC_CONFIG_NAME_MAX = 48 };

/* Returns NULL if legal under geometry, else a static string naming the rule. */
const char *stc_config_check(const stc_geometry *geometry, const stc_config *config);

/* The largest legal configuration with way prediction off and the smallest
 * logical line ("8K_4W_16B" by default): the reset configuration. */
stc_config stc_config_reset(const stc_geometry *geometry);

/* Size in bytes of the powered part of the cache. */
static inline unsigned long stc_config_size_bytes(const stc_geometry *geometry,
                                                  const stc_config *config)
{
    return (unsigned long)config->banks_on * geometry->bank_bytes;
}

/* Logical line in bytes. */
static inline unsigned stc_config_line_bytes(const stc_geometry *geometry, const stc_config *config)
{
    return config->sublines * geometry->line_bytes;
}

/* Bank groups: banks_on / ways; an address may live in exactly one group. */
static inline unsigned stc_config_groups(const stc_config *config)
{
    return config->banks_on / config->ways;
}

/* Write the name ("8K_4W_32B", "512B_1W_16B", "8K_2W_16B_P") into buf. */
void stc_config_name(const stc_geometry *geometry, const stc_config *config, char *buf,
                     size_t buf_len);

/* Parse a name. Returns -1 with a message naming the problem (bad syntax, a
 * size that is not a whole number of banks, an illegal combination). */
int stc_config_parse(const stc_geometry *geometry, const char *name, stc_config *config, char *err,
                     size_t err_len);

/* All legal configurations in canonical order: size ascending, then ways,
 * then line, then way prediction off before on. Writes at most max entries
 * and returns the total number of legal configurations. */
size_t stc_config_enumerate(const stc_geometry *geometry, stc_config *out, size_t max);

/* Upper bound on the number of legal configurations of any geometry. */
enum { STC_MAX_CONFIGS = 6 * 7 / 2 * STC_LINE_SIZES * 2 };

static inline bool stc_config_equal(const stc_config *left, const stc_config *right)
{
    return left->banks_on == right->banks_on && left->ways == right->ways &&
           left->sublines == right->sublines && left->way_predict == right->way_predict;
}

#endif
