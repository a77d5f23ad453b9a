/*
 * soc.h - the example SoC's memory map and helpers for its programs
 *
 * Peripheral region (stc_soc.v, uncached, D side only):
 *   0x1000_0000  I-cache registers (stc_cache_apb; stc_cache_regs.h)
 *   0x1000_1000  D-cache registers
 *   0x1000_2000  console: TX (0x0), EXIT (0x4), CYCLES (0x8)
 * Uncached window (D side): 0x2000_0000 + a is memory address a, past the
 * D-cache (SOC_UNCACHED).
 * Console output goes through picolibc's stdout (soc.c). Lines starting
 * with '#' are informational: soc/run.sh leaves them out when it compares
 * the run with caches against the run without (they may show counters,
 * configurations or cycles, which differ between the two).
 */
#ifndef SOC_H
#define SOC_H

#include <stdint.h>

#include "stc_cache_regs.h"

#define SOC_ICACHE_BASE  0x10000000u
#define SOC_DCACHE_BASE  0x10001000u
#define SOC_CONSOLE_BASE 0x10002000u

#define SOC_CONSOLE_TX     (*(volatile uint32_t *)(SOC_CONSOLE_BASE + 0x0u))
#define SOC_CONSOLE_EXIT   (*(volatile uint32_t *)(SOC_CONSOLE_BASE + 0x4u))
#define SOC_CONSOLE_CYCLES (*(volatile uint32_t *)(SOC_CONSOLE_BASE + 0x8u))

#ifndef SOC_HOST
/* The D side's uncached window (stc_soc.v): the same memory, past the
 * D-cache (through stc_cache_obi's uncached port). */
#define SOC_UNCACHED(p) ((uintptr_t)(p) | 0x20000000u)

/* 1 if the cache register block at base answers with an stc cache's ID
 * (the reference system without caches reads 0 there). */
static inline int soc_have_cache(uint32_t base)
{
    return STC_FIELD_GET(STC_CACHE_REG(base, STC_REG_ID), STC_REG_ID_MAGIC) == STC_CACHE_REGS_MAGIC;
}

/* A configuration (CONFIG's packing) as stcsim names it, e.g. 8K_4W_16B. */
void soc_config_name(uint32_t config, char *buf, unsigned len);

/* Stop: write EXIT, then ebreak (the testbench ends the run there). */
void _exit(int code) __attribute__((noreturn));
#else
/* The same programs built for the host (soc/run.sh's check of the core):
 * no caches, no registers, no uncached window; printf and exit are the
 * host's. */
#define SOC_UNCACHED(p) ((uintptr_t)(p))
static inline int soc_have_cache(uint32_t base)
{
    (void)base;
    return 0;
}
static inline void soc_config_name(uint32_t config, char *buf, unsigned len)
{
    (void)config;
    (void)buf;
    (void)len;
}
#endif

#endif
