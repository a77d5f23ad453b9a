/*
 * coh_tuner.h - one core's monitor tuner in the coherence lockstep: the C
 * twins of its stc_monitor and stc_monitor_tuner (ref/monitor.h,
 * ref/monitor_tuner.h; ARCHITECTURE.md 17-18) fed with the core's answered
 * references, cycle by cycle, and every flop of the RTL's decision unit
 * compared with the twin's (tb/coh/README.md).
 *
 * A cycle: coh_tuner_settle after the device's settle (the previous
 * cycle's access reaches the monitor, the unit's inputs are taken and its
 * flops compared), coh_tuner_offer (whether the cache takes the unit's
 * change this cycle), coh_tuner_edge before the device's edge.
 */
#ifndef STC_COH_TUNER_H
#define STC_COH_TUNER_H

#include "coh_dut.h"
#include "config.h"
#include "geometry.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct coh_tuner coh_tuner;

/* The twin of a cache of this geometry whose tuner stcgen built as `build`
 * says (present). NULL with a message if the model cannot build the same
 * unit (its program's steps differ from the header's). */
coh_tuner *coh_tuner_create(const coh_dut_tuner_build *build, const stc_geometry *geometry,
                            char *err, size_t err_len);
void coh_tuner_destroy(coh_tuner *tuner);

/* This cycle: answered (the core's cache answered a reference this cycle:
 * the unit's step), config (the cache's configuration as the model has
 * it), view (the RTL's unit). -1 with a message at the first difference:
 * a flop, or an access event the RTL's unit sees and the core does not
 * answer (or the reverse). */
int coh_tuner_settle(coh_tuner *tuner, const coh_dut_tuner_view *view, bool answered,
                     const stc_config *config, char *msg, size_t msg_len);

/* Whether the cache takes the unit's offered change at this cycle's edge
 * (the unit offers and the RTL's port is ready), and the configuration. */
bool coh_tuner_offer(const coh_tuner *tuner, stc_config *config);

/* The edge: the unit steps; an answered reference (its byte address and
 * whether it stores) reaches the monitor in the next cycle's settle. */
void coh_tuner_edge(coh_tuner *tuner, uint32_t addr, bool store);

/* Whether the unit holds the cache's next request back: its change is
 * offered or in progress, or this cycle's answer runs its decision's last
 * step (the change lands before any further request: ARCHITECTURE.md
 * 18.3). After coh_tuner_settle. */
bool coh_tuner_holds(const coh_tuner *tuner);
/* Whether the unit offers a change or waits for one to finish. */
bool coh_tuner_busy(const coh_tuner *tuner);

typedef struct {
    uint64_t events;    /* answered references observed */
    uint64_t decisions; /* decisions made */
    uint64_t offers;    /* changes offered */
} coh_tuner_stats;
void coh_tuner_stats_of(const coh_tuner *tuner, coh_tuner_stats *stats);

#endif
