/*
 * directed.h - the directed tests (--directed, before the random part),
 * one block per section of ARCHITECTURE.md: 3-4 every configuration with
 * tag-bit aliases, 5 replacement order, 6 partly present logical lines, 7
 * every ordered pair of legal configurations with a dirty cache, 8 way
 * prediction, 9 counter clears, 12 the lowest and highest addresses, then
 * a checkpoint (tb/README.md, "Stimuli").
 */
#ifndef STC_TB_DIRECTED_H
#define STC_TB_DIRECTED_H

typedef struct harness harness;

void run_directed(harness *h);

#endif
