/* params.c - stcgen's parameters and the values derived from them. */
#include "params.h"

#include "coherent.h" /* STC_COH_MAX_CORES: the cores the models take */
#include "energy.h"
#include "fixed.h"
#include "monitor.h"

#include <stdio.h>
#include <string.h>

void stcgen_params_default(stcgen_params *params)
{
    memset(params, 0, sizeof *params);
    stc_geometry_default(&params->geometry);
    params->counter_bits = STCGEN_DEFAULT_COUNTER_BITS;
    params->way_prediction = true;
    params->walk_moves = true; /* TUNING.md 6: moves cut the walks' cost by three quarters */
    params->tuner = true;
    params->tuner_monitor = true; /* the monitor tuner (TUNING.md 6: the seed's loses) */
    /* The monitor's shape: the model's hardware defaults. */
    params->monitor_sample_bits = STC_MONITOR_DEFAULT_SAMPLE_BITS;
    params->monitor_rotate = STC_MONITOR_DEFAULT_ROTATE;
    params->monitor_tag_bits = STC_MONITOR_DEFAULT_TAG_BITS;
    params->monitor_count_bits = STC_MONITOR_DEFAULT_COUNTER_BITS;
    params->monitor_window = STC_MONITOR_TUNER_DEFAULT_WINDOW;
    params->monitor_margin = STC_MONITOR_TUNER_DEFAULT_MARGIN;
    params->monitor_walk_min = STC_MONITOR_TUNER_DEFAULT_WALK_MIN;
}

static unsigned log2_ceil(unsigned value)
{
    unsigned bits = 0;
    while ((1u << bits) < value) {
        bits++;
    }
    return bits;
}

/* The decision unit's programs, from the model's own builder on a model
 * monitor of the same shape (only its count order is read). */
static int derive_monitor_programs(stcgen_params *params, char *err, size_t err_len)
{
    if (params->monitor_window < 2 || params->monitor_window > 65536) {
        snprintf(err, err_len, "monitor_window=%u: must be from 2 to 65536",
                 params->monitor_window);
        return -1;
    }
    if (params->monitor_margin > 16) {
        snprintf(err, err_len, "monitor_margin=%u: must be from 0 to 16", params->monitor_margin);
        return -1;
    }
    /* The watched count it is compared with is halved before it reaches
     * 2^monitor_count_bits: a larger minimum would never allow a walk. */
    unsigned walk_min_max = (1u << params->monitor_count_bits) - 1;
    if (params->monitor_walk_min > walk_min_max) {
        snprintf(err, err_len,
                 "monitor_walk_min=%u: must be from 0 to %u (below 2^monitor_count_bits, "
                 "the watched count's limit)",
                 params->monitor_walk_min, walk_min_max);
        return -1;
    }
    stc_energy_table table;
    stc_fixed_monitor_coefficients coefficients;
    char why[512];
    if (stc_energy_default(&params->geometry, &table, why, sizeof why) != 0 ||
        stc_fixed_monitor_from_table(&table, &coefficients, why, sizeof why) != 0) {
        snprintf(err, err_len, "monitor decision coefficients: %s", why);
        return -1;
    }
    for (int read_only = 0; read_only <= 1; read_only++) {
        stc_monitor_shape shape = {params->monitor_sample_bits, params->monitor_rotate,
                                   params->monitor_tag_bits, read_only,
                                   params->monitor_count_bits, true, false};
        stc_monitor *monitor = stc_monitor_create(&params->geometry, &shape, why, sizeof why);
        int built = monitor ? stc_monitor_program_build(monitor, &params->geometry, &coefficients,
                                                        read_only, params->way_prediction,
                                                        &params->monitor_program[read_only],
                                                        why, sizeof why)
                            : -1;
        stc_monitor_destroy(monitor);
        if (built != 0) {
            snprintf(err, err_len, "monitor decision program: %s", why);
            return -1;
        }
    }
    return 0;
}

/* Bits to number `values` things (at least 1: a Verilog vector). */
static unsigned select_bits(unsigned values)
{
    unsigned bits = log2_ceil(values);
    return bits ? bits : 1;
}

/* The monitor's mappings, counts and widths (ARCHITECTURE.md section 17),
 * in the model's order (ref/monitor.c). */
static int derive_monitor(stcgen_params *params, char *err, size_t err_len)
{
    const stc_geometry *geometry = &params->geometry;
    unsigned max_bits = stc_monitor_max_sample_bits(geometry);
    if (params->monitor_sample_bits > max_bits) {
        snprintf(err, err_len, "monitor_sample_bits=%u: this geometry allows 0..%u",
                 params->monitor_sample_bits, max_bits);
        return -1;
    }
    if (params->monitor_tag_bits < 1 || params->monitor_tag_bits > 32) {
        snprintf(err, err_len, "monitor_tag_bits=%u: must be from 1 to 32",
                 params->monitor_tag_bits);
        return -1;
    }
    /* At most the decision unit's 16-bit operands; at least 4, so that an
     * access's largest increment (3 bits) stays below 2^bits. */
    if (params->monitor_count_bits < 4 || params->monitor_count_bits > 16) {
        snprintf(err, err_len, "monitor_count_bits=%u: must be from 4 to 16",
                 params->monitor_count_bits);
        return -1;
    }
    if (params->monitor_rotate > 65535) {
        snprintf(err, err_len, "monitor_rotate=%u: must be from 0 to 65535",
                 params->monitor_rotate);
        return -1;
    }
    params->monitor_line_bits = geometry->addr_bits - geometry->offset_bits;
    params->monitor_since_bits = params->monitor_rotate ? log2_ceil(params->monitor_rotate + 1) : 1;
    params->monitor_maps = 0;
    params->monitor_counts = 1;
    params->monitor_clear_rows = 0;
    for (unsigned sublines = 1; sublines <= STC_MAX_SUBLINES; sublines *= 2) {
        for (unsigned groups = 1; groups <= geometry->banks; groups *= 2) {
            stc_config probe = {geometry->banks, geometry->banks / groups, sublines, false};
            if (stc_config_check(geometry, &probe) != NULL) {
                continue;
            }
            stcgen_monitor_map *map = &params->monitor_map[params->monitor_maps++];
            map->ways = probe.ways;
            map->sublines = sublines;
            map->sublines_log = stc_log2(sublines);
            map->set_bits = stc_log2(groups * geometry->rows / sublines);
            map->row_bits = map->set_bits - params->monitor_sample_bits;
            map->rows = 1u << map->row_bits;
            if (map->rows < 2) {
                snprintf(err, err_len,
                         "monitor_sample_bits=%u: the %u-way mapping with logical lines of %u "
                         "physical lines would watch %u set (an SRAM needs 2 rows or more)",
                         params->monitor_sample_bits, map->ways, sublines, map->rows);
                return -1;
            }
            unsigned tag_room = params->monitor_line_bits - map->sublines_log - map->set_bits;
            map->tag_bits = params->monitor_tag_bits < tag_room ? params->monitor_tag_bits
                                                                : tag_room;
            map->dirty_bits = log2_ceil(map->ways + 1);
            map->entry_bits = 1 + map->tag_bits + sublines * map->dirty_bits;
            map->buckets = stc_log2(map->ways) + 1;
            map->count_base = params->monitor_counts;
            params->monitor_counts += 2 * map->buckets;
            if (map->rows > params->monitor_clear_rows) {
                params->monitor_clear_rows = map->rows;
            }
        }
    }
    if (derive_monitor_programs(params, err, err_len) != 0) {
        return -1;
    }
    size_t steps = params->monitor_program[0].step_count;
    if (params->monitor_program[1].step_count > steps) {
        steps = params->monitor_program[1].step_count;
    }
    params->monitor_sel_bits = select_bits(params->monitor_counts);
    params->monitor_clear_bits = select_bits(params->monitor_clear_rows + 1);
    params->monitor_step_bits = select_bits((unsigned)steps);
    params->monitor_win_bits = select_bits(params->monitor_window);
    return 0;
}

/* b<banks>_<bank size>_l<line bytes>_a<addr bits>, the bank size in KiB with
 * a "k" when it is a whole number of KiB, else in bytes with a "b"; then one
 * suffix per non-default option: _c<counter bits>, _nowp, then _seed (the
 * seed tuner) with _serial and _coefconst for its options, or _notuner, or
 * _fixed_<config>; then _monitor (the seed tuner's --monitor). */
static int make_name(stcgen_params *params)
{
    const stc_geometry *geometry = &params->geometry;
    char size[24];
    if (geometry->bank_bytes % 1024 == 0) {
        snprintf(size, sizeof size, "%uk", geometry->bank_bytes / 1024);
    } else {
        snprintf(size, sizeof size, "%ub", geometry->bank_bytes);
    }
    char counters[16] = "";
    if (params->counter_bits != STCGEN_DEFAULT_COUNTER_BITS) {
        snprintf(counters, sizeof counters, "_c%u", params->counter_bits);
    }
    static const char *const tuner_suffix[4][2][2] = {
        {{"_seed", "_seed_lean"}, {"_seed_coefconst", "_seed_coefconst_lean"}},
        {{"_seed_serial", "_seed_serial_lean"},
         {"_seed_serial_coefconst", "_seed_serial_coefconst_lean"}},
        {{"_seed_radix4", "_seed_radix4_lean"},
         {"_seed_radix4_coefconst", "_seed_radix4_coefconst_lean"}},
        {{"_seed_radix16", "_seed_radix16_lean"},
         {"_seed_radix16_coefconst", "_seed_radix16_coefconst_lean"}}};
    const char *tuner = params->fixed                   ? ""
                        : stcgen_monitor_tuner(params)   ? ""
                        : params->tuner
                            ? tuner_suffix[params->tuner_mult & 3][params->tuner_const_coefs]
                                          [params->tuner_lean_regs]
                            : "_notuner";
    const char *triggers =
        stcgen_seed_tuner(params) && params->tuner_no_triggers ? "_notrig" : "";
    char fixed[8 + STC_CONFIG_NAME_MAX] = "";
    if (params->fixed) {
        int used = snprintf(fixed, sizeof fixed, "_fixed_");
        for (const char *cursor = params->reset_config; *cursor && used + 1 < (int)sizeof fixed;
             cursor++) {
            char c = *cursor;
            fixed[used++] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
        }
        fixed[used] = '\0';
    }
    char coherence[32] = "";
    if (params->coherence) {
        snprintf(coherence, sizeof coherence, "_%s%s_n%u",
                 stc_coh_protocol_name(params->coh_protocol),
                 params->coh_bus == STC_COH_BUS_SPLIT ? "_split" : "", params->coh_cores);
    }
    const char *broken = params->debug_break ? params->debug_break : params->coh_break;
    int written = snprintf(params->name, sizeof params->name, "b%u_%s_l%u_a%u%s%s%s%s%s%s%s%s%s%s",
                           geometry->banks, size, geometry->line_bytes, geometry->addr_bits,
                           counters, params->way_prediction ? "" : "_nowp",
                           params->walk_moves || params->fixed ||
                                   (params->coherence && params->coh_bus == STC_COH_BUS_ATOMIC)
                               ? ""
                               : "_nomv",
                           tuner, triggers, fixed,
                           params->monitor && !stcgen_monitor_tuner(params) ? "_monitor" : "",
                           coherence, broken ? "_BROKEN_" : "", broken ? broken : "");
    for (char *cursor = params->name; *cursor; cursor++) {
        if (*cursor == '-') {
            *cursor = '_'; /* debug break names use '-' */
        }
    }
    return written > 0 && (size_t)written < sizeof params->name ? 0 : -1;
}

/* --fixed NAME: a legal configuration of the geometry that powers every
 * bank (a baseline with fewer banks is a smaller geometry), and way
 * prediction only if it is built. */
static int check_fixed(stcgen_params *params, char *err, size_t err_len)
{
    const stc_geometry *geometry = &params->geometry;
    char why[256];
    if (stc_config_parse(geometry, params->fixed, &params->reset, why, sizeof why) != 0) {
        snprintf(err, err_len, "fixed=%s: %s", params->fixed, why);
        return -1;
    }
    if (params->reset.banks_on != geometry->banks) {
        snprintf(err, err_len,
                 "fixed=%s: must use all %u banks (for a smaller fixed cache generate a "
                 "geometry with fewer banks)",
                 params->fixed, geometry->banks);
        return -1;
    }
    if (params->reset.way_predict && !params->way_prediction) {
        snprintf(err, err_len, "fixed=%s: way prediction is not built (--no-way-prediction)",
                 params->fixed);
        return -1;
    }
    return 0;
}

/* --protocol, --bus and a "coh-" break: the table the modules come from
 * (ARCHITECTURE.md 19.1), broken if asked, and the state code's width. */
static int derive_coherence(stcgen_params *params, char *err, size_t err_len)
{
    const char *ctrl_break = params->debug_break ? params->debug_break : "";
    const bool upgrade_silent = strcmp(ctrl_break, STCGEN_BREAK_UPGRADE_SILENT) == 0;
    const bool fill_shared = strcmp(ctrl_break, STCGEN_BREAK_FILL_SHARED) == 0;
    const bool no_supply = strcmp(ctrl_break, STCGEN_BREAK_NO_SUPPLY) == 0;
    const bool lost_upgrade = strcmp(ctrl_break, STCGEN_BREAK_LOST_UPGRADE) == 0;
    if ((upgrade_silent || fill_shared || no_supply || lost_upgrade) &&
        (!params->coherence || params->coh_bus != STC_COH_BUS_ATOMIC)) {
        snprintf(err, err_len, "debug_break=%s: breaks the coherent controller: needs --protocol "
                 "msi|mesi|moesi on the atomic bus", ctrl_break);
        return -1;
    }
    if (fill_shared && params->coh_protocol == STC_COH_MSI) {
        snprintf(err, err_len, "debug_break=%s: MSI reads every line into S already",
                 ctrl_break);
        return -1;
    }
    if (!params->coherence) {
        if (params->coh_cores_given) {
            snprintf(err, err_len, "cores=%u: needs --protocol msi|mesi|moesi",
                     params->coh_cores);
            return -1;
        }
        if (params->coh_bus_given) {
            snprintf(err, err_len, "bus=%s: needs --protocol msi|mesi|moesi",
                     stc_coh_bus_model_name(params->coh_bus));
            return -1;
        }
        if (params->coh_break) {
            snprintf(err, err_len, "debug_break=%s: needs --protocol msi|mesi|moesi",
                     params->coh_break);
            return -1;
        }
        return 0;
    }
    if (!params->coh_cores_given) {
        params->coh_cores = 2;
    }
    if (params->coh_cores < 2 || params->coh_cores > STC_COH_MAX_CORES) {
        snprintf(err, err_len, "cores=%u: must be from 2 to %d", params->coh_cores,
                 STC_COH_MAX_CORES);
        return -1;
    }
    params->coh_core_bits = log2_ceil(params->coh_cores);
    params->coh_table = *stc_coh_table_of(params->coh_protocol);
    params->coh_sp_table = *stc_coh_sp_table_of(params->coh_protocol);
    unsigned states = params->coh_bus == STC_COH_BUS_SPLIT ? params->coh_sp_table.state_count
                                                           : params->coh_table.state_count;
    params->coh_state_bits = log2_ceil(states);
    params->coh_line_bits = params->geometry.addr_bits - params->geometry.offset_bits;
    params->coh_entry_bits = params->coh_state_bits + params->geometry.tag_bits;
    if (!params->coh_break || strcmp(params->coh_break, STCGEN_COH_BREAK_ARBITER) == 0) {
        return 0;
    }
    if (strcmp(params->coh_break, STCGEN_COH_BREAK_SNOOP_NO_FORWARD) == 0 ||
        strcmp(params->coh_break, STCGEN_COH_BREAK_SNOOP_ALL_BANKS) == 0 ||
        strcmp(params->coh_break, STCGEN_COH_BREAK_BUS_LATENCY) == 0 ||
        strcmp(params->coh_break, STCGEN_COH_BREAK_BUS_FIXED_LATENCY) == 0) {
        if (params->coh_bus == STC_COH_BUS_SPLIT) {
            snprintf(err, err_len, "debug_break=%s: the snoop port and the bus sequencer are "
                     "the atomic bus's (neither with --bus split)", params->coh_break);
            return -1;
        }
        return 0;
    }
    const char *name = params->coh_break + strlen(STCGEN_COH_BREAK_PREFIX);
    char why[256];
    int status;
    if (params->coh_bus == STC_COH_BUS_SPLIT) {
        stc_coh_sp_break which;
        status = stc_coh_sp_break_parse(name, &which, why, sizeof why);
        if (status == 0) {
            status = stc_coh_sp_table_apply_break(&params->coh_sp_table, which, why, sizeof why);
        }
    } else {
        stc_coh_break which;
        status = stc_coh_break_parse(name, &which, why, sizeof why);
        if (status == 0) {
            status = stc_coh_table_apply_break(&params->coh_table, which, why, sizeof why);
        }
    }
    if (status != 0) {
        snprintf(err, err_len, "debug_break=%s: %s (%s bus, %s)", params->coh_break, why,
                 stc_coh_bus_model_name(params->coh_bus),
                 stc_coh_protocol_name(params->coh_protocol));
        return -1;
    }
    return 0;
}

int stcgen_params_init(stcgen_params *params, char *err, size_t err_len)
{
    if (stc_geometry_init(&params->geometry, err, err_len) != 0) {
        return -1;
    }
    if (params->geometry.rows < STC_RTL_MIN_ROWS) {
        snprintf(err, err_len,
                 "bank_bytes=%u: the generated RTL needs at least %d physical lines of %u bytes "
                 "a bank (its row state holds 4 rows a word, in 2 words or more)",
                 params->geometry.bank_bytes, STC_RTL_MIN_ROWS, params->geometry.line_bytes);
        return -1;
    }
    if (params->counter_bits < STCGEN_MIN_COUNTER_BITS ||
        params->counter_bits > STCGEN_MAX_COUNTER_BITS) {
        snprintf(err, err_len,
                 "counter_bits=%u: must be from %d to %d (the tuner reads 16-bit counters)",
                 params->counter_bits, STCGEN_MIN_COUNTER_BITS, STCGEN_MAX_COUNTER_BITS);
        return -1;
    }
    const stc_geometry *geometry = &params->geometry;

    if (params->fixed) {
        if (check_fixed(params, err, err_len) != 0) {
            return -1;
        }
        params->tuner = false; /* nothing to tune */
    } else {
        if (stcgen_monitor_tuner(params) && (params->tuner_mult || params->tuner_const_coefs ||
                                               params->tuner_lean_regs ||
                                               params->tuner_no_triggers)) {
            snprintf(err, err_len, "tuner=monitor: --tuner-mult, --tuner-coeff, --tuner-regs and "
                     "--tuner-triggers are options of the seed tuner (add --tuner seed)");
            return -1;
        }
        params->reset = stc_config_reset(geometry);
    }
    stc_config_name(geometry, &params->reset, params->reset_config, sizeof params->reset_config);
    if (derive_coherence(params, err, err_len) != 0) {
        return -1;
    }
    if (params->fixed || (params->coherence && params->coh_bus == STC_COH_BUS_ATOMIC)) {
        /* a fixed cache never walks; the coherent controller's walk drops
         * (its snoop array and bus tenure know no moves, ARCHITECTURE.md
         * 19.5); a split-bus build's controller is still the plain one */
        params->walk_moves = false;
    }
    if (params->debug_break && strncmp(params->debug_break, "walk-move-", 10) == 0 &&
        !params->walk_moves) {
        snprintf(err, err_len,
                 "debug_break=%s: breaks the walk's moves, which --no-walk-moves, --fixed and "
                 "--protocol (atomic bus) leave out",
                 params->debug_break);
        return -1;
    }
    if (make_name(params) != 0) {
        snprintf(err, err_len, "%s%s: the output name would be longer than %d characters",
                 params->fixed ? "fixed=" : "name ", params->fixed ? params->fixed : params->name,
                 STCGEN_NAME_MAX - 1);
        return -1;
    }
    params->configs = (unsigned)stc_config_enumerate(geometry, NULL, 0);
    params->line_bits = geometry->line_bytes * 8;
    params->word_bits = STC_WORD_BYTES * 8;

    /* The SRAMs of one bank (section 14.3): the full tag of every row,
     * written whole; the physical line of every row, written in bytes (CPU
     * stores, fill beats) or whole. Valid, dirty and recency bits are not
     * here: they live in the always-on row-state register file
     * (ARCHITECTURE.md 15.1). */
    params->bank_sram_count = 0;
    stcgen_sram_shape *tag = &params->bank_srams[params->bank_sram_count++];
    tag->role = "tag";
    tag->what = "full tag of each row";
    tag->depth = geometry->rows;
    tag->width = geometry->tag_bits;
    tag->gran = tag->width;
    stcgen_sram_shape *data = &params->bank_srams[params->bank_sram_count++];
    data->role = "data";
    data->what = "physical line of each row, byte writes";
    data->depth = geometry->rows;
    data->width = params->line_bits;
    data->gran = 8;
    for (unsigned index = 0; index < params->bank_sram_count; index++) {
        stcgen_sram_shape *shape = &params->bank_srams[index];
        shape->mask_bits = shape->width / shape->gran;
    }

    /* Power controller (section 14.4): request seen -> switch enable (1
     * cycle) -> acknowledge after N cycles -> through the synchroniser ->
     * state ON and isolation released one cycle later. */
    params->pwr_sync_stages = STCGEN_PWR_SYNC_STAGES;
    params->pwr_state_bits = 3;
    params->wake_overhead = params->pwr_sync_stages + 2;

    if (stcgen_monitor_tuner(params)) {
        params->monitor = true; /* its monitor and decision unit are written */
    }
    if (params->monitor && derive_monitor(params, err, err_len) != 0) {
        return -1;
    }

    /* The seed tuner's coefficients: the same code as the C model's. */
    if (stcgen_seed_tuner(params)) {
        stc_energy_table table;
        stc_fixed_coefficients fixed;
        char why[512];
        if (stc_energy_default(geometry, &table, why, sizeof why) != 0 ||
            stc_fixed_from_table(&table, &fixed, why, sizeof why) != 0) {
            snprintf(err, err_len, "tuner: no default energy table for this geometry (%s); "
                     "use --no-tuner", why);
            return -1;
        }
        params->tuner_coefs =
            stc_tuner_coef_registers(geometry, &fixed, params->tuner_coef_reset);
        params->tuner_nj_per_unit = fixed.nj_per_unit;
        stc_tuner_hw_build build = {
            *geometry, params->tuner_mult,
            (params->tuner_const_coefs ? STC_TUNER_OPT_CONST_COEFS : 0u) |
                (params->tuner_lean_regs ? STC_TUNER_OPT_LEAN_REGS : 0u) |
                (params->tuner_no_triggers ? STC_TUNER_OPT_NO_TRIGGERS : 0u),
            params->way_prediction};
        params->tuner_step_cycles = stc_tuner_hw_step_cycles(&build);
        stc_tuner_hw_longest_search(geometry, params->way_prediction, params->tuner_step_cycles,
                                    &params->tuner_longest_candidates,
                                    &params->tuner_longest_compute);
    }
    return 0;
}

const char *const stcgen_tuner_mult_names[4] = {"array", "serial", "radix4", "radix16"};

bool stcgen_seed_tuner(const stcgen_params *params)
{
    return params->tuner && !params->tuner_monitor;
}

bool stcgen_monitor_tuner(const stcgen_params *params)
{
    return params->tuner && params->tuner_monitor;
}

static size_t add_value(stcgen_value *out, size_t max, size_t count, const char *name,
                        uint64_t value, const char *what, bool derived)
{
    if (count < max) {
        snprintf(out[count].name, sizeof out[count].name, "%s", name);
        out[count].value = value;
        out[count].what = what;
        out[count].derived = derived;
    }
    return count + 1;
}

size_t stcgen_params_values(const stcgen_params *params, stcgen_value *out, size_t max)
{
    const stc_geometry *g = &params->geometry;
    size_t n = 0;
    n = add_value(out, max, n, "banks", g->banks, "banks B", false);
    n = add_value(out, max, n, "bank_bytes", g->bank_bytes, "bytes per bank", false);
    n = add_value(out, max, n, "line_bytes", g->line_bytes, "physical line P, bytes", false);
    n = add_value(out, max, n, "addr_bits", g->addr_bits, "address width A", false);
    n = add_value(out, max, n, "counter_bits", params->counter_bits,
                  "event counter width (saturating)", false);
    n = add_value(out, max, n, "way_prediction", params->way_prediction,
                  "1: way prediction built", false);
    n = add_value(out, max, n, "walk_moves", params->walk_moves,
                  "1: a reconfiguration's walk moves lines (section 7)", false);
    n = add_value(out, max, n, "tuner", params->tuner, "1: hardware tuner built", false);
    n = add_value(out, max, n, "tuner_monitor", stcgen_monitor_tuner(params),
                  "1: the monitor tuner (sections 17-18), 0: the seed tuner", false);
    if (stcgen_seed_tuner(params)) {
        n = add_value(out, max, n, "tuner_serial", params->tuner_mult == STC_TUNER_MULT_SERIAL,
                      "1: serial tuner multiplier, 0: array", false);
        if (params->tuner_mult >= STC_TUNER_MULT_RADIX4) {
            /* listed only for the radix multipliers: the other options' files unchanged */
            n = add_value(out, max, n, "tuner_mult", params->tuner_mult,
                          "tuner multiplier: 2 radix 4, 3 radix 16 (0 array, 1 serial)", false);
        }
        if (params->tuner_lean_regs) {
            /* listed only when lean: the other options' files unchanged */
            n = add_value(out, max, n, "tuner_lean_regs", params->tuner_lean_regs,
                          "1: lean tuner register block", false);
        }
        if (params->tuner_no_triggers) {
            /* listed only without triggers: the other options' files unchanged */
            n = add_value(out, max, n, "tuner_no_triggers", params->tuner_no_triggers,
                          "1: tuner built without re-tune triggers", false);
        }
        n = add_value(out, max, n, "tuner_const_coefs", params->tuner_const_coefs,
                      "1: tuner coefficients constant, 0: registers", false);
    }
    if (params->monitor) {
        n = add_value(out, max, n, "monitor", params->monitor, "1: stc_monitor.v written", false);
        n = add_value(out, max, n, "monitor_sample_bits", params->monitor_sample_bits,
                      "monitor: 1/2^bits of the sets watched", false);
        n = add_value(out, max, n, "monitor_rotate", params->monitor_rotate,
                      "monitor: observed accesses per group (0: fixed)", false);
        n = add_value(out, max, n, "monitor_tag_bits", params->monitor_tag_bits,
                      "monitor: bits of a shadow tag", false);
        n = add_value(out, max, n, "monitor_count_bits", params->monitor_count_bits,
                      "monitor: bits of a count (all halved when one fills)", false);
        n = add_value(out, max, n, "monitor_window", params->monitor_window,
                      "decision unit: accesses between decisions", false);
        n = add_value(out, max, n, "monitor_margin", params->monitor_margin,
                      "decision unit: move only if 1/2^margin lower", false);
        n = add_value(out, max, n, "monitor_walk_min", params->monitor_walk_min,
                      "decision unit: watched accesses before a change that walks", false);
    }

    if (params->coherence) {
        n = add_value(out, max, n, "coh_protocol", params->coh_protocol,
                      "coherence: 0 MSI, 1 MESI, 2 MOESI", false);
        n = add_value(out, max, n, "coh_split_bus", params->coh_bus == STC_COH_BUS_SPLIT,
                      "coherence: 1 split-transaction bus, 0 atomic", false);
        n = add_value(out, max, n, "coh_cores", params->coh_cores,
                      "coherence: cores on the bus (the arbiter's requesters)", false);
    }

    n = add_value(out, max, n, "rows", g->rows, "lines per bank R", true);
    n = add_value(out, max, n, "offset_bits", g->offset_bits, "log2(line_bytes)", true);
    n = add_value(out, max, n, "row_bits", g->row_bits, "log2(rows)", true);
    n = add_value(out, max, n, "bank_shift", g->bank_shift, "log2(bank_bytes): tag = addr[A-1:S]",
                  true);
    n = add_value(out, max, n, "bank_bits", g->bank_bits, "log2(banks)", true);
    n = add_value(out, max, n, "tag_bits", g->tag_bits, "full tag, addr_bits - bank_shift", true);
    n = add_value(out, max, n, "word_bytes", STC_WORD_BYTES, "CPU word and memory beat", true);
    n = add_value(out, max, n, "word_bits", params->word_bits, "word_bytes * 8", true);
    n = add_value(out, max, n, "beats_per_line", g->beats_per_line, "line_bytes / word_bytes",
                  true);
    n = add_value(out, max, n, "line_bits", params->line_bits, "line_bytes * 8", true);
    n = add_value(out, max, n, "max_sublines", STC_MAX_SUBLINES,
                  "physical lines in the longest logical line", true);
    n = add_value(out, max, n, "configs", params->configs, "legal configurations", true);
    for (unsigned index = 0; index < params->bank_sram_count; index++) {
        const stcgen_sram_shape *shape = &params->bank_srams[index];
        char name[STCGEN_VALUE_NAME_MAX];
        snprintf(name, sizeof name, "sram_%s_depth", shape->role);
        n = add_value(out, max, n, name, shape->depth, "words per bank", true);
        snprintf(name, sizeof name, "sram_%s_width", shape->role);
        n = add_value(out, max, n, name, shape->width, shape->what, true);
        snprintf(name, sizeof name, "sram_%s_gran", shape->role);
        n = add_value(out, max, n, name, shape->gran, "bits per write-mask bit", true);
        snprintf(name, sizeof name, "sram_%s_mask_bits", shape->role);
        n = add_value(out, max, n, name, shape->mask_bits, "write-mask bits", true);
    }
    n = add_value(out, max, n, "pwr_sync_stages", params->pwr_sync_stages,
                  "acknowledge synchroniser flops", true);
    n = add_value(out, max, n, "wake_overhead", params->wake_overhead,
                  "T_wake = acknowledge delay + this", true);
    if (params->coherence) {
        n = add_value(out, max, n, "coh_state_bits", params->coh_state_bits,
                      "coherence: bits of a state code", true);
        if (params->coh_bus == STC_COH_BUS_ATOMIC) {
            n = add_value(out, max, n, "coh_line_bits", params->coh_line_bits,
                          "snoop port and bus: a physical line number", true);
            n = add_value(out, max, n, "coh_entry_bits", params->coh_entry_bits,
                          "snoop port: a slot, state + tag", true);
        }
    }
    if (stcgen_seed_tuner(params)) {
        n = add_value(out, max, n, "tuner_coefs", params->tuner_coefs,
                      "tuner coefficient registers", true);
        n = add_value(out, max, n, "tuner_step_cycles", params->tuner_step_cycles,
                      "cycles per tuner multiplier step", true);
        n = add_value(out, max, n, "tuner_longest_search", params->tuner_longest_candidates,
                      "configurations in the longest search", true);
        n = add_value(out, max, n, "tuner_longest_compute", params->tuner_longest_compute,
                      "its compute cycles (seed: 164)", true);
    }
    if (params->monitor) {
        n = add_value(out, max, n, "monitor_maps", params->monitor_maps,
                      "monitor: set mappings (one array each)", true);
        n = add_value(out, max, n, "monitor_counts", params->monitor_counts,
                      "monitor: counts (cnt_sel_i, read as 16 bits)", true);
        n = add_value(out, max, n, "monitor_clear_rows", params->monitor_clear_rows,
                      "monitor: blind accesses of the clear walk", true);
        n = add_value(out, max, n, "monitor_steps", params->monitor_program[0].step_count,
                      "decision unit: steps (accesses) of a D-cache decision", true);
        n = add_value(out, max, n, "monitor_steps_ro", params->monitor_program[1].step_count,
                      "decision unit: steps of an I-cache (READ_ONLY) decision", true);
    }
    return n;
}
