/*
 * random_refs.h - random multi-core references for the coherence tests
 * (test_coherent_stc.c, test_coherent_stc_split.c): the same draw, so the
 * atomic and the split-bus stc models are exercised alike.
 */
#ifndef STC_TEST_RANDOM_REFS_H
#define STC_TEST_RANDOM_REFS_H

#include "coherent.h"

#include <stdbool.h>
#include <stdint.h>

/* One random reference: core, op, addr, size, drawn from r. Addresses mix
 * a hot shared region (heavy sharing, false sharing inside lines) with a
 * wider one that causes replacements. */
typedef struct {
    unsigned core;
    stc_coh_op op;
    uint64_t addr;
    uint32_t size;
} random_ref;

static inline random_ref draw(uint64_t r, unsigned cores, uint64_t hot_bytes, uint64_t wide_bytes)
{
    random_ref ref;
    ref.core = (unsigned)(r % cores);
    bool hot = (r >> 8) % 4 != 0;
    ref.addr = ((r >> 12) % (hot ? hot_bytes : wide_bytes));
    ref.size = 1u << ((r >> 40) % 4); /* 1, 2, 4, 8: some straddle physical lines */
    ref.op = (r >> 44) % 3 == 0 ? STC_COH_OP_STORE : STC_COH_OP_LOAD;
    return ref;
}

#endif
