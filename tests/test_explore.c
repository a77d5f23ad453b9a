/*
 * test_explore.c - the explorer (explore.h) and the area model
 * (area_model.h):
 * - the Pareto front on hand-made points: a staircase, exact ties (all
 *   kept), dominated duplicates (all dropped), equal energy or equal area,
 *   NaN, nothing;
 * - candidates: exactly the geometries stcgen accepts (the refusals of the
 *   geometry rules and of the monitor tuner's shape, with the reason), the
 *   stcgen command and output name;
 * - the area model: the SRAM bits of every calibration point exactly, its
 *   logic within the stated error, monotone in the obvious directions;
 * - one explore run on a small hand-made trace file equals the plain
 *   stcsim sweep's cheapest configuration per cache (the same library
 *   path: repeat filter, stack sweep, energy), with way prediction and
 *   without; identical results for 1, 2 and 3 workers; a bad trace
 *   reported as the first bad one in order, whatever the workers.
 */
#include "area_model.h"
#include "check.h"
#include "config.h"
#include "energy.h"
#include "explore.h"
#include "geometry.h"
#include "stack.h"
#include "sweep.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { ERR_LEN = 512, TRACE_REFS = 30000 };

/* ---- Pareto front ------------------------------------------------------ */

static void check_front(const stc_explore_point *points, size_t count, const bool *want,
                        const char *what)
{
    bool on_front[16];
    size_t expected = 0;
    size_t got = stc_explore_pareto(points, count, on_front);
    for (size_t index = 0; index < count; index++) {
        expected += want[index];
        CHECK(on_front[index] == want[index], "%s: point %zu (%g, %g) %s the front", what, index,
              points[index].energy, points[index].area, want[index] ? "belongs on" : "is off");
    }
    CHECK_EQ_U64(got, expected, "%s: front size", what);
}

static void test_pareto(void)
{
    const stc_explore_point staircase[] = {{10, 1}, {6, 2}, {7, 3}, {3, 5}, {1, 9}, {3, 6}};
    const bool staircase_front[] = {true, true, false, true, true, false};
    check_front(staircase, 6, staircase_front, "staircase");

    /* Exact ties on the front are all kept; a dominated point listed twice
     * is dropped twice. */
    const stc_explore_point ties[] = {{5, 5}, {5, 5}, {8, 8}, {8, 8}, {2, 9}};
    const bool ties_front[] = {true, true, false, false, true};
    check_front(ties, 5, ties_front, "ties and dominated duplicates");

    /* Equal energy: the smaller area dominates; equal area: the lower
     * energy. */
    const stc_explore_point equal[] = {{4, 7}, {4, 6}, {3, 6}, {9, 1}, {9, 2}};
    const bool equal_front[] = {false, false, true, true, false};
    check_front(equal, 5, equal_front, "equal energy or area");

    /* A NaN is never on the front and dominates nothing. */
    const stc_explore_point nan_points[] = {{NAN, 0}, {5, 5}, {0, NAN}};
    const bool nan_front[] = {false, true, false};
    check_front(nan_points, 3, nan_front, "NaN");

    bool none[1];
    CHECK_EQ_U64(stc_explore_pareto(NULL, 0, none), 0, "no points");
    const stc_explore_point one[] = {{1, 1}};
    const bool one_front[] = {true};
    check_front(one, 1, one_front, "one point");
}

/* ---- Candidates -------------------------------------------------------- */

static stc_geometry geometry_of(unsigned banks, unsigned bank_bytes, unsigned line_bytes)
{
    stc_geometry geometry;
    stc_geometry_default(&geometry);
    geometry.banks = banks;
    geometry.bank_bytes = bank_bytes;
    geometry.line_bytes = line_bytes;
    return geometry;
}

static void test_candidates(void)
{
    char why[ERR_LEN], command[STC_EXPLORE_COMMAND_MAX];
    stc_explore_candidate candidate;
    stc_geometry geometry = geometry_of(4, 2048, 16);
    CHECK(stc_explore_candidate_init(&candidate, &geometry, true, why, sizeof why) == 0,
          "the paper's cache: %s", why);
    CHECK(!strcmp(candidate.name, "b4_2k_l16_a32"), "name %s", candidate.name);
    CHECK(!strcmp(candidate.energy_table.source, "default"), "table %s",
          candidate.energy_table.source);
    stc_explore_stcgen_command(&candidate, command, sizeof command);
    CHECK(!strcmp(command, "stcgen --banks 4 --bank-bytes 2048 --line-bytes 16"), "command %s",
          command);
    CHECK(stc_explore_tuned_unavailable(&candidate) == NULL, "tuned available with prediction");

    geometry = geometry_of(8, 512, 16);
    geometry.addr_bits = 24;
    CHECK(stc_explore_candidate_init(&candidate, &geometry, false, why, sizeof why) == 0,
          "8 x 512 B, 24-bit addresses: %s", why);
    CHECK(!strcmp(candidate.name, "b8_512b_l16_a24_nowp"), "name %s", candidate.name);
    stc_explore_stcgen_command(&candidate, command, sizeof command);
    CHECK(!strcmp(command, "stcgen --banks 8 --bank-bytes 512 --line-bytes 16 --addr-bits 24 "
                           "--no-way-prediction"),
          "command %s", command);
    CHECK(stc_explore_tuned_unavailable(&candidate) != NULL, "no tuned twin without prediction");

    /* Refused as stcgen refuses them, with the reason. */
    geometry = geometry_of(4, 512, 32); /* 16 rows: a monitor mapping would watch 1 set */
    CHECK(stc_explore_candidate_init(&candidate, &geometry, true, why, sizeof why) != 0,
          "4 x 512 B, 32 B lines refused");
    CHECK(strstr(why, "stcgen refuses it") && strstr(why, "monitor"), "reason: %s", why);
    CHECK(!strcmp(candidate.name, "b4_512b_l32_a32"), "a refused candidate keeps its name: %s",
          candidate.name);
    geometry = geometry_of(4, 32, 16); /* 2 lines a bank */
    CHECK(stc_explore_candidate_init(&candidate, &geometry, true, why, sizeof why) != 0,
          "2 lines a bank refused");
    CHECK(strstr(why, "bank_bytes") != NULL, "reason names the parameter: %s", why);
    geometry = geometry_of(64, 2048, 16);
    CHECK(stc_explore_candidate_init(&candidate, &geometry, true, why, sizeof why) != 0,
          "64 banks refused");
}

/* ---- Area model ---------------------------------------------------------- */

static void test_area_calibration(void)
{
    char err[ERR_LEN];
    const stc_area_calibration_point *points = NULL;
    size_t count = stc_area_calibration_points(&points);
    CHECK(count >= 8, "%zu calibration points", count);
    double err_ge = stc_area_calibration_error_ge(), err_um2 = stc_area_calibration_error_um2(),
           err_flops = stc_area_calibration_error_flops();
    CHECK(err_ge > 0 && err_ge < 0.15 && err_um2 > 0 && err_um2 < 0.15 && err_flops < 0.15,
          "stated errors %g %g %g", err_ge, err_um2, err_flops);
    for (size_t index = 0; index < count; index++) {
        const stc_area_calibration_point *point = &points[index];
        stc_geometry geometry = geometry_of(point->banks, point->bank_bytes, point->line_bytes);
        stc_area area;
        CHECK(stc_geometry_init(&geometry, err, sizeof err) == 0, "%s: %s", point->name, err);
        CHECK(stc_area_calibrated(&geometry), "%s inside the calibrated ranges", point->name);
        if (stc_area_of(&geometry, point->way_prediction, &area, err, sizeof err) != 0) {
            CHECK(0, "%s: %s", point->name, err);
            continue;
        }
        const stc_area_cache *cache = &area.cache[point->read_only ? STC_ICACHE : STC_DCACHE];
        /* The report's arrays: the SRAMs and the row-state register file. */
        CHECK_EQ_U64(cache->bank_sram_bits + cache->monitor_sram_bits + cache->regfile_bits,
                     point->sram_bits, "%s: array bits", point->name);
        /* The stated error is the worst over the points, so each is within
         * it (and a little rounding). */
        CHECK(fabs(cache->logic_ge - point->ge) <= err_ge * point->ge * 1.0001 + 1,
              "%s: GE %.0f modelled, %.0f measured", point->name, cache->logic_ge, point->ge);
        CHECK(fabs(cache->logic_um2 - point->um2) <= err_um2 * point->um2 * 1.0001 + 1,
              "%s: um^2 %.0f modelled, %.0f measured", point->name, cache->logic_um2, point->um2);
        CHECK(fabs(cache->flops - point->flops) <= err_flops * point->flops * 1.0001 + 1,
              "%s: flops %.0f modelled, %.0f measured", point->name, cache->flops, point->flops);
        CHECK(fabs(cache->total_um2 - cache->sram_um2 - cache->regfile_um2 - cache->logic_um2) <
                  1e-6,
              "%s: total = SRAM + register file + logic", point->name);
    }
    /* Hand-computed (ARCHITECTURE.md 15.1): the default geometry's register
     * file is 32 words of 4 rows x (4 valid + 6 recency + 4 dirty + 4 x 2
     * fill length) bits for a D-cache, without the dirty bits for an
     * I-cache, plus the split counters' two copies of 16 words of 32 - 8
     * bits; a bank row holds
     * its tag and line: 4 x 128 x (21 + 128) SRAM bits. */
    stc_geometry geometry = geometry_of(4, 2048, 16);
    stc_area area;
    CHECK(stc_geometry_init(&geometry, err, sizeof err) == 0, "default: %s", err);
    CHECK(stc_area_of(&geometry, true, &area, err, sizeof err) == 0, "default: %s", err);
    CHECK_EQ_U64(area.cache[STC_DCACHE].regfile_bits, 32u * 4 * (4 + 6 + 4 + 8) + 2u * 16 * 24,
                 "D register file");
    CHECK_EQ_U64(area.cache[STC_ICACHE].regfile_bits, 32u * 4 * (4 + 6 + 8) + 2u * 16 * 24,
                 "I register file");
    CHECK_EQ_U64(area.cache[STC_DCACHE].bank_sram_bits, 4u * 128 * (21 + 128), "D banks");
    CHECK_EQ_U64(area.cache[STC_ICACHE].bank_sram_bits, 4u * 128 * (21 + 128), "I banks");
}

static double pair_um2(unsigned banks, unsigned bank_bytes, unsigned line_bytes, bool wp)
{
    char err[ERR_LEN];
    stc_geometry geometry = geometry_of(banks, bank_bytes, line_bytes);
    stc_area area;
    if (stc_geometry_init(&geometry, err, sizeof err) != 0 ||
        stc_area_of(&geometry, wp, &area, err, sizeof err) != 0) {
        CHECK(0, "area of %u x %u, %u: %s", banks, bank_bytes, line_bytes, err);
        return NAN;
    }
    CHECK(area.cache[STC_ICACHE].total_um2 < area.cache[STC_DCACHE].total_um2,
          "the read-only I-cache is smaller (%u x %u)", banks, bank_bytes);
    CHECK(fabs(area.total_um2 - area.cache[0].total_um2 - area.cache[1].total_um2) < 1e-6,
          "the pair is both caches");
    return area.total_um2;
}

static void test_area_shape(void)
{
    CHECK(pair_um2(4, 2048, 16, true) > pair_um2(4, 2048, 16, false), "way prediction costs");
    CHECK(pair_um2(8, 2048, 16, true) > pair_um2(4, 2048, 16, true), "more banks cost");
    CHECK(pair_um2(4, 4096, 16, true) > pair_um2(4, 2048, 16, true), "bigger banks cost");
    CHECK(pair_um2(4, 1024, 16, true) > pair_um2(2, 1024, 16, true), "banks again");
    stc_geometry geometry = geometry_of(4, 2048, 16);
    char err[ERR_LEN];
    stc_geometry_init(&geometry, err, sizeof err);
    CHECK(stc_area_calibrated(&geometry), "the paper's cache is calibrated");
    geometry = geometry_of(32, 2048, 16);
    stc_geometry_init(&geometry, err, sizeof err);
    CHECK(!stc_area_calibrated(&geometry), "32 banks is an extrapolation");
}

/* ---- One run against the plain sweep -------------------------------------- */

static uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return *state >> 33;
}

/* A din trace: a code loop with calls, a data set that conflicts in small
 * caches, stores. Returns 0 and the path written. */
static int write_trace(char *path, size_t path_len, uint64_t seed, bool broken)
{
    snprintf(path, path_len, "/tmp/stc-test-explore-XXXXXX");
    int fd = mkstemp(path);
    FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!out) {
        perror("mkstemp");
        return -1;
    }
    uint64_t state = seed, pc = 0x400000;
    for (size_t index = 0; index < TRACE_REFS; index++) {
        uint64_t choice = next_random(&state) % 10;
        if (broken && index == TRACE_REFS / 2) {
            fprintf(out, "7 zz\n");
        }
        if (choice < 6) {
            pc = next_random(&state) % 16 == 0 ? 0x400000 + next_random(&state) % 0x3000 : pc + 4;
            fprintf(out, "2 %" PRIx64 "\n", pc);
        } else {
            uint64_t addr = 0x10000 + (next_random(&state) % 6) * 0x2000 +
                            (next_random(&state) % 0x600) * 4;
            fprintf(out, "%d %" PRIx64 "\n", choice == 9 ? 1 : 0, addr);
        }
    }
    return fclose(out) == 0 ? 0 : -1;
}

/* The default stcsim command's path: one filter, one stack sweep, every
 * configuration priced; the cheapest per cache, _P allowed or not. */
static void plain_sweep_best(const char *path, const stc_explore_candidate *candidate,
                             double best_nj[2], stc_config best_config[2])
{
    char err[ERR_LEN];
    const stc_geometry *geometry = &candidate->geometry;
    stc_trace *trace = stc_trace_open(path, STC_TRACE_AUTO, err, sizeof err);
    stc_stack_sweep *sweep = stc_stack_sweep_create(geometry, err, sizeof err);
    static stc_ref batch[TRACE_REFS + 16], ifetch[TRACE_REFS + 16], data[TRACE_REFS + 16];
    stc_filtered_batch filtered = {.ifetch = ifetch, .data = data};
    stc_repeat_filter filter;
    stc_repeat_filter_init(&filter, geometry);
    long got = trace ? stc_trace_read(trace, batch, TRACE_REFS + 16) : -1;
    CHECK(got == TRACE_REFS, "plain sweep read %ld references", got);
    if (trace) {
        stc_trace_close(trace, err, sizeof err);
    }
    if (got > 0 && sweep) {
        stc_repeat_filter_run(&filter, batch, (size_t)got, &filtered);
        stc_stack_sweep_run(sweep, &filtered);
    }
    stc_config configs[STC_MAX_CONFIGS];
    size_t count = stc_config_enumerate(geometry, configs, STC_MAX_CONFIGS);
    for (int kind = STC_ICACHE; kind <= STC_DCACHE; kind++) {
        best_nj[kind] = INFINITY;
        for (size_t index = 0; sweep && index < count; index++) {
            stc_counters counters;
            if (configs[index].way_predict && !candidate->way_prediction) {
                continue;
            }
            stc_stack_sweep_counters(sweep, &configs[index], (stc_cache_kind)kind, &counters);
            stc_energy energy = stc_energy_of(&candidate->energy_table, &configs[index], &counters);
            if (energy.total_nj < best_nj[kind]) {
                best_nj[kind] = energy.total_nj;
                best_config[kind] = configs[index];
            }
        }
    }
    stc_stack_sweep_destroy(sweep);
}

static bool same_cell(const stc_explore_cell *left, const stc_explore_cell *right)
{
    bool same = left->energy_nj == right->energy_nj &&
                left->request_misses == right->request_misses && left->cycles == right->cycles &&
                left->tuned == right->tuned && left->tuned_nj == right->tuned_nj;
    for (int kind = STC_ICACHE; kind <= STC_DCACHE; kind++) {
        same = same && stc_config_equal(&left->best[kind].config, &right->best[kind].config) &&
               !memcmp(&left->best[kind].counters, &right->best[kind].counters,
                       sizeof left->best[kind].counters) &&
               left->best[kind].energy.total_nj == right->best[kind].energy.total_nj;
    }
    return same;
}

static void test_run_equals_sweep(void)
{
    char err[ERR_LEN], paths[2][64];
    const char *traces[2] = {paths[0], paths[1]};
    if (write_trace(paths[0], sizeof paths[0], 1, false) != 0 ||
        write_trace(paths[1], sizeof paths[1], 2, false) != 0) {
        CHECK(0, "cannot write the traces");
        return;
    }
    /* Five candidates: two geometries with both variants, one tuned. */
    stc_explore_candidate candidates[5];
    const unsigned shapes[][3] = {{4, 2048, 16}, {2, 1024, 32}, {8, 512, 16}};
    size_t count = 0;
    for (size_t shape = 0; shape < 3; shape++) {
        for (int wp = 1; wp >= 0 && count < 5; wp--) {
            stc_geometry geometry = geometry_of(shapes[shape][0], shapes[shape][1], shapes[shape][2]);
            CHECK(stc_explore_candidate_init(&candidates[count++], &geometry, wp, err, sizeof err) ==
                      0,
                  "candidate: %s", err);
        }
    }
    stc_explore_result results[3];
    for (unsigned workers = 1; workers <= 3; workers++) {
        stc_explore_request request = {.candidates = candidates, .candidate_count = count,
                                       .traces = traces, .trace_count = 2, .tuned = true,
                                       .workers = workers};
        int status = stc_explore_run(&request, &results[workers - 1], err, sizeof err);
        CHECK(status == 0, "run with %u workers: %s", workers, err);
        if (status != 0) {
            return;
        }
        CHECK_EQ_U64(results[workers - 1].references[0], TRACE_REFS, "references read");
    }
    for (size_t c = 0; c < count; c++) {
        for (size_t t = 0; t < 2; t++) {
            const stc_explore_cell *cell = stc_explore_cell_at(&results[0], c, t);
            double best_nj[2];
            stc_config best_config[2];
            plain_sweep_best(traces[t], &candidates[c], best_nj, best_config);
            for (int kind = STC_ICACHE; kind <= STC_DCACHE; kind++) {
                CHECK(cell->best[kind].energy.total_nj == best_nj[kind] &&
                          stc_config_equal(&cell->best[kind].config, &best_config[kind]),
                      "%s, trace %zu, cache %d: %.6f against the sweep's %.6f", candidates[c].name,
                      t, kind, cell->best[kind].energy.total_nj, best_nj[kind]);
                CHECK(!cell->best[kind].config.way_predict || candidates[c].way_prediction,
                      "%s: no _P without way prediction", candidates[c].name);
            }
            CHECK(cell->energy_nj == best_nj[0] + best_nj[1], "%s: the pair is I + D",
                  candidates[c].name);
            CHECK(cell->tuned == candidates[c].way_prediction, "%s: tuned where available",
                  candidates[c].name);
            /* Not >= the optimum: a tuner that follows the program's
             * phases may beat the best fixed configuration. */
            CHECK(!cell->tuned || (isfinite(cell->tuned_nj) && cell->tuned_nj > 0.5 * cell->energy_nj),
                  "%s: a tuned energy", candidates[c].name);
            for (unsigned workers = 2; workers <= 3; workers++) {
                CHECK(same_cell(cell, stc_explore_cell_at(&results[workers - 1], c, t)),
                      "%s, trace %zu: same with %u workers", candidates[c].name, t, workers);
            }
        }
    }
    for (unsigned workers = 1; workers <= 3; workers++) {
        stc_explore_result_free(&results[workers - 1]);
    }
    unlink(paths[0]);
    unlink(paths[1]);
}

static void test_run_errors(void)
{
    char err[ERR_LEN], paths[3][64];
    const char *traces[3] = {paths[0], paths[1], paths[2]};
    if (write_trace(paths[0], sizeof paths[0], 3, false) != 0 ||
        write_trace(paths[1], sizeof paths[1], 4, true) != 0 ||
        write_trace(paths[2], sizeof paths[2], 5, true) != 0) {
        CHECK(0, "cannot write the traces");
        return;
    }
    stc_explore_candidate candidates[2];
    stc_geometry geometry = geometry_of(4, 2048, 16);
    stc_explore_candidate_init(&candidates[0], &geometry, true, err, sizeof err);
    stc_explore_candidate_init(&candidates[1], &geometry, false, err, sizeof err);
    for (unsigned workers = 1; workers <= 3; workers++) {
        stc_explore_result result;
        stc_explore_request request = {.candidates = candidates, .candidate_count = 2,
                                       .traces = traces, .trace_count = 3, .workers = workers};
        int status = stc_explore_run(&request, &result, err, sizeof err);
        CHECK(status == 1, "a bad trace: status %d", status);
        CHECK(!strncmp(err, paths[1], strlen(paths[1])) && strstr(err, ":"),
              "%u workers: the first bad trace is named: %s", workers, err);
        CHECK(result.cells == NULL, "nothing kept on failure");
    }
    stc_explore_result result;
    stc_explore_request twice = {.candidates = candidates, .candidate_count = 2,
                                 .traces = traces, .trace_count = 1};
    stc_explore_candidate same[2] = {candidates[0], candidates[0]};
    twice.candidates = same;
    CHECK(stc_explore_run(&twice, &result, err, sizeof err) == 2, "a candidate listed twice");
    const char *stdin_trace[] = {"-"};
    stc_explore_request from_stdin = {.candidates = candidates, .candidate_count = 1,
                                      .traces = stdin_trace, .trace_count = 1};
    CHECK(stc_explore_run(&from_stdin, &result, err, sizeof err) == 2, "stdin refused");
    for (int index = 0; index < 3; index++) {
        unlink(paths[index]);
    }
}

int main(void)
{
    test_pareto();
    test_candidates();
    test_area_calibration();
    test_area_shape();
    test_run_equals_sweep();
    test_run_errors();
    return check_done("test_explore");
}
