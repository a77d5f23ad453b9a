/*
 * area_model.c - SRAM bits from the geometry, logic from the calibrated
 * linear models (area_model.h; docs/EXPLORER.md section 3).
 */
#include "area_model.h"

#include "config.h"
#include "energy.h"
#include "fixed.h"
#include "monitor.h"
#include "monitor_tuner.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- The calibrated coefficients ---------------------------------------
 *
 * Least squares per module and quantity (the relative error minimised) on
 * 17 synthesized caches (synth/synth.sh: Yosys 0.23, synth/lib/stc_ge.lib,
 * OSU 0.18 um cells after fanout repair; 2026-12-04). Re-check or re-fit
 * with scripts/area-calibrate.sh STCGEN STCSIM SYNTH_DIR. Each point's
 * logic, measured and modelled (geometry: banks x bank bytes / line bytes,
 * nowp: built without way prediction, I: the I-cache, READ_ONLY = 1):
 *
 *   point       geometry            GE  model  err    OSU um^2   model  err flops model  err
 *   default     4x2048/16        73701  73149 -0.7 1827682 1824974 -0.1  4416  4400 -0.4
 *   banks8      8x2048/16       184772 180727 -2.2 4494394 4405986 -2.0 11553 11521 -0.3
 *   line32      4x2048/32        55610  55423 -0.3 1390480 1398025 +0.5  3132  3117 -0.5
 *   banks2      2x2048/16        38005  37630 -1.0  972018  966700 -0.5  2257  2248 -0.4
 *   banks1      1x2048/16        23827  23856 +0.1  628531  630073 +0.2  1482  1482 +0.0
 *   bytes1k     4x1024/16        53912  53464 -0.8 1366005 1355762 -0.7  3133  3133 -0.0
 *   bytes4k     4x4096/16       113697 112534 -1.0 2821781 2763731 -2.1  6979  6936 -0.6
 *   bytes512    4x512/16         43837  43630 -0.5 1119372 1121322 +0.2  2490  2499 +0.4
 *   b8_512b     8x512/16         80507  81566 +1.3 2019098 2038964 +1.0  4635  4657 +0.5
 *   nowp        4x2048/16 nowp   70240  71631 +2.0 1750564 1794911 +2.5  4352  4362 +0.2
 *   banks2_nowp 2x2048/16 nowp   36645  37124 +1.3  946284  956680 +1.1  2193  2236 +1.9
 *   line32_b2   2x2048/32        32752  32110 -2.0  851545  833202 -2.2  1869  1862 -0.4
 *   default_ro  4x2048/16 I      68136  67854 -0.4 1696552 1684704 -0.7  4127  4109 -0.4
 *   banks1_ro   1x2048/16 I      22551  23059 +2.3  595101  608920 +2.3  1433  1434 +0.1
 *   banks2_ro   2x2048/16 I      35307  35136 -0.5  919508  900533 -2.1  2112  2103 -0.4
 *   bytes1k_ro  4x1024/16 I      48307  48170 -0.3 1210400 1215492 +0.4  2844  2842 -0.1
 *   b8_512b_ro  8x512/16 I       70723  71887 +1.6 1762270 1782957 +1.2  4154  4172 +0.4
 *
 * Worst (rounded up): GE 2.3 %, um^2 2.6 %, flops 2.0 %. Each point predicted by a fit
 * to the other 16 (leave one out): GE 5.7 %, um^2 5.5 % (both the 8 x 2 KB
 * cache, the largest), flops 2.4 %. The SRAM bits of every point equal
 * the report's exactly.
 */
typedef struct {
    const char *module;
    size_t term_count;
    const char *terms[STC_AREA_MAX_TERMS];
    double ge[STC_AREA_MAX_TERMS];
    double um2[STC_AREA_MAX_TERMS];
    double flops[STC_AREA_MAX_TERMS];
} module_model;

static const module_model models[STC_AREA_MODULES] = {
    [STC_AREA_TOP] = {"stc_cache", 1, {"one"}, {44.997}, {0}, {1}},
    [STC_AREA_CTRL] = {"stc_cache_ctrl", 5,
                       {"one", "bank_datapath_bits", "state_bits", "recency_bits",
                        "wp_other_banks"},
                       {10388.2, 3.85448, 18.8858, 13.0606, 506.104},
                       {293893, 83.1943, 448.468, 312.408, 10020.9},
                       {812.042, -0.0318289, 0.980851, 0.996527, 13.003}},
    [STC_AREA_MONITOR] = {"stc_monitor", 3, {"one", "counts", "array_row_bits"},
                          {822.721, 244.054, 5.73768},
                          {21494, 6497.46, 149.37},
                          {83.5026, 16.1476, -0.00736362}},
    [STC_AREA_DECISION] = {"stc_monitor_tuner", 2, {"one", "steps"},
                           {4361.54, 8.10689},
                           {112444, 205.204},
                           {168.517, 0.0583736}},
    [STC_AREA_POWER] = {"stc_power_ctrl", 2, {"one", "banks"},
                        {3.72176, 92.5121},
                        {193.986, 2328.67},
                        {1, 8}},
};

/* What the synthesis reports measured (scripts/area-calibrate.sh prints
 * these lines): name, banks, bank bytes, line bytes, way prediction,
 * I-cache, SRAM bits, logic GE, OSU um^2, flops. */
static const stc_area_calibration_point calibration[] = {
    {"default", 4, 2048, 16, true, false, 84640, 73700.708, 1827682, 4416},
    {"banks8", 8, 2048, 16, true, false, 176384, 184771.845, 4494394, 11553},
    {"line32", 4, 2048, 32, true, false, 75088, 55610.173, 1390480, 3132},
    {"banks2", 2, 2048, 16, true, false, 40736, 38004.541, 972018, 2257},
    {"banks1", 1, 2048, 16, true, false, 19672, 23826.674, 628531, 1482},
    {"bytes1k", 4, 1024, 16, true, false, 42576, 53911.803, 1366005, 3133},
    {"bytes4k", 4, 4096, 16, true, false, 168256, 113696.816, 2821781, 6979},
    {"bytes512", 4, 512, 16, true, false, 21416, 43836.952, 1119372, 2490},
    {"b8_512b", 8, 512, 16, true, false, 44608, 80506.757, 2019098, 4635},
    {"nowp", 4, 2048, 16, false, false, 84640, 70239.969, 1750564, 4352},
    {"banks2_nowp", 2, 2048, 16, false, false, 40736, 36644.914, 946284, 2193},
    {"line32_b2", 2, 2048, 32, true, false, 36752, 32751.976, 851545, 1869},
    {"default_ro", 4, 2048, 16, true, true, 82336, 68136.283, 1696552, 4127},
    {"banks1_ro", 1, 2048, 16, true, true, 19576, 22551.376, 595101, 1433},
    {"banks2_ro", 2, 2048, 16, true, true, 40160, 35307.281, 919508, 2112},
    {"bytes1k_ro", 4, 1024, 16, true, true, 41424, 48307.366, 1210400, 2844},
    {"b8_512b_ro", 8, 512, 16, true, true, 42688, 70722.604, 1762270, 4154},
};

/* The worst errors of the model above over those points. */
static const double calibration_error_ge = 0.023;
static const double calibration_error_um2 = 0.026;
static const double calibration_error_flops = 0.020;

/* ---- What the generator builds ------------------------------------------ */

/* The monitor the generator builds for one cache, as the generator shapes
 * it (gen/params.c derive_monitor): its counts, the bits of its arrays'
 * rows and of all its arrays, and its decision program's steps. */
typedef struct {
    unsigned counts;
    uint64_t row_bits;
    uint64_t sram_bits;
    size_t steps;
} monitor_shape;

static int shape_monitor(const stc_geometry *geometry, bool way_prediction, bool read_only,
                         monitor_shape *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    stc_monitor_shape shape = {STC_MONITOR_DEFAULT_SAMPLE_BITS, STC_MONITOR_DEFAULT_ROTATE,
                               STC_MONITOR_DEFAULT_TAG_BITS, read_only,
                               STC_MONITOR_DEFAULT_COUNTER_BITS, true};
    /* Whole line numbers as tags, to learn each mapping's room for a tag:
     * the generator stores min(tag bits, room) bits, the model always
     * tag bits. */
    stc_monitor_shape whole = shape;
    whole.tag_bits = 0;
    stc_monitor *monitor = stc_monitor_create(geometry, &shape, err, err_len);
    stc_monitor *whole_monitor = stc_monitor_create(geometry, &whole, err, err_len);
    stc_energy_table table;
    stc_fixed_monitor_coefficients coefficients;
    stc_monitor_program *program = malloc(sizeof *program);
    int status = -1;
    if (!monitor || !whole_monitor) {
        goto done;
    }
    if (!program) {
        snprintf(err, err_len, "out of memory");
        goto done;
    }
    stc_monitor_array arrays[STC_MONITOR_MAX_ARRAYS], whole_arrays[STC_MONITOR_MAX_ARRAYS];
    size_t array_count = stc_monitor_arrays(monitor, arrays, STC_MONITOR_MAX_ARRAYS);
    stc_monitor_arrays(whole_monitor, whole_arrays, STC_MONITOR_MAX_ARRAYS);
    unsigned writeback_counts = 0;
    for (size_t index = 0; index < array_count; index++) {
        unsigned tag_bits = STC_MONITOR_DEFAULT_TAG_BITS;
        unsigned ways = arrays[index].compare_bits / tag_bits;
        unsigned room = whole_arrays[index].compare_bits / ways;
        unsigned stored = room < tag_bits ? room : tag_bits;
        uint64_t row_bits = arrays[index].row_bits - (uint64_t)ways * (tag_bits - stored);
        out->row_bits += row_bits;
        out->sram_bits += row_bits * arrays[index].rows;
        writeback_counts += stc_log2(ways) + 1; /* one per depth bucket */
    }
    /* An I-cache's monitor counts no writebacks: synthesis removes those
     * counts, which the model keeps at zero. */
    out->counts = (unsigned)stc_monitor_counts(monitor, NULL, 0) -
                  (read_only ? writeback_counts : 0);
    if (stc_energy_default(geometry, &table, err, err_len) != 0 ||
        stc_fixed_monitor_from_table(&table, &coefficients, err, err_len) != 0 ||
        stc_monitor_program_build(monitor, geometry, &coefficients, read_only, way_prediction,
                                  program, err, err_len) != 0) {
        goto done;
    }
    out->steps = program->step_count;
    status = 0;
done:
    free(program);
    stc_monitor_destroy(monitor);
    stc_monitor_destroy(whole_monitor);
    return status;
}

/* The terms of every module's model for one cache. */
static void set_terms(stc_area_cache *cache, const stc_geometry *geometry, bool way_prediction,
                      const monitor_shape *monitor)
{
    double banks = geometry->banks, rows = geometry->rows;
    double line_bits = 8.0 * geometry->line_bytes;
    const double top[] = {1};
    /* Per slot (bank x row) a valid and a dirty bit (an I-cache's
     * controller keeps its dirty bits: synthesis measured the same flops
     * for READ_ONLY = 1); per row a banks x banks recency matrix without
     * its diagonal (ARCHITECTURE.md 15.1). The bank datapath: each bank's
     * tag compare and line multiplexing. Way prediction: the predicted-bank
     * logic and second probe, nothing with one bank. */
    const double ctrl[] = {1, banks * (geometry->tag_bits + line_bits), banks * rows * 2,
                           rows * banks * (banks - 1), way_prediction ? banks - 1 : 0};
    const double monitor_terms[] = {1, monitor->counts, (double)monitor->row_bits};
    const double decision[] = {1, (double)monitor->steps};
    const double power[] = {1, banks};
    const double *terms[STC_AREA_MODULES] = {
        [STC_AREA_TOP] = top, [STC_AREA_CTRL] = ctrl, [STC_AREA_MONITOR] = monitor_terms,
        [STC_AREA_DECISION] = decision, [STC_AREA_POWER] = power};
    for (int module = 0; module < STC_AREA_MODULES; module++) {
        stc_area_logic *logic = &cache->module[module];
        const module_model *model = &models[module];
        logic->term_count = model->term_count;
        for (size_t term = 0; term < model->term_count; term++) {
            logic->terms[term] = terms[module][term];
            logic->ge += model->ge[term] * logic->terms[term];
            logic->um2 += model->um2[term] * logic->terms[term];
            logic->flops += model->flops[term] * logic->terms[term];
        }
        cache->logic_ge += logic->ge;
        cache->logic_um2 += logic->um2;
        cache->flops += logic->flops;
    }
}

static int area_of_cache(const stc_geometry *geometry, bool way_prediction, bool read_only,
                         stc_area_cache *cache, char *err, size_t err_len)
{
    memset(cache, 0, sizeof *cache);
    monitor_shape monitor;
    if (shape_monitor(geometry, way_prediction, read_only, &monitor, err, err_len) != 0) {
        return -1;
    }
    uint64_t row_bits = geometry->tag_bits + 8u * geometry->line_bytes;
    cache->bank_sram_bits = (uint64_t)geometry->banks * geometry->rows * row_bits;
    cache->monitor_sram_bits = monitor.sram_bits;
    cache->sram_um2 =
        (double)(cache->bank_sram_bits + cache->monitor_sram_bits) * STC_AREA_SRAM_UM2_PER_BIT;
    set_terms(cache, geometry, way_prediction, &monitor);
    cache->total_um2 = cache->sram_um2 + cache->logic_um2;
    return 0;
}

int stc_area_of(const stc_geometry *geometry, bool way_prediction, stc_area *area, char *err,
                size_t err_len)
{
    memset(area, 0, sizeof *area);
    for (int kind = STC_ICACHE; kind <= STC_DCACHE; kind++) {
        stc_area_cache *cache = &area->cache[kind];
        if (area_of_cache(geometry, way_prediction, kind == STC_ICACHE, cache, err, err_len) !=
            0) {
            return -1;
        }
        area->sram_bits += cache->bank_sram_bits + cache->monitor_sram_bits;
        area->logic_ge += cache->logic_ge;
        area->logic_um2 += cache->logic_um2;
        area->sram_um2 += cache->sram_um2;
        area->total_um2 += cache->total_um2;
    }
    return 0;
}

const char *stc_area_module_name(stc_area_module module)
{
    return module < STC_AREA_MODULES ? models[module].module : "?";
}

const char *stc_area_term_name(stc_area_module module, size_t term)
{
    return module < STC_AREA_MODULES && term < models[module].term_count
               ? models[module].terms[term]
               : "?";
}

size_t stc_area_calibration_points(const stc_area_calibration_point **points)
{
    *points = calibration;
    return sizeof calibration / sizeof calibration[0];
}

bool stc_area_calibrated(const stc_geometry *geometry)
{
    unsigned low[3] = {UINT_MAX, UINT_MAX, UINT_MAX}, high[3] = {0, 0, 0};
    for (size_t index = 0; index < sizeof calibration / sizeof calibration[0]; index++) {
        const unsigned values[3] = {calibration[index].banks, calibration[index].bank_bytes,
                                    calibration[index].line_bytes};
        for (int field = 0; field < 3; field++) {
            low[field] = values[field] < low[field] ? values[field] : low[field];
            high[field] = values[field] > high[field] ? values[field] : high[field];
        }
    }
    const unsigned wanted[3] = {geometry->banks, geometry->bank_bytes, geometry->line_bytes};
    bool inside = geometry->addr_bits == 32;
    for (int field = 0; field < 3; field++) {
        inside = inside && wanted[field] >= low[field] && wanted[field] <= high[field];
    }
    return inside;
}

double stc_area_calibration_error_flops(void)
{
    return calibration_error_flops;
}

double stc_area_calibration_error_ge(void)
{
    return calibration_error_ge;
}

double stc_area_calibration_error_um2(void)
{
    return calibration_error_um2;
}
