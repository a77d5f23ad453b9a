/*
 * snooptb_model.c - stcsnooptb's second traffic: the snoop port written as
 * a controller following ARCHITECTURE.md 19.4's contract would write it
 * from the coherent stc model's own slots, and every snoop's expected
 * answer taken from that model (stc_cache_lookup, stc_cstc_state_of), not
 * from the candidate rule the first traffic's reference implements. A
 * snoop covers a run of 1-4 lines of one aligned group of 4 (the hot
 * lines are in the rows of a few groups), each line's answer the model's;
 * the model does not see the port's snoops, so every port slot a snoop
 * changed is set back to the model's state by a controller write after it.
 */
#include "snooptb.h"
#include "tb_common.h"

#include "cache.h"
#include "config.h"
#include "coherent_stc.h"

#include <stdio.h>
#include <stdlib.h>

enum {
    MODEL_CORES = 3,
    MODEL_REFERENCES = 1500,
    HOT_LINES = 24,
    HOT_GROUPS = 3, /* aligned groups of rows the hot lines are in */
    SNOOPS_PER_REFERENCE = 2
};

/* What the port's array should hold for one slot of core 0. */
typedef struct {
    bool valid;
    uint64_t tag;
    unsigned code;
} slot_view;

static slot_view view_of(const reference *ref, const stc_cstc_system *system, unsigned bank,
                         unsigned row)
{
    stc_slot slot;
    stc_cache_slot(stc_cstc_cache(system, 0), bank, row, &slot);
    slot_view view = {slot.valid, slot.tag, 0};
    if (slot.valid) {
        view.code = stc_coh_state_code(ref->table, stc_cstc_state_of(system, 0, slot.line_addr));
    }
    return view;
}

/* The configuration inputs: core 0's configuration in use. */
static void set_config(const stc_cstc_system *system, cycle_in *in)
{
    const stc_config *config = stc_cache_config(stc_cstc_cache(system, 0));
    in->banks_log = tb_bits_for(config->banks_on);
    in->ways_log = tb_bits_for(config->ways);
}

/* Write every slot of core 0 that differs from what the port holds (seen),
 * one cycle each: valid lines with their tag and state, others I. */
static void write_changes(const reference *ref, const stc_cstc_system *system, slot_view *seen,
                          cycle_in *in, coverage *cov, bool print, unsigned long *number)
{
    const stc_geometry *g = ref->geometry;
    for (unsigned row = 0; row < g->rows; row++) {
        for (unsigned bank = 0; bank < g->banks; bank++) {
            slot_view now = view_of(ref, system, bank, row);
            slot_view *was = &seen[(size_t)row * g->banks + bank];
            bool changed = now.valid != was->valid ||
                           (now.valid && (now.tag != was->tag || now.code != was->code));
            if (!changed) {
                continue;
            }
            *in = (cycle_in){.banks_log = in->banks_log, .ways_log = in->ways_log,
                             .wr_valid = true, .wr_row = row, .wr_banks = 1u << bank,
                             .wr_state = now.valid ? now.code : 0, .wr_set_tag = now.valid,
                             .wr_tag = now.valid ? now.tag : 0};
            cycle_out quiet = snooptb_quiet();
            if (print) {
                print_cycle(ref, in, &quiet, *number);
            }
            (*number)++;
            cov->slot_writes++;
            *was = now;
        }
    }
}

/* A line's answer: what the model holds of the line at addr (its lookup's
 * bank, its state), and the table's row for that state and bus. */
static line_out model_answer(const reference *ref, const stc_cstc_system *system, uint64_t addr,
                             unsigned bus, coverage *cov)
{
    line_out out = {0};
    int bank = stc_cache_lookup(stc_cstc_cache(system, 0), addr);
    stc_coh_state state = stc_cstc_state_of(system, 0, addr);
    if (bank >= 0 && state != STC_COH_I) {
        out.hit = true;
        out.bank = (unsigned)bank;
        out.state = stc_coh_state_code(ref->table, state);
        cov->hits++;
    }
    snooptb_answer_row(ref, bus, &out, cov);
    return out;
}

/* A snoop of the lines of line's group whose bus code (buses[p] for
 * position p) is not 0: every answer is the model's. */
static void snoop_group(const reference *ref, const stc_cstc_system *system, uint64_t line,
                        const unsigned *buses, cycle_in *in, coverage *cov, bool print,
                        unsigned long *number)
{
    const stc_geometry *g = ref->geometry;
    *in = (cycle_in){.banks_log = in->banks_log, .ways_log = in->ways_log, .snp_valid = true,
                     .snp_line = line};
    cycle_out out = snooptb_quiet();
    for (unsigned position = 0; position < SNOOP_GROUP_LINES; position++) {
        in->snp_bus[position] = buses[position];
        if (buses[position] != 0) {
            uint64_t addr = snooptb_group_line(line, position) << g->offset_bits;
            out.line[position] = model_answer(ref, system, addr, buses[position], cov);
        }
    }
    snooptb_count_group(&out, cov);
    if (print) {
        print_cycle(ref, in, &out, *number);
    }
    (*number)++;
    /* The lookups are questions the model did not ask: the port wrote
     * each line's change itself (19.5), so each changed slot's state is
     * written back, as a controller's write, a cycle each. */
    for (unsigned position = 0; position < SNOOP_GROUP_LINES; position++) {
        const line_out *changed = &out.line[position];
        if (!changed->change) {
            continue;
        }
        unsigned row = (unsigned)(snooptb_group_line(line, position) & (g->rows - 1));
        cycle_in restore = {.banks_log = in->banks_log, .ways_log = in->ways_log,
                            .wr_valid = true, .wr_row = row,
                            .wr_banks = 1u << changed->bank, .wr_state = changed->state};
        cycle_out quiet = snooptb_quiet();
        if (print) {
            print_cycle(ref, &restore, &quiet, *number);
        }
        (*number)++;
        *in = restore;
    }
}

/* A snoop's lines: a run of 1-4 consecutive positions of the group (as a
 * burst), each with a bus transaction (buses[p], 0 outside the run). */
static void pick_run(uint64_t *seed, unsigned *buses)
{
    unsigned length = 1 + tb_below(seed, SNOOP_GROUP_LINES);
    unsigned first = tb_below(seed, SNOOP_GROUP_LINES - length + 1);
    for (unsigned position = 0; position < SNOOP_GROUP_LINES; position++) {
        bool in_run = position >= first && position < first + length;
        buses[position] = in_run ? 1 + tb_below(seed, 4) : 0;
    }
}

int snooptb_model_traffic(reference *ref, coverage *cov, bool print, unsigned long *number,
                          char *err, size_t err_len)
{
    const stc_geometry *g = ref->geometry;
    stc_cstc_config config = {.cores = MODEL_CORES, .geometry = *g,
                              .protocol = ref->table->protocol};
    for (unsigned c = 0; c < MODEL_CORES; c++) {
        config.configs[c] = stc_config_reset(g);
    }
    stc_cstc_system *system = stc_cstc_create(&config, err, err_len);
    if (!system) {
        return -1;
    }
    stc_config legal[STC_MAX_CONFIGS];
    size_t legal_count = stc_config_enumerate(g, legal, STC_MAX_CONFIGS);
    slot_view *seen = calloc((size_t)g->rows * g->banks, sizeof *seen);
    if (!seen) {
        stc_cstc_destroy(system);
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    uint64_t seed = 0x0dde110ull ^ ((uint64_t)g->banks << 20) ^ ref->table->protocol;
    /* The rows of a few aligned groups, many tags (half of them aliases of
     * the others in the top tag bit): lines that share rows, so the model's
     * caches evict, share, invalidate and (after reconfigurations) walk,
     * and a snoop of a group finds several of its lines held. */
    uint64_t hot[HOT_LINES];
    for (unsigned i = 0; i < HOT_LINES; i++) {
        uint64_t group_row = tb_below(&seed, HOT_GROUPS) * (g->rows / HOT_GROUPS) &
                             ~(uint64_t)(SNOOP_GROUP_LINES - 1);
        uint64_t row = group_row + tb_below(&seed, SNOOP_GROUP_LINES);
        uint64_t tag = tb_below(&seed, 8) + 1;
        if (tb_below(&seed, 2)) {
            tag |= 1ull << (g->tag_bits - 1); /* aliases in the top tag bit */
        }
        hot[i] = ((tag << g->row_bits | row) << g->offset_bits) &
                 (g->addr_bits >= 64 ? ~0ull : (1ull << g->addr_bits) - 1);
    }
    cycle_in in = {0};
    set_config(system, &in);
    snooptb_reset_walk(ref, &in, print, number);
    int status = 0;
    for (unsigned n = 0; n < MODEL_REFERENCES && status == 0; n++) {
        if (tb_below(&seed, 100) == 0) {
            const stc_config *next = &legal[tb_below(&seed, (unsigned)legal_count)];
            status = stc_cstc_reconfigure(system, 0, next, NULL);
            cov->reconfigs++;
        } else {
            unsigned core = tb_below(&seed, MODEL_CORES);
            bool store = tb_below(&seed, 10) < 4;
            uint64_t addr = hot[tb_below(&seed, HOT_LINES)] + 4 * tb_below(&seed, g->line_bytes / 4);
            status = stc_cstc_access(system, core, store ? STC_COH_OP_STORE : STC_COH_OP_LOAD,
                                     addr, 4, n + 1, NULL);
        }
        if (status != 0) {
            snprintf(err, err_len, "the model refused reference %u: %s", n,
                     stc_cstc_error(system));
            break;
        }
        set_config(system, &in);
        write_changes(ref, system, seen, &in, cov, print, number);
        for (unsigned k = 0; k < SNOOPS_PER_REFERENCE; k++) {
            uint64_t line = hot[tb_below(&seed, HOT_LINES)] >> g->offset_bits;
            unsigned buses[SNOOP_GROUP_LINES];
            pick_run(&seed, buses);
            snoop_group(ref, system, line, buses, &in, cov, print, number);
        }
    }
    free(seen);
    stc_cstc_destroy(system);
    return status;
}
