/* options.c - reading stcsim's command lines (options.h). */
#include "options.h"

#include "count.h"

#include <stdio.h>
#include <string.h>

void stc_cli_vmessage(const char *program, const char *fmt, va_list args)
{
    fprintf(stderr, "%s: ", program);
    vfprintf(stderr, fmt, args);
    fputc('\n', stderr);
}

void stc_cli_message(const char *program, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    stc_cli_vmessage(program, fmt, args);
    va_end(args);
}

int stc_cli_usage_error(const char *program, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    stc_cli_vmessage(program, fmt, args);
    va_end(args);
    return STC_CLI_BAD_USAGE;
}

int stc_cli_finish_report(const char *program)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        stc_cli_message(program, "error writing the report");
        return 1;
    }
    return 0;
}

bool stc_cli_is_option(const char *arg, const char *short_name, const char *long_name)
{
    return (short_name && !strcmp(arg, short_name)) || !strcmp(arg, long_name);
}

bool stc_cli_is_help(const char *arg)
{
    return stc_cli_is_option(arg, "-h", "--help");
}

bool stc_cli_is_operand(const char *arg)
{
    return arg[0] != '-' || arg[1] == '\0';
}

bool stc_cli_is_one_of(const char *arg, const char *const *names)
{
    for (; *names; names++) {
        if (!strcmp(arg, *names)) {
            return true;
        }
    }
    return false;
}

int stc_cli_option_value(const char *program, const char *const *valued, int argc, char **argv,
                         int *index, const char **value)
{
    const char *arg = argv[*index];
    if (!stc_cli_is_one_of(arg, valued)) {
        return stc_cli_usage_error(program, "unknown option '%s' (see --help)", arg);
    }
    if (*index + 1 >= argc) {
        return stc_cli_usage_error(program, "option %s needs a value (see --help)", arg);
    }
    *value = argv[++*index];
    return STC_CLI_PARSED;
}

int stc_cli_parse(const stc_cli_grammar *grammar, void *context, int argc, char **argv)
{
    for (int index = 1; index < argc; index++) {
        const char *arg = argv[index];
        if (stc_cli_is_help(arg)) {
            fputs(grammar->usage_text, stdout);
            return STC_CLI_HELP_SHOWN;
        }
        bool *flag = grammar->flag(context, arg);
        const char *value;
        int status;
        if (flag) {
            *flag = true;
            status = STC_CLI_PARSED;
        } else if (stc_cli_is_operand(arg)) {
            status = grammar->operand(context, arg);
        } else {
            status = stc_cli_option_value(grammar->program, grammar->valued, argc, argv, &index,
                                          &value);
            if (status == STC_CLI_PARSED) {
                status = grammar->option(context, arg, value);
            }
        }
        if (status != STC_CLI_PARSED) {
            return status;
        }
    }
    return STC_CLI_PARSED;
}

int stc_cli_bad_value(const char *program, const char *option, const char *text,
                      const char *expected)
{
    return stc_cli_usage_error(program, "%s '%s': expected %s", option, text, expected);
}

int stc_cli_count_in_range(const char *text, uint64_t min, uint64_t max, uint64_t *value)
{
    uint64_t number;
    if (stc_parse_count(text, &number) != 0 || number < min || number > max) {
        return -1;
    }
    *value = number;
    return 0;
}

int stc_cli_count_option(const char *program, const char *option, const char *text, uint64_t min,
                         uint64_t max, const char *expected, uint64_t *value)
{
    if (stc_cli_count_in_range(text, min, max, value) != 0) {
        return stc_cli_bad_value(program, option, text, expected);
    }
    return STC_CLI_PARSED;
}

int stc_cli_choice_option(const char *program, const char *option, const char *text,
                          const char *const *choices, int *choice)
{
    for (int index = 0; choices[index]; index++) {
        if (!strcmp(text, choices[index])) {
            *choice = index;
            return STC_CLI_PARSED;
        }
    }
    /* "a, b or c": the message lists every choice, so it cannot fall
     * behind the list. */
    char expected[256] = "";
    size_t used = 0;
    for (int index = 0; choices[index] && used < sizeof expected; index++) {
        const char *separator = index == 0 ? "" : choices[index + 1] ? ", " : " or ";
        int wrote = snprintf(expected + used, sizeof expected - used, "%s%s", separator,
                             choices[index]);
        used += wrote > 0 ? (size_t)wrote : 0;
    }
    return stc_cli_bad_value(program, option, text, expected);
}

int stc_cli_limit_option(const char *program, const char *text, uint64_t *limit)
{
    return stc_cli_count_option(program, "--limit", text, 1, UINT64_MAX,
                                "a positive number of references", limit);
}

int stc_cli_format_option(const char *program, const char *text, stc_trace_format *format)
{
    if (stc_trace_format_parse(text, format) != 0) {
        return stc_cli_bad_value(program, "--format", text, "auto, din or lackey");
    }
    return STC_CLI_PARSED;
}
