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
    energy->filter_nj = 0.0;
    energy->total_nj = energy->access_nj + energy->snoop_nj + energy->memory_read_nj +
                       energy->c2c_nj + energy->memory_write_nj + energy->bus_nj;
    energy->static_nj = 0.0;
    energy->total_with_static_nj = energy->total_nj;
    energy->stall_nj = 0.0;
    energy->total_with_stall_nj = energy->total_nj;
    /* Where it is spent (ENERGY.md 3.9.3): each line move's array shares,
     * the rest of it off chip (a memory read or write) or on the bus's
     * data wires (a transfer). */
    const double fills = (double)(counters->mem_reads + counters->c2c_received);
    const double reads = (double)(counters->mem_writebacks + counters->c2c_received);
    energy->cache_lines_nj = fills * terms->line_fill_nj + reads * terms->line_read_nj;
    energy->offchip_nj =
        (double)counters->mem_reads * (terms->memory_read_nj - terms->line_fill_nj) +
        (double)counters->mem_writebacks * (terms->memory_write_nj - terms->line_read_nj);
    energy->bus_data_nj = (double)counters->c2c_received *
                          (terms->c2c_nj - terms->line_fill_nj - terms->line_read_nj);
    energy->probe_stall_nj = 0.0; /* no way prediction in these terms */
    energy->cache_nj = energy->access_nj + energy->snoop_nj + energy->cache_lines_nj;
}

void stc_coh_energy_add_static(stc_coh_energy *energy, uint64_t cycles, double static_nj_per_cycle)
{
    double static_nj = (double)cycles * static_nj_per_cycle;
    energy->static_nj += static_nj;
    energy->total_with_static_nj += static_nj;
    energy->total_with_stall_nj += static_nj;
    energy->cache_nj += static_nj;
}

void stc_coh_energy_add_stall(stc_coh_energy *energy, uint64_t waited_cycles,
                              double stall_nj_per_cycle)
{
    double stall_nj = (double)waited_cycles * stall_nj_per_cycle;
    energy->stall_nj += stall_nj;
    energy->total_with_stall_nj += stall_nj;
}

/* Both per-cycle prices of a conventional cache, from the default
 * single-cache table of the stc geometry it is priced as (one bank per
 * way, every bank powered, one physical line per line): its leakage as
 * the single-cache model prices a cycle, and the table's stall. */
static int conventional_prices(unsigned size_bytes, unsigned ways, unsigned line_bytes,
                               unsigned addr_bits, double *static_nj_per_cycle,
                               double *stall_nj_per_cycle, char *err, size_t err_len)
{
    /* The geometry stc_energy_coherence_default builds: its checks first,
     * so both refuse the same caches with the same message. */
    stc_coherence_energy unused;
    if (stc_energy_coherence_default(size_bytes, ways, line_bytes, addr_bits, &unused, err,
                                     err_len) != 0)
        return -1;
    stc_geometry geometry;
    stc_geometry_default(&geometry);
    geometry.banks = ways;
    geometry.bank_bytes = size_bytes / ways;
    geometry.line_bytes = line_bytes;
    geometry.addr_bits = addr_bits;
    stc_energy_table table;
    if (stc_geometry_init(&geometry, err, err_len) != 0 ||
        stc_energy_default(&geometry, &table, err, err_len) != 0)
        return -1;
    stc_config config = {.banks_on = ways, .ways = ways, .sublines = 1, .way_predict = false};
    stc_counters counters = {.cycles = 1};
    *static_nj_per_cycle = stc_energy_of(&table, &config, &counters).static_nj;
    *stall_nj_per_cycle = table.stall_nj_per_cycle;
    return 0;
}

int stc_coh_static_per_cycle_default(unsigned size_bytes, unsigned ways, unsigned line_bytes,
                                     unsigned addr_bits, double *static_nj_per_cycle, char *err,
                                     size_t err_len)
{
    double unused;
    return conventional_prices(size_bytes, ways, line_bytes, addr_bits, static_nj_per_cycle,
                               &unused, err, err_len);
}

int stc_coh_stall_per_cycle_default(unsigned size_bytes, unsigned ways, unsigned line_bytes,
                                    unsigned addr_bits, double *stall_nj_per_cycle, char *err,
                                    size_t err_len)
{
    double unused;
    return conventional_prices(size_bytes, ways, line_bytes, addr_bits, &unused,
                               stall_nj_per_cycle, err, err_len);
}

int stc_coh_filter_terms(const stc_sf_config *filter, unsigned line_bytes, unsigned addr_bits,
                         stc_sf_energy_terms *terms)
{
    if (filter->kind == STC_SF_NONE)
        return -1;
    unsigned row_bits, tag_bits, lru_bits;
    stc_sf_row_bits(filter, line_bytes, addr_bits, &row_bits, &tag_bits, &lru_bits);
    /* ENERGY.md 3.8's small array, its read and its write apart: a write
     * drives the bitlines of the bits it changes only. */
    stc_small_sram_energy array = stc_energy_small_sram(filter->sets, row_bits,
                                                        filter->ways * tag_bits);
    terms->lookup_nj = array.read_nj;
    terms->write_nj = array.write_wordline_nj +
                      (tag_bits + filter->blocks + lru_bits) * array.write_bit_nj;
    return 0;
}

void stc_coh_energy_add_filter(const stc_sf_energy_terms *terms, const stc_sf_counters *counters,
                               stc_coh_energy *energy)
{
    double filter_nj = (double)counters->filter_lookups * terms->lookup_nj +
                       (double)counters->filter_writes * terms->write_nj;
    energy->filter_nj += filter_nj;
    energy->total_nj += filter_nj;
    energy->total_with_static_nj += filter_nj;
    energy->total_with_stall_nj += filter_nj;
    energy->cache_nj += filter_nj;
}

int stc_cstc_energy_model_default(const stc_geometry *geometry, stc_cstc_energy_model *model,
                                  char *err, size_t err_len)
{
    if (stc_energy_default(geometry, &model->table, err, err_len) != 0 ||
        stc_energy_tag_probe_default(geometry, &model->probe, err, err_len) != 0)
        return -1;
    /* The conventional cache of one bank per way, every bank powered, IS
     * the geometry: its per-line terms are the geometry's. */
    return stc_energy_coherence_default(geometry->banks * geometry->bank_bytes, geometry->banks,
                                        geometry->line_bytes, geometry->addr_bits, &model->line,
                                        err, err_len);
}

void stc_cstc_energy_terms(const stc_cstc_energy_model *model, const stc_config *config,
                           stc_coherence_energy *terms)
{
    *terms = model->line;
    terms->access_nj = model->table.hit_nj[stc_log2(config->banks_on)][stc_log2(config->ways)];
    terms->snoop_lookup_nj = config->ways * model->probe.bank_tag_probe_nj +
                             config->banks_on * model->probe.route_per_bank_nj;
}

double stc_cstc_static_per_cycle(const stc_cstc_energy_model *model, const stc_config *config)
{
    stc_counters counters = {.cycles = 1};
    return stc_energy_of(&model->table, config, &counters).static_nj;
}

double stc_cstc_stall_per_cycle(const stc_cstc_energy_model *model)
{
    return model->table.stall_nj_per_cycle;
}

void stc_cstc_energy_of(const stc_cstc_energy_model *model, const stc_config *config,
                        const stc_cstc_counters *counters, stc_coh_energy *energy)
{
    stc_coherence_energy terms;
    stc_cstc_energy_terms(model, config, &terms);
    stc_coh_energy_of(&terms, &counters->coherence, energy);
    /* The cache's own probe counters, as the single-cache model prices
     * them: they tell first-probe hits apart, hits + misses do not. */
    energy->access_nj = stc_energy_of(&model->table, config, &counters->cache).probe_nj;
    energy->total_nj = energy->access_nj + energy->snoop_nj + energy->memory_read_nj +
                       energy->c2c_nj + energy->memory_write_nj + energy->bus_nj;
    energy->total_with_static_nj = energy->total_nj;
    energy->total_with_stall_nj = energy->total_nj;
    /* The second probe's stall cycle, priced in the access so that way
     * prediction is not free (ENERGY.md 1), is the processor's: every
     * probe sequence but a first-probe hit waited one (3.9.3). */
    energy->probe_stall_nj = 0.0;
    if (config->way_predict) {
        uint64_t accesses = counters->cache.accesses;
        uint64_t first = counters->cache.first_probe_hits < accesses
                             ? counters->cache.first_probe_hits
                             : accesses;
        energy->probe_stall_nj = (double)(accesses - first) * model->table.stall_nj_per_cycle;
    }
    energy->cache_nj = energy->access_nj - energy->probe_stall_nj + energy->snoop_nj +
                       energy->cache_lines_nj;
}

void stc_coh_energy_add(stc_coh_energy *sum, const stc_coh_energy *part)
{
    sum->access_nj += part->access_nj;
    sum->snoop_nj += part->snoop_nj;
    sum->memory_read_nj += part->memory_read_nj;
    sum->c2c_nj += part->c2c_nj;
    sum->memory_write_nj += part->memory_write_nj;
    sum->bus_nj += part->bus_nj;
    sum->filter_nj += part->filter_nj;
    sum->total_nj += part->total_nj;
    sum->static_nj += part->static_nj;
    sum->total_with_static_nj += part->total_with_static_nj;
    sum->stall_nj += part->stall_nj;
    sum->total_with_stall_nj += part->total_with_stall_nj;
    sum->cache_lines_nj += part->cache_lines_nj;
    sum->cache_nj += part->cache_nj;
    sum->offchip_nj += part->offchip_nj;
    sum->bus_data_nj += part->bus_data_nj;
    sum->probe_stall_nj += part->probe_stall_nj;
}
