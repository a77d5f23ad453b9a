/*
 * coherence_energy.h - the energy of a coherent run (docs/ENERGY.md 3.9):
 * each core's counters (coherent.h) priced by the events' energies
 * (energy.h, stc_energy_coherence_default).
 *
 * Who pays what: a core pays for its own accesses, the snoop lookups its
 * tags make for other cores' transactions, the blocks it reads from memory
 * or receives from another cache (the supplier's read and the bus are
 * charged to the receiver: the transfer happens because it asked), its
 * writes to memory (writebacks and flushes, charged to the core whose copy
 * is written), and the address phase of every transaction it issues.
 * Processor stall is not counted in them. Leakage (static_nj) is counted
 * apart: the terms above do not include it (total_nj is what it always
 * was), and total_with_static_nj adds it; a caller with the run's cycles
 * prices it (stc_coh_energy_add_static; docs/ENERGY.md 3.9.2). So is the
 * processor's stall (stall_nj, in total_with_stall_nj only): each core's
 * waited cycles (coherent_cycles.h) at the table's stall price
 * (stc_coh_energy_add_stall; ENERGY.md 3.9.2).
 *
 * With a snoop filter (snoop_filter.h) each core also pays for its
 * filter's own accesses (filter_nj); the tag probes it saves show as fewer
 * snoop_lookups, so snoop_nj is smaller by exactly those.
 */
#ifndef STC_COHERENCE_ENERGY_H
#define STC_COHERENCE_ENERGY_H

#include "coherent.h"
#include "coherent_stc.h"
#include "energy.h"

typedef struct {
    double access_nj;       /* loads and stores: every block access probes its set */
    double snoop_nj;        /* snoop lookups */
    double memory_read_nj;  /* blocks read from memory */
    double c2c_nj;          /* blocks received from another cache */
    double memory_write_nj; /* blocks written to memory (BusWB and flushes) */
    double bus_nj;          /* address phases of BusRd, BusRdX, BusUpgr and BusWB issued */
    double filter_nj;       /* the snoop filter's lookups and writes (0 without a filter) */
    double total_nj;        /* the terms above: the dynamic energy */
    double static_nj;       /* the cache's leakage over the run's cycles (0 until priced) */
    double total_with_static_nj; /* total_nj + static_nj: caches and bus */
    double stall_nj;        /* the processor waiting on the memory system (0 until priced) */
    double total_with_stall_nj; /* total_with_static_nj + stall_nj: the whole energy */
    /* The same energy split by where it is spent (docs/ENERGY.md 3.9.3):
     *   cache_nj + offchip_nj + bus_nj + bus_data_nj + stall_nj + probe_stall_nj
     *     = total_with_stall_nj,
     *   cache_lines_nj + offchip_nj + bus_data_nj
     *     = memory_read_nj + c2c_nj + memory_write_nj. */
    double cache_lines_nj; /* the cache arrays' shares of the line moves: line_fill x
                              (mem_reads + c2c_received) + line_read x (mem_writebacks +
                              c2c_received); a transfer's supplier read is the receiver's,
                              as c2c_nj is */
    double cache_nj;       /* the L1 D-caches' own: access - probe_stall + snoop + filter +
                              cache_lines + static */
    double offchip_nj;     /* memory reads and writes less the arrays' shares: the SDRAM's
                              bursts and pins */
    double bus_data_nj;    /* transfers less the arrays' shares: the shared bus's data wires */
    double probe_stall_nj; /* the processor's stall cycle of way prediction's second probe,
                              priced inside access_nj (3.9.1): the processor's, not the
                              cache's (0 without way prediction) */
} stc_coh_energy;

/* The energy of counters (one core's, or a total) under terms; filter_nj,
 * static_nj and stall_nj 0 (total_with_static_nj = total_with_stall_nj =
 * total_nj); the split of ENERGY.md 3.9.3 by the terms' line_fill_nj and
 * line_read_nj (cache_nj = access + snoop + cache_lines until the filter and
 * leakage are added). */
void stc_coh_energy_of(const stc_coherence_energy *terms, const stc_coh_counters *counters,
                       stc_coh_energy *energy);

/* The snoop filter's events (docs/ENERGY.md 3.9), for its array of R =
 * sets rows of C = row bits (stc_sf_row_bits), by the small-array model of
 * ENERGY.md 3.8 (stc_energy_small_sram) split into its read and its write:
 *   lookup = decode(R) + wordline(C) + C x (bitline read + sense)
 *            + ways x tag bits x compare      (= the read-modify-write less
 *                                              its write and second wordline)
 *   write  = decode(R) + wordline(C) + W x bitline write, W = one way's
 *            tag and block bits and the set's LRU bits. */
typedef struct {
    double lookup_nj; /* a read of one set, every way's tag compared */
    double write_nj;  /* a write of one entry and the set's LRU bits */
} stc_sf_energy_terms;

/* Terms for filter beside caches of line_bytes lines, addr_bits addresses.
 * Returns -1 if filter is none. */
int stc_coh_filter_terms(const stc_sf_config *filter, unsigned line_bytes, unsigned addr_bits,
                         stc_sf_energy_terms *terms);

/* Add the filter's energy for counters (one core's, or a total) into
 * energy: filter_nj, total_nj, total_with_static_nj, total_with_stall_nj
 * and cache_nj (the filter is an array beside the cache). */
void stc_coh_energy_add_filter(const stc_sf_energy_terms *terms, const stc_sf_counters *counters,
                               stc_coh_energy *energy);

/* ---- Leakage (docs/ENERGY.md 3.9.2) -------------------------------------
 *
 * Every cache leaks for the whole run: from cycle 0 to the run's last
 * cycle (stc_coh_run_cycles.cycles, the latest core's clock), whether its
 * own core has finished or not (nothing powers a cache down). Priced as the
 * single-cache model prices a run's cycles (energy.h: cycles x
 * E_static(k) of the configuration). */

/* Add cycles x static_nj_per_cycle into energy: static_nj,
 * total_with_static_nj, total_with_stall_nj and cache_nj. */
void stc_coh_energy_add_static(stc_coh_energy *energy, uint64_t cycles, double static_nj_per_cycle);

/* ---- Processor stall (docs/ENERGY.md 3.9.2) -----------------------------
 *
 * The terms above carry no stall but way prediction's second probe: a
 * block read from memory is its burst and fill, not the single-cache
 * `miss` entry's stall. A core is charged the table's stall per cycle for
 * each of its waited_cycles (coherent_cycles.h: its clock less its probe
 * cycles), the cycles the single-cache model charges as stall inside
 * `miss` and `writeback` plus what the shared bus adds. */

/* Add waited_cycles x stall_nj_per_cycle into energy: stall_nj and
 * total_with_stall_nj. */
void stc_coh_energy_add_stall(stc_coh_energy *energy, uint64_t waited_cycles,
                              double stall_nj_per_cycle);

/* E_static per cycle of the conventional cache of coherent.h (size_bytes,
 * ways, line_bytes, addr_bits): the single-cache model's for the stc
 * geometry of one bank per way (banks = ways, bank_bytes = size / ways),
 * every bank powered, the geometry stc_energy_coherence_default prices.
 * Returns -1 with a message where that one does. */
int stc_coh_static_per_cycle_default(unsigned size_bytes, unsigned ways, unsigned line_bytes,
                                     unsigned addr_bits, double *static_nj_per_cycle, char *err,
                                     size_t err_len);

/* The stall per cycle of the same cache: the table entry `stall` of the
 * default table the line above prices from. Returns -1 with a message
 * where that one does. */
int stc_coh_stall_per_cycle_default(unsigned size_bytes, unsigned ways, unsigned line_bytes,
                                    unsigned addr_bits, double *stall_nj_per_cycle, char *err,
                                    size_t err_len);

/* ---- Configurable caches (coherent_stc.h; docs/ENERGY.md 3.9.1) ------
 *
 * A core whose D-cache is an stc cache in configuration (k banks powered,
 * a ways, L-byte logical lines, way prediction or not) pays, per core:
 *   access    = the single-cache probe energy of its cache's own counters
 *               (stc_energy_of's probe_nj under the default table of the
 *               geometry): accesses x hit(k, a), or with way prediction
 *               first_probe_hits x hit(k, 1) + the rest x (hit(k, a) + stall);
 *   snoop     = snoop_lookups x (a x bank_tag_probe + k x route_per_bank):
 *               a snoop reads the tags of the a candidate banks of the
 *               snooped line's row, with or without way prediction;
 *   memory_read, c2c, memory_write, bus: per PHYSICAL line (the coherence
 *               unit, every transaction one physical line), the terms of
 *               stc_energy_coherence_default for the geometry (banks of
 *               bank_bytes, line_bytes lines): the same for every
 *               configuration.
 * No miss stall in these terms. Leakage is priced apart
 * (stc_cstc_static_per_cycle, stc_coh_energy_add_static: the run's cycles,
 * 3.9.2), and so is the processor's stall over the cycles the core waited
 * (stc_cstc_stall_per_cycle, stc_coh_energy_add_stall, 3.9.2). The one
 * processor cycle these terms price is way prediction's second probe, as the single-cache
 * model prices it, so that way prediction is not free here either. No reconfiguration is priced: the runs this prices start each
 * core in its configuration and keep it. */
typedef struct {
    stc_energy_table table;       /* the geometry's default single-cache table */
    stc_tag_probe_energy probe;   /* a snoop's per-bank tag probe and routing */
    stc_coherence_energy line;    /* per physical line: memory_read, c2c, memory_write,
                                     bus_address (its access_nj, snoop_lookup_nj: those of
                                     every bank powered, every bank a way) */
} stc_cstc_energy_model;

/* The default 0.18 um model for geometry (which must have passed
 * stc_geometry_init). Returns -1 with a message for a geometry the model
 * does not price (stc_energy_default's limits). */
int stc_cstc_energy_model_default(const stc_geometry *geometry, stc_cstc_energy_model *model,
                                  char *err, size_t err_len);

/* The price of each event for a core in config (a legal configuration of
 * the model's geometry): access_nj = hit(k, a) (a probe without way
 * prediction, or one that read all a), snoop_lookup_nj = a x tag probe +
 * k x routing, the rest the model's per-line terms. */
void stc_cstc_energy_terms(const stc_cstc_energy_model *model, const stc_config *config,
                           stc_coherence_energy *terms);

/* E_static per cycle of a core in config: exactly what stc_energy_of
 * charges a single cache in config per cycle (k banks powered). */
double stc_cstc_static_per_cycle(const stc_cstc_energy_model *model, const stc_config *config);

/* The stall per cycle of the model's table (every configuration's: the
 * processor's, not the cache's). */
double stc_cstc_stall_per_cycle(const stc_cstc_energy_model *model);

/* The energy of one core's counters, the core in config; filter_nj,
 * static_nj and stall_nj 0; probe_stall_nj the part of access_nj that is
 * way prediction's second-probe stall, cache_nj = access_nj less it +
 * snoop_nj + cache_lines_nj. */
void stc_cstc_energy_of(const stc_cstc_energy_model *model, const stc_config *config,
                        const stc_cstc_counters *counters, stc_coh_energy *energy);

/* Add part into sum, field by field (cores in different configurations
 * are priced apart, then added). */
void stc_coh_energy_add(stc_coh_energy *sum, const stc_coh_energy *part);

#endif
