/*
 * main.c - mc-kernels: run one of the traced kernels and write its
 * multi-core trace on stdout (traces/mc/README.md). Not instrumented.
 */
#include "tracer.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const mct_kernel *const kernels[] = {
    &mct_k_lock, &mct_k_queue,   &mct_k_packed,    &mct_k_padded,
    &mct_k_matmul, &mct_k_stencil, &mct_k_migratory,
};
enum { KERNEL_COUNT = sizeof kernels / sizeof kernels[0] };

static const char usage_text[] =
    "usage: mc-kernels KERNEL [options] > TRACE\n"
    "       mc-kernels --list\n"
    "Run KERNEL's threads one at a time under a deterministic turn-based scheduler\n"
    "and write every load and store of the kernel's code as a multi-core trace\n"
    "record \"CORE LABEL HEXADDR SIZE\" (core = thread index, label 0 read, 1 write)\n"
    "on stdout. Same command, same bytes.\n"
    "\n"
    "      --threads N          1..8 (default 4)\n"
    "      --size S             the kernel's size parameter (default: the kernel's)\n"
    "      --quantum Q          accesses per turn (default 1)\n"
    "      --seed X             0 (default): the turn goes round robin, Q accesses\n"
    "                           each; else the next thread is drawn from a PRNG\n"
    "                           seeded with X, each turn 1..2Q-1 accesses\n"
    "      --max-records M      stop with an error beyond M records (default 50000000)\n"
    "      --list               the kernels, their sizes and expected sharing\n"
    "  -h, --help               this text\n"
    "Exit status: 0 trace written and the kernel's result right, 1 error, 2 bad usage.\n";

static int usage_error(const char *fmt, const char *what)
{
    fprintf(stderr, "mc-kernels: ");
    fprintf(stderr, fmt, what);
    fprintf(stderr, "\n(mc-kernels --help for usage)\n");
    return 2;
}

static int parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *value)
{
    if (!text || *text < '0' || *text > '9')
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end || v < min || v > max)
        return -1;
    *value = v;
    return 0;
}

int main(int argc, char **argv)
{
    const mct_kernel *kernel = NULL;
    mct_params params = {.threads = 4, .size = 0};
    mct_schedule schedule = {.quantum = 1, .seed = 0, .max_records = 50000000, .fd = 1};
    uint64_t size = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        uint64_t v;
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(usage_text, stdout);
            return 0;
        }
        if (!strcmp(arg, "--list")) {
            for (unsigned k = 0; k < KERNEL_COUNT; k++)
                printf("%-10s default size %-6lu %s\n", kernels[k]->name,
                       kernels[k]->default_size, kernels[k]->summary);
            return 0;
        }
        if (!strcmp(arg, "--threads") || !strcmp(arg, "--size") || !strcmp(arg, "--quantum") ||
            !strcmp(arg, "--seed") || !strcmp(arg, "--max-records")) {
            if (i + 1 >= argc)
                return usage_error("%s needs a value", arg);
            const char *text = argv[++i];
            if (!strcmp(arg, "--threads")) {
                if (parse_u64(text, 1, MCT_MAX_THREADS, &v))
                    return usage_error("--threads '%s': must be 1..8", text);
                params.threads = (unsigned)v;
            } else if (!strcmp(arg, "--size")) {
                if (parse_u64(text, 1, UINT32_MAX, &size))
                    return usage_error("--size '%s': must be a positive number", text);
            } else if (!strcmp(arg, "--quantum")) {
                if (parse_u64(text, 1, 1000000, &v))
                    return usage_error("--quantum '%s': must be 1..1000000", text);
                schedule.quantum = (unsigned)v;
            } else if (!strcmp(arg, "--seed")) {
                if (parse_u64(text, 0, UINT64_MAX, &schedule.seed))
                    return usage_error("--seed '%s': must be a decimal number", text);
            } else {
                if (parse_u64(text, 1, UINT64_MAX, &schedule.max_records))
                    return usage_error("--max-records '%s': must be a positive number", text);
            }
            continue;
        }
        if (arg[0] == '-')
            return usage_error("unknown option '%s'", arg);
        if (kernel)
            return usage_error("one kernel only ('%s' is a second one)", arg);
        for (unsigned k = 0; k < KERNEL_COUNT; k++)
            if (!strcmp(arg, kernels[k]->name))
                kernel = kernels[k];
        if (!kernel)
            return usage_error("unknown kernel '%s' (mc-kernels --list shows them)", arg);
    }
    if (!kernel)
        return usage_error("%s", "no kernel given");
    params.size = size ? (unsigned long)size : kernel->default_size;
    if (params.size > kernel->max_size) {
        char text[32];
        snprintf(text, sizeof text, "%lu", kernel->max_size);
        return usage_error("--size: at most %s for this kernel", text);
    }
    if (isatty(1)) {
        fprintf(stderr, "mc-kernels: stdout is a terminal; redirect the trace to a file or pipe\n");
        return 2;
    }

    char err[512];
    uint64_t records = 0;
    if (mct_run(kernel, &params, &schedule, &records, err, sizeof err) != 0) {
        fprintf(stderr, "mc-kernels: %s: %s\n", kernel->name, err);
        return 1;
    }
    return 0;
}
