/* test_monitor.c - the miss monitor (ref/monitor.h) against the cache model
 * itself: watching every set, its estimate of each configuration must equal
 * what a real cache in that configuration counted on the same stream; with
 * sampling, it must equal the real cache fed only the watched accesses;
 * with rotation that empties the stacks, the sum over epochs of fresh
 * caches fed that epoch's watched accesses; with rotation that lets the
 * next group inherit them, a monitor of one fixed group fed every watched
 * access moved into that group. */
#include "check.h"
#include "monitor.h"

#include "cache.h"
#include "config.h"

#include <stdio.h>
#include <string.h>

enum { STREAM_LENGTH = 60000, MAX_COUNTS = 256 };

/* A stream with reuse at every distance the configurations tell apart:
 * loops over arrays of 1-12 KiB, random hits in a hot region, stores. */
static uint64_t stream_next(uint64_t *seed, bool *write, uint64_t index)
{
    *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t random = *seed >> 20;
    *write = (random & 7) == 0;
    switch ((random >> 3) % 4) {
    case 0:
        return 0x10000 + (index * 4) % (12 * 1024);
    case 1:
        return 0x40000 + (random >> 8) % 3072;
    case 2:
        return 0x80000 + ((random >> 8) % 64) * 2048 + (index % 16) * 4;
    default:
        return 0x20000 + (index * 16) % (5 * 1024);
    }
}

static bool watched(const stc_geometry *geometry, unsigned sample_bits, uint64_t group,
                    uint64_t addr)
{
    unsigned lo = geometry->offset_bits + 2;
    return ((addr >> lo) & (((uint64_t)1 << sample_bits) - 1)) == group;
}

/* Real caches of every configuration, one set per epoch of the rotation;
 * totals[] sums the counters of the epochs that ended. */
typedef struct {
    size_t count;
    stc_config configs[STC_MAX_CONFIGS];
    stc_cache *caches[STC_MAX_CONFIGS];
    stc_counters totals[STC_MAX_CONFIGS];
} reference_caches;

static bool fresh_caches(const stc_geometry *geometry, reference_caches *ref)
{
    char err[256];
    for (size_t index = 0; index < ref->count; index++) {
        ref->caches[index] = stc_cache_create(geometry, STC_DCACHE, &ref->configs[index], NULL,
                                              err, sizeof err);
        CHECK(ref->caches[index] != NULL, "cache: %s", err);
        if (!ref->caches[index]) {
            return false;
        }
    }
    return true;
}

/* The epoch ends: its counts join the totals, its caches (and the dirty
 * lines still in them, which no cache evicted) are dropped. */
static void end_epoch(reference_caches *ref)
{
    for (size_t index = 0; index < ref->count; index++) {
        if (ref->caches[index]) {
            stc_counters_add(&ref->totals[index], stc_cache_counters(ref->caches[index]));
            stc_cache_destroy(ref->caches[index]);
            ref->caches[index] = NULL;
        }
    }
}

static void compare(const stc_geometry *geometry, stc_monitor_shape shape)
{
    char err[256];
    stc_monitor *monitor = stc_monitor_create(geometry, &shape, err, sizeof err);
    CHECK(monitor != NULL, "create: %s", err);
    if (!monitor) {
        return;
    }
    static reference_caches ref;
    memset(&ref, 0, sizeof ref);
    ref.count = stc_config_enumerate(geometry, ref.configs, STC_MAX_CONFIGS);
    uint64_t seed = 12345;
    uint64_t fed = 0;
    uint64_t group = 0;
    uint64_t sample_mask = ((uint64_t)1 << shape.sample_bits) - 1;
    bool ok = fresh_caches(geometry, &ref);
    /* The clear walk's blind accesses, counted by the test itself: the
     * rows of the largest mapping (g = banks, one subline) watched. */
    uint64_t walk = shape.clear_walk ? (uint64_t)geometry->banks * geometry->rows >> shape.sample_bits
                                     : 0;
    uint64_t blind = walk;
    CHECK_EQ_U64(stc_monitor_clear_rows(monitor), walk, "clear walk rows");
    for (uint64_t index = 0; ok && index < STREAM_LENGTH; index++) {
        if (shape.rotate_every && index > 0 && index % shape.rotate_every == 0) {
            end_epoch(&ref);
            group = (group * 5 + 3) & sample_mask;
            ok = fresh_caches(geometry, &ref);
            blind = walk;
        }
        bool write;
        uint64_t addr = stream_next(&seed, &write, index) & ~(uint64_t)3;
        stc_monitor_observe(monitor, addr, write);
        if (blind) {
            blind--;
            continue;
        }
        if (!watched(geometry, shape.sample_bits, group, addr)) {
            continue;
        }
        fed++;
        for (size_t config = 0; config < ref.count; config++) {
            stc_cache_request(ref.caches[config], write ? STC_OP_WRITE : STC_OP_READ, addr, 4,
                              NULL, NULL, NULL);
        }
    }
    end_epoch(&ref);
    unsigned bits = shape.sample_bits;
    unsigned long long rotate = (unsigned long long)shape.rotate_every;
    CHECK_EQ_U64(stc_monitor_watched(monitor), fed, "watched accesses, bits %u rotate %llu", bits,
                 rotate);
    CHECK(fed > STREAM_LENGTH / (2u << bits), "sample bits %u watched only %llu", bits,
          (unsigned long long)fed);
    for (size_t index = 0; ok && index < ref.count; index++) {
        char name[STC_CONFIG_NAME_MAX];
        stc_config_name(geometry, &ref.configs[index], name, sizeof name);
        stc_counters estimate;
        stc_monitor_estimate(monitor, &ref.configs[index], &estimate);
        const stc_counters *real = &ref.totals[index];
        CHECK_EQ_U64(estimate.accesses, real->accesses, "%s accesses (bits %u rotate %llu)", name,
                     bits, rotate);
        CHECK_EQ_U64(estimate.misses, real->misses, "%s misses (bits %u rotate %llu)", name, bits,
                     rotate);
        CHECK_EQ_U64(estimate.first_probe_hits, real->first_probe_hits, "%s first-probe hits",
                     name);
        CHECK_EQ_U64(estimate.second_probe_hits, real->second_probe_hits,
                     "%s second-probe hits", name);
        CHECK_EQ_U64(estimate.writebacks, real->writebacks, "%s writebacks (bits %u rotate %llu)",
                     name, bits, rotate);
        CHECK_EQ_U64(estimate.fills, real->fills, "%s fills", name);
        CHECK_EQ_U64(estimate.fill_bursts, real->fill_bursts, "%s bursts", name);
        CHECK_EQ_U64(estimate.cycles, real->cycles, "%s cycles (bits %u rotate %llu)", name, bits,
                     rotate);
    }
    end_epoch(&ref);
    stc_monitor_destroy(monitor);
}

static void test_exact_against_caches(void)
{
    stc_geometry geometry;
    stc_geometry_default(&geometry);
    char err[256];
    CHECK(stc_geometry_init(&geometry, err, sizeof err) == 0, "%s", err);
    CHECK_EQ_U64(stc_monitor_max_sample_bits(&geometry), 5, "default geometry's common bits");
    for (unsigned bits = 0; bits <= 3; bits++) {
        compare(&geometry, (stc_monitor_shape){.sample_bits = bits, .rotate_every = 0, .tag_bits = 0});
    }
    /* Rotating samples: epochs that end mid-way through the stream, and a
     * full cycle of the 8 groups (7500 x 8 = the stream). */
    compare(&geometry, (stc_monitor_shape){.sample_bits = 2, .rotate_every = 6001, .tag_bits = 0,
                                           .empty_on_rotate = true});
    compare(&geometry, (stc_monitor_shape){.sample_bits = 3, .rotate_every = 7500, .tag_bits = 0,
                                           .empty_on_rotate = true});
    stc_geometry eight = geometry;
    CHECK(stc_geometry_parse(&eight, "banks=8,bank_bytes=1024", err, sizeof err) == 0, "%s", err);
    compare(&eight, (stc_monitor_shape){.sample_bits = 0, .rotate_every = 0, .tag_bits = 0});
    compare(&eight, (stc_monitor_shape){.sample_bits = 2, .rotate_every = 0, .tag_bits = 0});
    compare(&eight, (stc_monitor_shape){.sample_bits = 1, .rotate_every = 9999, .tag_bits = 0,
                                        .empty_on_rotate = true});
    /* The hardware's clear walk: 128 / 512 blind accesses after the start
     * and after every rotation. */
    compare(&geometry, (stc_monitor_shape){.sample_bits = 2, .rotate_every = 6001,
                                           .clear_walk = true, .empty_on_rotate = true});
    compare(&eight, (stc_monitor_shape){.sample_bits = 0, .rotate_every = 0, .clear_walk = true});
}

/* Inheritance: a row holds no sample bits, so a rotating monitor whose
 * next group inherits the rows behaves as one fixed group would if every
 * watched access were moved into that group (its sample bits made 0).
 * That fixed monitor is exact against real caches (compare above); here
 * the two must count the same. A monitor that empties its stacks instead
 * must not (else this stream could not tell the two apart). */
static void inherit_against_fixed(const stc_geometry *geometry, stc_monitor_shape shape)
{
    char err[256];
    stc_monitor_shape fixed_shape = shape;
    fixed_shape.rotate_every = 0;
    stc_monitor_shape emptying_shape = shape;
    emptying_shape.empty_on_rotate = true;
    stc_monitor *rotating = stc_monitor_create(geometry, &shape, err, sizeof err);
    stc_monitor *fixed = stc_monitor_create(geometry, &fixed_shape, err, sizeof err);
    stc_monitor *emptying = stc_monitor_create(geometry, &emptying_shape, err, sizeof err);
    CHECK(rotating && fixed && emptying, "create: %s", err);
    if (!rotating || !fixed || !emptying) {
        stc_monitor_destroy(rotating);
        stc_monitor_destroy(fixed);
        stc_monitor_destroy(emptying);
        return;
    }
    unsigned lo = geometry->offset_bits + 2;
    uint64_t sample_mask = ((uint64_t)1 << shape.sample_bits) - 1;
    uint64_t blind = stc_monitor_clear_rows(rotating);
    /* The fixed monitor's own clear walk takes blind accesses of its own. */
    for (uint64_t index = 0; index < stc_monitor_clear_rows(fixed); index++) {
        stc_monitor_observe(fixed, 0, false);
    }
    uint64_t seed = 777, group = 0, moved = 0;
    for (uint64_t index = 0; index < STREAM_LENGTH; index++) {
        if (index > 0 && index % shape.rotate_every == 0) {
            group = (group * 5 + 3) & sample_mask;
        }
        bool write;
        uint64_t addr = stream_next(&seed, &write, index) & ~(uint64_t)3;
        stc_monitor_observe(rotating, addr, write);
        stc_monitor_observe(emptying, addr, write);
        if (blind) {
            blind--;
            continue;
        }
        if (watched(geometry, shape.sample_bits, group, addr)) {
            stc_monitor_observe(fixed, addr & ~(sample_mask << lo), write);
            moved++;
        }
    }
    uint64_t rotating_counts[MAX_COUNTS], fixed_counts[MAX_COUNTS],
        emptying_counts[MAX_COUNTS];
    size_t count = stc_monitor_counts(rotating, rotating_counts, MAX_COUNTS);
    CHECK_EQ_U64(stc_monitor_counts(fixed, fixed_counts, MAX_COUNTS), count,
                 "count layout");
    stc_monitor_counts(emptying, emptying_counts, MAX_COUNTS);
    CHECK(moved > STREAM_LENGTH / (2u << shape.sample_bits), "watched only %llu",
          (unsigned long long)moved);
    CHECK_EQ_U64(stc_monitor_watched(rotating), moved, "watched accesses");
    size_t differ_empty = 0;
    for (size_t index = 0; index < count; index++) {
        CHECK_EQ_U64(rotating_counts[index], fixed_counts[index],
                     "count %zu (sample bits %u, rotate %llu, tag bits %u)", index,
                     shape.sample_bits, (unsigned long long)shape.rotate_every, shape.tag_bits);
        differ_empty += emptying_counts[index] != fixed_counts[index];
    }
    CHECK(differ_empty > 0, "emptied stacks count as inherited ones: the stream cannot tell");
    stc_monitor_destroy(rotating);
    stc_monitor_destroy(fixed);
    stc_monitor_destroy(emptying);
}

static void test_inherited_stacks(void)
{
    stc_geometry geometry;
    stc_geometry_default(&geometry);
    char err[256];
    CHECK(stc_geometry_init(&geometry, err, sizeof err) == 0, "%s", err);
    inherit_against_fixed(&geometry, (stc_monitor_shape){.sample_bits = 2, .rotate_every = 6001});
    inherit_against_fixed(&geometry, (stc_monitor_shape){.sample_bits = 3, .rotate_every = 2500,
                                                         .tag_bits = 8, .clear_walk = true});
    stc_geometry eight = geometry;
    CHECK(stc_geometry_parse(&eight, "banks=8,bank_bytes=1024", err, sizeof err) == 0, "%s", err);
    inherit_against_fixed(&eight, (stc_monitor_shape){.sample_bits = 1, .rotate_every = 3333,
                                                      .tag_bits = 6, .clear_walk = true});
}

/* Partial tags: two lines of one set that differ only above the stored
 * bits alias (the second access hits); where the difference is inside
 * them (a mapping with more sets) they do not. */
static void test_partial_tags(void)
{
    stc_geometry geometry;
    stc_geometry_default(&geometry);
    char err[256];
    stc_geometry_init(&geometry, err, sizeof err);
    /* 32768 = bit 15. 8K_4W_16B: 128 sets, set bits 4..10, 4 tag bits
     * 11..14: bit 15 is not stored. 8K_1W_16B: 512 sets, set bits 4..12,
     * tag bits 13..16: it is. */
    stc_config four_way = {4, 4, 1, false};
    stc_config direct = {4, 1, 1, false};
    for (unsigned tag_bits = 0; tag_bits <= 4; tag_bits += 4) {
        stc_monitor *monitor =
            stc_monitor_create(&geometry, &(stc_monitor_shape){.sample_bits = 0, .rotate_every = 0, .tag_bits = tag_bits}, err, sizeof err);
        CHECK(monitor != NULL, "create: %s", err);
        if (!monitor) {
            return;
        }
        stc_monitor_observe(monitor, 0x1040, false);
        stc_monitor_observe(monitor, 0x1040 + 32768, false);
        stc_counters estimate;
        stc_monitor_estimate(monitor, &four_way, &estimate);
        CHECK_EQ_U64(estimate.misses, tag_bits == 4 ? 1 : 2, "4-way misses, %u tag bits",
                     tag_bits);
        stc_monitor_estimate(monitor, &direct, &estimate);
        CHECK_EQ_U64(estimate.misses, 2, "direct-mapped misses, %u tag bits", tag_bits);
        stc_monitor_destroy(monitor);
    }
    CHECK(stc_monitor_create(&geometry, &(stc_monitor_shape){.sample_bits = 0, .rotate_every = 0, .tag_bits = 33}, err, sizeof err) == NULL,
          "33 tag bits accepted");
}

static void test_decay_and_refusal(void)
{
    stc_geometry geometry;
    stc_geometry_default(&geometry);
    char err[256];
    stc_geometry_init(&geometry, err, sizeof err);
    CHECK(stc_monitor_create(&geometry, &(stc_monitor_shape){.sample_bits = 6, .rotate_every = 0, .tag_bits = 0}, err, sizeof err) == NULL,
          "6 sample bits accepted");
    CHECK(strstr(err, "0..5") != NULL, "message names the range: %s", err);

    stc_monitor *monitor =
        stc_monitor_create(&geometry, &(stc_monitor_shape){.sample_bits = 0, .rotate_every = 0, .tag_bits = 0}, err, sizeof err);
    for (uint64_t addr = 0; addr < 64 * 1024; addr += 16) {
        stc_monitor_observe(monitor, addr, false); /* 4096 cold misses */
    }
    stc_config config = stc_config_reset(&geometry);
    stc_counters before, after;
    stc_monitor_estimate(monitor, &config, &before);
    CHECK_EQ_U64(before.misses, 4096, "cold misses");
    stc_monitor_decay(monitor, 2);
    stc_monitor_estimate(monitor, &config, &after);
    CHECK_EQ_U64(after.misses, 1024, "misses after a decay by 2");
    CHECK_EQ_U64(after.accesses, 1024, "accesses after a decay by 2");
    /* The stacks survive a decay: the last lines still hit. */
    stc_monitor_observe(monitor, 64 * 1024 - 16, false);
    stc_monitor_estimate(monitor, &config, &after);
    CHECK_EQ_U64(after.misses, 1024, "a hit after the decay");
    stc_monitor_destroy(monitor);
}

/* Bounded counts: when one fills, all are halved. */
static void test_counter_bits(void)
{
    stc_geometry geometry;
    stc_geometry_default(&geometry);
    char err[256];
    stc_geometry_init(&geometry, err, sizeof err);
    CHECK(stc_monitor_create(&geometry, &(stc_monitor_shape){.counter_bits = 1}, err,
                             sizeof err) == NULL,
          "1 counter bit accepted");
    for (unsigned bits = 0; bits <= 4; bits += 4) {
        stc_monitor *monitor =
            stc_monitor_create(&geometry, &(stc_monitor_shape){.counter_bits = bits}, err,
                               sizeof err);
        CHECK(monitor != NULL, "create: %s", err);
        if (!monitor) {
            return;
        }
        /* 20 cold misses: with 4 bits the 16th fills the counts (16 -> 8),
         * then 4 more: 12. */
        for (uint64_t line = 0; line < 20; line++) {
            stc_monitor_observe(monitor, 0x10000 + 16 * line, false);
        }
        stc_config config = stc_config_reset(&geometry);
        stc_counters estimate;
        stc_monitor_estimate(monitor, &config, &estimate);
        CHECK_EQ_U64(estimate.misses, bits ? 12 : 20, "misses with %u counter bits", bits);
        CHECK_EQ_U64(stc_monitor_lookups(monitor), 20, "lookups are not halved");
        stc_monitor_destroy(monitor);
    }
}

/* Repeats skip the arrays but not the counts; the arrays' shapes. */
/* Rows written back, by hand (default geometry, every set watched, whole
 * tags): A (0x2000) misses in all 9 mappings: 9 rows written. B = A + 16,
 * the next physical line: a miss in the 3 one-line mappings (another set),
 * a depth-0 hit in the 6 with 2- and 4-line logical lines (A's logical
 * line, dirty state unchanged): 3. A again: a depth-0 hit everywhere (in
 * the one-line mappings its own set's top): 0. A store to A (no repeat
 * skip: its first store) dirties A in all 9: 9. Another store to A: a
 * repeat already dirty, no array access: 0. 21 in all, over 4 array
 * accesses (a monitor that wrote every row it read would say 36). */
static void test_row_writes(void)
{
    stc_geometry geometry;
    stc_geometry_default(&geometry);
    char err[256];
    stc_geometry_init(&geometry, err, sizeof err);
    stc_monitor *monitor = stc_monitor_create(&geometry, &(stc_monitor_shape){0}, err, sizeof err);
    CHECK(monitor != NULL, "create: %s", err);
    if (!monitor) {
        return;
    }
    static const struct {
        uint64_t addr;
        bool write;
        uint64_t rows_written;
    } steps[] = {
        {0x2000, false, 9}, {0x2010, false, 3}, {0x2000, false, 0}, {0x2004, true, 9},
        {0x2008, true, 0},
    };
    uint64_t want = 0;
    for (size_t step = 0; step < sizeof steps / sizeof steps[0]; step++) {
        stc_monitor_observe(monitor, steps[step].addr, steps[step].write);
        want += steps[step].rows_written;
        uint64_t written = 0;
        for (size_t array = 0; array < STC_MONITOR_MAX_ARRAYS; array++) {
            written += stc_monitor_row_writes(monitor, array);
        }
        CHECK_EQ_U64(written, want, "rows written after step %zu", step);
    }
    CHECK_EQ_U64(stc_monitor_array_accesses(monitor), 4, "array accesses");
    CHECK_EQ_U64(stc_monitor_row_writes(monitor, STC_MONITOR_MAX_ARRAYS), 0, "beyond the arrays");
    stc_monitor_destroy(monitor);
}

static void test_repeats_and_storage(void)
{
    stc_geometry geometry;
    stc_geometry_default(&geometry);
    char err[256];
    stc_geometry_init(&geometry, err, sizeof err);
    stc_monitor_shape shape = {.sample_bits = 3, .tag_bits = 8};
    stc_monitor *monitor = stc_monitor_create(&geometry, &shape, err, sizeof err);
    CHECK(monitor != NULL, "create: %s", err);
    if (!monitor) {
        return;
    }
    /* A, A, store A, store A, B, A, A+4 (same line) - all in group 0. */
    static const struct {
        uint64_t addr;
        bool write;
        bool touches_arrays;
    } steps[] = {
        {0x2000, false, true},  {0x2000, false, false}, {0x2004, true, true},
        {0x2008, true, false},  {0x4000, false, true},  {0x2000, false, true},
        {0x2004, false, false},
    };
    uint64_t want = 0;
    for (size_t step = 0; step < sizeof steps / sizeof steps[0]; step++) {
        stc_monitor_observe(monitor, steps[step].addr, steps[step].write);
        want += steps[step].touches_arrays;
        CHECK_EQ_U64(stc_monitor_array_accesses(monitor), want, "array accesses after step %zu",
                     step);
    }
    CHECK_EQ_U64(stc_monitor_lookups(monitor), 7, "lookups");
    stc_config config = stc_config_reset(&geometry);
    stc_counters estimate;
    stc_monitor_estimate(monitor, &config, &estimate);
    CHECK_EQ_U64(estimate.misses, 2, "misses: A and B once each");
    CHECK_EQ_U64(estimate.accesses, 7, "every lookup counted");

    /* 8K_4W mapping with 16 B lines: 128 sets / 8 watched = 16 rows of
     * 4 x (valid + 8 tag + 3 dirty_from) bits; read-only drops dirty_from. */
    stc_monitor_array arrays[STC_MONITOR_MAX_ARRAYS];
    size_t count = stc_monitor_arrays(monitor, arrays, STC_MONITOR_MAX_ARRAYS);
    CHECK_EQ_U64(count, 9, "mappings of the default geometry");
    CHECK_EQ_U64(arrays[0].rows, 16, "rows");
    CHECK_EQ_U64(arrays[0].row_bits, 48, "row bits");
    CHECK_EQ_U64(arrays[0].compare_bits, 32, "compared bits");
    stc_monitor_destroy(monitor);
    shape.read_only = true;
    shape.tag_bits = 0;
    monitor = stc_monitor_create(&geometry, &shape, err, sizeof err);
    stc_monitor_arrays(monitor, arrays, STC_MONITOR_MAX_ARRAYS);
    /* Whole tags: 32 address bits - 4 offset - 7 set bits = 21. */
    CHECK_EQ_U64(arrays[0].row_bits, 4 * (1 + 21), "read-only row bits, whole tags");
    stc_monitor_destroy(monitor);
}

int main(void)
{
    test_exact_against_caches();
    test_inherited_stacks();
    test_decay_and_refusal();
    test_partial_tags();
    test_repeats_and_storage();
    test_row_writes();
    test_counter_bits();
    return check_done("test_monitor");
}
