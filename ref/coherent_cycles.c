/* coherent_cycles.c - clocks and bus of an atomic coherent run
 * (coherent_cycles.h; docs/COHERENCE.md 9.10). */
#include "coherent_cycles.h"

#include <string.h>

void stc_coh_bus_timing_init(stc_coh_bus_timing *timing, unsigned line_bytes,
                             unsigned mem_latency)
{
    timing->address_cycles = STC_COH_ADDRESS_CYCLES;
    timing->mem_latency = mem_latency;
    /* the memory's beat is the CPU word (geometry.h): one per cycle */
    timing->beats_per_line = line_bytes / STC_WORD_BYTES;
    timing->supply_read_cycles = STC_COH_SUPPLY_READ_CYCLES;
    timing->latency = NULL;
    timing->latency_context = NULL;
}

/* One wait for memory: the source's next latency, or T. */
static uint64_t memory_wait(const stc_coh_bus_timing *timing)
{
    if (timing->latency)
        return timing->latency(timing->latency_context);
    return timing->mem_latency;
}

unsigned stc_coh_default_mem_latency(void)
{
    stc_geometry geometry;
    stc_geometry_default(&geometry);
    return geometry.mem_latency;
}

uint64_t stc_coh_line_data_cycles(const stc_coh_bus_timing *timing, bool from_cache,
                                  bool first_of_burst)
{
    if (from_cache)
        return (uint64_t)timing->supply_read_cycles + timing->beats_per_line;
    return (first_of_burst ? memory_wait(timing) : 0) + timing->beats_per_line;
}

uint64_t stc_coh_write_data_cycles(const stc_coh_bus_timing *timing)
{
    return memory_wait(timing) + timing->beats_per_line;
}

uint64_t stc_coh_assumed_memory_cycles(const stc_coh_bus_timing *timing, uint64_t writebacks,
                                       uint64_t bursts, uint64_t fills)
{
    return writebacks * ((uint64_t)timing->mem_latency + timing->beats_per_line) +
           bursts * timing->mem_latency + fills * timing->beats_per_line;
}

uint64_t stc_coh_transaction_cycles(const stc_coh_bus_timing *timing, stc_coh_bus bus,
                                    bool supplied, bool flushed_without_supply)
{
    uint64_t cycles = timing->address_cycles;
    if (bus == STC_COH_BUS_RD || bus == STC_COH_BUS_RDX)
        cycles += stc_coh_line_data_cycles(timing, supplied, true);
    else if (bus == STC_COH_BUS_WB)
        cycles += stc_coh_write_data_cycles(timing);
    if (flushed_without_supply)
        cycles += stc_coh_write_data_cycles(timing);
    return cycles;
}

void stc_coh_clock_init(stc_coh_clock *clock, unsigned cores, const stc_coh_bus_timing *timing)
{
    memset(clock, 0, sizeof *clock);
    clock->timing = *timing;
    clock->cores = cores;
}

void stc_coh_clock_commit(stc_coh_clock *clock, unsigned core, const stc_coh_access_cycles *access)
{
    stc_coh_core_cycles *time = &clock->core[core];
    uint64_t ready = time->cycles + access->before;
    if (access->bus == 0) {
        time->cycles = ready + access->after;
        time->waited_cycles += access->after;
        return;
    }
    /* Bus order is call order: this tenure follows every earlier one. */
    uint64_t grant = ready > clock->bus_free_at ? ready : clock->bus_free_at;
    time->stall_cycles += grant - ready;
    time->bus_cycles += access->bus;
    clock->bus_free_at = grant + access->bus;
    clock->bus_busy_cycles += access->bus;
    time->cycles = clock->bus_free_at + access->after;
    time->waited_cycles += time->cycles - ready; /* stall + tenure + after */
}

void stc_coh_clock_idle(stc_coh_clock *clock, unsigned core, uint64_t cycles)
{
    clock->core[core].cycles += cycles;
}

void stc_coh_clock_run(const stc_coh_clock *clock, stc_coh_run_cycles *run)
{
    memset(run, 0, sizeof *run);
    for (unsigned c = 0; c < clock->cores; c++) {
        if (clock->core[c].cycles > run->cycles)
            run->cycles = clock->core[c].cycles;
        run->stall_cycles += clock->core[c].stall_cycles;
        run->waited_cycles += clock->core[c].waited_cycles;
    }
    run->bus_busy_cycles = clock->bus_busy_cycles;
    run->bus_utilisation = run->cycles ? (double)run->bus_busy_cycles / (double)run->cycles : 0.0;
}
