/*
 * check.h - the smallest test harness that does the job.
 *
 * CHECK(cond, fmt, ...) records one check; a failing check prints its
 * file:line and message and the test keeps going so one run shows every
 * failure. check_done() prints "NAME: N passed, N failed" and returns the
 * process exit status.
 */
#ifndef STC_CHECK_H
#define STC_CHECK_H

#include <stdio.h>
#include <stdlib.h>

static unsigned long check_passed_count;
static unsigned long check_failed_count;

#define CHECK(cond, ...)                                                    \
    do {                                                                    \
        if (cond) {                                                         \
            check_passed_count++;                                           \
        } else {                                                            \
            check_failed_count++;                                           \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, \
                    #cond);                                                 \
            fprintf(stderr, __VA_ARGS__);                                   \
            fputc('\n', stderr);                                            \
        }                                                                   \
    } while (0)

#define CHECK_EQ_U64(got, want, ...)                                        \
    do {                                                                    \
        unsigned long long check_got_ = (unsigned long long)(got);          \
        unsigned long long check_want_ = (unsigned long long)(want);        \
        CHECK(check_got_ == check_want_, "got %llu want %llu: ",            \
              check_got_, check_want_);                                     \
        if (check_got_ != check_want_) {                                    \
            fprintf(stderr, "    ");                                        \
            fprintf(stderr, __VA_ARGS__);                                   \
            fputc('\n', stderr);                                            \
        }                                                                   \
    } while (0)

static inline int check_done(const char *name)
{
    printf("%s: %lu passed, %lu failed\n", name, check_passed_count, check_failed_count);
    return check_failed_count ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
