// coh_dut_verilator.cpp - coh_dut.h over Verilator's model of tb_coh_system.
#include "coh_dut.h"

#include "Vtb_coh_system.h"
#include "stc_geometry_gen.h"
#include "verilated.h"
#include "verilated_syms.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

// One public array of the Verilated model (tb/coh/coh.vlt): its elements
// are `bytes` wide.
struct array_ref {
    const void *data = nullptr;
    unsigned bytes = 0;
    unsigned elements = 0;
};

bool find_array(VerilatedContext *context, const std::string &scope, const char *name,
                array_ref *out)
{
    const VerilatedScope *found = context->scopeFind(scope.c_str());
    const VerilatedVar *var = found ? found->varFind(name) : nullptr;
    if (!var || var->udims() != 1) {
        return false;
    }
    int left = var->unpacked().left(), right = var->unpacked().right();
    out->data = var->datap();
    out->bytes = (unsigned)var->entSize();
    out->elements = (unsigned)((left > right ? left - right : right - left) + 1);
    return true;
}

}  // namespace

struct coh_dut {
    VerilatedContext context;
    Vtb_coh_system *top = nullptr;
#if VM_TRACE
    VerilatedFstC *trace = nullptr;
#endif
    uint64_t time = 0;
    // The memory's handshake (coh_dut_set_memory_latency): the cycle count
    // since reset, and the cycles its pending read and write waits end in.
    coh_dut_latency_fn latency = nullptr;
    void *latency_context = nullptr;
    unsigned beats_per_line = 0;
    uint64_t cycle = 0;
    uint64_t rready_at = UINT64_MAX;
    uint64_t wdone_at = UINT64_MAX;
    // The arrays coh_dut_line_data and coh_dut_memory_peek read (empty if
    // the model was built without tb/coh/coh.vlt): per core and bank the
    // data SRAM's byte columns, and the memory's words.
    std::vector<std::vector<std::vector<array_ref>>> data_columns;
    array_ref memory;
};

namespace {

const unsigned built_cores = sizeof(Vtb_coh_system::cpu_req_valid_i) /
                             sizeof(Vtb_coh_system::cpu_req_valid_i[0]);

void edge(coh_dut *dut, bool clock)
{
    dut->top->clk_i = clock;
    dut->top->eval();
#if VM_TRACE
    if (dut->trace) {
        dut->trace->dump(dut->time);
    }
#endif
    dut->time++;
}

// Every core's data SRAMs, bank by bank, column by column (one byte each),
// and the memory, as far as the model has them public.
void find_arrays(coh_dut *dut, unsigned cores)
{
    for (unsigned core = 0; core < cores; core++) {
        std::vector<std::vector<array_ref>> banks;
        for (unsigned bank = 0;; bank++) {
            std::vector<array_ref> columns;
            for (unsigned column = 0;; column++) {
                array_ref array;
                std::string scope = "TOP.tb_coh_system.u_system.g_core[" + std::to_string(core) +
                                    "].u_cache.u_bank" + std::to_string(bank) +
                                    "_data.g_column[" + std::to_string(column) + "]";
                if (!find_array(&dut->context, scope, "mem", &array) || array.bytes != 1) {
                    break;
                }
                columns.push_back(array);
            }
            if (columns.empty()) {
                break;
            }
            banks.push_back(columns);
        }
        dut->data_columns.push_back(banks);
    }
    array_ref memory;
    if (find_array(&dut->context, "TOP.tb_coh_system", "mem", &memory) && memory.bytes == 4) {
        dut->memory = memory;
    }
}

}  // namespace

extern "C" coh_dut *coh_dut_create(unsigned cores, const char *trace_path)
{
    if (cores != built_cores) {
        std::fprintf(stderr, "coh_dut: built for %u cores, asked for %u\n", built_cores, cores);
        return nullptr;
    }
    coh_dut *dut = new coh_dut;
    dut->top = new Vtb_coh_system(&dut->context);
#if VM_TRACE
    if (trace_path) {
        dut->context.traceEverOn(true);
        dut->trace = new VerilatedFstC;
        dut->top->trace(dut->trace, 99);
        dut->trace->open(trace_path);
    }
#else
    (void)trace_path;
#endif
    for (unsigned c = 0; c < cores; c++) {
        coh_dut_set_request(dut, c, false, false, 0, 0, 0);
        coh_dut_set_config(dut, c, false, 0, 0, 0, false);
        coh_dut_set_counter(dut, c, 0);
        coh_dut_set_drain(dut, c, false);
    }
    coh_dut_set_debug_row(dut, 0);
    find_arrays(dut, cores);
    dut->top->rst_ni = 0;
    for (int i = 0; i < 4; i++) {
        edge(dut, false);
        edge(dut, true);
    }
    dut->top->rst_ni = 1;
    edge(dut, false);
    return dut;
}

extern "C" void coh_dut_destroy(coh_dut *dut)
{
    if (!dut) {
        return;
    }
#if VM_TRACE
    if (dut->trace) {
        dut->trace->close();
        delete dut->trace;
    }
#endif
    dut->top->final();
    delete dut->top;
    delete dut;
}

extern "C" void coh_dut_set_request(coh_dut *dut, unsigned core, bool valid, bool we,
                                    uint32_t word_addr, unsigned byte_enables, uint32_t wdata)
{
    dut->top->cpu_req_valid_i[core] = valid;
    dut->top->cpu_req_we_i[core] = we;
    dut->top->cpu_req_addr_i[core] = word_addr;
    dut->top->cpu_req_be_i[core] = byte_enables;
    dut->top->cpu_req_wdata_i[core] = wdata;
}

extern "C" void coh_dut_set_config(coh_dut *dut, unsigned core, bool valid, unsigned banks_log,
                                   unsigned ways_log, unsigned sub_log, bool way_predict)
{
    dut->top->cfg_valid_i[core] = valid;
    dut->top->cfg_banks_log_i[core] = banks_log;
    dut->top->cfg_ways_log_i[core] = ways_log;
    dut->top->cfg_sub_log_i[core] = sub_log;
    dut->top->cfg_wp_i[core] = way_predict;
}

extern "C" bool coh_dut_config_ready(const coh_dut *dut, unsigned core)
{
    return dut->top->cfg_ready_o[core];
}

extern "C" bool coh_dut_config_done(const coh_dut *dut, unsigned core, bool *err)
{
    *err = dut->top->cfg_err_o[core];
    return dut->top->cfg_done_o[core];
}

extern "C" void coh_dut_set_drain(coh_dut *dut, unsigned core, bool valid)
{
    const uint32_t bit = 1u << core;
    dut->top->drain_valid_i = valid ? (dut->top->drain_valid_i | bit) : (dut->top->drain_valid_i & ~bit);
}

extern "C" bool coh_dut_drain_ready(const coh_dut *dut, unsigned core)
{
    return (dut->top->drain_ready_o >> core) & 1u;
}

extern "C" bool coh_dut_drain_done(const coh_dut *dut, unsigned core)
{
    return (dut->top->drain_done_o >> core) & 1u;
}

extern "C" uint32_t coh_dut_memory_word(coh_dut *dut, uint32_t word_addr)
{
    dut->top->dbg_mem_word_i = word_addr;
    dut->top->eval();
    return dut->top->dbg_mem_o;
}

extern "C" void coh_dut_set_counter(coh_dut *dut, unsigned core, unsigned select)
{
    dut->top->cnt_sel_i[core] = select;
}

extern "C" void coh_dut_set_memory_latency(coh_dut *dut, unsigned beats_per_line,
                                           coh_dut_latency_fn latency, void *context)
{
    dut->beats_per_line = beats_per_line;
    dut->latency = latency;
    dut->latency_context = context;
}

extern "C" void coh_dut_settle(coh_dut *dut)
{
    dut->top->mem_rready_i = dut->cycle == dut->rready_at;
    dut->top->mem_wdone_i = dut->cycle == dut->wdone_at;
    edge(dut, false);
}

extern "C" bool coh_dut_ready(const coh_dut *dut, unsigned core)
{
    return dut->top->cpu_req_ready_o[core];
}

extern "C" bool coh_dut_response(const coh_dut *dut, unsigned core, uint32_t *rdata)
{
    *rdata = dut->top->cpu_rsp_rdata_o[core];
    return dut->top->cpu_rsp_valid_o[core];
}

extern "C" unsigned coh_dut_grant(const coh_dut *dut)
{
    return dut->top->grant_o;
}

extern "C" unsigned coh_dut_order(const coh_dut *dut)
{
    return dut->top->order_o;
}

extern "C" unsigned coh_dut_supply_read(const coh_dut *dut)
{
    return dut->top->sup_read_o;
}

extern "C" bool coh_dut_bus_error(const coh_dut *dut)
{
    return dut->top->bus_err_o;
}

extern "C" uint64_t coh_dut_counter(const coh_dut *dut, unsigned core)
{
    return dut->top->cnt_value_o[core];
}

extern "C" bool coh_dut_bus_busy(const coh_dut *dut)
{
    return dut->top->bus_busy_o;
}

extern "C" bool coh_dut_snoop_error(const coh_dut *dut)
{
    return dut->top->snp_err_o;
}

extern "C" void coh_dut_set_debug_row(coh_dut *dut, unsigned row)
{
    dut->top->dbg_row_i = row;
}

extern "C" uint32_t coh_dut_slot(const coh_dut *dut, unsigned core, unsigned bank)
{
    return dut->top->dbg_slots_o[core][bank];
}

extern "C" uint32_t coh_dut_row_state(const coh_dut *dut, unsigned core)
{
    return dut->top->dbg_rowstate_o[core];
}

extern "C" int coh_dut_line_data(const coh_dut *dut, unsigned core, unsigned bank, unsigned row,
                                 uint8_t *data, unsigned line_bytes)
{
    if (core >= dut->data_columns.size() || bank >= dut->data_columns[core].size()) {
        return -1;
    }
    const std::vector<array_ref> &columns = dut->data_columns[core][bank];
    if (columns.size() != line_bytes || row >= columns[0].elements) {
        return -1;
    }
    for (unsigned byte = 0; byte < line_bytes; byte++) {
        data[byte] = static_cast<const uint8_t *>(columns[byte].data)[row];
    }
    return 0;
}

extern "C" int coh_dut_memory_peek(const coh_dut *dut, uint32_t word_addr, uint32_t *value)
{
    if (!dut->memory.data || word_addr >= dut->memory.elements) {
        return -1;
    }
    *value = static_cast<const uint32_t *>(dut->memory.data)[word_addr];
    return 0;
}

extern "C" void coh_dut_tuner_build_of(coh_dut_tuner_build *build)
{
    *build = coh_dut_tuner_build{};
#if defined(STC_GEN_TUNER_MONITOR) && STC_GEN_TUNER && STC_GEN_TUNER_MONITOR
    build->present = true;
    build->sample_bits = STC_GEN_MONITOR_SAMPLE_BITS;
    build->tag_bits = STC_GEN_MONITOR_TAG_BITS;
    build->counter_bits = STC_GEN_MONITOR_COUNT_BITS;
    build->rotate_every = STC_GEN_MONITOR_ROTATE;
    build->window = STC_GEN_MONITOR_WINDOW;
    build->margin = STC_GEN_MONITOR_MARGIN;
    build->walk_min = STC_GEN_MONITOR_WALK_MIN;
    build->steps = STC_GEN_MONITOR_STEPS;
    build->way_prediction = STC_GEN_WAY_PREDICTION != 0;
#endif
}

extern "C" void coh_dut_tuner_view_of(const coh_dut *dut, unsigned core, coh_dut_tuner_view *view)
{
    const auto &words = dut->top->dbg_tuner_o[core];
    const uint32_t inputs = words[0];
    view->ev_access = inputs >> 3 & 1u;
    view->cfg_err = inputs >> 2 & 1u;
    view->cfg_done = inputs >> 1 & 1u;
    view->cfg_ready = inputs & 1u;
    uint32_t *flops[] = {&view->enable,  &view->win,         &view->deciding, &view->step,
                         &view->watched, &view->operand,     &view->energy,   &view->lowest,
                         &view->lowest_code, &view->current, &view->pending,  &view->sent,
                         &view->target,  &view->decisions,   &view->changes};
    for (unsigned i = 0; i < sizeof flops / sizeof flops[0]; i++) {
        *flops[i] = words[1 + i];
    }
}

// A wait that starts this cycle takes the next latency L: a read's first
// beat L cycles after its mem_rd (mem_rready_i the cycle before), a
// write's last cycle L after its last beat (ARCHITECTURE.md 19.6).
static uint64_t next_latency(coh_dut *dut)
{
    if (!dut->latency) {
        std::fprintf(stderr, "coh_dut: a memory wait with no latency set "
                             "(coh_dut_set_memory_latency)\n");
        std::abort();
    }
    return dut->latency(dut->latency_context);
}

extern "C" void coh_dut_tick(coh_dut *dut)
{
    if (dut->top->mem_rd_start_o) {
        dut->rready_at = dut->cycle + next_latency(dut) - 1;
    }
    if (dut->top->mem_wr_wait_o) {
        dut->wdone_at = dut->cycle + dut->beats_per_line + next_latency(dut) - 1;
    }
    edge(dut, true);
    dut->cycle++;
}
