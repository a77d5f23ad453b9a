/*
 * energy.h - the memory-access energy of a configuration (the seed's
 * Equation 1, extended to writebacks and reconfiguration), in floating
 * point, from an energy table that follows this architecture
 * (docs/ENERGY.md says where every default number comes from).
 *
 *   E_total   = E_dynamic + E_static
 *   E_dynamic = E_probe + misses x E_miss(L) + E_writeback + E_reconfig
 *   E_probe   = accesses x E_hit(k, a)            (way prediction off)
 *             = first_probe_hits x E_hit(k, 1)
 *               + (accesses - first_probe_hits) x (E_hit(k, a) + E_stall)
 *               (on: a second probe reads the remaining a-1 banks, so a
 *               probe sequence that did not end at the first bank read all
 *               a, and took a second cycle in which the processor waited:
 *               without E_stall way prediction would look free, since
 *               leakage alone prices that cycle at almost nothing)
 *   E_miss(L) = off-chip access + processor stall + block fill, per miss of
 *               a logical line of L bytes
 *   E_static  = cycles x E_static(k)
 *   E_writeback = (writebacks + walk_writebacks) x E_writeback
 *   E_reconfig  = walk_rows x E_walk_row + banks_woken x E_wake
 *
 * E_hit grows with the banks probed (a) and a little with the banks
 * powered (k: longer routing); E_static with the banks powered; E_miss with
 * the line. All energies are in nanojoules (double).
 */
#ifndef STC_ENERGY_H
#define STC_ENERGY_H

#include "config.h"
#include "counters.h"
#include "geometry.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Indices: size_index = log2(k) (0 .. log2(B)), ways_index = log2(a),
 * line_index = log2(sublines) (0, 1, 2). */
enum { STC_MAX_SIZES = 6 }; /* log2(32 banks) + 1 */

typedef struct {
    stc_geometry geometry;                              /* the table is for this geometry */
    double hit_nj[STC_MAX_SIZES][STC_MAX_SIZES];        /* [size_index][ways_index]: one access probing a banks */
    double miss_nj[STC_LINE_SIZES];                     /* [line_index]: off-chip + stall + fill, per miss */
    double static_nj_per_cycle[STC_MAX_SIZES];          /* [size_index]: leakage of k powered banks + always-on logic */
    double writeback_nj;                                /* one dirty physical line written to memory */
    double walk_row_nj;                                 /* one row of a reconfiguration walk */
    double wake_nj;                                     /* powering up one bank */
    double stall_nj_per_cycle;                          /* the processor waiting one cycle */
    char source[256];                                   /* where the numbers came from (file name or "default") */
} stc_energy_table;

/* Energy of one configuration's run, broken down. */
typedef struct {
    double probe_nj;      /* cache accesses (hits and the probing of misses) */
    double miss_nj;       /* misses: off-chip, stall, fill */
    double static_nj;     /* leakage over all cycles */
    double writeback_nj;  /* dirty lines written back (misses and walks) */
    double reconfig_nj;   /* walks and wake-ups */
    double total_nj;
} stc_energy;

/* The default table for geometry (an embedded 0.18 um system at 1.8 V,
 * 200 MHz; docs/ENERGY.md derives each number and scales it with the
 * geometry; values are rounded to 4 significant digits). Entries of
 * illegal (size, ways) pairs and sizes beyond the banks are 0; source is
 * "default". Returns -1 with a message if the geometry is illegal or
 * outside what the model covers (more than 1024 rows per bank, or
 * line_bytes above 256). */
int stc_energy_default(const stc_geometry *geometry, stc_energy_table *table, char *err,
                       size_t err_len);

/* Load a table file (format in docs/ENERGY.md). The file must name the same
 * geometry and give every entry that geometry needs, each with its unit.
 * Returns -1 with "FILE:LINE: message" on any error ("FILE: message" for
 * what no line can be blamed for: cannot open, missing header, geometry
 * line or entries), leaving *table untouched. On success source is path.
 * The loader does not enforce the architecture's monotonicity rules (a
 * measured table may break them a little); the default table keeps them. */
int stc_energy_load(const stc_geometry *geometry, const char *path, stc_energy_table *table,
                    char *err, size_t err_len);

/* Write a table in the file format (round-trips through stc_energy_load:
 * each value is the shortest decimal that reads back as the same double).
 * Returns -1 if out reports a write error. */
int stc_energy_write(const stc_energy_table *table, FILE *out);

/* Energy of a run of one cache in configuration config that counted
 * counters (an I- or a D-cache; add the two for the pair). A run whose
 * configuration changed is charged segment by segment by its caller.
 * first_probe_hits counts only when config->way_predict (clamped to
 * accesses). A configuration that is not legal under table->geometry
 * gives NaN in every field, so the mistake cannot pass as a number. */
stc_energy stc_energy_of(const stc_energy_table *table, const stc_config *config,
                         const stc_counters *counters);

/* A small SRAM beside the cache (the tuner's shadow tags), priced by the
 * same 0.18 um capacitance model as the default table (docs/ENERGY.md 3.6),
 * whatever table the cache uses: one read-modify-write of a row of
 * row_bits cells of which compare_bits are compared with an address, and
 * the leakage of all its cells per cycle. */
typedef struct {
    double rmw_nj;           /* decode, read the row, compare, write it back */
    /* Its parts, for an array whose reads and writes come apart (a snoop
     * filter, ref/snoop_filter.h): a read (decode, wordline, read the row,
     * compare); a write's decode and wordline; and the write of one bit
     * (its bitline at full swing). rmw_nj = read_nj + write_wordline_nj
     * - decode + row_bits x write_bit_nj. */
    double read_nj;
    double write_wordline_nj;    /* decode + wordline */
    double write_bit_nj;
    double leak_nj_per_cycle;
} stc_small_sram_energy;

stc_small_sram_energy stc_energy_small_sram(unsigned rows, unsigned row_bits,
                                            unsigned compare_bits);

/* The coherent model's events (docs/ENERGY.md 3.9, COHERENCE.md 9), priced
 * by the default table's 0.18 um model for a conventional cache of `ways`
 * banks of size_bytes / ways, line_bytes lines and addr_bits addresses (the
 * stc geometry with one bank per way, every bank powered): */
typedef struct {
    double access_nj;       /* a load or store probing every way (hit or miss) */
    double snoop_lookup_nj; /* another core's transaction: every way's tag row read and compared */
    double memory_read_nj;  /* a block from memory: SDRAM burst and the fill */
    double c2c_nj;          /* a block from another cache: its line read, the shared bus, the fill */
    double memory_write_nj; /* a block to memory (writeback or flush): line read and burst */
    double bus_address_nj;  /* any bus transaction's address and command phase */
    /* The cache arrays' shares of the three line moves above (docs/ENERGY.md
     * 3.9.3), so a run's energy splits into the caches' own and the rest: */
    double line_fill_nj;    /* writing the line into the receiving cache's array (and
                               its port wires): part of memory_read_nj and c2c_nj */
    double line_read_nj;    /* reading the line out of the sending cache's array to its
                               port: part of c2c_nj and memory_write_nj */
} stc_coherence_energy;

/* Fill *terms. Returns -1 with a message if the geometry is not one stc can
 * build (ways a power of two up to STC_MAX_BANKS, size / ways a power of two
 * of at most 1024 lines, line_bytes a power of two from 4). No static
 * energy and no stall: the coherent model has no cycles. */
int stc_energy_coherence_default(unsigned size_bytes, unsigned ways, unsigned line_bytes,
                                 unsigned addr_bits, stc_coherence_energy *terms, char *err,
                                 size_t err_len);

/* A snoop's tag probe in a configurable cache (docs/ENERGY.md 3.9.1), by
 * the default model for geometry: one bank's tag row read and compared
 * with the snooped address (no data columns, no word out), and the
 * address routing across one powered bank. A configuration of k banks
 * powered and a ways pays a x bank_tag_probe_nj + k x route_per_bank_nj
 * per snoop lookup. Returns -1 with a message as stc_energy_default. */
typedef struct {
    double bank_tag_probe_nj;
    double route_per_bank_nj;
} stc_tag_probe_energy;

int stc_energy_tag_probe_default(const stc_geometry *geometry, stc_tag_probe_energy *probe,
                                 char *err, size_t err_len);

/* What a walk with moves (stc_cache_set_walk_moves, ARCHITECTURE.md 7)
 * spends beyond its rows, by the default model for geometry whatever table
 * the cache uses (as stc_energy_small_sram; no counter holds the moves, so
 * no table entry prices them): *move_nj for one line carried from one bank
 * of a row to another, read out of its bank to the controller as a
 * writeback reads it, written into the other bank as a fill writes it, and
 * the processor waiting the move's cycle; *row_end_nj for the cycle that
 * ends a row with moves, the processor waiting (its tag read of the next
 * row is the one walk_row charges). Rounded to 4 significant digits like
 * the table. Returns -1 with a message as stc_energy_default. */
int stc_energy_walk_move_default(const stc_geometry *geometry, double *move_nj,
                                 double *row_end_nj, char *err, size_t err_len);

/* Add b into a, field by field. */
void stc_energy_add(stc_energy *sum, const stc_energy *part);

#endif
