/* coherence_energy.c - the energy of a coherent run (coherence_energy.h). */
#include "coherence_energy.h"

void stc_coh_energy_of(const stc_coherence_energy *terms, const stc_coh_counters *counters,
                       stc_coh_energy *energy)
{
    /* hits + misses: a reference straddling two blocks probes twice. */
    energy->access_nj = (double)(counters->hits + counters->misses) * terms->access_nj;
    energy->snoop_nj = (double)counters->snoop_lookups * terms->snoop_lookup_nj;
    energy->memory_read_nj = (double)counters->mem_reads * terms->memory_read_nj;
    energy->c2c_nj = (double)counters->c2c_received * terms->c2c_nj;
    energy->memory_write_nj = (double)counters->mem_writebacks * terms->memory_write_nj;
    energy->bus_nj = (double)(counters->bus_rd + counters->bus_rdx + counters->upgrades +
                              counters->bus_wb) *
                     terms->bus_address_nj;
    energy->total_nj = energy->access_nj + energy->snoop_nj + energy->memory_read_nj +
                       energy->c2c_nj + energy->memory_write_nj + energy->bus_nj;
}
