/*
 * timing.h - the cache controller's own cycles (docs/ARCHITECTURE.md
 * section 10), beyond the probes, the memory bursts and the wake-ups: one
 * definition for the model (cache.c), the LRU-stack engine (stack.c) and
 * the energy table's stall charge (energy.c).
 */
#ifndef STC_TIMING_H
#define STC_TIMING_H

#include "geometry.h"

#include <stdint.h>

/* Each writeback of a miss costs the controller two cycles beside the
 * memory's T_mem + P/W: its request (which reads the line), and after it
 * a tag read (the next subline's, or the next dirty victim line's) or the
 * request of the first fill run, which a miss without that writeback makes
 * in the cycle before. */
enum { STC_WRITEBACK_CONTROLLER_CYCLES = 2 };

/* Every miss ends with one cycle of the controller's own after its last
 * read burst's last beat: the answer (ARCHITECTURE.md 15.4, DONE). The
 * coherent model keeps it out of the miss's bus tenure (coherent_stc.c). */
enum { STC_MISS_ANSWER_CYCLES = 1 };

/* A miss whose logical line of `sublines` physical lines the row state
 * cannot show absent (a line fragment may be present, after the logical
 * line grew; ARCHITECTURE.md 10), with `bursts` read bursts and
 * `writebacks` dirty victims: per subline a presence check (its tags read
 * a cycle ahead: the first subline's by the miss's probe cycle), per burst
 * after the first a request (the first is requested in the last check),
 * the answer (so one cycle per burst in all), and two cycles per
 * writeback. */
static inline uint64_t stc_miss_controller_cycles(uint64_t sublines, uint64_t bursts,
                                                  uint64_t writebacks)
{
    return sublines + bursts + writebacks * STC_WRITEBACK_CONTROLLER_CYCLES;
}

/* A miss whose logical line the row state shows absent (always so in the
 * steady state, section 11): the cycle that sees it and requests the whole
 * line (or the first writeback's tag), the answer, and two cycles per
 * writeback, whatever the line's length. */
static inline uint64_t stc_whole_line_miss_controller_cycles(uint64_t writebacks)
{
    return 2 + writebacks * STC_WRITEBACK_CONTROLLER_CYCLES;
}

/* All cycles of a miss of a whole logical line of `sublines` physical
 * lines without a dirty victim, in the steady state: the memory's T_mem +
 * sublines x P/W of one read burst and the controller's two. The engines
 * that count misses without simulating them (stack.c, monitor.c, the
 * tuner's estimates) and the energy table's stall use it. */
static inline uint64_t stc_line_miss_cycles(const stc_geometry *geometry, uint64_t sublines)
{
    return geometry->mem_latency + sublines * geometry->beats_per_line +
           stc_whole_line_miss_controller_cycles(0);
}

/* All cycles one writeback of a physical line adds to a miss: the
 * memory's T_mem + P/W and the controller's two. */
static inline uint64_t stc_writeback_cycles(const stc_geometry *geometry)
{
    return geometry->mem_latency + (uint64_t)geometry->beats_per_line +
           STC_WRITEBACK_CONTROLLER_CYCLES;
}

/* A reconfiguration that wakes banks or walks (0 otherwise): the cycle that
 * sees the woken banks ready (or starts the walk), and per walk writeback
 * the cycle that finds the dirty line and its request. */
static inline uint64_t stc_reconfig_controller_cycles(uint64_t walk_writebacks)
{
    return 1 + 2 * walk_writebacks;
}

#endif
