// tb_tuner.cpp - the Verilator shim of the tuner lockstep test: drives the
// generated stc_tuner (built with --public-flat-rw, so every flop can be
// read) for the C harness tuner_lockstep.c, which holds all the checks.
#include "Vstc_tuner.h"
#include "Vstc_tuner___024root.h"
#include "stc_geometry_gen.h"
#include "tuner_dut.h"
#include "verilated.h"

struct tuner_dut {
    VerilatedContext context;
    Vstc_tuner *top;
};

static void apply(Vstc_tuner *top, const stc_tuner_hw_in *in)
{
    top->ev_access_i = in->ev_access;
    top->ev_miss_i = in->ev_miss;
    top->ev_fph_i = in->ev_fph;
    top->ev_cycle_i = in->ev_cycle;
    top->cfg_ready_i = in->cfg_ready;
    top->cfg_done_i = in->cfg_done;
    top->cfg_err_i = in->cfg_err;
    top->reg_we_i = in->reg_we;
    top->reg_addr_i = in->reg_addr;
    top->reg_wdata_i = in->reg_wdata;
}

extern "C" void tuner_dut_reset(tuner_dut *dut)
{
    stc_tuner_hw_in idle = {};
    apply(dut->top, &idle);
    dut->top->clk_i = 0;
    dut->top->rst_ni = 1;
    dut->top->eval();
    dut->top->rst_ni = 0;
    dut->top->eval();
    dut->top->clk_i = 1;
    dut->top->eval();
    dut->top->clk_i = 0;
    dut->top->eval();
    dut->top->rst_ni = 1;
    dut->top->eval();
}

extern "C" void tuner_dut_outputs(tuner_dut *dut, stc_tuner_hw_out *out)
{
    out->busy = dut->top->busy_o;
    out->cfg_valid = dut->top->cfg_valid_o;
    out->cfg_banks_log = dut->top->cfg_banks_log_o;
    out->cfg_ways_log = dut->top->cfg_ways_log_o;
    out->cfg_sub_log = dut->top->cfg_sub_log_o;
    out->cfg_wp = dut->top->cfg_wp_o;
}

extern "C" uint32_t tuner_dut_read(tuner_dut *dut, unsigned addr)
{
    dut->top->reg_we_i = 0;
    dut->top->reg_addr_i = addr;
    dut->top->eval();
    return dut->top->reg_rdata_o;
}

extern "C" void tuner_dut_step(tuner_dut *dut, const stc_tuner_hw_in *in)
{
    apply(dut->top, in);
    dut->top->eval();
    dut->top->clk_i = 1;
    dut->top->eval();
    dut->top->clk_i = 0;
    dut->top->eval();
}

extern "C" void tuner_dut_flops(tuner_dut *dut, stc_tuner_hw_regs *r)
{
    const Vstc_tuner___024root *q = dut->top->rootp;
    *r = stc_tuner_hw_regs();
    r->psm = q->stc_tuner__DOT__psm_q;
    r->vsm = q->stc_tuner__DOT__vsm_q;
    r->csm = q->stc_tuner__DOT__csm_q;
#if STC_GEN_TUNER_SERIAL
    r->mbit = q->stc_tuner__DOT__mbit_q;
    r->prod = q->stc_tuner__DOT__prod_q;
#elif defined(STC_GEN_TUNER_MULT)
    r->mbit = q->stc_tuner__DOT__mbit_q; // radix 4 / 16: a digit counter, no product register
#endif
    r->win_len = q->stc_tuner__DOT__win_len_q;
#ifndef STC_GEN_TUNER_NO_TRIGGERS
    r->phase_en = q->stc_tuner__DOT__phase_en_q;
    r->retune = q->stc_tuner__DOT__retune_q;
    r->thresh = q->stc_tuner__DOT__thresh_q;
#endif
    r->acc = q->stc_tuner__DOT__acc_q;
    r->miss = q->stc_tuner__DOT__miss_q;
    r->cyc = q->stc_tuner__DOT__cyc_q;
    r->fph = q->stc_tuner__DOT__fph_q;
    r->cand = q->stc_tuner__DOT__cand_q;
    r->best = q->stc_tuner__DOT__best_q;
    r->cfg_sent = q->stc_tuner__DOT__cfg_sent_q;
    r->energy = q->stc_tuner__DOT__energy_q;
    r->best_energy = q->stc_tuner__DOT__best_energy_q;
#ifndef STC_GEN_TUNER_LEAN_REGS
    r->examined = q->stc_tuner__DOT__examined_q;
    r->compute = q->stc_tuner__DOT__compute_q;
#endif
    r->done = q->stc_tuner__DOT__done_q;
#ifndef STC_GEN_TUNER_NO_TRIGGERS
    r->tuned = q->stc_tuner__DOT__tuned_q;
    r->have_ref = q->stc_tuner__DOT__have_ref_q;
    r->ref_miss = q->stc_tuner__DOT__ref_miss_q;
    r->since = q->stc_tuner__DOT__since_q;
#endif
#ifndef STC_GEN_TUNER_LEAN_REGS
    r->searches = q->stc_tuner__DOT__searches_q;
#endif
}

int main(int argc, char **argv)
{
    tuner_dut dut;
    dut.context.commandArgs(argc, argv);
    dut.top = new Vstc_tuner(&dut.context);
    int status = tuner_lockstep_main(&dut, argc, argv);
    dut.top->final();
    delete dut.top;
    return status;
}
