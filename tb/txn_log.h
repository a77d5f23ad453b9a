/*
 * txn_log.h - memory transactions as the harness records them.
 *
 * The model's transactions (its stc_memory callbacks) and the RTL's (the
 * memory port, beat by beat) go into one log each; after every operation
 * the two logs are compared entry by entry and emptied.
 */
#ifndef STC_TB_TXN_LOG_H
#define STC_TB_TXN_LOG_H

#include "variant.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One burst. */
typedef struct {
    bool we;
    uint64_t line;  /* physical line address (byte address >> offset bits) */
    unsigned lines; /* physical lines in the burst */
    unsigned words; /* words transferred so far */
    uint32_t data[MAX_BURST_WORDS];
} transaction;

/* The transactions of the current operation, oldest first. */
typedef struct {
    transaction *items;
    size_t count, cap;
} txn_log;

/* A new zeroed transaction at the end of the log (exits on no memory). The
 * pointer is valid until the next log_push. */
transaction *log_push(txn_log *log);

#endif
