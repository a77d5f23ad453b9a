// tb_main.cpp - Verilator main of the example SoC (soc/README.md)
//
// Drives one of the two testbench tops (tb_soc: with caches; tb_soc_ref:
// without), both built with --prefix Vtb and the same ports: clock, reset,
// the core's start, the debug port into the APB bus. What it does:
//
//   1. reset, then (+tuner_off) write 0 to both tuners' CTRL register
//      (TUNER 0, ARCHITECTURE.md 18.4) through the debug port, so that the
//      caches run in their reset configuration unless the program itself
//      starts the tuner; then start the core;
//   2. every cycle: a console byte goes to stdout; an EXIT write records
//      the exit code; the run ends when the core stops (the program's _exit
//      writes EXIT and then executes ebreak, so the counters and the trace
//      end at the same request) or after +max_cycles;
//   3. (+counters=FILE) read, through the debug port, both caches' CONFIG,
//      GEOMETRY and counters 0-19 and write them as JSON for soc/run.sh.
//
// Plusargs of its own: +tuner_off, +counters=FILE, +max_cycles=N. The
// others (+image, +trace_i, +trace_d) are the Verilog testbench's.
// Exit status: 0 when the program wrote EXIT and stopped (the code itself
// is in the "tb:" line on stderr), 1 otherwise.
#include "Vtb.h"
#include "verilated.h"

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

Vtb *top;
uint64_t cycles;

void posedge()
{
    top->clk_i = 0;
    top->eval();
    top->clk_i = 1;
    top->eval();
    cycles++;
}

// One OBI transfer on the debug port: address phase until gnt (sampled
// before the edge, as the subordinate sees it), then wait for rvalid.
uint32_t dbg_access(uint32_t addr, bool we, uint32_t wdata, bool *err)
{
    top->dbg_req_i = 1;
    top->dbg_addr_i = addr;
    top->dbg_we_i = we;
    top->dbg_be_i = 0xf;
    top->dbg_wdata_i = wdata;
    for (;;) {
        top->clk_i = 0;
        top->eval();
        bool gnt = top->dbg_gnt_o;
        posedge();
        if (gnt) {
            break;
        }
    }
    top->dbg_req_i = 0;
    for (;;) {
        top->clk_i = 0;
        top->eval();
        bool rvalid = top->dbg_rvalid_o;
        uint32_t rdata = top->dbg_rdata_o;
        bool e = top->dbg_err_o;
        posedge();
        if (rvalid) {
            if (err) {
                *err = e;
            }
            return rdata;
        }
    }
}

const char *const counter_names[20] = {
    "requests", "request_misses", "accesses", "reads", "writes", "misses", "read_misses",
    "write_misses", "first_probe_hits", "second_probe_hits", "fills", "fill_bursts",
    "writebacks", "cycles", "reconfigs", "reconfig_cycles", "walk_rows", "banks_woken",
    "walk_writebacks", "walk_invalidations"};

// CONFIG (packed as ARCHITECTURE.md 16.2) to stcsim's name, e.g. 8K_4W_16B.
std::string config_name(uint32_t config, uint32_t geometry)
{
    unsigned banks_log = config & 7, ways_log = (config >> 3) & 7, sub_log = (config >> 6) & 3;
    unsigned wp = (config >> 8) & 1;
    unsigned bank_bytes_log = (geometry >> 5) & 31, line_log = (geometry >> 10) & 31;
    unsigned long bytes = (1ul << banks_log) << bank_bytes_log;
    char buf[64];
    if (bytes >= 1024 && bytes % 1024 == 0) {
        snprintf(buf, sizeof buf, "%luK_%uW_%uB%s", bytes / 1024, 1u << ways_log,
                 (1u << line_log) << sub_log, wp ? "_P" : "");
    } else {
        snprintf(buf, sizeof buf, "%luB_%uW_%uB%s", bytes, 1u << ways_log,
                 (1u << line_log) << sub_log, wp ? "_P" : "");
    }
    return buf;
}

void dump_counters(FILE *f, const char *name, uint32_t base)
{
    uint32_t geometry = dbg_access(base + 0x004, false, 0, nullptr);
    uint32_t config = dbg_access(base + 0x008, false, 0, nullptr);
    fprintf(f, "\"%s\":{\"config\":\"%s\",\"config_reg\":%" PRIu32 ",\"geometry_reg\":%" PRIu32,
            name, config_name(config, geometry).c_str(), config, geometry);
    for (int n = 0; n < 20; n++) {
        uint32_t v = dbg_access(base + 0x080 + 4u * n, false, 0, nullptr);
        fprintf(f, ",\"%s\":%" PRIu32, counter_names[n], v);
    }
    fprintf(f, "}");
}

} // namespace

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    top = new Vtb;
    const char *arg;
    uint64_t max_cycles = 50000000;
    if ((arg = Verilated::commandArgsPlusMatch("max_cycles=")) && *arg) {
        max_cycles = strtoull(strchr(arg, '=') + 1, nullptr, 10);
    }
    bool tuner_off = (arg = Verilated::commandArgsPlusMatch("tuner_off")) && *arg;
    std::string counters_file;
    if ((arg = Verilated::commandArgsPlusMatch("counters=")) && *arg) {
        counters_file = strchr(arg, '=') + 1;
    }

    top->rst_ni = 0;
    top->fetch_en_i = 0;
    top->dbg_req_i = 0;
    for (int i = 0; i < 4; i++) {
        posedge();
    }
    top->rst_ni = 1;
    for (int i = 0; i < 4; i++) {
        posedge();
    }
    if (tuner_off) {
        bool e1 = false, e2 = false;
        dbg_access(0x10000100u, true, 0, &e1);   // I-cache TUNER 0 (CTRL) = 0
        dbg_access(0x10001100u, true, 0, &e2);   // D-cache
        if (e1 || e2) {
            fprintf(stderr, "tb: the tuners' CTRL write was refused\n");
        }
    }
    uint64_t start = cycles;
    top->fetch_en_i = 1;

    int exit_code = -1;
    uint64_t exit_cycle = 0;
    bool timeout = false;
    for (;;) {
        posedge();
        if (top->tx_valid_o) {
            putchar(top->tx_data_o);
        }
        if (top->exit_valid_o && exit_code < 0) {
            exit_code = top->exit_code_o;
            exit_cycle = cycles;
        }
        if (top->halted_o) {
            break;
        }
        // The program stops itself (ebreak) right after its EXIT write.
        if (exit_code >= 0 && cycles - exit_cycle > 1000) {
            break;
        }
        if (cycles - start >= max_cycles) {
            timeout = true;
            break;
        }
    }
    fflush(stdout);
    uint64_t run_cycles = cycles - start;
    static const char *const causes[] = {"none", "ecall", "ebreak", "illegal instruction",
                                         "instruction bus error", "data bus error",
                                         "misaligned load/store", "misaligned jump target"};
    unsigned cause = top->halt_cause_o;
    fprintf(stderr, "tb: cycles=%" PRIu64 " instret=%u exit=%d stop=\"%s\" pc=0x%08x axi_err=%d%s\n",
            run_cycles, (unsigned)top->instret_o, exit_code,
            cause < 8 ? causes[cause] : "?", (unsigned)top->halt_pc_o, (int)top->axi_err_o,
            timeout ? " TIMEOUT" : "");

    if (!counters_file.empty()) {
        FILE *f = fopen(counters_file.c_str(), "w");
        if (!f) {
            fprintf(stderr, "tb: cannot write %s\n", counters_file.c_str());
            return 1;
        }
        fprintf(f, "{\"cycles\":%" PRIu64 ",\"instret\":%u,\"exit\":%d,", run_cycles,
                (unsigned)top->instret_o, exit_code);
        dump_counters(f, "icache", 0x10000000u);
        fprintf(f, ",");
        dump_counters(f, "dcache", 0x10001000u);
        fprintf(f, "}\n");
        fclose(f);
    }
    top->final();
    delete top;
    bool ok = exit_code >= 0 && !timeout && cause == 2 /* ebreak after EXIT */;
    return ok ? 0 : 1;
}
