/*
 * lockstep.c - run the generated cache top (Verilator, tb/dut.h) and the C
 * reference model (ref/cache.h) side by side and stop at the first
 * difference (docs/ARCHITECTURE.md sections 3-10 and 15; tb/README.md).
 *
 * Built once per generated geometry (tb/lockstep.mk): the geometry comes
 * from the generator's C header stc_geometry_gen.h.
 *
 * Every operation (a CPU request, a reconfiguration, a counter clear) is
 * done by the model first, recording the memory transactions it makes, then
 * by the RTL, cycle by cycle, against a C memory model. Compared:
 *   - per request: the response (read data, error), hit or miss, the serving
 *     bank, the way-prediction outcome, the latency (fixed-latency memory),
 *     every memory transaction (direction, line, length, data, order), the
 *     valid and dirty bits of the rows of the logical line, all 20 counters;
 *   - per reconfiguration: the cycles until cfg_done, the error flag, the
 *     new configuration, the walk's writebacks, every valid and dirty bit,
 *     all counters;
 *   - read data against a flat shadow memory of everything the CPU wrote,
 *     and at checkpoints (the cache emptied through its ports) both memory
 *     images against the shadow: no write lost, no stale read.
 *
 * This file: the options and the run (reset, stimuli, the final report).
 * The parts: harness.h (the run's state), stimuli.h and directed.h (what is
 * done), operations.h (one operation on both sides), model_side.h and
 * rtl_side.h (the two sides), compare.h, report.h, and below them rng.h,
 * memory_image.h, txn_log.h, variant.h.
 */
#include "compare.h"
#include "directed.h"
#include "harness.h"
#include "model_side.h"
#include "operations.h"
#include "report.h"
#include "rtl_side.h"
#include "stimuli.h"
#include "tuner_side.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char usage_text[] =
    "usage: lockstep [options]   (geometry " STC_GEN_NAME "%s%s)\n"
    "Run the generated RTL and the C model side by side; stop at the first mismatch.\n"
    "  --seed N             random seed (default 1)\n"
    "  --requests N         CPU requests (default 100000)\n"
    "  --reconfig-every N   a random reconfiguration every N requests on average (0: none)\n"
    "  --checkpoint-every N empty the cache and compare memory with the shadow every N\n"
    "  --clear-every N      clear the counters every N requests on average (0: never)\n"
    "  --clear-in-request N clear them inside a request (its accepting or response\n"
    "                       cycle) every N requests on average (random traffic; 0: never)\n"
    "  --maintain-every N   a random maintenance operation (clean, invalidate or both, of\n"
    "                       every line or one line) every N requests on average (0: none)\n"
    "  --locality P         percent of requests near the previous one (default 80)\n"
    "  --hot N              lines in the hot working set (default 512)\n"
    "  --writes P           percent stores (default 30)\n"
    "  --latency T          memory latency T_mem (default 20)\n"
    "  --ack-delay N        power switch acknowledge delay (default 0)\n"
    "  --random-memory      random latency, back-pressure and ack delays (cycles not compared)\n"
    "  --trace FILE         requests from a din or lackey trace instead of random traffic\n"
    "  --directed           the directed tests of each section first\n"
    "  --config NAME        start in this configuration\n"
    "  --tune WINDOW        the top's tuner searches, windows of WINDOW accesses (16..65535);\n"
    "                       compared every cycle with ref/tuner_hw.c and every window with\n"
    "                       the model's counters and ref/search.c (no --reconfig-every,\n"
    "                       --checkpoint-every or --random-memory with it)\n"
    "  --retune N           with --tune: a new search every N windows (default 0: one search)\n"
    "  --phase-threshold N  with --tune: a new search when a window's misses differ from\n"
    "                       the tuned window's by more than N (default 0: off)\n"
    "  --tune-coefs SEED    with --tune: write every coefficient register with the default\n"
    "                       times a factor 1/4..4 drawn from SEED before the first search\n"
    "  --contend N          with --tune (monitor tuner): every N-th change the tuner offers\n"
    "                       finds software's request to another configuration waiting on\n"
    "                       the port; it must wait for the tuner's change, then be applied\n"
    "  --wave FILE          write an FST waveform\n"
    "  --plain-eval         evaluate the RTL as --wave does (clock toggled, eval() at both\n"
    "                       edges), without a waveform: must report the same as without it\n"
    "  --expect-mismatch    exit 0 only if a mismatch is found (broken RTL)\n"
    "  --model-latency T, --model-wake N  give the model another T_mem or T_wake than\n"
    "                       the memory and switches have (a test of the harness: must fail)\n"
    "  --bench              print only the speed\n"
    "  --quiet              shorter report\n";

static int parse_number(const char *option, const char *text, uint64_t *value)
{
    char *end;
    errno = 0;
    if (!text || !*text || *text == '-') {
        fprintf(stderr, "lockstep: %s needs a non-negative number\n", option);
        return -1;
    }
    unsigned long long parsed = strtoull(text, &end, 10);
    if (errno || *end) {
        fprintf(stderr, "lockstep: %s %s: not a number\n", option, text);
        return -1;
    }
    *value = parsed;
    return 0;
}

/* Fill *opt from the command line. Returns -1 to run, else the exit status
 * (0 after -h, 2 on a bad option). */
static int parse_options(options *opt, int argc, char **argv)
{
    opt->seed = 1;
    opt->requests = 100000;
    opt->locality = 80;
    opt->hot_lines = 512;
    opt->writes = 30;
    opt->latency = 20;
    opt->clear_every = 0;
    opt->model_latency = UINT32_MAX;
    opt->model_wake = UINT32_MAX;
    for (int index = 1; index < argc; index++) {
        const char *arg = argv[index];
        const char *value = index + 1 < argc ? argv[index + 1] : NULL;
        uint64_t number = 0;
        struct {
            const char *name;
            uint64_t *wide;
            unsigned *narrow;
            uint64_t max;
        } numeric[] = {
            {"--seed", &opt->seed, NULL, UINT64_MAX},
            {"--requests", &opt->requests, NULL, UINT64_MAX},
            {"--reconfig-every", NULL, &opt->reconfig_every, 1u << 30},
            {"--checkpoint-every", NULL, &opt->checkpoint_every, 1u << 30},
            {"--clear-every", NULL, &opt->clear_every, 1u << 30},
            {"--clear-in-request", NULL, &opt->clear_in_request, 1u << 30},
            {"--maintain-every", NULL, &opt->maintain_every, 1u << 30},
            {"--locality", NULL, &opt->locality, 100},
            {"--hot", NULL, &opt->hot_lines, 1u << 20},
            {"--writes", NULL, &opt->writes, 100},
            {"--latency", NULL, &opt->latency, 1000},
            {"--ack-delay", NULL, &opt->ack_delay, 64},
            {"--model-latency", NULL, &opt->model_latency, 1000},
            {"--model-wake", NULL, &opt->model_wake, 1000},
            {"--tune", NULL, &opt->tune_window, 65535},
            {"--retune", NULL, &opt->retune, 65535},
            {"--phase-threshold", NULL, &opt->phase_threshold, 65535},
            {"--tune-coefs", &opt->tune_coef_seed, NULL, UINT64_MAX},
            {"--contend", NULL, &opt->contend, 65535},
        };
        bool matched = false;
        for (size_t which = 0; which < sizeof numeric / sizeof numeric[0]; which++) {
            if (strcmp(arg, numeric[which].name) == 0) {
                if (parse_number(arg, value, &number) != 0) {
                    return 2;
                }
                if (number > numeric[which].max) {
                    fprintf(stderr, "lockstep: %s %s: at most %" PRIu64 "\n", arg, value,
                            numeric[which].max);
                    return 2;
                }
                opt->tune = opt->tune || strcmp(arg, "--tune") == 0;
                if (numeric[which].wide) {
                    *numeric[which].wide = number;
                } else {
                    *numeric[which].narrow = (unsigned)number;
                }
                index++;
                matched = true;
            }
        }
        if (matched) {
            continue;
        }
        if (strcmp(arg, "--random-memory") == 0) {
            opt->random_memory = true;
        } else if (strcmp(arg, "--directed") == 0) {
            opt->directed = true;
        } else if (strcmp(arg, "--expect-mismatch") == 0) {
            opt->expect_mismatch = true;
        } else if (strcmp(arg, "--quiet") == 0) {
            opt->quiet = true;
        } else if (strcmp(arg, "--bench") == 0) {
            opt->bench = true;
        } else if (strcmp(arg, "--plain-eval") == 0) {
            opt->plain_eval = true;
        } else if ((strcmp(arg, "--trace") == 0 || strcmp(arg, "--wave") == 0 ||
                    strcmp(arg, "--config") == 0)) {
            if (!value) {
                fprintf(stderr, "lockstep: %s needs a value\n", arg);
                return 2;
            }
            if (arg[2] == 't') {
                opt->trace = value;
            } else if (arg[2] == 'w') {
                opt->wave = value;
            } else {
                opt->start_config = value;
            }
            index++;
        } else if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            printf(usage_text,
                   LOCKSTEP_PAIR_SIDE == 1   ? ", stc_cache_pair's I side: loads only, a trace's "
                                               "fetches"
                   : LOCKSTEP_PAIR_SIDE == 2 ? ", stc_cache_pair's D side: a trace's data references"
                   : LOCKSTEP_ICACHE         ? ", I-cache"
                                             : "",
                   LOCKSTEP_FIXED ? ", fixed " STC_GEN_RESET_CONFIG : "");
            return 0;
        } else {
            fprintf(stderr, "lockstep: unknown option '%s' (lockstep -h lists them)\n", arg);
            return 2;
        }
    }
    if (LOCKSTEP_PAIR_SIDE == 1) {
        opt->writes = 0; /* the pair's I side has no store port */
    }
    if (opt->latency == 0) {
        fprintf(stderr, "lockstep: --latency must be at least 1\n");
        return 2;
    }
    if (opt->tune && opt->tune_window < 16) {
        fprintf(stderr, "lockstep: --tune %u: a window of at least 16 accesses\n", opt->tune_window);
        return 2;
    }
    if (!opt->tune && (opt->retune || opt->phase_threshold || opt->tune_coef_seed || opt->contend)) {
        fprintf(stderr, "lockstep: --retune, --phase-threshold, --tune-coefs and --contend need "
                "--tune\n");
        return 2;
    }
    if (opt->tune && (opt->reconfig_every || opt->checkpoint_every || opt->random_memory)) {
        fprintf(stderr, "lockstep: --tune: the tuner owns the configuration and its energies "
                "need exact cycles: no --reconfig-every, --checkpoint-every or --random-memory\n");
        return 2;
    }
    return -1;
}

int main(int argc, char **argv)
{
    harness *h = calloc(1, sizeof *h);
    if (!h) {
        fprintf(stderr, "lockstep: out of memory\n");
        return 2;
    }
    options *opt = &h->opt;
    int status = parse_options(opt, argc, argv);
    if (status >= 0) {
        free(h);
        return status;
    }
    rng_seed(&h->rng, opt->seed);
    h->scramble_seed = opt->seed ^ 0x5eed;
    h->max_ack_delay =
        opt->random_memory ? (opt->ack_delay > 3 ? opt->ack_delay : 3) : opt->ack_delay;

    /* The model, with the generated geometry, this memory's latency and the
     * switch's wake time (section 14.4: ack delay + STC_GEN_WAKE_OVERHEAD). */
    char err[512];
    h->geometry = generated_geometry();
    h->geometry.mem_latency = opt->model_latency != UINT32_MAX ? opt->model_latency : opt->latency;
    h->geometry.wake_cycles = opt->model_wake != UINT32_MAX ? opt->model_wake
                                                            : STC_GEN_WAKE_CYCLES(opt->ack_delay);
    if (stc_geometry_init(&h->geometry, err, sizeof err) != 0) {
        fprintf(stderr, "lockstep: %s\n", err);
        return 2;
    }
    h->config_count = stc_config_enumerate(&h->geometry, h->configs, STC_MAX_CONFIGS);
#if !STC_GEN_WAY_PREDICTION
    {
        size_t kept = 0;
        for (size_t index = 0; index < h->config_count; index++) {
            if (!h->configs[index].way_predict) {
                h->configs[kept++] = h->configs[index];
            }
        }
        h->config_count = kept;
    }
#endif
    stc_config reset = stc_config_reset(&h->geometry);
    if (LOCKSTEP_FIXED &&
        stc_config_parse(&h->geometry, STC_GEN_RESET_CONFIG, &reset, err, sizeof err) != 0) {
        fprintf(stderr, "lockstep: the header's reset configuration %s: %s\n",
                STC_GEN_RESET_CONFIG, err);
        return 2;
    }
    stc_config start = reset;
    if (opt->start_config &&
        stc_config_parse(&h->geometry, opt->start_config, &start, err, sizeof err) != 0) {
        fprintf(stderr, "lockstep: --config %s: %s\n", opt->start_config, err);
        return 2;
    }
    image_init(&h->model_mem, "model");
    image_init(&h->rtl_mem, "RTL");
    image_init(&h->shadow, "shadow");
    stc_memory memory = {h, model_read_burst, model_write_burst};
    h->model = stc_cache_create(&h->geometry, LOCKSTEP_ICACHE ? STC_ICACHE : STC_DCACHE, &reset,
                                &memory, err, sizeof err);
    if (!h->model) {
        fprintf(stderr, "lockstep: %s\n", err);
        return 2;
    }
    /* The walk as generated: moving lines unless stcgen --no-walk-moves. */
    stc_cache_set_walk_moves(h->model, STC_GEN_WALK_MOVES != 0);
    h->rtl = dut_open(opt->wave, opt->plain_eval, h->geometry.tag_bits, err, sizeof err);
    if (!h->rtl) {
        fprintf(stderr, "lockstep: %s\n", err);
        return 2;
    }

    h->strobes = dut_strobes(h->rtl) >= 0;
    h->tune.on = opt->tune;
    h->tune.window = opt->tune_window;
    h->tune.retune = opt->retune;
    h->tune.threshold = opt->phase_threshold;
    h->tune.coef_seed = opt->tune_coef_seed;
    h->tune.contend = opt->contend;
    tuner_side_init(h);
    /* Reset: 3 cycles with rst_ni low; banks all on, acknowledged. */
    h->pins.rst_n = 0;
    h->ack = (uint32_t)((1ull << BANKS) - 1);
    h->pwr_en_prev = h->ack;
    for (unsigned index = 0; index < 3; index++) {
        rtl_cycle_settle(h);
        rtl_cycle_edge(h);
    }
    h->pins.rst_n = 1;
    h->initialising = true; /* until wait_row_state_init: both sides initialise */
    uint64_t released = h->cycle;
    tuner_side_after_reset(h);
    wait_row_state_init(h, released);
    idle_cycles(h, 2);
    compare_counters(h, "after reset");
    compare_rows(h, 0, ROWS, UINT32_MAX, "after reset");
    compare_config(h, "after reset");

    h->config_at = config_index(h, &reset);
    clock_t begin = clock();
    stimuli_init(h);
    if (!stc_config_equal(&start, &reset)) {
        do_reconfig(h, &start, NULL);
    }
    if (opt->directed) {
        run_directed(h);
    }
    tuner_side_start(h);
    if (opt->trace) {
        run_trace(h);
    } else {
        run_random(h);
    }
    finish_request(h);
    tuner_side_finish(h);
    if (opt->checkpoint_every || opt->reconfig_every || opt->tune) {
        checkpoint(h, false); /* the end: memory equals the shadow */
    } else {
        compare_counter_port(h, "the end");
    }
    double seconds = (double)(clock() - begin) / CLOCKS_PER_SEC;
    dut_close(h->rtl);
    if (opt->expect_mismatch) {
        printf("lockstep: FAIL: no mismatch found in %" PRIu64 " requests, but the RTL is broken\n",
               h->requests);
        return 1;
    }
    if (opt->bench) {
        printf("lockstep bench (%s): %" PRIu64 " requests in %.2f s CPU: %.0f requests/s "
               "(%.2f M cycles/s)\n",
               STC_GEN_NAME, h->requests, seconds, (double)h->requests / seconds,
               (double)h->cycle / seconds / 1e6);
    } else {
        report_coverage(h, seconds);
    }
    stc_cache_destroy(h->model);
    monitor_side_free(h);
    free(h);
    return 0;
}
