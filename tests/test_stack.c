/*
 * test_stack.c - the LRU stack sweep (stack.h) must give, for every
 * configuration, I-cache and D-cache, counters bit-identical to an
 * stc_system of that configuration fed every reference; plus small streams
 * whose counters are worked out by hand.
 */
#include "check.h"
#include "config.h"
#include "geometry.h"
#include "stack.h"
#include "sweep.h"
#include "system.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Batches of up to MAX_BATCH references: enough that some fill the
 * engine's chunk of 4096 pieces, so requests are cut between chunks. */
enum { STREAM_REFS = 100000, MAX_BATCH = 20000 };

static uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return *state >> 33;
}

static const char *const field_names[] = {
    "requests",   "request_misses",   "accesses",          "reads",
    "writes",     "misses",           "read_misses",       "write_misses",
    "first_probe_hits", "second_probe_hits", "fills",      "fill_bursts",
    "writebacks", "cycles",           "reconfigs",         "reconfig_cycles",
    "walk_writebacks", "walk_invalidations", "walk_rows",     "banks_woken",
};

static void compare_counters(const stc_counters *want, const stc_counters *got, const char *what)
{
    _Static_assert(sizeof field_names / sizeof field_names[0] ==
                       sizeof(stc_counters) / sizeof(uint64_t),
                   "one name per counter field");
    const uint64_t *want_fields = (const uint64_t *)want;
    const uint64_t *got_fields = (const uint64_t *)got;
    for (size_t field = 0; field < sizeof *want / sizeof(uint64_t); field++) {
        CHECK_EQ_U64(got_fields[field], want_fields[field], "%s: %s", what, field_names[field]);
    }
}

/*
 * A reference stream with every shape the engine must get right:
 * - sequential fetch with branches (long runs the repeat filter removes);
 * - a hot data set of lines that all fall in the same few rows, many tags
 *   apart, so the LRU stacks fill to full depth and lines drop out of and
 *   re-enter the smaller caches (dirty or not);
 * - scattered data, loads, stores and modifies, so write-backs happen at
 *   every level; re-reads and re-writes of a line just touched;
 * - straddles and longer requests (up to several logical lines) whose
 *   pieces hit at different depths; now and then a request long enough to
 *   be cut between two chunks of the engine's piece buffer;
 * - addresses with bits above addr_bits and requests wrapping past the top
 *   of the address space.
 */
static void make_stream(const stc_geometry *geometry, stc_ref *refs, size_t count, uint64_t seed)
{
    uint64_t state = seed;
    uint64_t pc = 0x400000;
    uint64_t data = 0x10000000;
    const uint64_t bank_bytes = geometry->bank_bytes;
    for (size_t index = 0; index < count; index++) {
        stc_ref *ref = &refs[index];
        uint64_t choice = next_random(&state) % 100;
        if (choice < 45) {
            ref->kind = STC_REF_IFETCH;
            ref->size = 1 + (uint32_t)(next_random(&state) % 7);
            uint64_t jump = next_random(&state) % 24;
            if (jump == 0) {
                pc = 0x400000 + (next_random(&state) % 0x6000); /* a branch */
            } else if (jump == 1) {
                /* A call to one of a few routines that conflict in the
                 * I-cache: same rows, different tags. */
                pc = 0x400000 + (next_random(&state) % 12) * bank_bytes +
                     (next_random(&state) % 64);
            }
            ref->addr = pc;
            pc += ref->size;
        } else {
            static const uint8_t kinds[] = {STC_REF_LOAD, STC_REF_LOAD, STC_REF_STORE,
                                            STC_REF_MODIFY};
            ref->kind = kinds[next_random(&state) % 4];
            ref->size = 1u << (next_random(&state) % 4);
            uint64_t move = next_random(&state) % 20;
            if (move < 7) {
                /* same neighbourhood */
            } else if (move < 11) {
                data += 4;
            } else if (move < 17) {
                /* Hot set: up to 40 tags over 3 rows of logical lines. */
                data = 0x20000000 + (next_random(&state) % 40) * bank_bytes +
                       (next_random(&state) % 3) * 4 * geometry->line_bytes +
                       (next_random(&state) % (4 * geometry->line_bytes));
            } else {
                data = 0x10000000 + (next_random(&state) % 0x8000);
            }
            ref->addr = data + (next_random(&state) % 3 == 0 ? 14 : 0); /* some straddle */
            uint64_t special = next_random(&state) % 400;
            if (special < 8) {
                ref->addr |= (uint64_t)0x7ffc << 32; /* bits above addr_bits */
            } else if (special < 12) {
                ref->size = 17 + (uint32_t)(next_random(&state) % 150); /* several lines */
            } else if (special == 12) {
                ref->size = 1500 + (uint32_t)(next_random(&state) % 2597); /* up to 4096 */
            } else if (special == 13) {
                /* Wraps past the top of the address space. */
                ref->addr = geometry->addr_mask - (next_random(&state) % 8);
                ref->size = 4 + (uint32_t)(next_random(&state) % 40);
            }
        }
    }
}

static void check_geometry(const char *geometry_list, uint64_t seed)
{
    char err[256];
    stc_geometry geometry;
    stc_geometry_default(&geometry);
    if (stc_geometry_parse(&geometry, geometry_list, err, sizeof err) != 0) {
        CHECK(0, "%s: %s", geometry_list, err);
        return;
    }
    stc_ref *refs = malloc(STREAM_REFS * sizeof *refs);
    stc_filtered_batch batch = {malloc(MAX_BATCH * sizeof(stc_ref)), 0,
                                malloc(MAX_BATCH * sizeof(stc_ref)), 0, {{0, 0, 0}, {0, 0, 0}}};
    stc_config configs[STC_MAX_CONFIGS];
    size_t config_count = stc_config_enumerate(&geometry, configs, STC_MAX_CONFIGS);
    stc_system *systems = calloc(config_count, sizeof *systems);
    stc_stack_sweep *sweep = stc_stack_sweep_create(&geometry, err, sizeof err);
    /* The same batches fed one cache at a time (stc_stack_sweep_run_cache,
     * D-cache first: the halves must not depend on each other). */
    stc_stack_sweep *halves = stc_stack_sweep_create(&geometry, err, sizeof err);
    CHECK(refs && batch.ifetch && batch.data && systems && sweep && halves, "%s: setup: %s",
          geometry_list, err);
    if (!refs || !batch.ifetch || !batch.data || !systems || !sweep || !halves) {
        return;
    }
    make_stream(&geometry, refs, STREAM_REFS, seed);
    for (size_t index = 0; index < config_count; index++) {
        CHECK(stc_system_init(&systems[index], &geometry, &configs[index], err, sizeof err) == 0,
              "%s", err);
    }

    /* Uneven batches, so runs of repeats and the engine's chunks cross
     * batch boundaries. */
    stc_repeat_filter filter;
    stc_repeat_filter_init(&filter, &geometry);
    uint64_t state = seed * 7919;
    size_t done = 0;
    uint64_t kept = 0;
    while (done < STREAM_REFS) {
        size_t chunk = 1 + (size_t)(next_random(&state) % MAX_BATCH);
        if (chunk > STREAM_REFS - done) {
            chunk = STREAM_REFS - done;
        }
        for (size_t index = 0; index < config_count; index++) {
            stc_system_run(&systems[index], refs + done, chunk);
        }
        stc_repeat_filter_run(&filter, refs + done, chunk, &batch);
        stc_stack_sweep_run(sweep, &batch);
        stc_stack_sweep_run_cache(halves, STC_DCACHE, &batch);
        stc_stack_sweep_run_cache(halves, STC_ICACHE, &batch);
        kept += batch.ifetch_count + batch.data_count;
        done += chunk;
    }

    uint64_t deep_hits = 0;      /* hits only an associativity >= 4 cache has */
    uint64_t writeback_total = 0;
    for (size_t index = 0; index < config_count; index++) {
        char name[STC_CONFIG_NAME_MAX], what[STC_CONFIG_NAME_MAX + 64];
        stc_config_name(&geometry, &configs[index], name, sizeof name);
        for (unsigned kind = 0; kind < 2; kind++) {
            stc_counters got;
            const stc_cache *cache = kind == STC_ICACHE ? systems[index].icache
                                                        : systems[index].dcache;
            snprintf(what, sizeof what, "%s %s %s", geometry_list, name,
                     kind == STC_ICACHE ? "I-cache" : "D-cache");
            CHECK(stc_stack_sweep_counters(sweep, &configs[index], (stc_cache_kind)kind, &got) == 0,
                  "%s: counters refused", what);
            compare_counters(stc_cache_counters(cache), &got, what);
            stc_counters by_half;
            stc_stack_sweep_counters(halves, &configs[index], (stc_cache_kind)kind, &by_half);
            strncat(what, ", one cache at a time", sizeof what - strlen(what) - 1);
            compare_counters(&got, &by_half, what);
            writeback_total += got.writebacks;
            if (configs[index].ways >= 4 && configs[index].way_predict) {
                deep_hits += got.second_probe_hits;
            }
        }
        stc_system_free(&systems[index]);
    }
    /* The comparison means something only if the filter kept a good share
     * of the stream and the stream exercised write-backs and (where the
     * geometry has 4 banks or more) deep stacks. */
    CHECK(kept > STREAM_REFS / 10 && kept < STREAM_REFS * 9 / 10,
          "%s: filter kept %llu of %d references", geometry_list, (unsigned long long)kept,
          STREAM_REFS);
    CHECK(writeback_total > 0, "%s: no write-backs", geometry_list);
    CHECK(geometry.banks < 4 || deep_hits > 0, "%s: no second-probe hits with >= 4 ways",
          geometry_list);
    stc_stack_sweep_destroy(sweep);
    stc_stack_sweep_destroy(halves);
    free(systems);
    free(refs);
    free(batch.ifetch);
    free(batch.data);
}

/* Feed refs (one batch) to the engine and to a system of config, return
 * the engine's D-cache or I-cache counters after checking they equal the
 * system's. */
static void run_small(const stc_geometry *geometry, const stc_config *config, const stc_ref *refs,
                      size_t count, stc_cache_kind kind, stc_counters *out, const char *what)
{
    char err[256];
    stc_ref ifetch[64], data[64];
    stc_filtered_batch batch = {ifetch, 0, data, 0, {{0, 0, 0}, {0, 0, 0}}};
    stc_repeat_filter filter;
    stc_repeat_filter_init(&filter, geometry);
    stc_repeat_filter_run(&filter, refs, count, &batch);
    stc_stack_sweep *sweep = stc_stack_sweep_create(geometry, err, sizeof err);
    stc_system system;
    stc_system_init(&system, geometry, config, err, sizeof err);
    stc_stack_sweep_run(sweep, &batch);
    stc_system_run(&system, refs, count);
    stc_stack_sweep_counters(sweep, config, kind, out);
    compare_counters(stc_cache_counters(kind == STC_ICACHE ? system.icache : system.dcache), out,
                     what);
    stc_system_free(&system);
    stc_stack_sweep_destroy(sweep);
}

/*
 * Hand-worked streams. Geometry: 2 banks of 64 B (4 rows of 16 B), so the
 * bank shift is 6. A = 0x000 (tag 0), B = 0x040 (tag 1), C = 0x080 (tag 2)
 * all sit in row 0; tags 0 and 2 select bank group 0 when g = 2, tag 1
 * group 1. Memory: 20 cycles + 4 beats per 16 B line.
 */
static void check_by_hand(void)
{
    char err[256];
    stc_geometry geometry;
    stc_geometry_default(&geometry);
    if (stc_geometry_parse(&geometry, "banks=2,bank_bytes=64", err, sizeof err) != 0) {
        CHECK(0, "%s", err);
        return;
    }
    stc_counters got;

    /* Loads A B A C A B. */
    const stc_ref loads[] = {{0x000, 4, STC_REF_LOAD}, {0x040, 4, STC_REF_LOAD},
                             {0x000, 4, STC_REF_LOAD}, {0x080, 4, STC_REF_LOAD},
                             {0x000, 4, STC_REF_LOAD}, {0x040, 4, STC_REF_LOAD}};
    /* 64B_1W: one line per row, everything conflicts: 6 misses. */
    stc_config direct_small = {1, 1, 1, false};
    run_small(&geometry, &direct_small, loads, 6, STC_DCACHE, &got, "by hand 64B_1W_16B");
    CHECK_EQ_U64(got.misses, 6, "64B_1W misses");
    /* Each miss: 20 + 4 from memory and the controller's check + answer. */
    CHECK_EQ_U64(got.cycles, 6 + 6 * (24 + 2), "64B_1W cycles");
    /* 128B_1W (g = 2): A and C share group 0, B alone in group 1:
     * A m, B m, A h, C m, A m, B h. */
    stc_config direct_large = {2, 1, 1, false};
    run_small(&geometry, &direct_large, loads, 6, STC_DCACHE, &got, "by hand 128B_1W_16B");
    CHECK_EQ_U64(got.misses, 4, "128B_1W misses");
    CHECK_EQ_U64(got.request_misses, 4, "128B_1W request misses");
    /* 128B_2W_P: one set of 2 ways, LRU: A m, B m, A h (depth 1), C m
     * (evicts B), A h (depth 1), B m. Both hits found by the second probe. */
    stc_config two_way = {2, 2, 1, true};
    run_small(&geometry, &two_way, loads, 6, STC_DCACHE, &got, "by hand 128B_2W_16B_P");
    CHECK_EQ_U64(got.misses, 4, "128B_2W misses");
    CHECK_EQ_U64(got.first_probe_hits, 0, "128B_2W first-probe hits");
    CHECK_EQ_U64(got.second_probe_hits, 2, "128B_2W second-probe hits");
    CHECK_EQ_U64(got.cycles, 6 + 2 + 4 + 4 * (24 + 2), "128B_2W_P cycles");

    /* Write-backs with 32 B logical lines (sublines A.0/A.1 = 0x00/0x10,
     * B = 0x40/0x50, C = 0x80/0x90): store A.0, store B.1, modify A.1, load
     * A.0, load C.0, load A.0.
     * 128B_2W_32B: A m, B m, A h, A h, C m evicts B (B.1 dirty), A h:
     * 3 misses (2 of them stores), 1 write-back. */
    const stc_ref stores[] = {{0x000, 4, STC_REF_STORE},  {0x050, 4, STC_REF_STORE},
                              {0x010, 4, STC_REF_MODIFY}, {0x000, 4, STC_REF_LOAD},
                              {0x080, 4, STC_REF_LOAD},   {0x004, 4, STC_REF_LOAD}};
    stc_config two_way_long = {2, 2, 2, false};
    run_small(&geometry, &two_way_long, stores, 6, STC_DCACHE, &got, "by hand 128B_2W_32B");
    CHECK_EQ_U64(got.misses, 3, "128B_2W_32B misses");
    CHECK_EQ_U64(got.write_misses, 2, "128B_2W_32B write misses");
    CHECK_EQ_U64(got.fills, 6, "128B_2W_32B fills");
    CHECK_EQ_U64(got.fill_bursts, 3, "128B_2W_32B fill bursts");
    CHECK_EQ_U64(got.writebacks, 1, "128B_2W_32B write-backs");
    /* 64B_1W_32B: A m, B m evicts A (A.0 dirty), A m evicts B (B.1 dirty)
     * and comes back clean, the modify dirties A.1 only, A h, C m evicts A
     * (A.1 dirty), A m: 5 misses, 3 write-backs;
     * cycles = 6 + 5 x (20 + 8 + 2) + 3 x (24 + 2). */
    stc_config direct_long = {1, 1, 2, false};
    run_small(&geometry, &direct_long, stores, 6, STC_DCACHE, &got, "by hand 64B_1W_32B");
    CHECK_EQ_U64(got.misses, 5, "64B_1W_32B misses");
    CHECK_EQ_U64(got.writebacks, 3, "64B_1W_32B write-backs");
    CHECK_EQ_U64(got.cycles, 6 + 5 * 30 + 3 * 26, "64B_1W_32B cycles");

    /* A request straddling two physical lines: load A, then 8 bytes at
     * 0x00c (pieces in lines 0x000, hit, and 0x010, miss with 16 B lines):
     * 2 requests, 3 accesses, 2 misses, 2 request misses. With 32 B lines
     * the second piece is in A's logical line: 1 miss, 1 request miss. */
    const stc_ref straddle[] = {{0x000, 4, STC_REF_LOAD}, {0x00c, 8, STC_REF_LOAD}};
    run_small(&geometry, &direct_small, straddle, 2, STC_DCACHE, &got, "by hand straddle 16B");
    CHECK_EQ_U64(got.accesses, 3, "straddle accesses");
    CHECK_EQ_U64(got.misses, 2, "straddle misses 16B");
    CHECK_EQ_U64(got.request_misses, 2, "straddle request misses 16B");
    run_small(&geometry, &direct_long, straddle, 2, STC_DCACHE, &got, "by hand straddle 32B");
    CHECK_EQ_U64(got.misses, 1, "straddle misses 32B");
    CHECK_EQ_U64(got.request_misses, 1, "straddle request misses 32B");

    /* Instruction fetches of one line: the repeats the filter removes still
     * count, as first-probe hits with way prediction. */
    const stc_ref fetches[] = {{0x100, 4, STC_REF_IFETCH}, {0x104, 4, STC_REF_IFETCH},
                               {0x108, 4, STC_REF_IFETCH}, {0x10c, 4, STC_REF_IFETCH}};
    run_small(&geometry, &two_way, fetches, 4, STC_ICACHE, &got, "by hand fetches");
    CHECK_EQ_U64(got.requests, 4, "fetch requests");
    CHECK_EQ_U64(got.misses, 1, "fetch misses");
    CHECK_EQ_U64(got.first_probe_hits, 3, "fetch first-probe hits");
    CHECK_EQ_U64(got.cycles, 4 + 1 + 24 + 2, "fetch cycles");
}

static void check_refusals(void)
{
    char err[256];
    stc_geometry geometry;
    stc_geometry_default(&geometry);
    stc_geometry_init(&geometry, err, sizeof err);
    stc_stack_sweep *sweep = stc_stack_sweep_create(&geometry, err, sizeof err);
    stc_counters got;
    const stc_config illegal[] = {{4, 8, 1, false}, {2, 1, 1, true}, {8, 1, 1, false},
                                  {4, 4, 3, false}};
    for (size_t index = 0; index < sizeof illegal / sizeof illegal[0]; index++) {
        got.requests = 99;
        CHECK(stc_stack_sweep_counters(sweep, &illegal[index], STC_DCACHE, &got) == -1,
              "illegal configuration %zu accepted", index);
        CHECK_EQ_U64(got.requests, 0, "illegal configuration %zu: counters not zeroed", index);
    }
    /* A sweep that has seen nothing shows all-zero counters. */
    const stc_config reset = stc_config_reset(&geometry);
    CHECK(stc_stack_sweep_counters(sweep, &reset, STC_ICACHE, &got) == 0, "reset refused");
    stc_counters zero = {0};
    compare_counters(&zero, &got, "fresh sweep");
    stc_stack_sweep_destroy(sweep);
}

int main(void)
{
    check_by_hand();
    check_refusals();
    check_geometry("banks=4", 1);
    check_geometry("banks=8,bank_bytes=1024", 2);
    check_geometry("line_bytes=32", 3);
    check_geometry("banks=2,addr_bits=24", 4);
    check_geometry("banks=1", 5);
    check_geometry("banks=16,bank_bytes=512", 6);
    check_geometry("banks=4,addr_bits=64", 7);
    return check_done("test_stack");
}
