/* directed.c - the directed tests of each section (directed.h). */
#include "directed.h"

#include "harness.h"
#include "operations.h"

#include <stdio.h>

/* Addresses for row `row`, tag t (byte address). */
static uint64_t at(uint64_t tag, unsigned row, unsigned word)
{
    return ((tag << STC_GEN_BANK_SHIFT) | ((uint64_t)row << STC_GEN_OFFSET_BITS) | (4u * word)) &
           STC_GEN_ADDR_MASK;
}

static void directed_case(harness *h, const char *name)
{
    h->cov.directed_cases++;
    if (!h->opt.quiet) {
        printf("  directed: %s\n", name);
    }
}

void run_directed(harness *h)
{
    const unsigned B = BANKS, R = ROWS;
    stc_config c;
    /* Section 3/4: every configuration, an address in every bank group with
     * a store and loads back; tags differing in each single bit alias. */
    directed_case(h, "3-4 mapping and full-tag lookup, every configuration");
    for (size_t index = 0; index < h->config_count; index++) {
        do_reconfig(h, &h->configs[index], NULL);
        for (unsigned tag = 0; tag < 2 * B; tag++) {
            do_request(h, true, at(tag, 5, 1), 0xf, 0x1000 + tag);
        }
        for (unsigned bit = 0; bit < STC_GEN_TAG_BITS; bit++) {
            do_request(h, false, at((uint64_t)1 << bit, 5, 1), 0, 0);
            do_request(h, false, at(0, 5, 1), 0, 0);
        }
        for (unsigned tag = 0; tag < 2 * B; tag++) {
            do_request(h, false, at(tag, 5, 1), 0, 0);
        }
    }
    /* Section 5: fill every way of a row, then evict in LRU order with
     * touches in between. */
    directed_case(h, "5 replacement: invalid-first, LRU order, touches");
    c = stc_config_reset(&h->geometry);
    do_reconfig(h, &c, NULL);
    for (unsigned tag = 0; tag < 3 * B; tag++) {
        do_request(h, tag % 3 == 0, at(tag, 9, 0), 0xf, tag);
        do_request(h, false, at(tag / 2, 9, 2), 0, 0);
    }
    /* Section 6: logical lines partly present, runs split by present
     * sublines, dirty sublines evicted, stores into partly present lines. */
    directed_case(h, "6 logical lines: partial presence, split bursts, dirty sublines");
    for (unsigned sub = 1; sub <= STC_MAX_SUBLINES && sub <= R / 4; sub *= 2) {
        c.banks_on = B;
        c.ways = B;
        c.sublines = 1;
        c.way_predict = false;
        do_reconfig(h, &c, NULL);
        for (unsigned tag = 0; tag < B + 1; tag++) {
            do_request(h, true, at(100 + tag, 16 + (tag % 4), 0), 0x5, tag);
            do_request(h, false, at(100 + tag, 18, 3), 0, 0);
        }
        c.sublines = 4;
        do_reconfig(h, &c, NULL);
        for (unsigned tag = 0; tag < 2 * B + 2; tag++) {
            do_request(h, tag & 1, at(100 + tag, 17 + (tag % 3), 1), 0xa, tag);
        }
        c.sublines = 2;
        do_reconfig(h, &c, NULL);
        for (unsigned tag = 0; tag < 2 * B + 2; tag++) {
            do_request(h, !(tag & 1), at(100 + tag, 16 + (tag % 4), 2), 0xf, tag);
        }
    }
    /* Section 7: every transition between any two legal configurations,
     * with dirty lines everywhere before each. */
    directed_case(h, "7 reconfiguration: every ordered pair of configurations, dirty cache");
    for (size_t from = 0; from < h->config_count; from++) {
        for (size_t to = 0; to < h->config_count; to++) {
            do_reconfig(h, &h->configs[from], NULL);
            for (unsigned k = 0; k < 12; k++) {
                do_request(h, true, at(rng_below(&h->rng, 64), rng_below(&h->rng, R), rng_below(&h->rng, BEATS)), 0xf,
                           ++h->stamp);
            }
            do_reconfig(h, &h->configs[to], NULL);
            do_request(h, false, at(rng_below(&h->rng, 64), rng_below(&h->rng, R), 0), 0, 0);
        }
    }
    /* Section 8: way prediction first and second probes. */
    directed_case(h, "8 way prediction: first- and second-probe hits, misses");
    for (size_t index = 0; index < h->config_count; index++) {
        if (!h->configs[index].way_predict) {
            continue;
        }
        do_reconfig(h, &h->configs[index], NULL);
        for (unsigned tag = 0; tag < 2 * B; tag++) {
            do_request(h, false, at(200 + tag, 40, 0), 0, 0);
            do_request(h, false, at(200 + tag, 40, 1), 0, 0);
            do_request(h, false, at(200 + (tag + 1) / 2, 40, 2), 0, 0);
        }
    }
    /* Section 9: counter clear between requests and after a reconfiguration. */
    directed_case(h, "9 counters: clear");
    do_clear(h);
    do_request(h, false, at(7, 7, 0), 0, 0);
    do_reconfig(h, &h->configs[h->config_count - 1], NULL);
    do_clear(h);
    /* Section 10: timing is compared on every request above. Section 12:
     * the highest and lowest addresses. */
    directed_case(h, "12 address width: the top and bottom of the address space");
    do_request(h, true, STC_GEN_ADDR_MASK & ~(uint64_t)3, 0x8, 0xdeadbeef);
    do_request(h, true, 0, 0x1, 0x55);
    do_request(h, false, STC_GEN_ADDR_MASK & ~(uint64_t)3, 0, 0);
    do_request(h, false, 0, 0, 0);
    directed_case(h, "checkpoint: flush through the ports, memory equals the shadow");
    checkpoint(h, false);
}
