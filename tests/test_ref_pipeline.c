/*
 * test_ref_pipeline.c - the read-ahead pipeline (ref/ref_pipeline.h) hands
 * the caller and the worker exactly the batches a plain stc_trace_read loop
 * gets, in order, with and without threads, with and without a worker and
 * a prepare step, for several limits; a prepared slot is ready before
 * either reader sees its batch; a bad line ends the stream after the
 * references before it with the trace's own message; finishing early stops
 * without a hang. Runs under ASan and UBSan in `make unit` like the rest.
 */
#include "check.h"
#include "scratch.h"
#include "ref_pipeline.h"
#include "trace.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TRACE_REFS = 50021, BATCH = 1000, MAX_BATCHES = TRACE_REFS / 7 + 8 };

/* What one reader saw: per batch its length and a checksum of its refs. */
typedef struct {
    size_t batches;
    size_t counts[MAX_BATCHES];
    uint64_t sums[MAX_BATCHES];
    size_t unprepared; /* batches whose slot did not hold their prepared mark */
} seen;

typedef struct {
    uint64_t prepared_batch[STC_REF_PIPELINE_SLOTS]; /* batch number + 1 */
    size_t prepared;
    bool with_prepare;
    seen worker;
} shared;

static uint64_t checksum(const stc_ref *refs, size_t count)
{
    uint64_t sum = 1469598103934665603ULL;
    for (size_t index = 0; index < count; index++) {
        sum = (sum ^ refs[index].addr) * 1099511628211ULL;
        sum = (sum ^ (refs[index].size << 2 | refs[index].kind)) * 1099511628211ULL;
    }
    return sum;
}

static void note(seen *reader, const shared *state, unsigned slot, const stc_ref *refs, size_t count)
{
    if (reader->batches < MAX_BATCHES) {
        reader->counts[reader->batches] = count;
        reader->sums[reader->batches] = checksum(refs, count);
    }
    if (state->with_prepare && state->prepared_batch[slot] != reader->batches + 1) {
        reader->unprepared++;
    }
    reader->batches++;
}

static void prepare(void *context, unsigned slot, const stc_ref *refs, size_t count)
{
    shared *state = context;
    (void)refs;
    (void)count;
    state->prepared_batch[slot] = ++state->prepared;
}

static void worker(void *context, unsigned slot, const stc_ref *refs, size_t count)
{
    shared *state = context;
    note(&state->worker, state, slot, refs, count);
}

static void write_trace(const char *path, size_t bad_line)
{
    FILE *file = fopen(path, "w");
    if (!file) {
        perror(path);
        exit(EXIT_FAILURE);
    }
    size_t line = 0;
    for (uint64_t index = 0; index < TRACE_REFS; index++) {
        if (index % 97 == 0) {
            fprintf(file, "# comment\n");
            line++;
        }
        if (++line == bad_line) {
            fprintf(file, "7 1234\n");
        }
        fprintf(file, "%u %" PRIx64 " %u\n", (unsigned)(index % 3), index * 0x9E3779B1u,
                (unsigned)(1 + index % 8));
    }
    fclose(file);
}

/* The batches of a plain read loop: the reference for every pipeline. */
static void read_plainly(const char *path, uint64_t limit, seen *out, char *error, size_t error_len)
{
    static stc_ref refs[BATCH];
    char err[512];
    memset(out, 0, sizeof *out);
    stc_trace *trace = stc_trace_open(path, STC_TRACE_AUTO, err, sizeof err);
    CHECK(trace != NULL, "open: %s", err);
    uint64_t total = 0;
    long got = 0;
    for (;;) {
        size_t want = BATCH;
        if (limit && limit - total < want)
            want = (size_t)(limit - total);
        if (want == 0 || (got = stc_trace_read(trace, refs, want)) <= 0)
            break;
        total += (uint64_t)got;
        if (out->batches < MAX_BATCHES) {
            out->counts[out->batches] = (size_t)got;
            out->sums[out->batches] = checksum(refs, (size_t)got);
        }
        out->batches++;
    }
    snprintf(error, error_len, "%s", got < 0 ? stc_trace_error(trace) : "");
    stc_trace_close(trace, err, sizeof err);
}

static void compare(const seen *got, const seen *want, const char *what)
{
    CHECK_EQ_U64(got->batches, want->batches, "%s: batches", what);
    size_t wrong = 0;
    for (size_t index = 0; index < got->batches && index < want->batches && index < MAX_BATCHES; index++) {
        wrong += got->counts[index] != want->counts[index] || got->sums[index] != want->sums[index];
    }
    CHECK_EQ_U64(wrong, 0, "%s: batches that differ", what);
    CHECK_EQ_U64(got->unprepared, 0, "%s: batches seen before their prepare step", what);
}

static void run_pipeline(const char *path, uint64_t limit, bool threads, bool with_worker,
                         bool with_prepare, const char *what)
{
    static seen want, caller;
    static shared state;
    char want_error[1024], err[512];
    read_plainly(path, limit, &want, want_error, sizeof want_error);
    memset(&caller, 0, sizeof caller);
    memset(&state, 0, sizeof state);
    state.with_prepare = with_prepare;
    stc_trace *trace = stc_trace_open(path, STC_TRACE_AUTO, err, sizeof err);
    stc_ref_pipeline_spec spec = {
        .trace = trace,
        .batch_refs = BATCH,
        .limit = limit,
        .prepare = with_prepare ? prepare : NULL,
        .prepare_context = &state,
        .worker = with_worker ? worker : NULL,
        .worker_context = &state,
        .threads = threads,
    };
    stc_ref_pipeline *pipeline = stc_ref_pipeline_start(&spec, err, sizeof err);
    CHECK(pipeline != NULL, "%s: start: %s", what, err);
    if (!pipeline) {
        stc_trace_close(trace, err, sizeof err);
        return;
    }
    CHECK(stc_ref_pipeline_threads(pipeline) == (threads ? 1u + with_worker : 0u),
          "%s: %u threads", what, stc_ref_pipeline_threads(pipeline));
    const stc_ref *refs;
    unsigned slot;
    long got;
    while ((got = stc_ref_pipeline_next(pipeline, &refs, &slot)) > 0) {
        CHECK(slot < STC_REF_PIPELINE_SLOTS, "%s: slot %u", what, slot);
        note(&caller, &state, slot, refs, (size_t)got);
    }
    CHECK(stc_ref_pipeline_next(pipeline, &refs, &slot) == got, "%s: the end repeats", what);
    stc_ref_pipeline_finish(pipeline);
    CHECK(got == (want_error[0] ? -1 : 0), "%s: ended with %ld", what, got);
    CHECK(strcmp(stc_trace_error(trace), want_error) == 0, "%s: error \"%s\" want \"%s\"", what,
          stc_trace_error(trace), want_error);
    stc_trace_close(trace, err, sizeof err);
    compare(&caller, &want, what);
    if (with_worker) {
        char worker_what[256];
        snprintf(worker_what, sizeof worker_what, "%s, the worker", what);
        compare(&state.worker, &want, worker_what);
    }
}

static void test_early_finish(const char *path, bool threads)
{
    char err[512];
    static shared state;
    memset(&state, 0, sizeof state);
    stc_trace *trace = stc_trace_open(path, STC_TRACE_AUTO, err, sizeof err);
    stc_ref_pipeline_spec spec = {trace, BATCH, 0, prepare, &state, worker, &state, threads};
    stc_ref_pipeline *pipeline = stc_ref_pipeline_start(&spec, err, sizeof err);
    const stc_ref *refs;
    unsigned slot;
    CHECK(stc_ref_pipeline_next(pipeline, &refs, &slot) == BATCH, "early finish: first batch");
    CHECK(stc_ref_pipeline_next(pipeline, &refs, &slot) == BATCH, "early finish: second batch");
    stc_ref_pipeline_finish(pipeline); /* must return: the reader may be waiting for a slot */
    /* On its own thread the worker stops at once, having seen some of the
     * batches read (none, if it had not been scheduled yet); on the
     * caller's, exactly the two the caller took. */
    if (threads) {
        CHECK(state.worker.batches <= 2 + STC_REF_PIPELINE_SLOTS,
              "early finish: the worker saw %zu batches", state.worker.batches);
    } else {
        CHECK(state.worker.batches == 2, "early finish, one thread: the worker saw %zu batches",
              state.worker.batches);
    }
    stc_trace_close(trace, err, sizeof err);
    stc_ref_pipeline_finish(NULL);
}

int main(void)
{
    scratch space;
    if (!scratch_open(&space, "/tmp/stc-test-pipeline.XXXXXX")) {
        return EXIT_FAILURE;
    }
    int fds_at_start = count_open_fds();
    char good[256], bad[256], what[256];
    write_trace(path_in(&space, "good.din", good, sizeof good), 0);
    write_trace(path_in(&space, "bad.din", bad, sizeof bad), 23456);
    static const uint64_t limits[] = {0, 1, BATCH, 12345, TRACE_REFS, TRACE_REFS + 5};
    for (size_t limit = 0; limit < sizeof limits / sizeof limits[0]; limit++) {
        for (unsigned mode = 0; mode < 8; mode++) {
            bool threads = mode & 1, with_worker = mode & 2, with_prepare = mode & 4;
            snprintf(what, sizeof what, "limit %" PRIu64 ", %s threads, %s worker, %s prepare",
                     limits[limit], threads ? "with" : "without", with_worker ? "a" : "no",
                     with_prepare ? "a" : "no");
            run_pipeline(good, limits[limit], threads, with_worker, with_prepare, what);
        }
    }
    for (unsigned mode = 0; mode < 8; mode++) {
        snprintf(what, sizeof what, "bad line, mode %u", mode);
        run_pipeline(bad, 0, mode & 1, mode & 2, mode & 4, what);
    }
    run_pipeline(bad, 1000, true, true, true, "bad line beyond the limit");
    test_early_finish(good, true);
    test_early_finish(good, false);

    /* Standard input (read through the trace's buffer, not mapped). */
    int saved = dup(STDIN_FILENO);
    int file = open(good, O_RDONLY);
    CHECK(saved >= 0 && file >= 0 && dup2(file, STDIN_FILENO) >= 0, "stdin from %s", good);
    close(file);
    static seen from_file, from_stdin;
    static shared state;
    char err[512];
    read_plainly(good, 0, &from_file, err, sizeof err);
    stc_trace *trace = stc_trace_open("-", STC_TRACE_AUTO, err, sizeof err);
    stc_ref_pipeline_spec spec = {trace, BATCH, 0, NULL, NULL, worker, &state, true};
    stc_ref_pipeline *pipeline = stc_ref_pipeline_start(&spec, err, sizeof err);
    const stc_ref *refs;
    unsigned slot;
    long got;
    while ((got = stc_ref_pipeline_next(pipeline, &refs, &slot)) > 0) {
        note(&from_stdin, &state, slot, refs, (size_t)got);
    }
    stc_ref_pipeline_finish(pipeline);
    stc_trace_close(trace, err, sizeof err);
    restore_stdin(saved);
    compare(&from_stdin, &from_file, "standard input");
    compare(&state.worker, &from_file, "standard input, the worker");

    scratch_remove(&space);
    CHECK_EQ_U64(count_open_fds(), fds_at_start, "open file descriptors after all tests");
    return check_done("test_ref_pipeline");
}
