/* tuner_hw.c - the hardware tuner, cycle by cycle (tuner_hw.h, ARCHITECTURE.md 16). */
#include "tuner_hw.h"

#include <stdio.h>
#include <string.h>

enum { U16_MAX = 0xffff, CONFIG_START = 0 };

unsigned stc_tuner_config_pack(const stc_config *config)
{
    return stc_log2(config->banks_on) | stc_log2(config->ways) << 3 |
           stc_log2(config->sublines) << 6 | (config->way_predict ? 1u : 0u) << 8;
}

stc_config stc_tuner_config_unpack(unsigned packed)
{
    stc_config config = {1u << (packed & 7), 1u << (packed >> 3 & 7), 1u << (packed >> 6 & 3),
                         (packed >> 8 & 1) != 0};
    return config;
}

static unsigned sizes_of(const stc_geometry *geometry)
{
    return stc_log2(geometry->banks) + 1;
}

size_t stc_tuner_coef_hit(unsigned size_index, unsigned ways_index)
{
    return size_index * (size_index + 1) / 2 + ways_index;
}

size_t stc_tuner_coef_miss(const stc_geometry *geometry, unsigned line_index)
{
    unsigned n = sizes_of(geometry);
    return n * (n + 1) / 2 + line_index;
}

size_t stc_tuner_coef_static(const stc_geometry *geometry, unsigned size_index)
{
    return stc_tuner_coef_miss(geometry, STC_LINE_SIZES) + size_index;
}

size_t stc_tuner_coef_stall(const stc_geometry *geometry)
{
    return stc_tuner_coef_static(geometry, sizes_of(geometry));
}

size_t stc_tuner_coef_count(const stc_geometry *geometry)
{
    return stc_tuner_coef_stall(geometry) + (geometry->banks > 1 ? 1 : 0);
}

size_t stc_tuner_coef_registers(const stc_geometry *geometry,
                                const stc_fixed_coefficients *coefficients,
                                uint16_t registers[STC_TUNER_MAX_COEFS])
{
    memset(registers, 0, STC_TUNER_MAX_COEFS * sizeof registers[0]);
    unsigned n = sizes_of(geometry);
    for (unsigned s = 0; s < n; s++) {
        for (unsigned w = 0; w <= s; w++) {
            registers[stc_tuner_coef_hit(s, w)] = coefficients->hit[s][w];
        }
        registers[stc_tuner_coef_static(geometry, s)] = coefficients->static_per_cycle[s];
    }
    for (unsigned l = 0; l < STC_LINE_SIZES; l++) {
        registers[stc_tuner_coef_miss(geometry, l)] = coefficients->miss[l];
    }
    if (geometry->banks > 1) {
        registers[stc_tuner_coef_stall(geometry)] = coefficients->stall_per_cycle;
    }
    return stc_tuner_coef_count(geometry);
}

void stc_tuner_size_name(const stc_geometry *geometry, unsigned size_index, char *buf, size_t len)
{
    unsigned long bytes = (unsigned long)geometry->bank_bytes << size_index;
    if (bytes % 1024 == 0) {
        snprintf(buf, len, "%luK", bytes / 1024);
    } else {
        snprintf(buf, len, "%luB", bytes);
    }
}

void stc_tuner_coef_name(const stc_geometry *geometry, size_t index, char *buf, size_t buf_len)
{
    unsigned n = sizes_of(geometry);
    char size[24];
    if (index < stc_tuner_coef_miss(geometry, 0)) {
        unsigned s = 0;
        while (stc_tuner_coef_hit(s + 1, 0) <= index) {
            s++;
        }
        stc_tuner_size_name(geometry, s, size, sizeof size);
        snprintf(buf, buf_len, "hit_%s_%uW", size, 1u << (index - stc_tuner_coef_hit(s, 0)));
    } else if (index < stc_tuner_coef_static(geometry, 0)) {
        unsigned l = (unsigned)(index - stc_tuner_coef_miss(geometry, 0));
        snprintf(buf, buf_len, "miss_%uB", geometry->line_bytes << l);
    } else if (index < stc_tuner_coef_static(geometry, n)) {
        stc_tuner_size_name(geometry, (unsigned)(index - stc_tuner_coef_static(geometry, 0)),
                            size, sizeof size);
        snprintf(buf, buf_len, "static_%s", size);
    } else {
        snprintf(buf, buf_len, "stall");
    }
}

void stc_tuner_hw_reset(stc_tuner_hw *tuner, const stc_tuner_hw_build *build,
                        const uint16_t *coef_reset)
{
    memset(tuner, 0, sizeof *tuner);
    tuner->build = *build;
    tuner->coef_count = stc_tuner_coef_count(&build->geometry);
    memcpy(tuner->coef_reset, coef_reset, tuner->coef_count * sizeof coef_reset[0]);
    stc_tuner_hw_regs *q = &tuner->q;
    q->win_len = STC_TUNER_DEFAULT_WINDOW;
    q->best_energy = UINT32_MAX;
    memcpy(q->coef, coef_reset, tuner->coef_count * sizeof coef_reset[0]);
}

void stc_tuner_hw_outputs(const stc_tuner_hw *tuner, stc_tuner_hw_out *out)
{
    const stc_tuner_hw_regs *q = &tuner->q;
    out->busy = q->psm != STC_PSM_IDLE;
    out->cfg_valid = out->busy && q->vsm == STC_VSM_CFG && !q->cfg_sent;
    out->cfg_banks_log = q->cand & 7;
    out->cfg_ways_log = q->cand >> 3 & 7;
    out->cfg_sub_log = q->cand >> 6 & 3;
    out->cfg_wp = (q->cand >> 8 & 1) != 0;
}

static uint32_t coef_value(const stc_tuner_hw *tuner, size_t index)
{
    return (tuner->build.options & STC_TUNER_OPT_CONST_COEFS) ? tuner->coef_reset[index]
                                                               : tuner->q.coef[index];
}

/* The lean register block's read port (tuner_hw.h): 0 for what it lacks. */
static uint32_t read_lean(const stc_tuner_hw_regs *q, unsigned addr, uint32_t full)
{
    switch (addr) {
    case STC_TREG_CTRL:
    case STC_TREG_WINDOW:
    case STC_TREG_RETUNE:
    case STC_TREG_THRESHOLD:
    case STC_TREG_BUILD:
        return full;
    case STC_TREG_STATUS:
        return full & 0xf;
    case STC_TREG_CONFIG:
        return q->best;
    case STC_TREG_TUNED:
        return q->ref_miss;
    default:
        return 0;
    }
}

static uint32_t read_full(const stc_tuner_hw *tuner, unsigned addr)
{
    const stc_tuner_hw_regs *q = &tuner->q;
    switch (addr) {
    case STC_TREG_CTRL:
        return q->phase_en << 1;
    case STC_TREG_WINDOW:
        return q->win_len;
    case STC_TREG_RETUNE:
        return q->retune;
    case STC_TREG_THRESHOLD:
        return q->thresh;
    case STC_TREG_STATUS:
        return (q->psm != STC_PSM_IDLE) | q->done << 1 | q->tuned << 2 | q->have_ref << 3 |
               q->psm << 4 | q->vsm << 8 | q->csm << 12 | q->examined << 16 | q->searches << 24;
    case STC_TREG_CONFIG:
        return q->best | q->cand << 16;
    case STC_TREG_ENERGY:
        return q->energy;
    case STC_TREG_BEST:
        return q->best_energy;
    case STC_TREG_COMPUTE:
        return q->compute;
    case STC_TREG_COUNT_A:
        return q->acc | q->miss << 16;
    case STC_TREG_COUNT_B:
        return q->cyc | q->fph << 16;
    case STC_TREG_TUNED:
        return q->ref_miss | q->since << 16;
    case STC_TREG_BUILD:
        return (uint32_t)tuner->coef_count |
               (tuner->build.multiplier == STC_TUNER_MULT_SERIAL ? 1u : 0u) << 8 |
               ((tuner->build.options & STC_TUNER_OPT_CONST_COEFS) ? 1u : 0u) << 9 |
               (tuner->build.way_prediction ? 1u : 0u) << 10 |
               (tuner->build.multiplier >= STC_TUNER_MULT_RADIX4 ? tuner->build.multiplier : 0u)
                   << 12 |
               ((tuner->build.options & STC_TUNER_OPT_LEAN_REGS) ? 1u : 0u) << 15 |
               ((tuner->build.options & STC_TUNER_OPT_NO_TRIGGERS) ? 1u : 0u) << 16;
    default:
        if (addr >= STC_TREG_COEF && addr - STC_TREG_COEF < tuner->coef_count) {
            return coef_value(tuner, addr - STC_TREG_COEF);
        }
        return 0;
    }
}

/* Without triggers (tuner_hw.h): 0 for the triggers' registers and flags. */
static uint32_t read_without_triggers(unsigned addr, uint32_t value)
{
    switch (addr) {
    case STC_TREG_CTRL:
    case STC_TREG_RETUNE:
    case STC_TREG_THRESHOLD:
    case STC_TREG_TUNED:
        return 0;
    case STC_TREG_STATUS:
        return value & ~UINT32_C(0xc);
    default:
        return value;
    }
}

uint32_t stc_tuner_hw_read(const stc_tuner_hw *tuner, unsigned addr)
{
    uint32_t full = read_full(tuner, addr);
    uint32_t value = (tuner->build.options & STC_TUNER_OPT_LEAN_REGS)
                         ? read_lean(&tuner->q, addr, full)
                         : full;
    return (tuner->build.options & STC_TUNER_OPT_NO_TRIGGERS)
               ? read_without_triggers(addr, value)
               : value;
}

/* RETUNE's and the window count's largest value: 16 bits, 8 when lean. */
static uint32_t retune_max(const stc_tuner_hw *tuner)
{
    return (tuner->build.options & STC_TUNER_OPT_LEAN_REGS)
               ? (1u << STC_TUNER_LEAN_RETUNE_BITS) - 1
               : U16_MAX;
}

static uint32_t inc16_sat(uint32_t value, bool event)
{
    return event && value < U16_MAX ? value + 1 : value;
}

static uint32_t add32_sat(uint32_t energy, uint32_t addend)
{
    uint64_t sum = (uint64_t)energy + addend;
    return sum > UINT32_MAX ? UINT32_MAX : (uint32_t)sum;
}

/* The value walk of param from the packed best configuration: the next value
 * upward, or false when there is none without raising another parameter
 * (search.c's step, ascending). */
static bool propose(const stc_tuner_hw *tuner, uint32_t psm, uint32_t best, uint32_t *next)
{
    unsigned klog = best & 7, alog = best >> 3 & 7, llog = best >> 6 & 3, wp = best >> 8 & 1;
    unsigned logb = tuner->build.geometry.bank_bits;
    switch (psm) {
    case STC_PSM_SIZE:
        if (klog >= logb) {
            return false;
        }
        *next = best + 1;
        return true;
    case STC_PSM_LINE:
        if (llog >= 2) {
            return false;
        }
        *next = best + (1u << 6);
        return true;
    case STC_PSM_ASSOC:
        if (alog >= klog) {
            return false;
        }
        *next = best + (1u << 3);
        return true;
    case STC_PSM_WP:
        if (wp || alog == 0 || !tuner->build.way_prediction) {
            return false;
        }
        *next = best | 1u << 8;
        return true;
    default:
        return false;
    }
}

/* The multiplier's operands in csm state step for candidate cand. */
static void operands(const stc_tuner_hw *tuner, uint32_t step, uint32_t *count,
                     uint32_t *coefficient)
{
    const stc_tuner_hw_regs *q = &tuner->q;
    const stc_geometry *g = &tuner->build.geometry;
    unsigned klog = q->cand & 7, alog = q->cand >> 3 & 7, llog = q->cand >> 6 & 3;
    bool wp = (q->cand >> 8 & 1) != 0;
    uint32_t fph = wp ? (q->fph < q->acc ? q->fph : q->acc) : 0;
    uint32_t other = q->acc - fph;
    size_t n = g->bank_bits + 1;
    /* An index the geometry lacks reads 0 (the RTL multiplexers' default). */
    bool size_ok = klog < n && alog <= klog && llog < STC_LINE_SIZES;
    *count = 0;
    *coefficient = 0;
    switch (step) {
    case STC_CSM_MISS:
        *count = q->miss;
        *coefficient = llog < STC_LINE_SIZES ? coef_value(tuner, stc_tuner_coef_miss(g, llog)) : 0;
        break;
    case STC_CSM_STATIC:
        *count = q->cyc;
        *coefficient = klog < n ? coef_value(tuner, stc_tuner_coef_static(g, klog)) : 0;
        break;
    case STC_CSM_HIT:
        *count = other;
        *coefficient = size_ok ? coef_value(tuner, stc_tuner_coef_hit(klog, alog)) : 0;
        break;
    case STC_CSM_STALL:
        *count = other;
        *coefficient = g->banks > 1 ? coef_value(tuner, stc_tuner_coef_stall(g)) : 0;
        break;
    case STC_CSM_FPH:
        *count = fph;
        *coefficient = klog < n ? coef_value(tuner, stc_tuner_coef_hit(klog, 0)) : 0;
        break;
    default:
        break;
    }
}

static void clear_counters(stc_tuner_hw_regs *d)
{
    d->acc = d->miss = d->cyc = d->fph = 0;
}

static void count_events(const stc_tuner_hw_regs *q, stc_tuner_hw_regs *d,
                         const stc_tuner_hw_in *in)
{
    d->acc = inc16_sat(q->acc, in->ev_access);
    d->miss = inc16_sat(q->miss, in->ev_miss);
    d->cyc = inc16_sat(q->cyc, in->ev_cycle);
    d->fph = inc16_sat(q->fph, in->ev_fph);
}

static uint32_t next_param(uint32_t psm)
{
    return psm == STC_PSM_WP ? STC_PSM_FINAL : psm + 1;
}

/* The calculation machine: one cycle of V_CALC. */
static void calculate(const stc_tuner_hw *tuner, stc_tuner_hw_regs *d)
{
    const stc_tuner_hw_regs *q = &tuner->q;
    if (q->csm == STC_CSM_CLEAR) {
        d->energy = 0;
        d->csm = STC_CSM_MISS;
        return;
    }
    uint32_t count, coefficient;
    operands(tuner, q->csm, &count, &coefficient);
    bool step_done;
    unsigned radix = stc_tuner_hw_digit_bits(tuner->build.multiplier);
    if (radix > 1 && radix < 16) {
        /* Radix 2^radix: this digit of the counter times the coefficient,
         * shifted to the digit's place and added into the energy with
         * saturation (all addends >= 0: the step's sum is the product's). */
        unsigned shift = q->mbit * radix;
        uint32_t digit = count >> shift & ((1u << radix) - 1);
        d->energy = add32_sat(q->energy, coefficient * digit << shift);
        step_done = q->mbit == STC_TUNER_SERIAL_STEP / radix - 1;
        d->mbit = step_done ? 0 : q->mbit + 1;
    } else if (radix == 1) {
        /* Shift-and-add: the high half plus this bit's multiple of the
         * coefficient (17 bits), shifted right into the register. */
        uint32_t bit = count >> q->mbit & 1;
        uint32_t sum17 = (q->prod >> 16) + (bit ? coefficient : 0);
        uint32_t product = sum17 << 15 | (q->prod & 0xffff) >> 1;
        step_done = q->mbit == STC_TUNER_SERIAL_STEP - 1;
        if (step_done) {
            d->energy = add32_sat(q->energy, product);
            d->prod = 0;
            d->mbit = 0;
        } else {
            d->prod = product;
            d->mbit = q->mbit + 1;
        }
    } else {
        d->energy = add32_sat(q->energy, count * coefficient);
        step_done = true;
    }
    if (!step_done) {
        return;
    }
    bool wp = (q->cand >> 8 & 1) != 0;
    if (q->csm == STC_CSM_FPH || (q->csm == STC_CSM_HIT && !wp)) {
        d->csm = STC_CSM_IDLE;
        d->vsm = STC_VSM_CMP;
    } else {
        d->csm = q->csm + 1;
    }
}

/* A search begins: in the cycle after a start or a trigger. */
static void start_search(stc_tuner_hw_regs *d)
{
    d->psm = STC_PSM_START;
    d->vsm = STC_VSM_V0;
    d->csm = STC_CSM_IDLE;
    d->best = CONFIG_START;
    d->best_energy = UINT32_MAX;
    d->examined = 0;
    d->compute = 0;
    d->done = 0;
    d->tuned = 0;
    d->have_ref = 0;
    d->since = 0;
    d->searches = (d->searches + 1) & 0xff;
}

/* Idle: monitor windows in the chosen configuration for the triggers. */
static bool idle_step(const stc_tuner_hw *tuner, stc_tuner_hw_regs *d, const stc_tuner_hw_in *in)
{
    const stc_tuner_hw_regs *q = &tuner->q;
    if (!q->tuned || (tuner->build.options & STC_TUNER_OPT_NO_TRIGGERS)) {
        return false;
    }
    if (q->acc < q->win_len) {
        count_events(q, d, in);
        return false;
    }
    clear_counters(d);
    d->since = q->since < retune_max(tuner) ? q->since + 1 : q->since;
    if (!q->have_ref) {
        d->have_ref = 1;
        d->ref_miss = q->miss;
    }
    uint32_t delta = q->miss > q->ref_miss ? q->miss - q->ref_miss : q->ref_miss - q->miss;
    bool phase = q->have_ref && q->phase_en && delta > q->thresh;
    bool periodic = q->retune != 0 && q->since + 1 >= q->retune;
    return phase || periodic;
}

/* The register write port: d takes the written register's value. Returns
 * whether software started a search (CTRL bit 0). */
static bool write_register(const stc_tuner_hw *tuner, stc_tuner_hw_regs *d,
                           const stc_tuner_hw_in *in)
{
    unsigned addr = in->reg_addr & ((1u << STC_TREG_ADDR_BITS) - 1);
    if ((tuner->build.options & STC_TUNER_OPT_NO_TRIGGERS) &&
        (addr == STC_TREG_RETUNE || addr == STC_TREG_THRESHOLD)) {
        return false; /* not built */
    }
    switch (addr) {
    case STC_TREG_CTRL:
        if (tuner->build.options & STC_TUNER_OPT_NO_TRIGGERS) {
            return (in->reg_wdata & 1) != 0;
        }
        d->phase_en = in->reg_wdata >> 1 & 1;
        return (in->reg_wdata & 1) != 0;
    case STC_TREG_WINDOW:
        d->win_len = in->reg_wdata & U16_MAX;
        break;
    case STC_TREG_RETUNE:
        d->retune = in->reg_wdata & retune_max(tuner);
        break;
    case STC_TREG_THRESHOLD:
        d->thresh = in->reg_wdata & U16_MAX;
        break;
    default:
        if (!(tuner->build.options & STC_TUNER_OPT_CONST_COEFS) && addr >= STC_TREG_COEF &&
            addr - STC_TREG_COEF < tuner->coef_count) {
            d->coef[addr - STC_TREG_COEF] = (uint16_t)in->reg_wdata;
        }
        break;
    }
    return false;
}

/* V0: the next candidate (the start point, the next value of the current
 * parameter, or the best to apply at the end), or on to the next
 * parameter when this one has no value left. */
static void propose_step(const stc_tuner_hw *tuner, stc_tuner_hw_regs *d)
{
    const stc_tuner_hw_regs *q = &tuner->q;
    uint32_t next = 0;
    if (q->psm == STC_PSM_START) {
        d->cand = CONFIG_START;
        d->vsm = STC_VSM_CFG;
    } else if (q->psm == STC_PSM_FINAL) {
        d->cand = q->best;
        d->vsm = STC_VSM_CFG;
    } else if (propose(tuner, q->psm, q->best, &next)) {
        d->cand = next;
        d->vsm = STC_VSM_CFG;
    } else {
        d->psm = next_param(q->psm);
    }
}

/* CFG: hold the candidate on the configuration port until the cache has
 * taken it (cfg_sent) and finished the change. A refused candidate costs
 * the most energy, so the compare rejects it; the final application ends
 * the search. */
static void configure_step(const stc_tuner_hw *tuner, stc_tuner_hw_regs *d,
                           const stc_tuner_hw_in *in, const stc_tuner_hw_out *out)
{
    const stc_tuner_hw_regs *q = &tuner->q;
    if (in->cfg_done) {
        d->cfg_sent = 0;
        if (q->psm == STC_PSM_FINAL) {
            d->psm = STC_PSM_IDLE;
            d->vsm = STC_VSM_V0;
            d->done = 1;
            d->tuned = 1;
            clear_counters(d);
        } else if (in->cfg_err) {
            d->energy = UINT32_MAX;
            d->vsm = STC_VSM_CMP;
        } else {
            clear_counters(d);
            d->vsm = STC_VSM_WIN;
        }
    } else if (out->cfg_valid && in->cfg_ready) {
        d->cfg_sent = 1;
    }
}

/* CMP: keep the candidate when it is strictly lower (the start point is
 * always kept); a higher one ends the current parameter's walk. */
static void compare_step(const stc_tuner_hw *tuner, stc_tuner_hw_regs *d)
{
    const stc_tuner_hw_regs *q = &tuner->q;
    d->examined = (q->examined + 1) & 0xff;
    if (q->psm == STC_PSM_START) {
        d->best = q->cand;
        d->best_energy = q->energy;
        d->psm = STC_PSM_SIZE;
    } else if (q->energy < q->best_energy) {
        d->best = q->cand;
        d->best_energy = q->energy;
    } else {
        d->psm = next_param(q->psm);
    }
    d->vsm = STC_VSM_V0;
}

/* One cycle of the value machine during a search. Returns whether it was
 * a compute cycle (V0, CALC, CMP: what the COMPUTE register counts). */
static bool value_step(const stc_tuner_hw *tuner, stc_tuner_hw_regs *d,
                       const stc_tuner_hw_in *in, const stc_tuner_hw_out *out)
{
    const stc_tuner_hw_regs *q = &tuner->q;
    switch (q->vsm) {
    case STC_VSM_V0:
        propose_step(tuner, d);
        return true;
    case STC_VSM_CFG:
        configure_step(tuner, d, in, out);
        return false;
    case STC_VSM_WIN:
        if (q->acc >= q->win_len) {
            d->vsm = STC_VSM_CALC;
            d->csm = STC_CSM_CLEAR;
        } else {
            count_events(q, d, in);
        }
        return false;
    case STC_VSM_CALC:
        calculate(tuner, d);
        return true;
    case STC_VSM_CMP:
        compare_step(tuner, d);
        return true;
    default:
        d->vsm = STC_VSM_V0;
        return false;
    }
}

void stc_tuner_hw_step(stc_tuner_hw *tuner, const stc_tuner_hw_in *in)
{
    /* Every next-state value d is computed from the current flops q alone,
     * as the RTL's always blocks do, and q takes d at the end. */
    const stc_tuner_hw_regs *q = &tuner->q;
    stc_tuner_hw_regs d = *q;
    stc_tuner_hw_out out;
    stc_tuner_hw_outputs(tuner, &out);

    bool sw_start = false;
    if (in->reg_we) {
        sw_start = write_register(tuner, &d, in);
    }
    bool compute = false;
    if (q->psm == STC_PSM_IDLE) {
        bool trigger = idle_step(tuner, &d, in);
        if (sw_start || trigger) {
            start_search(&d);
        }
    } else {
        compute = value_step(tuner, &d, in, &out);
    }
    if (compute && q->compute < U16_MAX) {
        d.compute = q->compute + 1;
    }
    tuner->q = d;
}

unsigned stc_tuner_hw_digit_bits(unsigned multiplier)
{
    static const unsigned bits[] = {16, 1, 2, 4};
    return multiplier < sizeof bits / sizeof bits[0] ? bits[multiplier] : 16;
}

unsigned stc_tuner_hw_step_cycles(const stc_tuner_hw_build *build)
{
    return STC_TUNER_SERIAL_STEP / stc_tuner_hw_digit_bits(build->multiplier);
}

unsigned stc_tuner_hw_compute_cycles(unsigned step_cycles, unsigned candidates,
                                     unsigned wp_candidates, unsigned failed_steps)
{
    unsigned m = step_cycles;
    unsigned plain = candidates - wp_candidates;
    return plain * (1 + 1 + 3 * m + 1) + wp_candidates * (1 + 1 + 5 * m + 1) + failed_steps + 1;
}

void stc_tuner_hw_longest_search(const stc_geometry *geometry, bool way_prediction,
                                 unsigned step_cycles, unsigned *candidates,
                                 unsigned *compute_cycles)
{
    unsigned logb = geometry->bank_bits;
    unsigned wp = way_prediction && logb > 0 ? 1 : 0;
    /* start, sizes, lines, ways (up to every bank), prediction */
    *candidates = 1 + logb + 2 + logb + wp;
    /* every walk, wp included, ends with a proposal that finds no value */
    unsigned failed = 4;
    *compute_cycles = stc_tuner_hw_compute_cycles(step_cycles, *candidates, wp, failed);
}
