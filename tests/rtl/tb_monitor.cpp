// tb_monitor.cpp - the Verilator shim of the monitor lockstep test: drives
// the generated stc_monitor for the C harness monitor_lockstep.c, which
// holds all the checks. READ_ONLY comes from the build (-GREAD_ONLY=N,
// passed on as -DMONITOR_READ_ONLY=N).
#include "Vstc_monitor.h"
#include "monitor_dut.h"
#include "verilated.h"

struct monitor_dut {
    VerilatedContext context;
    Vstc_monitor *top;
};

extern "C" void monitor_dut_reset(monitor_dut *dut)
{
    Vstc_monitor *top = dut->top;
    top->ev_valid_i = 0;
    top->ev_line_i = 0;
    top->ev_write_i = 0;
    top->cnt_sel_i = 0;
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

extern "C" void monitor_dut_step(monitor_dut *dut, bool valid, uint64_t line, bool write)
{
    Vstc_monitor *top = dut->top;
    top->ev_valid_i = valid;
    top->ev_line_i = line;
    top->ev_write_i = write;
    top->eval();
    top->clk_i = 1;
    top->eval();
    top->clk_i = 0;
    top->eval();
}

extern "C" uint16_t monitor_dut_count(monitor_dut *dut, unsigned index)
{
    dut->top->cnt_sel_i = index;
    dut->top->eval();
    return dut->top->cnt_o;
}

extern "C" uint16_t monitor_dut_dropped(monitor_dut *dut)
{
    return dut->top->dropped_o;
}

int main(int argc, char **argv)
{
    monitor_dut dut;
    dut.context.commandArgs(argc, argv);
    dut.top = new Vstc_monitor(&dut.context);
    int status = monitor_lockstep_main(&dut, MONITOR_READ_ONLY != 0, argc, argv);
    dut.top->final();
    delete dut.top;
    return status;
}
