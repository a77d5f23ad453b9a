/* monitor.c - sampled shadow tags with per-depth counts (monitor.h). */
#include "monitor.h"

#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One (set groups, sublines) mapping: LRU stacks of `ways` logical lines
 * per set, most recent first. An entry's clean_below[subline] is the
 * smallest associativity whose cache holds that physical line dirty (it is
 * dirty in every cache of that many ways or more; ways + 1: clean in all). */
typedef struct {
    unsigned sublines;
    unsigned ways;
    unsigned line_shift;     /* log2 of the logical line's bytes */
    uint64_t sets;           /* g x rows / sublines */
    bool *valid;             /* [sets][ways] */
    uint64_t *line;          /* [sets][ways] logical line numbers */
    uint8_t *dirty_from;     /* [sets][ways][STC_MAX_SUBLINES] */
    uint64_t depth_hits[STC_MAX_BANKS];
    uint64_t stack_misses;   /* absent from every depth: a miss for every ways */
    uint64_t writebacks[STC_MAX_BANKS + 1]; /* [a]: dirty physical lines the a-way cache evicted */
} mapping;

struct stc_monitor {
    stc_geometry geometry;
    unsigned sample_bits;
    unsigned sample_shift;   /* lo of monitor.h */
    uint64_t watched;
    uint64_t watched_writes;
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

stc_monitor *stc_monitor_create(const stc_geometry *geometry, unsigned sample_bits, char *err,
                                size_t err_len)
{
    unsigned max_bits = stc_monitor_max_sample_bits(geometry);
    if (sample_bits > max_bits) {
        snprintf(err, err_len, "monitor sample bits %u: this geometry allows 0..%u", sample_bits,
                 max_bits);
        return NULL;
    }
    stc_monitor *monitor = calloc(1, sizeof *monitor);
    if (!monitor) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    monitor->geometry = *geometry;
    monitor->sample_bits = sample_bits;
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
    for (unsigned subline = 0; subline < map->sublines; subline++) {
        if (dirty_from[subline] <= evicting_ways) {
            map->writebacks[evicting_ways]++;
            dirty_from[subline] = (uint8_t)(evicting_ways + 1);
        }
    }
}

static void observe_mapping(mapping *map, uint64_t addr, unsigned offset_bits, bool write)
{
    uint64_t line = addr >> map->line_shift;
    uint64_t set = line & (map->sets - 1);
    unsigned subline = (unsigned)(addr >> offset_bits) & (map->sublines - 1);
    size_t base = (size_t)set * map->ways;
    bool *valid = map->valid + base;
    uint64_t *lines = map->line + base;
    uint8_t *dirty = map->dirty_from + base * STC_MAX_SUBLINES;

    unsigned depth = 0;
    while (depth < map->ways && !(valid[depth] && lines[depth] == line)) {
        depth++;
    }
    uint8_t found[STC_MAX_SUBLINES];
    if (depth < map->ways) {
        map->depth_hits[depth]++;
        /* Caches of depth ways or fewer missed and refilled it clean. */
        memcpy(found, dirty + (size_t)depth * STC_MAX_SUBLINES, sizeof found);
        for (unsigned part = 0; part < map->sublines; part++) {
            if (found[part] < depth + 1) {
                found[part] = (uint8_t)(depth + 1);
            }
        }
    } else {
        map->stack_misses++;
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
    valid[0] = true;
    lines[0] = line;
    memcpy(dirty, found, sizeof found);
}

void stc_monitor_observe(stc_monitor *monitor, uint64_t addr, bool write)
{
    uint64_t sample_mask = ((uint64_t)1 << monitor->sample_bits) - 1;
    if ((addr >> monitor->sample_shift) & sample_mask) {
        return;
    }
    addr &= monitor->geometry.addr_mask;
    monitor->watched++;
    monitor->watched_writes += write;
    for (size_t index = 0; index < monitor->mapping_count; index++) {
        observe_mapping(&monitor->mappings[index], addr, monitor->geometry.offset_bits, write);
    }
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
    /* Accesses from this mapping's own counts: after a decay the rounded
     * counts still add up. */
    uint64_t misses = map->stack_misses;
    uint64_t accesses = map->stack_misses;
    for (unsigned depth = 0; depth < map->ways; depth++) {
        accesses += map->depth_hits[depth];
        if (depth >= config->ways) {
            misses += map->depth_hits[depth];
        }
    }
    estimate->requests = accesses;
    estimate->accesses = accesses;
    estimate->writes = monitor->watched_writes < accesses ? monitor->watched_writes : accesses;
    estimate->reads = accesses - estimate->writes;
    estimate->misses = misses;
    estimate->request_misses = misses;
    if (config->way_predict) {
        estimate->first_probe_hits = map->depth_hits[0];
        estimate->second_probe_hits = accesses - misses - map->depth_hits[0];
    }
    estimate->fills = misses * config->sublines;
    estimate->fill_bursts = misses;
    estimate->writebacks = map->writebacks[config->ways];
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
        for (unsigned depth = 0; depth < STC_MAX_BANKS; depth++) {
            map->depth_hits[depth] >>= shift;
        }
        for (unsigned ways = 0; ways <= STC_MAX_BANKS; ways++) {
            map->writebacks[ways] >>= shift;
        }
        map->stack_misses >>= shift;
    }
}
