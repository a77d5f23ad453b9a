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
    double total_nj;
} stc_coh_energy;

/* The energy of counters (one core's, or a total) under terms. */
void stc_coh_energy_of(const stc_coherence_energy *terms, const stc_coh_counters *counters,
                       stc_coh_energy *energy);

#endif
