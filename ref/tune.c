/* tune.c - oracle and as-hardware tuning around the search machine (tune.h,
 * docs/TUNING.md). */
#include "tune.h"

#include "monitor.h"
#include "monitor_tuner.h"
#include "monitor_twin.h"
#include "tuner_hw.h"

#include "sweep.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void stc_tune_baselines(const stc_geometry *geometry, stc_config baselines[STC_TUNE_BASELINES])
{
    stc_config all_ways = {geometry->banks, geometry->banks, 2, false};
    stc_config direct = {geometry->banks, 1, 2, false};
    baselines[0] = all_ways;
    baselines[1] = direct;
}

/* ---- Oracle mode ---------------------------------------------------- */

int stc_oracle_table_fill(stc_oracle_table *oracle, const stc_stack_sweep *sweep,
                          const stc_energy_table *table, stc_cache_kind kind)
{
    memset(oracle, 0, sizeof *oracle);
    oracle->count = stc_config_enumerate(&table->geometry, oracle->configs, STC_MAX_CONFIGS);
    for (size_t index = 0; index < oracle->count; index++) {
        if (stc_stack_sweep_counters(sweep, &oracle->configs[index], kind,
                                     &oracle->counters[index]) != 0) {
            return -1;
        }
        oracle->energy[index] =
            stc_energy_of(table, &oracle->configs[index], &oracle->counters[index]);
    }
    return 0;
}

long stc_oracle_table_find(const stc_oracle_table *oracle, const stc_config *config)
{
    for (size_t index = 0; index < oracle->count; index++) {
        if (stc_config_equal(&oracle->configs[index], config)) {
            return (long)index;
        }
    }
    return -1;
}

/* Run one search to its end with energies looked up in the table. */
static int search_table(const stc_oracle_table *oracle, const stc_geometry *geometry,
                        const stc_search_plan *plan, stc_config *best, size_t *examined,
                        char *err, size_t err_len)
{
    stc_search search;
    if (stc_search_start(&search, geometry, plan, err, err_len) != 0) {
        return -1;
    }
    stc_config candidate;
    while (stc_search_next(&search, &candidate)) {
        long index = stc_oracle_table_find(oracle, &candidate);
        if (index < 0) {
            snprintf(err, err_len, "the oracle has no energy for a candidate (geometry mismatch)");
            return -1;
        }
        stc_search_report(&search, oracle->energy[index].total_nj);
    }
    *best = stc_search_best(&search);
    *examined = stc_search_examined(&search, NULL);
    return 0;
}

int stc_oracle_search(const stc_oracle_table *oracle, const stc_geometry *geometry,
                      const stc_search_plan *plan, stc_oracle_choice *choice, char *err,
                      size_t err_len)
{
    memset(choice, 0, sizeof *choice);
    size_t ignored;
    stc_search_plan exhaustive = {.kind = STC_SEARCH_EXHAUSTIVE, .order = {0, 1, 2, 3}};
    if (search_table(oracle, geometry, plan, &choice->chosen, &choice->examined, err,
                     err_len) != 0 ||
        search_table(oracle, geometry, &exhaustive, &choice->optimum, &ignored, err,
                     err_len) != 0) {
        return -1;
    }
    choice->chosen_nj = oracle->energy[stc_oracle_table_find(oracle, &choice->chosen)].total_nj;
    choice->optimum_nj = oracle->energy[stc_oracle_table_find(oracle, &choice->optimum)].total_nj;
    return 0;
}

/* ---- As-hardware mode ----------------------------------------------- */

stc_tune_options stc_tune_options_default(void)
{
    stc_tune_options options;
    memset(&options, 0, sizeof options);
    options.plan = stc_search_plan_seed();
    /* Room in the 16-bit cycle counter for 64 cycles per access on
     * average: no window of the 13 real traces saturates. */
    options.window = 1024;
    options.probe_rounds = 1;
    /* The monitor at a size hardware can afford (TUNING.md 8): a quarter
     * of the sets, moving every 20480 accesses, 6-bit tags. */
    options.monitor_sample_bits = STC_MONITOR_DEFAULT_SAMPLE_BITS;
    options.monitor_rotate = STC_MONITOR_DEFAULT_ROTATE;
    options.monitor_tag_bits = STC_MONITOR_DEFAULT_TAG_BITS;
    options.monitor_counter_bits = STC_MONITOR_DEFAULT_COUNTER_BITS;
    options.monitor_walk_min = STC_MONITOR_TUNER_DEFAULT_WALK_MIN;
    /* The generated controller's walk moves lines (stcgen's default,
     * ARCHITECTURE.md 7). */
    options.walk_moves = true;
    return options;
}

const char *stc_tune_options_check(const stc_tune_options *options)
{
    if (options->probe_rounds == 0 || options->probe_rounds > 64) {
        return "the probe rounds must be 1..64";
    }
    if (options->window == 0) {
        return "the measurement window must be at least 1 access";
    }
    if (options->monitor_decay > 16) {
        return "the monitor decay must be 0..16";
    }
    /* The monitor's shape (sample, tag and counter bits) is checked where
     * the geometry is known: stc_monitor_create. */
    if (options->plan.kind != STC_SEARCH_HEURISTIC && options->plan.kind != STC_SEARCH_EXHAUSTIVE &&
        options->plan.kind != STC_SEARCH_PROBE && options->plan.kind != STC_SEARCH_MONITOR) {
        return "unknown search kind";
    }
    return NULL;
}

struct stc_tuned_cache {
    stc_geometry geometry;
    stc_cache_kind kind;
    stc_cache *cache;
    stc_energy_table table;
    stc_fixed_coefficients coefficients;
    stc_tune_options options;

    bool searching;
    bool warming;              /* in the unmeasured accesses after a change */
    stc_search search;
    /* Energy per access of each examined candidate in its own window
     * (parallel to the search's examined list), for the estimate of what
     * the chosen configuration would have cost while searching. */
    double candidate_rate[STC_MAX_CONFIGS];
    uint64_t this_search_accesses;

    /* After a search: the phase reference and the chosen configuration's
     * measured cost. */
    bool have_reference;
    uint16_t reference_misses;
    uint64_t since_search;     /* accesses since the search ended */
    double monitor_nj;
    uint64_t monitor_accesses;
    bool estimate_open;        /* a search whose estimate is not yet settled */

    /* Probe search (STC_SEARCH_PROBE): the probe configurations, the one
     * being measured, and every configuration's estimated window energy. */
    size_t probe_count;
    stc_config probes[STC_MAX_CONFIGS];
    size_t probe_index;
    size_t config_count;
    stc_config configs[STC_MAX_CONFIGS];
    uint32_t estimate[STC_MAX_CONFIGS];
    bool estimated[STC_MAX_CONFIGS];
    stc_config probe_choice;
    uint64_t window_depths[STC_MAX_BANKS];

    /* Monitor search (STC_SEARCH_MONITOR): the shadow tags and the
     * coefficients of its decisions. */
    stc_monitor_twin twin; /* the decision unit stepped once per access */

    double walk_move_nj;       /* one line moved by a walk (options.walk_moves) */
    double walk_row_end_nj;    /* the cycle ending a walked row with moves */
    uint64_t changes;          /* reconfigurations that changed the configuration */
    stc_timeline *timeline;    /* NULL unless options.timeline_interval */

    stc_tuned_report report;
};

/* Charge the counters gathered since the last clear as one segment in the
 * current configuration, clear them, and return the segment. */
static stc_counters harvest(stc_tuned_cache *tuned, stc_energy *energy)
{
    stc_counters segment = *stc_cache_counters(tuned->cache);
    *energy = stc_energy_of(&tuned->table, stc_cache_config(tuned->cache), &segment);
    stc_counters_add(&tuned->report.counters, &segment);
    stc_energy_add(&tuned->report.energy, energy);
    stc_cache_clear_counters(tuned->cache);
    return segment;
}

/* Put the cache in config, as the tuner does: reconfigure (wake, walk,
 * writebacks), charge the change as its own segment, and leave the
 * counters clear for the next window. */
static void apply(stc_tuned_cache *tuned, const stc_config *config)
{
    tuned->changes += !stc_config_equal(config, stc_cache_config(tuned->cache));
    stc_reconfig_result change;
    stc_cache_reconfigure(tuned->cache, config, &change);
    stc_energy energy;
    stc_counters walk = harvest(tuned, &energy);
    if (change.moves) {
        /* No counter holds the moves (the counters are the RTL's), so
         * their line reads and writes are charged here, beside the
         * segment harvest charged; their cycles are in its counters. */
        stc_energy moved;
        memset(&moved, 0, sizeof moved);
        moved.reconfig_nj = (double)change.moves * tuned->walk_move_nj +
                            (double)change.moving_rows * tuned->walk_row_end_nj;
        moved.total_nj = moved.reconfig_nj;
        stc_energy_add(&tuned->report.energy, &moved);
        stc_energy_add(&energy, &moved);
        tuned->report.walk_moves += change.moves;
    }
    stc_counters_add(&tuned->report.walks, &walk);
    stc_energy_add(&tuned->report.walk_energy, &energy);
    if (tuned->searching) {
        stc_energy_add(&tuned->report.search_energy, &energy);
    }
    tuned->warming = tuned->options.warmup > 0;
}

/* Energy per access of the configuration the current (or last) search
 * settled on: measured after the search if a window followed, else in its
 * own search window. */
static double chosen_rate(const stc_tuned_cache *tuned)
{
    if (tuned->monitor_accesses) {
        return tuned->monitor_nj / (double)tuned->monitor_accesses;
    }
    stc_config best = stc_search_best(&tuned->search);
    const stc_search_entry *entries;
    size_t count = stc_search_examined(&tuned->search, &entries);
    for (size_t index = 0; index < count; index++) {
        if (stc_config_equal(&entries[index].config, &best)) {
            return tuned->candidate_rate[index];
        }
    }
    return 0.0;
}

static void settle_estimate(stc_tuned_cache *tuned)
{
    if (tuned->estimate_open) {
        tuned->report.search_at_chosen_nj +=
            chosen_rate(tuned) * (double)tuned->this_search_accesses;
        tuned->estimate_open = false;
    }
}

/* ---- The probe search ---------------------------------------------- */

/* One probe per set mapping and line: all banks powered, banks / g ways
 * (g = 1, 2, 4, ... set groups), way prediction on where there are two
 * ways or more. Its hits by LRU depth give every configuration of the same
 * (g, line) over the same window: k = g x a' banks with a' ways. */
static void probe_plan(stc_tuned_cache *tuned)
{
    const stc_geometry *geometry = &tuned->geometry;
    tuned->probe_count = 0;
    for (unsigned sublines = 1; sublines <= STC_MAX_SUBLINES; sublines *= 2) {
        for (unsigned groups = 1; groups <= geometry->banks; groups *= 2) {
            unsigned ways = geometry->banks / groups;
            stc_config probe = {geometry->banks, ways, sublines, ways > 1};
            if (stc_config_check(geometry, &probe) == NULL) {
                tuned->probes[tuned->probe_count++] = probe;
            }
        }
    }
    tuned->config_count = stc_config_enumerate(geometry, tuned->configs, STC_MAX_CONFIGS);
}

/* Estimate, from the probe window just measured (counters and hits by
 * depth), the window energy of every configuration with the probe's set
 * mapping and line. */
static void probe_estimate(stc_tuned_cache *tuned, const stc_config *probe,
                           const stc_counters *window, const uint64_t *depth_hits)
{
    unsigned groups = stc_config_groups(probe);
    uint64_t probe_extra = probe->way_predict ? window->accesses - window->first_probe_hits : 0;
    for (size_t index = 0; index < tuned->config_count; index++) {
        const stc_config *config = &tuned->configs[index];
        if (config->sublines != probe->sublines || stc_config_groups(config) != groups) {
            continue;
        }
        stc_counters estimate = *window;
        uint64_t deeper = 0;
        for (unsigned depth = config->ways; depth < probe->ways; depth++) {
            deeper += depth_hits[depth];
        }
        estimate.misses = window->misses + deeper;
        estimate.first_probe_hits = config->way_predict ? depth_hits[0] : 0;
        uint64_t extra = config->way_predict ? window->accesses - depth_hits[0] : 0;
        estimate.cycles = window->cycles + deeper * stc_line_miss_cycles(&tuned->geometry, probe->sublines) +
                          extra - probe_extra;
        stc_fixed_counters fixed = stc_fixed_counters_of(&estimate);
        tuned->estimate[index] = (tuned->estimated[index] ? tuned->estimate[index] : 0) +
                                 stc_fixed_energy(&tuned->coefficients, config, &fixed);
        tuned->estimated[index] = true;
    }
}

/* After the last probe: the lowest estimate, unless the configuration in
 * use before the search is within the margin of it. */
static stc_config probe_decide(const stc_tuned_cache *tuned, const stc_config *incumbent)
{
    size_t best = 0;
    bool have = false;
    long current = -1;
    for (size_t index = 0; index < tuned->config_count; index++) {
        if (!tuned->estimated[index]) {
            continue;
        }
        if (stc_config_equal(&tuned->configs[index], incumbent)) {
            current = (long)index;
        }
        if (!have || tuned->estimate[index] < tuned->estimate[best]) {
            best = index;
            have = true;
        }
    }
    if (current >= 0 && tuned->options.plan.margin_shift) {
        uint32_t keep = tuned->estimate[current];
        if (!(tuned->estimate[best] < keep - (keep >> tuned->options.plan.margin_shift))) {
            return *incumbent;
        }
    }
    return tuned->configs[best];
}

/* ---- The monitor search -------------------------------------------- */

static void account_unmeasured(stc_tuned_cache *tuned);

/* One clock of the decision unit: the count it selects, read from the
 * monitor as it is now (after every earlier access). */
static void monitor_unit_clock(stc_tuned_cache *tuned, bool access, bool cfg_answer)
{
    stc_monitor_tuner *unit = &tuned->twin.unit;
    stc_monitor_tuner_in in = {
        .ev_access = access,
        .current_code = stc_tuner_config_pack(stc_cache_config(tuned->cache)),
        .cfg_ready = cfg_answer,
        .cfg_done = cfg_answer,
    };
    bool reads = unit->q.deciding || unit->q.win + 1 == unit->build.window;
    if (access && reads) {
        in.count = stc_monitor_twin_count(&tuned->twin, stc_monitor_tuner_count_select(unit));
        in.watched = stc_monitor_twin_count(&tuned->twin, 0);
    }
    bool was_deciding = unit->q.deciding != 0;
    uint32_t window_position = unit->q.win;
    stc_monitor_tuner_step(unit, &in);
    if (access && unit->q.win == 0 && window_position != 0) {
        tuned->report.windows++;
    }
    if (was_deciding && !unit->q.deciding) {
        stc_monitor_decay(tuned->twin.monitor, tuned->options.monitor_decay);
        tuned->report.searches_started++;
        tuned->report.searches_completed++;
        tuned->report.examined_total += tuned->config_count;
        stc_monitor_tuner_out out;
        stc_monitor_tuner_outputs(unit, &out);
        if (!tuned->report.first_valid) {
            tuned->report.first_valid = true;
            tuned->report.first_choice = out.cfg_valid ? stc_tuner_config_unpack(out.cfg_code)
                                                       : *stc_cache_config(tuned->cache);
            tuned->report.first_examined = tuned->config_count;
        }
    }
}

/* After an access: a change the unit offers is made (the controller takes
 * a configuration before the next request, ARCHITECTURE.md 15.2), its walk
 * charged as its own segment after the accesses before it. */
static void monitor_unit_change(stc_tuned_cache *tuned)
{
    stc_monitor_tuner_out out;
    stc_monitor_tuner_outputs(&tuned->twin.unit, &out);
    if (!out.cfg_valid) {
        return;
    }
    stc_config chosen = stc_tuner_config_unpack(out.cfg_code);
    if (!stc_config_equal(&chosen, stc_cache_config(tuned->cache))) {
        tuned->report.switches++;
        account_unmeasured(tuned);
        apply(tuned, &chosen);
    }
    monitor_unit_clock(tuned, false, true);
}

static void finish_search(stc_tuned_cache *tuned, const stc_config *best, size_t examined)
{
    tuned->report.searches_completed++;
    tuned->report.examined_total += examined;
    if (!tuned->report.first_valid) {
        tuned->report.first_valid = true;
        tuned->report.first_choice = *best;
        tuned->report.first_examined = examined;
    }
    apply(tuned, best); /* still counted as searching: the last walk is search cost */
    tuned->searching = false;
    tuned->have_reference = false;
    tuned->since_search = 0;
}

/* Hand the next candidate to the cache, or finish the search and settle in
 * its choice. */
static void advance_search(stc_tuned_cache *tuned)
{
    if (tuned->options.plan.kind == STC_SEARCH_PROBE) {
        if (tuned->probe_index < tuned->probe_count * tuned->options.probe_rounds) {
            apply(tuned, &tuned->probes[tuned->probe_index % tuned->probe_count]);
            return;
        }
        finish_search(tuned, &tuned->probe_choice,
                      tuned->probe_count * tuned->options.probe_rounds);
        return;
    }
    stc_config candidate;
    if (stc_search_next(&tuned->search, &candidate)) {
        apply(tuned, &candidate);
        return;
    }
    stc_config best = stc_search_best(&tuned->search);
    finish_search(tuned, &best, stc_search_examined(&tuned->search, NULL));
}

static void start_probe(stc_tuned_cache *tuned)
{
    tuned->probe_index = 0;
    tuned->probe_choice = *stc_cache_config(tuned->cache); /* the incumbent */
    memset(tuned->estimated, 0, sizeof tuned->estimated);
}

static void start_search(stc_tuned_cache *tuned)
{
    settle_estimate(tuned);
    /* What follows this search measures its choice, not the last one's. */
    tuned->monitor_nj = 0.0;
    tuned->monitor_accesses = 0;
    char err[128];
    /* The options were checked at creation, so the plan starts. */
    stc_search_start(&tuned->search, &tuned->geometry, &tuned->options.plan, err, sizeof err);
    if (tuned->options.plan.kind == STC_SEARCH_PROBE) {
        start_probe(tuned);
    }
    tuned->searching = true;
    tuned->estimate_open = true;
    tuned->this_search_accesses = 0;
    tuned->report.searches_started++;
    advance_search(tuned);
}

static bool saturated(const stc_counters *counters, const stc_fixed_counters *fixed)
{
    return fixed->accesses != counters->accesses || fixed->misses != counters->misses ||
           fixed->cycles != counters->cycles ||
           fixed->first_probe_hits != counters->first_probe_hits;
}

/* The phase test: the window's misses moved away from the tuned window's
 * by more than threshold percent of the latter. A tuned window without
 * misses counts as one miss, so the threshold still has a scale. */
static bool phase_changed(const stc_tuned_cache *tuned, uint16_t misses)
{
    uint64_t reference = tuned->reference_misses ? tuned->reference_misses : 1;
    uint64_t moved = misses > tuned->reference_misses ? misses - tuned->reference_misses
                                                       : tuned->reference_misses - misses;
    return moved * 100 > (uint64_t)tuned->options.phase_threshold_percent * reference;
}

/* Account accesses that were run but not measured (a warm-up, or the
 * partial window at the end) as search or as chosen-configuration time. */
static void account_unmeasured(stc_tuned_cache *tuned)
{
    stc_energy energy;
    stc_counters segment = harvest(tuned, &energy);
    if (tuned->searching) {
        tuned->report.search_accesses += segment.accesses;
        stc_energy_add(&tuned->report.search_energy, &energy);
        tuned->this_search_accesses += segment.accesses;
    } else {
        tuned->monitor_nj += energy.total_nj;
        tuned->monitor_accesses += segment.accesses;
        tuned->since_search += segment.accesses;
    }
}

static void end_window(stc_tuned_cache *tuned)
{
    stc_config config = *stc_cache_config(tuned->cache);
    memcpy(tuned->window_depths, stc_cache_depth_hits(tuned->cache), sizeof tuned->window_depths);
    stc_energy energy;
    stc_counters window = harvest(tuned, &energy);
    stc_fixed_counters fixed = stc_fixed_counters_of(&window);
    tuned->report.windows++;
    tuned->report.saturated_windows += saturated(&window, &fixed);
    if (tuned->searching) {
        tuned->report.search_accesses += window.accesses;
        stc_energy_add(&tuned->report.search_energy, &energy);
        tuned->this_search_accesses += window.accesses;
        if (tuned->options.plan.kind == STC_SEARCH_PROBE) {
            probe_estimate(tuned, &config, &window, tuned->window_depths);
            tuned->probe_index++;
            if (tuned->probe_index == tuned->probe_count * tuned->options.probe_rounds) {
                tuned->probe_choice = probe_decide(tuned, &tuned->probe_choice);
            }
            advance_search(tuned);
            return;
        }
        size_t index = stc_search_examined(&tuned->search, NULL);
        if (index < STC_MAX_CONFIGS) {
            tuned->candidate_rate[index] =
                window.accesses ? energy.total_nj / (double)window.accesses : 0.0;
        }
        stc_search_report(&tuned->search,
                          (double)stc_fixed_energy(&tuned->coefficients, &config, &fixed));
        advance_search(tuned);
        return;
    }
    tuned->monitor_nj += energy.total_nj;
    tuned->monitor_accesses += window.accesses;
    tuned->since_search += window.accesses;
    if (!tuned->have_reference) {
        tuned->have_reference = true;
        tuned->reference_misses = fixed.misses;
    } else if (tuned->options.phase_trigger && phase_changed(tuned, fixed.misses)) {
        tuned->report.phase_triggers++;
        start_search(tuned);
        return;
    }
    if (tuned->options.retune_every && tuned->since_search >= tuned->options.retune_every) {
        tuned->report.periodic_triggers++;
        start_search(tuned);
    }
}

stc_tuned_cache *stc_tuned_cache_create(const stc_geometry *geometry, stc_cache_kind kind,
                                        const stc_energy_table *table,
                                        const stc_tune_options *options, char *err,
                                        size_t err_len)
{
    const char *problem = stc_tune_options_check(options);
    if (problem) {
        snprintf(err, err_len, "%s", problem);
        return NULL;
    }
    stc_search probe;
    if (stc_search_start(&probe, geometry, &options->plan, err, err_len) != 0) {
        return NULL;
    }
    stc_tuned_cache *tuned = calloc(1, sizeof *tuned);
    if (!tuned) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    tuned->geometry = *geometry;
    tuned->kind = kind;
    tuned->table = *table;
    tuned->options = *options;
    if (stc_fixed_from_table(table, &tuned->coefficients, err, err_len) != 0) {
        free(tuned);
        return NULL;
    }
    stc_config reset = stc_config_reset(geometry);
    tuned->cache = stc_cache_create(geometry, kind, &reset, NULL, err, err_len);
    if (!tuned->cache) {
        free(tuned);
        return NULL;
    }
    if (options->walk_moves) {
        if (stc_energy_walk_move_default(geometry, &tuned->walk_move_nj, &tuned->walk_row_end_nj,
                                         err, err_len) != 0) {
            stc_cache_destroy(tuned->cache);
            free(tuned);
            return NULL;
        }
        stc_cache_set_walk_moves(tuned->cache, true);
    }
    if (options->timeline_interval) {
        stc_config baselines[STC_TUNE_BASELINES];
        stc_tune_baselines(geometry, baselines);
        tuned->timeline = stc_timeline_create(geometry, kind, table, baselines,
                                              options->timeline_interval, err, err_len);
        if (!tuned->timeline) {
            stc_cache_destroy(tuned->cache);
            free(tuned);
            return NULL;
        }
    }
    if (options->plan.kind == STC_SEARCH_PROBE) {
        probe_plan(tuned);
        stc_cache_track_depths(tuned->cache, true);
    }
    if (options->plan.kind == STC_SEARCH_MONITOR) {
        tuned->config_count = stc_config_enumerate(geometry, tuned->configs, STC_MAX_CONFIGS);
        stc_monitor_shape shape = {options->monitor_sample_bits, options->monitor_rotate,
                                   options->monitor_tag_bits, kind == STC_ICACHE,
                                   options->monitor_counter_bits, true,
                                   options->monitor_rotate_empty};
        if (options->window > 65536) {
            snprintf(err, err_len, "window %llu: the monitor search's decision unit counts at "
                                   "most 65536 accesses",
                     (unsigned long long)options->window);
            stc_timeline_destroy(tuned->timeline);
            stc_cache_destroy(tuned->cache);
            free(tuned);
            return NULL;
        }
        stc_monitor_tuner_build build = {
            .window = (uint32_t)options->window,
            .margin = options->plan.margin_shift,
            .walk_min = options->monitor_walk_min,
        };
        if (stc_monitor_twin_init(&tuned->twin, geometry, &shape, table, true, &build, err,
                                  err_len) != 0) {
            stc_timeline_destroy(tuned->timeline);
            stc_cache_destroy(tuned->cache);
            free(tuned);
            return NULL;
        }
        return tuned; /* no search: the decision unit runs beside the cache */
    }
    start_search(tuned); /* the one-off search at start */
    return tuned;
}

void stc_tuned_cache_destroy(stc_tuned_cache *tuned)
{
    if (tuned) {
        stc_monitor_twin_free(&tuned->twin);
        stc_timeline_destroy(tuned->timeline);
        stc_cache_destroy(tuned->cache);
        free(tuned);
    }
}

/* The tuner's part of a request the cache has served: the monitor and its
 * decision unit, or the window and warm-up accounting of a search. */
static void tuner_after_request(stc_tuned_cache *tuned, stc_op op, uint64_t addr, unsigned bytes)
{
    if (tuned->twin.monitor) {
        /* The same pieces the cache performed, one per physical line: the
         * decision unit's step reads the counts of the accesses before
         * each (ARCHITECTURE.md 18), then the monitor observes it. */
        unsigned offset_bits = tuned->geometry.offset_bits;
        uint64_t first = addr >> offset_bits, last = (addr + bytes - 1) >> offset_bits;
        for (uint64_t line = first; line <= last; line++) {
            monitor_unit_clock(tuned, true, false);
            stc_monitor_observe(tuned->twin.monitor, line << offset_bits, op != STC_OP_READ);
        }
        monitor_unit_change(tuned);
        return;
    }
    uint64_t accesses = stc_cache_counters(tuned->cache)->accesses;
    if (tuned->warming) {
        if (accesses >= tuned->options.warmup) {
            account_unmeasured(tuned);
            tuned->warming = false;
        }
    } else if (accesses >= tuned->options.window) {
        end_window(tuned);
    }
}

static void timeline_record(stc_tuned_cache *tuned);

int stc_tuned_cache_request(stc_tuned_cache *tuned, stc_op op, uint64_t addr, unsigned bytes)
{
    if (stc_cache_request(tuned->cache, op, addr, bytes, NULL, NULL, NULL) < 0) {
        return -1;
    }
    tuner_after_request(tuned, op, addr, bytes);
    if (tuned->timeline) {
        stc_timeline_request(tuned->timeline, op, addr, bytes);
        uint64_t accesses =
            tuned->report.counters.accesses + stc_cache_counters(tuned->cache)->accesses;
        if (stc_timeline_due(tuned->timeline, accesses)) {
            timeline_record(tuned);
        }
    }
    return 0;
}

void stc_tuned_cache_run(stc_tuned_cache *tuned, const stc_ref *refs, size_t count)
{
    static const stc_op op_of_kind[] = {
        [STC_REF_IFETCH] = STC_OP_READ,
        [STC_REF_LOAD] = STC_OP_READ,
        [STC_REF_STORE] = STC_OP_WRITE,
        [STC_REF_MODIFY] = STC_OP_MODIFY,
    };
    bool want_ifetch = tuned->kind == STC_ICACHE;
    for (size_t index = 0; index < count; index++) {
        const stc_ref *ref = &refs[index];
        if ((ref->kind == STC_REF_IFETCH) == want_ifetch) {
            stc_tuned_cache_request(tuned, op_of_kind[ref->kind & 3], ref->addr, ref->size);
        }
    }
}

/* The monitor is hardware beside the cache: its lookups and leakage are
 * the same whatever configuration runs, so they are charged once, at the
 * end, into the run's probe and static energy. */
static stc_energy monitor_energy(const stc_tuned_cache *tuned, uint64_t cycles, uint64_t *bits)
{
    stc_monitor_array arrays[STC_MONITOR_MAX_ARRAYS];
    size_t count = stc_monitor_arrays(tuned->twin.monitor, arrays, STC_MONITOR_MAX_ARRAYS);
    uint64_t array_accesses = stc_monitor_array_accesses(tuned->twin.monitor);
    /* Every array access reads a row of every array; only a row it
     * changes is written back (monitor.h). */
    double access_nj = 0.0, leak_nj = 0.0;
    *bits = 0;
    for (size_t index = 0; index < count; index++) {
        stc_small_sram_energy array = stc_energy_small_sram(
            arrays[index].rows, arrays[index].row_bits, arrays[index].compare_bits);
        access_nj += (double)array_accesses * array.read_nj +
                     (double)stc_monitor_row_writes(tuned->twin.monitor, index) *
                         (array.rmw_nj - array.read_nj);
        leak_nj += array.leak_nj_per_cycle;
        *bits += (uint64_t)arrays[index].rows * arrays[index].row_bits;
    }
    stc_energy energy;
    memset(&energy, 0, sizeof energy);
    energy.probe_nj = access_nj;
    energy.static_nj = (double)cycles * leak_nj;
    energy.total_nj = energy.probe_nj + energy.static_nj;
    return energy;
}

static void charge_monitor(stc_tuned_cache *tuned)
{
    stc_tuned_report *report = &tuned->report;
    report->monitor_array_accesses = stc_monitor_array_accesses(tuned->twin.monitor);
    report->monitor_lookups = stc_monitor_lookups(tuned->twin.monitor);
    report->monitor_energy = monitor_energy(tuned, report->counters.cycles, &report->monitor_bits);
    stc_energy_add(&report->energy, &report->monitor_energy);
}

/* A timeline point: what the run has cost so far, the counters not yet
 * charged taken as a segment in the configuration they ran in (energy is
 * linear in the counters, so charging them later gives the same sum). */
static void timeline_record(stc_tuned_cache *tuned)
{
    const stc_counters *pending = stc_cache_counters(tuned->cache);
    const stc_config *config = stc_cache_config(tuned->cache);
    stc_timeline_point point;
    memset(&point, 0, sizeof point);
    point.accesses = tuned->report.counters.accesses + pending->accesses;
    point.cycles = tuned->report.counters.cycles + pending->cycles;
    point.config = *config;
    point.changes = tuned->changes;
    point.tuned_nj = tuned->report.energy.total_nj +
                     stc_energy_of(&tuned->table, config, pending).total_nj;
    if (tuned->twin.monitor) {
        uint64_t bits;
        point.tuned_nj += monitor_energy(tuned, point.cycles, &bits).total_nj;
    }
    stc_timeline_record(tuned->timeline, &point);
}

void stc_tuned_cache_finish(stc_tuned_cache *tuned, stc_tuned_report *report)
{
    if (tuned->timeline) {
        /* The end of the run, unless a point was just taken there. */
        const stc_timeline_point *points;
        size_t count = stc_timeline_points(tuned->timeline, &points);
        uint64_t accesses =
            tuned->report.counters.accesses + stc_cache_counters(tuned->cache)->accesses;
        if (count == 0 || points[count - 1].accesses != accesses) {
            timeline_record(tuned);
        }
    }
    /* The partial window counts in the energy but is not a measurement. */
    account_unmeasured(tuned);
    settle_estimate(tuned);
    if (tuned->twin.monitor) {
        charge_monitor(tuned);
    }
    tuned->report.final_config = *stc_cache_config(tuned->cache);
    *report = tuned->report;
}

const stc_cache *stc_tuned_cache_model(const stc_tuned_cache *tuned)
{
    return tuned->cache;
}

const stc_search *stc_tuned_cache_search(const stc_tuned_cache *tuned)
{
    return &tuned->search;
}

bool stc_tuned_cache_searching(const stc_tuned_cache *tuned)
{
    return tuned->searching;
}

size_t stc_tuned_cache_timeline(const stc_tuned_cache *tuned, const stc_timeline_point **points)
{
    if (!tuned->timeline) {
        *points = NULL;
        return 0;
    }
    return stc_timeline_points(tuned->timeline, points);
}

/* ---- One trace, both caches ------------------------------------------ */

enum { FEED_CHUNK = 4096 };

struct stc_tune_run {
    stc_geometry geometry;
    stc_energy_table table;
    stc_tune_options options;
    bool hardware;
    uint64_t references;
    stc_repeat_filter filter;
    stc_filtered_batch filtered;
    stc_stack_sweep *sweep;
    stc_tuned_cache *tuned[2];
};

void stc_tune_run_destroy(stc_tune_run *run)
{
    if (!run) {
        return;
    }
    free(run->filtered.ifetch);
    free(run->filtered.data);
    stc_stack_sweep_destroy(run->sweep);
    stc_tuned_cache_destroy(run->tuned[0]);
    stc_tuned_cache_destroy(run->tuned[1]);
    free(run);
}

stc_tune_run *stc_tune_run_create(const stc_geometry *geometry, const stc_energy_table *table,
                                  const stc_tune_options *options, bool hardware, char *err,
                                  size_t err_len)
{
    stc_search probe;
    if (stc_search_start(&probe, geometry, &options->plan, err, err_len) != 0) {
        return NULL;
    }
    stc_tune_run *run = calloc(1, sizeof *run);
    if (!run) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    run->geometry = *geometry;
    run->table = *table;
    run->options = *options;
    run->hardware = hardware;
    stc_repeat_filter_init(&run->filter, geometry);
    run->filtered.ifetch = malloc(FEED_CHUNK * sizeof *run->filtered.ifetch);
    run->filtered.data = malloc(FEED_CHUNK * sizeof *run->filtered.data);
    if (!run->filtered.ifetch || !run->filtered.data) {
        snprintf(err, err_len, "out of memory");
        stc_tune_run_destroy(run);
        return NULL;
    }
    /* Every configuration's whole-trace counters: the oracle's energies,
     * the baselines and the optimum, in both modes. */
    run->sweep = stc_stack_sweep_create(geometry, err, err_len);
    if (!run->sweep) {
        stc_tune_run_destroy(run);
        return NULL;
    }
    if (hardware) {
        for (int kind = STC_ICACHE; kind <= STC_DCACHE; kind++) {
            run->tuned[kind] = stc_tuned_cache_create(geometry, (stc_cache_kind)kind, table,
                                                      options, err, err_len);
            if (!run->tuned[kind]) {
                stc_tune_run_destroy(run);
                return NULL;
            }
        }
    }
    return run;
}

void stc_tune_run_feed(stc_tune_run *run, const stc_ref *refs, size_t count)
{
    while (count > 0) {
        size_t chunk = count < FEED_CHUNK ? count : FEED_CHUNK;
        stc_repeat_filter_run(&run->filter, refs, chunk, &run->filtered);
        stc_stack_sweep_run(run->sweep, &run->filtered);
        if (run->hardware) {
            stc_tuned_cache_run(run->tuned[STC_ICACHE], refs, chunk);
            stc_tuned_cache_run(run->tuned[STC_DCACHE], refs, chunk);
        }
        run->references += chunk;
        refs += chunk;
        count -= chunk;
    }
}

static double oracle_energy_of(const stc_oracle_table *oracle, const stc_config *config)
{
    long index = stc_oracle_table_find(oracle, config);
    return index < 0 ? 0.0 : oracle->energy[index].total_nj;
}

int stc_tune_run_finish(stc_tune_run *run, stc_tune_result *result, char *err, size_t err_len)
{
    memset(result, 0, sizeof *result);
    if (err_len) {
        err[0] = '\0';
    }
    result->hardware = run->hardware;
    result->references = run->references;
    stc_tune_baselines(&run->geometry, result->baselines);
    stc_oracle_table *oracle = malloc(sizeof *oracle);
    if (!oracle) {
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    for (int kind = STC_ICACHE; kind <= STC_DCACHE; kind++) {
        stc_tune_cache_result *cache = &result->cache[kind];
        stc_oracle_choice choice;
        if (stc_oracle_table_fill(oracle, run->sweep, &run->table, (stc_cache_kind)kind) != 0 ||
            stc_oracle_search(oracle, &run->geometry, &run->options.plan, &choice, err,
                              err_len) != 0) {
            if (!err[0]) {
                snprintf(err, err_len, "the energy table does not fit the geometry");
            }
            free(oracle);
            return -1;
        }
        cache->optimum = choice.optimum;
        cache->optimum_nj = choice.optimum_nj;
        for (int base = 0; base < STC_TUNE_BASELINES; base++) {
            long index = stc_oracle_table_find(oracle, &result->baselines[base]);
            cache->baseline_energy[base] = oracle->energy[index];
            cache->baseline_cycles[base] = oracle->counters[index].cycles;
        }
        if (run->hardware) {
            stc_tuned_cache_finish(run->tuned[kind], &cache->hardware);
            cache->valid = cache->hardware.first_valid;
            /* The monitor decides all run long: what it settled in. */
            cache->chosen = run->options.plan.kind == STC_SEARCH_MONITOR
                                ? cache->hardware.final_config
                                : cache->hardware.first_choice;
            cache->examined = cache->hardware.first_examined;
            cache->run_energy = cache->hardware.energy;
            cache->run_cycles = cache->hardware.counters.cycles;
        } else {
            long index = stc_oracle_table_find(oracle, &choice.chosen);
            cache->valid = true;
            cache->chosen = choice.chosen;
            cache->examined = choice.examined;
            cache->run_energy = oracle->energy[index];
            cache->run_cycles = oracle->counters[index].cycles;
        }
        cache->chosen_oracle_nj = cache->valid ? oracle_energy_of(oracle, &cache->chosen) : 0.0;
    }
    free(oracle);
    return 0;
}

size_t stc_tune_run_timeline(const stc_tune_run *run, stc_cache_kind kind,
                             const stc_timeline_point **points)
{
    if (!run->hardware) {
        *points = NULL;
        return 0;
    }
    return stc_tuned_cache_timeline(run->tuned[kind], points);
}
