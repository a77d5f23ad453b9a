/* coh_tuner.c - one core's monitor tuner in the coherence lockstep (coh_tuner.h). */
#include "coh_tuner.h"

#include "energy.h"
#include "monitor_twin.h"
#include "tuner_hw.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

struct coh_tuner {
    stc_monitor_twin twin;
    stc_monitor_tuner_in in;
    bool event_pending; /* the previous cycle's answered reference, not yet observed */
    uint32_t event_addr;
    bool event_write;
    coh_tuner_stats stats;
};

coh_tuner *coh_tuner_create(const coh_dut_tuner_build *build, const stc_geometry *geometry,
                            char *err, size_t err_len)
{
    coh_tuner *tuner = calloc(1, sizeof *tuner);
    if (!tuner) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    /* the D-cache's monitor with its clear walk, and the coefficients as
     * stcgen computes them from the geometry's default energy table */
    stc_monitor_shape shape = {
        .sample_bits = build->sample_bits,
        .rotate_every = build->rotate_every,
        .tag_bits = build->tag_bits,
        .counter_bits = build->counter_bits,
        .clear_walk = true,
    };
    stc_monitor_tuner_build unit_build = {build->window, build->margin, build->walk_min};
    stc_energy_table table;
    if (stc_energy_default(geometry, &table, err, err_len) != 0 ||
        stc_monitor_twin_init(&tuner->twin, geometry, &shape, &table, build->way_prediction,
                              &unit_build, err, err_len) != 0) {
        coh_tuner_destroy(tuner);
        return NULL;
    }
    if (tuner->twin.program.step_count != build->steps) {
        snprintf(err, err_len, "the model's decision has %zu steps, the header's %u",
                 tuner->twin.program.step_count, build->steps);
        coh_tuner_destroy(tuner);
        return NULL;
    }
    return tuner;
}

void coh_tuner_destroy(coh_tuner *tuner)
{
    if (tuner)
        stc_monitor_twin_free(&tuner->twin);
    free(tuner);
}

int coh_tuner_settle(coh_tuner *tuner, const coh_dut_tuner_view *view, bool answered,
                     const stc_config *config, char *msg, size_t msg_len)
{
    /* The previous cycle's access: the monitor counts it at the end of
     * this cycle and its count port already shows it (17.3). */
    if (tuner->event_pending) {
        stc_monitor_observe(tuner->twin.monitor, tuner->event_addr, tuner->event_write);
        tuner->event_pending = false;
    }
    const stc_monitor_tuner_regs *q = &tuner->twin.unit.q;
    const struct {
        const char *name;
        uint32_t model, rtl;
    } flops[] = {
        {"enable", q->enable, view->enable},
        {"win", q->win, view->win},
        {"deciding", q->deciding, view->deciding},
        {"step", q->step, view->step},
        {"watched", q->watched, view->watched},
        {"operand", q->operand, view->operand},
        {"energy", q->energy, view->energy},
        {"lowest", q->lowest, view->lowest},
        {"lowest_code", q->lowest_code, view->lowest_code},
        {"current", q->current, view->current},
        {"pending", q->pending, view->pending},
        {"sent", q->sent, view->sent},
        {"target", q->target, view->target},
        {"decisions", q->decisions, view->decisions},
        {"changes", q->changes, view->changes},
    };
    for (size_t i = 0; i < sizeof flops / sizeof flops[0]; i++) {
        if (flops[i].model != flops[i].rtl) {
            snprintf(msg, msg_len, "monitor tuner flop %s_q: rtl 0x%" PRIx32 " model 0x%" PRIx32
                     " (decision step %" PRIu32 ")", flops[i].name, flops[i].rtl, flops[i].model,
                     q->step);
            return -1;
        }
    }
    if (view->ev_access != answered) {
        snprintf(msg, msg_len, "the monitor tuner's access event is %d, the core %s", view->ev_access,
                 answered ? "answers a reference" : "answers nothing");
        return -1;
    }
    stc_monitor_tuner_in *in = &tuner->in;
    *in = (stc_monitor_tuner_in){0};
    in->ev_access = answered;
    /* the unit reads its count only in an access's cycle */
    unsigned select = stc_monitor_tuner_count_select(&tuner->twin.unit);
    in->count = answered ? stc_monitor_twin_count(&tuner->twin, select) : 0;
    in->watched = answered ? stc_monitor_twin_count(&tuner->twin, 0) : 0;
    in->current_code = stc_tuner_config_pack(config);
    in->cfg_ready = view->cfg_ready;
    in->cfg_done = view->cfg_done;
    in->cfg_err = view->cfg_err;
    return 0;
}

bool coh_tuner_offer(const coh_tuner *tuner, stc_config *config)
{
    if (!tuner->twin.unit.q.pending || !tuner->in.cfg_ready)
        return false;
    *config = stc_tuner_config_unpack(tuner->twin.unit.q.target);
    return true;
}

bool coh_tuner_holds(const coh_tuner *tuner)
{
    return coh_tuner_busy(tuner) ||
           (tuner->in.ev_access && stc_monitor_tuner_last_step(&tuner->twin.unit));
}

bool coh_tuner_busy(const coh_tuner *tuner)
{
    return tuner->twin.unit.q.pending || tuner->twin.unit.q.sent;
}

void coh_tuner_edge(coh_tuner *tuner, uint32_t addr, bool store)
{
    bool was_deciding = tuner->twin.unit.q.deciding != 0, was_pending = tuner->twin.unit.q.pending != 0;
    stc_monitor_tuner_step(&tuner->twin.unit, &tuner->in);
    tuner->stats.decisions += was_deciding && !tuner->twin.unit.q.deciding;
    tuner->stats.offers += !was_pending && tuner->twin.unit.q.pending;
    if (tuner->in.ev_access) {
        tuner->event_pending = true;
        tuner->event_addr = addr;
        tuner->event_write = store;
        tuner->stats.events++;
    }
}

void coh_tuner_stats_of(const coh_tuner *tuner, coh_tuner_stats *stats)
{
    *stats = tuner->stats;
}
