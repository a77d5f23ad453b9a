/* test_monitor.c - the miss monitor (ref/monitor.h) against the cache model
 * itself: watching every set, its estimate of each configuration must equal
 * what a real cache in that configuration counted on the same stream; with
 * sampling, it must equal the real cache fed only the watched accesses. */
#include "check.h"
#include "monitor.h"

#include "cache.h"
#include "config.h"

#include <stdio.h>
#include <string.h>

enum { STREAM_LENGTH = 60000 };

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

static bool watched(const stc_geometry *geometry, unsigned sample_bits, uint64_t addr)
{
    unsigned lo = geometry->offset_bits + 2;
    return ((addr >> lo) & (((uint64_t)1 << sample_bits) - 1)) == 0;
}

static void compare(const stc_geometry *geometry, unsigned sample_bits)
{
    char err[256];
    stc_monitor *monitor = stc_monitor_create(geometry, sample_bits, err, sizeof err);
    CHECK(monitor != NULL, "create: %s", err);
    if (!monitor) {
        return;
    }
    stc_config configs[STC_MAX_CONFIGS];
    size_t count = stc_config_enumerate(geometry, configs, STC_MAX_CONFIGS);
    stc_cache *caches[STC_MAX_CONFIGS];
    for (size_t index = 0; index < count; index++) {
        caches[index] = stc_cache_create(geometry, STC_DCACHE, &configs[index], NULL, err,
                                         sizeof err);
        CHECK(caches[index] != NULL, "cache: %s", err);
        if (!caches[index]) {
            stc_monitor_destroy(monitor);
            return;
        }
    }
    uint64_t seed = 12345;
    uint64_t fed = 0;
    for (uint64_t index = 0; index < STREAM_LENGTH; index++) {
        bool write;
        uint64_t addr = stream_next(&seed, &write, index) & ~(uint64_t)3;
        stc_monitor_observe(monitor, addr, write);
        if (!watched(geometry, sample_bits, addr)) {
            continue;
        }
        fed++;
        for (size_t config = 0; config < count; config++) {
            stc_cache_request(caches[config], write ? STC_OP_WRITE : STC_OP_READ, addr, 4, NULL,
                              NULL, NULL);
        }
    }
    CHECK_EQ_U64(stc_monitor_watched(monitor), fed, "watched accesses, sample bits %u",
                 sample_bits);
    CHECK(fed > STREAM_LENGTH / (2u << sample_bits), "sample bits %u watched only %llu",
          sample_bits, (unsigned long long)fed);
    for (size_t index = 0; index < count; index++) {
        char name[STC_CONFIG_NAME_MAX];
        stc_config_name(geometry, &configs[index], name, sizeof name);
        stc_counters estimate;
        stc_monitor_estimate(monitor, &configs[index], &estimate);
        const stc_counters *real = stc_cache_counters(caches[index]);
        CHECK_EQ_U64(estimate.accesses, real->accesses, "%s accesses (bits %u)", name, sample_bits);
        CHECK_EQ_U64(estimate.misses, real->misses, "%s misses (bits %u)", name, sample_bits);
        CHECK_EQ_U64(estimate.first_probe_hits, real->first_probe_hits, "%s first-probe hits",
                     name);
        CHECK_EQ_U64(estimate.second_probe_hits, real->second_probe_hits,
                     "%s second-probe hits", name);
        CHECK_EQ_U64(estimate.writebacks, real->writebacks, "%s writebacks (bits %u)", name,
                     sample_bits);
        CHECK_EQ_U64(estimate.fills, real->fills, "%s fills", name);
        CHECK_EQ_U64(estimate.fill_bursts, real->fill_bursts, "%s bursts", name);
        CHECK_EQ_U64(estimate.cycles, real->cycles, "%s cycles (bits %u)", name, sample_bits);
        stc_cache_destroy(caches[index]);
    }
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
        compare(&geometry, bits);
    }
    stc_geometry eight = geometry;
    CHECK(stc_geometry_parse(&eight, "banks=8,bank_bytes=1024", err, sizeof err) == 0, "%s", err);
    compare(&eight, 0);
    compare(&eight, 2);
}

static void test_decay_and_refusal(void)
{
    stc_geometry geometry;
    stc_geometry_default(&geometry);
    char err[256];
    stc_geometry_init(&geometry, err, sizeof err);
    CHECK(stc_monitor_create(&geometry, 6, err, sizeof err) == NULL, "6 sample bits accepted");
    CHECK(strstr(err, "0..5") != NULL, "message names the range: %s", err);

    stc_monitor *monitor = stc_monitor_create(&geometry, 0, err, sizeof err);
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

int main(void)
{
    test_exact_against_caches();
    test_decay_and_refusal();
    return check_done("test_monitor");
}
