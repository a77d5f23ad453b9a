/* stack.c - all configurations in one pass by LRU stack simulation (stack.h). */
#include "stack.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    MAX_LEVELS = 6,         /* associativities 1, 2, 4, 8, 16, 32 */
    MAX_GROUP_COUNTS = 6,   /* g = 1, 2, 4, 8, 16, 32 */
    LEVEL_BITS = 4,         /* one dirty bit per subline (at most 4) per level */
    CHUNK_PIECES = 4096,    /* pieces split once, then run through every stack
                             * (64 KiB; 1024 was ~4 % slower: each stack's set-up
                             * per chunk) */
    CLASS_READ = 0,         /* READ and MODIFY: counted in read_misses */
    CLASS_WRITE = 1         /* WRITE: counted in write_misses */
};
_Static_assert(1u << (MAX_LEVELS - 1) == STC_MAX_BANKS, "a level per associativity");
_Static_assert(MAX_GROUP_COUNTS == MAX_LEVELS, "a stack per bank-group count");
_Static_assert((int)STC_MAX_SUBLINES <= (int)LEVEL_BITS && LEVEL_BITS * MAX_LEVELS <= 32,
               "every level's dirty nibble fits one 32-bit word");

/* No logical line number has all bits set: it is an address of at most 64
 * bits shifted right by at least log2(4) bits. Marks an empty stack entry. */
#define EMPTY_ENTRY UINT64_MAX

/* Piece flags. */
enum {
    PIECE_DIRTIES = 1,   /* WRITE or MODIFY: the subline becomes dirty */
    PIECE_CONTINUES = 2  /* another piece of the same request follows */
};

/* One access: a request cut at a physical-line boundary. Split once per
 * chunk and shared by all the stacks of its cache. */
typedef struct {
    uint64_t line;      /* physical line number of the masked address */
    uint8_t miss_class; /* CLASS_READ or CLASS_WRITE */
    uint8_t flags;      /* PIECE_* */
} piece;

/* One LRU stack simulation: one (cache, logical line, bank-group count g)
 * serving the configurations a = 1, 2, .., banks/g. */
typedef struct {
    unsigned depth;         /* banks / g: the largest associativity served */
    unsigned levels;        /* log2(depth) + 1: level i is associativity 2^i */
    unsigned subline_shift; /* log2(sublines): physical line -> logical line */
    unsigned subline_mask;  /* sublines - 1: physical line -> subline index */
    uint64_t set_mask;      /* sets - 1, sets = rows / sublines * g */
    uint32_t level_ones;    /* bit 0 of every level's dirty nibble */

    /* sets x depth entries, most recent first within a set. tags holds the
     * logical line number (EMPTY_ENTRY when empty); dirty holds, in nibble i,
     * the sublines dirty in the 2^i-way cache (zero where it does not hold
     * the line). */
    uint64_t *tags;
    uint32_t *dirty;

    /* Depth d (d = depth for "not on the stack") of each access by class,
     * and of each request (its deepest piece): every miss/hit counter of
     * every level follows from these, since an access at depth d misses in
     * exactly the levels with 2^i <= d. */
    uint64_t access_depths[2][STC_MAX_BANKS + 1];
    uint64_t request_depths[STC_MAX_BANKS + 1];
    uint64_t writebacks[MAX_LEVELS];
    /* Deepest piece so far of a request continued in the next chunk. */
    unsigned open_request_depth;
} lru_stack;

/* Configuration-independent tallies of one cache. */
typedef struct {
    uint64_t requests; /* kept (not repeat) requests */
    uint64_t accesses;
    uint64_t reads;
    uint64_t writes;
    stc_repeat_counts repeats;
} stream_tally;

struct stc_stack_sweep {
    stc_geometry geometry;
    unsigned group_counts; /* bank_bits + 1: g = 1, 2, .., banks */
    /* [cache kind][log2 sublines][log2 g] */
    lru_stack stacks[2][STC_LINE_SIZES][MAX_GROUP_COUNTS];
    stream_tally tallies[2];
    /* Scratch: the current chunk of pieces, one per cache so the two caches
     * can run on two threads. A request may be cut between two chunks
     * (never between two batches); each stack keeps the deepest depth of
     * its open request across the cut. */
    piece pieces[2][CHUNK_PIECES];
};

static unsigned popcount_nibble(uint32_t nibble)
{
    /* Entry x of this table of nibbles is the number of ones in x. */
    return (unsigned)(0x4332322132212110ULL >> (4 * nibble)) & 15;
}

static int stack_init(lru_stack *stack, const stc_geometry *geometry, unsigned sublines,
                      unsigned groups)
{
    memset(stack, 0, sizeof *stack);
    stack->depth = geometry->banks / groups;
    stack->levels = stc_log2(stack->depth) + 1;
    stack->subline_shift = stc_log2(sublines);
    stack->subline_mask = sublines - 1;
    uint64_t sets = (uint64_t)(geometry->rows / sublines) * groups;
    stack->set_mask = sets - 1;
    for (unsigned level = 0; level < stack->levels; level++) {
        stack->level_ones |= 1u << (LEVEL_BITS * level);
    }
    size_t entries = (size_t)sets * stack->depth;
    stack->tags = malloc(entries * sizeof *stack->tags);
    stack->dirty = calloc(entries, sizeof *stack->dirty);
    if (!stack->tags || !stack->dirty) {
        return -1;
    }
    for (size_t entry = 0; entry < entries; entry++) {
        stack->tags[entry] = EMPTY_ENTRY;
    }
    return 0;
}

static void stack_free(lru_stack *stack)
{
    free(stack->tags);
    free(stack->dirty);
    stack->tags = NULL;
    stack->dirty = NULL;
}

void stc_stack_sweep_destroy(stc_stack_sweep *sweep)
{
    if (!sweep) {
        return;
    }
    for (unsigned kind = 0; kind < 2; kind++) {
        for (unsigned line_index = 0; line_index < STC_LINE_SIZES; line_index++) {
            for (unsigned group_index = 0; group_index < sweep->group_counts; group_index++) {
                stack_free(&sweep->stacks[kind][line_index][group_index]);
            }
        }
    }
    free(sweep);
}

stc_stack_sweep *stc_stack_sweep_create(const stc_geometry *geometry, char *err, size_t err_len)
{
    stc_stack_sweep *sweep = calloc(1, sizeof *sweep);
    if (!sweep) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    sweep->geometry = *geometry;
    sweep->group_counts = geometry->bank_bits + 1;
    for (unsigned kind = 0; kind < 2; kind++) {
        for (unsigned line_index = 0; line_index < STC_LINE_SIZES; line_index++) {
            for (unsigned group_index = 0; group_index < sweep->group_counts; group_index++) {
                if (stack_init(&sweep->stacks[kind][line_index][group_index], geometry,
                               1u << line_index, 1u << group_index) != 0) {
                    stc_stack_sweep_destroy(sweep);
                    snprintf(err, err_len, "out of memory");
                    return NULL;
                }
            }
        }
    }
    return sweep;
}

#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/* Run count pieces through one stack of the given depth: the hot loop of
 * the whole engine. */
static ALWAYS_INLINE void stack_run_depth(lru_stack *stack, const piece *pieces, size_t count,
                                          const unsigned depth)
{
    const unsigned subline_shift = stack->subline_shift;
    const unsigned subline_mask = stack->subline_mask;
    const uint64_t set_mask = stack->set_mask;
    const uint32_t level_ones = stack->level_ones;
    uint64_t *const tags = stack->tags;
    uint32_t *const dirty = stack->dirty;
    unsigned request_depth = stack->open_request_depth;
    /* Depth-0 tallies live in registers: most accesses land there, and a
     * memory counter incremented on every iteration would chain them all
     * through store-to-load forwarding. */
    uint64_t top_accesses = 0, top_writes = 0, top_requests = 0;

    for (size_t index = 0; index < count; index++) {
        const piece *access = &pieces[index];
        uint64_t logical = access->line >> subline_shift;
        size_t base = (size_t)(logical & set_mask) * depth;
        uint64_t *set_tags = tags + base;
        uint32_t *set_dirty = dirty + base;
        /* If the access writes: its subline, in every level's nibble. */
        uint32_t written = (access->flags & PIECE_DIRTIES)
                               ? level_ones << ((unsigned)access->line & subline_mask)
                               : 0;

        unsigned found = 0;
        while (found < depth && set_tags[found] != logical) {
            found++;
        }
        if (found == 0) {
            /* Already the most recent: a hit everywhere, nothing moves. */
            top_accesses++;
            top_writes += access->miss_class;
            set_dirty[0] |= written;
        } else {
            stack->access_depths[access->miss_class][found]++;
            if (found > request_depth) {
                request_depth = found;
            }
            /* Levels that held the line keep its dirty bits; the others
             * cleared theirs when it left them (below), so it enters clean. */
            uint32_t line_dirty = found < depth ? set_dirty[found] : 0;
            /* Every 2^level-way cache with 2^level <= found misses: the line
             * at its bottom (depth 2^level - 1) is pushed out of it. */
            for (unsigned level = 0; (1u << level) <= found; level++) {
                uint32_t *leaving = &set_dirty[(1u << level) - 1];
                uint32_t nibble = (*leaving >> (LEVEL_BITS * level)) & 15;
                if (nibble) {
                    stack->writebacks[level] += popcount_nibble(nibble);
                    *leaving &= ~(15u << (LEVEL_BITS * level));
                }
            }
            unsigned shifted = found < depth ? found : depth - 1;
            for (unsigned entry = shifted; entry > 0; entry--) {
                set_tags[entry] = set_tags[entry - 1];
                set_dirty[entry] = set_dirty[entry - 1];
            }
            set_tags[0] = logical;
            /* Hit or fill, every cache holds the line now. */
            set_dirty[0] = line_dirty | written;
        }
        if (!(access->flags & PIECE_CONTINUES)) {
            /* The request ends: it missed in the levels its deepest piece
             * missed in. */
            if (request_depth == 0) {
                top_requests++;
            } else {
                stack->request_depths[request_depth]++;
            }
            request_depth = 0;
        }
    }
    stack->open_request_depth = request_depth;
    stack->access_depths[CLASS_READ][0] += top_accesses - top_writes;
    stack->access_depths[CLASS_WRITE][0] += top_writes;
    stack->request_depths[0] += top_requests;
}

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/* One copy per stack depth: constant bounds let the compiler unroll the
 * search, the level loop and the shift (depth 32 takes the generic one).
 * Each copy is a function of its own rather than all inlined into one: in
 * one function the copies compete for registers and the depth-0 tallies
 * were spilled to memory, on the hot path. */
#define STACK_RUN_OF_DEPTH(depth)                                                      \
    static NOINLINE void stack_run_##depth(lru_stack *stack, const piece *pieces,       \
                                           size_t count)                                 \
    {                                                                                  \
        stack_run_depth(stack, pieces, count, depth);                                  \
    }
STACK_RUN_OF_DEPTH(1)
STACK_RUN_OF_DEPTH(2)
STACK_RUN_OF_DEPTH(4)
STACK_RUN_OF_DEPTH(8)
STACK_RUN_OF_DEPTH(16)

static NOINLINE void stack_run_any(lru_stack *stack, const piece *pieces, size_t count)
{
    stack_run_depth(stack, pieces, count, stack->depth);
}

static void stack_run(lru_stack *stack, const piece *pieces, size_t count)
{
    switch (stack->depth) {
    case 1:
        stack_run_1(stack, pieces, count);
        break;
    case 2:
        stack_run_2(stack, pieces, count);
        break;
    case 4:
        stack_run_4(stack, pieces, count);
        break;
    case 8:
        stack_run_8(stack, pieces, count);
        break;
    case 16:
        stack_run_16(stack, pieces, count);
        break;
    default:
        stack_run_any(stack, pieces, count);
        break;
    }
}

/* Split the references of one cache into pieces (exactly as
 * stc_cache_request does: at physical-line boundaries, ascending, each
 * address taken modulo 2^addr_bits) and run them, a chunk at a time,
 * through that cache's stacks. */
static void run_stream(stc_stack_sweep *sweep, stc_cache_kind kind, const stc_ref *refs,
                       size_t count)
{
    const stc_geometry *geometry = &sweep->geometry;
    const uint64_t addr_mask = geometry->addr_mask;
    const unsigned offset_bits = geometry->offset_bits;
    const unsigned line_bytes = geometry->line_bytes;
    stream_tally *tally = &sweep->tallies[kind];
    size_t ref_index = 0;
    uint32_t done = 0; /* bytes of refs[ref_index] already cut into pieces */

    while (ref_index < count) {
        size_t filled = 0;
        while (filled < CHUNK_PIECES && ref_index < count) {
            const stc_ref *ref = &refs[ref_index];
            if (ref->size == 0) {
                ref_index++;
                continue;
            }
            uint8_t op = ref->kind & 3;
            bool reads = op != STC_REF_STORE;
            bool writes = op == STC_REF_STORE || op == STC_REF_MODIFY;
            if (done == 0) {
                tally->requests++;
            }
            uint64_t piece_addr = (ref->addr + done) & addr_mask;
            uint32_t offset = (uint32_t)piece_addr & (line_bytes - 1);
            uint32_t length = line_bytes - offset;
            if (length > ref->size - done) {
                length = ref->size - done;
            }
            done += length;
            piece *next = &sweep->pieces[kind][filled++];
            next->line = piece_addr >> offset_bits;
            next->miss_class = op == STC_REF_STORE ? CLASS_WRITE : CLASS_READ;
            next->flags = (uint8_t)((writes ? PIECE_DIRTIES : 0) |
                                    (done < ref->size ? PIECE_CONTINUES : 0));
            tally->accesses++;
            tally->reads += reads;
            tally->writes += writes;
            if (done == ref->size) {
                ref_index++;
                done = 0;
            }
        }
        for (unsigned line_index = 0; line_index < STC_LINE_SIZES; line_index++) {
            for (unsigned group_index = 0; group_index < sweep->group_counts; group_index++) {
                stack_run(&sweep->stacks[kind][line_index][group_index], sweep->pieces[kind],
                          filled);
            }
        }
    }
}

void stc_stack_sweep_run_cache(stc_stack_sweep *sweep, stc_cache_kind kind,
                               const stc_filtered_batch *batch)
{
    if (kind == STC_ICACHE) {
        run_stream(sweep, STC_ICACHE, batch->ifetch, batch->ifetch_count);
    } else {
        run_stream(sweep, STC_DCACHE, batch->data, batch->data_count);
    }
    stc_repeat_counts *repeats = &sweep->tallies[kind].repeats;
    repeats->reads += batch->repeats[kind].reads;
    repeats->writes += batch->repeats[kind].writes;
    repeats->modifies += batch->repeats[kind].modifies;
}

void stc_stack_sweep_run(stc_stack_sweep *sweep, const stc_filtered_batch *batch)
{
    stc_stack_sweep_run_cache(sweep, STC_ICACHE, batch);
    stc_stack_sweep_run_cache(sweep, STC_DCACHE, batch);
}

int stc_stack_sweep_counters(const stc_stack_sweep *sweep, const stc_config *config,
                             stc_cache_kind kind, stc_counters *out)
{
    const stc_geometry *geometry = &sweep->geometry;
    memset(out, 0, sizeof *out);
    if (stc_config_check(geometry, config) || (kind != STC_ICACHE && kind != STC_DCACHE)) {
        return -1;
    }
    const stream_tally *tally = &sweep->tallies[kind];
    const lru_stack *stack = &sweep->stacks[kind][stc_log2(config->sublines)]
                                           [stc_log2(stc_config_groups(config))];
    const unsigned ways = config->ways;
    const unsigned level = stc_log2(ways);
    const stc_repeat_counts *repeats = &tally->repeats;
    uint64_t repeat_total = repeats->reads + repeats->writes + repeats->modifies;

    /* Depth d misses in this configuration iff d >= ways. */
    uint64_t first_probe_hits = repeat_total;
    uint64_t second_probe_hits = 0;
    for (unsigned depth = 0; depth <= stack->depth; depth++) {
        uint64_t reads_here = stack->access_depths[CLASS_READ][depth];
        uint64_t writes_here = stack->access_depths[CLASS_WRITE][depth];
        if (depth >= ways) {
            out->read_misses += reads_here;
            out->write_misses += writes_here;
            out->request_misses += stack->request_depths[depth];
        } else if (depth == 0) {
            first_probe_hits += reads_here + writes_here;
        } else {
            second_probe_hits += reads_here + writes_here;
        }
    }
    out->requests = tally->requests + repeat_total;
    out->accesses = tally->accesses + repeat_total;
    out->reads = tally->reads + repeats->reads + repeats->modifies;
    out->writes = tally->writes + repeats->writes + repeats->modifies;
    out->misses = out->read_misses + out->write_misses;
    /* In the steady state a miss finds the whole logical line absent: all
     * its sublines come in one burst. */
    out->fills = out->misses * config->sublines;
    out->fill_bursts = out->misses;
    out->writebacks = stack->writebacks[level];

    uint64_t probe_cycles = out->accesses;
    if (config->way_predict) {
        out->first_probe_hits = first_probe_hits;
        out->second_probe_hits = second_probe_hits;
        probe_cycles += second_probe_hits + out->misses; /* the second probe */
    }
    /* Per miss one burst of the whole logical line; the controller's cycles
     * are linear in the writebacks, so they are summed per miss without and
     * per writeback apart (timing.h). */
    out->cycles = probe_cycles + out->misses * stc_line_miss_cycles(geometry, config->sublines) +
                  out->writebacks * stc_writeback_cycles(geometry);
    return 0;
}
