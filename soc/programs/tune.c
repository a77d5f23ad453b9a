/*
 * tune.c - the hardware tuner at work, through the caches' APB registers
 *
 * The testbench starts every program with both tuners' decisions off
 * (TUNER 0 = CTRL = 0), so the caches run in their reset configuration.
 * This program:
 *   1. starts both tuners (CTRL = 1: decisions on, ARCHITECTURE.md 18.4)
 *      and runs a workload (a histogram and a table walk over 24 KiB, larger
 *      than the 8 KiB caches, with a small hot loop) while they decide,
 *      once every 256 accesses each;
 *   2. waits until each has made at least 8 decisions, stops it (CTRL = 0)
 *      and waits until no change is in progress (STATUS.TUN_BUSY and
 *      CFG_BUSY clear), then prints the configuration each chose;
 *   3. checks what a DMA engine would see, through the D-cache's uncached
 *      window: a buffer's stores reach memory after a clean of its lines,
 *      stores behind the cache reach its loads after an invalidation;
 *   4. empties both caches (D: clean + invalidate every line, I:
 *      invalidate every line; MAINT_CTRL, polled on MNT_BUSY), clears
 *      their counters (the testbench restarts its traces there), and runs
 *      the workload again, cold, in the chosen configurations: what
 *      soc/run.sh then checks against stcsim in those configurations.
 * Both runs print their results, which must equal the reference run's
 * (no caches: the register work is skipped, '#' lines differ).
 */
#include "soc.h"

#include <stdint.h>
#include <stdio.h>

#define WORDS 6144   /* 24 KiB */

static uint32_t big[WORDS];
static uint16_t hist[512];

static uint32_t workload(uint32_t seed)
{
    uint32_t x = seed, sum = 0;
    for (int i = 0; i < WORDS; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        big[i] = x;
    }
    for (int pass = 0; pass < 3; pass++) {
        for (int i = 0; i < WORDS; i += 3) {
            hist[big[i] & 511u]++;
            sum += big[(i * 5) % WORDS] >> pass;
        }
    }
    for (int i = 0; i < 512; i++) sum = (sum << 1 | sum >> 31) ^ hist[i];
    return sum;
}

static uint32_t tuner_status(uint32_t base)
{
    return STC_CACHE_REG(base, STC_REG_TUNER(1));
}

static void stop_and_report(uint32_t base, const char *name)
{
    STC_CACHE_REG(base, STC_REG_TUNER(0)) = 0;   /* CTRL: decisions off */
    while (STC_CACHE_REG(base, STC_REG_STATUS) &
           (STC_REG_STATUS_TUN_BUSY_MASK | STC_REG_STATUS_CFG_BUSY_MASK)) {
    }
    uint32_t status = tuner_status(base);
    char cfg[32];
    soc_config_name(STC_CACHE_REG(base, STC_REG_CONFIG), cfg, sizeof cfg);
    printf("# %s tuner: %lu decisions, %lu changes, chose %s\n", name,
           (unsigned long)((status >> 8) & 0xffu), (unsigned long)((status >> 16) & 0xffu), cfg);
}

static void maintain(uint32_t base, uint32_t op)
{
    STC_CACHE_REG(base, STC_REG_MAINT_CTRL) =
        STC_FIELD_PREP(STC_REG_MAINT_CTRL_OP, op) | STC_FIELD_PREP(STC_REG_MAINT_CTRL_ALL, 1);
    while (STC_CACHE_REG(base, STC_REG_STATUS) & STC_REG_STATUS_MNT_BUSY_MASK) {
    }
}

/* One operation on every D-cache line of [p, p + bytes) (scope line). */
static void dcache_lines(const volatile void *p, uint32_t bytes, uint32_t op)
{
    const uint32_t line = 1u << STC_REG_GEOMETRY_LINE_BYTES_LOG2_RESET;
    uint32_t a = (uint32_t)(uintptr_t)p & ~(line - 1u);
    for (; a < (uint32_t)(uintptr_t)p + bytes; a += line) {
        STC_CACHE_REG(SOC_DCACHE_BASE, STC_REG_MAINT_ADDR) = a;
        STC_CACHE_REG(SOC_DCACHE_BASE, STC_REG_MAINT_CTRL) = STC_FIELD_PREP(STC_REG_MAINT_CTRL_OP, op);
        while (STC_CACHE_REG(SOC_DCACHE_BASE, STC_REG_STATUS) & STC_REG_STATUS_MNT_BUSY_MASK) {
        }
    }
}

#define UNCACHED(p) ((volatile uint32_t *)SOC_UNCACHED(p))
#define SHARED_WORDS 64
static volatile uint32_t shared[SHARED_WORDS];

/* What a DMA engine would see (INTEGRATION.md 2): a buffer written through
 * the write-back D-cache reaches memory only when its lines are cleaned;
 * a buffer written behind the cache's back is seen only after its lines
 * are invalidated. The '#' lines count the stale words before the
 * operation (0 without caches); the others must say ok either way. */
static uint32_t pattern(int i, uint32_t seed)
{
    return ((uint32_t)i << 20 | (uint32_t)i) ^ seed;
}

static void coherence(int caches, uint32_t seed)
{
    int stale = 0, bad = 0;
    for (int i = 0; i < SHARED_WORDS; i++) shared[i] = pattern(i, seed);
    for (int i = 0; i < SHARED_WORDS; i++) stale += UNCACHED(&shared[i])[0] != shared[i];
    if (caches) dcache_lines(shared, sizeof shared, STC_MAINT_OP_CLEAN);
    for (int i = 0; i < SHARED_WORDS; i++) bad += UNCACHED(&shared[i])[0] != shared[i];
    printf("# before the clean, %d of %d words stale in memory\n", stale, SHARED_WORDS);
    printf("coherence: stores, clean, uncached reads: %s\n", bad ? "MISMATCH" : "ok");

    stale = 0;
    bad = 0;
    for (int i = 0; i < SHARED_WORDS; i++) UNCACHED(&shared[i])[0] = ~shared[i];
    for (int i = 0; i < SHARED_WORDS; i++) stale += shared[i] != ~pattern(i, seed);
    if (caches) dcache_lines(shared, sizeof shared, STC_MAINT_OP_INVALIDATE);
    for (int i = 0; i < SHARED_WORDS; i++) bad += shared[i] != ~pattern(i, seed);
    printf("# before the invalidation, %d of %d words stale in the D-cache\n", stale, SHARED_WORDS);
    printf("coherence: uncached stores, invalidate, loads: %s\n", bad ? "MISMATCH" : "ok");
}

int main(void)
{
    int caches = soc_have_cache(SOC_ICACHE_BASE) && soc_have_cache(SOC_DCACHE_BASE);
    if (caches) {
        STC_CACHE_REG(SOC_ICACHE_BASE, STC_REG_TUNER(0)) = 1;   /* start both tuners */
        STC_CACHE_REG(SOC_DCACHE_BASE, STC_REG_TUNER(0)) = 1;
    } else {
        printf("# no stc caches: nothing to tune\n");
    }
    uint32_t r = workload(1u);
    printf("tune: first run %08lx\n", (unsigned long)r);
    if (caches) {
        /* At least 8 decisions each (STATUS [15:8], counted from reset). */
        uint32_t round = 2u;
        while (((tuner_status(SOC_ICACHE_BASE) >> 8) & 0xffu) < 8u ||
               ((tuner_status(SOC_DCACHE_BASE) >> 8) & 0xffu) < 8u) {
            r ^= workload(round++);
        }
        stop_and_report(SOC_ICACHE_BASE, "I-cache");
        stop_and_report(SOC_DCACHE_BASE, "D-cache");
    }
    coherence(caches, r);
    if (caches) {
        maintain(SOC_DCACHE_BASE, STC_MAINT_OP_CLEAN_INVALIDATE);
        maintain(SOC_ICACHE_BASE, STC_MAINT_OP_INVALIDATE);
        STC_CACHE_REG(SOC_ICACHE_BASE, STC_REG_CNT_CLEAR) = 1;
        STC_CACHE_REG(SOC_DCACHE_BASE, STC_REG_CNT_CLEAR) = 1;
    }
    printf("tune: second run %08lx\n", (unsigned long)workload(7u));
    return 0;
}
