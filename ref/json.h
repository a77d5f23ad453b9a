/* json.h - the one piece of JSON writing the tools share. */
#ifndef STC_JSON_H
#define STC_JSON_H

/* Print text to stdout as a JSON string, quotes included, escaping what JSON
 * requires (quote, backslash, control characters). */
void stc_json_print_string(const char *text);

#endif
