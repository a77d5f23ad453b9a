/* operations.c - one operation on both sides, compared (operations.h). */
#include "operations.h"

#include "compare.h"
#include "harness.h"
#include "rtl_side.h"
#include "tuner_side.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void after_response(harness *h);

/* The next request offered in the open request's response cycle (it is
 * settled; its edge is still to come): accepted there if the RTL is ready.
 * Not offered where the harness cannot tell the model's order beforehand:
 * a counter clear inside either request, a request waiting behind a
 * configuration, or a change the tuner offers in this cycle (it goes
 * first). Either way the edge is done and the open request finished.
 * Returns whether the new request was accepted at that edge. */
static bool offer_back_to_back(harness *h, bool we, uint64_t addr, unsigned be, uint32_t wdata)
{
    bool offer = h->open.clear == CLEAR_NONE && h->busy_clear == CLEAR_NONE && !h->pending.on &&
                 !(h->tune.on && tuner_side_offers(h));
    h->pins.cpu_req_valid = offer;
    if (offer) {
        h->pins.cpu_req_we = we;
        h->pins.cpu_req_addr = addr >> 2;
        h->pins.cpu_req_be = be;
        h->pins.cpu_req_wdata = wdata;
    }
    dut_settle(h->rtl, &h->pins);
    bool ready = h->pins.cpu_req_ready;
    if (ready && (!h->open.result.hit || h->open.rejected)) {
        mismatch(h, "RTL", "cpu_req_ready_o = 1 in the response cycle of a %s (only a hit's accepts "
                 "the next request)", h->open.rejected ? "rejected store" : "miss");
    }
    bool accepted = offer && ready;
    /* Only the monitor tuner's deciding access asks for a gap (the seed
     * tuner's top ties back_to_back_i to 1): any other hit's response cycle
     * accepts, and that one must not. */
    bool gap = monitor_side_last_step(h);
    if (offer && h->open.result.hit && !h->open.rejected && ready == gap) {
        mismatch(h, "RTL", "a hit's response cycle %s the next request (cpu_req_ready_o %u; the "
                 "access %s the tuner's decision; ARCHITECTURE.md 15.3)",
                 ready ? "accepted" : "did not accept", ready, gap ? "ends" : "does not end");
    }
    h->cov.back_to_back_offered += offer;
    h->cov.back_to_back += accepted;
    rtl_cycle_edge(h);
    after_response(h);
    if (!accepted) {
        h->pins.cpu_req_valid = 0;
    }
    return accepted;
}

void do_request(harness *h, bool we, uint64_t addr, unsigned be, uint32_t wdata)
{
    addr &= STC_GEN_ADDR_MASK & ~(uint64_t)3;
    if (LOCKSTEP_PAIR_SIDE == 1 && we) {
        /* stc_cache_pair's I side has no store port: a directed test's
         * store becomes a load of the same word */
        we = false;
        be = 0;
        wdata = 0;
    }
    bool accepted = h->open.on && offer_back_to_back(h, we, addr, be, wdata);
    uint64_t accept_cycle = accepted ? h->cycle - 1 : 0;
    if (!accepted && h->tune.on && !h->pending.on) {
        /* The tuner's change goes first; this request waits meanwhile. */
        h->pending.on = true;
        h->pending.we = we;
        h->pending.addr = addr;
        h->pending.be = be;
        h->pending.wdata = wdata;
        tuner_side_serve(h);
        h->pending.on = false;
    }
    h->ops++;
    h->requests++;
    if (h->config_at >= 0) {
        h->cov.requests_in[h->config_at]++;
    }
    h->cur.kind = we ? OP_STORE : OP_LOAD;
    h->cur.start = accepted ? accept_cycle : h->cycle;
    h->cur.done = false;
    h->cur.addr = addr;
    h->cur.be = be;
    h->cur.wdata = wdata;
    h->cur.clear_inside = h->busy_clear;

    /* The model. */
    uint8_t wbytes[4], mask[4], rbytes[4] = {0};
    for (unsigned byte = 0; byte < 4; byte++) {
        wbytes[byte] = (uint8_t)(wdata >> (8 * byte));
        mask[byte] = (uint8_t)(be >> byte & 1);
    }
    /* A counter clear inside this request (section 15.2: the clear wins over
     * the increments of its cycle): in the accepting cycle, which counts
     * nothing, every event of the request is counted after it; in the
     * response cycle nothing is left, neither the events counted before
     * (fills, writebacks) nor the response's own. */
    busy_clear clear = h->busy_clear;
    h->busy_clear = CLEAR_NONE;
    if (clear == CLEAR_AT_ACCEPT) {
        stc_cache_clear_counters(h->model);
    }
    stc_access_result result;
    stc_counters counts_before = *stc_cache_counters(h->model);
    bool rejected = stc_cache_access(h->model, we ? STC_OP_WRITE : STC_OP_READ, addr, 4,
                                     we ? wbytes : NULL, we ? mask : NULL, we ? NULL : rbytes,
                                     &result) != 0;
    const stc_counters *counts_after = stc_cache_counters(h->model);
    if (h->tune.on) {
        tuner_side_account(h, &counts_before, counts_after);
    }
    if (clear == CLEAR_AT_RESPONSE) {
        stc_cache_clear_counters(h->model);
    }
    if (rejected && !(LOCKSTEP_ICACHE && we)) {
        fprintf(stderr, "lockstep: the model refused a request (harness bug)\n");
        exit(2);
    }
    uint32_t model_word = (uint32_t)rbytes[0] | (uint32_t)rbytes[1] << 8 |
                          (uint32_t)rbytes[2] << 16 | (uint32_t)rbytes[3] << 24;
    if (!we) {
        uint32_t shadow_word = image_read32(&h->shadow, addr);
        if (model_word != shadow_word) {
            mismatch(h, "MODEL", "load 0x%08" PRIx64 ": model returns 0x%08x, the shadow memory holds 0x%08x",
                     addr, model_word, shadow_word);
        }
    } else if (!rejected) {
        image_write32(&h->shadow, addr, wdata, be);
    }
    /* The counters as the last operation left them (idle cycles count
     * nothing; every operation ends by reading them). */
    memcpy(h->open.before, h->rtl_counts, sizeof h->open.before);
    if (clear == CLEAR_AT_ACCEPT) {
        memset(h->open.before, 0, sizeof h->open.before);
    }

    /* The RTL. */
    h->pins.cpu_req_valid = 1;
    h->pins.cpu_req_we = we;
    h->pins.cpu_req_addr = addr >> 2;
    h->pins.cpu_req_be = be;
    h->pins.cpu_req_wdata = wdata;
    h->pins.cfg_valid = 0;
    uint64_t start = h->cycle;
    h->pins.cnt_clear = clear == CLEAR_AT_ACCEPT;
    if (accepted) {
        /* accepted at the last edge, in the previous response cycle */
        h->pins.cpu_req_valid = 0;
        h->pins.cnt_clear = 0;
    }
    for (;;) {
        if (clear == CLEAR_AT_RESPONSE) {
            h->pins.cnt_clear = accepted && h->cycle == accept_cycle + result.cycles;
        }
        rtl_cycle_settle(h);
        if (h->pins.cnt_clear) {
            /* the counters lose this cycle's events: so do the strobe counts */
            memset(h->strobe_counts, 0, sizeof h->strobe_counts);
        }
        if (h->pins.cfg_done) {
            mismatch(h, "RTL", "cfg_done_o during a CPU request");
        }
        if (h->pins.cpu_rsp_valid) {
            if (!accepted) {
                mismatch(h, "RTL", "a response before the request was accepted");
            }
            /* Left open: the next request may be offered in this cycle. */
            h->open.on = true;
            h->open.we = we;
            h->open.rejected = rejected;
            h->open.addr = addr;
            h->open.clear = clear;
            h->open.result = result;
            h->open.model_word = model_word;
            h->open.rdata = h->pins.cpu_rsp_rdata;
            h->open.err = h->pins.cpu_rsp_err;
            h->open.touch = dut_touch_bank(h->rtl);
            h->open.response_strobes = dut_strobes(h->rtl);
            h->open.accept_cycle = accept_cycle;
            h->open.response_cycle = h->cycle;
            return;
        }
        if (accepted && h->pins.cpu_req_ready) {
            mismatch(h, "RTL", "cpu_req_ready_o = 1 while a request is being served");
        }
        bool accept_now = !accepted && h->pins.cpu_req_ready;
        if (clear == CLEAR_AT_ACCEPT && h->pins.cnt_clear && !accept_now) {
            fprintf(stderr, "lockstep: a request with a clear in its accepting cycle was not "
                    "accepted at once (harness bug)\n");
            exit(2);
        }
        rtl_cycle_edge(h);
        h->pins.cnt_clear = 0;
        if (accept_now) {
            /* The CPU drops valid after the accepting edge (it has no
             * other request yet); ready is 0 until the response. */
            accepted = true;
            accept_cycle = h->cycle - 1;
            h->pins.cpu_req_valid = 0;
        }
        if (h->cycle - start > TIMEOUT_CYCLES) {
            mismatch(h, "RTL", "no %s after %u cycles", accepted ? "response" : "acceptance",
                     TIMEOUT_CYCLES);
        }
    }
}

void finish_request(harness *h)
{
    if (!h->open.on) {
        return;
    }
    h->pins.cpu_req_valid = 0;
    dut_settle(h->rtl, &h->pins);
    if (h->pins.cpu_req_ready && (!h->open.result.hit || h->open.rejected)) {
        mismatch(h, "RTL", "cpu_req_ready_o = 1 in the response cycle of a %s (only a hit's accepts "
                 "the next request)", h->open.rejected ? "rejected store" : "miss");
    }
    rtl_cycle_edge(h);
    after_response(h);
}

/* The open request's comparisons after its response cycle's edge. */
static void after_response(harness *h)
{
    h->open.on = false;
    const bool we = h->open.we, rejected = h->open.rejected;
    const uint64_t addr = h->open.addr;
    const busy_clear clear = h->open.clear;
    const stc_access_result result = h->open.result;
    const uint32_t rdata = h->open.rdata, err = h->open.err;
    const uint64_t *before = h->open.before;
    const stc_config *config = stc_cache_config(h->model);
    uint64_t latency = h->open.response_cycle - h->open.accept_cycle;
    h->tune.ahead = false;
    h->pins.cnt_clear = 0;
    if (clear == CLEAR_AT_RESPONSE && latency != result.cycles) {
        mismatch(h, "RTL", "latency: model %u cycles, RTL %" PRIu64 " (the counters were cleared "
                 "in the cycle the model expects the response)", result.cycles, latency);
    }

    /* Compare. */
    const uint64_t *after = h->rtl_counts;
    dut_counters(h->rtl, h->rtl_counts);
    h->counts_fresh = true;
    bool rtl_hit = after[5] == before[5];
    bool rtl_first = after[8] != before[8], rtl_second = after[9] != before[9];
    /* A saturated counter no longer moves (a 16-bit build's misses). */
    const uint64_t all_ones = stc_counter_saturate(UINT64_MAX, STC_GEN_COUNTER_BITS);
    bool saturated = before[5] == all_ones || before[8] == all_ones || before[9] == all_ones;
    if (clear == CLEAR_AT_RESPONSE || (saturated && h->strobes)) {
        /* The counters lost the response cycle's events, or cannot show
         * them; its strobes do (dut_strobes: bit 1 miss, bit 2 first-probe
         * hit). */
        rtl_hit = !(h->open.response_strobes >> 1 & 1);
        rtl_first = h->open.response_strobes >> 2 & 1;
        rtl_second = rtl_hit && !rtl_first;
        h->cov.clears_at_response += clear == CLEAR_AT_RESPONSE;
    } else if (clear == CLEAR_AT_ACCEPT) {
        h->cov.clears_at_accept++;
    }
    if (rejected) {
        /* I-cache store: an error in one cycle, nothing else. */
        if (!err) {
            mismatch(h, "RTL", "store to a read-only cache answered without cpu_rsp_err_o");
        }
        if (latency != 1) {
            mismatch(h, "RTL", "rejected store took %" PRIu64 " cycles, want 1", latency);
        }
        compare_transactions(h, "rejected store");
        compare_counters(h, "after the rejected store");
        unsigned row = (unsigned)(addr >> STC_GEN_OFFSET_BITS) & (ROWS - 1);
        compare_rows(h, row, 1, 0, "after the rejected store");
        h->cov.rejected++;
        h->cur.cycles = 1;
        commit_history(h);
        return;
    }
    if (err) {
        mismatch(h, "RTL", "cpu_rsp_err_o = 1 on a D-cache %s", we ? "store" : "load");
    }
    if (rtl_hit != result.hit) {
        mismatch(h, "RTL", "%s: model %s, RTL %s", we ? "store" : "load", result.hit ? "hit" : "miss",
                 rtl_hit ? "hit" : "miss");
    }
    if (!we && rdata != h->open.model_word) {
        mismatch(h, "RTL", "load 0x%08" PRIx64 ": model (and shadow) 0x%08x, RTL 0x%08x", addr,
                 h->open.model_word, rdata);
    }
    compare_transactions(h, we ? "store" : "load");
    if (h->open.touch != result.bank) {
        mismatch(h, "RTL", "served by bank %u in the model, bank %u in the RTL", result.bank,
                 h->open.touch);
    }
    if (config->way_predict) {
        bool first = rtl_first, second = rtl_second;
        bool model_second = result.hit && !result.predicted;
        if (first != result.predicted || second != model_second) {
            mismatch(h, "RTL", "way prediction: model %s, RTL %s",
                     result.predicted ? "first-probe hit" : model_second ? "second-probe hit" : "miss",
                     first ? "first-probe hit" : second ? "second-probe hit" : "miss");
        }
    }
    if (!h->opt.random_memory && latency != result.cycles) {
        mismatch(h, "RTL", "latency: model %u cycles, RTL %" PRIu64, result.cycles, latency);
    }
    unsigned n = config->sublines;
    unsigned row = (unsigned)(addr >> STC_GEN_OFFSET_BITS) & (ROWS - 1);
    compare_rows(h, row & ~(n - 1), n, 1u << result.bank, "after the request");
    compare_counters(h, "after the request");

    /* Coverage. */
    coverage *cov = &h->cov;
    if (result.hit) {
        cov->hits++;
    } else {
        cov->misses++;
        cov->misses_by_n[n]++;
        cov->partial_lines += result.fills < n;
        cov->split_bursts += result.bursts > 1;
        cov->dirty_victims += result.writebacks;
    }
    if (config->way_predict) {
        cov->first_probe += result.predicted;
        cov->second_probe += result.hit && !result.predicted;
        cov->wp_misses += !result.hit;
    }
    if (we) {
        cov->stores++;
        cov->partial_stores += h->cur.be != 0xf && h->cur.be != 0;
        cov->empty_stores += h->cur.be == 0;
    }
    h->cur.hit = result.hit;
    h->cur.bank = result.bank;
    h->cur.cycles = result.cycles;
    commit_history(h);
}

/* The configuration port as the one asking sees it: the top's cfg_ready_o,
 * cfg_done_o, cfg_err_o for software; for the tuner, what the top's
 * multiplexer gives u_tuner (the top's own outputs must then stay 0). */
static void port_view(harness *h, bool by_tuner, unsigned *ready, unsigned *done, unsigned *err)
{
    if (!by_tuner) {
        *ready = h->pins.cfg_ready;
        *done = h->pins.cfg_done;
        *err = h->pins.cfg_err;
        return;
    }
    dut_tuner_cfg_inputs(h->rtl, ready, done, err);
    if (h->pins.cfg_ready || h->pins.cfg_done || h->pins.cfg_err) {
        mismatch(h, "RTL", "the tuner owns the configuration port, but the top shows software "
                 "cfg_ready_o %u, cfg_done_o %u, cfg_err_o %u",
                 h->pins.cfg_ready, h->pins.cfg_done, h->pins.cfg_err);
    }
}

/* A reconfiguration asked by software through the top's port, or (by_tuner)
 * by the top's tuner, whose request the twin knows (tuner_side.h). */
static void reconfigure(harness *h, const stc_config *next, const unsigned *illegal_fields,
                        bool by_tuner, const stc_config *software_waiting, bool waited)
{
    finish_request(h);
    if (!by_tuner && !waited && h->tune.on && !h->pending.on) {
        tuner_side_serve(h); /* a change the tuner offers goes first */
    }
    h->ops++;
    h->reconfigs++;
    /* Section 14.4: a bank asked on again while still powering down wakes
     * later than the model says; keep software's changes apart. The
     * tuner's are apart by a measurement window, except its first change
     * right after the software change it was started in, which powers
     * nothing down (tuner_side_serve checks: only after a shrink). */
    uint64_t gap = h->last_cfg_done + h->max_ack_delay + 6;
    if (h->cycle < gap && !by_tuner && !waited) {
        idle_cycles(h, (unsigned)(gap - h->cycle));
    }
    unsigned refused[4];
    if (LOCKSTEP_FIXED && !illegal_fields) {
        /* the baseline refuses every change: the same check as an illegal one */
        refused[0] = stc_log2(next->banks_on);
        refused[1] = stc_log2(next->ways);
        refused[2] = stc_log2(next->sublines);
        refused[3] = next->way_predict;
        illegal_fields = refused;
    }
    const stc_config *from = stc_cache_config(h->model);
    stc_config old = *from;
    char from_name[STC_CONFIG_NAME_MAX], to_name[STC_CONFIG_NAME_MAX];
    config_name(h, &old, from_name, sizeof from_name);
    unsigned fields[4];
    if (illegal_fields) {
        memcpy(fields, illegal_fields, sizeof fields);
        snprintf(to_name, sizeof to_name, "illegal(klog %u alog %u llog %u wp %u)", fields[0],
                 fields[1], fields[2], fields[3]);
    } else {
        config_name(h, next, to_name, sizeof to_name);
        fields[0] = stc_log2(next->banks_on);
        fields[1] = stc_log2(next->ways);
        fields[2] = stc_log2(next->sublines);
        fields[3] = next->way_predict;
    }
    memset(&h->cur, 0, sizeof h->cur);
    h->cur.kind = illegal_fields ? OP_ILLEGAL : OP_RECONFIG;
    h->cur.start = h->cycle;
    h->cur.from = old;
    if (next) {
        h->cur.to = *next;
    }
    memcpy(h->cur.fields, fields, sizeof fields);

    stc_reconfig_result result;
    memset(&result, 0, sizeof result);
    stc_counters counts_before = *stc_cache_counters(h->model);
    bool model_ok = !illegal_fields && stc_cache_reconfigure(h->model, next, &result) == 0;
    if (!illegal_fields && !model_ok) {
        fprintf(stderr, "lockstep: the model refused a legal configuration (harness bug)\n");
        exit(2);
    }
    if (h->tune.on) {
        tuner_side_account(h, &counts_before, stc_cache_counters(h->model));
    }

    /* While the tuner changes the configuration, software's idle pins
     * carry other values than the tuner's (each field with its low bit
     * flipped), so a multiplexer that passes software's field instead of
     * the tuner's applies another configuration and shows. */
    unsigned flip = by_tuner ? 1u : 0u;
    h->pins.cfg_valid = !by_tuner;
    h->pins.cfg_banks_log = fields[0] ^ flip;
    h->pins.cfg_ways_log = fields[1] ^ flip;
    h->pins.cfg_sub_log = fields[2] ^ flip;
    h->pins.cfg_wp = fields[3] ^ flip;
    if (software_waiting) {
        /* --contend: software asks for another configuration meanwhile;
         * the top must hold it (cfg_ready_o 0) until the tuner's is done. */
        h->pins.cfg_valid = 1;
        h->pins.cfg_banks_log = stc_log2(software_waiting->banks_on);
        h->pins.cfg_ways_log = stc_log2(software_waiting->ways);
        h->pins.cfg_sub_log = stc_log2(software_waiting->sublines);
        h->pins.cfg_wp = software_waiting->way_predict;
    }
    h->pins.cpu_req_valid = h->pending.on;
    if (h->pending.on) {
        h->pins.cpu_req_we = h->pending.we;
        h->pins.cpu_req_addr = (h->pending.addr & STC_GEN_ADDR_MASK) >> 2;
        h->pins.cpu_req_be = h->pending.be;
        h->pins.cpu_req_wdata = h->pending.wdata;
    }
    bool accepted = false, writing_start = false;
    uint64_t accept_cycle = 0, start = h->cycle;
    uint32_t cfg_err = 0;
    for (;;) {
        rtl_cycle_settle(h);
        if (h->pins.cpu_rsp_valid) {
            mismatch(h, "RTL", "a CPU response during a reconfiguration");
        }
        unsigned ready, done, err;
        port_view(h, by_tuner, &ready, &done, &err);
        if (!by_tuner && accepted && h->tune.on) {
            unsigned tuner_ready, tuner_done, tuner_err;
            dut_tuner_cfg_inputs(h->rtl, &tuner_ready, &tuner_done, &tuner_err);
            if (tuner_ready || tuner_done || tuner_err) {
                mismatch(h, "RTL", "software's change is in progress, but the top gives the tuner "
                         "cfg_ready %u, cfg_done %u, cfg_err %u", tuner_ready, tuner_done, tuner_err);
            }
        }
        bool accept_now = !accepted && ready;
        if (accept_now) {
            accepted = true;
            accept_cycle = h->cycle;
        }
        if (h->pins.cpu_req_valid && h->pins.cpu_req_ready) {
            mismatch(h, "RTL", "cpu_req_ready_o = 1 while a configuration is %s",
                     accepted && !accept_now ? "being applied" : "offered");
        }
        if (done) {
            if (!accepted) {
                mismatch(h, "RTL", "cfg_done before the configuration was accepted");
            }
            cfg_err = err;
            rtl_cycle_edge(h);
            if (writing_start) {
                h->pins.tun_we = 0;
            }
            break;
        }
        rtl_cycle_edge(h);
        if (writing_start) {
            h->pins.tun_we = 0;
            writing_start = false;
        }
        if (accept_now) {
            h->pins.cfg_valid = 0;
            if (!by_tuner && h->tune.start_in_change) {
                /* tuner_side_start: CTRL written while this change runs */
                h->pins.tun_we = 1;
                h->pins.tun_addr = STC_TREG_CTRL;
                h->pins.tun_wdata = h->tune.start_in_change;
                h->tune.start_in_change = 0;
                h->tune.started_in_change++;
                writing_start = true;
            }
        }
        if (h->cycle - start > 50u * TIMEOUT_CYCLES) {
            mismatch(h, "RTL", "no cfg_done_o after %u cycles", 50u * TIMEOUT_CYCLES);
        }
    }
    h->pins.cfg_valid = 0;
    h->pins.cpu_req_valid = h->pending.on; /* still waiting: do_request serves it next */
    h->tune.ahead = false;
    h->last_cfg_done = h->cycle - 1;
    h->last_cfg_shrank = !illegal_fields && next->banks_on < old.banks_on;
    uint64_t took = h->cycle - 1 - accept_cycle;

    if (illegal_fields) {
        if (!cfg_err) {
            mismatch(h, "RTL", "illegal configuration accepted without cfg_err_o");
        }
        if (took != 0) {
            mismatch(h, "RTL", "illegal configuration took %" PRIu64 " cycles, want 0", took);
        }
        h->cov.illegal++;
    } else {
        if (cfg_err) {
            mismatch(h, "RTL", "legal configuration %s refused with cfg_err_o", to_name);
        }
        if (!h->opt.random_memory && took != result.cycles) {
            mismatch(h, "RTL", "reconfiguration %s -> %s: model %" PRIu64 " cycles, RTL %" PRIu64,
                     from_name, to_name, result.cycles, took);
        }
        int from_at = config_index(h, &old), to_at = config_index(h, next);
        if (from_at >= 0 && to_at >= 0) {
            h->cov.transitions[from_at][to_at]++;
        }
        if (stc_config_equal(&old, next)) {
            h->cov.same++;
        } else if (result.cycles == 0) {
            h->cov.zero_cost++;
        }
        h->cov.walks += result.walked_rows != 0;
        h->cov.walk_writebacks += result.writebacks;
        h->cov.walk_invalidations += result.invalidations;
        h->cov.walk_moves += result.moves;
        h->cov.moving_rows += result.moving_rows;
        h->cov.wakes += result.woken_banks;
    }
    h->config_at = config_index(h, stc_cache_config(h->model));
    compare_config(h, "after the reconfiguration");
    compare_transactions(h, "reconfiguration walk");
    compare_rows(h, 0, ROWS, UINT32_MAX, "after the reconfiguration");
    compare_counters(h, "after the reconfiguration");
    h->cur.cycles = result.cycles;
    h->cur.writebacks = result.writebacks;
    h->cur.by_tuner = by_tuner;
    if (by_tuner) {
        h->cov.tuner_changes++;
    }
    commit_history(h);
    if (software_waiting) {
        /* software's request has stayed up: it is taken now */
        reconfigure(h, software_waiting, NULL, false, NULL, true);
    }
}

void do_reconfig(harness *h, const stc_config *next, const unsigned *illegal_fields)
{
    reconfigure(h, next, illegal_fields, false, NULL, false);
}

void do_tuner_reconfig(harness *h, const stc_config *next, const stc_config *software_waiting)
{
    reconfigure(h, next, NULL, true, software_waiting, false);
}

void do_clear(harness *h)
{
    finish_request(h);
    tuner_side_serve(h);
    h->ops++;
    memset(&h->cur, 0, sizeof h->cur);
    h->cur.kind = OP_CLEAR;
    h->cur.start = h->cycle;
    h->pins.cnt_clear = 1;
    idle_cycles(h, 1);
    h->pins.cnt_clear = 0;
    memset(h->strobe_counts, 0, sizeof h->strobe_counts);
    stc_cache_clear_counters(h->model);
    compare_counters(h, "after clearing the counters");
    h->cov.clears++;
    commit_history(h);
}

/* The dirty lines an invalidation by op/all/addr will drop (their line
 * addresses into `lines`), so that the shadow can take memory's bytes. */
static unsigned dirty_lines_dropped(harness *h, unsigned op, bool all, uint64_t addr,
                                    uint64_t *lines, unsigned max)
{
    if (op != STC_MAINT_INVALIDATE) {
        return 0; /* nothing dropped, or written back first */
    }
    unsigned count = 0;
    for (unsigned row = 0; row < ROWS; row++) {
        for (unsigned bank = 0; bank < BANKS; bank++) {
            stc_slot slot;
            stc_cache_slot(h->model, bank, row, &slot);
            bool selected = all || slot.line_addr == (addr & STC_GEN_ADDR_MASK & ~(uint64_t)(LINE_BYTES - 1));
            if (slot.valid && slot.dirty && selected && count < max) {
                lines[count++] = slot.line_addr;
            }
        }
    }
    return count;
}

void do_maintain(harness *h, unsigned op, bool all, uint64_t addr)
{
    finish_request(h);
    tuner_side_serve(h);
    h->ops++;
    memset(&h->cur, 0, sizeof h->cur);
    h->cur.kind = OP_MAINTAIN;
    h->cur.start = h->cycle;
    h->cur.addr = addr;
    h->cur.fields[0] = op;
    h->cur.fields[1] = all;
    bool line_present = stc_cache_lookup(h->model, addr) >= 0;
    uint64_t *dropped = malloc(sizeof *dropped * ROWS * BANKS);
    if (!dropped) {
        fprintf(stderr, "lockstep: out of memory\n");
        exit(2);
    }
    unsigned dropped_count = dirty_lines_dropped(h, op, all, addr, dropped, ROWS * BANKS);

    stc_reconfig_result result;
    stc_counters counts_before = *stc_cache_counters(h->model);
    if (stc_cache_maintain(h->model, (stc_maint_op)op, all ? STC_MAINT_ALL : STC_MAINT_LINE, addr,
                           &result) != 0) {
        fprintf(stderr, "lockstep: the model refused maintenance op %u (harness bug)\n", op);
        exit(2);
    }
    if (h->tune.on) {
        tuner_side_account(h, &counts_before, stc_cache_counters(h->model));
    }

    h->maintaining = true;
    h->pins.mnt_valid = 1;
    h->pins.mnt_op = op;
    h->pins.mnt_all = all;
    h->pins.mnt_addr = (addr & STC_GEN_ADDR_MASK) >> 2;
    bool accepted = false;
    uint64_t accept_cycle = 0, start = h->cycle;
    for (;;) {
        rtl_cycle_settle(h);
        if (h->pins.cpu_rsp_valid || h->pins.cfg_done) {
            mismatch(h, "RTL", "a response (cpu_rsp_valid_o %u, cfg_done_o %u) during a maintenance "
                     "operation", h->pins.cpu_rsp_valid, h->pins.cfg_done);
        }
        if (h->pins.mnt_valid && h->pins.cpu_req_ready) {
            mismatch(h, "RTL", "cpu_req_ready_o = 1 while a maintenance operation is offered");
        }
        bool accept_now = !accepted && h->pins.mnt_valid && h->pins.mnt_ready;
        if (accept_now) {
            accepted = true;
            accept_cycle = h->cycle;
        }
        if (h->pins.mnt_done) {
            if (!accepted) {
                mismatch(h, "RTL", "mnt_done_o before the operation was accepted");
            }
            rtl_cycle_edge(h);
            break;
        }
        rtl_cycle_edge(h);
        if (accept_now) {
            h->pins.mnt_valid = 0;
        }
        if (h->cycle - start > 50u * TIMEOUT_CYCLES) {
            mismatch(h, "RTL", "no mnt_done_o after %u cycles", 50u * TIMEOUT_CYCLES);
        }
    }
    h->pins.mnt_valid = 0;
    h->maintaining = false;
    h->tune.ahead = false;
    uint64_t took = h->cycle - 1 - accept_cycle;
    if (!h->opt.random_memory && took != result.cycles) {
        mismatch(h, "RTL", "maintenance op %u (%s): model %" PRIu64 " cycles, RTL %" PRIu64, op,
                 all ? "every line" : "one line", result.cycles, took);
    }
    for (unsigned index = 0; index < dropped_count; index++) {
        for (unsigned byte = 0; byte < LINE_BYTES; byte++) {
            image_write8(&h->shadow, dropped[index] + byte,
                         image_read8(&h->model_mem, dropped[index] + byte));
        }
    }
    free(dropped);
    compare_transactions(h, "maintenance walk");
    compare_rows(h, 0, ROWS, UINT32_MAX, "after the maintenance operation");
    compare_counters(h, "after the maintenance operation");
    if (all && (op == STC_MAINT_CLEAN || op == STC_MAINT_CLEAN_INVALIDATE)) {
        compare_images(h); /* everything written back: memory is what the CPU wrote */
    }
    h->cov.maintenance[op][all]++;
    h->cov.maintenance_line_present += !all && op != STC_MAINT_NONE && line_present;
    h->cov.maintenance_writebacks += result.writebacks;
    h->cov.maintenance_invalidations += result.invalidations;
    h->cur.cycles = result.cycles;
    h->cur.writebacks = result.writebacks;
    commit_history(h);
}

void checkpoint(harness *h, bool restore)
{
    stc_config saved = *stc_cache_config(h->model);
    if (LOCKSTEP_FIXED) {
        /* No smaller configuration: read a region as large as the cache,
         * which brings `ways` new lines into every set. */
        for (unsigned line = 0; line < ROWS * BANKS; line++) {
            do_request(h, false, h->stimuli.flush_base + (uint64_t)line * LINE_BYTES, 0, 0);
        }
    } else {
        do_reconfig(h, &h->configs[0], NULL);
        for (unsigned row = 0; row < ROWS; row++) {
            do_request(h, false, h->stimuli.flush_base + (uint64_t)row * LINE_BYTES, 0, 0);
        }
    }
    for (unsigned row = 0; row < ROWS; row++) {
        for (unsigned bank = 0; bank < BANKS; bank++) {
            stc_slot slot;
            stc_cache_slot(h->model, bank, row, &slot);
            if (slot.valid && slot.dirty) {
                mismatch(h, "MODEL", "checkpoint: bank %u row %u still dirty after the flush", bank,
                         row);
            }
        }
    }
    compare_rows(h, 0, ROWS, UINT32_MAX, "checkpoint");
    compare_images(h);
    finish_request(h); /* the last flush request's counts land at its response's edge */
    compare_counter_port(h, "checkpoint");
    h->cov.checkpoints++;
    if (restore) {
        do_reconfig(h, &saved, NULL);
    }
}
