/*
 * ref_pipeline.h - a trace read ahead on a second thread, its batches
 * shared with a worker on a third.
 *
 * Parsing text and simulating caches take comparable time, and a machine
 * has more than one core: a thread that parses keeps a few batches of
 * references ready while the caller simulates. The two caches of a pair are
 * independent, so their simulations can run side by side as well: an
 * optional worker sees every batch too, on its own thread (stcsim gives it
 * the I-cache and keeps the D-cache).
 *
 *   reading thread:  read + prepare batch 1, 2, 3, ...  (stc_trace_read)
 *   caller:                      use batch 1, 2, 3, ...  (stc_ref_pipeline_next)
 *   worker thread:               use batch 1, 2, 3, ...  (the worker function)
 *
 * The caller and the worker each see every batch, whole and in trace
 * order, exactly the batches stc_trace_read would return to a loop asking
 * for batch_refs references at a time (at most `limit` in all): results
 * cannot depend on the threads, provided the caller and the worker touch
 * disjoint state. A batch's slot is reused only once both are done with
 * it, so at most STC_REF_PIPELINE_SLOTS batches are held.
 *
 * Work both need from a batch (stcsim's repeat filter) is done once, on the
 * reading thread, by the optional prepare function: it writes whatever it
 * derives into the caller's own per-slot storage (slot 0 ..
 * STC_REF_PIPELINE_SLOTS - 1), which the caller and the worker then read
 * through the slot number they are given with the batch.
 *
 * If a thread cannot be created the pipeline does not fail: the caller's
 * thread does that thread's part inside stc_ref_pipeline_next (reads the
 * batch, or calls the worker on it before returning it). Same results,
 * one core.
 *
 * A trace error (a bad line, damaged compressed input) ends the stream
 * after the references before it, as stc_trace_read does: next returns
 * -1, and after stc_ref_pipeline_finish the message is the trace's
 * (stc_trace_error). The trace is only read by the pipeline between start
 * and finish.
 */
#ifndef STC_REF_PIPELINE_H
#define STC_REF_PIPELINE_H

#include "trace.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { STC_REF_PIPELINE_SLOTS = 4 };

/* Called on the worker's thread with every batch, in order. */
typedef void stc_batch_worker(void *context, unsigned slot, const stc_ref *refs, size_t count);

/* Called on the reading thread with every batch just read, in order,
 * before the caller or the worker sees it. */
typedef void stc_batch_prepare(void *context, unsigned slot, const stc_ref *refs, size_t count);

typedef struct {
    stc_trace *trace;
    size_t batch_refs;          /* references per batch, >= 1 */
    uint64_t limit;             /* stop after this many references; 0: no limit */
    stc_batch_prepare *prepare; /* NULL: nothing to prepare */
    void *prepare_context;
    stc_batch_worker *worker;   /* NULL: no worker */
    void *worker_context;
    bool threads;               /* false: everything on the caller's thread */
} stc_ref_pipeline_spec;

typedef struct stc_ref_pipeline stc_ref_pipeline;

/* Start reading. Returns NULL with a message in err only when out of
 * memory. */
stc_ref_pipeline *stc_ref_pipeline_start(const stc_ref_pipeline_spec *spec, char *err,
                                         size_t err_len);

/* The next batch for the caller: its count (>= 1) with *refs pointing at
 * its references and *slot its slot, both valid until the next call; 0 at
 * the end of the trace (or of the limit); -1 after a trace error. 0 and -1
 * repeat on later calls. */
long stc_ref_pipeline_next(stc_ref_pipeline *pipeline, const stc_ref **refs, unsigned *slot);

/* After the end of the trace (next returned 0 or -1): wait until the
 * worker has seen every batch, stop the threads and free the pipeline
 * (NULL is ignored). Call it before reading the worker's results or the
 * trace's error. Finishing before the end stops reading and the worker at
 * once: the worker has then seen only some of the batches, possibly none. */
void stc_ref_pipeline_finish(stc_ref_pipeline *pipeline);

/* How many threads of its own the pipeline runs: 0, 1 (reading) or 2
 * (reading and the worker). For tests and the benchmark's report. */
unsigned stc_ref_pipeline_threads(const stc_ref_pipeline *pipeline);

#endif
