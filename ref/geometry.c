/* geometry.c - validation and derived widths of a cache geometry. */
#include "geometry.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void stc_geometry_default(stc_geometry *geometry)
{
    memset(geometry, 0, sizeof *geometry);
    geometry->banks = 4;
    geometry->bank_bytes = 2048;
    geometry->line_bytes = 16;
    geometry->addr_bits = 32;
    geometry->mem_latency = 20;
    geometry->wake_cycles = 4;
}

int stc_geometry_init(stc_geometry *geometry, char *err, size_t err_len)
{
    if (!stc_is_power_of_two(geometry->banks) || geometry->banks > STC_MAX_BANKS) {
        snprintf(err, err_len, "banks=%u: must be a power of two from 1 to %d", geometry->banks,
                 STC_MAX_BANKS);
        return -1;
    }
    if (!stc_is_power_of_two(geometry->line_bytes) || geometry->line_bytes < STC_WORD_BYTES) {
        snprintf(err, err_len, "line_bytes=%u: must be a power of two of at least %d",
                 geometry->line_bytes, STC_WORD_BYTES);
        return -1;
    }
    if (!stc_is_power_of_two(geometry->bank_bytes)) {
        snprintf(err, err_len, "bank_bytes=%u: must be a power of two", geometry->bank_bytes);
        return -1;
    }
    /* The largest logical line (4 physical lines) must fit in one bank,
     * because a logical line never spans banks. */
    if (geometry->bank_bytes < geometry->line_bytes * STC_MAX_SUBLINES) {
        snprintf(err, err_len,
                 "bank_bytes=%u: must hold at least %d physical lines of %u bytes (the largest "
                 "logical line)",
                 geometry->bank_bytes, STC_MAX_SUBLINES, geometry->line_bytes);
        return -1;
    }
    if (geometry->addr_bits < 8 || geometry->addr_bits > 64) {
        snprintf(err, err_len, "addr_bits=%u: must be from 8 to 64", geometry->addr_bits);
        return -1;
    }
    unsigned bank_shift = stc_log2(geometry->bank_bytes);
    unsigned bank_bits = stc_log2(geometry->banks);
    /* Every configuration must keep at least one tag bit, and the bank-select
     * bits of the largest direct-mapped cache must be address bits. */
    if (geometry->addr_bits <= bank_shift + bank_bits) {
        snprintf(err, err_len,
                 "addr_bits=%u: must exceed log2(bank_bytes)+log2(banks)=%u so every "
                 "configuration keeps a tag bit",
                 geometry->addr_bits, bank_shift + bank_bits);
        return -1;
    }
    if (geometry->mem_latency > 1000000) {
        snprintf(err, err_len, "mem_latency=%u: must be at most 1000000", geometry->mem_latency);
        return -1;
    }
    if (geometry->wake_cycles > 1000000) {
        snprintf(err, err_len, "wake_cycles=%u: must be at most 1000000", geometry->wake_cycles);
        return -1;
    }
    geometry->rows = geometry->bank_bytes / geometry->line_bytes;
    geometry->offset_bits = stc_log2(geometry->line_bytes);
    geometry->row_bits = stc_log2(geometry->rows);
    geometry->bank_shift = bank_shift;
    geometry->bank_bits = bank_bits;
    geometry->tag_bits = geometry->addr_bits - bank_shift;
    geometry->beats_per_line = geometry->line_bytes / STC_WORD_BYTES;
    geometry->addr_mask =
        geometry->addr_bits == 64 ? UINT64_MAX : ((uint64_t)1 << geometry->addr_bits) - 1;
    return 0;
}

int stc_geometry_set(stc_geometry *geometry, const char *assignment, char *err, size_t err_len)
{
    static const struct {
        const char *name;
        size_t offset;
    } fields[] = {
        {"banks", offsetof(stc_geometry, banks)},
        {"bank_bytes", offsetof(stc_geometry, bank_bytes)},
        {"line_bytes", offsetof(stc_geometry, line_bytes)},
        {"addr_bits", offsetof(stc_geometry, addr_bits)},
        {"mem_latency", offsetof(stc_geometry, mem_latency)},
        {"wake_cycles", offsetof(stc_geometry, wake_cycles)},
    };
    const char *equals = strchr(assignment, '=');
    if (!equals) {
        snprintf(err, err_len, "geometry '%s': expected name=value", assignment);
        return -1;
    }
    size_t name_len = (size_t)(equals - assignment);
    for (size_t field = 0; field < sizeof fields / sizeof fields[0]; field++) {
        if (strlen(fields[field].name) != name_len ||
            strncmp(fields[field].name, assignment, name_len) != 0) {
            continue;
        }
        const char *text = equals + 1;
        char *end = NULL;
        errno = 0;
        unsigned long value = strtoul(text, &end, 10);
        if (*text < '0' || *text > '9' || *end != '\0' || errno != 0 || value > 0xffffffffUL) {
            snprintf(err, err_len, "%s=%s: not a decimal number", fields[field].name, text);
            return -1;
        }
        *(unsigned *)((char *)geometry + fields[field].offset) = (unsigned)value;
        return 0;
    }
    snprintf(err, err_len,
             "geometry parameter '%.*s' unknown (banks, bank_bytes, line_bytes, addr_bits, "
             "mem_latency, wake_cycles)",
             (int)name_len, assignment);
    return -1;
}

int stc_geometry_parse(stc_geometry *geometry, const char *list, char *err, size_t err_len)
{
    char item[128];
    const char *cursor = list;
    while (*cursor) {
        const char *comma = strchr(cursor, ',');
        size_t len = comma ? (size_t)(comma - cursor) : strlen(cursor);
        if (len == 0 || len >= sizeof item) {
            snprintf(err, err_len, "geometry '%s': empty or overlong item", list);
            return -1;
        }
        memcpy(item, cursor, len);
        item[len] = '\0';
        if (stc_geometry_set(geometry, item, err, err_len) != 0) {
            return -1;
        }
        cursor += len + (comma ? 1 : 0);
        if (comma && !*cursor) {
            snprintf(err, err_len, "geometry '%s': trailing comma", list);
            return -1;
        }
    }
    return stc_geometry_init(geometry, err, err_len);
}
