/* count.h - reading a count from a command-line option. */
#ifndef STC_COUNT_H
#define STC_COUNT_H

#include <stdint.h>

/* Parse a decimal count: digits only, no sign, no spaces, no overflow.
 * Returns 0, or -1 (value untouched) for anything else. */
int stc_parse_count(const char *text, uint64_t *value);

#endif
