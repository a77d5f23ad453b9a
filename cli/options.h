/*
 * options.h - what stcsim's commands (cli/) share in reading a command line:
 * the statuses of a parse, how an argument is classified, and the parsing
 * of an option's value with the error message a user sees.
 *
 * Every message goes to stderr as one line "PROGRAM: MESSAGE\n", PROGRAM
 * being the command as the user typed it ("stcsim", "stcsim tune", ...).
 * The texts below are part of the interface: tests/cli-errors.sh,
 * tests/explore-cli.sh and tests/coherence-cli.sh check them.
 *
 * Nothing here keeps state: each function works on its arguments alone.
 */
#ifndef STC_CLI_OPTIONS_H
#define STC_CLI_OPTIONS_H

#include "trace.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

/* What a command's option parser returns; STC_CLI_BAD_USAGE is also the
 * exit status of bad usage. */
enum {
    STC_CLI_PARSED = 0,     /* go on and run */
    STC_CLI_HELP_SHOWN = 1, /* --help printed the usage: exit 0 */
    STC_CLI_BAD_USAGE = 2   /* a message was printed: exit 2 */
};

/* ---- Messages --------------------------------------------------------- */

/* Print "PROGRAM: MESSAGE\n" on stderr, MESSAGE formatted from fmt as by
 * printf. */
void stc_cli_message(const char *program, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void stc_cli_vmessage(const char *program, const char *fmt, va_list args);

/* stc_cli_message, then return STC_CLI_BAD_USAGE. */
int stc_cli_usage_error(const char *program, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* After the report is printed: flush stdout. Returns 0, or 1 after
 * "PROGRAM: error writing the report" when stdout failed (a full disk, a
 * closed pipe), so a truncated report never exits 0. */
int stc_cli_finish_report(const char *program);

/* ---- Classifying an argument ------------------------------------------ */

/* arg is short_name (e.g. "-g"; NULL when the option has none) or
 * long_name ("--geometry"). */
bool stc_cli_is_option(const char *arg, const char *short_name, const char *long_name);

/* arg is -h or --help. */
bool stc_cli_is_help(const char *arg);

/* arg is an operand (a trace), not an option: it does not begin with '-',
 * or it is "-" alone (standard input). */
bool stc_cli_is_operand(const char *arg);

/* arg is one of names, a NULL-terminated list. */
bool stc_cli_is_one_of(const char *arg, const char *const *names);

/* The value of the option argv[*index], which must be one of `valued` (the
 * command's options that take a value; NULL-terminated). Returns
 * STC_CLI_PARSED with *value = argv[*index + 1] and *index moved onto it;
 * or STC_CLI_BAD_USAGE after
 *   "PROGRAM: unknown option 'ARG' (see --help)"      not in `valued`,
 *   "PROGRAM: option ARG needs a value (see --help)"  the last argument. */
int stc_cli_option_value(const char *program, const char *const *valued, int argc, char **argv,
                         int *index, const char **value);

/* ---- Reading a command line ------------------------------------------ */

/* A command's command line, for stc_cli_parse. The callbacks get the
 * caller's context (the command's options) back. */
typedef struct {
    const char *program;       /* what every message begins with */
    const char *usage_text;    /* printed on stdout for -h, --help */
    const char *const *valued; /* the options that take a value, NULL-terminated */
    /* The flag (an option without a value) that arg names, or NULL when it
     * names none. */
    bool *(*flag)(void *context, const char *arg);
    /* An operand (a trace), and an option of `valued` with its value: each
     * returns STC_CLI_PARSED or STC_CLI_BAD_USAGE after a message. */
    int (*operand)(void *context, const char *arg);
    int (*option)(void *context, const char *option, const char *value);
} stc_cli_grammar;

/* Read argv[1] .. argv[argc - 1] in order: -h or --help prints usage_text
 * and returns STC_CLI_HELP_SHOWN at once; a flag is set to true; an operand
 * (stc_cli_is_operand) goes to `operand`; any other argument takes the next
 * one as its value (stc_cli_option_value, with its messages) and both go to
 * `option`. Returns STC_CLI_PARSED once every argument is taken, else the
 * first status that was not STC_CLI_PARSED. */
int stc_cli_parse(const stc_cli_grammar *grammar, void *context, int argc, char **argv);

/* ---- Option values ---------------------------------------------------- */

/* The error of a value an option does not take: prints
 * "PROGRAM: OPTION 'TEXT': expected EXPECTED" and returns
 * STC_CLI_BAD_USAGE. */
int stc_cli_bad_value(const char *program, const char *option, const char *text,
                      const char *expected);

/* A decimal count (stc_parse_count: digits only, no sign, no overflow)
 * from min to max. Returns 0 with *value set, or -1 (*value untouched)
 * without a message. */
int stc_cli_count_in_range(const char *text, uint64_t min, uint64_t max, uint64_t *value);

/* stc_cli_count_in_range with the message: returns STC_CLI_PARSED, or
 * stc_cli_bad_value(program, option, text, expected). */
int stc_cli_count_option(const char *program, const char *option, const char *text, uint64_t min,
                         uint64_t max, const char *expected, uint64_t *value);

/* text as one of choices (NULL-terminated): *choice is its index. Returns
 * STC_CLI_PARSED, or STC_CLI_BAD_USAGE after
 * "PROGRAM: OPTION 'TEXT': expected A, B or C", the choices in order. */
int stc_cli_choice_option(const char *program, const char *option, const char *text,
                          const char *const *choices, int *choice);

/* --limit N: a positive number of references. Returns STC_CLI_PARSED, or
 * STC_CLI_BAD_USAGE after
 * "PROGRAM: --limit 'TEXT': expected a positive number of references". */
int stc_cli_limit_option(const char *program, const char *text, uint64_t *limit);

/* -f, --format FMT: a trace format (stc_trace_format_parse). Returns
 * STC_CLI_PARSED, or STC_CLI_BAD_USAGE after
 * "PROGRAM: --format 'TEXT': expected auto, din or lackey". */
int stc_cli_format_option(const char *program, const char *text, stc_trace_format *format);

#endif
