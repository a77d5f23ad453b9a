/*
 * test_coherence_energy.c - the coherent model's energy (docs/ENERGY.md
 * 3.9): terms recomputed by hand from the documented constants, agreement
 * with the single-cache table for the same cache, the per-core sums, and
 * geometries the model refuses; and the configurable caches' energy
 * (ENERGY.md 3.9.1): the per-configuration terms by hand, a tiny trace
 * through two configurations with every term worked out, and agreement
 * with the conventional model where the two price the same cache; and the
 * split by where the energy is spent (ENERGY.md 3.9.3): the arrays' line
 * fill and line read by hand, every part of a hand case, the parts adding
 * up to the totals.
 */
#include "check.h"
#include "coherence_energy.h"
#include "coherent.h"
#include "coherent_stc.h"
#include "energy.h"
#include "geometry.h"

#include <math.h>
#include <string.h>

static bool near(double got, double want, double tolerance)
{
    return fabs(got - want) <= tolerance;
}

static void test_terms(void)
{
    stc_coherence_energy terms;
    char err[256] = "";
    CHECK(stc_energy_coherence_default(8192, 4, 32, 32, &terms, err, sizeof err) == 0, "%s", err);
    /* ENERGY.md 3.9: (32 address + 4 command lines) x 0.5 toggles x
     * 4000 um x 0.2 fF/um x 1.8 V^2. */
    double bus = 36 * 0.5 * 800.0 * 1.8 * 1.8 * 1e-6;
    CHECK(near(terms.bus_address_nj, bus, 1e-12), "bus address phase %.9f nJ, by hand %.9f",
          terms.bus_address_nj, bus);
    /* ENERGY.md 3.4: a burst of 8 beats is 13.19 + 8 x 2.530 nJ (rounded
     * there); the fill and the line read add well under a nanojoule. */
    double burst = 13.19 + 8 * 2.530;
    CHECK(terms.memory_read_nj > burst - 0.01 && terms.memory_read_nj < burst + 1.0,
          "memory read %.4f nJ against a %.2f nJ burst", terms.memory_read_nj, burst);
    CHECK(terms.memory_write_nj > burst - 0.01 && terms.memory_write_nj < burst + 1.0,
          "memory write %.4f nJ against a %.2f nJ burst", terms.memory_write_nj, burst);
    /* On chip, a block costs tens of times less than from the SDRAM; the
     * shared bus carries 8 beats of 32 wires at 1.296 pJ each. */
    double bus_data = 8 * 32 * 0.5 * 800.0 * 1.8 * 1.8 * 1e-6;
    CHECK(terms.c2c_nj > bus_data && terms.c2c_nj < terms.memory_read_nj / 20,
          "cache to cache %.4f nJ (its bus part %.4f), memory read %.4f", terms.c2c_nj, bus_data,
          terms.memory_read_nj);
    CHECK(terms.snoop_lookup_nj > 0 && terms.snoop_lookup_nj < terms.access_nj,
          "a snoop reads tags only: %.4f against an access's %.4f", terms.snoop_lookup_nj,
          terms.access_nj);
    /* The same cache in the single-cache table: 4 banks of 2 KB, 32 B
     * lines, all 4 probed (stc's 8K_4W_32B without prediction). */
    stc_geometry geometry;
    stc_geometry_default(&geometry);
    geometry.banks = 4;
    geometry.bank_bytes = 2048;
    geometry.line_bytes = 32;
    stc_energy_table table;
    CHECK(stc_geometry_init(&geometry, err, sizeof err) == 0 &&
              stc_energy_default(&geometry, &table, err, sizeof err) == 0,
          "%s", err);
    CHECK(near(terms.access_nj, table.hit_nj[2][2], 1e-3 * table.hit_nj[2][2]),
          "access %.5f nJ, the single-cache table's hit_nj[8K][4W] %.5f", terms.access_nj,
          table.hit_nj[2][2]);
    /* Longer blocks cost more to move. */
    stc_coherence_energy longer;
    CHECK(stc_energy_coherence_default(8192, 4, 64, 32, &longer, err, sizeof err) == 0, "%s", err);
    CHECK(longer.memory_read_nj > terms.memory_read_nj && longer.c2c_nj > terms.c2c_nj,
          "64 B blocks cost more than 32 B ones");
}

static void test_refused(void)
{
    stc_coherence_energy terms;
    char err[256] = "";
    CHECK(stc_energy_coherence_default(8192, 3, 32, 32, &terms, err, sizeof err) != 0 &&
              strstr(err, "3-way") != NULL,
          "3 ways: %s", err);
    CHECK(stc_energy_coherence_default(8192, 0, 32, 32, &terms, err, sizeof err) != 0,
          "0 ways: %s", err);
    CHECK(stc_energy_coherence_default(1u << 20, 1, 16, 32, &terms, err, sizeof err) != 0 &&
              strstr(err, "lines per way") != NULL,
          "65536 lines in one way: %s", err);
}

/* Round prices, one decade per term, so every total shows which counts it
 * took (test_sums, test_split_by_hand). */
static stc_coherence_energy round_terms(void)
{
    return (stc_coherence_energy){.access_nj = 1, .snoop_lookup_nj = 10, .memory_read_nj = 100,
                                  .c2c_nj = 1000, .memory_write_nj = 10000,
                                  .bus_address_nj = 100000};
}

/* The hand-worked counts both tests price. */
static stc_coh_counters hand_counters(void)
{
    stc_coh_counters counters;
    memset(&counters, 0, sizeof counters);
    counters.hits = 5;
    counters.misses = 2;
    counters.snoop_lookups = 3;
    counters.mem_reads = 1;
    counters.c2c_received = 1;
    counters.mem_writebacks = 4;
    counters.bus_rd = 1;
    counters.bus_rdx = 1;
    counters.upgrades = 2;
    counters.bus_wb = 1;
    counters.c2c_supplied = 9; /* the supplier's side is charged to the receiver */
    return counters;
}

static void test_sums(void)
{
    stc_coherence_energy terms = round_terms();
    stc_coh_counters counters = hand_counters();
    counters.flushes = 3;      /* inside mem_writebacks already */
    stc_coh_energy energy;
    stc_coh_energy_of(&terms, &counters, &energy);
    CHECK(energy.access_nj == 7 && energy.snoop_nj == 30 && energy.memory_read_nj == 100 &&
              energy.c2c_nj == 1000 && energy.memory_write_nj == 40000 &&
              energy.bus_nj == 500000,
          "parts %g %g %g %g %g %g", energy.access_nj, energy.snoop_nj, energy.memory_read_nj,
          energy.c2c_nj, energy.memory_write_nj, energy.bus_nj);
    CHECK(energy.total_nj == 541137 && energy.filter_nj == 0, "total %g, filter %g",
          energy.total_nj, energy.filter_nj);
}

static bool close_to(double got, double want)
{
    return fabs(got - want) <= 1e-9 * fmax(1.0, fmax(fabs(got), fabs(want)));
}

/* The identities of ENERGY.md 3.9.3, whatever the terms: the caches' own,
 * off chip, the bus's address phases and data wires, the stall and way
 * prediction's probe stall make the whole; the arrays' shares, off chip
 * and the data wires make the three line moves; the caches' own is its
 * parts. */
static void expect_split_adds_up(const char *who, const stc_coh_energy *e)
{
    CHECK(close_to(e->cache_nj + e->offchip_nj + e->bus_nj + e->bus_data_nj + e->stall_nj +
                       e->probe_stall_nj,
                   e->total_with_stall_nj),
          "%s: cache %.6f + offchip %.6f + bus %.6f + bus data %.6f + stall %.6f + probe stall "
          "%.6f != the whole %.6f",
          who, e->cache_nj, e->offchip_nj, e->bus_nj, e->bus_data_nj, e->stall_nj,
          e->probe_stall_nj, e->total_with_stall_nj);
    CHECK(close_to(e->cache_lines_nj + e->offchip_nj + e->bus_data_nj,
                   e->memory_read_nj + e->c2c_nj + e->memory_write_nj),
          "%s: the line moves' shares %.6f + %.6f + %.6f != %.6f", who, e->cache_lines_nj,
          e->offchip_nj, e->bus_data_nj, e->memory_read_nj + e->c2c_nj + e->memory_write_nj);
    CHECK(close_to(e->cache_nj, e->access_nj - e->probe_stall_nj + e->snoop_nj + e->filter_nj +
                                    e->cache_lines_nj + e->static_nj),
          "%s: cache %.6f is not access - probe stall + snoop + filter + lines + static", who,
          e->cache_nj);
}

/* test_sums's counters and terms, with a line fill of 3 nJ and a line read
 * of 7 (ENERGY.md 3.9.3), worked out by hand: fills 1 memory read + 1
 * transfer, line reads 4 memory writes + 1 transfer (the supplier's read
 * is the receiver's): 2 x 3 + 5 x 7 = 41; off chip 1 x (100 - 3) + 4 x
 * (10000 - 7) = 40069; the transfer's bus data 1000 - 3 - 7 = 990; the
 * caches' own 7 + 30 + 41 = 78, + the filter's 43 = 121, + leakage 10 x
 * 0.5 = 126; the stall (20 x 0.25) is not the caches'. */
static void test_split_by_hand(void)
{
    stc_coherence_energy terms = round_terms();
    terms.line_fill_nj = 3;
    terms.line_read_nj = 7;
    stc_coh_counters counters = hand_counters(); /* c2c_supplied: the receivers pay */
    counters.flushes = 3;      /* inside mem_writebacks already */
    stc_coh_energy energy;
    stc_coh_energy_of(&terms, &counters, &energy);
    CHECK(energy.cache_lines_nj == 41 && energy.offchip_nj == 40069 &&
              energy.bus_data_nj == 990 && energy.cache_nj == 78 && energy.probe_stall_nj == 0,
          "split: lines %g, offchip %g, bus data %g, cache %g (by hand 41, 40069, 990, 78)",
          energy.cache_lines_nj, energy.offchip_nj, energy.bus_data_nj, energy.cache_nj);
    stc_sf_energy_terms filter = {.lookup_nj = 1, .write_nj = 10};
    stc_sf_counters filter_counters = {.filter_lookups = 3, .filter_writes = 4};
    stc_coh_energy_add_filter(&filter, &filter_counters, &energy);
    CHECK(energy.cache_nj == 121 && energy.offchip_nj == 40069, "with the filter: cache %g",
          energy.cache_nj);
    stc_coh_energy_add_static(&energy, 10, 0.5);
    stc_coh_energy_add_stall(&energy, 20, 0.25);
    CHECK(energy.cache_nj == 126 && energy.stall_nj == 5 && energy.total_with_stall_nj == 541190,
          "with leakage and stall: cache %g, stall %g, whole %g (by hand 126, 5, 541190)",
          energy.cache_nj, energy.stall_nj, energy.total_with_stall_nj);
    expect_split_adds_up("hand case", &energy);
    /* Cores add field by field. */
    stc_coh_energy sum = energy;
    stc_coh_energy_add(&sum, &energy);
    CHECK(sum.cache_nj == 252 && sum.cache_lines_nj == 82 && sum.offchip_nj == 80138 &&
              sum.bus_data_nj == 1980,
          "two cores: cache %g, lines %g, offchip %g, bus data %g", sum.cache_nj,
          sum.cache_lines_nj, sum.offchip_nj, sum.bus_data_nj);
    /* Terms without the arrays' shares (an older caller's): the moves are
     * all off chip or on the bus, and the identities still hold. */
    terms.line_fill_nj = terms.line_read_nj = 0;
    stc_coh_energy_of(&terms, &counters, &energy);
    CHECK(energy.cache_lines_nj == 0 && energy.offchip_nj == 40100 && energy.bus_data_nj == 1000 &&
              energy.cache_nj == 37,
          "no shares: lines %g, offchip %g, bus data %g, cache %g", energy.cache_lines_nj,
          energy.offchip_nj, energy.bus_data_nj, energy.cache_nj);
    expect_split_adds_up("no shares", &energy);
}

/* The snoop filter's terms (ENERGY.md 3.9), by hand from the constants of
 * ENERGY.md 3.2 and 3.8, for the default exclude filter of 32 sets x 4
 * ways beside 32-byte lines, 32-bit addresses: a tag of 32 - 5 - 5 = 22
 * bits, a row of 4 x (22 + 1) + 4 x 2 LRU bits = 100 cells. */
static void test_filter_terms(void)
{
    stc_sf_config filter = {.kind = STC_SF_EXCLUDE, .sets = 32, .ways = 4, .blocks = 1};
    stc_sf_energy_terms terms;
    CHECK(stc_coh_filter_terms(&filter, 32, 32, &terms) == 0, "terms of a filter");
    const double v2 = 1.8 * 1.8 * 1e-6; /* fF x V^2 in nJ */
    double decode = 5 * 0.5 * (100 + 32 * 1.0) * v2;
    double wordline = 100 * 2.5 * v2;
    double bitline = 32 * 2.0 + 20; /* fF */
    double read = 100 * (bitline * 1.8 * 0.5 * 1e-6 + 45 * v2);
    double compare = 4 * 22 * 0.5 * 20 * v2;
    double lookup = decode + wordline + read + compare;
    double write = decode + wordline + (22 + 1 + 8) * bitline * v2;
    CHECK(near(terms.lookup_nj, lookup, 1e-9), "lookup %.7f nJ, by hand %.7f", terms.lookup_nj,
          lookup);
    CHECK(near(terms.write_nj, write, 1e-9), "write %.7f nJ, by hand %.7f", terms.write_nj, write);
    /* The lookup and a write of the whole row make the small-array model's
     * read-modify-write (ENERGY.md 3.8), less the decode done once there. */
    stc_small_sram_energy rmw = stc_energy_small_sram(32, 100, 88);
    double whole_write = decode + wordline + 100 * bitline * v2;
    CHECK(near(terms.lookup_nj + whole_write - decode, rmw.rmw_nj, 1e-9),
          "lookup + write of the row = stc_energy_small_sram's %.6f", rmw.rmw_nj);
    /* ENERGY.md 3.8's worked example: R 16, C 48, T 32: 19.90 pJ, of which
     * the write 8.09 and one wordline 0.39: a read of 11.42 pJ (the
     * subtraction stc_coh_filter_terms makes). */
    double cheaper = stc_energy_small_sram(16, 48, 32).rmw_nj - 48 * (16 * 2.0 + 20) * v2 -
                     48 * 2.5 * v2;
    CHECK(near(cheaper, 0.01142, 0.00001), "the worked example's read: %.5f nJ", cheaper);
    /* The snoop lookup it saves costs more than the filter's lookup only
     * for small filters (COHERENCE.md 9.8). */
    stc_coherence_energy cache;
    char err[256];
    CHECK(stc_energy_coherence_default(8192, 4, 32, 32, &cache, err, sizeof err) == 0, "%s", err);
    stc_sf_config small = {.kind = STC_SF_EXCLUDE, .sets = 8, .ways = 1, .blocks = 1};
    stc_sf_energy_terms small_terms;
    CHECK(stc_coh_filter_terms(&small, 32, 32, &small_terms) == 0 &&
              small_terms.lookup_nj < terms.lookup_nj / 3 &&
              small_terms.lookup_nj < cache.snoop_lookup_nj / 5,
          "8x1 lookup %.5f, 32x4 %.5f, snoop lookup %.5f", small_terms.lookup_nj, terms.lookup_nj,
          cache.snoop_lookup_nj);
    stc_sf_config none = {.kind = STC_SF_NONE};
    CHECK(stc_coh_filter_terms(&none, 32, 32, &terms) != 0, "no filter, no terms");

    /* Sums: lookups and writes priced, added to the total. */
    stc_sf_energy_terms unit = {.lookup_nj = 1, .write_nj = 10};
    stc_sf_counters counters = {.snoops_filtered = 100, .snoop_misses = 1000,
                                .filter_lookups = 3, .filter_writes = 4};
    stc_coh_energy energy = {.total_nj = 5};
    stc_coh_energy_add_filter(&unit, &counters, &energy);
    CHECK(energy.filter_nj == 43 && energy.total_nj == 48, "filter %g total %g", energy.filter_nj,
          energy.total_nj);
}

/* ---- configurable caches (ENERGY.md 3.9.1) ---------------------------- */

static stc_geometry default_geometry(void)
{
    stc_geometry geometry;
    char err[256] = "";
    stc_geometry_default(&geometry);
    CHECK(stc_geometry_init(&geometry, err, sizeof err) == 0, "%s", err);
    return geometry;
}

static stc_config config_named(const stc_geometry *geometry, const char *name)
{
    stc_config config = {0};
    char err[256] = "";
    CHECK(stc_config_parse(geometry, name, &config, err, sizeof err) == 0, "%s: %s", name, err);
    return config;
}

static stc_cstc_energy_model default_model(const stc_geometry *geometry)
{
    stc_cstc_energy_model model;
    char err[256] = "";
    CHECK(stc_cstc_energy_model_default(geometry, &model, err, sizeof err) == 0, "%s", err);
    return model;
}

/* The default geometry's snoop probe by hand (ENERGY.md 3.2 constants):
 * 4 banks of 2 KiB, 16 B lines, so R = 128 rows, a 32 - 11 = 21-bit tag,
 * 128 + 21 = 149 columns; bank pitch sqrt(128 x 149 x 4.5 x 1.3) um. */
static double hand_bank_tag_probe_nj(void)
{
    const double v2 = 1.8 * 1.8 * 1e-6;                   /* fF x V^2 in nJ */
    double decode = 7 * 0.5 * (100 + 128 * 1.0) * v2;     /* log2 R bits */
    double bitlines = 21 * (128 * 2.0 + 20) * 1.8 * 0.5 * 1e-6; /* 0.5 V swing */
    double wordline = 21 * 2.5 * v2;                      /* the tag cells only */
    double sense = 21 * 45 * v2;
    double compare = 21 * 0.5 * 20 * v2;
    return decode + bitlines + wordline + sense + compare; /* 11.71 pJ */
}

static double hand_route_per_bank_nj(void)
{
    const double v2 = 1.8 * 1.8 * 1e-6;
    double pitch_um = sqrt(128 * 149 * 4.5 * 1.3);        /* 334.0 um */
    return (32 + 32) * 0.25 * pitch_um * 0.2 * v2;        /* address + data bus: 3.46 pJ */
}

/* The default geometry's line moves by hand (ENERGY.md 3.2, 3.4, 3.9,
 * 3.9.3): 149 columns of 128 rows (bitline 128 x 2 + 20 fF), a 16 B line
 * of 4 beats over a port wire of half the row of 4 banks. */
static double hand_line_port_nj(void)
{
    const double v2 = 1.8 * 1.8 * 1e-6;
    double pitch_um = sqrt(128 * 149 * 4.5 * 1.3);
    return 4 * 32 * 0.5 * (pitch_um * 0.2 * 4 / 2) * v2;
}

static double hand_line_fill_nj(void)
{
    const double v2 = 1.8 * 1.8 * 1e-6;
    double bitlines = 149 * (128 * 2.0 + 20) * v2; /* full swing */
    double wordline = 149 * 2.5 * v2;
    double decode = 7 * 0.5 * (100 + 128 * 1.0) * v2;
    return bitlines + wordline + decode + hand_line_port_nj(); /* 0.1647 nJ */
}

static double hand_line_read_nj(void)
{
    const double v2 = 1.8 * 1.8 * 1e-6;
    double bitlines = 149 * (128 * 2.0 + 20) * 1.8 * 0.5 * 1e-6; /* 0.5 V swing */
    double wordline = 149 * 2.5 * v2;
    double sense = 149 * 45 * v2;
    double decode = 7 * 0.5 * (100 + 128 * 1.0) * v2;
    return bitlines + wordline + sense + decode + hand_line_port_nj(); /* 0.0902 nJ */
}

/* The SDRAM burst of 4 beats (ENERGY.md 3.4: 13.19 + 4 x 2.530 nJ, here
 * unrounded) and the shared bus's 4 beats of 32 data wires (3.9). */
static double hand_burst_nj(void)
{
    double beat_core = (120.0 - 45.0) * 3.3 * 6.0 * 1e-3;
    double pin = 12.0 * 3.3 * 3.3 / 2.0 * 1e-3;
    double fixed = (120.0 - 45.0) * 3.3 * 60.0 * 1e-3 - 2 * beat_core + 2 * 20 * 0.5 * pin;
    return fixed + 4 * (beat_core + 32 * 0.5 * pin);
}

static double hand_bus_data_nj(void)
{
    return 4 * 32 * 0.5 * 4000.0 * 0.2 * 1.8 * 1.8 * 1e-6;
}

static void test_split_terms(void)
{
    stc_geometry geometry = default_geometry();
    stc_cstc_energy_model model = default_model(&geometry);
    const stc_coherence_energy *line = &model.line;
    double fill = hand_line_fill_nj(), read = hand_line_read_nj();
    CHECK(near(line->line_fill_nj, fill, 1e-9) && near(fill, 0.16474, 1e-5),
          "line fill %.7f nJ, by hand %.7f", line->line_fill_nj, fill);
    CHECK(near(line->line_read_nj, read, 1e-9) && near(read, 0.09023, 1e-5),
          "line read %.7f nJ, by hand %.7f", line->line_read_nj, read);
    /* What is left of each move is the part outside the arrays. */
    double burst = hand_burst_nj(), bus_data = hand_bus_data_nj();
    CHECK(near(line->memory_read_nj - line->line_fill_nj, burst, 1e-9) &&
              near(line->memory_write_nj - line->line_read_nj, burst, 1e-9) &&
              near(burst, 23.30856, 1e-5),
          "memory read %.6f, write %.6f less the arrays' shares against a burst of %.6f nJ",
          line->memory_read_nj, line->memory_write_nj, burst);
    CHECK(near(line->c2c_nj - line->line_fill_nj - line->line_read_nj, bus_data, 1e-9),
          "a transfer less the arrays' shares %.6f, the bus's data wires %.6f",
          line->c2c_nj - line->line_fill_nj - line->line_read_nj, bus_data);
    /* Every configuration moves the same physical lines. */
    stc_config small = config_named(&geometry, "2K_1W_64B");
    stc_coherence_energy terms;
    stc_cstc_energy_terms(&model, &small, &terms);
    CHECK(terms.line_fill_nj == line->line_fill_nj && terms.line_read_nj == line->line_read_nj,
          "2K_1W_64B moves the geometry's physical lines");
}

static void test_stc_terms(void)
{
    stc_geometry geometry = default_geometry();
    stc_cstc_energy_model model = default_model(&geometry);
    double tag = hand_bank_tag_probe_nj(), route = hand_route_per_bank_nj();
    CHECK(near(model.probe.bank_tag_probe_nj, tag, 1e-9) && near(tag, 0.011714, 1e-6),
          "tag probe %.7f nJ, by hand %.7f", model.probe.bank_tag_probe_nj, tag);
    CHECK(near(model.probe.route_per_bank_nj, route, 1e-9) && near(route, 0.0034631, 1e-7),
          "routing %.7f nJ, by hand %.7f", model.probe.route_per_bank_nj, route);
    /* access = hit(k, a) of the table (ENERGY.md 3.6); snoop = a tag
     * probes + k banks' routing, with or without way prediction. */
    static const struct {
        const char *name;
        double hit, ways, banks;
    } cases[] = {{"8K_4W_32B", 0.2826, 4, 4}, {"8K_2W_16B_P", 0.1482, 2, 4},
                 {"2K_1W_64B", 0.07065, 1, 1}, {"4K_2W_16B", 0.1413, 2, 2}};
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        stc_config config = config_named(&geometry, cases[i].name);
        stc_coherence_energy terms;
        stc_cstc_energy_terms(&model, &config, &terms);
        double snoop = cases[i].ways * tag + cases[i].banks * route;
        CHECK(terms.access_nj == cases[i].hit && near(terms.snoop_lookup_nj, snoop, 1e-9),
              "%s: access %.5f (table %.5f), snoop %.6f (by hand %.6f)", cases[i].name,
              terms.access_nj, cases[i].hit, terms.snoop_lookup_nj, snoop);
        CHECK(terms.memory_read_nj == model.line.memory_read_nj &&
                  terms.bus_address_nj == model.line.bus_address_nj,
              "%s: per-line terms are the geometry's", cases[i].name);
    }
}

/* Every part of got as want has it, and the total their sum. */
static void expect_energy(const char *who, const stc_coh_energy *got, const stc_coh_energy *want)
{
    const double got_parts[] = {got->access_nj,      got->snoop_nj,        got->memory_read_nj,
                                got->c2c_nj,         got->memory_write_nj, got->bus_nj};
    const double want_parts[] = {want->access_nj,  want->snoop_nj,        want->memory_read_nj,
                                 want->c2c_nj,     want->memory_write_nj, want->bus_nj};
    static const char *const names[] = {"access", "snoop", "memory read", "c2c", "memory write",
                                        "bus"};
    double total = 0;
    for (unsigned i = 0; i < 6; i++) {
        CHECK(near(got_parts[i], want_parts[i], 1e-9), "%s: %s %.6f nJ, by hand %.6f", who,
              names[i], got_parts[i], want_parts[i]);
        total += want_parts[i];
    }
    CHECK(near(got->total_nj, total, 1e-9) && got->filter_nj == 0, "%s: total %.6f, by hand %.6f",
          who, got->total_nj, total);
}

/* Two cores, MESI, core 0 in 8K_4W_32B (k 4, a 4, 2 physical lines a
 * logical line), core 1 in 8K_2W_16B_P (k 4, a 2, way prediction):
 *   1. core 0 loads 0x1000: a miss; its logical line is 0x1000 and 0x1010:
 *      2 BusRd, both from memory; core 1 snoops 2.
 *   2. core 1 loads 0x1000: a miss, 1 BusRd from memory (core 0's E
 *      copy becomes S); core 0 snoops 1.
 *   3. core 1 loads 0x1000 again: a hit in the bank just filled, the
 *      predicted one: a first-probe hit.
 *   4. core 1 stores 0x1010: a miss, 1 BusRdX from memory (core 0's E
 *      copy of 0x1010 is invalidated); core 0 snoops 1.
 *   5. core 0 loads 0x1010: its logical line misses the one physical line
 *      0x1010 (0x1000 is still there): 1 BusRd, supplied by core 1's M
 *      copy, which flushes (memory write) and becomes S; core 1 snoops 1.
 * Core 0: 2 accesses, 2 memory reads, 1 block from core 1, 3 BusRd,
 * 2 snoop lookups. Core 1: 3 accesses (1 first-probe hit, 2 misses that
 * read both candidates and waited a second cycle), 2 memory reads, 1
 * memory write, BusRd + BusRdX, 3 snoop lookups. */
static void test_stc_tiny_trace(void)
{
    stc_geometry geometry = default_geometry();
    stc_cstc_energy_model model = default_model(&geometry);
    stc_cstc_config config = {.cores = 2, .geometry = geometry, .protocol = STC_COH_MESI};
    config.configs[0] = config_named(&geometry, "8K_4W_32B");
    config.configs[1] = config_named(&geometry, "8K_2W_16B_P");
    char err[256] = "";
    stc_cstc_system *system = stc_cstc_create(&config, err, sizeof err);
    CHECK(system != NULL, "%s", err);
    if (!system)
        return;
    static const struct {
        unsigned core;
        stc_coh_op op;
        uint64_t addr;
    } steps[] = {{0, STC_COH_OP_LOAD, 0x1000},
                 {1, STC_COH_OP_LOAD, 0x1000},
                 {1, STC_COH_OP_LOAD, 0x1000},
                 {1, STC_COH_OP_STORE, 0x1010},
                 {0, STC_COH_OP_LOAD, 0x1010}};
    for (unsigned i = 0; i < sizeof steps / sizeof steps[0]; i++)
        CHECK(stc_cstc_access(system, steps[i].core, steps[i].op, steps[i].addr, 4, i + 1,
                              NULL) == 0,
              "step %u: %s", i + 1, stc_cstc_error(system));
    stc_cstc_counters core0, core1;
    stc_cstc_core_counters(system, 0, &core0);
    stc_cstc_core_counters(system, 1, &core1);
    CHECK(core0.cache.accesses == 2 && core0.coherence.mem_reads == 2 &&
              core0.coherence.c2c_received == 1 && core0.coherence.bus_rd == 3 &&
              core0.coherence.snoop_lookups == 2 && core0.coherence.mem_writebacks == 0,
          "core 0's counters as worked out");
    CHECK(core1.cache.accesses == 3 && core1.cache.first_probe_hits == 1 &&
              core1.coherence.mem_reads == 2 && core1.coherence.mem_writebacks == 1 &&
              core1.coherence.bus_rd + core1.coherence.bus_rdx == 2 &&
              core1.coherence.snoop_lookups == 3 && core1.coherence.c2c_received == 0,
          "core 1's counters as worked out");
    double tag = hand_bank_tag_probe_nj(), route = hand_route_per_bank_nj();
    const stc_coherence_energy *line = &model.line;
    /* Core 0: 2 x hit(8K, 4W) = 2 x 0.2826; snoops 2 x (4 tag probes + 4
     * banks' routing); 2 memory reads, 1 transfer, 3 address phases. */
    stc_coh_energy want0 = {.access_nj = 2 * 0.2826, .snoop_nj = 2 * (4 * tag + 4 * route),
                            .memory_read_nj = 2 * line->memory_read_nj, .c2c_nj = line->c2c_nj,
                            .bus_nj = 3 * line->bus_address_nj};
    /* Core 1: 1 x hit(8K, 1W) + 2 x (hit(8K, 2W) + stall) = 0.08104 +
     * 2 x (0.1482 + 0.25); snoops 3 x (2 tag probes + 4 banks' routing);
     * 2 memory reads, 1 memory write (the flush), 2 address phases. */
    stc_coh_energy want1 = {.access_nj = 0.08104 + 2 * (0.1482 + 0.25),
                            .snoop_nj = 3 * (2 * tag + 4 * route),
                            .memory_read_nj = 2 * line->memory_read_nj,
                            .memory_write_nj = line->memory_write_nj,
                            .bus_nj = 2 * line->bus_address_nj};
    stc_coh_energy e0, e1;
    stc_cstc_energy_of(&model, &config.configs[0], &core0, &e0);
    stc_cstc_energy_of(&model, &config.configs[1], &core1, &e1);
    expect_energy("core 0", &e0, &want0);
    expect_energy("core 1", &e1, &want1);
    stc_coh_energy sum = e0;
    stc_coh_energy_add(&sum, &e1);
    CHECK(near(sum.total_nj, e0.total_nj + e1.total_nj, 1e-12) && sum.filter_nj == 0,
          "the cores add up");
    /* Where it is spent (ENERGY.md 3.9.3), by hand. Core 0 filled 3 lines
     * (2 from memory, 1 from core 1) and is charged core 1's line read for
     * the transfer: lines 3 x fill + read, off chip 2 bursts, the bus's
     * data wires once. Core 1 filled 2 and read 1 out for its flush: lines
     * 2 x fill + read, off chip 3 bursts, no bus data; its two probe
     * sequences that were not first-probe hits each waited a second probe
     * cycle (2 x 0.25 nJ), the processor's, not the cache's. */
    double fill = hand_line_fill_nj(), read = hand_line_read_nj();
    double burst = hand_burst_nj(), bus_data = hand_bus_data_nj();
    CHECK(near(e0.cache_lines_nj, 3 * fill + read, 1e-9) && near(e0.offchip_nj, 2 * burst, 1e-9) &&
              near(e0.bus_data_nj, bus_data, 1e-9) &&
              near(e0.cache_nj, want0.access_nj + want0.snoop_nj + 3 * fill + read, 1e-9) &&
              e0.probe_stall_nj == 0,
          "core 0: lines %.6f, offchip %.6f, bus data %.6f, cache %.6f", e0.cache_lines_nj,
          e0.offchip_nj, e0.bus_data_nj, e0.cache_nj);
    CHECK(near(e1.cache_lines_nj, 2 * fill + read, 1e-9) && near(e1.offchip_nj, 3 * burst, 1e-9) &&
              e1.bus_data_nj == 0 && near(e1.probe_stall_nj, 2 * 0.25, 1e-12) &&
              near(e1.cache_nj, 0.08104 + 2 * 0.1482 + want1.snoop_nj + 2 * fill + read, 1e-9),
          "core 1: lines %.6f, offchip %.6f, bus data %.6f, probe stall %.6f, cache %.6f",
          e1.cache_lines_nj, e1.offchip_nj, e1.bus_data_nj, e1.probe_stall_nj, e1.cache_nj);
    /* With leakage and the stall of the run's cycles the parts still make
     * the whole, per core and summed. */
    stc_coh_run_cycles run;
    stc_cstc_run_cycles_of(system, &run);
    stc_coh_energy_add_static(&e0, run.cycles, stc_cstc_static_per_cycle(&model, &config.configs[0]));
    stc_coh_energy_add_stall(&e0, stc_cstc_core_cycles_of(system, 0)->waited_cycles,
                             stc_cstc_stall_per_cycle(&model));
    stc_coh_energy_add_static(&e1, run.cycles, stc_cstc_static_per_cycle(&model, &config.configs[1]));
    stc_coh_energy_add_stall(&e1, stc_cstc_core_cycles_of(system, 1)->waited_cycles,
                             stc_cstc_stall_per_cycle(&model));
    CHECK(e0.static_nj > 0 && e1.stall_nj > 0 &&
              near(e0.cache_nj, want0.access_nj + want0.snoop_nj + 3 * fill + read + e0.static_nj,
                   1e-9),
          "core 0 with leakage: cache %.6f", e0.cache_nj);
    sum = e0;
    stc_coh_energy_add(&sum, &e1);
    expect_split_adds_up("core 0", &e0);
    expect_split_adds_up("core 1", &e1);
    expect_split_adds_up("both cores", &sum);
    stc_cstc_destroy(system);
}

/* With every bank powered, every bank a way and 16 B logical lines, an
 * stc cache IS the conventional cache the 3.9 terms price (banks of the
 * same rows and columns, the same routing): the snoop lookup and the
 * per-line terms are the same doubles; the access differs only by the
 * table's rounding to 4 significant digits (stc_energy_default rounds,
 * stc_energy_coherence_default does not). Where way concatenation puts
 * two banks in one way (8K_2W) the conventional 2-way cache has 2 banks
 * of 4 KiB, taller: its probes cost more, so the two must differ. */
static void test_stc_agrees_with_conventional(void)
{
    stc_geometry geometry = default_geometry();
    stc_cstc_energy_model model = default_model(&geometry);
    stc_coherence_energy stc, conventional;
    char err[256] = "";
    stc_config full = config_named(&geometry, "8K_4W_16B");
    stc_cstc_energy_terms(&model, &full, &stc);
    CHECK(stc_energy_coherence_default(8192, 4, 16, 32, &conventional, err, sizeof err) == 0,
          "%s", err);
    CHECK(stc.snoop_lookup_nj == conventional.snoop_lookup_nj &&
              stc.memory_read_nj == conventional.memory_read_nj &&
              stc.c2c_nj == conventional.c2c_nj &&
              stc.memory_write_nj == conventional.memory_write_nj &&
              stc.bus_address_nj == conventional.bus_address_nj,
          "8K_4W_16B: snoop %.9f against %.9f, per-line terms equal", stc.snoop_lookup_nj,
          conventional.snoop_lookup_nj);
    CHECK(stc.access_nj != conventional.access_nj &&
              near(stc.access_nj, conventional.access_nj, 5e-4 * conventional.access_nj),
          "8K_4W_16B access: the table's %.6f, unrounded %.6f", stc.access_nj,
          conventional.access_nj);
    stc_config concatenated = config_named(&geometry, "8K_2W_16B");
    stc_cstc_energy_terms(&model, &concatenated, &stc);
    CHECK(stc_energy_coherence_default(8192, 2, 16, 32, &conventional, err, sizeof err) == 0,
          "%s", err);
    CHECK(stc.snoop_lookup_nj < conventional.snoop_lookup_nj &&
              stc.access_nj < conventional.access_nj,
          "8K_2W: two 2 KiB banks a way (snoop %.5f, access %.5f) against two 4 KiB banks "
          "(%.5f, %.5f)",
          stc.snoop_lookup_nj, stc.access_nj, conventional.snoop_lookup_nj,
          conventional.access_nj);
}

/* The same random traffic through the conventional model (8 KiB, 4 ways,
 * 16 B) and through stc caches in 8K_4W_16B: every counter the energy
 * uses is the same (COHERENCE.md 11.5), so every part is the same but
 * the access, which the table rounds. */
static void test_stc_run_agrees_with_conventional(void)
{
    stc_geometry geometry = default_geometry();
    stc_cstc_energy_model model = default_model(&geometry);
    stc_coh_config plain = {.cores = 3, .size_bytes = 8192, .ways = 4, .line_bytes = 16,
                            .protocol = STC_COH_MOESI};
    stc_cstc_config configurable = {.cores = 3, .geometry = geometry, .protocol = STC_COH_MOESI};
    for (unsigned c = 0; c < 3; c++)
        configurable.configs[c] = config_named(&geometry, "8K_4W_16B");
    char err[256] = "";
    stc_coh_system *conventional = stc_coh_create(&plain, err, sizeof err);
    stc_cstc_system *stc = stc_cstc_create(&configurable, err, sizeof err);
    CHECK(conventional && stc, "%s", err);
    if (!conventional || !stc)
        return;
    uint64_t r = 12345;
    for (unsigned i = 0; i < 6000; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        unsigned core = (unsigned)(r >> 60) % 3;
        stc_coh_op op = (r >> 40) & 3 ? STC_COH_OP_LOAD : STC_COH_OP_STORE;
        uint64_t addr = ((r >> 20) & 1 ? (r >> 8) % 512 : (r >> 8) % 24576) & ~3ull;
        stc_coh_access(conventional, core, op, addr, 4, i, NULL);
        stc_cstc_access(stc, core, op, addr, 4, i, NULL);
    }
    stc_coherence_energy terms;
    CHECK(stc_energy_coherence_default(8192, 4, 16, 32, &terms, err, sizeof err) == 0, "%s", err);
    for (unsigned c = 0; c < 3; c++) {
        stc_coh_energy want, got;
        stc_cstc_counters counters;
        stc_coh_energy_of(&terms, stc_coh_core_counters(conventional, c), &want);
        stc_cstc_core_counters(stc, c, &counters);
        stc_cstc_energy_of(&model, &configurable.configs[c], &counters, &got);
        CHECK(got.snoop_nj == want.snoop_nj && got.memory_read_nj == want.memory_read_nj &&
                  got.c2c_nj == want.c2c_nj && got.memory_write_nj == want.memory_write_nj &&
                  got.bus_nj == want.bus_nj && want.snoop_nj > 0 && want.c2c_nj > 0,
              "core %u: snoop %.3f / %.3f, memory read %.3f / %.3f", c, got.snoop_nj,
              want.snoop_nj, got.memory_read_nj, want.memory_read_nj);
        CHECK(near(got.access_nj, want.access_nj, 5e-4 * want.access_nj),
              "core %u: access %.3f, conventional %.3f", c, got.access_nj, want.access_nj);
        CHECK(got.cache_lines_nj == want.cache_lines_nj && got.offchip_nj == want.offchip_nj &&
                  got.bus_data_nj == want.bus_data_nj && want.cache_lines_nj > 0 &&
                  want.bus_data_nj > 0 &&
                  near(got.cache_nj - got.access_nj, want.cache_nj - want.access_nj, 1e-9),
              "core %u: the split as the conventional run's (lines %.3f / %.3f)", c,
              got.cache_lines_nj, want.cache_lines_nj);
        expect_split_adds_up("stc core", &got);
        expect_split_adds_up("conventional core", &want);
    }
    stc_coh_destroy(conventional);
    stc_cstc_destroy(stc);
}

int main(void)
{
    test_terms();
    test_refused();
    test_sums();
    test_split_by_hand();
    test_filter_terms();
    test_split_terms();
    test_stc_terms();
    test_stc_tiny_trace();
    test_stc_agrees_with_conventional();
    test_stc_run_agrees_with_conventional();
    return check_done("test_coherence_energy");
}
