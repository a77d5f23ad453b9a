/* monitor_side.c - the top's monitor tuner in lockstep (monitor_side.h). */
#include "monitor_side.h"

#include "energy.h"
#include "harness.h"
#include "tuner_hw.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* A top generated before the monitor tuner existed has no such line. */
#ifndef STC_GEN_TUNER_MONITOR
#define STC_GEN_TUNER_MONITOR 0u
#endif

void monitor_side_init(harness *h)
{
    monitor_side *m = &h->mon;
    m->present = STC_GEN_TUNER && STC_GEN_TUNER_MONITOR;
    if (!m->present) {
        return;
    }
#if STC_GEN_TUNER_MONITOR
    if (!dut_has_monitor_tuner(h->rtl)) {
        fprintf(stderr, "lockstep: the header says monitor tuner, but the top (%s) has no "
                "readable u_tuner (tb/lockstep.vlt)\n", STC_GEN_NAME);
        exit(2);
    }
    char err[512];
    stc_geometry geometry = generated_geometry();
    stc_monitor_shape shape = {
        .sample_bits = STC_GEN_MONITOR_SAMPLE_BITS,
        .rotate_every = STC_GEN_MONITOR_ROTATE,
        .tag_bits = STC_GEN_MONITOR_TAG_BITS,
        .read_only = LOCKSTEP_ICACHE,
        .counter_bits = STC_GEN_MONITOR_COUNT_BITS,
        .clear_walk = true,
    };
    /* The coefficients as stcgen computes them: the generated geometry's
     * default energy table, whatever memory latency this run uses. */
    stc_energy_table table;
    stc_monitor_tuner_build build = {STC_GEN_MONITOR_WINDOW, STC_GEN_MONITOR_MARGIN,
                                     STC_GEN_MONITOR_WALK_MIN};
    if (stc_geometry_init(&geometry, err, sizeof err) != 0 ||
        stc_energy_default(&geometry, &table, err, sizeof err) != 0 ||
        stc_monitor_twin_init(&m->twin, &geometry, &shape, &table, STC_GEN_WAY_PREDICTION != 0,
                              &build, err, sizeof err) != 0) {
        fprintf(stderr, "lockstep: monitor tuner: %s\n", err);
        exit(2);
    }
    unsigned steps = LOCKSTEP_ICACHE ? STC_GEN_MONITOR_STEPS_RO : STC_GEN_MONITOR_STEPS;
    if (m->twin.program.step_count != steps) {
        fprintf(stderr, "lockstep: monitor tuner: the model's decision has %zu steps, the "
                "header's %u\n", m->twin.program.step_count, steps);
        exit(2);
    }
#endif
}

void monitor_side_free(harness *h)
{
    if (h->mon.present) {
        stc_monitor_twin_free(&h->mon.twin);
    }
}

/* The configuration in use as the top shows it (cfg_*_o), packed. */
static unsigned current_code(const harness *h)
{
    return (h->pins.cur_banks_log & 7u) | (h->pins.cur_ways_log & 7u) << 3 |
           (h->pins.cur_sub_log & 3u) << 6 | (h->pins.cur_wp & 1u) << 8;
}

void monitor_side_settle(harness *h, int strobes)
{
    monitor_side *m = &h->mon;
    stc_monitor_tuner_in *in = &m->in;
    /* The previous cycle's access: stc_monitor counts it at the end of this
     * cycle, and its count port already shows it (section 17.3). */
    if (m->event_pending) {
        stc_monitor_observe(m->twin.monitor, m->event_addr, m->event_write);
        m->event_pending = false;
    }
    unsigned ready, done, err;
    dut_tuner_cfg_inputs(h->rtl, &ready, &done, &err);
    unsigned select = stc_monitor_tuner_count_select(&m->twin.unit);
    in->ev_access = strobes & 1;
    /* The unit reads its count only in an access's cycle (a step, or the
     * window's end); the select is 0 when it is idle. */
    in->count = in->ev_access ? stc_monitor_twin_count(&m->twin, select) : 0;
    in->watched = in->ev_access ? stc_monitor_twin_count(&m->twin, 0) : 0;
    in->current_code = current_code(h);
    in->cfg_ready = ready;
    in->cfg_done = done;
    in->cfg_err = err;
    in->reg_we = h->pins.tun_we;
    in->reg_addr = h->pins.tun_addr;
    in->reg_wdata = h->pins.tun_wdata;
    stc_monitor_tuner_out out;
    stc_monitor_tuner_outputs(&m->twin.unit, &out);
    tuner_side_compare_port(h, "monitor tuner model", out.busy,
                            stc_monitor_tuner_read(&m->twin.unit, h->pins.tun_addr));
    if (m->twin.unit.q.deciding && in->ev_access) {
        unsigned rtl_count = dut_monitor_count(h->rtl);
        if (rtl_count != in->count) {
            mismatch(h, "RTL", "u_monitor's count %u (decision step %" PRIu32 "): model %u, RTL %u",
                     select, m->twin.unit.q.step, in->count, rtl_count);
        }
        m->count_reads++;
    }
}

static void compare_flops(harness *h)
{
    monitor_side *m = &h->mon;
    stc_monitor_tuner_regs rtl;
    if (dut_monitor_tuner_flops(h->rtl, &rtl) != 0) {
        fprintf(stderr, "lockstep: u_tuner's flops are not readable (tb/lockstep.vlt)\n");
        exit(2);
    }
    const stc_monitor_tuner_regs *model = &m->twin.unit.q;
#define FLOP(name)                                                                                 \
    if (rtl.name != model->name) {                                                                 \
        mismatch(h, "RTL", "monitor tuner flop " #name "_q: model 0x%" PRIx32 ", RTL 0x%" PRIx32,  \
                 model->name, rtl.name);                                                           \
    }
    FLOP(enable) FLOP(win) FLOP(deciding) FLOP(step) FLOP(watched) FLOP(operand) FLOP(energy)
    FLOP(lowest) FLOP(lowest_code) FLOP(current) FLOP(pending) FLOP(sent) FLOP(target)
    FLOP(decisions) FLOP(changes)
#undef FLOP
}

void monitor_side_edge(harness *h)
{
    monitor_side *m = &h->mon;
    bool was_deciding = m->twin.unit.q.deciding != 0, was_pending = m->twin.unit.q.pending != 0;
    stc_monitor_tuner_step(&m->twin.unit, &m->in);
    m->decisions += was_deciding && !m->twin.unit.q.deciding;
    m->offers += !was_pending && m->twin.unit.q.pending;
    if (!was_pending && m->twin.unit.q.pending && h->accepted_at_edge) {
        mismatch(h, "RTL", "a request accepted at the edge of the monitor tuner's decision: its "
                 "change must land before the next request (sections 15.3, 18.3)");
    }
    /* observed in the next cycle's settle (above) */
    if (m->in.ev_access) {
        m->event_pending = true;
        m->event_addr = h->cur.addr;
        m->event_write = h->cur.kind == OP_STORE;
        m->events++;
    }
    compare_flops(h);
    if (!h->pins.tun_we) {
        /* every address in turn, 16 cycles each: the five registers and
         * three unmapped */
        h->pins.tun_addr = (unsigned)(h->cycle >> 4) % (1u << STC_MREG_ADDR_BITS);
    }
}

bool monitor_side_offer(const harness *h, unsigned *code)
{
    stc_monitor_tuner_out out;
    stc_monitor_tuner_outputs(&h->mon.twin.unit, &out);
    *code = out.cfg_code;
    return out.cfg_valid;
}

void monitor_side_report(const harness *h)
{
    const monitor_side *m = &h->mon;
    if (!m->present) {
        return;
    }
    printf("  monitor tuner (every cycle against ref/monitor.c and ref/monitor_tuner.c, window "
           "%u, margin %u): %" PRIu64 " accesses observed, %" PRIu64 " decisions, %" PRIu64
           " changes offered, %" PRIu64 " counts read and compared; decisions %s\n",
           m->twin.unit.build.window, m->twin.unit.build.margin, m->events, m->decisions, m->offers,
           m->count_reads, h->tune.on ? "enabled (--tune)" : "disabled (CTRL = 0 after reset)");
}

bool monitor_side_last_step(const harness *h)
{
    const monitor_side *m = &h->mon;
    return m->present && stc_monitor_tuner_last_step(&m->twin.unit);
}
