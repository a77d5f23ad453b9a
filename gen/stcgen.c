/*
 * stcgen - write the RTL of an stc cache for one geometry.
 *
 * Parses the command line, derives every value (params.c), builds every file
 * of the file table (files.c) in memory and only then writes them, all at
 * once, into the output folder (output.c). Exit status: 0 written, 1 an I/O
 * failure, 2 a bad option or parameter or a refused output folder; in both
 * error cases nothing is written.
 */
#include "count.h"
#include "debug_break.h"
#include "emit.h"
#include "files.h"
#include "output.h"
#include "params.h"
#include "text.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ERR_LEN = 1024, EXIT_IO = 1, EXIT_USAGE = 2 };

static const char usage_text[] =
    "usage: stcgen [options]\n"
    "Write synthesizable Verilog-2005 and its companions (UPF, FuseSoC core, C\n"
    "header) for an stc cache into rtl_out/NAME (docs/ARCHITECTURE.md).\n"
    "\n"
    "  --banks N            banks B: a power of two from 1 to 32 (default 4)\n"
    "  --bank-bytes N       bytes per bank: a power of two holding at least 8\n"
    "                       physical lines (default 2048)\n"
    "  --line-bytes N       physical line: a power of two, at least 4 (default 16)\n"
    "  --addr-bits N        address width: 8 to 64 and more than\n"
    "                       log2(bank-bytes) + log2(banks) (default 32)\n"
    "  --counter-bits N     event counter width: 16 to 64 (default 32)\n"
    "  --no-way-prediction  leave out way prediction\n"
    "  --no-walk-moves      a reconfiguration's walk drops the lines it takes\n"
    "                       instead of moving them to free slots (ARCHITECTURE.md 7;\n"
    "                       always so with --fixed and --protocol on the atomic bus)\n"
    "  --no-tuner           leave out the hardware tuner\n"
    "  --tuner T            the hardware tuner: monitor (default: shadow tags and a\n"
    "                       decision unit, ARCHITECTURE.md 17-18) or seed (the\n"
    "                       seed's heuristic search, stc_tuner, 16)\n"
    "  --tuner-mult M       seed tuner multiplier: array (one cycle a step, default),\n"
    "                       serial (16 cycles a step, smaller), radix4 (2 bits a\n"
    "                       cycle, 8 cycles a step) or radix16 (4 bits, 4 cycles)\n"
    "  --tuner-coeff C      seed tuner energy coefficients: regs (loadable, default)\n"
    "                       or const (constants, smaller)\n"
    "  --tuner-regs R       seed tuner register block: full (default) or lean (only\n"
    "                       control, status, chosen configuration and tuned misses\n"
    "                       readable; no compute, examined or search counters)\n"
    "  --tuner-triggers T   seed tuner re-tune triggers (periodic, phase change):\n"
    "                       on (default) or off (one search when software starts\n"
    "                       it, as the seed's tuner; smaller)\n"
    "  --monitor            with the seed tuner, also write stc_monitor.v and\n"
    "                       stc_monitor_tuner.v (not instantiated: to study them)\n"
    "  --monitor-sample-bits K  watch 1/2^K of the sets at a time (default 2)\n"
    "  --monitor-rotate N   observed accesses per watched group, 0 fixed (default\n"
    "                       20480, at most 65535)\n"
    "  --monitor-tag-bits T bits of a shadow tag, 1 to 32 (default 6)\n"
    "  --monitor-count-bits C  bits of each count, 4 to 16 (default 14); all are\n"
    "                       halved when one would reach 2^C\n"
    "  --monitor-window N   accesses between decisions, 2 to 65536 (default 256)\n"
    "  --monitor-margin M   move only to a configuration 1/2^M cheaper than the\n"
    "                       current one, 0 to 16 (default 7)\n"
    "  --monitor-walk-min N offer a change that walks the banks (fewer banks, or\n"
    "                       more bank groups) only from a decision on at least N\n"
    "                       watched accesses, 0 to 2^C - 1 (default 256; 0: any)\n"
    "  --fixed CONFIG       a non-configurable baseline fixed at CONFIG (e.g.\n"
    "                       8K_4W_32B; all banks), for measuring what\n"
    "                       configurability costs (no tuner)\n"
    "  --protocol P         also write the coherence protocol's tables as RTL\n"
    "                       (msi, mesi or moesi; ARCHITECTURE.md 19.1)\n"
    "  --bus B              with --protocol: atomic (default: stc_coh_proc_table,\n"
    "                       stc_coh_snoop_table, stc_coh_snoop, a core's snoop port\n"
    "                       with its duplicate tags, and stc_coh_bus, the bus)\n"
    "                       or split (stc_coh_sp_table,\n"
    "                       the split-transaction bus's table with transient states)\n"
    "  --cores N            with --protocol: cores on the bus, 2 to 8 (default 2):\n"
    "                       the requesters of stc_coh_arbiter (and stc_coh_bus)\n"
    "  --summary            print what was generated (name, tuner cycles) on stdout\n"
    "  --out DIR            output folder (default rtl_out/NAME); its parent must exist\n"
    "  --force              replace DIR if it exists and holds only stcgen's files\n"
    "  -h, --help           show this text\n"
    "\n"
    "NAME is b<banks>_<bank size>_l<line bytes>_a<address bits>, the bank size as\n"
    "<KiB>k or <bytes>b, then _c<bits> for non-default counters, _nowp, then\n"
    "_seed (the seed tuner) with _serial, _coefconst for its options, or\n"
    "_notuner, or _fixed_<config>, then _monitor, then _<protocol>[_split]_n<cores>:\n"
    "the defaults give b4_2k_l16_a32. Options take \"--opt N\" or \"--opt=N\".\n"
    "Exit status: 0 written, 1 I/O failure, 2 bad option, parameter or output\n"
    "folder; on failure nothing is written.\n";

typedef struct {
    const char *option;   /* "--banks" */
    unsigned *value;      /* where the number goes */
} numeric_option;

typedef struct {
    const char *option;   /* "--tuner-mult" */
    const char *off;      /* the value that sets *value false (the default) */
    const char *on;       /* ... and true */
    bool *value;
} word_option;

/* "banks=3: must be ..." from the model -> "--banks 3: must be ...": the
 * message names the option the user typed. */
static void print_param_error(const char *message)
{
    const char *equals = strchr(message, '=');
    const char *colon = strchr(message, ':');
    if (!equals || !colon || equals > colon) {
        fprintf(stderr, "stcgen: %s\n", message);
        return;
    }
    fputs("stcgen: --", stderr);
    for (const char *cursor = message; cursor < equals; cursor++) {
        fputc(*cursor == '_' ? '-' : *cursor, stderr);
    }
    fprintf(stderr, " %s\n", equals + 1);
}

/* Does the argument need quoting to be read back by a POSIX shell? */
static bool shell_safe(const char *arg)
{
    if (!*arg) {
        return false;
    }
    for (const char *cursor = arg; *cursor; cursor++) {
        char c = *cursor;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  strchr("-_=.,/:+%@", c) != NULL;
        if (!ok) {
            return false;
        }
    }
    return true;
}

/* The command for the file headers: "stcgen" and the arguments as given,
 * less --out DIR and --force, which choose where the output goes and would
 * otherwise put a machine's paths into the files, and --summary, which
 * changes no file. */
static char *make_command(int argc, char **argv)
{
    size_t cap = 16;
    for (int index = 1; index < argc; index++) {
        cap += 4 * strlen(argv[index]) + 3;
    }
    char *command = malloc(cap);
    if (!command) {
        return NULL;
    }
    size_t len = (size_t)snprintf(command, cap, "stcgen");
    for (int index = 1; index < argc; index++) {
        const char *arg = argv[index];
        if (strcmp(arg, "--force") == 0 || strcmp(arg, "--summary") == 0 ||
            strncmp(arg, "--out=", 6) == 0) {
            continue;
        }
        if (strcmp(arg, "--out") == 0) {
            index++;
            continue;
        }
        command[len++] = ' ';
        if (shell_safe(arg)) {
            memcpy(command + len, arg, strlen(arg));
            len += strlen(arg);
        } else {
            command[len++] = '\'';
            for (const char *cursor = arg; *cursor; cursor++) {
                if (*cursor == '\'') {
                    memcpy(command + len, "'\\''", 4);
                    len += 4;
                } else {
                    command[len++] = *cursor;
                }
            }
            command[len++] = '\'';
        }
    }
    command[len] = '\0';
    return command;
}

/* --summary: what was written, and the tuner's cycle figures. */
static void print_summary(const stcgen_params *params, const char *out_dir, size_t files)
{
    printf("stcgen: %s: %zu files in %s\n", params->name, files, out_dir);
    if (params->coherence) {
        printf("coherence: %s tables, %s bus, %u-bit state codes, %u cores\n",
               stc_coh_protocol_name(params->coh_protocol),
               stc_coh_bus_model_name(params->coh_bus), params->coh_state_bits,
               params->coh_cores);
    }
    if (!params->tuner) {
        printf("tuner: not built\n");
        return;
    }
    if (stcgen_monitor_tuner(params)) {
        const stc_monitor_program *d_program = &params->monitor_program[0];
        printf("tuner: monitor (%u counts, %zu mappings), a decision every %u accesses, margin "
               "1/2^%u, walks after %u watched\n", params->monitor_counts, params->monitor_maps,
               params->monitor_window, params->monitor_margin, params->monitor_walk_min);
        printf("tuner: a decision takes %zu accesses (D-cache, %zu coefficients) or %zu "
               "(I-cache)\n", d_program->step_count, d_program->coefficient_count,
               params->monitor_program[1].step_count);
        return;
    }
    unsigned m = params->tuner_step_cycles;
    printf("tuner: %s multiplier (%u cycle%s per step), %zu coefficient %s, unit %g nJ\n",
           stcgen_tuner_mult_names[params->tuner_mult & 3], m, m == 1 ? "" : "s",
           params->tuner_coefs, params->tuner_const_coefs ? "constants" : "registers",
           params->tuner_nj_per_unit);
    printf("tuner: compute cycles per candidate %u (way prediction %u), longest search "
           "(%u configurations) %u compute cycles; seed: 164\n",
           3 + 3 * m, 3 + 5 * m, params->tuner_longest_candidates,
           params->tuner_longest_compute);
}

int main(int argc, char **argv)
{
    stcgen_params params;
    stcgen_params_default(&params);
    const char *out_dir = NULL;
    bool force = false;
    bool summary = false;
    numeric_option numeric[] = {
        {"--banks", &params.geometry.banks},
        {"--bank-bytes", &params.geometry.bank_bytes},
        {"--line-bytes", &params.geometry.line_bytes},
        {"--addr-bits", &params.geometry.addr_bits},
        {"--counter-bits", &params.counter_bits},
        {"--monitor-sample-bits", &params.monitor_sample_bits},
        {"--monitor-rotate", &params.monitor_rotate},
        {"--monitor-tag-bits", &params.monitor_tag_bits},
        {"--monitor-count-bits", &params.monitor_count_bits},
        {"--monitor-window", &params.monitor_window},
        {"--monitor-margin", &params.monitor_margin},
        {"--monitor-walk-min", &params.monitor_walk_min},
        {"--cores", &params.coh_cores},
    };
    const word_option words[] = {
        {"--tuner", "seed", "monitor", &params.tuner_monitor},
        {"--tuner-coeff", "regs", "const", &params.tuner_const_coefs},
        {"--tuner-regs", "full", "lean", &params.tuner_lean_regs},
        {"--tuner-triggers", "on", "off", &params.tuner_no_triggers},
    };

    for (int index = 1; index < argc; index++) {
        const char *arg = argv[index];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            fputs(usage_text, stdout);
            return 0;
        }
    }
    char err[ERR_LEN];
    for (int index = 1; index < argc; index++) {
        const char *arg = argv[index];
        const char *equals = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
        size_t name_len = equals ? (size_t)(equals - arg) : strlen(arg);
        if (strcmp(arg, "--no-way-prediction") == 0) {
            params.way_prediction = false;
            continue;
        }
        if (strcmp(arg, "--no-walk-moves") == 0) {
            params.walk_moves = false;
            continue;
        }
        if (strcmp(arg, "--no-tuner") == 0) {
            params.tuner = false;
            continue;
        }
        if (strcmp(arg, "--monitor") == 0) {
            params.monitor = true;
            continue;
        }
        if (strcmp(arg, "--force") == 0) {
            force = true;
            continue;
        }
        if (strcmp(arg, "--summary") == 0) {
            summary = true;
            continue;
        }
        /* Options with a value: "--opt VALUE" or "--opt=VALUE". */
        const char *value = NULL;
        bool is_out = name_len == strlen("--out") && strncmp(arg, "--out", name_len) == 0;
        bool is_fixed = name_len == strlen("--fixed") && strncmp(arg, "--fixed", name_len) == 0;
        bool is_break = name_len == strlen("--debug-break") &&
                        strncmp(arg, "--debug-break", name_len) == 0;
        bool is_mult = name_len == strlen("--tuner-mult") &&
                       strncmp(arg, "--tuner-mult", name_len) == 0;
        bool is_protocol = name_len == strlen("--protocol") &&
                           strncmp(arg, "--protocol", name_len) == 0;
        bool is_bus = name_len == strlen("--bus") && strncmp(arg, "--bus", name_len) == 0;
        bool takes_value = is_out || is_fixed || is_break || is_mult || is_protocol || is_bus;
        const word_option *word = NULL;
        for (size_t which = 0; which < sizeof words / sizeof words[0]; which++) {
            if (strlen(words[which].option) == name_len &&
                strncmp(arg, words[which].option, name_len) == 0) {
                word = &words[which];
                takes_value = true;
            }
        }
        numeric_option *number = NULL;
        for (size_t which = 0; which < sizeof numeric / sizeof numeric[0]; which++) {
            if (strlen(numeric[which].option) == name_len &&
                strncmp(arg, numeric[which].option, name_len) == 0) {
                number = &numeric[which];
                takes_value = true;
            }
        }
        if (!takes_value) {
            if (arg[0] == '-') {
                fprintf(stderr, "stcgen: unknown option '%s' (stcgen -h lists them)\n", arg);
            } else {
                fprintf(stderr, "stcgen: unexpected argument '%s' (stcgen takes only options)\n",
                        arg);
            }
            return EXIT_USAGE;
        }
        if (equals) {
            value = equals + 1;
        } else if (index + 1 < argc) {
            value = argv[++index];
        } else {
            fprintf(stderr, "stcgen: option %.*s needs a value\n", (int)name_len, arg);
            return EXIT_USAGE;
        }
        if (is_protocol) {
            if (stc_coh_protocol_parse(value, &params.coh_protocol, err, sizeof err) != 0) {
                fprintf(stderr, "stcgen: --protocol %s: %s\n", value, err);
                return EXIT_USAGE;
            }
            params.coherence = true;
            continue;
        }
        if (is_bus) {
            if (stc_coh_bus_model_parse(value, &params.coh_bus, err, sizeof err) != 0) {
                fprintf(stderr, "stcgen: --bus %s: %s\n", value, err);
                return EXIT_USAGE;
            }
            params.coh_bus_given = true;
            continue;
        }
        if (is_break && strncmp(value, STCGEN_COH_BREAK_PREFIX,
                                strlen(STCGEN_COH_BREAK_PREFIX)) == 0) {
            /* A broken protocol table (checked against --protocol in
             * stcgen_params_init). */
            params.coh_break = value;
            continue;
        }
        if (is_break) {
            /* Hidden test aid (ARCHITECTURE.md 14.1): a deliberately broken
             * controller for the lockstep harness to catch. */
            if (stcgen_debug_break_check(value, err, sizeof err) != 0) {
                fprintf(stderr, "stcgen: --debug-break %s: %s\n", value, err);
                return EXIT_USAGE;
            }
            params.debug_break = value;
            continue;
        }
        if (is_mult) {
            /* four values: STC_TUNER_MULT_* in the order of the names */
            unsigned mult = 0;
            while (mult < 4 && strcmp(value, stcgen_tuner_mult_names[mult]) != 0) {
                mult++;
            }
            if (mult == 4) {
                fprintf(stderr, "stcgen: --tuner-mult %s: must be array, serial, radix4 or "
                        "radix16\n", value);
                return EXIT_USAGE;
            }
            params.tuner_mult = mult;
            continue;
        }
        if (word) {
            if (strcmp(value, word->off) == 0) {
                *word->value = false;
            } else if (strcmp(value, word->on) == 0) {
                *word->value = true;
            } else {
                fprintf(stderr, "stcgen: %s %s: must be %s or %s\n", word->option, value,
                        word->off, word->on);
                return EXIT_USAGE;
            }
            continue;
        }
        if (!number) {
            if (!*value) {
                fprintf(stderr, "stcgen: option %s needs a value\n", is_out ? "--out" : "--fixed");
                return EXIT_USAGE;
            }
            if (is_out) {
                out_dir = value;
            } else {
                params.fixed = value;
            }
            continue;
        }
        uint64_t parsed = 0;
        if (stc_parse_count(value, &parsed) != 0) {
            fprintf(stderr, "stcgen: %s %s: not a decimal number\n", number->option, value);
            return EXIT_USAGE;
        }
        if (parsed > UINT32_MAX) {
            fprintf(stderr, "stcgen: %s %s: too large\n", number->option, value);
            return EXIT_USAGE;
        }
        *number->value = (unsigned)parsed;
        params.coh_cores_given = params.coh_cores_given || number->value == &params.coh_cores;
    }

    if (stcgen_params_init(&params, err, sizeof err) != 0) {
        print_param_error(err);
        return EXIT_USAGE;
    }
    char *command = make_command(argc, argv);
    if (!command) {
        fprintf(stderr, "stcgen: out of memory\n");
        return EXIT_IO;
    }
    params.command = command;

    const stcgen_file *files = NULL;
    size_t count = stcgen_files(&files);
    stcgen_text *texts = calloc(count, sizeof *texts);
    stcgen_output_file *outputs = calloc(count, sizeof *outputs);
    int status = 0;
    if (!texts || !outputs) {
        fprintf(stderr, "stcgen: out of memory\n");
        status = EXIT_IO;
    }
    size_t written_count = 0;
    for (size_t index = 0; status == 0 && index < count; index++) {
        stcgen_text_init(&texts[index], 2);
        if (!stcgen_file_wanted(&files[index], &params)) {
            continue;
        }
        files[index].emit(&texts[index], &files[index], &params);
        if (texts[index].failed) {
            fprintf(stderr, "stcgen: out of memory building %s\n", files[index].name);
            status = EXIT_IO;
            break;
        }
        outputs[written_count].name = files[index].name;
        outputs[written_count].data = texts[index].buf ? texts[index].buf : "";
        outputs[written_count].len = texts[index].len;
        written_count++;
    }

    char default_dir[STCGEN_NAME_MAX + 16];
    if (status == 0) {
        if (!out_dir) {
            snprintf(default_dir, sizeof default_dir, "rtl_out/%s", params.name);
            out_dir = default_dir;
        }
        stcgen_output_status written =
            stcgen_output_write(out_dir, force, outputs, written_count, err, sizeof err);
        if (written != STCGEN_OUTPUT_OK) {
            fprintf(stderr, "stcgen: %s\n", err);
            status = written == STCGEN_OUTPUT_REFUSED ? EXIT_USAGE : EXIT_IO;
        }
    }
    if (status == 0 && summary) {
        print_summary(&params, out_dir, written_count);
    }

    for (size_t index = 0; texts && index < count; index++) {
        stcgen_text_free(&texts[index]);
    }
    free(texts);
    free(outputs);
    free(command);
    return status;
}
