/*
 * monitor.h - the tuner's miss monitor: sampled shadow tags that give the
 * counters of every configuration from the same accesses
 * (docs/TUNING.md section 8).
 *
 * Why: a tuner that tries candidates one after another measures each in a
 * different part of the program, and real programs drift between windows
 * by more than the configurations differ (TUNING.md 6). The monitor
 * watches one stream and estimates all configurations at once.
 *
 * How: a configuration's misses depend on its set mapping (g = banks_on /
 * ways set groups of R / s rows each, with logical lines of s physical
 * lines) and on its ways. For each (g, s) the geometry allows, the
 * monitor keeps LRU stacks of B / g logical-line tags for a sample of the
 * sets and counts hits by depth: under LRU an a-way cache of that mapping
 * hits exactly the accesses found at depth < a (the stack property), and
 * way prediction's first probe hits exactly those at depth 0. Dirtiness is
 * kept per physical line and per depth, so the writebacks of every a come
 * out too.
 *
 * Sampling: an access is watched if address bits [lo, lo + sample_bits)
 * are zero, with lo = log2(line_bytes * 4) (the widest logical line).
 * Those bits lie inside the set index of every mapping, so each watched
 * set sees all of its lines and its stack is exact; 1 / 2^sample_bits of
 * the sets of every mapping are watched. sample_bits is at most
 * log2(bank_bytes) - lo.
 */
#ifndef STC_MONITOR_H
#define STC_MONITOR_H

#include "config.h"
#include "counters.h"
#include "geometry.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct stc_monitor stc_monitor;

/* Largest sample_bits the geometry allows: the set-index bits every
 * mapping shares (0 if there are none: then every access is watched). */
unsigned stc_monitor_max_sample_bits(const stc_geometry *geometry);

/* A monitor with empty stacks. Returns NULL with a message if sample_bits
 * is above stc_monitor_max_sample_bits. */
stc_monitor *stc_monitor_create(const stc_geometry *geometry, unsigned sample_bits, char *err,
                                size_t err_len);
void stc_monitor_destroy(stc_monitor *monitor);

/* One access to the physical line holding addr (a request split at
 * physical-line boundaries is one call per piece); write: it stores. */
void stc_monitor_observe(stc_monitor *monitor, uint64_t addr, bool write);

/* Watched accesses since creation or the last decay. */
uint64_t stc_monitor_watched(const stc_monitor *monitor);

/* What config would have counted on the watched accesses, as the cache
 * model counts them in steady state: accesses, misses, first_probe_hits
 * (way prediction), writebacks, fills and bursts (one burst of the whole
 * logical line per miss), and cycles (probes, miss and writeback memory
 * and controller cycles). config must be legal for the geometry. */
void stc_monitor_estimate(const stc_monitor *monitor, const stc_config *config,
                          stc_counters *estimate);

/* Halve every count (shift right by `shift`), keeping the stacks: the
 * estimate then weighs recent accesses more. shift 0 does nothing. */
void stc_monitor_decay(stc_monitor *monitor, unsigned shift);

#endif
