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
 * Processor stall and leakage are not counted: the coherent model has no
 * cycles.
 *
 * With a snoop filter (snoop_filter.h) each core also pays for its
 * filter's own accesses (filter_nj); the tag probes it saves show as fewer
 * snoop_lookups, so snoop_nj is smaller by exactly those.
 */
#ifndef STC_COHERENCE_ENERGY_H
#define STC_COHERENCE_ENERGY_H

#include "coherent.h"
#include "energy.h"

typedef struct {
    double access_nj;       /* loads and stores: every block access probes its set */
    double snoop_nj;        /* snoop lookups */
    double memory_read_nj;  /* blocks read from memory */
    double c2c_nj;          /* blocks received from another cache */
    double memory_write_nj; /* blocks written to memory (BusWB and flushes) */
    double bus_nj;          /* address phases of BusRd, BusRdX, BusUpgr and BusWB issued */
    double filter_nj;       /* the snoop filter's lookups and writes (0 without a filter) */
    double total_nj;
} stc_coh_energy;

/* The energy of counters (one core's, or a total) under terms; filter_nj 0. */
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
 * energy: filter_nj and total_nj. */
void stc_coh_energy_add_filter(const stc_sf_energy_terms *terms, const stc_sf_counters *counters,
                               stc_coh_energy *energy);

#endif
