/* coherent_common.c - see coherent_common.h. */
#include "coherent_common.h"

#include "coherent.h"

#include <stdio.h>
#include <stdlib.h>

static bool is_power_of_two(uint64_t x)
{
    return x && !(x & (x - 1));
}

int stc_coh_geometry_check(unsigned cores, uint32_t size_bytes, uint32_t ways, uint32_t line_bytes,
                           char *message, size_t message_len)
{
    if (cores < 1 || cores > STC_COH_MAX_CORES) {
        snprintf(message, message_len, "cores %u: must be 1..%d", cores, STC_COH_MAX_CORES);
    } else if (!is_power_of_two(line_bytes) || line_bytes < STC_COH_WORD_BYTES ||
               line_bytes > STC_COH_MAX_LINE) {
        snprintf(message, message_len, "line %u bytes: must be a power of two, %d..%d", line_bytes,
                 STC_COH_WORD_BYTES, STC_COH_MAX_LINE);
    } else if (ways < 1 || ways > 1024) {
        snprintf(message, message_len, "ways %u: must be 1..1024", ways);
    } else if (size_bytes > (1u << 30) || size_bytes % ((uint64_t)ways * line_bytes) != 0 ||
               !is_power_of_two(size_bytes / ((uint64_t)ways * line_bytes))) {
        snprintf(message, message_len,
                 "size %u bytes: must be ways x line x a power of two (sets), at most 1 GiB",
                 size_bytes);
    } else {
        return 0;
    }
    return -1;
}

int stc_coh_reference_check(unsigned cores, uint32_t line, unsigned core, int op, uint32_t size,
                            char *message, size_t message_len)
{
    if (core >= cores)
        snprintf(message, message_len, "core %u: the system has %u cores (0..%u)", core, cores,
                 cores - 1);
    else if (op != STC_COH_OP_LOAD && op != STC_COH_OP_STORE)
        snprintf(message, message_len, "operation %d: not a load or a store", op);
    else if (size < 1 || size > line)
        snprintf(message, message_len, "size %u: must be 1..%u (the line)", size, line);
    else
        return 0;
    return -1;
}

static uint64_t hash_block(uint64_t block)
{
    block ^= block >> 33;
    block *= 0xff51afd7ed558ccdull;
    block ^= block >> 33;
    return block;
}

/* The slot of block: its own, or the empty one where it would go. */
static uint32_t slot_of(const uint64_t *keys, const uint32_t *values, uint32_t capacity,
                        uint64_t block)
{
    uint32_t slot = (uint32_t)(hash_block(block) & (capacity - 1));
    while (values[slot] && keys[slot] != block)
        slot = (slot + 1) & (capacity - 1);
    return slot;
}

static int grow(stc_block_index *index)
{
    uint32_t capacity = index->capacity ? index->capacity * 2 : 1024;
    uint64_t *keys = calloc(capacity, sizeof *keys);
    uint32_t *values = calloc(capacity, sizeof *values);
    if (!keys || !values) {
        free(keys);
        free(values);
        return -1;
    }
    for (uint32_t old = 0; old < index->capacity; old++) {
        if (!index->values[old])
            continue;
        uint32_t slot = slot_of(keys, values, capacity, index->keys[old]);
        keys[slot] = index->keys[old];
        values[slot] = index->values[old];
    }
    free(index->keys);
    free(index->values);
    index->keys = keys;
    index->values = values;
    index->capacity = capacity;
    return 0;
}

long stc_block_index_find(const stc_block_index *index, uint64_t block)
{
    if (!index->capacity)
        return -1;
    uint32_t slot = slot_of(index->keys, index->values, index->capacity, block);
    return index->values[slot] ? (long)index->values[slot] - 1 : -1;
}

long stc_block_index_add(stc_block_index *index, uint64_t block)
{
    if ((uint64_t)(index->count + 1) * 2 > index->capacity && grow(index) != 0)
        return -1;
    uint32_t slot = slot_of(index->keys, index->values, index->capacity, block);
    index->keys[slot] = block;
    index->values[slot] = ++index->count;
    return (long)index->count - 1;
}

void stc_block_index_free(stc_block_index *index)
{
    free(index->keys);
    free(index->values);
    *index = (stc_block_index){0};
}
