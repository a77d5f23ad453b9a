/*
 * test_coherence_energy.c - the coherent model's energy (docs/ENERGY.md
 * 3.9): terms recomputed by hand from the documented constants, agreement
 * with the single-cache table for the same cache, the per-core sums, and
 * geometries the model refuses.
 */
#include "check.h"
#include "coherence_energy.h"
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

static void test_sums(void)
{
    stc_coherence_energy terms = {.access_nj = 1, .snoop_lookup_nj = 10, .memory_read_nj = 100,
                                  .c2c_nj = 1000, .memory_write_nj = 10000,
                                  .bus_address_nj = 100000};
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

int main(void)
{
    test_terms();
    test_refused();
    test_sums();
    test_filter_terms();
    return check_done("test_coherence_energy");
}
