// dut_verilator.cpp - the thin C++ shim between the C lockstep harness
// (tb/lockstep.c) and Verilator's model of the generated top stc_cache
// (tb/dut.h says what each function does). Internal signals are read and
// the SRAM arrays scrambled through Verilator's public scopes, which
// tb/lockstep.vlt makes public; nothing here knows the geometry.
#include "dut.h"

#include "Vstc_cache.h"
#include "Vstc_cache___024root.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif
#include "verilated_syms.h"

#include <cstdio>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct var_ref {
    void *data = nullptr;
    unsigned bytes = 0;  // bytes per element
    unsigned width = 0;  // packed bits per element
    unsigned elements = 1;
};

bool find_var(VerilatedContext *context, const std::string &scope, const char *name, var_ref *out)
{
    const VerilatedScope *found = context->scopeFind(scope.c_str());
    if (!found) {
        return false;
    }
    const VerilatedVar *var = found->varFind(name);
    if (!var) {
        return false;
    }
    out->data = var->datap();
    out->bytes = (unsigned)var->entSize();
    out->width = (unsigned)(var->packed().left() - var->packed().right() + 1);
    out->elements = 1;
    if (var->udims() > 0) {
        int left = var->unpacked().left(), right = var->unpacked().right();
        out->elements = (unsigned)((left > right ? left - right : right - left) + 1);
    }
    return true;
}

uint64_t read_scalar(const var_ref &var)
{
    switch (var.bytes) {
    case 1: return *static_cast<const uint8_t *>(var.data);
    case 2: return *static_cast<const uint16_t *>(var.data);
    case 4: return *static_cast<const uint32_t *>(var.data);
    default: return *static_cast<const uint64_t *>(var.data);
    }
}

// Element `index` of an unpacked array of at most 64-bit elements.
uint64_t read_element(const var_ref &var, unsigned index)
{
    var_ref element = var;
    element.data = static_cast<uint8_t *>(var.data) + (size_t)index * var.bytes;
    return read_scalar(element);
}

uint64_t splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// Speed (tb/README.md): with no waveform the clock input stays 1 and each
// rising edge is made by clearing Verilator's record of the clock's previous
// value, so a cycle whose inputs equal the previous cycle's needs one
// evaluation instead of two (the outputs of the edge's evaluation are
// already the settled outputs of the next cycle). If this Verilator names
// that record differently, the clock simply toggles (slower, same results).
template <typename Root>
auto arm_edge(Root *root, int) -> decltype(root->__Vtrigrprev__TOP__clk_i = 0, bool())
{
    root->__Vtrigrprev__TOP__clk_i = 0;
    return true;
}
template <typename Root>
bool arm_edge(Root *, long)
{
    return false;
}

}  // namespace

struct dut {
    VerilatedContext context;
    Vstc_cache *top = nullptr;
#if VM_TRACE
    VerilatedFstC *wave = nullptr;
#else
    void *wave = nullptr;  // built without --trace-fst: no waveforms
#endif
    uint64_t time = 0;
    var_ref counters[DUT_COUNTERS];
    var_ref valid, dirty, tag_req, data_req, touch_bank;
    var_ref strobes[4];
    bool has_strobes = false;
    std::vector<std::vector<var_ref>> bank_arrays;  // per bank: every SRAM column
    std::vector<var_ref> tag_array;                  // per bank: the tag column
    std::vector<std::vector<var_ref>> data_arrays;   // per bank: the data columns
    unsigned banks = 0;
    bool fast = false;       // clock held at 1, edges armed (see arm_edge)
    bool settled = false;    // the outputs are those of the inputs in last_inputs
    dut_pins last_inputs;
};

// The input fields of dut_pins come first, up to cpu_req_ready.
static const size_t input_bytes = offsetof(dut_pins, cpu_req_ready);

extern "C" dut *dut_open(const char *wave_path, char *err, size_t err_len)
{
    dut *d = new dut;
    d->context.randReset(0);
    if (wave_path) {
        d->context.traceEverOn(true);
    }
    d->top = new Vstc_cache(&d->context, "TOP");
    const std::string ctrl = "TOP.stc_cache.u_ctrl";
    bool ok = true;
    for (unsigned index = 0; index < DUT_COUNTERS; index++) {
        ok = ok && find_var(&d->context, ctrl + ".g_cnt[" + std::to_string(index) + "]", "cnt_q",
                            &d->counters[index]);
    }
    ok = ok && find_var(&d->context, ctrl, "valid_q", &d->valid);
    ok = ok && find_var(&d->context, ctrl, "dirty_q", &d->dirty);
    ok = ok && find_var(&d->context, ctrl, "touch_bank", &d->touch_bank);
    ok = ok && find_var(&d->context, "TOP.stc_cache", "tag_req", &d->tag_req);
    ok = ok && find_var(&d->context, "TOP.stc_cache", "data_req", &d->data_req);
    d->has_strobes = true;
    const char *strobe_names[4] = {"ev_access", "ev_miss", "ev_fph", "ev_cycle"};
    for (unsigned index = 0; index < 4; index++) {
        d->has_strobes = d->has_strobes &&
                         find_var(&d->context, "TOP.stc_cache", strobe_names[index], &d->strobes[index]);
    }
    if (ok) {
        d->banks = d->tag_req.width;
        // valid_q and dirty_q: one element per row, bank b at bit b.
        ok = d->valid.width == d->banks && d->valid.bytes <= 8 && d->dirty.width == d->banks &&
             d->dirty.bytes <= 8 && d->valid.elements == d->dirty.elements;
    }
    if (ok) {
        for (unsigned bank = 0; bank < d->banks; bank++) {
            std::vector<var_ref> arrays, data;
            size_t tag_columns = 0;
            for (const char *role : {"tag", "data"}) {
                for (unsigned column = 0;; column++) {
                    var_ref var;
                    std::string scope = "TOP.stc_cache.u_bank" + std::to_string(bank) + "_" + role +
                                        ".g_column[" + std::to_string(column) + "]";
                    if (!find_var(&d->context, scope, "mem", &var)) {
                        break;
                    }
                    arrays.push_back(var);
                    if (role[0] == 'd') {
                        data.push_back(var);
                    } else {
                        tag_columns++;
                    }
                }
            }
            ok = ok && tag_columns == 1 && !data.empty();
            if (ok) {
                d->tag_array.push_back(arrays[0]);
            }
            d->bank_arrays.push_back(arrays);
            d->data_arrays.push_back(data);
        }
    }
    if (!ok) {
        snprintf(err, err_len,
                 "the Verilated model lacks a public signal (built without tb/lockstep.vlt or "
                 "with SRAMs other than the SYNTHESIS view?) or its valid_q/dirty_q are not "
                 "arrays of rows");
        dut_close(d);
        return nullptr;
    }
    if (wave_path) {
#if VM_TRACE
        d->wave = new VerilatedFstC;
        d->top->trace(d->wave, 99);
        d->wave->open(wave_path);
#else
        snprintf(err, err_len, "this build has no waveform support (make LS_WAVE=1)");
        dut_close(d);
        return nullptr;
#endif
    }
    d->top->clk_i = 0;
    d->top->rst_ni = 0;
    d->top->eval();
    if (!wave_path) {
        d->top->clk_i = 1;
        d->top->eval();  // (no edge seen: rst_ni holds the flops in reset)
        d->fast = arm_edge(d->top->rootp, 0);
        if (!d->fast) {
            d->top->clk_i = 0;
            d->top->eval();
        }
    }
    return d;
}

extern "C" void dut_close(dut *d)
{
    if (!d) {
        return;
    }
#if VM_TRACE
    if (d->wave) {
        d->wave->close();
        delete d->wave;
    }
#endif
    if (d->top) {
        d->top->final();
        delete d->top;
    }
    delete d;
}

static void read_outputs(dut *d, dut_pins *p)
{
    Vstc_cache *t = d->top;
    p->cpu_req_ready = t->cpu_req_ready_o;
    p->cpu_rsp_valid = t->cpu_rsp_valid_o;
    p->cpu_rsp_err = t->cpu_rsp_err_o;
    p->cpu_rsp_rdata = t->cpu_rsp_rdata_o;
    p->cfg_ready = t->cfg_ready_o;
    p->cfg_done = t->cfg_done_o;
    p->cfg_err = t->cfg_err_o;
    p->cur_banks_log = t->cfg_banks_log_o;
    p->cur_ways_log = t->cfg_ways_log_o;
    p->cur_sub_log = t->cfg_sub_log_o;
    p->cur_wp = t->cfg_wp_o;
    p->cnt_value = t->cnt_value_o;
    p->mem_req_valid = t->mem_req_valid_o;
    p->mem_req_we = t->mem_req_we_o;
    p->mem_req_line = t->mem_req_line_o;
    p->mem_req_lines = t->mem_req_lines_o;
    p->mem_wvalid = t->mem_wvalid_o;
    p->mem_wdata = t->mem_wdata_o;
    p->pwr_en = t->pwr_en_o;
}

extern "C" void dut_settle(dut *d, dut_pins *p)
{
    Vstc_cache *t = d->top;
    if (d->fast && d->settled && memcmp(&d->last_inputs, p, input_bytes) == 0) {
        return;  // the outputs read after the edge are this cycle's
    }
    if (d->fast) {
        memcpy(&d->last_inputs, p, input_bytes);
    } else {
        t->clk_i = 0;
    }
    t->rst_ni = p->rst_n;
    t->cpu_req_valid_i = p->cpu_req_valid;
    t->cpu_req_we_i = p->cpu_req_we;
    t->cpu_req_addr_i = p->cpu_req_addr;
    t->cpu_req_be_i = p->cpu_req_be;
    t->cpu_req_wdata_i = p->cpu_req_wdata;
    t->cfg_valid_i = p->cfg_valid;
    t->cfg_banks_log_i = p->cfg_banks_log;
    t->cfg_ways_log_i = p->cfg_ways_log;
    t->cfg_sub_log_i = p->cfg_sub_log;
    t->cfg_wp_i = p->cfg_wp;
    t->cnt_sel_i = p->cnt_sel;
    t->cnt_clear_i = p->cnt_clear;
    t->mem_req_ready_i = p->mem_req_ready;
    t->mem_wready_i = p->mem_wready;
    t->mem_bvalid_i = p->mem_bvalid;
    t->mem_rvalid_i = p->mem_rvalid;
    t->mem_rdata_i = p->mem_rdata;
    t->pwr_ack_i = p->pwr_ack;
    t->eval();
#if VM_TRACE
    if (d->wave) {
        d->wave->dump(d->time);
    }
#endif
    d->time++;
    d->settled = true;
    read_outputs(d, p);
}

extern "C" void dut_edge(dut *d, dut_pins *p)
{
    if (d->fast) {
        arm_edge(d->top->rootp, 0);
    }
    d->top->clk_i = 1;
    d->top->eval();
#if VM_TRACE
    if (d->wave) {
        d->wave->dump(d->time);
    }
#endif
    d->time++;
    read_outputs(d, p);
}

extern "C" void dut_counters(dut *d, uint64_t out[DUT_COUNTERS])
{
    for (unsigned index = 0; index < DUT_COUNTERS; index++) {
        out[index] = read_scalar(d->counters[index]);
    }
}

extern "C" void dut_row_state(dut *d, unsigned row, uint32_t *valid, uint32_t *dirty)
{
    if (row >= d->valid.elements) {
        *valid = *dirty = 0;
        return;
    }
    *valid = (uint32_t)read_element(d->valid, row);
    *dirty = (uint32_t)read_element(d->dirty, row);
}

extern "C" uint32_t dut_sram_access(dut *d)
{
    return (uint32_t)(read_scalar(d->tag_req) | read_scalar(d->data_req));
}

extern "C" unsigned dut_touch_bank(dut *d)
{
    return (unsigned)read_scalar(d->touch_bank);
}

extern "C" int dut_strobes(dut *d)
{
    if (!d->has_strobes) {
        return -1;
    }
    int bits = 0;
    for (unsigned index = 0; index < 4; index++) {
        bits |= (int)(read_scalar(d->strobes[index]) & 1u) << index;
    }
    return bits;
}

extern "C" void dut_scramble_bank(dut *d, unsigned bank, uint64_t seed)
{
    if (bank >= d->banks) {
        return;
    }
    uint64_t state = seed;
    d->settled = false;
    for (var_ref &array : d->bank_arrays[bank]) {
        uint8_t *bytes = static_cast<uint8_t *>(array.data);
        for (unsigned element = 0; element < array.elements; element++) {
            uint8_t *word = bytes + (size_t)element * array.bytes;
            for (unsigned byte = 0; byte < array.bytes; byte++) {
                word[byte] = (uint8_t)splitmix(&state);
            }
            // Clear the bits above the packed width: Verilator relies on them being 0.
            for (unsigned bit = array.width; bit < array.bytes * 8; bit++) {
                word[bit / 8] &= (uint8_t)~(1u << (bit % 8));
            }
        }
    }
}

extern "C" int dut_slot(dut *d, unsigned bank, unsigned row, uint64_t *tag, uint8_t *data,
                        unsigned line_bytes)
{
    if (bank >= d->banks) {
        return -1;
    }
    const var_ref &tags = d->tag_array[bank];
    const std::vector<var_ref> &columns = d->data_arrays[bank];
    if (row >= tags.elements || tags.bytes > 8 || columns.size() * 8 != columns[0].width * line_bytes ||
        columns[0].bytes != 1) {
        return -1;
    }
    var_ref element = tags;
    element.data = static_cast<uint8_t *>(tags.data) + (size_t)row * tags.bytes;
    *tag = read_scalar(element);
    for (unsigned byte = 0; byte < line_bytes; byte++) {
        data[byte] = static_cast<const uint8_t *>(columns[byte].data)[row];
    }
    return 0;
}

extern "C" void dut_flush(dut *d)
{
#if VM_TRACE
    if (d->wave) {
        d->wave->flush();
    }
#endif
}
