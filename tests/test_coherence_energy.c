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
    CHECK(energy.total_nj == 541137, "total %g", energy.total_nj);
}

int main(void)
{
    test_terms();
    test_refused();
    test_sums();
    return check_done("test_coherence_energy");
}
