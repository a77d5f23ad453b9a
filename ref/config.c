/* config.c - legality, names and enumeration of cache configurations. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *stc_config_check(const stc_geometry *geometry, const stc_config *config)
{
    if (!stc_is_power_of_two(config->banks_on) || config->banks_on > geometry->banks) {
        return "the number of powered banks must be a power of two no larger than the bank count";
    }
    if (!stc_is_power_of_two(config->ways) || config->ways > config->banks_on) {
        return "the associativity must be a power of two no larger than the powered banks";
    }
    if (config->sublines != 1 && config->sublines != 2 && config->sublines != 4) {
        return "the logical line must be 1, 2 or 4 physical lines";
    }
    if (config->way_predict && config->ways < 2) {
        return "way prediction needs an associativity of at least 2";
    }
    return NULL;
}

stc_config stc_config_reset(const stc_geometry *geometry)
{
    stc_config config = {geometry->banks, geometry->banks, 1, false};
    return config;
}

static void format_bytes(unsigned long bytes, char *buf, size_t buf_len)
{
    if (bytes >= 1024 && bytes % 1024 == 0) {
        snprintf(buf, buf_len, "%luK", bytes / 1024);
    } else {
        snprintf(buf, buf_len, "%luB", bytes);
    }
}

void stc_config_name(const stc_geometry *geometry, const stc_config *config, char *buf,
                     size_t buf_len)
{
    char size[24];
    format_bytes(stc_config_size_bytes(geometry, config), size, sizeof size);
    snprintf(buf, buf_len, "%s_%uW_%uB%s", size, config->ways,
             stc_config_line_bytes(geometry, config), config->way_predict ? "_P" : "");
}

/* Parse a decimal number followed by an optional K multiplier. */
static int parse_size(const char *text, size_t len, unsigned long *bytes)
{
    unsigned long value = 0;
    size_t pos = 0;
    if (len == 0) {
        return -1;
    }
    while (pos < len && text[pos] >= '0' && text[pos] <= '9') {
        if (value > 100000000UL) {
            return -1;
        }
        value = value * 10 + (unsigned long)(text[pos] - '0');
        pos++;
    }
    if (pos == 0) {
        return -1;
    }
    if (pos + 1 == len && (text[pos] == 'K' || text[pos] == 'k')) {
        value *= 1024;
    } else if (pos + 1 == len && (text[pos] == 'B' || text[pos] == 'b')) {
        /* plain bytes */
    } else if (pos != len) {
        return -1;
    }
    *bytes = value;
    return 0;
}

int stc_config_parse(const stc_geometry *geometry, const char *name, stc_config *config, char *err,
                     size_t err_len)
{
    /* SIZE "_" WAYS "W" "_" LINE "B" [ "_P" ] */
    const char *fields[4];
    size_t lengths[4];
    size_t count = 0;
    const char *cursor = name;
    while (count < 4) {
        const char *underscore = strchr(cursor, '_');
        fields[count] = cursor;
        lengths[count] = underscore ? (size_t)(underscore - cursor) : strlen(cursor);
        count++;
        if (!underscore) {
            break;
        }
        cursor = underscore + 1;
    }
    size_t consumed = count - 1;
    for (size_t field = 0; field < count; field++) {
        consumed += lengths[field];
    }
    /* Fields beyond the fourth leave unconsumed characters. */
    bool syntax_ok = (count == 3 || count == 4) && consumed == strlen(name);
    if (count == 4 && !(lengths[3] == 1 && (fields[3][0] == 'P' || fields[3][0] == 'p'))) {
        syntax_ok = false;
    }
    unsigned long size_bytes = 0, ways = 0, line = 0;
    if (syntax_ok) {
        syntax_ok = parse_size(fields[0], lengths[0], &size_bytes) == 0 && lengths[1] >= 2 &&
                    (fields[1][lengths[1] - 1] == 'W' || fields[1][lengths[1] - 1] == 'w') &&
                    parse_size(fields[1], lengths[1] - 1, &ways) == 0 && lengths[2] >= 2 &&
                    (fields[2][lengths[2] - 1] == 'B' || fields[2][lengths[2] - 1] == 'b') &&
                    parse_size(fields[2], lengths[2] - 1, &line) == 0;
    }
    if (!syntax_ok) {
        snprintf(err, err_len,
                 "configuration '%s': expected SIZE_WAYSW_LINEB[_P], e.g. 8K_4W_32B or 8K_2W_16B_P",
                 name);
        return -1;
    }
    if (size_bytes % geometry->bank_bytes != 0 || size_bytes == 0) {
        snprintf(err, err_len, "configuration '%s': size %lu B is not a whole number of %u-byte banks",
                 name, size_bytes, geometry->bank_bytes);
        return -1;
    }
    if (line % geometry->line_bytes != 0 || line == 0) {
        snprintf(err, err_len,
                 "configuration '%s': line %lu B is not 1, 2 or 4 physical lines of %u B", name,
                 line, geometry->line_bytes);
        return -1;
    }
    stc_config parsed = {(unsigned)(size_bytes / geometry->bank_bytes), (unsigned)ways,
                         (unsigned)(line / geometry->line_bytes), count == 4};
    const char *rule = stc_config_check(geometry, &parsed);
    if (rule) {
        snprintf(err, err_len, "configuration '%s' is illegal for %u banks of %u B: %s", name,
                 geometry->banks, geometry->bank_bytes, rule);
        return -1;
    }
    *config = parsed;
    return 0;
}

size_t stc_config_enumerate(const stc_geometry *geometry, stc_config *out, size_t max)
{
    size_t total = 0;
    for (unsigned banks_on = 1; banks_on <= geometry->banks; banks_on *= 2) {
        for (unsigned ways = 1; ways <= banks_on; ways *= 2) {
            for (unsigned sublines = 1; sublines <= STC_MAX_SUBLINES; sublines *= 2) {
                for (int predict = 0; predict <= (ways > 1 ? 1 : 0); predict++) {
                    if (total < max) {
                        stc_config config = {banks_on, ways, sublines, predict != 0};
                        out[total] = config;
                    }
                    total++;
                }
            }
        }
    }
    return total;
}
