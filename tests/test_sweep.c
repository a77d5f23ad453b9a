/*
 * test_sweep.c - the one-pass sweep (repeat filter + split streams) must give
 * counters bit-identical to feeding every reference to stc_system_run.
 */
#include "check.h"
#include "config.h"
#include "geometry.h"
#include "sweep.h"
#include "system.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { STREAM_REFS = 60000 };

static uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return *state >> 33;
}

/* References with the shapes that matter to the filter: runs in one line
 * (sequential fetch), reads then writes of one line, straddles, modifies,
 * interleaved I and D streams, and addresses with bits above addr_bits. */
static void make_stream(stc_ref *refs, size_t count, uint64_t seed)
{
    uint64_t state = seed;
    uint64_t pc = 0x400000;
    uint64_t data = 0x10000000;
    for (size_t index = 0; index < count; index++) {
        stc_ref *ref = &refs[index];
        uint64_t choice = next_random(&state) % 100;
        if (choice < 55) {
            ref->kind = STC_REF_IFETCH;
            ref->size = 1 + (uint32_t)(next_random(&state) % 7);
            if (next_random(&state) % 16 == 0) {
                pc = 0x400000 + (next_random(&state) % 0x6000); /* a branch */
            }
            ref->addr = pc;
            pc += ref->size;
        } else {
            static const uint8_t kinds[] = {STC_REF_LOAD, STC_REF_LOAD, STC_REF_STORE,
                                            STC_REF_MODIFY};
            ref->kind = kinds[next_random(&state) % 4];
            ref->size = 1u << (next_random(&state) % 4);
            uint64_t move = next_random(&state) % 10;
            if (move < 5) {
                /* same neighbourhood */
            } else if (move < 8) {
                data += 4;
            } else {
                data = 0x10000000 + (next_random(&state) % 0x8000);
            }
            ref->addr = data + (next_random(&state) % 3 == 0 ? 14 : 0); /* some straddle */
            if (next_random(&state) % 50 == 0) {
                ref->addr |= (uint64_t)0x7ffc << 32; /* truncated by the cache */
            }
        }
    }
}

static void compare_counters(const stc_counters *raw, const stc_counters *swept, const char *what)
{
    const uint64_t *left = (const uint64_t *)raw;
    const uint64_t *right = (const uint64_t *)swept;
    for (size_t field = 0; field < sizeof *raw / sizeof(uint64_t); field++) {
        CHECK_EQ_U64(right[field], left[field], "%s: counter field %zu differs", what, field);
    }
}

static void check_geometry(const char *geometry_list, uint64_t seed)
{
    char err[256];
    stc_geometry geometry;
    stc_geometry_default(&geometry);
    if (stc_geometry_parse(&geometry, geometry_list, err, sizeof err) != 0) {
        CHECK(0, "%s", err);
        return;
    }
    stc_ref *refs = malloc(STREAM_REFS * sizeof *refs);
    stc_filtered_batch batch = {malloc(STREAM_REFS * sizeof(stc_ref)), 0,
                                malloc(STREAM_REFS * sizeof(stc_ref)), 0, {{0, 0, 0}, {0, 0, 0}}};
    make_stream(refs, STREAM_REFS, seed);

    stc_config configs[STC_MAX_CONFIGS];
    size_t config_count = stc_config_enumerate(&geometry, configs, STC_MAX_CONFIGS);
    uint64_t kept = 0;
    for (size_t index = 0; index < config_count; index++) {
        stc_system raw, swept;
        stc_system_init(&raw, &geometry, &configs[index], err, sizeof err);
        stc_system_init(&swept, &geometry, &configs[index], err, sizeof err);
        stc_repeat_filter filter;
        stc_repeat_filter_init(&filter, &geometry);
        /* Uneven batches, so runs of repeats cross batch boundaries. */
        uint64_t state = seed ^ index;
        size_t done = 0;
        kept = 0;
        while (done < STREAM_REFS) {
            size_t chunk = 1 + (size_t)(next_random(&state) % 5000);
            if (chunk > STREAM_REFS - done) {
                chunk = STREAM_REFS - done;
            }
            stc_system_run(&raw, refs + done, chunk);
            stc_repeat_filter_run(&filter, refs + done, chunk, &batch);
            stc_sweep_run(&swept, &batch);
            kept += batch.ifetch_count + batch.data_count;
            done += chunk;
        }
        char name[STC_CONFIG_NAME_MAX], what[STC_CONFIG_NAME_MAX + 64];
        stc_config_name(&geometry, &configs[index], name, sizeof name);
        snprintf(what, sizeof what, "%s %s I-cache", geometry_list, name);
        compare_counters(stc_cache_counters(raw.icache), stc_cache_counters(swept.icache), what);
        snprintf(what, sizeof what, "%s %s D-cache", geometry_list, name);
        compare_counters(stc_cache_counters(raw.dcache), stc_cache_counters(swept.dcache), what);
        stc_system_free(&raw);
        stc_system_free(&swept);
    }
    /* The comparison means something only if the filter skipped a good
     * share of the stream and kept a good share too. */
    CHECK(kept > STREAM_REFS / 10 && kept < STREAM_REFS * 9 / 10,
          "%s: filter kept %llu of %d references", geometry_list, (unsigned long long)kept,
          STREAM_REFS);
    free(refs);
    free(batch.ifetch);
    free(batch.data);
}

int main(void)
{
    check_geometry("banks=4", 1);
    check_geometry("banks=8,bank_bytes=1024", 2);
    check_geometry("line_bytes=32", 3);
    check_geometry("banks=2,addr_bits=24", 4);
    check_geometry("banks=4,addr_bits=64", 5);
    return check_done("test_sweep");
}
