/* compare.c - the comparisons between the model and the RTL (compare.h). */
#include "compare.h"

#include "harness.h"
#include "model_side.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void compare_transactions(harness *h, const char *when)
{
    size_t n = h->model_log.count > h->rtl_log.count ? h->model_log.count : h->rtl_log.count;
    for (size_t index = 0; index < n; index++) {
        if (index >= h->model_log.count || index >= h->rtl_log.count) {
            const transaction *t =
                index >= h->model_log.count ? &h->rtl_log.items[index] : &h->model_log.items[index];
            mismatch(h, "RTL", "%s: memory transaction %zu: model made %zu, RTL %zu; the extra one: %s "
                            "line 0x%" PRIx64 " (byte 0x%" PRIx64 "), %u lines",
                     when, index, h->model_log.count, h->rtl_log.count, t->we ? "write" : "read",
                     t->line, t->line << STC_GEN_OFFSET_BITS, t->lines);
        }
        const transaction *m = &h->model_log.items[index];
        const transaction *r = &h->rtl_log.items[index];
        if (m->we != r->we || m->line != r->line || m->lines != r->lines) {
            mismatch(h, "RTL", "%s: memory transaction %zu: model %s line 0x%" PRIx64 " x%u, RTL %s line 0x%" PRIx64 " x%u",
                     when, index, m->we ? "write" : "read", m->line, m->lines,
                     r->we ? "write" : "read", r->line, r->lines);
        }
        if (r->words != m->words) {
            mismatch(h, "RTL", "%s: memory transaction %zu: %u beats, model %u", when, index, r->words,
                     m->words);
        }
        for (unsigned word = 0; word < m->words; word++) {
            if (m->data[word] != r->data[word]) {
                mismatch(h, m->we ? "RTL" : "memory images",
                         "%s: memory %s transaction %zu (line 0x%" PRIx64 "), beat %u: model 0x%08x, RTL 0x%08x",
                         when, m->we ? "write" : "read", index, m->line, word, m->data[word],
                         r->data[word]);
            }
        }
    }
    h->model_log.count = 0;
    h->rtl_log.count = 0;
}

void compare_counters(harness *h, const char *when)
{
    uint64_t expected[NCOUNTERS];
    const uint64_t *got = h->rtl_counts;
    expected_counters(h, expected);
    if (!h->counts_fresh) {
        dut_counters(h->rtl, h->rtl_counts);
    }
    h->counts_fresh = false;
    /* (the common case, all equal, in one comparison; the loop says which) */
    bool all_equal = !h->opt.random_memory && memcmp(expected, got, sizeof expected) == 0;
    for (unsigned index = 0; !all_equal && index < NCOUNTERS; index++) {
        if (h->opt.random_memory && (index == 13 || index == 15)) {
            continue; /* cycles depend on the memory's timing */
        }
        if (expected[index] != got[index]) {
            mismatch(h, "RTL", "%s: counter %s: model %" PRIu64 ", RTL %" PRIu64, when,
                     counter_name(index), expected[index], got[index]);
        }
    }
    /* The tuner's event strobes count exactly what the counters count. */
    static const unsigned strobe_counter[4] = {2, 5, 8, 13};
    static const char *const strobe_names[4] = {"ev_access", "ev_miss", "ev_fph", "ev_cycle"};
    for (unsigned index = 0; h->strobes && index < 4; index++) {
        uint64_t seen = stc_counter_saturate(h->strobe_counts[index], STC_GEN_COUNTER_BITS);
        if (seen != got[strobe_counter[index]]) {
            mismatch(h, "RTL", "%s: strobe %s seen %" PRIu64 " times, counter %s %" PRIu64, when,
                     strobe_names[index], h->strobe_counts[index],
                     counter_name(strobe_counter[index]), got[strobe_counter[index]]);
        }
    }
}

void compare_counter_port(harness *h, const char *when)
{
    uint64_t expected[NCOUNTERS];
    expected_counters(h, expected);
    for (unsigned index = 0; index <= NCOUNTERS; index++) {
        if (h->opt.random_memory && (index == 13 || index == 15)) {
            continue; /* cycles depend on the memory's timing */
        }
        uint64_t want = index < NCOUNTERS ? expected[index] : 0;
        uint64_t got = dut_counter_port(h->rtl, index);
        if (got != want) {
            mismatch(h, "RTL", "%s: cnt_value_o for cnt_sel_i = %u (%s): model %" PRIu64
                     ", RTL %" PRIu64, when, index, index < NCOUNTERS ? counter_name(index) : "none",
                     want, got);
        }
    }
    h->cov.counter_port_reads++;
}

/* Valid and dirty bits of every bank in rows first..first+count-1, and the
 * tag and line of the valid slots of the banks in `slots` (bit b = bank b):
 * after a request, the bank that served it (the only one whose SRAM
 * contents a request changes); after a reconfiguration, all. */
void compare_rows(harness *h, unsigned first, unsigned count, uint32_t slots, const char *when)
{
    for (unsigned row = first; row < first + count; row++) {
        uint32_t valid = 0, dirty = 0, fill = 0, rtl_valid, rtl_dirty, rtl_fill;
        stc_slot slots_of_row[BANKS];
        for (unsigned bank = 0; bank < BANKS; bank++) {
            const stc_slot *slot = &slots_of_row[bank];
            stc_cache_slot(h->model, bank, row, &slots_of_row[bank]);
            valid |= (uint32_t)slot->valid << bank;
            dirty |= (uint32_t)(slot->valid && slot->dirty) << bank;
            unsigned fill_log = slot->fill_sublines == 4 ? 2u : slot->fill_sublines == 2 ? 1u : 0u;
            fill |= (uint32_t)(slot->valid ? fill_log : 0u) << (2 * bank);
        }
        dut_row_state(h->rtl, row, &rtl_valid, &rtl_dirty, &rtl_fill);
        if (valid != rtl_valid || dirty != rtl_dirty || fill != rtl_fill) {
            mismatch(h, "RTL", "%s: row %u: valid bits (bank b = bit b) model 0x%x, RTL 0x%x; dirty model 0x%x, RTL 0x%x; "
                     "fill lengths (bank b at bits 2b+1..2b) model 0x%x, RTL 0x%x",
                     when, row, valid, rtl_valid, dirty, rtl_dirty, fill, rtl_fill);
        }
        /* Every valid slot: the tag and the line in the SRAMs. */
        for (unsigned bank = 0; bank < BANKS; bank++) {
            if (!((valid & slots) >> bank & 1)) {
                continue;
            }
            const stc_slot slot = slots_of_row[bank];
            uint64_t tag;
            uint8_t line[LINE_BYTES];
            if (dut_slot(h->rtl, bank, row, &tag, line, LINE_BYTES) != 0) {
                fprintf(stderr, "lockstep: the SRAM arrays have an unexpected shape\n");
                exit(2);
            }
            if (tag != slot.tag) {
                mismatch(h, "RTL", "%s: bank %u row %u: tag SRAM 0x%" PRIx64 ", model 0x%" PRIx64
                                " (line 0x%08" PRIx64 ")",
                         when, bank, row, tag, slot.tag, slot.line_addr);
            }
            bool line_equal = memcmp(line, slot.data, LINE_BYTES) == 0;
            for (unsigned byte = 0; !line_equal && byte < LINE_BYTES; byte++) {
                if (line[byte] != slot.data[byte]) {
                    mismatch(h, "RTL", "%s: bank %u row %u (line 0x%08" PRIx64 "), byte %u: data SRAM 0x%02x, model 0x%02x",
                             when, bank, row, slot.line_addr, byte, line[byte], slot.data[byte]);
                }
            }
        }
    }
}

void compare_config(harness *h, const char *when)
{
    const stc_config *c = stc_cache_config(h->model);
    if ((1u << h->pins.cur_banks_log) != c->banks_on || (1u << h->pins.cur_ways_log) != c->ways ||
        (1u << h->pins.cur_sub_log) != c->sublines || h->pins.cur_wp != (unsigned)c->way_predict) {
        char name[STC_CONFIG_NAME_MAX];
        config_name(h, c, name, sizeof name);
        mismatch(h, "RTL", "%s: configuration outputs k=%u a=%u L=%u wp=%u, model %s", when,
                 1u << h->pins.cur_banks_log, 1u << h->pins.cur_ways_log, 1u << h->pins.cur_sub_log,
                 h->pins.cur_wp, name);
    }
}

void compare_images(harness *h)
{
    const memory_image *images[2] = {&h->model_mem, &h->rtl_mem};
    for (unsigned which = 0; which < 2; which++) {
        const memory_image *image = images[which];
        for (uint64_t page = 0; page < h->shadow.page_count; page++) {
            const uint8_t *a = image->pages[page], *s = h->shadow.pages[page];
            if (!a && !s) {
                continue;
            }
            for (unsigned byte = 0; byte < PAGE_BYTES; byte++) {
                uint64_t addr = (page << PAGE_BITS) + byte;
                uint8_t got = a ? a[byte] : pattern_byte(addr);
                uint8_t want = s ? s[byte] : pattern_byte(addr);
                if (got != want) {
                    mismatch(h, which ? "RTL" : "MODEL",
                             "checkpoint: the %s memory image differs from the shadow at 0x%08" PRIx64
                             ": 0x%02x, shadow 0x%02x (a write lost or stale data written back)",
                             image->name, addr, got, want);
                }
            }
        }
    }
}
