/*
 * counter_fields.h - a struct whose members are all uint64_t counters,
 * reached by index through a table of (name, offset) entries: how the
 * coherent model (coherent.c) and the snoop filter (snoop_filter.c) name,
 * read, total and add their counters without one line per counter each.
 * Each user keeps its table beside its struct and asserts that the table
 * names every member (sizeof struct == count x sizeof(uint64_t)).
 */
#ifndef STC_COUNTER_FIELDS_H
#define STC_COUNTER_FIELDS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    const char *name; /* the member's name, as the JSON prints it */
    size_t offset;    /* offsetof(struct, member) */
} stc_counter_field;

/* A table entry for member of type. */
#define STC_COUNTER_FIELD(type, member) {#member, offsetof(type, member)}

static inline uint64_t stc_counter_field_get(const void *counters, const stc_counter_field *field)
{
    uint64_t value;
    memcpy(&value, (const char *)counters + field->offset, sizeof value);
    return value;
}

static inline void stc_counter_field_set(void *counters, const stc_counter_field *field,
                                         uint64_t value)
{
    memcpy((char *)counters + field->offset, &value, sizeof value);
}

/* sum += part, member by member, over count fields. */
static inline void stc_counter_fields_add(void *sum, const void *part,
                                          const stc_counter_field *fields, size_t count)
{
    for (size_t index = 0; index < count; index++) {
        stc_counter_field_set(sum, &fields[index],
                              stc_counter_field_get(sum, &fields[index]) +
                                  stc_counter_field_get(part, &fields[index]));
    }
}

#endif
