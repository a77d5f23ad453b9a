/* model_side.c - the C model's memory and counters (model_side.h). */
#include "model_side.h"

#include "harness.h"

void model_read_burst(void *context, uint64_t addr, uint8_t *data, unsigned bytes)
{
    harness *h = context;
    transaction *t = log_push(&h->model_log);
    t->we = false;
    t->line = addr >> STC_GEN_OFFSET_BITS;
    t->lines = bytes / LINE_BYTES;
    for (unsigned byte = 0; byte < bytes; byte++) {
        data[byte] = image_read8(&h->model_mem, addr + byte);
    }
    for (unsigned word = 0; word < bytes / 4 && word < MAX_BURST_WORDS; word++) {
        t->data[word] = image_read32(&h->model_mem, addr + 4 * word);
    }
    t->words = bytes / 4;
}

void model_write_burst(void *context, uint64_t addr, const uint8_t *data, unsigned bytes)
{
    harness *h = context;
    transaction *t = log_push(&h->model_log);
    t->we = true;
    t->line = addr >> STC_GEN_OFFSET_BITS;
    t->lines = bytes / LINE_BYTES;
    for (unsigned byte = 0; byte < bytes; byte++) {
        image_write8(&h->model_mem, addr + byte, data[byte]);
    }
    for (unsigned word = 0; word < bytes / 4 && word < MAX_BURST_WORDS; word++) {
        t->data[word] = image_read32(&h->model_mem, addr + 4 * word);
    }
    t->words = bytes / 4;
}

/* The model's counters in the RTL's numbering. The model counts CPU
 * requests only in stc_cache_request, which has no byte enables; the
 * harness uses stc_cache_access (one access per one-word request, section
 * 9: on the RTL's port requests = accesses), so requests and
 * request_misses are the accesses and misses since the last clear. */
void expected_counters(harness *h, uint64_t out[NCOUNTERS])
{
    const stc_counters *c = stc_cache_counters(h->model);
    uint64_t values[NCOUNTERS] = {
        c->accesses,         c->misses,           c->accesses,    c->reads,
        c->writes,           c->misses,           c->read_misses, c->write_misses,
        c->first_probe_hits, c->second_probe_hits, c->fills,       c->fill_bursts,
        c->writebacks,       c->cycles,           c->reconfigs,   c->reconfig_cycles,
        c->walk_rows,        c->banks_woken,      c->walk_writebacks, c->walk_invalidations};
    for (unsigned index = 0; index < NCOUNTERS; index++) {
        out[index] = stc_counter_saturate(values[index], STC_GEN_COUNTER_BITS);
    }
    /* reads and read_misses are derived in the RTL (section 9) */
    out[3] = stc_counter_derived(c->accesses, c->reads, STC_GEN_COUNTER_BITS);
    out[6] = stc_counter_derived(c->misses, c->read_misses, STC_GEN_COUNTER_BITS);
}
