/*
 * memory_image.h - a sparse flat memory of the whole address space
 * (2^STC_GEN_ADDR_BITS bytes).
 *
 * Pages are made on first write; bytes never written read as the memory's
 * initial contents, a hash of the word address (pattern_byte). The harness
 * keeps three: the model's memory, the RTL's memory and the shadow (what
 * the CPU wrote, applied directly).
 */
#ifndef STC_TB_MEMORY_IMAGE_H
#define STC_TB_MEMORY_IMAGE_H

#include <stdint.h>

typedef struct {
    const char *name;   /* for reports: "model", "RTL", "shadow" */
    uint8_t **pages;    /* page_count pages of PAGE_BYTES, NULL = never written */
    uint64_t page_count;
} memory_image;

/* An empty image (every byte its initial contents); exits on no memory. */
void image_init(memory_image *image, const char *name);

/* The initial contents of byte `addr`. */
uint8_t pattern_byte(uint64_t addr);

/* Reads and writes; addresses wrap at the address width, words are
 * little-endian and write32 writes the bytes whose bit in `be` is set. */
uint8_t image_read8(const memory_image *image, uint64_t addr);
uint32_t image_read32(const memory_image *image, uint64_t addr);
void image_write8(memory_image *image, uint64_t addr, uint8_t value);
void image_write32(memory_image *image, uint64_t addr, uint32_t value, unsigned be);

#endif
