// tb_monitor.cpp - the Verilator shim of the monitor lockstep test: drives
// tb_monitor_top (the generated stc_monitor and stc_monitor_tuner) for the
// C harness monitor_lockstep.c, which holds all the checks. READ_ONLY comes
// from the build (-GREAD_ONLY=N, passed on as -DMONITOR_READ_ONLY=N).
#include "Vtb_monitor_top.h"
#include "monitor_dut.h"
#include "verilated.h"

struct monitor_dut {
    VerilatedContext context;
    Vtb_monitor_top *top;
};

static void clear_inputs(Vtb_monitor_top *top)
{
    top->ev_valid_i = 0;
    top->ev_line_i = 0;
    top->ev_write_i = 0;
    top->peek_i = 0;
    top->peek_sel_i = 0;
    top->cur_code_i = 0;
    top->cfg_ready_i = 0;
    top->cfg_done_i = 0;
    top->cfg_err_i = 0;
    top->reg_we_i = 0;
    top->reg_addr_i = 0;
    top->reg_wdata_i = 0;
}

extern "C" void monitor_dut_reset(monitor_dut *dut)
{
    Vtb_monitor_top *top = dut->top;
    clear_inputs(top);
    top->clk_i = 0;
    top->rst_ni = 1;
    top->eval();
    top->rst_ni = 0;
    top->eval();
    top->clk_i = 1;
    top->eval();
    top->clk_i = 0;
    top->eval();
    top->rst_ni = 1;
    top->eval();
}

extern "C" void monitor_dut_step(monitor_dut *dut, const monitor_dut_in *in)
{
    Vtb_monitor_top *top = dut->top;
    top->peek_i = 0;
    top->ev_valid_i = in->valid;
    top->ev_line_i = in->line;
    top->ev_write_i = in->write;
    top->cur_code_i = in->cur_code;
    top->cfg_ready_i = in->cfg_ready;
    top->cfg_done_i = in->cfg_done;
    top->cfg_err_i = in->cfg_err;
    top->reg_we_i = in->reg_we;
    top->reg_addr_i = in->reg_addr;
    top->reg_wdata_i = in->reg_wdata;
    top->eval();
    top->clk_i = 1;
    top->eval();
    top->clk_i = 0;
    top->reg_we_i = 0;
    top->eval();
}

extern "C" uint16_t monitor_dut_count(monitor_dut *dut, unsigned index)
{
    dut->top->peek_i = 1;
    dut->top->peek_sel_i = index;
    dut->top->eval();
    uint16_t value = dut->top->cnt_o;
    dut->top->peek_i = 0;
    dut->top->eval();
    return value;
}

extern "C" void monitor_dut_outputs(monitor_dut *dut, monitor_dut_out *out)
{
    Vtb_monitor_top *top = dut->top;
    top->eval();
    out->cfg_valid = top->cfg_valid_o;
    out->cfg_code = top->cfg_code_o;
    out->busy = top->busy_o;
    out->tuner_sel = top->tuner_sel_o;
    out->row_writes = top->row_writes_o;
    out->watched = top->watched_o;
}

extern "C" uint32_t monitor_dut_register(monitor_dut *dut, unsigned addr)
{
    dut->top->reg_addr_i = addr;
    dut->top->eval();
    return dut->top->reg_rdata_o;
}

int main(int argc, char **argv)
{
    monitor_dut dut;
    dut.context.commandArgs(argc, argv);
    dut.top = new Vtb_monitor_top(&dut.context);
    int status = monitor_lockstep_main(&dut, MONITOR_READ_ONLY != 0, argc, argv);
    dut.top->final();
    delete dut.top;
    return status;
}
