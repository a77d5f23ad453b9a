/* monitor_tuner.c - the monitor tuner's decision unit, its program and its
 * flops (monitor_tuner.h; docs/ARCHITECTURE.md section 18). */
#include "monitor_tuner.h"

#include "timing.h"
#include "tuner_hw.h"

#include <stdio.h>
#include <string.h>

#define ENERGY_MAX ((uint32_t)UINT32_MAX)

/* ---- The program ------------------------------------------------------ */

/* A group of steps: operand loads, then the products that use the loaded
 * operand (at most two: the probe and way prediction's second probe share
 * theirs). */
typedef struct {
    size_t load_count;
    stc_operand_op loads[STC_MONITOR_MAX_HIT_TERMS + 1];
    unsigned load_counts[STC_MONITOR_MAX_HIT_TERMS + 1];
    size_t mac_count;
    unsigned macs[2];
} step_group;

/* The builder's state: products still to run on the operand in the
 * register, and a configuration whose energy is complete once its last
 * product has run. */
typedef struct {
    stc_monitor_program *program;
    size_t pending_count;
    unsigned pending[2];
    bool pending_first;   /* pending[0] is its configuration's first product */
    bool close_pending;
    size_t close_after;   /* the step that runs the configuration's last product */
    unsigned close_code;
    bool overflow;
} builder;

static stc_monitor_step *append(builder *b)
{
    stc_monitor_program *program = b->program;
    if (program->step_count == STC_MONITOR_MAX_STEPS) {
        b->overflow = true;
        return &program->steps[STC_MONITOR_MAX_STEPS - 1];
    }
    size_t index = program->step_count++;
    stc_monitor_step *step = &program->steps[index];
    memset(step, 0, sizeof *step);
    if (b->close_pending && index > b->close_after) {
        step->close = true;
        step->config_code = b->close_code;
        b->close_pending = false;
    }
    return step;
}

/* Run the oldest pending product in this step. */
static void take_mac(builder *b, stc_monitor_step *step)
{
    if (b->pending_count == 0) {
        return;
    }
    step->mac = true;
    step->mac_first = b->pending_first;
    step->coefficient = b->pending[0];
    b->pending_first = false;
    b->pending[0] = b->pending[1];
    b->pending_count--;
}

/* Products of the previous group that must run before the operand
 * changes: all but the last in steps of their own. */
static void flush_all_but_last(builder *b)
{
    while (b->pending_count > 1) {
        take_mac(b, append(b));
    }
}

/* The group's loads, the previous group's products alongside; its own
 * products become pending. */
static void emit_group(builder *b, const step_group *group, bool first_of_config)
{
    flush_all_but_last(b);
    for (size_t index = 0; index < group->load_count; index++) {
        stc_monitor_step *step = append(b);
        step->operand = group->loads[index];
        step->count = group->load_counts[index];
        if (index == 0) {
            take_mac(b, step);
        }
    }
    b->pending_count = group->mac_count;
    memcpy(b->pending, group->macs, sizeof b->pending);
    b->pending_first = first_of_config;
}

/* Every pending product, then the pending close. */
static void drain(builder *b)
{
    while (b->pending_count > 0) {
        take_mac(b, append(b));
    }
    while (b->close_pending && !b->overflow) {
        append(b);
    }
}

/* The index of a coefficient in the program, added on first use. */
static unsigned coefficient(stc_monitor_program *program, uint16_t value, const char *name)
{
    for (size_t index = 0; index < program->coefficient_count; index++) {
        if (strcmp(program->coefficient_names[index], name) == 0) {
            return (unsigned)index;
        }
    }
    size_t index = program->coefficient_count;
    if (index == STC_MONITOR_MAX_COEFFICIENTS) {
        return (unsigned)index - 1; /* cannot happen: the bound covers every geometry */
    }
    program->coefficient_count++;
    program->coefficients[index] = value;
    snprintf(program->coefficient_names[index], sizeof program->coefficient_names[index], "%s",
             name);
    return (unsigned)index;
}

/* The groups of one configuration, in FIXED_POINT.md 9's order. */
static size_t config_groups(stc_monitor_program *program, const stc_geometry *geometry,
                            const stc_fixed_monitor_coefficients *coefficients, bool read_only,
                            const stc_config *config, const stc_monitor_count_map *map,
                            step_group groups[4])
{
    unsigned size_index = stc_log2(config->banks_on);
    unsigned ways_index = stc_log2(config->ways);
    unsigned line_index = stc_log2(config->sublines);
    char size[24], name[40];
    stc_tuner_size_name(geometry, size_index, size, sizeof size);
    size_t count = 0;
    memset(groups, 0, 4 * sizeof groups[0]);

    /* Misses: the watched accesses less the hits at depths below the ways
     * (ARCHITECTURE.md 17.2). The first term reads count 0 on the
     * monitor's own port in the same clock as the depth-0 hits: most
     * accesses are depth-0 hits, and reading the two a step apart would
     * miscount the access in between (watched_q, taken when the decision
     * started, would miss a hundred). */
    step_group *misses = &groups[count++];
    for (unsigned term = 0; term < map->hit_terms; term++) {
        misses->loads[term] = term == 0 ? STC_OPERAND_UNHIT : STC_OPERAND_SUB;
        misses->load_counts[term] = map->hits[term];
    }
    misses->load_count = map->hit_terms;
    snprintf(name, sizeof name, "miss_%s_%uB", size, geometry->line_bytes << line_index);
    misses->macs[misses->mac_count++] =
        coefficient(program, coefficients->miss[size_index][line_index], name);

    if (!read_only) {
        step_group *writebacks = &groups[count++];
        writebacks->loads[0] = STC_OPERAND_LOAD;
        writebacks->load_counts[0] = map->writebacks;
        writebacks->load_count = 1;
        snprintf(name, sizeof name, "writeback_%s", size);
        writebacks->macs[writebacks->mac_count++] =
            coefficient(program, coefficients->writeback[size_index], name);
    }

    step_group *probes = &groups[count++];
    probes->load_count = 1;
    snprintf(name, sizeof name, "probe_%s_%uW", size, config->ways);
    probes->macs[probes->mac_count++] =
        coefficient(program, coefficients->probe[size_index][ways_index], name);
    if (config->way_predict) {
        probes->loads[0] = STC_OPERAND_MISSED;
        probes->load_counts[0] = map->first_probe_hits;
        snprintf(name, sizeof name, "second_probe_%s", size);
        probes->macs[probes->mac_count++] =
            coefficient(program, coefficients->second_probe[size_index], name);

        step_group *first_probes = &groups[count++];
        first_probes->loads[0] = STC_OPERAND_HIT;
        first_probes->load_counts[0] = map->first_probe_hits;
        first_probes->load_count = 1;
        snprintf(name, sizeof name, "probe_%s_1W", size);
        first_probes->macs[first_probes->mac_count++] =
            coefficient(program, coefficients->probe[size_index][0], name);
    } else {
        probes->loads[0] = STC_OPERAND_WATCHED;
    }
    return count;
}

int stc_monitor_program_build(const stc_monitor *monitor, const stc_geometry *geometry,
                              const stc_fixed_monitor_coefficients *coefficients,
                              bool read_only, bool way_prediction,
                              stc_monitor_program *program, char *err, size_t err_len)
{
    memset(program, 0, sizeof *program);
    program->nj_per_unit = coefficients->nj_per_unit;
    stc_config configs[STC_MAX_CONFIGS];
    size_t config_count = stc_config_enumerate(geometry, configs, STC_MAX_CONFIGS);
    builder b = {.program = program};
    for (size_t index = 0; index < config_count; index++) {
        if (configs[index].way_predict && !way_prediction) {
            continue; /* the controller would refuse it (ARCHITECTURE.md 15.2) */
        }
        stc_monitor_count_map map;
        if (stc_monitor_count_map_of(monitor, &configs[index], &map) != 0) {
            char name[STC_CONFIG_NAME_MAX];
            stc_config_name(geometry, &configs[index], name, sizeof name);
            snprintf(err, err_len, "the monitor has no mapping for %s", name);
            return -1;
        }
        step_group groups[4];
        size_t group_count =
            config_groups(program, geometry, coefficients, read_only, &configs[index], &map, groups);
        for (size_t group = 0; group < group_count; group++) {
            emit_group(&b, &groups[group], group == 0);
            if (group == group_count - 1) {
                /* The configuration's last product runs with the next
                 * group's first load (or in drain); its close after it. */
                b.close_pending = true;
                b.close_after = program->step_count + (b.pending_count > 1 ? 1 : 0);
                b.close_code = stc_tuner_config_pack(&configs[index]);
            }
        }
        program->config_count++;
    }
    drain(&b);
    append(&b); /* the decision */
    if (b.overflow) {
        snprintf(err, err_len, "the decision needs more than %d steps", STC_MONITOR_MAX_STEPS);
        return -1;
    }
    return 0;
}

/* ---- The unit --------------------------------------------------------- */

int stc_monitor_tuner_reset(stc_monitor_tuner *tuner, const stc_monitor_tuner_build *build,
                            const stc_monitor_program *program, char *err, size_t err_len)
{
    if (build->window < 2 || build->window > 65536) {
        snprintf(err, err_len, "decision window %lu: must be from 2 to 65536",
                 (unsigned long)build->window);
        return -1;
    }
    if (build->margin > 16) {
        snprintf(err, err_len, "decision margin %u: must be from 0 to 16", build->margin);
        return -1;
    }
    if (build->walk_min > 0xffff) {
        snprintf(err, err_len, "walk evidence %u: must be from 0 to 65535 watched accesses",
                 (unsigned)build->walk_min);
        return -1;
    }
    memset(tuner, 0, sizeof *tuner);
    tuner->build = *build;
    tuner->program = program;
    tuner->q.enable = 1;
    tuner->q.lowest = ENERGY_MAX;
    tuner->q.current = ENERGY_MAX;
    return 0;
}

void stc_monitor_tuner_outputs(const stc_monitor_tuner *tuner, stc_monitor_tuner_out *out)
{
    out->busy = tuner->q.pending || tuner->q.sent;
    out->cfg_valid = tuner->q.pending != 0;
    out->cfg_code = tuner->q.target;
}

unsigned stc_monitor_tuner_count_select(const stc_monitor_tuner *tuner)
{
    return tuner->q.deciding ? tuner->program->steps[tuner->q.step].count : 0;
}

bool stc_monitor_tuner_last_step(const stc_monitor_tuner *tuner)
{
    return tuner->q.deciding && tuner->q.step + 1 == tuner->program->step_count;
}

uint32_t stc_monitor_tuner_read(const stc_monitor_tuner *tuner, unsigned addr)
{
    const stc_monitor_tuner_regs *q = &tuner->q;
    switch (addr) {
    case STC_MREG_CTRL:
        return q->enable;
    case STC_MREG_STATUS:
        return (q->pending || q->sent) | q->deciding << 1 | q->decisions << 8 | q->changes << 16;
    case STC_MREG_CHOICE:
        return q->lowest_code;
    case STC_MREG_LOWEST:
        return q->lowest;
    case STC_MREG_CURRENT:
        return q->current;
    default:
        return 0;
    }
}

/* Whether the cache walks its banks when it moves from configuration from
 * to configuration to (both packed): fewer banks, or more bank groups
 * (ARCHITECTURE.md section 7). */
static bool change_walks(unsigned from, unsigned to)
{
    stc_config before = stc_tuner_config_unpack(from), after = stc_tuner_config_unpack(to);
    return after.banks_on < before.banks_on ||
           stc_config_groups(&after) > stc_config_groups(&before);
}

/* One step of the decision on the flops q, into d. */
static void run_step(const stc_monitor_tuner *tuner, const stc_monitor_tuner_in *in,
                     stc_monitor_tuner_regs *d)
{
    const stc_monitor_tuner_regs *q = &tuner->q;
    const stc_monitor_program *program = tuner->program;
    if (q->step == program->step_count - 1) {
        /* The decision: lower than the current energy less its margin.
         * This step reads count 0 (watched accesses) again; it only falls
         * when the monitor halves every count (section 17.2), and a
         * halving inside the decision leaves energies that mix counts from
         * before and after it (the probe terms of watched_q against halved
         * misses): such a decision offers nothing. */
        d->deciding = 0;
        d->decisions = (q->decisions + 1) & 0xff;
        unsigned margin = tuner->build.margin;
        uint32_t bar = margin ? q->current - (q->current >> margin) : q->current;
        bool halved = in->count < q->watched;
        bool hasty = change_walks(in->current_code, q->lowest_code) &&
                     q->watched < tuner->build.walk_min;
        if (q->lowest < bar && !halved && !hasty) {
            d->pending = 1;
            d->target = q->lowest_code;
            d->changes = (q->changes + 1) & 0xff;
        }
        return;
    }
    const stc_monitor_step *step = &program->steps[q->step];
    uint32_t count = in->count;
    uint32_t hits = count < q->watched ? count : q->watched;
    switch (step->operand) {
    case STC_OPERAND_KEEP:
        break;
    case STC_OPERAND_LOAD:
        d->operand = count;
        break;
    case STC_OPERAND_SUB:
        d->operand = q->operand - (count < q->operand ? count : q->operand);
        break;
    case STC_OPERAND_MISSED:
        d->operand = q->watched - hits;
        break;
    case STC_OPERAND_HIT:
        d->operand = hits;
        break;
    case STC_OPERAND_WATCHED:
        d->operand = q->watched;
        break;
    case STC_OPERAND_UNHIT:
        d->operand = in->watched - (count < in->watched ? count : in->watched);
        break;
    }
    if (step->mac) {
        d->energy = stc_fixed_multiply_accumulate(step->mac_first ? 0 : q->energy,
                                                  (uint16_t)q->operand,
                                                  program->coefficients[step->coefficient]);
    }
    if (step->close) {
        if (q->energy < q->lowest) {
            d->lowest = q->energy;
            d->lowest_code = step->config_code;
        }
        if (step->config_code == in->current_code) {
            d->current = q->energy;
        }
    }
    d->step = q->step + 1;
}

void stc_monitor_tuner_step(stc_monitor_tuner *tuner, const stc_monitor_tuner_in *in)
{
    const stc_monitor_tuner_regs *q = &tuner->q;
    stc_monitor_tuner_regs d = *q;
    if (in->reg_we && in->reg_addr == STC_MREG_CTRL) {
        d.enable = in->reg_wdata & 1;
    }
    bool answered = in->cfg_done || in->cfg_err;
    if (q->pending && in->cfg_ready) {
        d.pending = 0;
        d.sent = !answered;
    } else if (q->sent && answered) {
        d.sent = 0;
    }
    if (in->ev_access) {
        bool window_end = q->win + 1 == tuner->build.window;
        d.win = window_end ? 0 : q->win + 1;
        if (q->deciding) {
            run_step(tuner, in, &d);
        } else if (window_end && q->enable && !q->pending && !q->sent) {
            /* A window with nothing watched (the clear walk's start)
             * decides nothing. */
            d.watched = in->count;
            d.deciding = in->count != 0;
            d.step = 0;
            d.lowest = ENERGY_MAX;
            d.current = ENERGY_MAX;
        }
    }
    tuner->q = d;
}
