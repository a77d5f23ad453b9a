/*
 * coherence_book.c - blocks, miss classes and checks shared by the coherent
 * system models (coherence_book.h; the classes are coherent.h's).
 *
 * Layout: every block ever touched has an entry (found through the
 * stc_block_index of coherent_common.h) holding memory's bytes, the
 * shadow's bytes and its miss-class history; the fully associative caches
 * of the 3C split are per core a doubly linked recency list of at most
 * fa_lines nodes, each naming an entry, and the entry names its node, so
 * no second hash is needed.
 */
#include "coherence_book.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int stc_coh_book_init(stc_coh_book *book, unsigned cores, uint32_t line, uint32_t fa_lines)
{
    memset(book, 0, sizeof *book);
    book->cores = cores;
    book->line = line;
    book->fa_lines = fa_lines;
    for (unsigned c = 0; c < cores; c++) {
        stc_coh_fa_cache *fa = &book->fa[c];
        fa->nodes = malloc((size_t)fa_lines * sizeof *fa->nodes);
        if (!fa->nodes)
            return -1;
        for (uint32_t n = 0; n < fa_lines; n++)
            fa->nodes[n].next = n + 1 < fa_lines ? (int32_t)(n + 1) : -1;
        fa->head = fa->tail = -1;
        fa->free_list = 0;
        book->fa_limit[c] = fa_lines;
    }
    return 0;
}

void stc_coh_book_free(stc_coh_book *book)
{
    for (unsigned c = 0; c < STC_COH_MAX_CORES; c++)
        free(book->fa[c].nodes);
    free(book->history);
    free(book->memory);
    free(book->shadow);
    stc_block_index_free(&book->index);
    memset(book, 0, sizeof *book);
}

/* ------------------------------------------------------------ blocks */

long stc_coh_book_lookup(const stc_coh_book *book, uint64_t block)
{
    return stc_block_index_find(&book->index, block);
}

static int grow_entries(stc_coh_book *book)
{
    uint32_t capacity = book->entry_capacity ? book->entry_capacity * 2 : 256;
    stc_coh_block_history *history = realloc(book->history, (size_t)capacity * sizeof *history);
    if (!history)
        return -1;
    book->history = history;
    uint8_t *memory = realloc(book->memory, (size_t)capacity * book->line);
    if (!memory)
        return -1;
    book->memory = memory;
    uint8_t *shadow = realloc(book->shadow, (size_t)capacity * book->line);
    if (!shadow)
        return -1;
    book->shadow = shadow;
    book->entry_capacity = capacity;
    return 0;
}

long stc_coh_book_entry(stc_coh_book *book, uint64_t block)
{
    long found = stc_coh_book_lookup(book, block);
    if (found >= 0)
        return found;
    if (book->entry_count == book->entry_capacity && grow_entries(book) != 0)
        return -1;
    if (stc_block_index_add(&book->index, block) != (long)book->entry_count)
        return -1;
    uint32_t e = book->entry_count++;
    stc_coh_block_history *history = &book->history[e];
    memset(history, 0, sizeof *history);
    history->block = block;
    for (unsigned c = 0; c < STC_COH_MAX_CORES; c++)
        history->fa_node[c] = -1;
    memset(stc_coh_book_memory(book, e), 0, book->line);
    memset(stc_coh_book_shadow(book, e), 0, book->line);
    return e;
}

/* ------------------------------------------------ fully associative LRU */

static void fa_unlink(stc_coh_fa_cache *fa, int32_t n)
{
    stc_coh_fa_node *node = &fa->nodes[n];
    if (node->prev >= 0)
        fa->nodes[node->prev].next = node->next;
    else
        fa->head = node->next;
    if (node->next >= 0)
        fa->nodes[node->next].prev = node->prev;
    else
        fa->tail = node->prev;
}

static void fa_push_front(stc_coh_fa_cache *fa, int32_t n)
{
    fa->nodes[n].prev = -1;
    fa->nodes[n].next = fa->head;
    if (fa->head >= 0)
        fa->nodes[fa->head].prev = n;
    fa->head = n;
    if (fa->tail < 0)
        fa->tail = n;
}

/* Drop the block from core's FA cache (an invalidation). */
static void fa_remove(stc_coh_book *book, unsigned core, uint32_t e)
{
    stc_coh_fa_cache *fa = &book->fa[core];
    int32_t n = book->history[e].fa_node[core];
    if (n < 0)
        return;
    fa_unlink(fa, n);
    fa->nodes[n].next = fa->free_list;
    fa->free_list = n;
    fa->count--;
    book->history[e].fa_node[core] = -1;
}

/* An access of core to the block: returns whether the FA cache held it,
 * and makes it the most recent. */
static bool fa_access(stc_coh_book *book, unsigned core, uint32_t e)
{
    stc_coh_fa_cache *fa = &book->fa[core];
    int32_t n = book->history[e].fa_node[core];
    if (n >= 0) {
        if (n != fa->head) {
            fa_unlink(fa, n);
            fa_push_front(fa, n);
        }
        return true;
    }
    if (fa->count == book->fa_limit[core]) {
        int32_t lru = fa->tail;
        fa_unlink(fa, lru);
        book->history[fa->nodes[lru].entry].fa_node[core] = -1;
        n = lru;
    } else {
        n = fa->free_list;
        fa->free_list = fa->nodes[n].next;
        fa->count++;
    }
    fa->nodes[n].entry = e;
    fa_push_front(fa, n);
    book->history[e].fa_node[core] = n;
    return false;
}

void stc_coh_book_resize_fa(stc_coh_book *book, unsigned core, uint32_t lines)
{
    stc_coh_fa_cache *fa = &book->fa[core];
    book->fa_limit[core] = lines < book->fa_lines ? lines : book->fa_lines;
    while (fa->count > book->fa_limit[core])
        fa_remove(book, core, fa->nodes[fa->tail].entry);
}

/* ------------------------------------------- Dubois' lifetimes (coherent.h) */

/* The end of core's lifetime of the block (its copy invalidated or
 * evicted). A lifetime that touched none of its new words was useless: its
 * words stay new to the next lifetime, since the value they carry has still
 * not been used by this core. (An essential lifetime already dropped them.) */
static void lifetime_end(stc_coh_block_history *entry, unsigned core)
{
    entry->unseen[core] |= entry->life_new[core];
    entry->life_new[core] = 0;
    entry->life_coherence &= (uint8_t)~(1u << core);
}

/* A miss of core opens a lifetime. A compulsory miss is essential by
 * definition (it brings every value): nothing written before it is new
 * afterwards. Any other miss takes the words new since the last essential
 * miss as its own. A coherence miss is counted useless (false) now and moved
 * to true by lifetime_access if its lifetime touches a new word, so the
 * counters are final whenever they are read: an open lifetime is classified
 * by the accesses it has had, as if the run ended there. counters may be
 * NULL when coherence is false (nothing is counted then). */
static void lifetime_begin(stc_coh_counters *counters, stc_coh_block_history *entry,
                           unsigned core, bool compulsory, bool coherence)
{
    entry->life_new[core] = compulsory ? 0 : entry->unseen[core];
    entry->unseen[core] = 0;
    if (coherence) {
        entry->life_coherence |= (uint8_t)(1u << core);
        counters->miss_false_dubois++;
    }
}

/* An access (load or store) of core to words of the block, hit or miss,
 * during its lifetime: touching a new word makes the lifetime essential. */
static void lifetime_access(stc_coh_counters *counters, stc_coh_block_history *entry,
                            unsigned core, uint64_t words)
{
    if (!(entry->life_new[core] & words))
        return;
    entry->life_new[core] = 0; /* delivered and used: not new to later lifetimes */
    if (entry->life_coherence & (1u << core)) {
        entry->life_coherence &= (uint8_t)~(1u << core);
        counters->miss_false_dubois--;
        counters->miss_true_dubois++;
    }
}

/* ------------------------------------------------------------ classes */

/* A block access whose processor row says miss: counted in exactly one miss
 * class (coherent.h), and the lifetime it starts opened. had_copy: core
 * still holds a valid copy of the block. */
static void count_miss(stc_coh_counters *counters, stc_coh_block_history *entry, unsigned core,
                       uint64_t words, bool fa_hit, bool had_copy)
{
    uint8_t core_bit = (uint8_t)(1u << core);
    counters->misses++;
    bool compulsory = !(entry->seen & core_bit);
    bool coherence = !compulsory && (entry->lost & core_bit);
    if (compulsory)
        counters->miss_compulsory++;
    else if (coherence) {
        if (entry->others_wrote[core] & words)
            counters->miss_true_sharing++;
        else
            counters->miss_false_sharing++;
    } else if (fa_hit)
        counters->miss_conflict++;
    else
        counters->miss_capacity++;
    entry->lost &= (uint8_t)~core_bit;
    entry->others_wrote[core] = 0;
    if (had_copy) /* a table that misses on a valid copy: that copy's lifetime ends here */
        lifetime_end(entry, core);
    lifetime_begin(counters, entry, core, compulsory, coherence);
}

void stc_coh_book_access(stc_coh_book *book, stc_coh_counters *counters, unsigned core,
                         uint32_t entry, uint64_t words, bool row_hit, bool had_copy)
{
    bool fa_hit = fa_access(book, core, entry);
    stc_coh_block_history *history = &book->history[entry];
    if (row_hit)
        counters->hits++;
    else
        count_miss(counters, history, core, words, fa_hit, had_copy);
    lifetime_access(counters, history, core, words);
    history->seen |= (uint8_t)(1u << core);
}

void stc_coh_book_fetched(stc_coh_book *book, unsigned core, uint32_t entry)
{
    stc_coh_block_history *history = &book->history[entry];
    uint8_t core_bit = (uint8_t)(1u << core);
    history->lost &= (uint8_t)~core_bit;
    history->others_wrote[core] = 0;
    lifetime_begin(NULL, history, core, !(history->seen & core_bit), false);
    history->seen |= core_bit;
}

void stc_coh_book_invalidated(stc_coh_book *book, unsigned core, uint32_t entry)
{
    stc_coh_block_history *history = &book->history[entry];
    history->lost |= (uint8_t)(1u << core);
    history->others_wrote[core] = 0;
    lifetime_end(history, core);
    fa_remove(book, core, entry);
}

void stc_coh_book_evicted(stc_coh_book *book, unsigned core, uint32_t entry)
{
    lifetime_end(&book->history[entry], core);
}

void stc_coh_book_stored(stc_coh_book *book, unsigned core, uint32_t entry, uint32_t offset,
                         uint32_t len, const uint8_t *bytes, uint64_t words)
{
    stc_coh_block_history *history = &book->history[entry];
    memcpy(stc_coh_book_shadow(book, entry) + offset, bytes, len);
    for (unsigned d = 0; d < book->cores; d++) {
        if (d == core)
            continue;
        if (history->lost & (1u << d))
            history->others_wrote[d] |= words;
        /* New to d whether its copy is invalid, evicted or never
         * fetched (a compulsory miss clears it) */
        history->unseen[d] |= words;
    }
}

/* ------------------------------------------------------------ checks */

void stc_coh_book_violation(stc_coh_book *book, stc_coh_violation_kind kind, unsigned core,
                            uint64_t addr, uint64_t expected, uint64_t got, const char *fmt, ...)
{
    if (book->violations < STC_COH_VIOLATIONS_KEPT) {
        stc_coh_violation *v = &book->kept[book->violations];
        v->kind = kind;
        v->core = core;
        v->reference = book->reference;
        v->addr = addr;
        v->expected = expected;
        v->got = got;
        int used = snprintf(v->text, sizeof v->text, "%s: core %u reference %llu: ",
                            stc_coh_violation_kind_name(kind), core,
                            (unsigned long long)book->reference);
        if (used > 0 && (size_t)used < sizeof v->text) {
            va_list args;
            va_start(args, fmt);
            vsnprintf(v->text + used, sizeof v->text - (size_t)used, fmt, args);
            va_end(args);
        }
    }
    book->violations++;
    book->violations_of[kind]++;
}

void stc_coh_book_check_load(stc_coh_book *book, unsigned core, uint32_t entry, uint32_t offset,
                             uint32_t len, const uint8_t *copy, stc_coh_state state)
{
    const uint8_t *shadow = stc_coh_book_shadow(book, entry) + offset;
    if (memcmp(copy, shadow, len) == 0)
        return;
    uint64_t addr = book->history[entry].block * book->line + offset;
    uint32_t i = 0;
    while (copy[i] == shadow[i])
        i++;
    uint32_t shown = len - i < 8 ? len - i : 8;
    uint64_t expected = stc_coh_bytes_le(shadow + i, shown);
    uint64_t got = stc_coh_bytes_le(copy + i, shown);
    stc_coh_book_violation(book, STC_COH_VIOL_DATA, core, addr + i, expected, got,
                           "load 0x%llx (%u bytes at 0x%llx, %s): expected 0x%llx got 0x%llx",
                           (unsigned long long)addr, len, (unsigned long long)(addr + i),
                           stc_coh_state_name(state), (unsigned long long)expected,
                           (unsigned long long)got);
}

void stc_coh_book_check_swmr(stc_coh_book *book, unsigned requester, uint64_t block_addr,
                             const stc_coh_state *states, unsigned count)
{
    unsigned modified = 0, exclusive = 0, owned = 0;
    for (unsigned i = 0; i < count; i++) {
        modified += states[i] == STC_COH_M;
        exclusive += states[i] == STC_COH_E;
        owned += states[i] == STC_COH_O;
    }
    const char *why = NULL;
    if (modified > 1)
        why = "more than one M copy";
    else if (modified + exclusive > 0 && count > 1)
        why = "an M or E copy and another valid copy";
    else if (owned > 1)
        why = "more than one O copy";
    if (why)
        stc_coh_book_violation(book, STC_COH_VIOL_SWMR, requester, block_addr, 0, 0,
                               "block 0x%llx: %s (%u valid, %u M, %u E, %u O)",
                               (unsigned long long)block_addr, why, count, modified, exclusive,
                               owned);
}

uint64_t stc_coh_book_violation_kind_count(const stc_coh_book *book, stc_coh_violation_kind kind)
{
    return (unsigned)kind < STC_COH_VIOL_KIND_COUNT ? book->violations_of[kind] : 0;
}

const stc_coh_violation *stc_coh_book_violation_at(const stc_coh_book *book, unsigned index)
{
    if (index >= STC_COH_VIOLATIONS_KEPT || index >= book->violations)
        return NULL;
    return &book->kept[index];
}

void stc_coh_row_index_build(stc_coh_row_index *index, const stc_coh_table *table)
{
    for (unsigned state = 0; state < STC_COH_STATE_COUNT; state++) {
        for (unsigned event = 0; event < STC_COH_PROC_EVENT_COUNT; event++)
            index->proc[state][event] =
                stc_coh_proc_lookup(table, (stc_coh_state)state, (stc_coh_proc_event)event);
        for (unsigned bus = 0; bus < STC_COH_BUS_COUNT; bus++)
            index->snoop[state][bus] =
                stc_coh_snoop_lookup(table, (stc_coh_state)state, (stc_coh_bus)bus);
    }
}

uint64_t stc_coh_book_read(const stc_coh_book *book, bool shadow, uint64_t addr, uint32_t size)
{
    uint64_t block = addr / book->line;
    uint32_t offset = (uint32_t)(addr % book->line);
    if (size > 8)
        size = 8;
    if (size > book->line - offset)
        size = book->line - offset;
    long e = stc_coh_book_lookup(book, block);
    if (e < 0)
        return 0;
    const uint8_t *pool = shadow ? book->shadow : book->memory;
    return stc_coh_bytes_le(pool + (size_t)e * book->line + offset, size);
}
