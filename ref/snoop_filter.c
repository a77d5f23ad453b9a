/* snoop_filter.c - the exclude snoop filter (the contract is snoop_filter.h). */
#include "snoop_filter.h"

#include "counter_fields.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t group; /* block number / blocks */
    uint64_t stamp; /* last use; larger = more recent */
    uint8_t absent; /* bit i: block i of the group known absent; 0 = free entry */
} sf_entry;

struct stc_sf {
    stc_sf_config config;
    uint32_t block_shift; /* log2(blocks) */
    sf_entry *entries;    /* [set][way] */
    uint64_t clock;
    stc_sf_counters counters;
};

/* ------------------------------------------------------------ counters */

#define COUNTER(name) STC_COUNTER_FIELD(stc_sf_counters, name)
static const stc_counter_field counter_list[STC_SF_COUNTER_COUNT] = {
    COUNTER(snoops_filtered),
    COUNTER(snoop_misses),
    COUNTER(filter_lookups),
    COUNTER(filter_writes),
};
#undef COUNTER
_Static_assert(sizeof(stc_sf_counters) == STC_SF_COUNTER_COUNT * sizeof(uint64_t),
               "counter_list must name every counter");

const char *stc_sf_counter_name(unsigned index)
{
    return index < STC_SF_COUNTER_COUNT ? counter_list[index].name : "?";
}

uint64_t stc_sf_counter_value(const stc_sf_counters *counters, unsigned index)
{
    return index < STC_SF_COUNTER_COUNT ? stc_counter_field_get(counters, &counter_list[index]) : 0;
}

void stc_sf_counters_add(stc_sf_counters *sum, const stc_sf_counters *part)
{
    stc_counter_fields_add(sum, part, counter_list, STC_SF_COUNTER_COUNT);
}

/* ------------------------------------------------------------ configuration */

static bool is_power_of_two(uint64_t x)
{
    return x && !(x & (x - 1));
}

static unsigned log2_ceil(uint64_t x)
{
    unsigned bits = 0;
    while ((1ull << bits) < x)
        bits++;
    return bits;
}

/* Why config is not a valid filter, or NULL. */
static const char *check_reason(const stc_sf_config *config)
{
    if (config->kind == STC_SF_NONE)
        return NULL;
    if (config->kind != STC_SF_EXCLUDE)
        return "unknown kind";
    if (!is_power_of_two(config->sets) || config->sets > STC_SF_MAX_SETS)
        return "sets must be a power of two, 1..4096";
    if (config->ways < 1 || config->ways > STC_SF_MAX_WAYS)
        return "ways must be 1..16";
    if (!is_power_of_two(config->blocks) || config->blocks > STC_SF_MAX_BLOCKS)
        return "blocks per entry must be 1, 2, 4 or 8";
    if (config->broken != STC_SF_SOUND && config->broken != STC_SF_BREAK_KEEP_ON_FILL)
        return "unknown break";
    return NULL;
}

int stc_sf_check(const stc_sf_config *config, char *err, size_t err_len)
{
    const char *why = check_reason(config);
    if (!why)
        return 0;
    if (err && err_len)
        snprintf(err, err_len, "snoop filter %ux%u:%u: %s", config->sets, config->ways,
                 config->blocks, why);
    return -1;
}

/* A decimal number from text up to (not including) stop; -1 if none. */
static int parse_number(const char *text, const char *stop, uint32_t *value)
{
    if (text == stop || stop - text > 6)
        return -1;
    uint32_t v = 0;
    for (const char *p = text; p < stop; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        v = v * 10 + (uint32_t)(*p - '0');
    }
    *value = v;
    return 0;
}

int stc_sf_parse(const char *text, stc_sf_config *config, char *err, size_t err_len)
{
    stc_sf_config parsed = {.kind = STC_SF_EXCLUDE, .sets = STC_SF_DEFAULT_SETS,
                            .ways = STC_SF_DEFAULT_WAYS, .blocks = STC_SF_DEFAULT_BLOCKS};
    const char *why = "expected none, exclude or exclude:SETSxWAYS[:BLOCKS]";
    if (!strcmp(text, "none")) {
        *config = (stc_sf_config){.kind = STC_SF_NONE};
        return 0;
    }
    if (strncmp(text, "exclude", 7) != 0 || (text[7] != '\0' && text[7] != ':'))
        goto bad;
    if (text[7] == ':') {
        const char *sets = text + 8;
        parsed.blocks = 1; /* unless given */
        const char *x = strchr(sets, 'x');
        if (!x || parse_number(sets, x, &parsed.sets) != 0)
            goto bad;
        const char *ways = x + 1;
        const char *colon = strchr(ways, ':');
        const char *end = colon ? colon : ways + strlen(ways);
        if (parse_number(ways, end, &parsed.ways) != 0)
            goto bad;
        if (colon && parse_number(colon + 1, colon + 1 + strlen(colon + 1), &parsed.blocks) != 0)
            goto bad;
    }
    why = check_reason(&parsed);
    if (!why) {
        *config = parsed;
        return 0;
    }
bad:
    if (err && err_len)
        snprintf(err, err_len, "'%s': %s", text, why);
    return -1;
}

void stc_sf_describe(const stc_sf_config *config, char *text, size_t len)
{
    if (config->kind == STC_SF_NONE)
        snprintf(text, len, "none");
    else
        snprintf(text, len, "exclude %ux%u, %u block%s per entry", config->sets, config->ways,
                 config->blocks, config->blocks == 1 ? "" : "s");
}

void stc_sf_row_bits(const stc_sf_config *config, unsigned line_bytes, unsigned addr_bits,
                     unsigned *row_bits, unsigned *tag_bits, unsigned *lru_bits)
{
    unsigned index = log2_ceil(line_bytes) + log2_ceil(config->blocks) + log2_ceil(config->sets);
    unsigned tag = addr_bits > index ? addr_bits - index : 0;
    unsigned lru = config->ways * log2_ceil(config->ways);
    *tag_bits = tag;
    *lru_bits = lru;
    *row_bits = config->ways * (tag + config->blocks) + lru;
}

/* ------------------------------------------------------------ the filter */

stc_sf *stc_sf_create(const stc_sf_config *config)
{
    if (config->kind != STC_SF_EXCLUDE || check_reason(config))
        return NULL;
    stc_sf *filter = calloc(1, sizeof *filter);
    if (!filter)
        return NULL;
    filter->config = *config;
    filter->block_shift = log2_ceil(config->blocks);
    filter->entries = calloc((size_t)config->sets * config->ways, sizeof *filter->entries);
    if (!filter->entries) {
        free(filter);
        return NULL;
    }
    return filter;
}

void stc_sf_destroy(stc_sf *filter)
{
    if (!filter)
        return;
    free(filter->entries);
    free(filter);
}

static sf_entry *set_of(stc_sf *filter, uint64_t group)
{
    return filter->entries + (size_t)(group & (filter->config.sets - 1)) * filter->config.ways;
}

/* The entry of group (a valid one), or NULL. */
static sf_entry *find_entry(stc_sf *filter, uint64_t group)
{
    sf_entry *set = set_of(filter, group);
    for (uint32_t w = 0; w < filter->config.ways; w++)
        if (set[w].absent && set[w].group == group)
            return &set[w];
    return NULL;
}

static uint8_t block_bit(const stc_sf *filter, uint64_t block)
{
    return (uint8_t)(1u << (block & (filter->config.blocks - 1)));
}

bool stc_sf_snoop(stc_sf *filter, uint64_t block)
{
    filter->counters.filter_lookups++;
    sf_entry *entry = find_entry(filter, block >> filter->block_shift);
    if (!entry || !(entry->absent & block_bit(filter, block)))
        return false;
    entry->stamp = ++filter->clock;
    if (filter->config.ways > 1)
        filter->counters.filter_writes++; /* the set's LRU bits */
    filter->counters.snoops_filtered++;
    return true;
}

void stc_sf_probe_missed(stc_sf *filter, uint64_t block)
{
    filter->counters.snoop_misses++;
    filter->counters.filter_writes++;
    uint64_t group = block >> filter->block_shift;
    sf_entry *entry = find_entry(filter, group);
    if (!entry) {
        /* the lowest-numbered free way, else the least recently used */
        sf_entry *set = set_of(filter, group);
        entry = &set[0];
        for (uint32_t w = 0; w < filter->config.ways; w++) {
            if (!set[w].absent) {
                entry = &set[w];
                break;
            }
            if (set[w].stamp < entry->stamp)
                entry = &set[w];
        }
        entry->group = group;
        entry->absent = 0;
    }
    entry->absent |= block_bit(filter, block);
    entry->stamp = ++filter->clock;
}

void stc_sf_fill(stc_sf *filter, uint64_t block)
{
    filter->counters.filter_lookups++;
    sf_entry *entry = find_entry(filter, block >> filter->block_shift);
    uint8_t bit = block_bit(filter, block);
    if (!entry || !(entry->absent & bit) || filter->config.broken == STC_SF_BREAK_KEEP_ON_FILL)
        return;
    entry->absent &= (uint8_t)~bit; /* no bit left: the entry is free */
    filter->counters.filter_writes++;
}

const stc_sf_counters *stc_sf_counters_of(const stc_sf *filter)
{
    return &filter->counters;
}

_Noreturn void stc_sf_abort_unsafe(const stc_sf_config *config, uint64_t reference,
                                   unsigned requester, const char *bus_name, uint64_t block_addr,
                                   unsigned core, const char *state_name)
{
    char filter[80];
    stc_sf_describe(config, filter, sizeof filter);
    fprintf(stderr,
            "stc coherent: snoop filter unsafe (%s): reference %llu, core %u's %s of block "
            "0x%llx filtered out at core %u, which holds it in %s\n",
            filter, (unsigned long long)reference, requester, bus_name,
            (unsigned long long)block_addr, core, state_name);
    abort();
}
