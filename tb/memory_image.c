/* memory_image.c - a sparse flat memory (memory_image.h). */
#include "memory_image.h"

#include "variant.h"

#include <stdio.h>
#include <stdlib.h>

/* The memory's initial contents: a hash of the word address. */
static uint32_t pattern_word(uint64_t word)
{
    uint64_t z = word * 0x9e3779b97f4a7c15ull + 0x5a5a5a5a;
    z = (z ^ (z >> 29)) * 0xbf58476d1ce4e5b9ull;
    return (uint32_t)(z ^ (z >> 32));
}

void image_init(memory_image *image, const char *name)
{
    image->name = name;
    image->page_count = ((uint64_t)1 << STC_GEN_ADDR_BITS) >> PAGE_BITS;
    if (image->page_count == 0) {
        image->page_count = 1;
    }
    image->pages = calloc(image->page_count, sizeof *image->pages);
    if (!image->pages) {
        fprintf(stderr, "lockstep: out of memory\n");
        exit(2);
    }
}

uint8_t pattern_byte(uint64_t addr)
{
    return (uint8_t)(pattern_word(addr >> 2) >> (8 * (addr & 3)));
}

static uint8_t *image_page(memory_image *image, uint64_t addr)
{
    uint64_t page = (addr & STC_GEN_ADDR_MASK) >> PAGE_BITS;
    if (!image->pages[page]) {
        uint8_t *data = malloc(PAGE_BYTES);
        if (!data) {
            fprintf(stderr, "lockstep: out of memory\n");
            exit(2);
        }
        for (unsigned byte = 0; byte < PAGE_BYTES; byte++) {
            data[byte] = pattern_byte((page << PAGE_BITS) + byte);
        }
        image->pages[page] = data;
    }
    return image->pages[page];
}

uint8_t image_read8(const memory_image *image, uint64_t addr)
{
    addr &= STC_GEN_ADDR_MASK;
    const uint8_t *page = image->pages[addr >> PAGE_BITS];
    return page ? page[addr & (PAGE_BYTES - 1)] : pattern_byte(addr);
}

uint32_t image_read32(const memory_image *image, uint64_t addr)
{
    uint32_t word = 0;
    for (unsigned byte = 0; byte < 4; byte++) {
        word |= (uint32_t)image_read8(image, addr + byte) << (8 * byte);
    }
    return word;
}

void image_write8(memory_image *image, uint64_t addr, uint8_t value)
{
    image_page(image, addr)[addr & (PAGE_BYTES - 1)] = value;
}

void image_write32(memory_image *image, uint64_t addr, uint32_t value, unsigned be)
{
    for (unsigned byte = 0; byte < 4; byte++) {
        if (be >> byte & 1) {
            image_write8(image, addr + byte, (uint8_t)(value >> (8 * byte)));
        }
    }
}
