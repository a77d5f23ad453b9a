/*
 * coherence_book.h - the bookkeeping every coherent system model keeps
 * beside its caches, whatever those caches are: the conventional caches of
 * coherent.h and the configurable stc caches of coherent_stc.h share it, so
 * the two models check and classify in exactly the same way.
 *
 * A book holds, per coherence block (a block number: address >> log2(line)):
 *  - memory's bytes and the shadow's (the last store to every byte in bus
 *    order), both zero until written;
 *  - per core, the history that classifies its misses (coherent.h's miss
 *    classes, both splits): referenced before, copy lost to a snoop, words
 *    written by others since, Dubois' lifetime words;
 * and per core the fully associative true-LRU cache of the 3C split, and
 * the violation log (coherent.h's stc_coh_violation records).
 *
 * Blocks are numbered densely (entries 0, 1, ...) in the order they are
 * first touched, so a caller may keep its own per-block arrays beside the
 * book's, indexed by entry. Entries are never removed. No global state.
 */
#ifndef STC_COHERENCE_BOOK_H
#define STC_COHERENCE_BOOK_H

#include "coherent.h"
#include "coherent_common.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define STC_PRINTF_LIKE(fmt_index, args_index) __attribute__((format(printf, fmt_index, args_index)))
#else
#define STC_PRINTF_LIKE(fmt_index, args_index)
#endif

/* One block's miss-class history (the fields coherent.h's classes need). */
typedef struct {
    uint64_t block;
    uint8_t seen; /* bit c: core c has accessed the block */
    uint8_t lost; /* bit c: core c's copy was invalidated, not re-fetched since */
    uint64_t others_wrote[STC_COH_MAX_CORES]; /* words written by others since core c lost it */
    int32_t fa_node[STC_COH_MAX_CORES];       /* node in core c's FA cache, -1 if none */
    /* Dubois' classification (coherent.h). A lifetime of core c's copy
     * runs from the miss that fetches it to its invalidation or eviction. */
    uint8_t life_coherence; /* bit c: c's open lifetime began with a coherence miss, not yet essential */
    uint64_t life_new[STC_COH_MAX_CORES]; /* words new to c's open lifetime; 0 once it touched one */
    uint64_t unseen[STC_COH_MAX_CORES];   /* words others wrote since c's last essential miss,
                                             outside life_new */
} stc_coh_block_history;

typedef struct {
    uint32_t entry;
    int32_t prev, next; /* towards MRU, towards LRU */
} stc_coh_fa_node;

/* A fully associative true-LRU cache of a fixed number of lines. */
typedef struct {
    stc_coh_fa_node *nodes;
    int32_t head, tail, free_list;
    uint32_t count;
} stc_coh_fa_cache;

typedef struct {
    unsigned cores;
    uint32_t line;      /* bytes per block */
    uint32_t fa_lines;  /* lines each core's FA cache can hold at most */
    uint32_t fa_limit[STC_COH_MAX_CORES]; /* lines it holds at most now (fa_lines unless resized) */

    stc_coh_block_history *history; /* [entry] */
    uint8_t *memory;                /* [entry][line] */
    uint8_t *shadow;                /* [entry][line] */
    uint32_t entry_count, entry_capacity;
    stc_block_index index; /* block number -> entry */

    stc_coh_fa_cache fa[STC_COH_MAX_CORES];

    uint64_t reference; /* index of the reference being done (the owner advances it) */
    uint64_t violations;
    uint64_t violations_of[STC_COH_VIOL_KIND_COUNT];
    stc_coh_violation kept[STC_COH_VIOLATIONS_KEPT];
} stc_coh_book;

/* An empty book for cores cores, blocks of line bytes, FA caches of
 * fa_lines lines. Returns 0, or -1 out of memory (the book is then
 * freeable). */
int stc_coh_book_init(stc_coh_book *book, unsigned cores, uint32_t line, uint32_t fa_lines);
void stc_coh_book_free(stc_coh_book *book);

/* Core's FA cache now holds at most lines (<= fa_lines) lines, its least
 * recent dropped first: a reconfigured cache's 3C reference changes size
 * with it. */
void stc_coh_book_resize_fa(stc_coh_book *book, unsigned core, uint32_t lines);

/* The entry of block, or -1 if it has none. */
long stc_coh_book_lookup(const stc_coh_book *book, uint64_t block);
/* The entry of block, created (memory and shadow zero) if it has none;
 * -1 out of memory. */
long stc_coh_book_entry(stc_coh_book *book, uint64_t block);

static inline uint8_t *stc_coh_book_memory(const stc_coh_book *book, uint32_t entry)
{
    return book->memory + (size_t)entry * book->line;
}

static inline uint8_t *stc_coh_book_shadow(const stc_coh_book *book, uint32_t entry)
{
    return book->shadow + (size_t)entry * book->line;
}

/* Miss classes. The owner calls these at the events coherent.h names: */

/* An access of core to words of entry: counts a hit (row_hit), or a miss
 * in exactly one class (had_copy: the core still holds a valid copy, a
 * table that misses on one), opening its lifetime; the FA cache sees the
 * access. */
void stc_coh_book_access(stc_coh_book *book, stc_coh_counters *counters, unsigned core,
                         uint32_t entry, uint64_t words, bool row_hit, bool had_copy);
/* Core's fill brought entry without an access to it (the other sublines
 * of a logical line, coherent_stc.h): the core holds a fresh copy, as
 * after a miss, so its next miss of the block is not compulsory and a
 * copy lost before is lost no longer; nothing is counted and the FA cache
 * does not see it (it sees accesses). */
void stc_coh_book_fetched(stc_coh_book *book, unsigned core, uint32_t entry);
/* A snoop sent core's valid copy of entry to I. */
void stc_coh_book_invalidated(stc_coh_book *book, unsigned core, uint32_t entry);
/* Core's valid copy of entry left its cache (eviction, walk): its lifetime
 * ends. */
void stc_coh_book_evicted(stc_coh_book *book, unsigned core, uint32_t entry);
/* A store of core wrote words of entry: the bytes at offset go to the
 * shadow, and the words are news to every other core. */
void stc_coh_book_stored(stc_coh_book *book, unsigned core, uint32_t entry, uint32_t offset,
                         uint32_t len, const uint8_t *bytes, uint64_t words);

/* Checks. */

/* Record a violation of kind at reference book->reference; fmt gives the
 * text after "KIND: core C reference R: ". */
void stc_coh_book_violation(stc_coh_book *book, stc_coh_violation_kind kind, unsigned core,
                            uint64_t addr, uint64_t expected, uint64_t got, const char *fmt, ...)
    STC_PRINTF_LIKE(7, 8);
/* A load of core read copy (len bytes at offset of entry's block, in
 * state): a DATA violation unless they are the shadow's. */
void stc_coh_book_check_load(stc_coh_book *book, unsigned core, uint32_t entry, uint32_t offset,
                             uint32_t len, const uint8_t *copy, stc_coh_state state);
/* The valid copies of one block (count states, one per holding core) obey
 * single-writer / multiple-reader: else an SWMR violation for block_addr. */
void stc_coh_book_check_swmr(stc_coh_book *book, unsigned requester, uint64_t block_addr,
                             const stc_coh_state *states, unsigned count);

/* The violations of kind, and the index-th one kept (NULL past
 * min(violations, STC_COH_VIOLATIONS_KEPT)), as coherent.h reports them. */
uint64_t stc_coh_book_violation_kind_count(const stc_coh_book *book, stc_coh_violation_kind kind);
const stc_coh_violation *stc_coh_book_violation_at(const stc_coh_book *book, unsigned index);

/* A table's rows by pair, looked up once (NULL where it has none), so an
 * access indexes instead of searching the lists. */
typedef struct {
    const stc_coh_proc_row *proc[STC_COH_STATE_COUNT][STC_COH_PROC_EVENT_COUNT];
    const stc_coh_snoop_row *snoop[STC_COH_STATE_COUNT][STC_COH_BUS_COUNT];
} stc_coh_row_index;
void stc_coh_row_index_build(stc_coh_row_index *index, const stc_coh_table *table);

/* Up to 8 bytes at addr (little-endian; clipped to the block) of memory
 * or of the shadow; 0 for a block never touched. */
uint64_t stc_coh_book_read(const stc_coh_book *book, bool shadow, uint64_t addr, uint32_t size);

/* Words [offset, offset + len) touches, as a mask of 4-byte words. */
static inline uint64_t stc_coh_word_mask(uint32_t offset, uint32_t len)
{
    uint32_t first = offset / STC_COH_WORD_BYTES;
    uint32_t last = (offset + len - 1) / STC_COH_WORD_BYTES;
    uint64_t upto_last = last >= 63 ? ~0ull : (1ull << (last + 1)) - 1;
    return upto_last & ~((1ull << first) - 1);
}

#endif
