/* txn_log.c - the memory transaction logs (txn_log.h). */
#include "txn_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

transaction *log_push(txn_log *log)
{
    if (log->count == log->cap) {
        size_t cap = log->cap ? 2 * log->cap : 64;
        transaction *items = realloc(log->items, cap * sizeof *items);
        if (!items) {
            fprintf(stderr, "lockstep: out of memory\n");
            exit(2);
        }
        log->items = items;
        log->cap = cap;
    }
    transaction *t = &log->items[log->count++];
    memset(t, 0, sizeof *t);
    return t;
}
