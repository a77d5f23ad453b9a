/* rtl_side.c - the RTL's clock cycle, its memory and power switches
 * (rtl_side.h). */
#include "rtl_side.h"

#include "harness.h"
#include "operations.h"

#include <inttypes.h>
#include <stdint.h>

static unsigned random_latency(harness *h)
{
    /* mostly short, sometimes long */
    return rng_percent(&h->rng, 80) ? rng_below(&h->rng, h->opt.latency + 1)
                                    : h->opt.latency + rng_below(&h->rng, 4 * h->opt.latency + 8);
}

static void memory_outputs(harness *h)
{
    bool random = h->opt.random_memory;
    h->m_ready = h->mstate == M_IDLE && (!random || rng_percent(&h->rng, 70));
    h->m_rvalid = h->mstate == M_RBEATS && (!random || rng_percent(&h->rng, 75));
    h->m_wready = h->mstate == M_WBEATS && (!random || rng_percent(&h->rng, 75));
    h->m_bvalid = h->mstate == M_WWAIT && h->mcount == 0;
    h->pins.mem_req_ready = h->m_ready;
    h->pins.mem_rvalid = h->m_rvalid;
    h->pins.mem_rdata = h->m_rvalid ? image_read32(&h->rtl_mem, h->maddr) : 0x0badf00du;
    h->pins.mem_wready = h->m_wready;
    h->pins.mem_bvalid = h->m_bvalid;
}

static void memory_edge(harness *h)
{
    const dut_pins *p = &h->pins;
    if (p->mem_wvalid && h->mstate != M_WBEATS) {
        mismatch(h, "RTL", "mem_wvalid_o is 1 outside a write burst (memory state %d)", (int)h->mstate);
    }
    switch (h->mstate) {
    case M_IDLE:
        if (p->mem_req_valid && h->m_ready) {
            transaction *t = log_push(&h->rtl_log);
            t->we = p->mem_req_we;
            t->line = p->mem_req_line;
            t->lines = p->mem_req_lines;
            if (t->lines < 1 || t->lines > STC_MAX_SUBLINES || (t->we && t->lines != 1)) {
                mismatch(h, "RTL", "memory request of %u lines (%s)", t->lines,
                         t->we ? "write" : "read");
            }
            h->mtxn = t;
            h->maddr = (t->line << STC_GEN_OFFSET_BITS) & STC_GEN_ADDR_MASK;
            h->mbeats = t->lines * BEATS;
            if (t->we) {
                h->mstate = M_WBEATS;
            } else {
                h->mstate = M_RWAIT;
                h->mcount = h->opt.random_memory ? random_latency(h) : h->opt.latency - 1;
                if (h->opt.latency == 0 && !h->opt.random_memory) {
                    h->mcount = 0;
                }
            }
        }
        break;
    case M_RWAIT:
        if (h->mcount == 0) {
            h->mstate = M_RBEATS;
        } else {
            h->mcount--;
        }
        break;
    case M_RBEATS:
        if (h->m_rvalid) {
            transaction *t = h->mtxn;
            t->data[t->words++] = p->mem_rdata;
            h->maddr += 4;
            if (--h->mbeats == 0) {
                h->mstate = M_IDLE;
            }
        }
        break;
    case M_WBEATS:
        if (h->m_wready && p->mem_wvalid) {
            transaction *t = h->mtxn;
            t->data[t->words++] = p->mem_wdata;
            image_write32(&h->rtl_mem, h->maddr, p->mem_wdata, 0xf);
            h->maddr += 4;
            if (--h->mbeats == 0) {
                h->mstate = M_WWAIT;
                h->mcount = h->opt.random_memory ? random_latency(h) : h->opt.latency - 1;
                if (h->opt.latency == 0 && !h->opt.random_memory) {
                    h->mcount = 0;
                }
            }
        }
        break;
    case M_WWAIT:
        if (h->mcount == 0) {
            h->mstate = M_IDLE;
        } else {
            h->mcount--;
        }
        break;
    }
}

/* stc_cache_pair: the side the harness does not drive must stay idle. */
static void check_other_side(harness *h)
{
    unsigned moved = LOCKSTEP_PAIR_SIDE ? dut_other_side_moved(h->rtl) : 0;
    if (moved && h->pins.rst_n && !h->initialising) {
        static const char *const what[6] = {"cpu_req_ready_o went low", "cpu_rsp_valid_o",
                                            "cfg_done_o", "mem_req_valid_o", "tun_busy_o",
                                            "mnt_done_o"};
        unsigned bit = 0;
        while (!(moved >> bit & 1)) {
            bit++;
        }
        mismatch(h, "RTL", "stc_cache_pair: the idle %s side moved: %s",
                 LOCKSTEP_PAIR_SIDE == 1 ? "D" : "I", what[bit]);
    }
}

/* One clock cycle of the RTL with the inputs in h->pins (CPU and
 * configuration fields set by the caller). */
void rtl_cycle_settle(harness *h)
{
    memory_outputs(h);
    /* Power switch acknowledges: each bank's follows its enable after the
     * delay chosen when the enable changed. */
    for (unsigned bank = 0; h->ack_pending_mask && bank < BANKS; bank++) {
        if ((h->ack_pending_mask >> bank & 1) && h->cycle >= h->ack_time[bank]) {
            h->ack = (h->ack & ~(1u << bank)) | (h->ack_pending_value & (1u << bank));
            h->ack_pending_mask &= ~(1u << bank);
        }
    }
    h->pins.pwr_ack = h->ack;
    dut_settle(h->rtl, &h->pins);
    if (h->strobes && h->pins.rst_n) {
        int bits = dut_strobes(h->rtl);
        for (unsigned index = 0; bits && index < 4; index++) {
            h->strobe_counts[index] += (unsigned)bits >> index & 1u;
        }
        if (h->mon.present) {
            monitor_side_settle(h, bits);
        } else if (h->tune.on) {
            tuner_side_settle(h, bits);
        }
    }
    check_other_side(h);
    if (h->pins.mnt_done && !h->maintaining && h->pins.rst_n) {
        mismatch(h, "RTL", "mnt_done_o with no maintenance operation asked");
    }
    uint32_t off_access = dut_sram_access(h->rtl) & ~h->pins.pwr_en;
    if (off_access && h->pins.rst_n) {
        mismatch(h, "RTL", "SRAM of powered-off bank(s) 0x%x accessed (switch enables 0x%x)",
                 off_access, h->pins.pwr_en);
    }
}

void rtl_cycle_edge(harness *h)
{
    memory_edge(h);
    h->accepted_at_edge = h->pins.cpu_req_valid && h->pins.cpu_req_ready;
    dut_edge(h->rtl, &h->pins);
    check_other_side(h);
    h->cycle++;
    if (h->mon.present && h->pins.rst_n) {
        monitor_side_edge(h);
    } else if (h->tune.on && h->pins.rst_n) {
        tuner_side_edge(h);
    }
    uint32_t en = h->pins.pwr_en;
    uint32_t changed = en ^ h->pwr_en_prev;
    for (unsigned bank = 0; changed && bank < BANKS; bank++) {
        if (!(changed >> bank & 1)) {
            continue;
        }
        unsigned delay =
            h->opt.random_memory ? rng_below(&h->rng, h->max_ack_delay + 1) : h->opt.ack_delay;
        h->ack_pending_mask |= 1u << bank;
        h->ack_pending_value = (h->ack_pending_value & ~(1u << bank)) | (en & (1u << bank));
        h->ack_time[bank] = h->cycle + delay;
        if (!(en >> bank & 1)) {
            /* The switch turned off: the bank's contents are lost. */
            if (!LOCKSTEP_SIM_SRAM) {
                dut_scramble_bank(h->rtl, bank, h->scramble_seed++);
            }
            h->cov.power_offs++;
        }
    }
    h->pwr_en_prev = en;
}

void wait_row_state_init(harness *h, uint64_t released)
{
    /* ARCHITECTURE.md 15.1: one edge per register-file word, max(2, R/4),
     * with both ports not ready; both caches of stc_cache_pair at once. */
    const unsigned expected = ROWS / 4 < 2 ? 2 : ROWS / 4;
    h->pins.cpu_req_valid = 0;
    h->pins.cfg_valid = 0;
    for (;;) {
        rtl_cycle_settle(h);
        if ((h->pins.cpu_req_ready && h->pins.cfg_ready) || h->cycle - released > 4 * expected) {
            break;
        }
        rtl_cycle_edge(h);
    }
    uint64_t edges = h->cycle - released;
    if (LOCKSTEP_PAIR_SIDE) {
        (void)dut_other_side_moved(h->rtl);  /* its own initialisation, in step */
    }
    h->initialising = false;
    if (edges != expected) {
        mismatch(h, "RTL", "the reset-time row-state initialisation took %" PRIu64
                 " cycles, not %u (max(2, R/4))", edges, expected);
    }
}

void idle_cycles(harness *h, unsigned count)
{
    finish_request(h);
    h->pins.cpu_req_valid = 0;
    h->pins.cfg_valid = 0;
    for (unsigned index = 0; index < count; index++) {
        rtl_cycle_settle(h);
        if (h->pins.cpu_rsp_valid || h->pins.cfg_done) {
            mismatch(h, "RTL", "a response (cpu_rsp_valid_o %u, cfg_done_o %u) with nothing asked",
                     h->pins.cpu_rsp_valid, h->pins.cfg_done);
        }
        rtl_cycle_edge(h);
    }
}
