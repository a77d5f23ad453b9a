/*
 * operations.h - one operation, done by the model first (its memory
 * transactions recorded), then by the RTL cycle by cycle, then compared
 * (tb/README.md, "What one run does"). Each keeps the operation in the
 * history, counts its coverage and reports the first difference through
 * mismatch() (which does not return).
 */
#ifndef STC_TB_OPERATIONS_H
#define STC_TB_OPERATIONS_H

#include "config.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct harness harness;

/* One CPU request: a load, or a store of wdata with byte enables be, at
 * byte address addr (made word aligned). Compared: the response, hit or
 * miss, the serving bank, the way-prediction outcome, the latency (fixed
 * latency memory), the memory transactions, the rows of the logical line,
 * all counters; a load's word also against the shadow memory. A request
 * waiting in h->pending (offered with a configuration) is served here. */
void do_request(harness *h, bool we, uint64_t addr, unsigned be, uint32_t wdata);

/* do_request returns in the request's response cycle, before its edge, so
 * that the next request can be offered in it (a hit's response cycle
 * accepts it: ARCHITECTURE.md 15.3). Every other operation first calls
 * this: the edge with nothing offered, then the request's remaining
 * comparisons (rows, counters, coverage). Nothing if no request is open. */
void finish_request(harness *h);

/* A reconfiguration through the port to `next`; with illegal_fields (not
 * NULL) the raw log2 fields k a L wp of an illegal configuration are sent
 * instead and next is ignored. Waits first for 14.4's gap after the last
 * cfg_done_o. Compared: the cycles to cfg_done_o, the error flag, the
 * configuration outputs, the walk's writebacks, every row, all counters. */
void do_reconfig(harness *h, const stc_config *next, const unsigned *illegal_fields);

/* The top's tuner's change to `next` (tuner_side.h: the twin says the tuner
 * asks for it now): done by the model, and by the RTL with software's port
 * idle (its pins carrying other values) and any waiting request
 * (h->pending) offered; compared as above, with the port as the
 * multiplexer gives it to the tuner, the top's own cfg_ready_o, cfg_done_o,
 * cfg_err_o 0 throughout. With `software_waiting`, software's cfg_valid_i
 * is 1 for that configuration from the tuner's offer on and stays 1 until
 * the top accepts it after the tuner's change is done; then it is made as
 * do_reconfig makes a change (no gap: it must wake no bank). */
void do_tuner_reconfig(harness *h, const stc_config *next, const stc_config *software_waiting);

/* A counter clear (cnt_clear_i for one cycle); all counters compared. */
void do_clear(harness *h);

/* A maintenance operation (ARCHITECTURE.md 7.1: op 0-3, every line or the
 * line of byte address addr): done by the model, then offered on the RTL's
 * mnt_* port until accepted; compared: the cycles from acceptance to
 * mnt_done_o, the walk's writebacks, every row's state, all counters, and
 * after a clean of every line both memories against the shadow. A dirty
 * line an invalidation drops takes memory's bytes into the shadow (the
 * CPU's view of it is memory's from then on). */
void do_maintain(harness *h, unsigned op, bool all, uint64_t addr);

/* Empty the cache through its ports, then compare both memory images with
 * the shadow: go to the smallest configuration (the walk writes back what
 * the other banks hold) and read one line per row of bank 0 from a region
 * the traffic never writes (every dirty line of bank 0 is evicted); the
 * fixed baseline reads a cache-sized region instead. With `restore`, go
 * back to the configuration before. */
void checkpoint(harness *h, bool restore);

#endif
