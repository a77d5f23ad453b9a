// dut_verilator.cpp - the thin C++ shim between the C lockstep harness
// (tb/lockstep.c) and Verilator's model of the generated top stc_cache
// (tb/dut.h says what each function does). Internal signals are read and
// the SRAM arrays scrambled through Verilator's public scopes, which
// tb/lockstep.vlt makes public; nothing here knows the geometry.
#include "dut.h"

#include "counters.h"

// LOCKSTEP_PAIR_SIDE (tb/variant.h): 0 the top stc_cache; 1 or 2 the I or D
// side of stc_cache_pair, the other side held idle and watched.
#ifndef LOCKSTEP_PAIR_SIDE
#define LOCKSTEP_PAIR_SIDE 0
#endif
#if LOCKSTEP_PAIR_SIDE
#include "Vstc_cache_pair.h"
#include "Vstc_cache_pair___024root.h"
typedef Vstc_cache_pair Vtop;
#else
#include "Vstc_cache.h"
#include "Vstc_cache___024root.h"
typedef Vstc_cache Vtop;
#endif
// PORT(x): the driven side's port x; OTHER(x): the idle side's.
#if LOCKSTEP_PAIR_SIDE == 1
#define PORT(x) i_##x
#define OTHER(x) d_##x
static const char top_scope[] = "TOP.stc_cache_pair.u_icache";
#elif LOCKSTEP_PAIR_SIDE == 2
#define PORT(x) d_##x
#define OTHER(x) i_##x
static const char top_scope[] = "TOP.stc_cache_pair.u_dcache";
#else
#define PORT(x) x
static const char top_scope[] = "TOP.stc_cache";
#endif
// The pair's I side has no store ports (stc_cache_pair, section 15).
#define STORE_PORTS (LOCKSTEP_PAIR_SIDE != 1)
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

// Bit `bit` of a packed variable of any width (wide ones are 32-bit words).
unsigned read_bit(const var_ref &var, unsigned bit)
{
    if (var.bytes <= 8) {
        return (unsigned)(read_scalar(var) >> bit) & 1u;
    }
    return (static_cast<const uint32_t *>(var.data)[bit / 32] >> (bit % 32)) & 1u;
}

// Bits [lo, lo+count) (count <= 32) of element `index` of an unpacked array
// of packed elements of any width.
uint32_t read_element_bits(const var_ref &var, unsigned index, unsigned lo, unsigned count)
{
    var_ref element = var;
    element.data = static_cast<uint8_t *>(var.data) + (size_t)index * var.bytes;
    uint32_t value = 0;
    for (unsigned bit = 0; bit < count; bit++) {
        value |= (uint32_t)read_bit(element, lo + bit) << bit;
    }
    return value;
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

// Fill every element of an array with garbage from *state.
void scramble_array(var_ref &array, uint64_t *state)
{
    uint8_t *bytes = static_cast<uint8_t *>(array.data);
    for (unsigned element = 0; element < array.elements; element++) {
        uint8_t *word = bytes + (size_t)element * array.bytes;
        for (unsigned byte = 0; byte < array.bytes; byte++) {
            word[byte] = (uint8_t)splitmix(state);
        }
        // Clear the bits above the packed width: Verilator relies on them being 0.
        for (unsigned bit = array.width; bit < array.bytes * 8; bit++) {
            word[bit / 8] &= (uint8_t)~(1u << (bit % 8));
        }
    }
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

// The tuner's register port exists only in a top generated with the tuner
// (not --no-tuner or --fixed): set and read it where the class has it.
template <typename Top>
auto set_tuner_port(Top *top, const dut_pins *p, int)
    -> decltype(top->PORT(tun_we_i) = 0, top->PORT(tun_addr_i) = 0, top->PORT(tun_wdata_i) = 0, void())
{
    top->PORT(tun_we_i) = p->tun_we;
    top->PORT(tun_addr_i) = p->tun_addr;
    top->PORT(tun_wdata_i) = p->tun_wdata;
}
template <typename Top>
void set_tuner_port(Top *, const dut_pins *, long)
{
}
template <typename Top>
auto get_tuner_port(Top *top, dut_pins *p, int) -> decltype(p->tun_rdata = top->PORT(tun_rdata_o), void())
{
    p->tun_rdata = top->PORT(tun_rdata_o);
    p->tun_busy = top->PORT(tun_busy_o);
}
template <typename Top>
void get_tuner_port(Top *, dut_pins *p, long)
{
    p->tun_rdata = 0;
    p->tun_busy = 0;
}

// The flops of stc_tuner read by dut_tuner_flops, C model field by field
// (ref/tuner_hw.h names them as the RTL does, without _q).
struct tuner_flop {
    const char *name;
    size_t offset;
    bool serial_only;
};
const tuner_flop tuner_flops[] = {
#define FLOP(field, serial) {#field "_q", offsetof(stc_tuner_hw_regs, field), serial}
    FLOP(psm, false),      FLOP(vsm, false),     FLOP(csm, false),         FLOP(mbit, true),
    FLOP(prod, true),      FLOP(phase_en, false), FLOP(win_len, false),    FLOP(retune, false),
    FLOP(thresh, false),   FLOP(acc, false),     FLOP(miss, false),        FLOP(cyc, false),
    FLOP(fph, false),      FLOP(cand, false),    FLOP(best, false),        FLOP(cfg_sent, false),
    FLOP(energy, false),   FLOP(best_energy, false), FLOP(examined, false), FLOP(compute, false),
    FLOP(done, false),     FLOP(tuned, false),   FLOP(have_ref, false),    FLOP(ref_miss, false),
    FLOP(since, false),    FLOP(searches, false),
#undef FLOP
};
const size_t tuner_flop_count = sizeof tuner_flops / sizeof tuner_flops[0];

// The flops of stc_monitor_tuner read by dut_monitor_tuner_flops
// (ref/monitor_tuner.h names them as the RTL does, without _q).
const tuner_flop monitor_flops[] = {
#define FLOP(field) {#field "_q", offsetof(stc_monitor_tuner_regs, field), false}
    FLOP(enable),   FLOP(win),     FLOP(deciding), FLOP(step),    FLOP(watched),
    FLOP(operand),  FLOP(energy),  FLOP(lowest),   FLOP(lowest_code), FLOP(current),
    FLOP(pending),  FLOP(sent),    FLOP(target),   FLOP(decisions), FLOP(changes),
#undef FLOP
};
const size_t monitor_flop_count = sizeof monitor_flops / sizeof monitor_flops[0];

}  // namespace

// Speed (tb/README.md): an edge's evaluation needs no input-combinational
// pass, because the inputs have not changed since the last evaluation
// (dut_settle evaluated them, or they are those of the last edge).
// Verilator 5.006 runs that pass at the start of every eval() all the same
// (about a fifth of the run); edge_eval below is its eval() without it:
// the same active/NBA loop over the model's own functions. Only for the
// Verilator it was written against; any other version uses eval(). The
// caller uses it only while d->settled holds (no input or model state
// changed since the last evaluation).
#if LOCKSTEP_PAIR_SIDE
#define VL_ROOT_FN(fn) Vstc_cache_pair___024root___##fn
typedef Vstc_cache_pair___024root Vroot;
#else
#define VL_ROOT_FN(fn) Vstc_cache___024root___##fn
typedef Vstc_cache___024root Vroot;
#endif
#if defined(VERILATOR_VERSION_INTEGER) && VERILATOR_VERSION_INTEGER == 5006000
void VL_ROOT_FN(eval_triggers__act)(Vroot *);
void VL_ROOT_FN(eval_act)(Vroot *);
void VL_ROOT_FN(eval_nba)(Vroot *);
static void edge_eval(Vtop *top)
{
    Vroot *root = top->rootp;
    for (unsigned nba_rounds = 0;; nba_rounds++) {
        root->__VnbaTriggered.clear();
        root->__VactIterCount = 0;
        for (;;) {
            VL_ROOT_FN(eval_triggers__act)(root);
            if (!root->__VactTriggered.any()) {
                break;
            }
            if (++root->__VactIterCount > 100) {
                VL_FATAL_MT(__FILE__, __LINE__, "", "Active region did not converge.");
            }
            root->__VnbaTriggered.set(root->__VactTriggered);
            VL_ROOT_FN(eval_act)(root);
        }
        if (!root->__VnbaTriggered.any()) {
            break;
        }
        if (nba_rounds > 100) {
            VL_FATAL_MT(__FILE__, __LINE__, "", "NBA region did not converge.");
        }
        VL_ROOT_FN(eval_nba)(root);
    }
}
#else
static void edge_eval(Vtop *top)
{
    top->eval();
}
#endif

struct dut {
    VerilatedContext context;
    Vtop *top = nullptr;
#if VM_TRACE
    VerilatedFstC *wave = nullptr;
#else
    void *wave = nullptr;  // built without --trace-fst: no waveforms
#endif
    uint64_t time = 0;
    var_ref counters[DUT_COUNTERS];  // whole flop counters (cnt_q)
    // split counters (ARCHITECTURE.md 15.1): low flops, pending carry,
    // saturated, word-reads-as-0, and the words of u_cnt_hi_svc
    var_ref split_lo[DUT_COUNTERS], split_pend[DUT_COUNTERS], split_sat[DUT_COUNTERS],
        split_zero[DUT_COUNTERS];
    var_ref counter_words;
    // The same as bytes (Verilator keeps a one-bit flop in a byte, an
    // 8-bit one too, and a word of up to 32 bits in 4): dut_counters' fast
    // path, set when every split counter's parts have those sizes.
    const uint8_t *split_bytes[DUT_COUNTERS][4] = {};
    const uint32_t *counter_words_32 = nullptr;
    var_ref row_state, tag_req, data_req, touch_bank;  // row_state: u_ctrl.u_rowstate's words
    // u_ctrl's store buffer: a store hit not yet written into its line
    var_ref sb_valid, sb_bank, sb_row, sb_word, sb_be, sb_data;
    unsigned tag_bits = 0;   // of a tag SRAM word
    bool counters_32 = false;  // every counter a 32-bit word (the fast path of dut_counters)
    var_ref strobes[4];
    const uint8_t *strobe_bytes[4] = {};
    bool has_strobes = false;
    bool has_tuner = false;
    var_ref tuner_sel, ctrl_cfg_ready, ctrl_cfg_done, ctrl_cfg_err;
    var_ref tuner_flop_vars[tuner_flop_count];
    bool tuner_flop_found[tuner_flop_count] = {};
    var_ref coef;
    bool has_coef = false;
    bool has_monitor_tuner = false;
    var_ref monitor_flop_vars[monitor_flop_count];
    var_ref monitor_count;
    unsigned other_moved = 0;  // stc_cache_pair: what the idle side did (dut_other_side_moved)
    std::vector<std::vector<var_ref>> bank_arrays;  // per bank: every SRAM column
    std::vector<var_ref> tag_array;                  // per bank: the tag column
    bool has_dirty = false;                          // the row-state words hold dirty bits
    unsigned recency_bits = 0;                       // of a row in a row-state word
    std::vector<std::vector<var_ref>> data_arrays;   // per bank: the data columns
    unsigned banks = 0;
    bool fast = false;       // clock held at 1, edges armed (see arm_edge)
    bool settled = false;    // the outputs are those of the inputs in last_inputs
    dut_pins last_inputs;
};

// The input fields of dut_pins come first, up to cpu_req_ready.
static const size_t input_bytes = offsetof(dut_pins, cpu_req_ready);

// The counters the RTL derives when read (no flops: ARCHITECTURE.md 9).
static bool counter_derived(unsigned index)
{
    return index == COUNTER_REQUESTS || index == COUNTER_REQUEST_MISSES || index == COUNTER_READS ||
           index == COUNTER_READ_MISSES;
}

// Counters with their low bits in flops and the rest in the counter
// register file (ARCHITECTURE.md 15.1).
static bool counter_split(unsigned index)
{
    return index >= DUT_SPLIT_COUNTER_FIRST;
}

extern "C" dut *dut_open(const char *wave_path, bool plain_eval, unsigned tag_bits, char *err,
                         size_t err_len)
{
    dut *d = new dut;
    d->tag_bits = tag_bits;
    d->context.randReset(0);
    if (wave_path) {
        d->context.traceEverOn(true);
    }
    d->top = new Vtop(&d->context, "TOP");
    const std::string scope = top_scope;
    const std::string ctrl = scope + ".u_ctrl";
    bool ok = true;
    for (unsigned index = 0; index < DUT_COUNTERS; index++) {
        const std::string counter = ctrl + ".g_cnt[" + std::to_string(index) + "]";
        if (counter_split(index)) {
            const std::string split = counter + ".g_split";
            ok = ok && find_var(&d->context, split, "lo_q", &d->split_lo[index]) &&
                 find_var(&d->context, split, "pend_q", &d->split_pend[index]) &&
                 find_var(&d->context, split, "sat_q", &d->split_sat[index]) &&
                 find_var(&d->context, split, "zero_q", &d->split_zero[index]);
        } else if (!counter_derived(index)) {
            ok = ok && find_var(&d->context, counter + ".g_flops", "cnt_q", &d->counters[index]);
        }
    }
    ok = ok && find_var(&d->context, ctrl + ".u_cnt_hi_svc", "mem", &d->counter_words) &&
         d->counter_words.bytes <= 8;
    bool split_fast = ok && d->counter_words.bytes == 4;
    for (unsigned index = DUT_SPLIT_COUNTER_FIRST; split_fast && index < DUT_COUNTERS; index++) {
        const var_ref *parts[4] = {&d->split_lo[index], &d->split_pend[index], &d->split_sat[index],
                                   &d->split_zero[index]};
        for (unsigned part = 0; part < 4; part++) {
            split_fast = split_fast && parts[part]->bytes == 1;
            d->split_bytes[index][part] = static_cast<const uint8_t *>(parts[part]->data);
        }
    }
    if (split_fast) {
        d->counter_words_32 = static_cast<const uint32_t *>(d->counter_words.data);
    }
    ok = ok && find_var(&d->context, ctrl + ".u_rowstate", "mem", &d->row_state);
    ok = ok && find_var(&d->context, ctrl, "touch_bank", &d->touch_bank);
    ok = ok && find_var(&d->context, ctrl, "sb_valid_q", &d->sb_valid) &&
         find_var(&d->context, ctrl, "sb_bank_q", &d->sb_bank) &&
         find_var(&d->context, ctrl, "sb_row_q", &d->sb_row) &&
         find_var(&d->context, ctrl, "sb_word_q", &d->sb_word) &&
         find_var(&d->context, ctrl, "sb_be_q", &d->sb_be) &&
         find_var(&d->context, ctrl, "sb_data_q", &d->sb_data);
    ok = ok && find_var(&d->context, scope, "tag_req", &d->tag_req);
    ok = ok && find_var(&d->context, scope, "data_req", &d->data_req);
    d->has_strobes = true;
    const char *strobe_names[4] = {"ev_access", "ev_miss", "ev_fph", "ev_cycle"};
    // A strobe its tuner does not use is named unused_<name> in the top
    // (the monitor tuner uses only ev_access).
    for (unsigned index = 0; index < 4; index++) {
        d->has_strobes = d->has_strobes &&
                         (find_var(&d->context, scope, strobe_names[index], &d->strobes[index]) ||
                          find_var(&d->context, scope, (std::string("unused_") + strobe_names[index]).c_str(),
                                   &d->strobes[index]));
    }
    // A one-bit signal is one byte in Verilator's model; dut_strobes reads
    // the bytes directly.
    for (unsigned index = 0; d->has_strobes && index < 4; index++) {
        ok = ok && d->strobes[index].bytes == 1;
        d->strobe_bytes[index] = static_cast<const uint8_t *>(d->strobes[index].data);
    }
    d->counters_32 = ok;
    for (unsigned index = 0; ok && index < DUT_COUNTERS; index++) {
        d->counters_32 = d->counters_32 && (counter_derived(index) || counter_split(index) ||
                                             d->counters[index].bytes == 4);
    }
    const std::string top = scope, tuner = scope + ".u_tuner";
    d->has_tuner = find_var(&d->context, top, "tuner_sel", &d->tuner_sel) &&
                   find_var(&d->context, top, "ctrl_cfg_ready", &d->ctrl_cfg_ready) &&
                   find_var(&d->context, top, "ctrl_cfg_done", &d->ctrl_cfg_done) &&
                   find_var(&d->context, top, "ctrl_cfg_err", &d->ctrl_cfg_err);
    if (d->has_tuner) {
        for (size_t index = 0; index < tuner_flop_count; index++) {
            d->tuner_flop_found[index] =
                find_var(&d->context, tuner, tuner_flops[index].name, &d->tuner_flop_vars[index]);
        }
        d->has_coef = find_var(&d->context, tuner, "coef_q", &d->coef);
        d->has_monitor_tuner = find_var(&d->context, top, "mon_cnt", &d->monitor_count);
        for (size_t index = 0; d->has_monitor_tuner && index < monitor_flop_count; index++) {
            d->has_monitor_tuner = find_var(&d->context, tuner, monitor_flops[index].name,
                                            &d->monitor_flop_vars[index]);
        }
    }
    if (ok) {
        d->banks = d->tag_req.width;
        // The row-state words (ARCHITECTURE.md 15.1): one per group of 4
        // rows, row j at [j*W/4 +: W/4]: its valid bits, its recency (one
        // bit per pair of banks, at least one), then a D-cache's dirty bits,
        // then 2 bits of fill length per bank.
        unsigned pairs = d->banks * (d->banks - 1) / 2;
        d->recency_bits = pairs ? pairs : 1u;
        unsigned row_bits = d->row_state.width / 4;
        d->has_dirty = row_bits == 4 * d->banks + d->recency_bits;
        ok = d->row_state.width % 4 == 0 &&
             (d->has_dirty || row_bits == 3 * d->banks + d->recency_bits);
    }
    if (ok) {
        for (unsigned bank = 0; bank < d->banks; bank++) {
            std::vector<var_ref> arrays, data;
            size_t tag_columns = 0;
            for (const char *role : {"tag", "data"}) {
                for (unsigned column = 0;; column++) {
                    var_ref var;
                    std::string column_scope = scope + ".u_bank" + std::to_string(bank) + "_" +
                                               role + ".g_column[" + std::to_string(column) + "]";
                    if (!find_var(&d->context, column_scope, "mem", &var)) {
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
                ok = arrays[0].width == d->tag_bits &&
                     arrays[0].elements <= 4 * d->row_state.elements && arrays[0].bytes <= 8;
            }
            d->bank_arrays.push_back(arrays);
            d->data_arrays.push_back(data);
        }
    }
    if (!ok) {
        snprintf(err, err_len,
                 "the Verilated model lacks a public signal (built without tb/lockstep.vlt or "
                 "with SRAMs other than the SYNTHESIS view?), its row-state words are not 4 rows "
                 "of valid, recency and dirty bits, a tag SRAM is not tag_bits wide or an "
                 "event strobe is not one byte");
        dut_close(d);
        return nullptr;
    }
    if (wave_path) {
#if VM_TRACE
        d->wave = new VerilatedFstC;
        d->top->trace(d->wave, 99);
        d->wave->open(wave_path);
#else
        snprintf(err, err_len, "this build has no waveform support (build/lockstep/wave/lockstep is "
                 "the default geometry with it; others: make lockstep-build LS_WAVE=1)");
        dut_close(d);
        return nullptr;
#endif
    }
    // The row-state register file has no reset: start it as garbage (the
    // SYNTHESIS view has no initial contents of its own), so the reset-time
    // initialisation must write every word (ARCHITECTURE.md 15.1).
    uint64_t garbage = 0x726f7773746174ull;
    scramble_array(d->row_state, &garbage);
    d->top->clk_i = 0;
    d->top->rst_ni = 0;
    d->top->eval();
    if (!wave_path && !plain_eval) {
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
    Vtop *t = d->top;
    p->cpu_req_ready = t->PORT(cpu_req_ready_o);
    p->cpu_rsp_valid = t->PORT(cpu_rsp_valid_o);
    p->cpu_rsp_rdata = t->PORT(cpu_rsp_rdata_o);
    p->cfg_ready = t->PORT(cfg_ready_o);
    p->cfg_done = t->PORT(cfg_done_o);
    p->cfg_err = t->PORT(cfg_err_o);
    p->mnt_ready = t->PORT(mnt_ready_o);
    p->mnt_done = t->PORT(mnt_done_o);
    p->cur_banks_log = t->PORT(cfg_banks_log_o);
    p->cur_ways_log = t->PORT(cfg_ways_log_o);
    p->cur_sub_log = t->PORT(cfg_sub_log_o);
    p->cur_wp = t->PORT(cfg_wp_o);
    p->cnt_value = t->PORT(cnt_value_o);
    p->mem_req_valid = t->PORT(mem_req_valid_o);
    p->mem_req_line = t->PORT(mem_req_line_o);
    p->mem_req_lines = t->PORT(mem_req_lines_o);
#if STORE_PORTS
    p->cpu_rsp_err = t->PORT(cpu_rsp_err_o);
    p->mem_req_we = t->PORT(mem_req_we_o);
    p->mem_wvalid = t->PORT(mem_wvalid_o);
    p->mem_wdata = t->PORT(mem_wdata_o);
#else
    p->cpu_rsp_err = 0;
    p->mem_req_we = 0;
    p->mem_wvalid = 0;
    p->mem_wdata = 0;
#endif
    p->pwr_en = t->PORT(pwr_en_o);
    get_tuner_port(t, p, 0);
#if LOCKSTEP_PAIR_SIDE
    // The idle side: its switches acknowledge at once; it must not move.
    if (t->OTHER(pwr_ack_i) != t->OTHER(pwr_en_o)) {
        t->OTHER(pwr_ack_i) = t->OTHER(pwr_en_o);
        d->settled = false;  // an input changed after the evaluation
    }
    unsigned moved = 0;
    moved |= (unsigned)t->OTHER(cpu_req_ready_o) == 0 ? 1u : 0u;  // idle: ready
    moved |= (unsigned)t->OTHER(cpu_rsp_valid_o) << 1;
    moved |= (unsigned)t->OTHER(cfg_done_o) << 2;
    moved |= (unsigned)t->OTHER(mem_req_valid_o) << 3;
    moved |= (unsigned)t->OTHER(tun_busy_o) << 4;
    moved |= (unsigned)t->OTHER(mnt_done_o) << 5;
    d->other_moved |= moved;
#endif
}

extern "C" void dut_settle(dut *d, dut_pins *p)
{
    Vtop *t = d->top;
    if (d->fast && d->settled && memcmp(&d->last_inputs, p, input_bytes) == 0) {
        return;  // the outputs read after the edge are this cycle's
    }
    if (d->fast) {
        memcpy(&d->last_inputs, p, input_bytes);
    } else {
        t->clk_i = 0;
    }
    t->rst_ni = p->rst_n;
    t->PORT(cpu_req_valid_i) = p->cpu_req_valid;
    t->PORT(cpu_req_addr_i) = p->cpu_req_addr;
#if STORE_PORTS
    t->PORT(cpu_req_we_i) = p->cpu_req_we;
    t->PORT(cpu_req_be_i) = p->cpu_req_be;
    t->PORT(cpu_req_wdata_i) = p->cpu_req_wdata;
    t->PORT(mem_wready_i) = p->mem_wready;
    t->PORT(mem_bvalid_i) = p->mem_bvalid;
#endif
    t->PORT(cfg_valid_i) = p->cfg_valid;
    t->PORT(cfg_banks_log_i) = p->cfg_banks_log;
    t->PORT(cfg_ways_log_i) = p->cfg_ways_log;
    t->PORT(cfg_sub_log_i) = p->cfg_sub_log;
    t->PORT(cfg_wp_i) = p->cfg_wp;
    t->PORT(mnt_valid_i) = p->mnt_valid;
    t->PORT(mnt_op_i) = p->mnt_op;
    t->PORT(mnt_all_i) = p->mnt_all;
    t->PORT(mnt_addr_i) = p->mnt_addr;
    t->PORT(cnt_sel_i) = p->cnt_sel;
    t->PORT(cnt_clear_i) = p->cnt_clear;
    t->PORT(mem_req_ready_i) = p->mem_req_ready;
    t->PORT(mem_rvalid_i) = p->mem_rvalid;
    t->PORT(mem_rdata_i) = p->mem_rdata;
    t->PORT(pwr_ack_i) = p->pwr_ack;
    set_tuner_port(t, p, 0);
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
    if (d->fast && d->settled) {
        edge_eval(d->top);
    } else {
        d->top->eval();
    }
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
    const unsigned bits = d->counters[COUNTER_ACCESSES].width;
    const uint64_t all_ones = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    const uint64_t word_max = all_ones >> 8;
    for (unsigned index = 0; index < DUT_COUNTERS; index++) {
        if (counter_derived(index)) {
            continue;
        }
        if (counter_split(index)) {
            // The RTL's read port (ARCHITECTURE.md 15.1): {word + pending,
            // low}, all ones once saturated or when the pending carry would
            // carry out of the word; the word reads 0 until first written.
            unsigned word_index = index - DUT_SPLIT_COUNTER_FIRST;
            uint64_t low, pending, saturated, zero, word;
            if (d->counter_words_32) {
                const uint8_t *const *parts = d->split_bytes[index];
                low = *parts[0];
                pending = *parts[1];
                saturated = *parts[2];
                zero = *parts[3];
                word = d->counter_words_32[word_index];
            } else {
                var_ref word_var = d->counter_words;
                word_var.data = static_cast<uint8_t *>(word_var.data) + (size_t)word_index * word_var.bytes;
                low = read_scalar(d->split_lo[index]);
                pending = read_scalar(d->split_pend[index]);
                saturated = read_scalar(d->split_sat[index]);
                zero = read_scalar(d->split_zero[index]);
                word = read_scalar(word_var);
            }
            uint64_t high = zero ? 0 : word & word_max;
            out[index] = saturated || (pending && high == word_max) ? all_ones
                                                                   : (high + pending) << 8 | low;
            continue;
        }
        out[index] = d->counters_32 ? *static_cast<const uint32_t *>(d->counters[index].data)
                                    : read_scalar(d->counters[index]);
    }
    out[COUNTER_REQUESTS] = out[COUNTER_ACCESSES];
    out[COUNTER_REQUEST_MISSES] = out[COUNTER_MISSES];
    out[COUNTER_READS] = stc_counter_derived(out[COUNTER_ACCESSES],
                                             out[COUNTER_ACCESSES] - out[COUNTER_WRITES], d->counters[COUNTER_ACCESSES].width);
    out[COUNTER_READ_MISSES] = stc_counter_derived(
        out[COUNTER_MISSES], out[COUNTER_MISSES] - out[COUNTER_WRITE_MISSES], d->counters[COUNTER_MISSES].width);
}

extern "C" uint64_t dut_counter_port(dut *d, unsigned index)
{
    d->top->PORT(cnt_sel_i) = index;
    d->top->eval();
    return d->top->PORT(cnt_value_o);
}

extern "C" void dut_row_state(dut *d, unsigned row, uint32_t *valid, uint32_t *dirty, uint32_t *fill)
{
    *valid = *dirty = *fill = 0;
    if (row / 4 >= d->row_state.elements || d->tag_array.empty() || row >= d->tag_array[0].elements) {
        return;
    }
    unsigned row_at = row % 4 * (d->row_state.width / 4);
    *valid = read_element_bits(d->row_state, row / 4, row_at, d->banks);
    // The dirty bit of an invalid slot means nothing (the next fill clears
    // it), so it is reported for valid slots only.
    if (d->has_dirty) {
        *dirty = *valid & read_element_bits(d->row_state, row / 4, row_at + d->banks + d->recency_bits,
                                            d->banks);
    }
    unsigned fill_at = row_at + d->banks + d->recency_bits + (d->has_dirty ? d->banks : 0);
    uint32_t fills = read_element_bits(d->row_state, row / 4, fill_at, 2 * d->banks);
    for (unsigned bank = 0; bank < d->banks; bank++) {
        if (*valid >> bank & 1) {
            *fill |= (fills >> (2 * bank) & 3u) << (2 * bank);
        }
    }
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
    // (each strobe is one byte: checked in dut_open)
    const uint8_t *const *strobe = d->strobe_bytes;
    return (*strobe[0] & 1) | (*strobe[1] & 1) << 1 | (*strobe[2] & 1) << 2 | (*strobe[3] & 1) << 3;
}

extern "C" unsigned dut_other_side_moved(dut *d)
{
    unsigned moved = d->other_moved;
    d->other_moved = 0;
    return moved;
}

extern "C" int dut_has_tuner(dut *d)
{
    return d->has_tuner;
}

extern "C" void dut_tuner_cfg_inputs(dut *d, unsigned *ready, unsigned *done, unsigned *err)
{
    unsigned sel = d->has_tuner ? (unsigned)read_scalar(d->tuner_sel) & 1u : 0u;
    *ready = sel & (unsigned)read_scalar(d->ctrl_cfg_ready);
    *done = sel & (unsigned)read_scalar(d->ctrl_cfg_done);
    *err = sel & (unsigned)read_scalar(d->ctrl_cfg_err);
}

extern "C" int dut_has_monitor_tuner(dut *d)
{
    return d->has_monitor_tuner;
}

extern "C" int dut_monitor_tuner_flops(dut *d, stc_monitor_tuner_regs *regs)
{
    *regs = stc_monitor_tuner_regs();
    if (!d->has_monitor_tuner) {
        return -1;
    }
    for (size_t index = 0; index < monitor_flop_count; index++) {
        uint32_t *field = reinterpret_cast<uint32_t *>(reinterpret_cast<char *>(regs) +
                                                       monitor_flops[index].offset);
        *field = (uint32_t)read_scalar(d->monitor_flop_vars[index]);
    }
    return 0;
}

extern "C" unsigned dut_monitor_count(dut *d)
{
    return d->has_monitor_tuner ? (unsigned)read_scalar(d->monitor_count) : 0u;
}

extern "C" int dut_tuner_flops(dut *d, stc_tuner_hw_regs *regs, size_t coef_count)
{
    *regs = stc_tuner_hw_regs();
    if (!d->has_tuner) {
        return -1;
    }
    for (size_t index = 0; index < tuner_flop_count; index++) {
        if (!d->tuner_flop_found[index]) {
            if (tuner_flops[index].serial_only) {
                continue;  // the array multiplier has no mbit_q, prod_q: 0 in the model
            }
            return -1;
        }
        uint32_t *field = reinterpret_cast<uint32_t *>(reinterpret_cast<char *>(regs) +
                                                       tuner_flops[index].offset);
        *field = (uint32_t)read_scalar(d->tuner_flop_vars[index]);
    }
    if (!d->has_coef || d->coef.width < 16 * coef_count) {
        return -1;
    }
    for (size_t index = 0; index < coef_count; index++) {
        uint32_t value = 0;
        for (unsigned bit = 0; bit < 16; bit++) {
            value |= (uint32_t)read_bit(d->coef, (unsigned)(16 * index + bit)) << bit;
        }
        regs->coef[index] = (uint16_t)value;
    }
    return 0;
}


extern "C" void dut_scramble_bank(dut *d, unsigned bank, uint64_t seed)
{
    if (bank >= d->banks) {
        return;
    }
    uint64_t state = seed;
    d->settled = false;
    for (var_ref &array : d->bank_arrays[bank]) {
        scramble_array(array, &state);
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
    *tag = read_scalar(element) & ((UINT64_C(1) << d->tag_bits) - 1);
    for (unsigned byte = 0; byte < line_bytes; byte++) {
        data[byte] = static_cast<const uint8_t *>(columns[byte].data)[row];
    }
    // A store waiting in the controller's store buffer belongs to the line
    // (ARCHITECTURE.md 15.3): its bytes over the SRAM's.
    if (read_scalar(d->sb_valid) && read_scalar(d->sb_bank) == bank && read_scalar(d->sb_row) == row) {
        unsigned word = (unsigned)read_scalar(d->sb_word), be = (unsigned)read_scalar(d->sb_be);
        uint32_t value = (uint32_t)read_scalar(d->sb_data);
        for (unsigned byte = 0; byte < 4 && word * 4 + byte < line_bytes; byte++) {
            if (be >> byte & 1u) {
                data[word * 4 + byte] = (uint8_t)(value >> (8 * byte));
            }
        }
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
