/* search.c - the tuner's search state machine (search.h, docs/TUNING.md). */
#include "search.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { PHASE_START, PHASE_WALK, PHASE_EXHAUSTIVE, PHASE_DONE };

static const char *const param_names[STC_PARAM_COUNT] = {
    [STC_PARAM_SIZE] = "size",
    [STC_PARAM_LINE] = "line",
    [STC_PARAM_ASSOC] = "assoc",
    [STC_PARAM_WAY_PREDICT] = "wp",
};

stc_search_plan stc_search_plan_seed(void)
{
    stc_search_plan plan = {
        STC_SEARCH_HEURISTIC,
        {STC_PARAM_SIZE, STC_PARAM_LINE, STC_PARAM_ASSOC, STC_PARAM_WAY_PREDICT},
        false,
        0,
        false,
    };
    return plan;
}

const char *stc_param_name(stc_param param)
{
    return (unsigned)param < STC_PARAM_COUNT ? param_names[param] : "?";
}

int stc_search_order_parse(const char *text, stc_param order[STC_PARAM_COUNT], char *err,
                           size_t err_len)
{
    bool seen[STC_PARAM_COUNT] = {false};
    size_t count = 0;
    const char *cursor = text;
    for (;;) {
        const char *comma = strchr(cursor, ',');
        size_t len = comma ? (size_t)(comma - cursor) : strlen(cursor);
        int found = -1;
        for (int param = 0; param < STC_PARAM_COUNT; param++) {
            if (strlen(param_names[param]) == len && !strncmp(cursor, param_names[param], len)) {
                found = param;
            }
        }
        if (found < 0) {
            snprintf(err, err_len,
                     "order '%s': '%.*s' is not a parameter (expected size, line, assoc, wp)",
                     text, (int)(len > 32 ? 32 : len), cursor);
            return -1;
        }
        if (seen[found]) {
            snprintf(err, err_len, "order '%s': '%s' appears twice", text, param_names[found]);
            return -1;
        }
        if (count == STC_PARAM_COUNT) {
            break; /* cannot happen: a fifth name would repeat one */
        }
        seen[found] = true;
        order[count++] = (stc_param)found;
        if (!comma) {
            break;
        }
        cursor = comma + 1;
    }
    if (count != STC_PARAM_COUNT) {
        snprintf(err, err_len, "order '%s': name all four parameters (size, line, assoc, wp) once",
                 text);
        return -1;
    }
    return 0;
}

void stc_search_order_format(const stc_param order[STC_PARAM_COUNT], char *buf, size_t buf_len)
{
    snprintf(buf, buf_len, "%s,%s,%s,%s", stc_param_name(order[0]), stc_param_name(order[1]),
             stc_param_name(order[2]), stc_param_name(order[3]));
}

/* Where the heuristic begins: every parameter at its smallest legal value,
 * so every later step grows something (no shrink walk, the seed's point);
 * or, descending, every parameter at its largest. */
static stc_config start_config(const stc_geometry *geometry, bool descending)
{
    stc_config config = {1, 1, 1, false};
    if (descending) {
        config.banks_on = geometry->banks;
        config.ways = geometry->banks;
        config.sublines = STC_MAX_SUBLINES;
        config.way_predict = geometry->banks > 1;
    }
    return config;
}

/*
 * One step of param away from its start value. Returns false when the walk
 * cannot go on: the parameter is at its end, or the next value is legal
 * only if another parameter were raised (more ways than powered banks, way
 * prediction with one way). Raising another parameter would smuggle a
 * second change into a one-parameter walk, so the walk ends instead (the
 * seed: "at 2 KB only direct-mapped"). Lowering one does not hide a choice,
 * because the lowered parameter is at the bound the walked one imposes:
 * shrinking the size drags the ways down to the new bank count, and a
 * single way turns way prediction off. Without it a descending size walk
 * from 8K_4W could never leave 8K.
 */
static bool step(const stc_geometry *geometry, const stc_config *from, stc_param param,
                 bool descending, stc_config *out)
{
    stc_config next = *from;
    switch (param) {
    case STC_PARAM_SIZE:
        if (!descending) {
            if (next.banks_on * 2 > geometry->banks) {
                return false;
            }
            next.banks_on *= 2;
        } else {
            if (next.banks_on == 1) {
                return false;
            }
            next.banks_on /= 2;
            if (next.ways > next.banks_on) {
                next.ways = next.banks_on;
            }
        }
        break;
    case STC_PARAM_LINE:
        if (!descending) {
            if (next.sublines * 2 > STC_MAX_SUBLINES) {
                return false;
            }
            next.sublines *= 2;
        } else {
            if (next.sublines == 1) {
                return false;
            }
            next.sublines /= 2;
        }
        break;
    case STC_PARAM_ASSOC:
        if (!descending) {
            if (next.ways * 2 > next.banks_on) {
                return false;
            }
            next.ways *= 2;
        } else {
            if (next.ways == 1) {
                return false;
            }
            next.ways /= 2;
        }
        break;
    case STC_PARAM_WAY_PREDICT:
        if (!descending) {
            if (next.way_predict || next.ways == 1) {
                return false;
            }
            next.way_predict = true;
        } else {
            if (!next.way_predict) {
                return false;
            }
            next.way_predict = false;
        }
        break;
    default:
        return false;
    }
    if (next.ways == 1) {
        next.way_predict = false;
    }
    if (stc_config_check(geometry, &next) != NULL) {
        return false;
    }
    *out = next;
    return true;
}

int stc_search_start(stc_search *search, const stc_geometry *geometry,
                     const stc_search_plan *plan, char *err, size_t err_len)
{
    memset(search, 0, sizeof *search);
    if (plan->kind != STC_SEARCH_HEURISTIC && plan->kind != STC_SEARCH_EXHAUSTIVE &&
        plan->kind != STC_SEARCH_PROBE && plan->kind != STC_SEARCH_MONITOR) {
        snprintf(err, err_len, "unknown search kind %d", (int)plan->kind);
        return -1;
    }
    if (plan->kind == STC_SEARCH_HEURISTIC) {
        bool seen[STC_PARAM_COUNT] = {false};
        for (int index = 0; index < STC_PARAM_COUNT; index++) {
            unsigned param = (unsigned)plan->order[index];
            if (param >= STC_PARAM_COUNT || seen[param]) {
                snprintf(err, err_len,
                         "search order is not a permutation of size, line, assoc, wp");
                return -1;
            }
            seen[param] = true;
        }
    }
    search->geometry = *geometry;
    search->plan = *plan;
    if (plan->kind != STC_SEARCH_HEURISTIC) {
        search->all_count = stc_config_enumerate(geometry, search->all, STC_MAX_CONFIGS);
        if (plan->descending) {
            for (size_t low = 0, high = search->all_count - 1; low < high; low++, high--) {
                stc_config swap = search->all[low];
                search->all[low] = search->all[high];
                search->all[high] = swap;
            }
        }
        search->phase = PHASE_EXHAUSTIVE;
        search->best = search->all[0];
    } else {
        search->phase = PHASE_START;
        search->best = start_config(geometry, plan->descending);
    }
    return 0;
}

static const stc_search_entry *find_examined(const stc_search *search, const stc_config *config)
{
    for (size_t index = 0; index < search->examined_count; index++) {
        if (stc_config_equal(&search->examined[index].config, config)) {
            return &search->examined[index];
        }
    }
    return NULL;
}

/* The walk's test: strictly lower, by more than the plan's margin. The
 * margin is floor(best / 2^m), the shift-and-subtract the hardware does on
 * its integer energies. */
static bool lower(const stc_search *search, double energy)
{
    double threshold = search->best_energy;
    if (search->plan.margin_shift) {
        threshold -= floor(ldexp(search->best_energy, -(int)search->plan.margin_shift));
    }
    return energy < threshold;
}

/* Take the energy of the current candidate and decide what comes next. */
static void decide(stc_search *search, double energy)
{
    const stc_config *candidate = &search->candidate;
    if (search->remeasuring) {
        search->remeasuring = false;
        search->stale = false;
        search->best_energy = energy;
        search->remeasures++;
        return;
    }
    switch (search->phase) {
    case PHASE_START:
        search->best = *candidate;
        search->best_energy = energy;
        search->have_best = true;
        search->phase = PHASE_WALK;
        search->param_index = 0;
        break;
    case PHASE_WALK:
        if (lower(search, energy)) {
            /* Still dropping: keep this value, try the next one. */
            search->best = *candidate;
            search->best_energy = energy;
        } else {
            /* Not lower (equal included): keep the previous value. */
            search->param_index++;
            search->stale = search->plan.remeasure;
        }
        break;
    case PHASE_EXHAUSTIVE:
        if (!search->have_best || energy < search->best_energy) {
            search->best = *candidate;
            search->best_energy = energy;
            search->have_best = true;
        }
        search->exhaustive_index++;
        break;
    default:
        break;
    }
}

/* The next configuration the plan wants, whether measured before or not;
 * false when the search is over. */
static bool propose(stc_search *search, stc_config *out)
{
    switch (search->phase) {
    case PHASE_START:
        *out = search->best;
        return true;
    case PHASE_WALK:
        while (search->param_index < STC_PARAM_COUNT) {
            if (step(&search->geometry, &search->best, search->plan.order[search->param_index],
                     search->plan.descending, out)) {
                if (search->stale) {
                    /* A candidate follows a rejected one: measure the best
                     * again first, so the two compared windows are adjacent. */
                    *out = search->best;
                    search->remeasuring = true;
                }
                return true;
            }
            search->param_index++;
        }
        search->phase = PHASE_DONE;
        return false;
    case PHASE_EXHAUSTIVE:
        if (search->exhaustive_index < search->all_count) {
            *out = search->all[search->exhaustive_index];
            return true;
        }
        search->phase = PHASE_DONE;
        return false;
    default:
        return false;
    }
}

bool stc_search_next(stc_search *search, stc_config *candidate)
{
    if (search->pending) {
        *candidate = search->candidate;
        return true;
    }
    while (propose(search, &search->candidate)) {
        const stc_search_entry *known =
            search->remeasuring ? NULL : find_examined(search, &search->candidate);
        if (!known) {
            search->pending = true;
            *candidate = search->candidate;
            return true;
        }
        decide(search, known->energy);
    }
    return false;
}

int stc_search_report(stc_search *search, double energy)
{
    if (!search->pending || search->examined_count == STC_MAX_CONFIGS) {
        return -1;
    }
    search->pending = false;
    if (!search->remeasuring) {
        stc_search_entry *entry = &search->examined[search->examined_count++];
        entry->config = search->candidate;
        entry->energy = energy;
    }
    decide(search, energy);
    return 0;
}

bool stc_search_remeasuring(const stc_search *search)
{
    return search->pending && search->remeasuring;
}

size_t stc_search_remeasures(const stc_search *search)
{
    return search->remeasures;
}

bool stc_search_done(const stc_search *search)
{
    return search->phase == PHASE_DONE;
}

stc_config stc_search_best(const stc_search *search)
{
    return search->best;
}

double stc_search_best_energy(const stc_search *search)
{
    return search->best_energy;
}

size_t stc_search_examined(const stc_search *search, const stc_search_entry **entries)
{
    if (entries) {
        *entries = search->examined;
    }
    return search->examined_count;
}
