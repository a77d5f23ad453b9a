/* cache.c - the configurable cache model (docs/ARCHITECTURE.md sections 3-9). */
#include "cache.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Per slot: valid, dirty, and the logical line the line was filled with
 * (log2 of its sublines; 0 for a line a fill left in place beside
 * sublines it brought: a fragment): ARCHITECTURE.md 10's whole-line rule. */
enum { SLOT_VALID = 1, SLOT_DIRTY = 2, SLOT_FILL_SHIFT = 2, SLOT_FILL_MASK = 3 << SLOT_FILL_SHIFT };

static unsigned log2_of_sublines(unsigned sublines)
{
    return sublines == 4 ? 2 : sublines == 2 ? 1 : 0;
}

struct stc_cache {
    stc_geometry geometry;
    stc_cache_kind kind;
    stc_config config;
    stc_memory memory;
    bool has_data;

    /* Per slot, indexed row * banks + bank so one row's banks are adjacent. */
    uint64_t *tags;
    uint8_t *flags;
    uint64_t *stamps; /* recency: a larger stamp is more recent within a row */
    uint8_t *data;    /* line_bytes per slot, or NULL */
    uint64_t clock;   /* next stamp to hand out */

    /* Derived from config. */
    unsigned groups;
    unsigned group_mask;

    stc_counters counters;
    bool track_depths;                       /* stc_cache_track_depths */
    uint64_t depth_hits[STC_MAX_BANKS];      /* hits by recency depth among the candidates */
    uint32_t scramble_seed; /* makes powered-off data visibly garbage */
    bool walk_moves;        /* stc_cache_set_walk_moves: a walk moves lines (model only) */

    /* The physical line of the previous access and its bank. A repeat access
     * to it is a hit in a bank that is already the most recent in every row
     * of its logical line, so the lookup and the recency update can be
     * skipped without changing any behaviour. Cleared by reconfiguration. */
    bool last_valid;
    uint64_t last_line;
    unsigned last_bank;
};

void stc_counters_add(stc_counters *into, const stc_counters *from)
{
    const uint64_t *source = (const uint64_t *)from;
    uint64_t *target = (uint64_t *)into;
    for (size_t field = 0; field < sizeof *into / sizeof(uint64_t); field++) {
        target[field] += source[field];
    }
}

static size_t slot_index(const stc_cache *cache, unsigned bank, unsigned row)
{
    return (size_t)row * cache->geometry.banks + bank;
}

static void apply_config(stc_cache *cache, const stc_config *config)
{
    cache->config = *config;
    cache->groups = stc_config_groups(config);
    cache->group_mask = cache->groups - 1;
}

stc_cache *stc_cache_create(const stc_geometry *geometry, stc_cache_kind kind,
                            const stc_config *config, const stc_memory *memory, char *err,
                            size_t err_len)
{
    const char *rule = stc_config_check(geometry, config);
    if (rule) {
        snprintf(err, err_len, "illegal configuration: %s", rule);
        return NULL;
    }
    stc_cache *cache = calloc(1, sizeof *cache);
    if (!cache) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    cache->geometry = *geometry;
    cache->kind = kind;
    size_t slots = (size_t)geometry->banks * geometry->rows;
    cache->tags = calloc(slots, sizeof *cache->tags);
    cache->flags = calloc(slots, sizeof *cache->flags);
    cache->stamps = calloc(slots, sizeof *cache->stamps);
    if (memory) {
        cache->memory = *memory;
        cache->has_data = true;
        cache->data = calloc(slots, geometry->line_bytes);
    }
    if (!cache->tags || !cache->flags || !cache->stamps || (memory && !cache->data)) {
        stc_cache_destroy(cache);
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    /* Reset recency: bank 0 most recent, bank B-1 least, in every row. */
    for (unsigned row = 0; row < geometry->rows; row++) {
        for (unsigned bank = 0; bank < geometry->banks; bank++) {
            cache->stamps[slot_index(cache, bank, row)] = geometry->banks - bank;
        }
    }
    cache->clock = geometry->banks + 1;
    cache->scramble_seed = 0x9e3779b9u;
    apply_config(cache, config);
    return cache;
}

void stc_cache_destroy(stc_cache *cache)
{
    if (!cache) {
        return;
    }
    free(cache->tags);
    free(cache->flags);
    free(cache->stamps);
    free(cache->data);
    free(cache);
}

stc_counters stc_counters_since(const stc_counters *now, const stc_counters *earlier)
{
    stc_counters difference;
    const uint64_t *now_fields = (const uint64_t *)now;
    const uint64_t *earlier_fields = (const uint64_t *)earlier;
    uint64_t *difference_fields = (uint64_t *)&difference;
    for (size_t field = 0; field < sizeof difference / sizeof(uint64_t); field++) {
        difference_fields[field] = now_fields[field] - earlier_fields[field];
    }
    return difference;
}

const stc_counters *stc_cache_counters(const stc_cache *cache)
{
    return &cache->counters;
}

void stc_cache_clear_counters(stc_cache *cache)
{
    memset(&cache->counters, 0, sizeof cache->counters);
    memset(cache->depth_hits, 0, sizeof cache->depth_hits);
}

void stc_cache_track_depths(stc_cache *cache, bool on)
{
    cache->track_depths = on;
    memset(cache->depth_hits, 0, sizeof cache->depth_hits);
}

const uint64_t *stc_cache_depth_hits(const stc_cache *cache)
{
    return cache->depth_hits;
}

const stc_config *stc_cache_config(const stc_cache *cache)
{
    return &cache->config;
}

const stc_geometry *stc_cache_geometry(const stc_cache *cache)
{
    return &cache->geometry;
}

static unsigned row_of(const stc_cache *cache, uint64_t addr)
{
    return (unsigned)(addr >> cache->geometry.offset_bits) & (cache->geometry.rows - 1);
}

static uint64_t tag_of(const stc_cache *cache, uint64_t addr)
{
    return (addr & cache->geometry.addr_mask) >> cache->geometry.bank_shift;
}

static uint64_t line_addr_of(const stc_cache *cache, uint64_t tag, unsigned row)
{
    return (tag << cache->geometry.bank_shift) | ((uint64_t)row << cache->geometry.offset_bits);
}

/* Candidate j (0..ways-1) of a line whose tag selects bank group tag % groups. */
/* Whether a reconfiguration's walk keeps the line with tag in bank: its
 * bank stays on (bank < banks_on) and is among its candidates under the
 * new set mapping (bank mod g' = tag mod g', group_mask = g' - 1;
 * ARCHITECTURE.md 7 step 2). */
static bool walk_keeps(unsigned bank, uint64_t tag, unsigned banks_on, unsigned group_mask)
{
    return bank < banks_on && (bank & group_mask) == ((unsigned)tag & group_mask);
}

static unsigned candidate_bank(const stc_cache *cache, uint64_t tag, unsigned j)
{
    return ((unsigned)tag & cache->group_mask) + cache->groups * j;
}

/* The candidate bank holding (tag, row), or -1. */
static int find_bank(const stc_cache *cache, uint64_t tag, unsigned row)
{
    size_t base = (size_t)row * cache->geometry.banks;
    for (unsigned j = 0; j < cache->config.ways; j++) {
        unsigned bank = candidate_bank(cache, tag, j);
        size_t slot = base + bank;
        if ((cache->flags[slot] & SLOT_VALID) && cache->tags[slot] == tag) {
            return (int)bank;
        }
    }
    return -1;
}

/* How many valid candidates of (tag, row) are more recent than bank: the
 * hit's depth in the set's LRU stack. */
static unsigned recency_depth(const stc_cache *cache, uint64_t tag, unsigned row, unsigned bank)
{
    size_t base = (size_t)row * cache->geometry.banks;
    unsigned depth = 0;
    for (unsigned j = 0; j < cache->config.ways; j++) {
        size_t slot = base + candidate_bank(cache, tag, j);
        depth += (cache->flags[slot] & SLOT_VALID) && cache->stamps[slot] > cache->stamps[base + bank];
    }
    return depth;
}

static unsigned most_recent_candidate(const stc_cache *cache, uint64_t tag, unsigned row)
{
    size_t base = (size_t)row * cache->geometry.banks;
    unsigned best = candidate_bank(cache, tag, 0);
    for (unsigned j = 1; j < cache->config.ways; j++) {
        unsigned bank = candidate_bank(cache, tag, j);
        if (cache->stamps[base + bank] > cache->stamps[base + best]) {
            best = bank;
        }
    }
    return best;
}

/* Victim for a logical line whose first row is first_row: the lowest
 * candidate whose slot in first_row is invalid, else the least recent
 * candidate in first_row. */
static unsigned choose_victim(const stc_cache *cache, uint64_t tag, unsigned first_row)
{
    size_t base = (size_t)first_row * cache->geometry.banks;
    for (unsigned j = 0; j < cache->config.ways; j++) {
        unsigned bank = candidate_bank(cache, tag, j);
        if (!(cache->flags[base + bank] & SLOT_VALID)) {
            return bank;
        }
    }
    unsigned oldest = candidate_bank(cache, tag, 0);
    for (unsigned j = 1; j < cache->config.ways; j++) {
        unsigned bank = candidate_bank(cache, tag, j);
        if (cache->stamps[base + bank] < cache->stamps[base + oldest]) {
            oldest = bank;
        }
    }
    return oldest;
}

static unsigned memory_cycles(const stc_cache *cache, unsigned lines)
{
    return cache->geometry.mem_latency + cache->geometry.beats_per_line * lines;
}

/* Write back slot if dirty; returns the cycles it took. */
static unsigned write_back_if_dirty(stc_cache *cache, unsigned bank, unsigned row)
{
    size_t slot = slot_index(cache, bank, row);
    if ((cache->flags[slot] & (SLOT_VALID | SLOT_DIRTY)) != (SLOT_VALID | SLOT_DIRTY)) {
        return 0;
    }
    if (cache->has_data) {
        cache->memory.write_burst(cache->memory.context, line_addr_of(cache, cache->tags[slot], row),
                                  cache->data + slot * cache->geometry.line_bytes,
                                  cache->geometry.line_bytes);
    }
    cache->flags[slot] &= (uint8_t)~SLOT_DIRTY;
    return memory_cycles(cache, 1);
}

/* Write back a line taken out of its slot (a walk with moves holds it
 * aside while other lines of the row move); returns the cycles it took. */
static unsigned write_back_taken_line(stc_cache *cache, uint64_t tag, unsigned row,
                                      const uint8_t *data)
{
    if (cache->has_data) {
        cache->memory.write_burst(cache->memory.context, line_addr_of(cache, tag, row), data,
                                  cache->geometry.line_bytes);
    }
    return memory_cycles(cache, 1);
}

/* Whether the row state alone shows the logical line at first_row absent
 * (its requested subline having missed): in every candidate bank the
 * line's rows are all invalid, or all valid and filled with a logical line
 * at least as long as the current one, so each candidate holds one whole
 * other line or nothing (ARCHITECTURE.md 10). */
static bool whole_line_known_absent(const stc_cache *cache, uint64_t tag, unsigned first_row)
{
    unsigned sublines = cache->config.sublines;
    unsigned need = log2_of_sublines(sublines);
    for (unsigned j = 0; j < cache->config.ways; j++) {
        unsigned bank = candidate_bank(cache, tag, j);
        unsigned valid = 0, long_enough = 0;
        for (unsigned sub = 0; sub < sublines; sub++) {
            uint8_t flags = cache->flags[slot_index(cache, bank, first_row + sub)];
            valid += (flags & SLOT_VALID) != 0;
            long_enough += (flags & SLOT_VALID) &&
                           (unsigned)(flags & SLOT_FILL_MASK) >> SLOT_FILL_SHIFT >= need;
        }
        if (valid != 0 && long_enough != sublines) {
            return false;
        }
    }
    return true;
}

/* Bring the missing physical lines of the logical line containing addr into
 * victim. Returns the memory cycles; fills in the result's counts. A miss
 * whose line the row state shows absent (whole_line_known_absent) takes
 * every subline without checking each (*known_absent true). */
static unsigned fill_logical_line(stc_cache *cache, uint64_t addr, unsigned victim,
                                  stc_access_result *result, bool *known_absent)
{
    const stc_geometry *geometry = &cache->geometry;
    unsigned sublines = cache->config.sublines;
    uint64_t tag = tag_of(cache, addr);
    unsigned first_row = row_of(cache, addr) & ~(sublines - 1);
    uint8_t filled_flags = (uint8_t)(SLOT_VALID | log2_of_sublines(sublines) << SLOT_FILL_SHIFT);
    bool missing[STC_MAX_SUBLINES];
    unsigned cycles = 0;

    *known_absent = whole_line_known_absent(cache, tag, first_row);
    /* 1. Which physical lines are missing, and evict what the victim bank
     *    holds in their rows (writebacks in ascending row order). A line
     *    the victim keeps beside sublines present elsewhere is a fragment
     *    from now on. */
    for (unsigned sub = 0; sub < sublines; sub++) {
        unsigned row = first_row + sub;
        missing[sub] = *known_absent || find_bank(cache, tag, row) < 0;
        if (!missing[sub]) {
            cache->flags[slot_index(cache, victim, row)] &= (uint8_t)~SLOT_FILL_MASK;
            continue;
        }
        unsigned wb_cycles = write_back_if_dirty(cache, victim, row);
        if (wb_cycles) {
            cycles += wb_cycles;
            result->writebacks++;
        }
        cache->flags[slot_index(cache, victim, row)] = 0;
    }
    /* 2. One read burst per run of consecutive missing lines. */
    for (unsigned sub = 0; sub < sublines;) {
        if (!missing[sub]) {
            sub++;
            continue;
        }
        unsigned run = 1;
        while (sub + run < sublines && missing[sub + run]) {
            run++;
        }
        if (cache->has_data) {
            uint8_t burst[STC_MAX_SUBLINES * 1024];
            uint8_t *buffer = burst;
            uint8_t *heap = NULL;
            size_t burst_bytes = (size_t)run * geometry->line_bytes;
            if (burst_bytes > sizeof burst) {
                heap = malloc(burst_bytes);
                buffer = heap;
            }
            if (!buffer) {
                abort(); /* cannot continue a bit-exact model without the data */
            }
            cache->memory.read_burst(cache->memory.context,
                                     line_addr_of(cache, tag, first_row + sub), buffer,
                                     (unsigned)burst_bytes);
            for (unsigned line = 0; line < run; line++) {
                size_t slot = slot_index(cache, victim, first_row + sub + line);
                memcpy(cache->data + slot * geometry->line_bytes,
                       buffer + (size_t)line * geometry->line_bytes, geometry->line_bytes);
            }
            free(heap);
        }
        for (unsigned line = 0; line < run; line++) {
            size_t slot = slot_index(cache, victim, first_row + sub + line);
            cache->tags[slot] = tag;
            cache->flags[slot] = filled_flags;
        }
        cycles += memory_cycles(cache, run);
        result->fills += run;
        result->bursts++;
        sub += run;
    }
    return cycles;
}

/* The recency update covers the whole logical line: bank becomes the most
 * recent bank in every row of it. */
static void touch_logical_line(stc_cache *cache, unsigned bank, unsigned row)
{
    unsigned sublines = cache->config.sublines;
    unsigned first_row = row & ~(sublines - 1);
    uint64_t stamp = cache->clock++;
    for (unsigned sub = 0; sub < sublines; sub++) {
        cache->stamps[slot_index(cache, bank, first_row + sub)] = stamp;
    }
}

/* access_piece and its helpers are inlined into each caller so the
 * tag-only trace path (with_data a constant false) loses every data
 * branch. */
#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/* Where an access found its physical line, and what finding it took. */
typedef struct {
    bool repeat;     /* the previous access's line: its bank, no lookup, recency kept */
    int hit_bank;    /* the candidate bank holding the line, or -1 (a miss) */
    unsigned probes; /* 1, or 2 when way prediction's first probe failed */
    bool predicted;  /* way prediction on and its first probe hit */
} line_lookup;

/* Way prediction probes the most recent candidate first (for a repeat,
 * the previous access's bank, already the most recent); a hit elsewhere
 * and a miss take a second probe. Counts which probe hit. */
static ALWAYS_INLINE void predict_way(stc_cache *cache, uint64_t tag, unsigned row,
                                      line_lookup *found)
{
    stc_counters *counters = &cache->counters;
    unsigned predicted_bank =
        found->repeat ? cache->last_bank : most_recent_candidate(cache, tag, row);
    if (found->hit_bank >= 0 && (unsigned)found->hit_bank == predicted_bank) {
        found->predicted = true;
        counters->first_probe_hits++;
    } else {
        found->probes = 2;
        if (found->hit_bank >= 0) {
            counters->second_probe_hits++;
        }
    }
}

/* The lookup of (tag, row), line line_number: the tag compare (skipped for
 * a repeat of the previous access's line), way prediction's probes and a
 * hit's depth in its set's LRU stack. */
static ALWAYS_INLINE line_lookup look_up_line(stc_cache *cache, uint64_t tag, unsigned row,
                                              uint64_t line_number)
{
    line_lookup found = {.probes = 1};
    found.repeat = cache->last_valid && cache->last_line == line_number;
    found.hit_bank = found.repeat ? (int)cache->last_bank : find_bank(cache, tag, row);
    if (cache->config.way_predict) {
        predict_way(cache, tag, row, &found);
    }
    if (cache->track_depths && found.hit_bank >= 0) {
        cache->depth_hits[found.repeat ? 0
                                       : recency_depth(cache, tag, row, (unsigned)found.hit_bank)]++;
    }
    return found;
}

/* A miss of the physical line of addr (tag, row): the victim bank takes
 * the logical line (writebacks, then fill bursts; *fill has their counts)
 * and the miss is counted. Returns the victim bank; adds the memory's and
 * the controller's cycles to *access_cycles. */
static ALWAYS_INLINE unsigned serve_miss(stc_cache *cache, stc_op op, uint64_t addr, uint64_t tag,
                                         unsigned row, stc_access_result *fill,
                                         unsigned *access_cycles)
{
    stc_counters *counters = &cache->counters;
    unsigned first_row = row & ~(cache->config.sublines - 1);
    unsigned bank = choose_victim(cache, tag, first_row);
    /* The controller's cycles depend on the fill's bursts and writebacks:
     * the fill must be done before they are computed. */
    bool known_absent;
    unsigned memory_wait = fill_logical_line(cache, addr, bank, fill, &known_absent);
    *access_cycles += memory_wait +
                      (unsigned)(known_absent
                                     ? stc_whole_line_miss_controller_cycles(fill->writebacks)
                                     : stc_miss_controller_cycles(cache->config.sublines,
                                                                  fill->bursts, fill->writebacks));
    counters->misses++;
    if (op == STC_OP_WRITE) {
        counters->write_misses++;
    } else {
        counters->read_misses++;
    }
    counters->fills += fill->fills;
    counters->fill_bursts += fill->bursts;
    counters->writebacks += fill->writebacks;
    return bank;
}

/* The access's bytes at offset in slot's line: a read or modify returns
 * them (before its write), a write or modify stores the enabled ones. */
static ALWAYS_INLINE void transfer_bytes(stc_cache *cache, stc_op op, size_t slot, unsigned offset,
                                         unsigned bytes, const uint8_t *write_data,
                                         const uint8_t *write_mask, uint8_t *read_data)
{
    uint8_t *line = cache->data + slot * cache->geometry.line_bytes + offset;
    if (read_data && op != STC_OP_WRITE) {
        memcpy(read_data, line, bytes);
    }
    if (op != STC_OP_READ) {
        for (unsigned byte = 0; byte < bytes; byte++) {
            if (!write_mask || write_mask[byte]) {
                line[byte] = write_data[byte];
            }
        }
    }
}

/* After the data: a write dirties the line; the logical line becomes the
 * most recent in bank (a repeat's already is); the line is remembered so
 * the next access can skip its lookup. */
static ALWAYS_INLINE void note_use(stc_cache *cache, stc_op op, size_t slot, unsigned bank,
                                   unsigned row, uint64_t line_number, bool repeat)
{
    if (op != STC_OP_READ) {
        cache->flags[slot] |= SLOT_DIRTY;
    }
    if (!repeat) {
        touch_logical_line(cache, bank, row);
    }
    cache->last_valid = true;
    cache->last_line = line_number;
    cache->last_bank = bank;
}

/* The counters every access adds to, hit or miss. */
static ALWAYS_INLINE void count_access(stc_counters *counters, stc_op op, unsigned access_cycles)
{
    counters->accesses++;
    if (op != STC_OP_WRITE) {
        counters->reads++;
    }
    if (op != STC_OP_READ) {
        counters->writes++;
    }
    counters->cycles += access_cycles;
}

/* What one access did, as stc_cache_access returns it (cache.h). */
static void report_access(stc_access_result *result, const line_lookup *found, unsigned bank,
                          unsigned access_cycles, const stc_access_result *fill)
{
    result->hit = found->hit_bank >= 0;
    result->predicted = found->predicted;
    result->bank = bank;
    result->probes = found->probes;
    result->cycles = access_cycles;
    result->fills = fill->fills;
    result->bursts = fill->bursts;
    result->writebacks = fill->writebacks;
}

/* One access inside one physical line, already validated. result may be
 * NULL (trace simulation), which skips the bookkeeping only it needs.
 * Returns whether the access hit; adds its cycles to *cycles. */
static ALWAYS_INLINE bool access_piece(stc_cache *cache, stc_op op, uint64_t addr, unsigned bytes,
                                       const uint8_t *write_data, const uint8_t *write_mask,
                                       uint8_t *read_data, stc_access_result *result,
                                       unsigned *cycles, const bool with_data)
{
    const stc_geometry *geometry = &cache->geometry;
    uint64_t tag = tag_of(cache, addr);
    unsigned row = row_of(cache, addr);
    uint64_t line_number = addr >> geometry->offset_bits;
    line_lookup found = look_up_line(cache, tag, row, line_number);
    unsigned access_cycles = found.probes;

    unsigned bank;
    stc_access_result fill = {0};
    if (found.hit_bank >= 0) {
        bank = (unsigned)found.hit_bank;
    } else {
        bank = serve_miss(cache, op, addr, tag, row, &fill, &access_cycles);
    }

    size_t slot = slot_index(cache, bank, row);
    if (with_data && cache->has_data) {
        transfer_bytes(cache, op, slot, (unsigned)addr & (geometry->line_bytes - 1), bytes,
                       write_data, write_mask, read_data);
    }
    note_use(cache, op, slot, bank, row, line_number, found.repeat);
    count_access(&cache->counters, op, access_cycles);
    *cycles += access_cycles;
    if (result) {
        report_access(result, &found, bank, access_cycles, &fill);
    }
    return found.hit_bank >= 0;
}

int stc_cache_access(stc_cache *cache, stc_op op, uint64_t addr, unsigned bytes,
                     const uint8_t *write_data, const uint8_t *write_mask, uint8_t *read_data,
                     stc_access_result *result)
{
    const stc_geometry *geometry = &cache->geometry;
    stc_access_result local;
    if (!result) {
        result = &local;
    }
    memset(result, 0, sizeof *result);
    addr &= geometry->addr_mask;
    unsigned offset = (unsigned)addr & (geometry->line_bytes - 1);
    if (bytes == 0 || offset + bytes > geometry->line_bytes) {
        return -1;
    }
    if (op != STC_OP_READ && (cache->kind == STC_ICACHE || (cache->has_data && !write_data))) {
        return -1;
    }
    unsigned cycles = 0;
    access_piece(cache, op, addr, bytes, write_data, write_mask, read_data, result, &cycles, true);
    return 0;
}

/* Counters of `count` requests that each repeat the previous access's
 * physical line: hits in the most recent bank, 1 cycle, first-probe hits. */
static void count_repeats(stc_cache *cache, stc_op op, uint64_t count)
{
    stc_counters *counters = &cache->counters;
    counters->requests += count;
    counters->accesses += count;
    counters->cycles += count;
    if (cache->track_depths) {
        cache->depth_hits[0] += count;
    }
    if (op != STC_OP_WRITE) {
        counters->reads += count;
    }
    if (op != STC_OP_READ) {
        counters->writes += count;
    }
    if (cache->config.way_predict) {
        counters->first_probe_hits += count;
    }
}

void stc_cache_add_repeat_counts(stc_cache *cache, const stc_repeat_counts *counts)
{
    count_repeats(cache, STC_OP_READ, counts->reads);
    count_repeats(cache, STC_OP_WRITE, counts->writes);
    count_repeats(cache, STC_OP_MODIFY, counts->modifies);
}

int stc_cache_count_repeats(stc_cache *cache, stc_op op, uint64_t count)
{
    if (count == 0) {
        return 0;
    }
    if (!cache->last_valid || (op != STC_OP_READ && cache->kind == STC_ICACHE)) {
        return -1;
    }
    if (op != STC_OP_READ) {
        cache->flags[slot_index(cache, cache->last_bank,
                                (unsigned)cache->last_line & (cache->geometry.rows - 1))] |=
            SLOT_DIRTY;
    }
    count_repeats(cache, op, count);
    return 0;
}

int stc_cache_request(stc_cache *cache, stc_op op, uint64_t addr, unsigned bytes,
                      const uint8_t *write_data, uint8_t *read_data, unsigned *cycles)
{
    const stc_geometry *geometry = &cache->geometry;
    if (bytes == 0 || (op != STC_OP_READ && cache->kind == STC_ICACHE) ||
        (op != STC_OP_READ && cache->has_data && !write_data)) {
        return -1;
    }
    /* Fast path for trace simulation: a one-piece request to the line of the
     * previous access (most instruction fetches). */
    uint64_t first_addr = addr & geometry->addr_mask;
    if (!cache->has_data && cache->last_valid &&
        (first_addr >> geometry->offset_bits) == cache->last_line &&
        ((unsigned)first_addr & (geometry->line_bytes - 1)) + bytes <= geometry->line_bytes) {
        stc_cache_count_repeats(cache, op, 1);
        if (cycles) {
            *cycles = 1;
        }
        return 0;
    }
    unsigned missed = 0;
    unsigned total_cycles = 0;
    unsigned done = 0;
    while (done < bytes) {
        uint64_t piece_addr = (addr + done) & geometry->addr_mask;
        unsigned offset = (unsigned)piece_addr & (geometry->line_bytes - 1);
        unsigned piece = geometry->line_bytes - offset;
        if (piece > bytes - done) {
            piece = bytes - done;
        }
        bool hit = cache->has_data
                       ? access_piece(cache, op, piece_addr, piece,
                                      write_data ? write_data + done : NULL, NULL,
                                      read_data ? read_data + done : NULL, NULL, &total_cycles, true)
                       : access_piece(cache, op, piece_addr, piece, NULL, NULL, NULL, NULL,
                                      &total_cycles, false);
        missed += hit ? 0 : 1;
        done += piece;
    }
    cache->counters.requests++;
    if (missed) {
        cache->counters.request_misses++;
    }
    if (cycles) {
        *cycles = total_cycles;
    }
    return (int)missed;
}

/* Overwrite a powered-off bank's contents so nothing can read them unnoticed. */
static void scramble_bank(stc_cache *cache, unsigned bank)
{
    for (unsigned row = 0; row < cache->geometry.rows; row++) {
        size_t slot = slot_index(cache, bank, row);
        cache->scramble_seed = cache->scramble_seed * 1664525u + 1013904223u;
        cache->tags[slot] = cache->scramble_seed;
        if (cache->has_data) {
            uint8_t *line = cache->data + slot * cache->geometry.line_bytes;
            for (unsigned byte = 0; byte < cache->geometry.line_bytes; byte++) {
                cache->scramble_seed = cache->scramble_seed * 1664525u + 1013904223u;
                line[byte] = (uint8_t)(cache->scramble_seed >> 24);
            }
        }
    }
}

void stc_cache_set_walk_moves(stc_cache *cache, bool on)
{
    cache->walk_moves = on;
}

/* One row of a walk with moves (cache.h, stc_cache_set_walk_moves), the
 * new configuration already applied: walked banks' lines outside their
 * new candidates are taken out, placed into free candidate slots where
 * there are some, and the rest written back if dirty and dropped. line
 * holds banks x line_bytes bytes of room for the taken lines' data (NULL
 * without data). Returns the cycles beyond the row's own: one per moved
 * line and one more if any moved, and each writeback's memory time. */
static uint64_t walk_row_moving(stc_cache *cache, unsigned row, uint32_t walked,
                                unsigned old_banks, uint8_t *line, stc_reconfig_result *result)
{
    const stc_geometry *geometry = &cache->geometry;
    unsigned line_bytes = geometry->line_bytes;
    size_t base = (size_t)row * geometry->banks;
    unsigned taken_bank[STC_MAX_BANKS];
    uint64_t taken_tag[STC_MAX_BANKS];
    uint8_t taken_flags[STC_MAX_BANKS];
    bool placed[STC_MAX_BANKS];
    unsigned taken = 0;
    uint64_t cycles = 0;

    /* Take out, in ascending bank order, every line the walk would drop. */
    for (unsigned bank = 0; bank < old_banks; bank++) {
        size_t slot = base + bank;
        if (!(walked >> bank & 1) || !(cache->flags[slot] & SLOT_VALID)) {
            continue;
        }
        bool keep = walk_keeps(bank, cache->tags[slot], cache->config.banks_on, cache->group_mask);
        if (keep) {
            continue;
        }
        taken_bank[taken] = bank;
        taken_tag[taken] = cache->tags[slot];
        taken_flags[taken] = cache->flags[slot];
        if (cache->has_data) {
            memcpy(line + (size_t)taken * line_bytes, cache->data + slot * line_bytes, line_bytes);
        }
        cache->flags[slot] = 0;
        taken++;
    }
    if (taken == 0) {
        return 0;
    }

    /* Place each into its lowest free candidate (ascending j is ascending
     * bank). A moved line is a fragment from now on (cache.h). */
    uint64_t old_stamps[STC_MAX_BANKS];
    memcpy(old_stamps, cache->stamps + base, geometry->banks * sizeof *old_stamps);
    uint32_t sources = 0, destinations = 0;
    for (unsigned index = 0; index < taken; index++) {
        placed[index] = false;
        for (unsigned j = 0; j < cache->config.ways; j++) {
            unsigned bank = candidate_bank(cache, taken_tag[index], j);
            size_t slot = base + bank;
            if (cache->flags[slot] & SLOT_VALID) {
                continue;
            }
            cache->tags[slot] = taken_tag[index];
            cache->flags[slot] = (uint8_t)(taken_flags[index] & (SLOT_VALID | SLOT_DIRTY));
            if (cache->has_data) {
                memcpy(cache->data + slot * line_bytes, line + (size_t)index * line_bytes,
                       line_bytes);
            }
            /* The line keeps its place in the row's recency order. */
            cache->stamps[slot] = old_stamps[taken_bank[index]];
            sources |= (uint32_t)1 << taken_bank[index];
            destinations |= (uint32_t)1 << bank;
            placed[index] = true;
            result->moves++;
            cycles += 1;
            break;
        }
    }
    /* The controller reads the row's moving lines in the row's cycle, writes
     * one a cycle, then ends the row in a cycle of its own (its tags read
     * again for the next row): one cycle more than the moves in a row with
     * any (ARCHITECTURE.md 7). */
    if (sources) {
        cycles += 1;
        result->moving_rows++;
    }
    /* The stamps the movers displaced go, in ascending order of their
     * banks, to the slots the movers left (ascending), so the row's
     * stamps stay distinct: a total order, as the hardware's matrix. */
    uint32_t left = sources & ~destinations, displaced = destinations & ~sources;
    for (unsigned bank = 0, from = 0; bank < geometry->banks; bank++) {
        if (!(left >> bank & 1)) {
            continue;
        }
        while (!(displaced >> from & 1)) {
            from++;
        }
        cache->stamps[base + bank] = old_stamps[from++];
    }

    /* The rest, in ascending old-bank order: as a walk without moves. */
    for (unsigned index = 0; index < taken; index++) {
        if (placed[index]) {
            continue;
        }
        if (taken_flags[index] & SLOT_DIRTY) {
            cycles += write_back_taken_line(cache, taken_tag[index], row,
                                            line ? line + (size_t)index * line_bytes : NULL);
            result->writebacks++;
        }
        result->invalidations++;
    }
    return cycles;
}

/* A walk with moves over every row (section 7 step 2 with cache.h's rule).
 * Returns its cycles: a row each, plus the rows' own. */
static uint64_t walk_moving(stc_cache *cache, uint32_t walked, unsigned old_banks,
                            stc_reconfig_result *result)
{
    const stc_geometry *geometry = &cache->geometry;
    uint8_t *line = NULL;
    if (cache->has_data) {
        line = malloc((size_t)geometry->banks * geometry->line_bytes);
        if (!line) {
            abort(); /* cannot continue a bit-exact model without the data */
        }
    }
    uint64_t cycles = 0;
    for (unsigned row = 0; row < geometry->rows; row++) {
        cycles += 1 + walk_row_moving(cache, row, walked, old_banks, line, result);
    }
    result->walked_rows = geometry->rows;
    free(line);
    return cycles;
}

int stc_cache_reconfigure(stc_cache *cache, const stc_config *next, stc_reconfig_result *result)
{
    stc_reconfig_result local;
    if (!result) {
        result = &local;
    }
    memset(result, 0, sizeof *result);
    if (stc_config_check(&cache->geometry, next)) {
        return -1;
    }
    if (stc_config_equal(&cache->config, next)) {
        return 0;
    }
    const stc_geometry *geometry = &cache->geometry;
    unsigned old_banks = cache->config.banks_on;
    unsigned old_groups = cache->groups;
    uint64_t cycles = 0;
    cache->last_valid = false;

    /* 1. Wake new banks one after another (staggered against in-rush
     *    current). They are all-invalid: they were invalidated when they went
     *    off, or have been off since reset. */
    if (next->banks_on > old_banks) {
        result->woken_banks = next->banks_on - old_banks;
        cycles += (uint64_t)result->woken_banks * geometry->wake_cycles;
    }
    apply_config(cache, next);

    /* 2. Walk. Lines may become unfindable only if the address picks among
     *    more bank groups than before, or if their bank goes off. */
    uint32_t walked = 0;
    if (cache->groups > old_groups) {
        walked = (old_banks >= 32 ? UINT32_MAX : ((uint32_t)1 << old_banks) - 1);
    } else if (next->banks_on < old_banks) {
        for (unsigned bank = next->banks_on; bank < old_banks; bank++) {
            walked |= (uint32_t)1 << bank;
        }
    }
    if (walked && cache->walk_moves) {
        cycles += walk_moving(cache, walked, old_banks, result);
    } else if (walked) {
        for (unsigned row = 0; row < geometry->rows; row++) {
            cycles += 1;
            for (unsigned bank = 0; bank < old_banks; bank++) {
                if (!(walked >> bank & 1)) {
                    continue;
                }
                size_t slot = slot_index(cache, bank, row);
                if (!(cache->flags[slot] & SLOT_VALID)) {
                    continue;
                }
                bool keep = walk_keeps(bank, cache->tags[slot], next->banks_on, cache->group_mask);
                if (keep) {
                    continue;
                }
                unsigned wb_cycles = write_back_if_dirty(cache, bank, row);
                if (wb_cycles) {
                    cycles += wb_cycles;
                    result->writebacks++;
                }
                cache->flags[slot] = 0;
                result->invalidations++;
            }
        }
        result->walked_rows = geometry->rows;
    }

    /* 3. Power down banks no longer used: isolated and switched off, their
     *    contents lost. */
    if (next->banks_on < old_banks) {
        result->slept_banks = old_banks - next->banks_on;
        for (unsigned bank = next->banks_on; bank < old_banks; bank++) {
            scramble_bank(cache, bank);
        }
    }

    /* The controller's cycle that sees the woken banks ready (or starts
     * the walk), and per walk writeback the cycle that finds the dirty line
     * and its request (section 10). */
    if (result->woken_banks || walked) {
        cycles += stc_reconfig_controller_cycles(result->writebacks);
    }
    result->cycles = cycles;
    cache->counters.reconfigs++;
    cache->counters.reconfig_cycles += cycles;
    cache->counters.cycles += cycles;
    cache->counters.walk_writebacks += result->writebacks;
    cache->counters.walk_invalidations += result->invalidations;
    cache->counters.walk_rows += result->walked_rows;
    cache->counters.banks_woken += result->woken_banks;
    return 0;
}

int stc_cache_maintain(stc_cache *cache, stc_maint_op op, stc_maint_scope scope, uint64_t addr,
                       stc_reconfig_result *result)
{
    stc_reconfig_result local;
    if (!result) {
        result = &local;
    }
    memset(result, 0, sizeof *result);
    if ((unsigned)op > STC_MAINT_CLEAN_INVALIDATE ||
        (scope != STC_MAINT_LINE && scope != STC_MAINT_ALL)) {
        return -1;
    }
    if (op == STC_MAINT_NONE) {
        return 0;
    }
    bool clean = op == STC_MAINT_CLEAN || op == STC_MAINT_CLEAN_INVALIDATE;
    bool drop = op == STC_MAINT_INVALIDATE || op == STC_MAINT_CLEAN_INVALIDATE;
    unsigned first_row = 0;
    unsigned rows = cache->geometry.rows;
    uint64_t tag = 0;
    if (scope == STC_MAINT_LINE) {
        first_row = row_of(cache, addr);
        rows = 1;
        tag = tag_of(cache, addr);
    }
    /* The previous access's line may be gone: no repeat may skip its lookup. */
    cache->last_valid = false;
    uint64_t cycles = 0;
    for (unsigned row = first_row; row < first_row + rows; row++) {
        cycles += 1;
        for (unsigned bank = 0; bank < cache->config.banks_on; bank++) {
            size_t slot = slot_index(cache, bank, row);
            if (!(cache->flags[slot] & SLOT_VALID) ||
                (scope == STC_MAINT_LINE && cache->tags[slot] != tag)) {
                continue;
            }
            if (clean) {
                unsigned wb_cycles = write_back_if_dirty(cache, bank, row);
                if (wb_cycles) {
                    cycles += wb_cycles;
                    result->writebacks++;
                }
            }
            if (drop) {
                cache->flags[slot] = 0;
                result->invalidations++;
            }
        }
    }
    result->walked_rows = rows;
    cycles += stc_reconfig_controller_cycles(result->writebacks);
    result->cycles = cycles;
    cache->counters.reconfig_cycles += cycles;
    cache->counters.cycles += cycles;
    cache->counters.walk_writebacks += result->writebacks;
    cache->counters.walk_invalidations += result->invalidations;
    cache->counters.walk_rows += rows;
    return 0;
}

unsigned stc_cache_clean(stc_cache *cache)
{
    unsigned written = 0;
    for (unsigned bank = 0; bank < cache->geometry.banks; bank++) {
        for (unsigned row = 0; row < cache->geometry.rows; row++) {
            if (write_back_if_dirty(cache, bank, row)) {
                written++;
            }
        }
    }
    cache->counters.walk_writebacks += written;
    return written;
}

int stc_cache_lookup(const stc_cache *cache, uint64_t addr)
{
    addr &= cache->geometry.addr_mask;
    return find_bank(cache, tag_of(cache, addr), row_of(cache, addr));
}

void stc_cache_slot(const stc_cache *cache, unsigned bank, unsigned row, stc_slot *slot)
{
    size_t index = slot_index(cache, bank, row);
    slot->valid = (cache->flags[index] & SLOT_VALID) != 0;
    slot->dirty = (cache->flags[index] & SLOT_DIRTY) != 0;
    slot->fill_sublines = 1u << ((cache->flags[index] & SLOT_FILL_MASK) >> SLOT_FILL_SHIFT);
    slot->tag = cache->tags[index];
    slot->line_addr = line_addr_of(cache, cache->tags[index], row);
    slot->data = cache->has_data ? cache->data + index * cache->geometry.line_bytes : NULL;
}

void stc_cache_invalidate_slot(stc_cache *cache, unsigned bank, unsigned row)
{
    size_t slot = slot_index(cache, bank, row);
    if (!(cache->flags[slot] & SLOT_VALID)) {
        return;
    }
    cache->flags[slot] = 0;
    /* The previous access's line may be this one: its repeat shortcut
     * (a hit without lookup) must not outlive the line. */
    if (cache->last_valid && cache->last_bank == bank &&
        ((unsigned)cache->last_line & (cache->geometry.rows - 1)) == row) {
        cache->last_valid = false;
    }
}

void stc_cache_set_slot_dirty(stc_cache *cache, unsigned bank, unsigned row, bool dirty)
{
    size_t slot = slot_index(cache, bank, row);
    if (!(cache->flags[slot] & SLOT_VALID)) {
        return;
    }
    if (dirty) {
        cache->flags[slot] |= SLOT_DIRTY;
    } else {
        cache->flags[slot] &= (uint8_t)~SLOT_DIRTY;
    }
}

void stc_cache_miss_plan(const stc_cache *cache, uint64_t addr, stc_miss_plan *plan)
{
    addr &= cache->geometry.addr_mask;
    uint64_t tag = tag_of(cache, addr);
    unsigned sublines = cache->config.sublines;
    unsigned first_row = row_of(cache, addr) & ~(sublines - 1);
    /* fill_logical_line's step 1, without its effects */
    bool known_absent = whole_line_known_absent(cache, tag, first_row);
    plan->bank = choose_victim(cache, tag, first_row);
    plan->first_row = first_row;
    plan->sublines = sublines;
    plan->missing = 0;
    for (unsigned sub = 0; sub < sublines; sub++) {
        if (known_absent || find_bank(cache, tag, first_row + sub) < 0) {
            plan->missing |= 1u << sub;
        }
    }
}

uint32_t stc_cache_walk_drops(const stc_cache *cache, const stc_config *next, unsigned row)
{
    if (stc_config_check(&cache->geometry, next) || stc_config_equal(&cache->config, next)) {
        return 0;
    }
    /* stc_cache_reconfigure's walk keeps a walked line exactly when its
     * bank stays on and is among its candidates under next; a line in a
     * bank the walk does not visit (g' <= g, bank < k') satisfies that
     * rule too (g' divides g), so the rule alone gives the drops. */
    unsigned group_mask = stc_config_groups(next) - 1;
    uint32_t drops = 0;
    for (unsigned bank = 0; bank < cache->config.banks_on; bank++) {
        size_t slot = slot_index(cache, bank, row);
        if (!(cache->flags[slot] & SLOT_VALID)) {
            continue;
        }
        drops |= (uint32_t)!walk_keeps(bank, cache->tags[slot], next->banks_on, group_mask) << bank;
    }
    return drops;
}

uint32_t stc_cache_candidates(const stc_cache *cache, uint64_t addr)
{
    uint64_t tag = tag_of(cache, addr);
    uint32_t mask = 0;
    for (unsigned j = 0; j < cache->config.ways; j++) {
        mask |= (uint32_t)1 << candidate_bank(cache, tag, j);
    }
    return mask;
}

unsigned stc_cache_predicted_bank(const stc_cache *cache, uint64_t addr)
{
    addr &= cache->geometry.addr_mask;
    return most_recent_candidate(cache, tag_of(cache, addr), row_of(cache, addr));
}

int stc_cache_check(const stc_cache *cache, char *err, size_t err_len)
{
    const stc_geometry *geometry = &cache->geometry;
    for (unsigned row = 0; row < geometry->rows; row++) {
        for (unsigned bank = 0; bank < geometry->banks; bank++) {
            size_t slot = slot_index(cache, bank, row);
            uint8_t flags = cache->flags[slot];
            if ((flags & SLOT_DIRTY) && !(flags & SLOT_VALID)) {
                snprintf(err, err_len, "bank %u row %u: dirty but not valid", bank, row);
                return -1;
            }
            if (!(flags & SLOT_VALID)) {
                continue;
            }
            uint64_t tag = cache->tags[slot];
            if (bank >= cache->config.banks_on) {
                snprintf(err, err_len, "bank %u row %u: valid line in a powered-off bank", bank, row);
                return -1;
            }
            if ((bank & cache->group_mask) != ((unsigned)tag & cache->group_mask)) {
                snprintf(err, err_len,
                         "bank %u row %u: line 0x%llx is not in one of its candidate banks", bank,
                         row, (unsigned long long)line_addr_of(cache, tag, row));
                return -1;
            }
            for (unsigned other = bank + 1; other < geometry->banks; other++) {
                size_t other_slot = slot_index(cache, other, row);
                if ((cache->flags[other_slot] & SLOT_VALID) && cache->tags[other_slot] == tag) {
                    snprintf(err, err_len, "row %u: line 0x%llx held by banks %u and %u", row,
                             (unsigned long long)line_addr_of(cache, tag, row), bank, other);
                    return -1;
                }
            }
        }
    }
    return 0;
}
