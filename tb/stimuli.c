/* stimuli.c - random traffic and traces (stimuli.h). */
#include "stimuli.h"

#include "harness.h"
#include "operations.h"
#include "trace.h"

#include <stdio.h>
#include <stdlib.h>

static const stc_config *random_config(harness *h)
{
    return &h->configs[rng_below(&h->rng, (unsigned)h->config_count)];
}

void stimuli_init(harness *h)
{
    stimuli *s = &h->stimuli;
    uint64_t mask = STC_GEN_ADDR_MASK & ~(uint64_t)(REGION_BYTES - 1);
    for (unsigned index = 0; index < REGIONS; index++) {
        uint64_t base;
        if (index == 0) {
            base = 0;
        } else if (index == 1) {
            base = mask; /* every high address bit set */
        } else if (index < 5) {
            /* Aliases differing from an earlier region in one tag bit only:
             * the top one, the lowest one above the region, a random one. */
            unsigned top = STC_GEN_ADDR_BITS - 1;
            unsigned low = STC_GEN_BANK_SHIFT > 16 ? STC_GEN_BANK_SHIFT : 16;
            unsigned bit = index == 2   ? top
                           : index == 3 ? (low < top ? low : top)
                                        : STC_GEN_BANK_SHIFT + rng_below(&h->rng, STC_GEN_TAG_BITS);
            base = (s->regions[rng_below(&h->rng, index)] ^ ((uint64_t)1 << bit)) & mask;
        } else {
            base = (rng_next(&h->rng) << 16) & mask;
        }
        s->regions[index] = base;
    }
    /* The flush region: one the traffic never touches. */
    for (;;) {
        s->flush_base = (rng_next(&h->rng) << 16) & mask;
        bool clash = false;
        for (unsigned index = 0; index < REGIONS; index++) {
            clash = clash || (s->flush_base == s->regions[index]);
        }
        if (!clash) {
            break;
        }
    }
    s->hot = calloc(h->opt.hot_lines ? h->opt.hot_lines : 1, sizeof *s->hot);
    if (!s->hot) {
        exit(2);
    }
    for (unsigned index = 0; index < h->opt.hot_lines; index++) {
        s->hot[index] = s->regions[rng_below(&h->rng, REGIONS)] +
                        (rng_below(&h->rng, REGION_BYTES) & ~(uint64_t)3);
    }
}

uint64_t next_address(harness *h)
{
    stimuli *s = &h->stimuli;
    uint64_t addr;
    if (rng_percent(&h->rng, h->opt.locality)) {
        if (rng_percent(&h->rng, 50)) {
            addr = (s->last_addr & ~(uint64_t)(LINE_BYTES - 1)) +
                   4 * rng_below(&h->rng, BEATS);
        } else {
            addr = s->last_addr + 4;
        }
    } else if (h->opt.hot_lines && rng_percent(&h->rng, 70)) {
        addr = s->hot[rng_below(&h->rng, h->opt.hot_lines)] + 4 * rng_below(&h->rng, BEATS);
    } else {
        addr = s->regions[rng_below(&h->rng, REGIONS)] +
               (rng_below(&h->rng, REGION_BYTES) & ~(uint64_t)3);
    }
    addr &= STC_GEN_ADDR_MASK & ~(uint64_t)3;
    s->last_addr = addr;
    return addr;
}

static unsigned next_gap(harness *h, unsigned mean)
{
    return mean ? 1 + rng_below(&h->rng, 2 * mean) : 0;
}

void random_reconfig(harness *h)
{
    unsigned dice = rng_below(&h->rng, 100);
    if (dice < 4) {
        /* an illegal configuration */
        unsigned fields[4];
        unsigned logb = STC_GEN_BANK_BITS;
        switch (rng_below(&h->rng, 4)) {
        case 0: fields[0] = logb + 1 + rng_below(&h->rng, 7 - logb); fields[1] = 0; fields[2] = 0; fields[3] = 0; break;
        case 1: fields[0] = rng_below(&h->rng, logb + 1); fields[1] = fields[0] + 1 + rng_below(&h->rng, 7 - fields[0]); fields[2] = 0; fields[3] = 0; break;
        case 2: fields[0] = logb; fields[1] = 0; fields[2] = 3; fields[3] = 0; break;
        default: fields[0] = rng_below(&h->rng, logb + 1); fields[1] = 0; fields[2] = rng_below(&h->rng, 3); fields[3] = 1; break;
        }
        if (fields[0] > 7) {
            fields[0] = 7;
        }
        do_reconfig(h, NULL, fields);
    } else if (dice < 8) {
        stc_config same = *stc_cache_config(h->model);
        do_reconfig(h, &same, NULL);
    } else {
        do_reconfig(h, random_config(h), NULL);
    }
}

/* A maintenance operation (ARCHITECTURE.md 7.1): each op alike, one in
 * eight of every line (a walk of every row), else of the line of addr. */
static void random_maintain(harness *h, uint64_t addr)
{
    unsigned op = rng_below(&h->rng, 4);
    bool all = rng_percent(&h->rng, 12);
    do_maintain(h, op, all, addr);
}

static void random_store_or_load(harness *h, uint64_t addr, bool store)
{
    if (store) {
        unsigned be = rng_percent(&h->rng, 70) ? 0xf : rng_below(&h->rng, 16);
        uint32_t data = ++h->stamp * 0x01010101u ^ (uint32_t)rng_below(&h->rng, 256);
        do_request(h, true, addr, be, data);
    } else {
        do_request(h, false, addr, 0, 0);
    }
}

/* A reconfiguration, a quarter of them with the next CPU request offered in
 * the same cycles (it must wait for the configuration, section 15.2). */
static void random_reconfig_maybe_overlapped(harness *h)
{
    if (!rng_percent(&h->rng, 25)) {
        random_reconfig(h);
        return;
    }
    h->pending.we = rng_percent(&h->rng, h->opt.writes) && !LOCKSTEP_ICACHE;
    h->pending.addr = next_address(h);
    h->pending.be = h->pending.we ? (rng_percent(&h->rng, 70) ? 0xf : rng_below(&h->rng, 16)) : 0;
    h->pending.wdata = h->pending.we ? ++h->stamp * 0x01010101u : 0;
    h->pending.on = true;
    random_reconfig(h);
    h->pending.on = false;
    h->cov.overlapped++;
    do_request(h, h->pending.we, h->pending.addr, h->pending.be, h->pending.wdata);
}

/* A clear inside the next request: in its accepting cycle or, where the
 * response cycle is known in advance (fixed-latency memory) and the
 * response cycle's strobes show what the lost events were (a top with the
 * tuner's strobes), in its response cycle. */
static busy_clear choose_busy_clear(harness *h)
{
    bool response_known = !h->opt.random_memory && h->strobes;
    return response_known && rng_percent(&h->rng, 50) ? CLEAR_AT_RESPONSE : CLEAR_AT_ACCEPT;
}

void run_random(harness *h)
{
    uint64_t next_reconfig = next_gap(h, h->opt.reconfig_every);
    uint64_t next_checkpoint = h->opt.checkpoint_every;
    uint64_t next_clear = next_gap(h, h->opt.clear_every);
    uint64_t next_busy_clear = next_gap(h, h->opt.clear_in_request);
    uint64_t next_maintain = next_gap(h, h->opt.maintain_every);
    for (uint64_t index = 0; index < h->opt.requests; index++) {
        if (h->opt.maintain_every && index == next_maintain) {
            random_maintain(h, next_address(h));
            next_maintain = index + next_gap(h, h->opt.maintain_every);
        }
        if (h->opt.reconfig_every && index == next_reconfig) {
            random_reconfig_maybe_overlapped(h);
            next_reconfig = index + next_gap(h, h->opt.reconfig_every);
        }
        if (h->opt.checkpoint_every && index == next_checkpoint) {
            checkpoint(h, true);
            next_checkpoint = index + h->opt.checkpoint_every;
        }
        if (h->opt.clear_every && index == next_clear) {
            do_clear(h);
            next_clear = index + next_gap(h, h->opt.clear_every);
        }
        if (h->opt.clear_in_request && index == next_busy_clear) {
            h->busy_clear = choose_busy_clear(h);
            next_busy_clear = index + next_gap(h, h->opt.clear_in_request);
        }
        random_store_or_load(h, next_address(h), rng_percent(&h->rng, h->opt.writes));
    }
}

/* A trace: every word a reference touches becomes one request (the RTL's
 * port carries one word); a modify is a load then a store of its bytes. */
void run_trace(harness *h)
{
    char err[512];
    stc_trace *trace = stc_trace_open(h->opt.trace, STC_TRACE_AUTO, err, sizeof err);
    if (!trace) {
        fprintf(stderr, "lockstep: %s\n", err);
        exit(2);
    }
    stc_ref refs[4096];
    uint64_t done = 0;
    uint64_t next_reconfig = next_gap(h, h->opt.reconfig_every);
    uint64_t next_checkpoint = h->opt.checkpoint_every;
    uint64_t next_maintain = next_gap(h, h->opt.maintain_every);
    long got = 0;
    while (done < h->opt.requests && (got = stc_trace_read(trace, refs, 4096)) > 0) {
        for (long index = 0; index < got && done < h->opt.requests; index++) {
            const stc_ref *ref = &refs[index];
            bool fetch = ref->kind == STC_REF_IFETCH;
            if ((LOCKSTEP_PAIR_SIDE == 1 && !fetch) || (LOCKSTEP_PAIR_SIDE == 2 && fetch)) {
                continue; /* the pair's other side's reference */
            }
            h->cov.trace_refs++;
            uint64_t first = ref->addr & ~(uint64_t)3;
            uint64_t end = ref->addr + ref->size;
            for (uint64_t word = first; word < end && done < h->opt.requests; word += 4) {
                unsigned be = 0;
                for (unsigned byte = 0; byte < 4; byte++) {
                    uint64_t at = word + byte;
                    be |= (unsigned)(at >= ref->addr && at < end) << byte;
                }
                if (h->opt.reconfig_every && done == next_reconfig) {
                    random_reconfig(h);
                    next_reconfig = done + next_gap(h, h->opt.reconfig_every);
                }
                if (h->opt.checkpoint_every && done == next_checkpoint) {
                    checkpoint(h, true);
                    next_checkpoint = done + h->opt.checkpoint_every;
                }
                if (h->opt.maintain_every && done == next_maintain) {
                    random_maintain(h, word);  /* the line about to be used */
                    next_maintain = done + next_gap(h, h->opt.maintain_every);
                }
                if (ref->kind == STC_REF_STORE || ref->kind == STC_REF_MODIFY) {
                    if (ref->kind == STC_REF_MODIFY) {
                        do_request(h, false, word, 0, 0);
                        done++;
                    }
                    do_request(h, true, word, be, ++h->stamp * 0x01010101u);
                } else {
                    do_request(h, false, word, 0, 0);
                }
                done++;
            }
        }
    }
    if (got < 0 || stc_trace_error(trace)[0]) {
        fprintf(stderr, "lockstep: %s\n", stc_trace_error(trace));
        exit(2);
    }
    stc_trace_close(trace, err, sizeof err);
}
