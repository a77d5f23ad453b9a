/*
 * coherent_common.h - what the two coherent system models share: the
 * atomic bus (coherent.c) and the split-transaction bus (coherent_split.c)
 * check the same cache geometry, read bytes the same way and find a
 * block's bookkeeping by the same hash of its block number.
 */
#ifndef STC_COHERENT_COMMON_H
#define STC_COHERENT_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The geometry rules of coherent.h: cores 1..STC_COH_MAX_CORES, line a
 * power of two 4..STC_COH_MAX_LINE, ways 1..1024, size ways x line x a
 * power of two (sets), at most 1 GiB. 0, or -1 with the message naming
 * the first parameter that is wrong. */
int stc_coh_geometry_check(unsigned cores, uint32_t size_bytes, uint32_t ways, uint32_t line_bytes,
                           char *message, size_t message_len);

/* A reference's arguments against a system of cores cores and line-byte
 * blocks: core < cores, op a load or a store (stc_coh_op), size
 * 1..line. 0, or -1 with the message ("core 4: the system has 4 cores
 * (0..3)", "operation 7: not a load or a store", "size 0: must be 1..32
 * (the line)"), the words coherent.h's stc_coh_access uses. */
int stc_coh_reference_check(unsigned cores, uint32_t line, unsigned core, int op, uint32_t size,
                            char *message, size_t message_len);

/* Up to 8 bytes, little-endian. */
static inline uint64_t stc_coh_bytes_le(const uint8_t *bytes, uint32_t count)
{
    uint64_t value = 0;
    for (uint32_t i = 0; i < count && i < 8; i++)
        value |= (uint64_t)bytes[i] << (8 * i);
    return value;
}

static inline uint32_t stc_coh_log2(uint32_t x)
{
    uint32_t bits = 0;
    while ((1u << bits) < x)
        bits++;
    return bits;
}

/* SplitMix64: the next value of a seeded stream (state advances). The
 * split bus's scheduler and stcsim coherence's store values use it. */
static inline uint64_t stc_coh_splitmix_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Block number -> entry index (0, 1, 2, ... in the order blocks were
 * added): an open-addressing hash kept at most half full. Zero-initialise
 * to start empty. */
typedef struct {
    uint64_t *keys;
    uint32_t *values; /* entry index + 1; 0 = empty slot */
    uint32_t capacity, count;
} stc_block_index;

/* The entry of block, or -1. */
long stc_block_index_find(const stc_block_index *index, uint64_t block);
/* Adds block (absent) as entry index->count; returns it, or -1 out of memory. */
long stc_block_index_add(stc_block_index *index, uint64_t block);
void stc_block_index_free(stc_block_index *index);

#endif
