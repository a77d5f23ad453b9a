/*
 * test_tune.c - the tuner (tune.h) on crafted in-memory reference streams
 * with a hand-made energy table, so every expected choice follows from the
 * construction:
 * - oracle mode: a 1 KB code loop (2K_1W_64B is best: nothing is gained by
 *   a bigger cache, long lines cut the compulsory misses) and a 3 KB data
 *   loop (needs 4K, then 64 B lines); the heuristic's choices, counts and
 *   the optimum; two arrays 8 KB apart that only 8K_2W holds, which the
 *   heuristic misses (its size walk sees 4K_1W thrash as much as 2K_1W);
 * - as-hardware mode: the reconfiguration walks happen (walk counters
 *   move), windows and warm-ups account every access exactly, the
 *   search's trail; large-to-small costs walk writebacks that
 *   small-to-large does not; periodic and phase-change triggers fire on a
 *   stream whose working set grows mid-way, and not on a steady one;
 *   everything is deterministic.
 */
#include "check.h"
#include "test_configs.h"
#include "config.h"
#include "energy.h"
#include "geometry.h"
#include "search.h"
#include "tune.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ERR_LEN = 512 };

enum {
    CODE_BASE = 0x400000,
    DATA_BASE = 0x10000,
    OTHER_BASE = 0x12000, /* 8 KB above DATA_BASE: same row and bank in 2K..8K direct-mapped */
};

typedef struct {
    stc_ref *refs;
    size_t count;
    size_t capacity;
} stream;

static void push(stream *s, stc_ref_kind kind, uint64_t addr)
{
    if (s->count == s->capacity) {
        s->capacity = s->capacity ? 2 * s->capacity : 4096;
        s->refs = realloc(s->refs, s->capacity * sizeof *s->refs);
        if (!s->refs) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
    }
    stc_ref ref = {addr, 4, (uint8_t)kind};
    s->refs[s->count++] = ref;
}

static size_t count_kind(const stream *s, bool ifetch)
{
    size_t count = 0;
    for (size_t index = 0; index < s->count; index++) {
        count += (s->refs[index].kind == STC_REF_IFETCH) == ifetch;
    }
    return count;
}

/* `iterations` passes of: a code loop of code_bytes (one 4-byte fetch per
 * word) interleaved with a data loop of data_bytes (one 4-byte access per
 * 16-byte physical line). kind STC_REF_STORE makes the data dirty. */
static void add_loops(stream *s, unsigned iterations, unsigned code_bytes, unsigned data_bytes,
                      uint64_t data_base, stc_ref_kind data_kind)
{
    unsigned fetches = code_bytes / 4, loads = data_bytes / 16;
    unsigned steps = fetches > loads ? fetches : loads;
    for (unsigned iteration = 0; iteration < iterations; iteration++) {
        for (unsigned step = 0; step < steps; step++) {
            if (step < fetches) {
                push(s, STC_REF_IFETCH, CODE_BASE + 4ull * step);
            }
            if (step < loads) {
                push(s, data_kind, data_base + 16ull * step);
            }
        }
    }
}

/* A table whose consequences can be worked out by hand: a probe costs
 * 0.1 nJ per bank probed, +10% per doubling of the powered banks; a miss
 * 5, 6, 8 nJ for 16, 32, 64 B lines (so long lines pay off when they save
 * misses); leakage 0.001 nJ per powered bank per cycle. */
static stc_energy_table test_table(const stc_geometry *geometry)
{
    stc_energy_table table;
    memset(&table, 0, sizeof table);
    table.geometry = *geometry;
    for (unsigned size = 0; size <= geometry->bank_bits; size++) {
        for (unsigned ways = 0; ways <= size; ways++) {
            table.hit_nj[size][ways] = 0.1 * (1.0 + 0.1 * size) * (double)(1u << ways);
        }
        table.static_nj_per_cycle[size] = 0.001 * (double)(1u << size);
    }
    table.miss_nj[0] = 5.0;
    table.miss_nj[1] = 6.0;
    table.miss_nj[2] = 8.0;
    table.writeback_nj = 4.0;
    table.walk_row_nj = 0.01;
    table.wake_nj = 0.5;
    snprintf(table.source, sizeof table.source, "test_tune table");
    return table;
}

static stc_config parse(const stc_geometry *geometry, const char *name)
{
    stc_config config = {1, 1, 1, false};
    char err[ERR_LEN];
    CHECK(stc_config_parse(geometry, name, &config, err, sizeof err) == 0, "%s", err);
    return config;
}

static bool is_config(const stc_geometry *geometry, const stc_config *config, const char *name)
{
    stc_config want = parse(geometry, name);
    return stc_config_equal(config, &want);
}

static const char *name_of(const stc_geometry *geometry, const stc_config *config, char *buf)
{
    stc_config_name(geometry, config, buf, STC_CONFIG_NAME_MAX);
    return buf;
}

static int run_stream(const stream *s, const stc_tune_options *options, bool hardware,
                      stc_tune_result *result)
{
    stc_geometry geometry = default_geometry();
    stc_energy_table table = test_table(&geometry);
    char err[ERR_LEN];
    stc_tune_run *run = stc_tune_run_create(&geometry, &table, options, hardware, err, sizeof err);
    CHECK(run != NULL, "run: %s", err);
    if (!run) {
        return -1;
    }
    /* Uneven batches: the result must not depend on how the trace is cut. */
    size_t done = 0, batch = 1;
    while (done < s->count) {
        size_t take = s->count - done < batch ? s->count - done : batch;
        stc_tune_run_feed(run, s->refs + done, take);
        done += take;
        batch = batch * 3 + 7;
    }
    int status = stc_tune_run_finish(run, result, err, sizeof err);
    CHECK(status == 0, "finish: %s", err);
    stc_tune_run_destroy(run);
    return status;
}

/* Oracle mode: choices known by construction (see the file comment). */
static void test_oracle_known_optimum(void)
{
    stc_geometry geometry = default_geometry();
    stream s = {0};
    add_loops(&s, 300, 1024, 3072, DATA_BASE, STC_REF_LOAD);
    stc_tune_options options = stc_tune_options_default();
    stc_tune_result result;
    if (run_stream(&s, &options, false, &result) != 0) {
        free(s.refs);
        return;
    }
    char name[STC_CONFIG_NAME_MAX];
    const stc_tune_cache_result *icache = &result.cache[STC_ICACHE];
    const stc_tune_cache_result *dcache = &result.cache[STC_DCACHE];
    CHECK_EQ_U64(result.references, s.count, "references counted");
    CHECK(is_config(&geometry, &icache->chosen, "2K_1W_64B"), "I chose %s",
          name_of(&geometry, &icache->chosen, name));
    CHECK_EQ_U64(icache->examined, 4, "I: 2K_1W_16B 4K_1W_16B 2K_1W_32B 2K_1W_64B");
    CHECK(is_config(&geometry, &icache->optimum, "2K_1W_64B"), "I optimum %s",
          name_of(&geometry, &icache->optimum, name));
    CHECK(is_config(&geometry, &dcache->chosen, "4K_1W_64B"), "D chose %s",
          name_of(&geometry, &dcache->chosen, name));
    CHECK_EQ_U64(dcache->examined, 6, "D: 2K 4K 8K, 32B 64B, 2W");
    CHECK(is_config(&geometry, &dcache->optimum, "4K_1W_64B"), "D optimum %s",
          name_of(&geometry, &dcache->optimum, name));
    for (int kind = 0; kind < 2; kind++) {
        const stc_tune_cache_result *cache = &result.cache[kind];
        CHECK(cache->valid, "oracle choice always valid");
        CHECK(cache->chosen_oracle_nj == cache->optimum_nj, "optimum found: no loss");
        CHECK(cache->run_energy.total_nj == cache->chosen_oracle_nj,
              "oracle run energy is the choice's");
        /* The small tuned caches beat both 8K baselines. */
        CHECK(cache->run_energy.total_nj < cache->baseline_energy[0].total_nj &&
                  cache->run_energy.total_nj < cache->baseline_energy[1].total_nj,
              "tuned cheaper than the baselines");
    }
    CHECK(is_config(&geometry, &result.baselines[0], "8K_4W_32B") &&
              is_config(&geometry, &result.baselines[1], "8K_1W_32B"),
          "baselines");

    /* Exhaustive agrees and examines all 27. */
    options.plan.kind = STC_SEARCH_EXHAUSTIVE;
    stc_tune_result exhaustive;
    if (run_stream(&s, &options, false, &exhaustive) == 0) {
        CHECK_EQ_U64(exhaustive.cache[STC_DCACHE].examined, 27, "exhaustive examines 27");
        CHECK(stc_config_equal(&exhaustive.cache[STC_DCACHE].chosen, &dcache->optimum),
              "exhaustive finds the optimum");
    }
    free(s.refs);
}

/* Two 3 KB arrays 8 KB apart, read alternately line by line, 200 times. */
static stream colliding_arrays(void)
{
    stream s = {0};
    for (unsigned iteration = 0; iteration < 200; iteration++) {
        for (unsigned line = 0; line < 3072 / 16; line++) {
            push(&s, STC_REF_LOAD, DATA_BASE + 16ull * line);
            push(&s, STC_REF_LOAD, OTHER_BASE + 16ull * line);
        }
    }
    return s;
}

/* The colliding arrays collide in every direct-mapped size, so the size
 * walk (at one way) sees 4K no better than 2K and stops at 2K, where one
 * way is all there is. 8K_2W holds both. */
static void test_oracle_interaction(void)
{
    stc_geometry geometry = default_geometry();
    stream s = colliding_arrays();
    stc_tune_options options = stc_tune_options_default();
    stc_tune_result result;
    if (run_stream(&s, &options, false, &result) == 0) {
        const stc_tune_cache_result *dcache = &result.cache[STC_DCACHE];
        char name[STC_CONFIG_NAME_MAX];
        CHECK(is_config(&geometry, &dcache->chosen, "2K_1W_16B"), "heuristic chose %s",
              name_of(&geometry, &dcache->chosen, name));
        CHECK_EQ_U64(dcache->examined, 3, "2K_1W_16B 4K_1W_16B 2K_1W_32B");
        CHECK(dcache->optimum.banks_on == 4 && dcache->optimum.ways == 2 &&
                  !dcache->optimum.way_predict,
              "optimum %s, want 8K_2W without prediction (it always mispredicts here)",
              name_of(&geometry, &dcache->optimum, name));
        CHECK(dcache->chosen_oracle_nj > 2 * dcache->optimum_nj,
              "the heuristic's loss is large here");
    }
    free(s.refs);
}

/* Drive one tuned cache with the references of its kind, in one call per
 * reference (the hardware tuner sees them one by one). */
static stc_tuned_cache *tuned_cache(stc_cache_kind kind, const stc_tune_options *options)
{
    stc_geometry geometry = default_geometry();
    stc_energy_table table = test_table(&geometry);
    char err[ERR_LEN];
    stc_tuned_cache *tuned = stc_tuned_cache_create(&geometry, kind, &table, options, err,
                                                    sizeof err);
    CHECK(tuned != NULL, "create: %s", err);
    return tuned;
}

static void trail_text(const stc_search *search, char *buf, size_t buf_len)
{
    stc_geometry geometry = default_geometry();
    const stc_search_entry *entries;
    size_t count = stc_search_examined(search, &entries);
    buf[0] = '\0';
    for (size_t index = 0; index < count; index++) {
        char name[STC_CONFIG_NAME_MAX];
        stc_config_name(&geometry, &entries[index].config, name, sizeof name);
        if (strlen(buf) + strlen(name) + 2 < buf_len) {
            strcat(buf, index ? " " : "");
            strcat(buf, name);
        }
    }
}

/* As-hardware, the loops of test_oracle_known_optimum, 1024-access windows
 * after 1024-access warm-ups: every window sees the steady state of its
 * candidate, so only capacity and probe energy differ, and equal windows
 * (no misses with either line) keep the smaller line. */
static void test_hardware_windows(void)
{
    stc_geometry geometry = default_geometry();
    stream s = {0};
    add_loops(&s, 300, 1024, 3072, DATA_BASE, STC_REF_LOAD);
    stc_tune_options options = stc_tune_options_default();
    options.window = 1024;
    options.warmup = 1024;
    for (int kind = STC_ICACHE; kind <= STC_DCACHE; kind++) {
        stc_tuned_cache *tuned = tuned_cache((stc_cache_kind)kind, &options);
        if (!tuned) {
            continue;
        }
        stc_tuned_cache_run(tuned, s.refs, s.count);
        char trail[512], name[STC_CONFIG_NAME_MAX];
        trail_text(stc_tuned_cache_search(tuned), trail, sizeof trail);
        const char *want_trail = kind == STC_ICACHE
                                     ? "2K_1W_16B 4K_1W_16B 2K_1W_32B"
                                     : "2K_1W_16B 4K_1W_16B 8K_1W_16B 4K_1W_32B 4K_2W_16B";
        CHECK(!strcmp(trail, want_trail), "%c trail %s\n    want %s", "ID"[kind], trail,
              want_trail);
        stc_tuned_report report;
        stc_tuned_cache_finish(tuned, &report);
        const char *want = kind == STC_ICACHE ? "2K_1W_16B" : "4K_1W_16B";
        CHECK(report.first_valid && is_config(&geometry, &report.first_choice, want),
              "%c chose %s, want %s", "ID"[kind], name_of(&geometry, &report.first_choice, name),
              want);
        CHECK(stc_config_equal(&report.final_config, &report.first_choice),
              "one-off: the cache stays in the choice");
        CHECK(stc_config_equal(stc_cache_config(stc_tuned_cache_model(tuned)),
                               &report.final_config),
              "the model is in the final configuration");
        size_t examined = report.first_examined;
        CHECK_EQ_U64(report.searches_started, 1, "one search");
        CHECK_EQ_U64(report.searches_completed, 1, "completed");
        /* Every access is accounted for, in exactly one segment. */
        CHECK_EQ_U64(report.counters.accesses, count_kind(&s, kind == STC_ICACHE),
                     "all accesses in the report");
        CHECK_EQ_U64(report.search_accesses, examined * (options.window + options.warmup),
                     "search = examined x (warm-up + window)");
        CHECK_EQ_U64(report.saturated_windows, 0, "no saturation in 1024-access windows");
        /* Walks: reset 8K_4W_16B -> the start (a shrink: a walk), one change
         * per further candidate, and back to the choice. */
        const stc_search_entry *entries;
        stc_search_examined(stc_tuned_cache_search(tuned), &entries);
        bool back = !stc_config_equal(&entries[examined - 1].config, &report.first_choice);
        CHECK_EQ_U64(report.walks.reconfigs, examined + back, "one change per candidate");
        CHECK(report.walks.walk_rows >= geometry.rows, "the walks happened (rows walked)");
        CHECK(report.walks.banks_woken > 0, "banks were woken");
        CHECK_EQ_U64(report.walks.walk_writebacks, 0, "loads only: nothing to write back");
        CHECK(report.walk_energy.reconfig_nj > 0, "walk energy charged");
        CHECK(report.energy.total_nj >= report.search_energy.total_nj &&
                  report.search_energy.total_nj >= report.walk_energy.total_nj,
              "run >= search >= walks");
        CHECK_EQ_U64(stc_cache_counters(stc_tuned_cache_model(tuned))->accesses, 0,
                     "finish leaves the counters clear");
        stc_tuned_cache_destroy(tuned);
    }

    /* Without the warm-up the 4K window begins by fetching the 64 lines 2K
     * could not hold, while the 8K window begins with every line present
     * (growing 4K_1W -> 8K_1W moves no line of this array: addr[12] = 0),
     * so 8K looks cheaper: the reason for the warm-up option. */
    options.warmup = 0;
    stc_tuned_cache *cold = tuned_cache(STC_DCACHE, &options);
    if (cold) {
        stc_tuned_cache_run(cold, s.refs, s.count);
        stc_tuned_report report;
        stc_tuned_cache_finish(cold, &report);
        char name[STC_CONFIG_NAME_MAX];
        CHECK(report.first_choice.banks_on == 4, "cold windows chose %s (want an 8K)",
              name_of(&geometry, &report.first_choice, name));
        stc_tuned_cache_destroy(cold);
    }
    free(s.refs);
}

/* Both caches through stc_tune_run in hardware mode. */
static void test_hardware_run(void)
{
    stc_geometry geometry = default_geometry();
    stream s = {0};
    add_loops(&s, 300, 1024, 3072, DATA_BASE, STC_REF_LOAD);
    stc_tune_options options = stc_tune_options_default();
    options.window = 1024;
    options.warmup = 1024;
    stc_tune_result result;
    if (run_stream(&s, &options, true, &result) != 0) {
        free(s.refs);
        return;
    }
    CHECK(result.hardware, "hardware result");
    CHECK(is_config(&geometry, &result.cache[STC_DCACHE].chosen, "4K_1W_16B"), "D choice");
    CHECK_EQ_U64(result.cache[STC_DCACHE].examined, 5, "D examined");
    CHECK(is_config(&geometry, &result.cache[STC_DCACHE].optimum, "4K_1W_64B"),
          "the whole-trace optimum is still the oracle's");
    CHECK(!stc_config_equal(&result.cache[STC_DCACHE].chosen, &result.cache[STC_DCACHE].optimum),
          "windows in the steady state miss the compulsory-miss saving of long lines");
    CHECK_EQ_U64(result.cache[STC_ICACHE].hardware.counters.accesses, count_kind(&s, true),
                 "I accesses");
    CHECK_EQ_U64(result.cache[STC_DCACHE].hardware.counters.accesses, count_kind(&s, false),
                 "D accesses");
    CHECK(result.cache[STC_DCACHE].run_energy.total_nj ==
              result.cache[STC_DCACHE].hardware.energy.total_nj,
          "hardware run energy is the tuned run's");
    free(s.refs);
}

/* Large-to-small on a dirty working set: every shrink writes back the
 * dirty lines of the banks going off. Small-to-large starts from an empty
 * cache; its walks write back only lines whose home moved. */
static void test_descending_flush(void)
{
    stream s = {0};
    add_loops(&s, 200, 0, 6144, DATA_BASE, STC_REF_STORE);
    stc_tune_options options = stc_tune_options_default();
    options.window = 1024;
    /* Walks that drop what they take (stcgen --no-walk-moves): a move would
     * keep a line of a bank going off in a free slot of another. */
    options.walk_moves = false;
    stc_tuned_report report[2];
    for (int descending = 0; descending <= 1; descending++) {
        options.plan.descending = descending != 0;
        stc_tuned_cache *tuned = tuned_cache(STC_DCACHE, &options);
        if (!tuned) {
            return;
        }
        stc_tuned_cache_run(tuned, s.refs, s.count);
        stc_tuned_cache_finish(tuned, &report[descending]);
        stc_tuned_cache_destroy(tuned);
        stc_geometry geometry = default_geometry();
        stc_energy_table table = test_table(&geometry);
        CHECK(report[descending].walk_energy.writeback_nj ==
                  (double)report[descending].walks.walk_writebacks * table.writeback_nj,
              "walk writeback energy = walk writebacks x writeback energy");
    }
    CHECK(report[1].walks.walk_writebacks > report[0].walks.walk_writebacks,
          "descending walk writebacks %llu should exceed ascending %llu",
          (unsigned long long)report[1].walks.walk_writebacks,
          (unsigned long long)report[0].walks.walk_writebacks);
    CHECK(report[1].walks.walk_invalidations > report[1].walks.walk_writebacks / 2,
          "walks dropped lines");
    CHECK(report[1].walks.walk_writebacks >= 6144 / 16 / 2,
          "the first shrink alone writes back the dirty half of 6 KB");
    CHECK(report[1].walk_energy.writeback_nj > report[0].walk_energy.writeback_nj,
          "and costs more energy");
    /* The default walks move (ARCHITECTURE.md 7): the same descending
     * search keeps lines of the banks going off in free slots of the
     * others, so it writes back less. */
    options.walk_moves = stc_tune_options_default().walk_moves;
    CHECK(options.walk_moves, "walks move by default, as stcgen's controller");
    stc_tuned_cache *moving = tuned_cache(STC_DCACHE, &options);
    if (moving) {
        stc_tuned_report moved;
        stc_tuned_cache_run(moving, s.refs, s.count);
        stc_tuned_cache_finish(moving, &moved);
        stc_tuned_cache_destroy(moving);
        CHECK(moved.walk_moves > 0, "the descending search's walks moved lines");
        CHECK(moved.walks.walk_writebacks < report[1].walks.walk_writebacks,
              "moving walks write back %llu lines, fewer than dropping ones' %llu",
              (unsigned long long)moved.walks.walk_writebacks,
              (unsigned long long)report[1].walks.walk_writebacks);
    }
    free(s.refs);
}

/* A steady 1.5 KB loop: periodic re-tunes fire every retune_every accesses
 * in the chosen configuration and come to the same choice; a phase trigger
 * never fires. (A warm-up keeps the first window, at the cold start of the
 * trace, from making 2K look worse than 4K.) */
static void test_periodic(void)
{
    stream s = {0};
    add_loops(&s, 1100, 0, 1536, DATA_BASE, STC_REF_LOAD); /* 105600 accesses */
    stc_tune_options options = stc_tune_options_default();
    options.window = 1024;
    options.warmup = 1024;
    options.retune_every = 20000;
    options.phase_trigger = true;
    options.phase_threshold_percent = 50;
    stc_tuned_cache *tuned = tuned_cache(STC_DCACHE, &options);
    if (!tuned) {
        free(s.refs);
        return;
    }
    stc_tuned_cache_run(tuned, s.refs, s.count);
    stc_tuned_report report;
    stc_tuned_cache_finish(tuned, &report);
    stc_geometry geometry = default_geometry();
    char name[STC_CONFIG_NAME_MAX];
    /* Each round: a 3-candidate search, 3 x (1024 + 1024) accesses, then
     * the warm-up after settling and 19 windows, 20480 accesses >= 20000:
     * 26624 accesses a round, 3 full rounds in 105600. */
    CHECK_EQ_U64(report.periodic_triggers, 3, "periodic re-tunes");
    CHECK_EQ_U64(report.phase_triggers, 0, "no phase change in a steady loop");
    CHECK_EQ_U64(report.searches_started, 1 + report.periodic_triggers, "one search per trigger");
    CHECK(is_config(&geometry, &report.final_config, "2K_1W_16B"), "re-tunes agree: %s",
          name_of(&geometry, &report.final_config, name));
    CHECK_EQ_U64(report.examined_total, 3 * report.searches_completed,
                 "each search examined 3");
    stc_tuned_cache_destroy(tuned);
    free(s.refs);
}

/* The working set grows from 1.5 KB to 6 KB mid-way: the first search
 * picks 2K; in the new phase 2K thrashes, the window's misses leave the
 * tuned window's far behind, and the re-tune picks 8K. */
static void phase_run(stc_tuned_report *report)
{
    stream s = {0};
    add_loops(&s, 400, 0, 1536, DATA_BASE, STC_REF_STORE);  /* 38400 accesses */
    add_loops(&s, 200, 0, 6144, DATA_BASE, STC_REF_LOAD);   /* 76800 accesses */
    stc_tune_options options = stc_tune_options_default();
    options.window = 1024;
    options.warmup = 512;
    options.phase_trigger = true;
    options.phase_threshold_percent = 50;
    stc_tuned_cache *tuned = tuned_cache(STC_DCACHE, &options);
    if (tuned) {
        stc_tuned_cache_run(tuned, s.refs, s.count);
        stc_tuned_cache_finish(tuned, report);
        stc_tuned_cache_destroy(tuned);
    }
    free(s.refs);
}

static void test_phase_change(void)
{
    stc_geometry geometry = default_geometry();
    stc_tuned_report report, again;
    phase_run(&report);
    char name[STC_CONFIG_NAME_MAX];
    CHECK(is_config(&geometry, &report.first_choice, "2K_1W_16B"), "first choice %s",
          name_of(&geometry, &report.first_choice, name));
    CHECK_EQ_U64(report.phase_triggers, 1, "one phase change");
    CHECK_EQ_U64(report.searches_completed, 2, "two searches");
    CHECK(is_config(&geometry, &report.final_config, "8K_1W_16B"), "after the change %s",
          name_of(&geometry, &report.final_config, name));
    CHECK(report.counters.writebacks > 0, "the new phase evicted the old dirty data");
    CHECK(report.search_energy.total_nj > report.search_at_chosen_nj,
          "searching cost more than the chosen configurations would have");

    /* Deterministic: the same stream gives the same report. */
    phase_run(&again);
    CHECK(!memcmp(&report.counters, &again.counters, sizeof report.counters) &&
              !memcmp(&report.walks, &again.walks, sizeof report.walks) &&
              report.energy.total_nj == again.energy.total_nj &&
              report.search_at_chosen_nj == again.search_at_chosen_nj &&
              report.windows == again.windows,
          "two runs differ");
}

/* The probe search on test_oracle_interaction's stream, where the
 * heuristic's walk misses the optimum by more than 2x: one window in each
 * of the 9 probes (8K, all 4 / 2 / 1 ways, 16 / 32 / 64 B) estimates all 27
 * configurations from the LRU depths of its hits, and the choice is the
 * whole-trace optimum. Two rounds visit every probe twice. */
static void test_probe_search(void)
{
    stc_geometry geometry = default_geometry();
    stream s = colliding_arrays();
    for (unsigned rounds = 1; rounds <= 2; rounds++) {
        stc_tune_options options = stc_tune_options_default();
        options.plan.kind = STC_SEARCH_PROBE;
        options.probe_rounds = rounds;
        options.warmup = 1024;
        stc_tune_result result;
        if (run_stream(&s, &options, true, &result) != 0) {
            break;
        }
        const stc_tune_cache_result *dcache = &result.cache[STC_DCACHE];
        char name[STC_CONFIG_NAME_MAX], optimum[STC_CONFIG_NAME_MAX];
        /* In the steady state every line size of 8K_2W misses nothing, so
         * the windows tie and the first (16 B) is kept; over the whole
         * trace the longer lines' fewer cold misses make 64 B the optimum,
         * by less than 10 % on this short stream (384 16 B cold misses against
         * 96 of 64 B). */
        CHECK(dcache->valid && dcache->chosen.banks_on == dcache->optimum.banks_on &&
                  dcache->chosen.ways == dcache->optimum.ways &&
                  dcache->chosen_oracle_nj < 1.1 * dcache->optimum_nj,
              "rounds %u: probe search chose %s, the optimum is %s", rounds,
              name_of(&geometry, &dcache->chosen, name),
              name_of(&geometry, &dcache->optimum, optimum));
        CHECK_EQ_U64(dcache->examined, 9 * rounds, "one window per probe and round");
    }
    free(s.refs);
}

/* A start-up phase (a 64 KB stream, where the cheapest configuration is
 * the smallest with the longest lines) followed by a longer steady phase
 * (the colliding arrays, which want 8K_2W). */
static stream startup_then_steady(void)
{
    stream s = {0};
    for (unsigned line = 0; line < 4096; line++) {
        push(&s, STC_REF_LOAD, 0x100000 + 16ull * line);
    }
    stream steady = colliding_arrays();
    for (size_t index = 0; index < steady.count; index++) {
        push(&s, steady.refs[index].kind, steady.refs[index].addr);
    }
    free(steady.refs);
    return s;
}

/* The monitor search on a start-up phase (a 64 KB stream, where the
 * cheapest configuration is the smallest with the longest lines) followed
 * by a longer steady phase (the colliding arrays, which want 8K_2W): it
 * must leave what the start-up suggested and settle in the steady phase's
 * optimum, close to the whole run's optimum in energy. Sampling 1 of 4
 * sets must not change that on this regular stream. */
static void test_monitor_search(void)
{
    stc_geometry geometry = default_geometry();
    stream s = startup_then_steady();
    for (unsigned sample_bits = 0; sample_bits <= 2; sample_bits += 2) {
        stc_tune_options options = stc_tune_options_default();
        options.plan.kind = STC_SEARCH_MONITOR;
        options.plan.margin_shift = 6;
        options.window = 256;
        options.monitor_sample_bits = sample_bits;
        options.monitor_tag_bits = 0; /* whole tags: the storage below */
        /* Any move from the first decision on: the start-up's suggestion
         * (a walk to 2K) is what this test wants to see left. The walk
         * evidence rule holds it (test_monitor_walk_evidence). */
        options.monitor_walk_min = 0;
        stc_tune_result result;
        if (run_stream(&s, &options, true, &result) != 0) {
            break;
        }
        const stc_tune_cache_result *dcache = &result.cache[STC_DCACHE];
        const stc_tuned_report *report = &dcache->hardware;
        char first[STC_CONFIG_NAME_MAX], final[STC_CONFIG_NAME_MAX];
        name_of(&geometry, &report->final_config, final);
        CHECK(report->first_valid && report->first_choice.banks_on == 1,
              "bits %u: the start-up stream should first suggest a 2K cache, got %s",
              sample_bits, name_of(&geometry, &report->first_choice, first));
        CHECK(report->final_config.banks_on == 4 && report->final_config.ways == 2,
              "bits %u: settled in %s, the steady phase wants 8K_2W", sample_bits, final);
        CHECK(is_config(&geometry, &dcache->chosen, final), "the result reports the final config");
        /* Whole-run counts lag: the steady phase must outweigh the
         * start-up's before the monitor moves (11 % over the optimum
         * here; staying in the 2K start-up choice would cost twice). With
         * every set watched the clear walk leaves the first 512 accesses
         * unwatched, so the start-up's 16 B misses last 512 accesses
         * longer, and each decision takes effect its 126 steps (accesses)
         * after its window: 22 %. */
        double monitor_nj = report->monitor_energy.total_nj;
        CHECK(dcache->run_energy.total_nj - monitor_nj < 1.25 * dcache->optimum_nj,
              "bits %u: run %.0f nJ without the monitor's %.0f, optimum %.0f nJ", sample_bits,
              dcache->run_energy.total_nj - monitor_nj, monitor_nj, dcache->optimum_nj);
        /* The monitor is charged: its lookups (fewer array accesses: the
         * stream's repeats) and leakage, inside the run's energy. */
        CHECK(report->monitor_lookups > 0 &&
                  report->monitor_array_accesses <= report->monitor_lookups &&
                  report->monitor_energy.probe_nj > 0 && report->monitor_energy.static_nj > 0,
              "bits %u: monitor lookups %llu, array accesses %llu, %.1f + %.1f nJ", sample_bits,
              (unsigned long long)report->monitor_lookups,
              (unsigned long long)report->monitor_array_accesses,
              report->monitor_energy.probe_nj, report->monitor_energy.static_nj);
        CHECK(report->monitor_bits == (sample_bits ? 65664u / 4 : 65664u),
              "bits %u: %llu monitor bits", sample_bits,
              (unsigned long long)report->monitor_bits);
        /* The cache's own probes cost at least its accesses x the cheapest
         * hit: the run's probe energy must hold the monitor's on top. */
        stc_energy_table table = test_table(&geometry);
        CHECK(dcache->run_energy.probe_nj >=
                  report->monitor_energy.probe_nj +
                      (double)report->counters.accesses * table.hit_nj[0][0],
              "bits %u: the run's probe energy %.0f nJ does not include the monitor's %.0f nJ",
              sample_bits, dcache->run_energy.probe_nj, report->monitor_energy.probe_nj);
        const stc_energy *run = &dcache->run_energy;
        CHECK(fabs(run->total_nj - (run->probe_nj + run->miss_nj + run->static_nj +
                                    run->writeback_nj + run->reconfig_nj)) < 1e-6 * run->total_nj,
              "bits %u: the run's parts add up to its total", sample_bits);
        CHECK(report->switches >= 2 && report->switches <= 4,
              "bits %u: %u switches (start-up, then steady)", sample_bits, report->switches);
        /* One decision per window, but none in a window without a watched
         * access: the clear walk (512 blind accesses with every set
         * watched, 128 with a quarter) leaves the first 2 / 0 windows of
         * 256 without one; the last may still be running at the end. */
        uint64_t decided = report->windows - (sample_bits == 0 ? 2 : 0);
        CHECK(report->searches_completed == decided || report->searches_completed + 1 == decided,
              "bits %u: %u decisions in %llu windows: one per window with a watched access",
              sample_bits, report->searches_completed, (unsigned long long)report->windows);
    }
    free(s.refs);
}

/* The same start-up and steady phases with the default walk evidence
 * (ARCHITECTURE.md 18.3): the start-up's 2K suggestion comes from the
 * first decisions, on fewer than 256 watched accesses, and would walk 3
 * banks off: it is held (a later decision, on enough accesses of the
 * still running start-up, makes it), and the cache still settles in the
 * steady phase's 8K_2W. */
static void test_monitor_walk_evidence(void)
{
    stc_geometry geometry = default_geometry();
    stream s = startup_then_steady();
    stc_tune_options options = stc_tune_options_default();
    options.plan.kind = STC_SEARCH_MONITOR;
    options.plan.margin_shift = 6;
    options.window = 256;
    CHECK_EQ_U64(options.monitor_walk_min, 256, "the default walk evidence");
    stc_tune_result result;
    if (run_stream(&s, &options, true, &result) == 0) {
        const stc_tune_cache_result *dcache = &result.cache[STC_DCACHE];
        const stc_tuned_report *report = &dcache->hardware;
        char first[STC_CONFIG_NAME_MAX], final[STC_CONFIG_NAME_MAX];
        CHECK(report->first_valid && report->first_choice.banks_on == 4,
              "the first decision's 2K suggestion is held, got %s",
              name_of(&geometry, &report->first_choice, first));
        CHECK(report->final_config.banks_on == 4 && report->final_config.ways == 2,
              "settled in %s, the steady phase wants 8K_2W",
              name_of(&geometry, &report->final_config, final));
    }
    free(s.refs);
}

/* True when a and b agree to a relative 1e-9 (sums taken in another order). */
static bool close_to(double a, double b)
{
    return fabs(a - b) <= 1e-9 * (fabs(a) + fabs(b)) + 1e-9;
}

/* The timeline (timeline.h) on a run with a start-up phase, a steady phase
 * and stores: points every `interval` accesses of each cache and one at the
 * end; the last point is the run's energy; each baseline's energy, from a
 * plain cache model fed the requests, equals the oracle's (a stack sweep);
 * energies and changes never fall; and recording changes nothing. */
static void test_timeline(void)
{
    stc_geometry geometry = default_geometry();
    stc_energy_table table = test_table(&geometry);
    stream s = startup_then_steady();
    add_loops(&s, 6, 1024, 16384, DATA_BASE, STC_REF_STORE); /* writebacks in every 8K cache */
    const uint64_t interval = 500;
    for (int search = 0; search < 2; search++) {
        stc_tune_options options = stc_tune_options_default();
        if (search == 0) {
            options.plan.kind = STC_SEARCH_MONITOR;
            options.plan.margin_shift = 6;
            options.window = 256;
            options.monitor_walk_min = 0;
        }
        stc_tune_result plain;
        if (run_stream(&s, &options, true, &plain) != 0) {
            break;
        }
        options.timeline_interval = interval;
        char err[ERR_LEN];
        stc_tune_run *run =
            stc_tune_run_create(&geometry, &table, &options, true, err, sizeof err);
        CHECK(run != NULL, "timeline run: %s", err);
        if (!run) {
            break;
        }
        stc_tune_run_feed(run, s.refs, s.count);
        stc_tune_result result;
        CHECK(stc_tune_run_finish(run, &result, err, sizeof err) == 0, "finish: %s", err);
        for (int kind = STC_ICACHE; kind <= STC_DCACHE; kind++) {
            const stc_tune_cache_result *cache = &result.cache[kind];
            const stc_timeline_point *points;
            size_t count = stc_tune_run_timeline(run, (stc_cache_kind)kind, &points);
            uint64_t accesses = cache->hardware.counters.accesses;
            size_t want = (size_t)((accesses + interval - 1) / interval);
            CHECK(count == want && count > 2, "search %d cache %d: %zu points for %llu accesses",
                  search, kind, count, (unsigned long long)accesses);
            if (count != want || count == 0) {
                continue;
            }
            for (size_t index = 0; index < count; index++) {
                const stc_timeline_point *at = &points[index];
                uint64_t mark = index + 1 < count ? (index + 1) * interval : accesses;
                CHECK(at->accesses == mark, "point %zu at %llu accesses, want %llu", index,
                      (unsigned long long)at->accesses, (unsigned long long)mark);
                if (index > 0) {
                    const stc_timeline_point *before = &points[index - 1];
                    CHECK(at->tuned_nj >= before->tuned_nj && at->cycles >= before->cycles &&
                              at->changes >= before->changes &&
                              at->baseline_nj[0] >= before->baseline_nj[0],
                          "point %zu falls below the one before", index);
                }
            }
            const stc_timeline_point *last = &points[count - 1];
            CHECK(close_to(last->tuned_nj, cache->run_energy.total_nj),
                  "search %d cache %d: the timeline ends at %.6f nJ, the run cost %.6f", search,
                  kind, last->tuned_nj, cache->run_energy.total_nj);
            CHECK(last->cycles == cache->run_cycles, "timeline cycles %llu, run %llu",
                  (unsigned long long)last->cycles, (unsigned long long)cache->run_cycles);
            CHECK(stc_config_equal(&last->config, &cache->hardware.final_config),
                  "the timeline ends in the final configuration");
            for (int base = 0; base < STC_TUNE_BASELINES; base++) {
                CHECK(close_to(last->baseline_nj[base], cache->baseline_energy[base].total_nj),
                      "baseline %d: the cache model's %.6f nJ, the stack sweep's %.6f", base,
                      last->baseline_nj[base], cache->baseline_energy[base].total_nj);
            }
            if (search == 0) {
                CHECK(last->changes == cache->hardware.switches && last->changes > 0,
                      "monitor: %llu changes in the timeline, %u switches",
                      (unsigned long long)last->changes, cache->hardware.switches);
            } else {
                /* The first candidate at the start, then at most one
                 * change at the end of each window (to the next
                 * candidate or to the search's choice). */
                CHECK(last->changes > 0 && last->changes <= cache->hardware.windows + 1,
                      "heuristic: %llu changes for %llu windows",
                      (unsigned long long)last->changes,
                      (unsigned long long)cache->hardware.windows);
            }
            CHECK(!memcmp(&cache->run_energy, &plain.cache[kind].run_energy,
                          sizeof cache->run_energy) &&
                      cache->run_cycles == plain.cache[kind].run_cycles,
                  "search %d cache %d: recording a timeline changed the run", search, kind);
        }
        stc_tune_run_destroy(run);
    }
    free(s.refs);
}

static void test_options(void)
{
    stc_tune_options options = stc_tune_options_default();
    CHECK(stc_tune_options_check(&options) == NULL, "defaults are usable");
    CHECK(options.plan.kind == STC_SEARCH_HEURISTIC && !options.plan.descending &&
              options.plan.order[0] == STC_PARAM_SIZE,
          "defaults are the seed's heuristic");
    options.window = 0;
    CHECK(stc_tune_options_check(&options) != NULL, "window 0 refused");
    options = stc_tune_options_default();
    options.probe_rounds = 0;
    CHECK(stc_tune_options_check(&options) != NULL, "0 probe rounds refused");
    options = stc_tune_options_default();
    options.window = 0;
    stc_geometry geometry = default_geometry();
    stc_energy_table table = test_table(&geometry);
    char err[ERR_LEN] = "";
    CHECK(stc_tuned_cache_create(&geometry, STC_DCACHE, &table, &options, err, sizeof err) ==
                  NULL &&
              strstr(err, "window"),
          "create refuses window 0: %s", err);
    options = stc_tune_options_default();
    options.plan.order[1] = options.plan.order[0];
    err[0] = '\0';
    CHECK(stc_tune_run_create(&geometry, &table, &options, false, err, sizeof err) == NULL &&
              err[0],
          "run refuses a repeated parameter");
}

int main(void)
{
    test_oracle_known_optimum();
    test_oracle_interaction();
    test_hardware_windows();
    test_hardware_run();
    test_descending_flush();
    test_periodic();
    test_phase_change();
    test_probe_search();
    test_monitor_search();
    test_monitor_walk_evidence();
    test_timeline();
    test_options();
    return check_done("test_tune");
}
