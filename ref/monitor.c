/* monitor.c - sampled shadow tags with per-depth counts (monitor.h). */
#include "monitor.h"

#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Associativities 1 .. STC_MAX_BANKS, powers of two. */
enum { BUCKETS = 6 };
_Static_assert((1u << (BUCKETS - 1)) == STC_MAX_BANKS, "one bucket per associativity");

/* The bucket of a depth (mapping's bucket_hits). */
static unsigned depth_bucket(unsigned depth)
{
    unsigned bucket = 0;
    while (depth) {
        depth >>= 1;
        bucket++;
    }
    return bucket;
}

/* One (set groups, sublines) mapping: LRU stacks of `ways` logical lines
 * per set, most recent first. An entry's clean_below[subline] is the
 * smallest associativity whose cache holds that physical line dirty (it is
 * dirty in every cache of that many ways or more; ways + 1: clean in all). */
typedef struct {
    unsigned sublines;
    unsigned ways;
    unsigned line_shift;     /* log2 of the logical line's bytes */
    uint64_t sets;           /* g x rows / sublines */
    uint64_t tag_mask;       /* the line-number bits an entry compares */
    bool *valid;             /* [sets][ways] */
    uint64_t *line;          /* [sets][ways] logical line numbers */
    uint8_t *dirty_from;     /* [sets][ways][STC_MAX_SUBLINES] */
    /* Hits by depth bucket: [0] depth 0, [j > 0] depths 2^(j-1) .. 2^j - 1,
     * so an a-way cache (a = 2^i) misses exactly buckets i + 1 and up: the
     * counts hardware keeps (log2 ways + 1 of them, not ways). */
    uint64_t bucket_hits[BUCKETS];
    uint64_t writebacks[BUCKETS]; /* [i]: dirty physical lines the 2^i-way cache evicted */
    uint64_t row_writes;     /* array accesses that changed this mapping's row */
} mapping;

struct stc_monitor {
    stc_geometry geometry;
    stc_monitor_shape shape;
    unsigned sample_shift;   /* lo of monitor.h */
    uint64_t group;          /* the sample bits' value of the watched sets */
    uint64_t since_rotation; /* observed accesses since the group moved */
    unsigned clear_rows;     /* the clear walk's length (0: no walk) */
    unsigned clear_left;     /* observed accesses the walk still leaves unwatched */
    uint64_t watched;
    uint64_t watched_writes;
    uint64_t lookups;
    uint64_t array_accesses;
    bool have_last;          /* last_line holds the previous watched access */
    bool last_dirty;         /* ... and a store to it has marked it dirty */
    uint64_t last_line;      /* its physical line number */
    size_t mapping_count;
    mapping mappings[STC_LINE_SIZES * (STC_MAX_BANKS + 1)];
};

unsigned stc_monitor_max_sample_bits(const stc_geometry *geometry)
{
    unsigned lo = geometry->offset_bits + stc_log2(STC_MAX_SUBLINES);
    return geometry->bank_shift > lo ? geometry->bank_shift - lo : 0;
}

static mapping *find_mapping(const stc_monitor *monitor, unsigned groups, unsigned sublines)
{
    unsigned ways = monitor->geometry.banks / groups;
    for (size_t index = 0; index < monitor->mapping_count; index++) {
        const mapping *map = &monitor->mappings[index];
        if (map->sublines == sublines && map->ways == ways) {
            return (mapping *)map;
        }
    }
    return NULL;
}

stc_monitor *stc_monitor_create(const stc_geometry *geometry, const stc_monitor_shape *shape,
                                char *err, size_t err_len)
{
    unsigned max_bits = stc_monitor_max_sample_bits(geometry);
    if (shape->sample_bits > max_bits) {
        snprintf(err, err_len, "monitor sample bits %u: this geometry allows 0..%u",
                 shape->sample_bits, max_bits);
        return NULL;
    }
    if (shape->tag_bits > 32) {
        snprintf(err, err_len, "monitor tag bits %u: expected 0..32", shape->tag_bits);
        return NULL;
    }
    if (shape->counter_bits == 1 || shape->counter_bits > 32) {
        snprintf(err, err_len, "monitor counter bits %u: expected 0 (unbounded) or 2..32",
                 shape->counter_bits);
        return NULL;
    }
    stc_monitor *monitor = calloc(1, sizeof *monitor);
    if (!monitor) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    monitor->geometry = *geometry;
    monitor->shape = *shape;
    monitor->sample_shift = geometry->offset_bits + stc_log2(STC_MAX_SUBLINES);
    for (unsigned sublines = 1; sublines <= STC_MAX_SUBLINES; sublines *= 2) {
        for (unsigned groups = 1; groups <= geometry->banks; groups *= 2) {
            stc_config probe = {geometry->banks, geometry->banks / groups, sublines, false};
            if (stc_config_check(geometry, &probe) != NULL) {
                continue;
            }
            mapping *map = &monitor->mappings[monitor->mapping_count++];
            map->sublines = sublines;
            map->ways = probe.ways;
            map->line_shift = geometry->offset_bits + stc_log2(sublines);
            map->sets = (uint64_t)groups * geometry->rows / sublines;
            map->tag_mask = shape->tag_bits
                                ? (((uint64_t)1 << shape->tag_bits) - 1) << stc_log2(map->sets)
                                : ~(uint64_t)0;
            size_t entries = (size_t)map->sets * map->ways;
            map->valid = calloc(entries, sizeof *map->valid);
            map->line = calloc(entries, sizeof *map->line);
            map->dirty_from = calloc(entries * STC_MAX_SUBLINES, 1);
            if (!map->valid || !map->line || !map->dirty_from) {
                stc_monitor_destroy(monitor);
                snprintf(err, err_len, "out of memory");
                return NULL;
            }
        }
    }
    if (shape->clear_walk) {
        for (size_t index = 0; index < monitor->mapping_count; index++) {
            uint64_t rows = monitor->mappings[index].sets >> shape->sample_bits;
            monitor->clear_rows = rows > monitor->clear_rows ? (unsigned)rows : monitor->clear_rows;
        }
    }
    monitor->clear_left = monitor->clear_rows;
    return monitor;
}

void stc_monitor_destroy(stc_monitor *monitor)
{
    if (!monitor) {
        return;
    }
    for (size_t index = 0; index < monitor->mapping_count; index++) {
        free(monitor->mappings[index].valid);
        free(monitor->mappings[index].line);
        free(monitor->mappings[index].dirty_from);
    }
    free(monitor);
}

/* The entry at `depth` moves one deeper, out of the cache with depth + 1
 * ways: its physical lines dirty there are that cache's writebacks, and it
 * holds them clean from then on. */
static void age_entry(mapping *map, uint8_t *dirty_from, unsigned depth)
{
    unsigned evicting_ways = depth + 1;
    bool counted = stc_is_power_of_two(evicting_ways);
    for (unsigned subline = 0; subline < map->sublines; subline++) {
        if (dirty_from[subline] <= evicting_ways) {
            if (counted) {
                map->writebacks[stc_log2(evicting_ways)]++;
            }
            dirty_from[subline] = (uint8_t)(evicting_ways + 1);
        }
    }
}

/* One watched access in one mapping; array: it reads and may write the
 * row (not a repeat counted without the arrays). A depth-0 hit that leaves
 * the line's dirty state as it was leaves the whole row unchanged, and the
 * hardware does not write it back (row_writes counts the others). */
static void observe_mapping(mapping *map, uint64_t addr, unsigned offset_bits, bool write,
                            bool array)
{
    uint64_t line = addr >> map->line_shift;
    uint64_t set = line & (map->sets - 1);
    unsigned subline = (unsigned)(addr >> offset_bits) & (map->sublines - 1);
    size_t base = (size_t)set * map->ways;
    bool *valid = map->valid + base;
    uint64_t *lines = map->line + base;
    uint8_t *dirty = map->dirty_from + base * STC_MAX_SUBLINES;

    unsigned depth = 0;
    while (depth < map->ways && !(valid[depth] && ((lines[depth] ^ line) & map->tag_mask) == 0)) {
        depth++;
    }
    uint8_t found[STC_MAX_SUBLINES];
    bool hit_at_top = depth == 0;
    if (depth < map->ways) {
        map->bucket_hits[depth_bucket(depth)]++;
        /* Caches of depth ways or fewer missed and refilled it clean. */
        memcpy(found, dirty + (size_t)depth * STC_MAX_SUBLINES, sizeof found);
        for (unsigned part = 0; part < map->sublines; part++) {
            if (found[part] < depth + 1) {
                found[part] = (uint8_t)(depth + 1);
            }
        }
    } else {
        depth = map->ways - 1; /* the deepest entry leaves every cache */
        if (valid[depth]) {
            age_entry(map, dirty + (size_t)depth * STC_MAX_SUBLINES, depth);
        }
        memset(found, (int)(map->ways + 1), sizeof found);
    }
    for (unsigned moving = depth; moving > 0; moving--) {
        uint8_t *from = dirty + (size_t)(moving - 1) * STC_MAX_SUBLINES;
        if (valid[moving - 1]) {
            age_entry(map, from, moving - 1);
        }
        valid[moving] = valid[moving - 1];
        lines[moving] = lines[moving - 1];
        memcpy(dirty + (size_t)moving * STC_MAX_SUBLINES, from, STC_MAX_SUBLINES);
    }
    if (write) {
        found[subline] = 1;
    }
    bool unchanged = hit_at_top && memcmp(dirty, found, STC_MAX_SUBLINES) == 0;
    if (array && !unchanged) {
        map->row_writes++;
    }
    valid[0] = true;
    lines[0] = line;
    memcpy(dirty, found, sizeof found);
}

/* Whether any of the mapping's counts has reached limit. */
static bool counts_reach(const mapping *map, uint64_t limit)
{
    bool full = false;
    for (unsigned bucket = 0; bucket < BUCKETS; bucket++) {
        full = full || map->bucket_hits[bucket] >= limit || map->writebacks[bucket] >= limit;
    }
    return full;
}

/* Stacks of the group that stops being watched become those of the group
 * that starts (monitor.h: inheritance): each set's entries move to the set
 * of the new group on the same hardware row, their line numbers taking the
 * new set's index (a hardware row stores no set bits, so it compares the
 * same tag bits). */
static void inherit_stacks(mapping *map, unsigned group_shift, uint64_t sample_mask,
                           uint64_t old_group, uint64_t new_group)
{
    for (uint64_t set = 0; set < map->sets; set++) {
        if (((set >> group_shift) & sample_mask) != old_group) {
            continue;
        }
        uint64_t heir = (set & ~(sample_mask << group_shift)) | (new_group << group_shift);
        for (unsigned way = 0; way < map->ways; way++) {
            size_t from = (size_t)set * map->ways + way;
            size_t to = (size_t)heir * map->ways + way;
            map->valid[to] = map->valid[from];
            map->line[to] = (map->line[from] & ~(map->sets - 1)) | heir;
            memcpy(map->dirty_from + to * STC_MAX_SUBLINES,
                   map->dirty_from + from * STC_MAX_SUBLINES, STC_MAX_SUBLINES);
        }
    }
}

/* The next group of the full cycle: its stacks inherited, or empty (with
 * the clear walk, if the monitor has one). */
static void rotate(stc_monitor *monitor, uint64_t sample_mask)
{
    uint64_t old_group = monitor->group;
    monitor->group = (monitor->group * 5 + 3) & sample_mask;
    monitor->have_last = false;
    for (size_t index = 0; index < monitor->mapping_count; index++) {
        mapping *map = &monitor->mappings[index];
        if (monitor->shape.empty_on_rotate) {
            memset(map->valid, 0, (size_t)map->sets * map->ways * sizeof *map->valid);
        } else {
            inherit_stacks(map, monitor->sample_shift - map->line_shift, sample_mask, old_group,
                           monitor->group);
        }
    }
    if (monitor->shape.empty_on_rotate) {
        monitor->clear_left = monitor->clear_rows;
    }
}

void stc_monitor_observe(stc_monitor *monitor, uint64_t addr, bool write)
{
    uint64_t sample_mask = ((uint64_t)1 << monitor->shape.sample_bits) - 1;
    if (monitor->shape.rotate_every && monitor->shape.sample_bits &&
        ++monitor->since_rotation > monitor->shape.rotate_every) {
        monitor->since_rotation = 1;
        rotate(monitor, sample_mask);
    }
    if (monitor->clear_left) {
        monitor->clear_left--;
        return;
    }
    if (((addr >> monitor->sample_shift) & sample_mask) != monitor->group) {
        return;
    }
    addr &= monitor->geometry.addr_mask;
    monitor->watched++;
    monitor->lookups++;
    uint64_t physical_line = addr >> monitor->geometry.offset_bits;
    bool repeat = monitor->have_last && physical_line == monitor->last_line;
    bool array = !repeat || (write && !monitor->last_dirty);
    if (array) {
        monitor->array_accesses++;
    }
    monitor->last_dirty = (repeat && monitor->last_dirty) || write;
    monitor->have_last = true;
    monitor->last_line = physical_line;
    monitor->watched_writes += write;
    bool full = false;
    uint64_t limit = (uint64_t)1 << monitor->shape.counter_bits;
    for (size_t index = 0; index < monitor->mapping_count; index++) {
        mapping *map = &monitor->mappings[index];
        observe_mapping(map, addr, monitor->geometry.offset_bits, write, array);
        full = full || counts_reach(map, limit);
    }
    if (monitor->shape.counter_bits && (full || monitor->watched >= limit)) {
        stc_monitor_decay(monitor, 1);
    }
}

static unsigned bits_for(unsigned values)
{
    unsigned bits = 0;
    while ((1u << bits) < values) {
        bits++;
    }
    return bits;
}

size_t stc_monitor_arrays(const stc_monitor *monitor, stc_monitor_array *arrays, size_t max)
{
    for (size_t index = 0; index < monitor->mapping_count && index < max; index++) {
        const mapping *map = &monitor->mappings[index];
        unsigned set_bits = stc_log2(map->sets);
        unsigned tag_bits = monitor->shape.tag_bits;
        if (tag_bits == 0) {
            tag_bits = monitor->geometry.addr_bits - map->line_shift - set_bits;
        }
        unsigned dirty_bits = monitor->shape.read_only ? 0 : bits_for(map->ways + 1);
        unsigned entry_bits = 1 + tag_bits + map->sublines * dirty_bits;
        arrays[index].rows = (unsigned)(map->sets >> monitor->shape.sample_bits);
        arrays[index].row_bits = map->ways * entry_bits;
        arrays[index].compare_bits = map->ways * tag_bits;
    }
    return monitor->mapping_count;
}

unsigned stc_monitor_clear_rows(const stc_monitor *monitor)
{
    return monitor->clear_rows;
}

uint64_t stc_monitor_lookups(const stc_monitor *monitor)
{
    return monitor->lookups;
}

uint64_t stc_monitor_array_accesses(const stc_monitor *monitor)
{
    return monitor->array_accesses;
}

uint64_t stc_monitor_row_writes(const stc_monitor *monitor, size_t array)
{
    return array < monitor->mapping_count ? monitor->mappings[array].row_writes : 0;
}

size_t stc_monitor_counts(const stc_monitor *monitor, uint64_t *counts, size_t max)
{
    size_t count = 0;
#define PUT(value)                                                                                 \
    do {                                                                                           \
        if (count < max) {                                                                         \
            counts[count] = (value);                                                               \
        }                                                                                          \
        count++;                                                                                   \
    } while (0)
    PUT(monitor->watched);
    for (size_t index = 0; index < monitor->mapping_count; index++) {
        const mapping *map = &monitor->mappings[index];
        unsigned buckets = stc_log2(map->ways) + 1;
        for (unsigned bucket = 0; bucket < buckets; bucket++) {
            PUT(map->bucket_hits[bucket]);
        }
        for (unsigned bucket = 0; bucket < buckets; bucket++) {
            PUT(map->writebacks[bucket]);
        }
    }
#undef PUT
    return count;
}

int stc_monitor_count_map_of(const stc_monitor *monitor, const stc_config *config,
                             stc_monitor_count_map *map)
{
    memset(map, 0, sizeof *map);
    unsigned base = 1; /* after the watched count */
    for (size_t index = 0; index < monitor->mapping_count; index++) {
        const mapping *candidate = &monitor->mappings[index];
        unsigned buckets = stc_log2(candidate->ways) + 1;
        if (candidate->sublines == config->sublines &&
            candidate->ways == monitor->geometry.banks / stc_config_groups(config)) {
            unsigned hit_buckets = depth_bucket(config->ways);
            for (unsigned bucket = 0; bucket < hit_buckets; bucket++) {
                map->hits[map->hit_terms++] = base + bucket;
            }
            map->first_probe_hits = base;
            map->writebacks = base + buckets + stc_log2(config->ways);
            return 0;
        }
        base += 2 * buckets;
    }
    return -1;
}

uint64_t stc_monitor_watched(const stc_monitor *monitor)
{
    return monitor->watched;
}

void stc_monitor_estimate(const stc_monitor *monitor, const stc_config *config,
                          stc_counters *estimate)
{
    const stc_geometry *geometry = &monitor->geometry;
    memset(estimate, 0, sizeof *estimate);
    const mapping *map = find_mapping(monitor, stc_config_groups(config), config->sublines);
    if (!map) {
        return;
    }
    /* Accesses: the one count every mapping shares (after halvings a
     * mapping's own counts add up to at most it). */
    uint64_t accesses = monitor->watched;
    uint64_t misses = accesses; /* less the hits, as the decision unit forms it */
    for (unsigned bucket = 0; bucket < depth_bucket(config->ways); bucket++) {
        misses -= misses < map->bucket_hits[bucket] ? misses : map->bucket_hits[bucket];
    }
    estimate->requests = accesses;
    estimate->accesses = accesses;
    estimate->writes = monitor->watched_writes < accesses ? monitor->watched_writes : accesses;
    estimate->reads = accesses - estimate->writes;
    estimate->misses = misses;
    estimate->request_misses = misses;
    if (config->way_predict) {
        estimate->first_probe_hits = map->bucket_hits[0];
        estimate->second_probe_hits = accesses - misses - map->bucket_hits[0];
    }
    estimate->fills = misses * config->sublines;
    estimate->fill_bursts = misses;
    estimate->writebacks = map->writebacks[stc_log2(config->ways)];
    uint64_t probes = accesses + (config->way_predict ? accesses - estimate->first_probe_hits : 0);
    estimate->cycles = probes + misses * stc_line_miss_cycles(geometry, config->sublines) +
                       estimate->writebacks * stc_writeback_cycles(geometry);
}

void stc_monitor_decay(stc_monitor *monitor, unsigned shift)
{
    if (shift == 0) {
        return;
    }
    monitor->watched >>= shift;
    monitor->watched_writes >>= shift;
    for (size_t index = 0; index < monitor->mapping_count; index++) {
        mapping *map = &monitor->mappings[index];
        for (unsigned bucket = 0; bucket < BUCKETS; bucket++) {
            map->bucket_hits[bucket] >>= shift;
            map->writebacks[bucket] >>= shift;
        }
    }
}
