/*
 * test_energy.c - the energy model (ref/energy.h, docs/ENERGY.md): the
 * equation on hand-computed cases, way-prediction accounting, the
 * architecture's monotonicity rules on the default table of several
 * geometries, the table file's round trip and every load error, and the
 * shipped default table file against the code that generates it.
 *
 * Run from the repository root (the default file is read as
 * energy/default-0.18um.txt). `test_energy --write-default FILE` writes the
 * default table of the default geometry to FILE (how the shipped file is
 * made).
 */
#include "check.h"
#include "energy.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const default_file = "energy/default-0.18um.txt";

static stc_geometry geometry_of(const char *list)
{
    stc_geometry g;
    stc_geometry_default(&g);
    char err[256];
    int rc = list ? stc_geometry_parse(&g, list, err, sizeof err) : stc_geometry_init(&g, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "bad test geometry %s: %s\n", list ? list : "(default)", err);
        exit(2);
    }
    return g;
}

static stc_config config_of(const stc_geometry *g, const char *name)
{
    stc_config c;
    char err[256];
    if (stc_config_parse(g, name, &c, err, sizeof err) != 0) {
        fprintf(stderr, "bad test configuration %s: %s\n", name, err);
        exit(2);
    }
    return c;
}

/* A table with exactly representable values, so sums compare exactly. */
static stc_energy_table hand_table(void)
{
    stc_energy_table t;
    memset(&t, 0, sizeof t);
    t.geometry = geometry_of(NULL);
    t.hit_nj[0][0] = 1.0;  /* 2K_1W */
    t.hit_nj[1][0] = 1.25; /* 4K_1W */
    t.hit_nj[1][1] = 2.0;  /* 4K_2W */
    t.hit_nj[2][0] = 1.5;  /* 8K_1W */
    t.hit_nj[2][1] = 2.5;  /* 8K_2W */
    t.hit_nj[2][2] = 4.0;  /* 8K_4W */
    t.miss_nj[0] = 20.0;   /* 16B */
    t.miss_nj[1] = 30.0;   /* 32B */
    t.miss_nj[2] = 50.0;   /* 64B */
    t.static_nj_per_cycle[0] = 0.125;
    t.static_nj_per_cycle[1] = 0.25;
    t.static_nj_per_cycle[2] = 0.5;
    t.writeback_nj = 24.0;
    t.walk_row_nj = 0.75;
    t.wake_nj = 3.0;
    t.stall_nj_per_cycle = 0.25;
    snprintf(t.source, sizeof t.source, "hand");
    return t;
}

#define CHECK_NJ(got, want, what)                                                              \
    CHECK((got) == (want), "%s: got %.17g nJ want %.17g nJ", what, (double)(got), (double)(want))

static void test_equation(void)
{
    stc_energy_table t = hand_table();
    const stc_geometry *g = &t.geometry;

    stc_counters c;
    memset(&c, 0, sizeof c);
    c.accesses = 1000;
    c.misses = 10;
    c.cycles = 1400;
    c.writebacks = 3;
    c.walk_writebacks = 2;
    c.walk_rows = 128;
    c.banks_woken = 2;
    c.first_probe_hits = 900; /* ignored with way prediction off */

    /* 8K_4W_32B, wp off:
     *   probe     = 1000 x E_hit(8K,4W) = 1000 x 4      = 4000
     *   miss      = 10 x E_miss(32B)    = 10 x 30       = 300
     *   static    = 1400 x E_static(8K) = 1400 x 0.5    = 700
     *   writeback = (3 + 2) x 24                        = 120
     *   reconfig  = 128 x 0.75 + 2 x 3  = 96 + 6        = 102
     *   total                                           = 5222 */
    stc_config cfg = config_of(g, "8K_4W_32B");
    stc_energy e = stc_energy_of(&t, &cfg, &c);
    CHECK_NJ(e.probe_nj, 4000.0, "8K_4W_32B probe");
    CHECK_NJ(e.miss_nj, 300.0, "8K_4W_32B miss");
    CHECK_NJ(e.static_nj, 700.0, "8K_4W_32B static");
    CHECK_NJ(e.writeback_nj, 120.0, "8K_4W_32B writeback");
    CHECK_NJ(e.reconfig_nj, 102.0, "8K_4W_32B reconfig");
    CHECK_NJ(e.total_nj, 5222.0, "8K_4W_32B total");

    /* 2K_1W_16B: 7 accesses, all misses, 7 x 25 = 175 cycles:
     *   probe 7 x 1 = 7; miss 7 x 20 = 140; static 175 x 0.125 = 21.875;
     *   total 168.875 */
    stc_counters d;
    memset(&d, 0, sizeof d);
    d.accesses = 7;
    d.misses = 7;
    d.cycles = 175;
    cfg = config_of(g, "2K_1W_16B");
    e = stc_energy_of(&t, &cfg, &d);
    CHECK_NJ(e.probe_nj, 7.0, "2K_1W_16B probe");
    CHECK_NJ(e.miss_nj, 140.0, "2K_1W_16B miss");
    CHECK_NJ(e.static_nj, 21.875, "2K_1W_16B static");
    CHECK_NJ(e.writeback_nj, 0.0, "2K_1W_16B writeback");
    CHECK_NJ(e.reconfig_nj, 0.0, "2K_1W_16B reconfig");
    CHECK_NJ(e.total_nj, 168.875, "2K_1W_16B total");

    /* Each index picks its own entry: 4K_1W_64B uses hit[1][0], miss[2],
     * static[1]: 100 x 1.25 + 2 x 50 + 400 x 0.25 = 125 + 100 + 100 = 325. */
    stc_counters f;
    memset(&f, 0, sizeof f);
    f.accesses = 100;
    f.misses = 2;
    f.cycles = 400;
    cfg = config_of(g, "4K_1W_64B");
    e = stc_energy_of(&t, &cfg, &f);
    CHECK_NJ(e.total_nj, 325.0, "4K_1W_64B total");

    /* No events, no energy. */
    stc_counters zero;
    memset(&zero, 0, sizeof zero);
    cfg = config_of(g, "8K_2W_16B_P");
    e = stc_energy_of(&t, &cfg, &zero);
    CHECK_NJ(e.total_nj, 0.0, "no events");

    /* stc_energy_add sums field by field: 8K_4W_32B + 2K_1W_16B. */
    stc_config a_cfg = config_of(g, "8K_4W_32B");
    stc_config b_cfg = config_of(g, "2K_1W_16B");
    stc_energy sum = stc_energy_of(&t, &a_cfg, &c);
    stc_energy part = stc_energy_of(&t, &b_cfg, &d);
    stc_energy_add(&sum, &part);
    CHECK_NJ(sum.probe_nj, 4007.0, "sum probe");
    CHECK_NJ(sum.miss_nj, 440.0, "sum miss");
    CHECK_NJ(sum.static_nj, 721.875, "sum static");
    CHECK_NJ(sum.writeback_nj, 120.0, "sum writeback");
    CHECK_NJ(sum.reconfig_nj, 102.0, "sum reconfig");
    CHECK_NJ(sum.total_nj, 5390.875, "sum total");
    CHECK_NJ(sum.total_nj, sum.probe_nj + sum.miss_nj + sum.static_nj + sum.writeback_nj +
                               sum.reconfig_nj,
             "sum total is the sum of the parts");

    /* A configuration the table's geometry does not have gives NaN. */
    stc_config bad = {.banks_on = 8, .ways = 1, .sublines = 1, .way_predict = false};
    e = stc_energy_of(&t, &bad, &c);
    CHECK(isnan(e.total_nj) && isnan(e.probe_nj), "illegal configuration gives NaN, got %g",
          e.total_nj);
}

static void test_way_prediction(void)
{
    stc_energy_table t = hand_table();
    const stc_geometry *g = &t.geometry;
    stc_counters c;
    memset(&c, 0, sizeof c);
    c.accesses = 1000;
    c.first_probe_hits = 900;
    c.second_probe_hits = 80;
    c.misses = 20;
    c.cycles = 1100;

    /* 8K_4W_32B_P: first-probe hits read one bank (E_hit(8K,1W) = 1.5);
     * the other 100 accesses (80 second-probe hits, 20 misses) read all
     * four candidates in the end (E_hit(8K,4W) = 4) and stalled the
     * processor for their second probe cycle (E_stall = 0.25):
     *   probe = 900 x 1.5 + 100 x (4 + 0.25) = 1350 + 425 = 1775 */
    stc_config cfg = config_of(g, "8K_4W_32B_P");
    stc_energy e = stc_energy_of(&t, &cfg, &c);
    CHECK_NJ(e.probe_nj, 1775.0, "8K_4W_32B_P probe");
    /* The rest of the equation does not depend on way prediction:
     *   20 x 30 + 1100 x 0.5 = 600 + 550 = 1150; total 2925 */
    CHECK_NJ(e.total_nj, 2925.0, "8K_4W_32B_P total");

    /* Way prediction off reads all four banks on every access: 4000. */
    cfg = config_of(g, "8K_4W_32B");
    CHECK_NJ(stc_energy_of(&t, &cfg, &c).probe_nj, 4000.0, "8K_4W_32B probe");

    /* 4K_2W_64B_P, 150 first-probe hits of 200:
     *   probe = 150 x E_hit(4K,1W) + 50 x (E_hit(4K,2W) + E_stall)
     *         = 187.5 + 50 x 2.25 = 187.5 + 112.5 = 300 */
    stc_counters d;
    memset(&d, 0, sizeof d);
    d.accesses = 200;
    d.first_probe_hits = 150;
    cfg = config_of(g, "4K_2W_64B_P");
    CHECK_NJ(stc_energy_of(&t, &cfg, &d).probe_nj, 300.0, "4K_2W_64B_P probe");

    /* Inconsistent counters (more first-probe hits than accesses) are
     * clamped: all 10 accesses at E_hit(8K,1W) = 15, never negative. */
    d.accesses = 10;
    d.first_probe_hits = 12;
    cfg = config_of(g, "8K_2W_16B_P");
    CHECK_NJ(stc_energy_of(&t, &cfg, &d).probe_nj, 15.0, "clamped first-probe hits");

    /* On the default table, way prediction with a good predictor is
     * cheaper per probe than a parallel 4-way read, and never cheaper
     * than direct-mapped. */
    stc_energy_table def;
    char err[256];
    CHECK(stc_energy_default(g, &def, err, sizeof err) == 0, "%s", err);
    cfg = config_of(g, "8K_4W_16B_P");
    stc_config par = config_of(g, "8K_4W_16B");
    stc_config dm = config_of(g, "8K_1W_16B");
    double wp = stc_energy_of(&def, &cfg, &c).probe_nj;
    double parallel = stc_energy_of(&def, &par, &c).probe_nj;
    double direct = stc_energy_of(&def, &dm, &c).probe_nj;
    CHECK(direct < wp && wp < parallel, "direct %g < wp %g < parallel %g", direct, wp, parallel);
}

/* The architecture's rules (docs/ENERGY.md section 2) on one table; with
 * plausible, also the magnitudes the tuning trade-offs rely on (checked on
 * cache shapes like the seed's, not on a 1 MiB or a 32 x 256 B one). */
static void check_rules(const stc_energy_table *t, const char *what, bool plausible)
{
    const stc_geometry *g = &t->geometry;
    unsigned sizes = stc_log2(g->banks) + 1;
    double max_hit = 0;
    for (unsigned ki = 0; ki < sizes; ki++) {
        for (unsigned ai = 0; ai <= ki; ai++) {
            double h = t->hit_nj[ki][ai];
            CHECK(h > 0 && isfinite(h), "%s: hit[%u][%u] = %g", what, ki, ai, h);
            if (h > max_hit) {
                max_hit = h;
            }
            /* more ways probed at the same size: strictly more */
            if (ai > 0) {
                CHECK(h > t->hit_nj[ki][ai - 1], "%s: hit[%u][%u] %g <= hit[%u][%u] %g", what, ki,
                      ai, h, ki, ai - 1, t->hit_nj[ki][ai - 1]);
            }
            /* more banks powered at the same ways: more (routing) */
            if (ki > ai) {
                CHECK(h > t->hit_nj[ki - 1][ai], "%s: hit[%u][%u] %g <= hit[%u][%u] %g", what, ki,
                      ai, h, ki - 1, ai, t->hit_nj[ki - 1][ai]);
            }
        }
        for (unsigned ai = ki + 1; ai < STC_MAX_SIZES; ai++) {
            CHECK(t->hit_nj[ki][ai] == 0, "%s: illegal hit[%u][%u] is %g, not 0", what, ki, ai,
                  t->hit_nj[ki][ai]);
        }
        double s = t->static_nj_per_cycle[ki];
        CHECK(s > 0 && isfinite(s), "%s: static[%u] = %g", what, ki, s);
        if (ki > 0) {
            CHECK(s > t->static_nj_per_cycle[ki - 1], "%s: static[%u] %g <= static[%u] %g", what,
                  ki, s, ki - 1, t->static_nj_per_cycle[ki - 1]);
        }
        /* static is small at 0.18 um: under 5 % of the cheapest probe */
        CHECK(!plausible || s < 0.05 * t->hit_nj[0][0], "%s: static[%u] %g not small against hit %g", what, ki,
              s, t->hit_nj[0][0]);
    }
    for (unsigned ki = sizes; ki < STC_MAX_SIZES; ki++) {
        CHECK(t->static_nj_per_cycle[ki] == 0, "%s: static[%u] beyond the banks", what, ki);
    }
    for (unsigned li = 0; li < STC_LINE_SIZES; li++) {
        CHECK(t->miss_nj[li] > 0 && isfinite(t->miss_nj[li]), "%s: miss[%u]", what, li);
        if (li > 0) {
            CHECK(t->miss_nj[li] > t->miss_nj[li - 1], "%s: miss[%u] %g <= miss[%u] %g", what, li,
                  t->miss_nj[li], li - 1, t->miss_nj[li - 1]);
        }
    }
    /* a miss costs many probes, even of the widest configuration */
    CHECK(!plausible || t->miss_nj[0] > 10 * max_hit, "%s: miss %g not >> widest hit %g", what, t->miss_nj[0],
          max_hit);
    CHECK(t->writeback_nj > 0 && t->walk_row_nj > 0 && t->wake_nj > 0,
          "%s: writeback %g walk_row %g wake %g", what, t->writeback_nj, t->walk_row_nj,
          t->wake_nj);
    /* a walk row reads tags only: cheaper than a writeback, which goes off chip */
    CHECK(t->walk_row_nj < t->writeback_nj, "%s: walk_row %g >= writeback %g", what,
          t->walk_row_nj, t->writeback_nj);
}

static void test_default_rules(void)
{
    static const char *const geometries[] = {
        /* seed-like shapes first (the plausibility checks apply to these 4) */
        NULL, /* the default: 4 x 2 KiB, 16 B lines */
        "banks=8,bank_bytes=1024,line_bytes=32",
        "banks=2,bank_bytes=4096",
        "addr_bits=64",
        /* corners: the rules still hold */
        "banks=1",
        "banks=32,bank_bytes=256,line_bytes=4",
        "banks=16,bank_bytes=65536,line_bytes=64",
        "banks=4,bank_bytes=1024,line_bytes=256",
        "mem_latency=0,wake_cycles=0",
        "mem_latency=200",
    };
    for (size_t i = 0; i < sizeof geometries / sizeof geometries[0]; i++) {
        stc_geometry g = geometry_of(geometries[i]);
        stc_energy_table t;
        char err[256];
        const char *what = geometries[i] ? geometries[i] : "default";
        CHECK(stc_energy_default(&g, &t, err, sizeof err) == 0, "%s: %s", what, err);
        check_rules(&t, what, i < 4);
        CHECK(strcmp(t.source, "default") == 0, "%s: source '%s'", what, t.source);
        CHECK(t.geometry.banks == g.banks && t.geometry.rows == g.rows, "%s: geometry kept", what);
    }

    /* A longer memory latency costs more stall energy per miss. */
    stc_energy_table fast, slow;
    char err[256];
    stc_geometry gf = geometry_of("mem_latency=10");
    stc_geometry gs = geometry_of("mem_latency=40");
    CHECK(stc_energy_default(&gf, &fast, err, sizeof err) == 0, "%s", err);
    CHECK(stc_energy_default(&gs, &slow, err, sizeof err) == 0, "%s", err);
    CHECK(slow.miss_nj[0] > fast.miss_nj[0] && slow.writeback_nj > fast.writeback_nj,
          "latency raises miss %g vs %g", slow.miss_nj[0], fast.miss_nj[0]);
    CHECK(slow.hit_nj[2][2] == fast.hit_nj[2][2], "latency leaves hits alone");
}

/* The default geometry's numbers, as docs/ENERGY.md lists them. */
static void test_default_numbers(void)
{
    stc_geometry g = geometry_of(NULL);
    stc_energy_table t;
    char err[256];
    CHECK(stc_energy_default(&g, &t, err, sizeof err) == 0, "%s", err);
    CHECK_NJ(t.hit_nj[0][0], 0.07065, "hit 2K_1W");
    CHECK_NJ(t.hit_nj[1][0], 0.07412, "hit 4K_1W");
    CHECK_NJ(t.hit_nj[1][1], 0.1413, "hit 4K_2W");
    CHECK_NJ(t.hit_nj[2][0], 0.08104, "hit 8K_1W");
    CHECK_NJ(t.hit_nj[2][1], 0.1482, "hit 8K_2W");
    CHECK_NJ(t.hit_nj[2][2], 0.2826, "hit 8K_4W");
    CHECK_NJ(t.miss_nj[0], 29.97, "miss 16B");
    CHECK_NJ(t.miss_nj[1], 41.26, "miss 32B");
    CHECK_NJ(t.miss_nj[2], 63.83, "miss 64B");
    CHECK_NJ(t.static_nj_per_cycle[0], 0.0002985, "static 2K");
    CHECK_NJ(t.static_nj_per_cycle[1], 0.0005217, "static 4K");
    CHECK_NJ(t.static_nj_per_cycle[2], 0.000968, "static 8K");
    CHECK_NJ(t.writeback_nj, 29.9, "writeback");
    CHECK_NJ(t.walk_row_nj, 0.2941, "walk_row");
    CHECK_NJ(t.wake_nj, 1.241, "wake");
    /* A walk's move (ENERGY.md, decisions: no counter, priced from the change's
     * result): a line read out as a writeback reads it, written as a fill
     * writes it, one stall; the cycle ending a row with moves, one stall. */
    double move_nj = 0, row_end_nj = 0;
    CHECK(stc_energy_walk_move_default(&g, &move_nj, &row_end_nj, err, sizeof err) == 0, "%s", err);
    CHECK_NJ(move_nj, 0.505, "walk move");
    CHECK_NJ(row_end_nj, t.stall_nj_per_cycle, "walk row end = one stall");
    CHECK(move_nj > row_end_nj && move_nj < t.writeback_nj / 10,
          "a move (%g nJ) costs a stall and a line's on-chip traffic, far below a writeback",
          move_nj);
}

/* The monitor's small arrays (ENERGY.md 3.8): the worked example there,
 * 16 rows of 48 cells with 32 compared. */
static void test_small_sram(void)
{
    stc_small_sram_energy array = stc_energy_small_sram(16, 48, 32);
    CHECK(fabs(array.rmw_nj - 0.01989792) < 1e-9, "read-modify-write %.9g nJ", array.rmw_nj);
    CHECK(fabs(array.leak_nj_per_cycle - 8.9856e-6) < 1e-12, "leakage %.9g nJ/cycle",
          array.leak_nj_per_cycle);
    /* A longer bitline and more cells cost more. */
    CHECK(stc_energy_small_sram(64, 48, 32).rmw_nj > array.rmw_nj, "more rows, more energy");
    CHECK(stc_energy_small_sram(16, 96, 32).rmw_nj > array.rmw_nj, "wider rows, more energy");
}

static void test_model_limits(void)
{
    char err[256];
    stc_energy_table t;
    stc_geometry g = geometry_of("bank_bytes=32768,line_bytes=16"); /* 2048 rows */
    CHECK(stc_energy_default(&g, &t, err, sizeof err) == -1 &&
              strstr(err, "2048 rows") != NULL && strstr(err, "--energy") != NULL,
          "tall bank: %s", err);
    g = geometry_of("bank_bytes=16384,line_bytes=16"); /* 1024 rows: still covered */
    CHECK(stc_energy_default(&g, &t, err, sizeof err) == 0, "1024 rows: %s", err);
    g = geometry_of("bank_bytes=4096,line_bytes=512");
    CHECK(stc_energy_default(&g, &t, err, sizeof err) == -1 &&
              strstr(err, "line_bytes=512") != NULL,
          "wide line: %s", err);
    stc_geometry_default(&g);
    g.banks = 3; /* not a legal geometry */
    CHECK(stc_energy_default(&g, &t, err, sizeof err) == -1 &&
              strncmp(err, "geometry: banks=3", 17) == 0,
          "illegal geometry: %s", err);
}

/* ---- files ------------------------------------------------------------ */

/* Write text to a new temporary file; the caller removes it. */
static void temp_file(char *path, size_t len, const char *text)
{
    snprintf(path, len, "/tmp/stc-energy-test-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0) {
        perror("mkstemp");
        exit(2);
    }
    FILE *f = fdopen(fd, "w");
    if (!f || fputs(text, f) == EOF || fclose(f) != 0) {
        perror(path);
        exit(2);
    }
}

static bool same_table(const stc_energy_table *a, const stc_energy_table *b)
{
    return memcmp(a->hit_nj, b->hit_nj, sizeof a->hit_nj) == 0 &&
           memcmp(a->miss_nj, b->miss_nj, sizeof a->miss_nj) == 0 &&
           memcmp(a->static_nj_per_cycle, b->static_nj_per_cycle,
                  sizeof a->static_nj_per_cycle) == 0 &&
           memcmp(&a->writeback_nj, &b->writeback_nj, sizeof(double)) == 0 &&
           memcmp(&a->walk_row_nj, &b->walk_row_nj, sizeof(double)) == 0 &&
           memcmp(&a->wake_nj, &b->wake_nj, sizeof(double)) == 0 &&
           a->geometry.banks == b->geometry.banks &&
           a->geometry.bank_bytes == b->geometry.bank_bytes &&
           a->geometry.line_bytes == b->geometry.line_bytes &&
           a->geometry.addr_bits == b->geometry.addr_bits &&
           a->geometry.mem_latency == b->geometry.mem_latency &&
           a->geometry.wake_cycles == b->geometry.wake_cycles;
}

/* Write t, load it back under its geometry, expect the same doubles. */
static void check_round_trip(const stc_energy_table *t, const char *what)
{
    char *text = NULL;
    size_t text_len = 0;
    FILE *mem = open_memstream(&text, &text_len);
    CHECK(mem && stc_energy_write(t, mem) == 0, "%s: write", what);
    fclose(mem);
    char path[64];
    temp_file(path, sizeof path, text);
    stc_energy_table back;
    char err[512];
    int rc = stc_energy_load(&t->geometry, path, &back, err, sizeof err);
    CHECK(rc == 0, "%s: load: %s", what, err);
    if (rc == 0) {
        CHECK(same_table(t, &back), "%s: round trip changed a value", what);
        CHECK(strcmp(back.source, path) == 0, "%s: source '%s' is not the path", what,
              back.source);
    }
    remove(path);
    free(text);
}

static void test_round_trip(void)
{
    static const char *const geometries[] = {NULL, "banks=8,bank_bytes=1024,line_bytes=32",
                                             "banks=1", "banks=32,bank_bytes=256,line_bytes=4"};
    for (size_t i = 0; i < sizeof geometries / sizeof geometries[0]; i++) {
        const char *what = geometries[i] ? geometries[i] : "default";
        stc_geometry g = geometry_of(geometries[i]);
        stc_energy_table t;
        char err[256];
        CHECK(stc_energy_default(&g, &t, err, sizeof err) == 0, "%s", err);
        check_round_trip(&t, what);
    }

    /* Values that need all 17 digits, tiny, huge and subnormal ones. */
    stc_energy_table t = hand_table();
    t.hit_nj[0][0] = 0.1;
    t.hit_nj[1][0] = 1.0 / 3.0;
    t.hit_nj[1][1] = 2.0 / 3.0;
    t.hit_nj[2][0] = 0x1.fffffffffffffp-1; /* largest double below 1 */
    t.hit_nj[2][1] = 1e300;
    t.hit_nj[2][2] = 0.0;
    t.miss_nj[0] = 5e-324; /* smallest subnormal */
    t.miss_nj[1] = 123456789.123456789;
    t.miss_nj[2] = 2.2250738585072014e-308;
    t.static_nj_per_cycle[0] = 1e-17;
    t.writeback_nj = 3.141592653589793;
    check_round_trip(&t, "awkward values");

    /* A table whose sizes are not whole KiB ("512B_1W"). */
    stc_geometry g = geometry_of("banks=4,bank_bytes=512,line_bytes=16");
    stc_energy_table small;
    char err[256];
    CHECK(stc_energy_default(&g, &small, err, sizeof err) == 0, "%s", err);
    check_round_trip(&small, "512 B banks");
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    stc_energy_write(&small, mem);
    fclose(mem);
    CHECK(strstr(text, "\nhit 512B_1W ") && strstr(text, "\nhit 1K_2W ") &&
              strstr(text, "\nstatic 2K ") && strstr(text, "\nmiss 64B "),
          "512 B bank names:\n%s", text);
    free(text);
}

/* The lines of a valid table for the default geometry, numbered as in the
 * file (line 1 = header). */
#define L01 "stc-energy-table 1\n"
#define L02 "geometry banks=4 bank_bytes=2048 line_bytes=16 addr_bits=32 mem_latency=20 wake_cycles=4\n"
#define L03 "hit 2K_1W 1 nJ\n"
#define L04 "hit 4K_1W 1 nJ\n"
#define L05 "hit 4K_2W 1 nJ\n"
#define L06 "hit 8K_1W 1 nJ\n"
#define L07 "hit 8K_2W 1 nJ\n"
#define L08 "hit 8K_4W 1 nJ\n"
#define L09 "miss 16B 1 nJ\n"
#define L10 "miss 32B 1 nJ\n"
#define L11 "miss 64B 1 nJ\n"
#define L12 "static 2K 1 nJ/cycle\n"
#define L13 "static 4K 1 nJ/cycle\n"
#define L14 "static 8K 1 nJ/cycle\n"
#define L15 "writeback 1 nJ\n"
#define L16 "walk_row 1 nJ\n"
#define L17 "wake 1 nJ\n"
#define L18 "stall 1 nJ/cycle\n"
#define AFTER_03 L04 L05 L06 L07 L08 L09 L10 L11 L12 L13 L14 L15 L16 L17 L18
#define ENTRIES L03 AFTER_03
#define VALID L01 L02 ENTRIES

/* Load text; expect failure with exactly "PATH" + suffix (or, with
 * prefix_only, a message starting so). */
static void check_load_error(const char *text, const char *suffix, bool prefix_only)
{
    stc_geometry g = geometry_of(NULL);
    char path[64];
    temp_file(path, sizeof path, text);
    char want[600];
    snprintf(want, sizeof want, "%s%s", path, suffix);
    stc_energy_table t;
    memset(&t, 0, sizeof t);
    t.hit_nj[0][0] = 42.0;
    char err[600] = "";
    int rc = stc_energy_load(&g, path, &t, err, sizeof err);
    bool same = prefix_only ? strncmp(err, want, strlen(want)) == 0 : strcmp(err, want) == 0;
    CHECK(rc == -1 && same, "load error:\n     got '%s'\n    want '%s'%s", err, want,
          prefix_only ? "..." : "");
    CHECK(t.hit_nj[0][0] == 42.0, "a failed load left the table alone");
    remove(path);
}

static void test_load_errors(void)
{
    stc_geometry g = geometry_of(NULL);
    char err[600];
    stc_energy_table t;

    /* The valid table loads, with comments, blank lines and CRLF. */
    char path[64];
    temp_file(path, sizeof path,
              "# a comment\n\n" L01 "  # indented comment\r\n" L02 "hit 2K_1W 0.5 nJ # trailing\r\n" AFTER_03);
    CHECK(stc_energy_load(&g, path, &t, err, sizeof err) == 0, "valid table: %s", err);
    CHECK(t.hit_nj[0][0] == 0.5 && t.hit_nj[2][2] == 1.0 && t.wake_nj == 1.0,
          "valid table values");
    remove(path);
    /* Entries in any order. */
    temp_file(path, sizeof path, L01 L02 L18 L17 L16 L15 L14 L13 L12 L11 L10 L09 L08 L07 L06 L05 L04 L03);
    CHECK(stc_energy_load(&g, path, &t, err, sizeof err) == 0, "reversed entries: %s", err);
    remove(path);
    /* Numbers in any plain decimal form. */
    temp_file(path, sizeof path, L01 L02 "hit 2K_1W 2.5e-1 nJ\n" "hit 4K_1W +1. nJ\n" "hit 4K_2W .25 nJ\n"
              "hit 8K_1W 1E2 nJ\n" "hit 8K_2W 0 nJ\n" L08 L09 L10 L11 L12 L13 L14 L15 L16 L17 L18);
    CHECK(stc_energy_load(&g, path, &t, err, sizeof err) == 0, "number forms: %s", err);
    CHECK(t.hit_nj[0][0] == 0.25 && t.hit_nj[1][0] == 1.0 && t.hit_nj[1][1] == 0.25 &&
              t.hit_nj[2][0] == 100.0 && t.hit_nj[2][1] == 0.0,
          "number forms values");
    remove(path);

    /* The file itself. */
    CHECK(stc_energy_load(&g, "/nonexistent/table.txt", &t, err, sizeof err) == -1 &&
              strcmp(err, "/nonexistent/table.txt: cannot open: No such file or directory") == 0,
          "missing file: %s", err);
    check_load_error("", ": no header 'stc-energy-table 1' (empty table)", false);
    check_load_error("# only comments\n\n", ": no header 'stc-energy-table 1' (empty table)",
                     false);

    /* Header. */
    check_load_error("stc-energy-table 2\n" L02 ENTRIES,
                     ":1: unsupported header (this program reads 'stc-energy-table 1')", false);
    check_load_error("stc-energy-table\n" L02 ENTRIES,
                     ":1: unsupported header (this program reads 'stc-energy-table 1')", false);
    check_load_error(L02 L01 ENTRIES, ":1: expected the header 'stc-energy-table 1' first",
                     false);
    check_load_error("# x\n" L03, ":2: expected the header 'stc-energy-table 1' first", false);
    check_load_error(L01 L02 L01 ENTRIES, ":3: second header line (the first is line 1)", false);

    /* Geometry line. */
    check_load_error(L01, ": missing the 'geometry ...' line", false);
    check_load_error(L01 ENTRIES, ":2: expected the 'geometry ...' line before the entries",
                     false);
    check_load_error(L01 L02 L02 ENTRIES, ":3: second geometry line (the first is line 2)",
                     false);
    check_load_error(L01 "geometry banks=8 bank_bytes=2048 line_bytes=16 addr_bits=32 "
                         "mem_latency=20 wake_cycles=4\n" ENTRIES,
                     ":2: the table is for banks=8, but the cache has banks=4 (a table holds "
                     "for one geometry)",
                     false);
    check_load_error(L01 "geometry banks=4 bank_bytes=2048 line_bytes=16 addr_bits=32 "
                         "mem_latency=30 wake_cycles=4\n" ENTRIES,
                     ":2: the table is for mem_latency=30, but the cache has mem_latency=20 (a "
                     "table holds for one geometry)",
                     false);
    check_load_error(L01 "geometry banks=4 bank_bytes=2048 line_bytes=16 addr_bits=32 "
                         "mem_latency=20\n" ENTRIES,
                     ":2: geometry line lacks wake_cycles=", false);
    check_load_error(L01 "geometry\n" ENTRIES, ":2: geometry line lacks banks=", false);
    check_load_error(L01 "geometry banks=4 banks=4 bank_bytes=2048 line_bytes=16 addr_bits=32 "
                         "mem_latency=20 wake_cycles=4\n" ENTRIES,
                     ":2: geometry names banks twice", false);
    check_load_error(L01 "geometry ways=2 banks=4 bank_bytes=2048 line_bytes=16 addr_bits=32 "
                         "mem_latency=20 wake_cycles=4\n" ENTRIES,
                     ":2: geometry parameter 'ways' unknown", true);
    check_load_error(L01 "geometry banks=four bank_bytes=2048 line_bytes=16 addr_bits=32 "
                         "mem_latency=20 wake_cycles=4\n" ENTRIES,
                     ":2: banks=four: not a decimal number", false);

    /* Entry keys and names. */
    check_load_error(L01 L02 "leak 2K 1 nJ\n" ENTRIES,
                     ":3: unknown entry 'leak' (entries: hit, miss, static, writeback, walk_row, "
                     "wake, stall)",
                     false);
    check_load_error(L01 L02 "hit 16K_1W 1 nJ\n" ENTRIES,
                     ":3: hit 16K_1W is not a (size, ways) of this geometry", false);
    check_load_error(L01 L02 "hit 2K_2W 1 nJ\n" ENTRIES,
                     ":3: hit 2K_2W is not a (size, ways) of this geometry", false);
    check_load_error(L01 L02 "hit 8k_4w 1 nJ\n" ENTRIES,
                     ":3: hit 8k_4w is not a (size, ways) of this geometry", false);
    check_load_error(L01 L02 "miss 128B 1 nJ\n" ENTRIES,
                     ":3: miss 128B is not a logical line size of this geometry", false);
    check_load_error(L01 L02 "static 16K 1 nJ/cycle\n" ENTRIES,
                     ":3: static 16K is not a size of this geometry", false);

    /* Duplicates and missing entries. */
    check_load_error(VALID "hit 4K_2W 2 nJ\n", ":19: duplicate entry hit 4K_2W (first at line 5)",
                     false);
    check_load_error(VALID "writeback 2 nJ\n",
                     ":19: duplicate entry writeback (first at line 15)", false);
    check_load_error(VALID "static 8K 2 nJ/cycle\n",
                     ":19: duplicate entry static 8K (first at line 14)", false);
    check_load_error(L01 L02 L03 L04 L06 L07 L08 L09 L10 L11 L12 L13 L14 L15 L16 L17 L18,
                     ": missing entry hit 4K_2W", false);
    check_load_error(L01 L02 L03 L04 L06 L07 L08 L09 L10 L11 L12 L13 L14 L15 L16 L18,
                     ": missing entry hit 4K_2W (and 1 more)", false);
    check_load_error(L01 L02 ENTRIES L17 "", ":19: duplicate entry wake (first at line 17)",
                     false);
    check_load_error(L01 L02 L03 L04 L05 L06 L07 L08 L09 L10 L12 L13 L14 L15 L16 L17 L18,
                     ": missing entry miss 64B", false);
    check_load_error(L01 L02 L03 L04 L05 L06 L07 L08 L09 L10 L11 L12 L13 L14 L16 L17 L18,
                     ": missing entry writeback", false);
    check_load_error(L01 L02 L03 L04 L05 L06 L07 L08 L09 L10 L11 L12 L13 L14 L15 L16 L17,
                     ": missing entry stall", false);
    check_load_error(L01 L02, ": missing entry hit 2K_1W (and 15 more)", false);

    /* Fields, units and values. */
    check_load_error(L01 L02 "hit 2K_1W 1\n" AFTER_03, ":3: expected 'hit SIZE_aW VALUE nJ'",
                     false);
    check_load_error(L01 L02 "hit 2K_1W 1 nJ extra\n" AFTER_03,
                     ":3: expected 'hit SIZE_aW VALUE nJ'", false);
    check_load_error(L01 L02 "hit\n" AFTER_03, ":3: expected 'hit SIZE_aW VALUE nJ'", false);
    check_load_error(L01 L02 L03 L04 L05 L06 L07 L08 "miss 16B 1\n" L10 L11 L12 L13 L14 L15 L16 L17,
                     ":9: expected 'miss LINE VALUE nJ'", false);
    check_load_error(L01 L02 L03 L04 L05 L06 L07 L08 L09 L10 L11 "static 2K 1\n" L13 L14 L15 L16 L17,
                     ":12: expected 'static SIZE VALUE nJ/cycle'", false);
    check_load_error(L01 L02 L03 L04 L05 L06 L07 L08 L09 L10 L11 L12 L13 L14 "writeback 1\n" L16 L17,
                     ":15: expected 'writeback VALUE nJ'", false);
    check_load_error(L01 L02 L03 L04 L05 L06 L07 L08 L09 L10 L11 L12 L13 L14 L15 "walk_row 1 nJ x\n" L17,
                     ":16: expected 'walk_row VALUE nJ'", false);
    check_load_error(L01 L02 "hit 2K_1W 1 pJ\n" AFTER_03, ":3: hit 2K_1W: unit 'pJ', expected 'nJ'",
                     false);
    check_load_error(L01 L02 "hit 2K_1W 1 nJ/cycle\n" AFTER_03,
                     ":3: hit 2K_1W: unit 'nJ/cycle', expected 'nJ'", false);
    check_load_error(L01 L02 L03 L04 L05 L06 L07 L08 L09 L10 L11 "static 2K 1 nJ\n" L13 L14 L15 L16 L17,
                     ":12: static 2K: unit 'nJ', expected 'nJ/cycle'", false);
    check_load_error(L01 L02 L03 L04 L05 L06 L07 L08 L09 L10 L11 L12 L13 L14 L15 L16 "wake 1 mW\n",
                     ":17: wake: unit 'mW', expected 'nJ'", false);
    check_load_error(L01 L02 "hit 2K_1W -0.5 nJ\n" AFTER_03, ":3: hit 2K_1W: negative energy -0.5",
                     false);
    check_load_error(L01 L02 L03 L04 L05 L06 L07 L08 L09 L10 L11 L12 L13 L14 L15 L16 "wake -1e-3 nJ\n",
                     ":17: wake: negative energy -1e-3", false);
    static const char *const not_numbers[] = {"abc", "1.2.3", "nan", "inf", "-inf", "0x10",
                                              "1e",  "1e+", ".",     "1,5", "--1",  "1e999",
                                              "+",   "1 e3"};
    for (size_t i = 0; i < sizeof not_numbers / sizeof not_numbers[0]; i++) {
        char text[1024], suffix[128];
        bool split = strchr(not_numbers[i], ' ') != NULL; /* "1 e3": a field too many */
        snprintf(text, sizeof text, L01 L02 "hit 2K_1W %s nJ\n" AFTER_03, not_numbers[i]);
        if (split) {
            snprintf(suffix, sizeof suffix, ":3: expected 'hit SIZE_aW VALUE nJ'");
        } else {
            snprintf(suffix, sizeof suffix, ":3: hit 2K_1W: '%s' is not a decimal number",
                     not_numbers[i]);
        }
        check_load_error(text, suffix, false);
    }

    /* Lines too long or with too many fields. */
    char *long_text = malloc(8192);
    size_t n = (size_t)snprintf(long_text, 8192, L01 L02 "# ");
    memset(long_text + n, 'x', 5000);
    snprintf(long_text + n + 5000, 8192 - n - 5000, "\n" ENTRIES);
    check_load_error(long_text, ":3: line longer than 4094 characters", false);
    free(long_text);
    check_load_error(L01 L02 "hit 2K_1W 1 nJ a b c d e f g h i j k l m n o p\n" AFTER_03,
                     ":3: too many fields (at most 16)", false);
}

/* Read a whole file; NULL if it cannot be read. */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

static void test_default_file(void)
{
    stc_geometry g = geometry_of(NULL);
    stc_energy_table t;
    char err[512];
    CHECK(stc_energy_default(&g, &t, err, sizeof err) == 0, "%s", err);
    char *want = NULL;
    size_t want_len = 0;
    FILE *mem = open_memstream(&want, &want_len);
    CHECK(stc_energy_write(&t, mem) == 0, "write default");
    fclose(mem);

    size_t got_len = 0;
    char *got = read_file(default_file, &got_len);
    CHECK(got != NULL, "cannot read %s (run from the repository root)", default_file);
    if (got) {
        CHECK(got_len == want_len && memcmp(got, want, want_len) == 0,
              "%s differs from what the code generates; regenerate it with "
              "test_energy --write-default %s",
              default_file, default_file);
        free(got);
    }
    free(want);

    stc_energy_table loaded;
    CHECK(stc_energy_load(&g, default_file, &loaded, err, sizeof err) == 0, "load %s: %s",
          default_file, err);
    CHECK(same_table(&loaded, &t), "%s loads as the default table", default_file);

    /* The default file names the default geometry: another geometry refuses it. */
    stc_geometry other = geometry_of("banks=8");
    CHECK(stc_energy_load(&other, default_file, &loaded, err, sizeof err) == -1 &&
              strstr(err, "the table is for banks=4, but the cache has banks=8") != NULL,
          "default file under banks=8: %s", err);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--write-default") == 0) {
        stc_geometry g = geometry_of(NULL);
        stc_energy_table t;
        char err[256];
        if (stc_energy_default(&g, &t, err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
        FILE *out = fopen(argv[2], "w");
        if (!out || stc_energy_write(&t, out) != 0 || fclose(out) != 0) {
            perror(argv[2]);
            return 1;
        }
        return 0;
    }
    if (argc != 1) {
        fprintf(stderr, "usage: %s [--write-default FILE]\n", argv[0]);
        return 2;
    }
    test_equation();
    test_way_prediction();
    test_default_rules();
    test_default_numbers();
    test_small_sram();
    test_model_limits();
    test_round_trip();
    test_load_errors();
    test_default_file();
    return check_done("test_energy");
}
