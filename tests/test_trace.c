/*
 * test_trace.c - the trace reader (ref/trace.c) against hand-written traces.
 *
 * Every input is written by the test into a fresh directory under /tmp,
 * removed at the end. Small traces spell out each expected reference; the
 * large ones (bigger than the reader's 1 MiB buffer, so records straddle
 * its refills) are generated from a formula that the test, not the reader,
 * evaluates. Compressed inputs are made with the real gzip and zstd.
 */
#include "check.h"
#include "scratch.h"
#include "trace.h"

#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { KEPT_REFS = 16, MESSAGE_LEN = 8192 };

/* Everything observable about reading one trace to its end. */
typedef struct {
    bool opened;
    char open_error[MESSAGE_LEN];
    stc_trace_format format_before; /* before the first read */
    stc_trace_format format_after;
    uint64_t count;
    stc_ref refs[KEPT_REFS]; /* the first ones */
    bool failed;             /* the last read returned -1 */
    bool failed_again;       /* and so did one more */
    char error[MESSAGE_LEN];
    uint64_t lines;
    int close_result;
    char close_error[MESSAGE_LEN];
} outcome;

/* ---------------------------------------------------------------- helpers */

static void write_bytes(const char *path, const char *data, size_t len)
{
    FILE *file = fopen(path, "wb");
    if (!file || fwrite(data, 1, len, file) != len || fclose(file) != 0) {
        perror(path);
        exit(EXIT_FAILURE);
    }
}

static void write_text(const char *path, const char *text)
{
    write_bytes(path, text, strlen(text));
}

/* Runs argv with stdout into out_path; returns its exit status. */
static int run_to_file(char *const argv[], const char *out_path)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (out < 0 || dup2(out, STDOUT_FILENO) < 0)
            _exit(126);
        execvp(argv[0], argv);
        _exit(127);
    }
    int status = -1;
    if (pid < 0 || waitpid(pid, &status, 0) < 0)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void compress(const char *program, const char *in_path, const char *out_path)
{
    char *argv[] = {(char *)program, "-q", "-c", (char *)in_path, NULL};
    int status = run_to_file(argv, out_path);
    CHECK(status == 0, "%s -q -c %s failed with %d", program, in_path, status);
}

static void read_trace(const char *path, stc_trace_format format, size_t batch, outcome *out)
{
    stc_ref refs[4096];
    memset(out, 0, sizeof *out);
    if (batch > sizeof refs / sizeof refs[0])
        batch = sizeof refs / sizeof refs[0];
    stc_trace *trace = stc_trace_open(path, format, out->open_error, sizeof out->open_error);
    if (!trace)
        return;
    out->opened = true;
    out->format_before = stc_trace_format_of(trace);
    long got;
    while ((got = stc_trace_read(trace, refs, batch)) > 0) {
        for (long i = 0; i < got; i++) {
            if (out->count < KEPT_REFS)
                out->refs[out->count] = refs[i];
            out->count++;
        }
    }
    out->failed = got < 0;
    out->failed_again = out->failed && stc_trace_read(trace, refs, batch) == -1;
    snprintf(out->error, sizeof out->error, "%s", stc_trace_error(trace));
    out->format_after = stc_trace_format_of(trace);
    out->lines = stc_trace_lines(trace);
    out->close_result = stc_trace_close(trace, out->close_error, sizeof out->close_error);
}

static void read_text(const scratch *space, const char *name, const char *text, size_t len, stc_trace_format format,
                      outcome *out)
{
    char path[256];
    write_bytes(path_in(space, name, path, sizeof path), text, len);
    read_trace(path, format, 4096, out);
}

#define READ_TEXT(space, name, text, format, out) read_text(space, name, text, sizeof(text) - 1, format, out)

static void check_ref(const outcome *out, size_t index, stc_ref_kind kind, uint64_t addr, uint32_t size,
                      const char *what)
{
    CHECK(index < out->count, "%s: only %llu references", what, (unsigned long long)out->count);
    if (index >= out->count || index >= KEPT_REFS)
        return;
    CHECK_EQ_U64(out->refs[index].kind, kind, "%s: kind of reference %zu", what, index);
    CHECK_EQ_U64(out->refs[index].addr, addr, "%s: address of reference %zu", what, index);
    CHECK_EQ_U64(out->refs[index].size, size, "%s: size of reference %zu", what, index);
}

/* A trace read to its end without any error. */
static void check_clean(const outcome *out, uint64_t count, uint64_t lines, const char *what)
{
    CHECK(out->opened, "%s: open failed: %s", what, out->open_error);
    CHECK(!out->failed, "%s: read failed: %s", what, out->error);
    CHECK(strcmp(out->error, "") == 0, "%s: error set: %s", what, out->error);
    CHECK_EQ_U64(out->count, count, "%s: references", what);
    CHECK_EQ_U64(out->lines, lines, "%s: lines", what);
    CHECK(out->close_result == 0, "%s: close failed: %s", what, out->close_error);
}

/* A trace that stops with exactly the error "PATH:LINE: message". */
static void check_error(const outcome *out, uint64_t count, const char *want, const char *what)
{
    CHECK(out->opened, "%s: open failed: %s", what, out->open_error);
    CHECK_EQ_U64(out->count, count, "%s: references before the error", what);
    CHECK(out->failed && out->failed_again, "%s: read did not keep returning -1", what);
    CHECK(strcmp(out->error, want) == 0, "%s:\n    got  \"%s\"\n    want \"%s\"", what, out->error, want);
}

/* Redirects fd 0; returns the saved original to give to restore_stdin. */
static int stdin_from_file(const char *path)
{
    int saved = dup(STDIN_FILENO);
    int file = open(path, O_RDONLY);
    if (saved < 0 || file < 0 || dup2(file, STDIN_FILENO) < 0) {
        perror(path);
        exit(EXIT_FAILURE);
    }
    close(file);
    return saved;
}

/* Makes fd 0 a pipe (not seekable) fed with the file by a child, which
 * then keeps the pipe open for linger_seconds before ending it. */
static int stdin_from_pipe(const char *path, pid_t *writer, unsigned linger_seconds)
{
    int ends[2];
    int saved = dup(STDIN_FILENO);
    if (saved < 0 || pipe(ends) != 0) {
        perror("pipe");
        exit(EXIT_FAILURE);
    }
    fflush(NULL);
    *writer = fork();
    if (*writer == 0) {
        close(ends[0]);
        int file = open(path, O_RDONLY);
        char chunk[65536];
        ssize_t got;
        while (file >= 0 && (got = read(file, chunk, sizeof chunk)) > 0) {
            if (write(ends[1], chunk, (size_t)got) != got)
                _exit(1);
        }
        sleep(linger_seconds);
        _exit(0);
    }
    dup2(ends[0], STDIN_FILENO);
    close(ends[0]);
    close(ends[1]);
    return saved;
}

/* For tests that make gzip/zstd complain: keep their stderr out of the log. */
static int silence_stderr(void)
{
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    int null = open("/dev/null", O_WRONLY);
    dup2(null, STDERR_FILENO);
    close(null);
    return saved;
}

static void restore_stderr(int saved)
{
    dup2(saved, STDERR_FILENO);
    close(saved);
}

/* -------------------------------------------------------- a large trace */

enum { BIG_RECORDS = 150000, BIG_COMMENT_EVERY = 997 };

/* Reference i of the large trace. Addresses take every width from 1 to 16
 * hex digits; sizes every width from 1 to 4 decimal digits. */
static stc_ref big_ref(uint64_t i)
{
    static const uint8_t kinds[4] = {STC_REF_IFETCH, STC_REF_LOAD, STC_REF_STORE, STC_REF_MODIFY};
    stc_ref ref;
    ref.addr = (i * UINT64_C(0x9E3779B97F4A7C15)) >> (i % 61);
    ref.size = (uint32_t)(1 + (i * 7919) % 4096);
    ref.kind = kinds[i % 4];
    return ref;
}

static uint64_t big_lines(void)
{
    return BIG_RECORDS + BIG_RECORDS / BIG_COMMENT_EVERY;
}

static void write_big(const char *path, stc_trace_format format)
{
    FILE *file = fopen(path, "w");
    if (!file) {
        perror(path);
        exit(EXIT_FAILURE);
    }
    for (uint64_t i = 0; i < BIG_RECORDS; i++) {
        stc_ref ref = big_ref(i);
        if (format == STC_TRACE_LACKEY) {
            if (ref.kind == STC_REF_IFETCH)
                fprintf(file, "I  %08" PRIx64 ",%u\n", ref.addr, (unsigned)ref.size);
            else
                fprintf(file, " %c %08" PRIx64 ",%u\n", "ILSM"[ref.kind], ref.addr, (unsigned)ref.size);
        } else {
            /* din has no modify: M lines become reads, with and without 0x and SIZE */
            int label = ref.kind == STC_REF_IFETCH ? 2 : ref.kind == STC_REF_STORE ? 1 : 0;
            fprintf(file, "%d %s%" PRIx64, label, i % 2 ? "0x" : "", ref.addr);
            if (ref.size == 4 && i % 3 == 0)
                fputc('\n', file);
            else
                fprintf(file, "\t%u\n", (unsigned)ref.size);
        }
        if ((i + 1) % BIG_COMMENT_EVERY == 0)
            fprintf(file, i % 2 ? "# comment after %" PRIu64 "\n" : "\n", i);
    }
    if (fclose(file) != 0) {
        perror(path);
        exit(EXIT_FAILURE);
    }
}

/* Reads a large trace in batches of batch and compares every reference. */
static void check_big(const char *path, stc_trace_format format, size_t batch, const char *what)
{
    char err[MESSAGE_LEN];
    stc_ref refs[4096];
    stc_trace *trace = stc_trace_open(path, STC_TRACE_AUTO, err, sizeof err);
    CHECK(trace != NULL, "%s: %s", what, err);
    if (!trace)
        return;
    uint64_t index = 0;
    uint64_t wrong = 0;
    long got;
    while ((got = stc_trace_read(trace, refs, batch)) > 0) {
        for (long i = 0; i < got; i++, index++) {
            stc_ref want = big_ref(index);
            if (format == STC_TRACE_DIN && want.kind == STC_REF_MODIFY)
                want.kind = STC_REF_LOAD;
            if (refs[i].addr != want.addr || refs[i].size != want.size || refs[i].kind != want.kind) {
                if (wrong++ < 3)
                    CHECK(false, "%s: reference %" PRIu64 ": got %d %" PRIx64 ",%u want %d %" PRIx64 ",%u", what,
                          index, refs[i].kind, refs[i].addr, (unsigned)refs[i].size, want.kind, want.addr,
                          (unsigned)want.size);
            }
        }
    }
    CHECK(got == 0, "%s: %s", what, stc_trace_error(trace));
    CHECK_EQ_U64(wrong, 0, "%s: wrong references", what);
    CHECK_EQ_U64(index, BIG_RECORDS, "%s: references", what);
    CHECK_EQ_U64(stc_trace_lines(trace), big_lines(), "%s: lines", what);
    CHECK(stc_trace_format_of(trace) == format, "%s: format %s", what, stc_trace_format_name(stc_trace_format_of(trace)));
    int closed = stc_trace_close(trace, err, sizeof err);
    CHECK(closed == 0, "%s: close: %s", what, err);
}

/* ------------------------------------------------------------------ tests */

static void test_lackey(const scratch *space)
{
    outcome out;
    READ_TEXT(space, "lackey.txt",
              "I  04000bd0,3\n"
              " L 0412ba98,4\n"
              " S 7ffc12345678,8\n"
              " M ffffffffffffffff,1\n"
              "I  0,4096\n"
              "\t L\t\t000000000000000000000000abc,2\n"
              "I 04000BD3,16   \t\n",
              STC_TRACE_AUTO, &out);
    check_clean(&out, 7, 7, "lackey");
    CHECK(out.format_before == STC_TRACE_AUTO, "lackey: format before the first read");
    CHECK(out.format_after == STC_TRACE_LACKEY, "lackey: detected %s", stc_trace_format_name(out.format_after));
    check_ref(&out, 0, STC_REF_IFETCH, 0x04000bd0, 3, "lackey");
    check_ref(&out, 1, STC_REF_LOAD, 0x0412ba98, 4, "lackey");
    check_ref(&out, 2, STC_REF_STORE, 0x7ffc12345678, 8, "lackey");
    check_ref(&out, 3, STC_REF_MODIFY, UINT64_C(0xffffffffffffffff), 1, "lackey");
    check_ref(&out, 4, STC_REF_IFETCH, 0, 4096, "lackey");
    check_ref(&out, 5, STC_REF_LOAD, 0xabc, 2, "lackey");
    check_ref(&out, 6, STC_REF_IFETCH, 0x04000bd3, 16, "lackey");
}

static void test_din(const scratch *space)
{
    outcome out;
    READ_TEXT(space, "din.txt",
              "0 1000\n"
              "1 0x2000 8\n"
              "2 0X7ffc12345678 16\n"
              "0\tffffffffffffffff\t1\n"
              "  1   abcDEF   \t\n"
              "2 0 4096\n"
              "0 0x000000000000000000001\n",
              STC_TRACE_AUTO, &out);
    check_clean(&out, 7, 7, "din");
    CHECK(out.format_after == STC_TRACE_DIN, "din: detected %s", stc_trace_format_name(out.format_after));
    check_ref(&out, 0, STC_REF_LOAD, 0x1000, 4, "din");
    check_ref(&out, 1, STC_REF_STORE, 0x2000, 8, "din");
    check_ref(&out, 2, STC_REF_IFETCH, 0x7ffc12345678, 16, "din");
    check_ref(&out, 3, STC_REF_LOAD, UINT64_C(0xffffffffffffffff), 1, "din");
    check_ref(&out, 4, STC_REF_STORE, 0xabcdef, 4, "din");
    check_ref(&out, 5, STC_REF_IFETCH, 0, 4096, "din");
    check_ref(&out, 6, STC_REF_LOAD, 1, 4, "din");

    /* the same, with the format given instead of detected */
    READ_TEXT(space, "din-forced.txt", "2 abc\n", STC_TRACE_DIN, &out);
    check_clean(&out, 1, 1, "din forced");
    CHECK(out.format_before == STC_TRACE_DIN, "din forced: format before reading");
    check_ref(&out, 0, STC_REF_IFETCH, 0xabc, 4, "din forced");
}

static void test_detection(const scratch *space)
{
    char path[256];
    char want[512];
    outcome out;
    /* the format is fixed by the first record: din records later in a
     * lackey trace are errors, and the other way round */
    READ_TEXT(space, "mixed1.txt", "# lackey first\n L 10,4\n0 20\n", STC_TRACE_AUTO, &out);
    snprintf(want, sizeof want, "%s:3: unknown lackey record '0' (expected I, L, S or M)",
             path_in(space, "mixed1.txt", path, sizeof path));
    check_error(&out, 1, want, "lackey then din");
    CHECK(out.format_after == STC_TRACE_LACKEY, "lackey then din: format");

    READ_TEXT(space, "mixed2.txt", "\n2 10\nI  20,4\n", STC_TRACE_AUTO, &out);
    snprintf(want, sizeof want, "%s:3: unknown din label 'I' (0 read, 1 write, 2 fetch)",
             path_in(space, "mixed2.txt", path, sizeof path));
    check_error(&out, 1, want, "din then lackey");
    CHECK(out.format_after == STC_TRACE_DIN, "din then lackey: format");

    /* a forced format is not second-guessed */
    READ_TEXT(space, "forced-lackey.txt", "0 1000\n", STC_TRACE_LACKEY, &out);
    snprintf(want, sizeof want, "%s:1: unknown lackey record '0' (expected I, L, S or M)",
             path_in(space, "forced-lackey.txt", path, sizeof path));
    check_error(&out, 0, want, "forced lackey");

    /* nothing to detect from: still AUTO, no error */
    READ_TEXT(space, "empty.txt", "", STC_TRACE_AUTO, &out);
    check_clean(&out, 0, 0, "empty");
    CHECK(out.format_after == STC_TRACE_AUTO, "empty: format");
    READ_TEXT(space, "only-comments.txt", "==1== hello\n# nothing\n\n", STC_TRACE_AUTO, &out);
    check_clean(&out, 0, 3, "only comments");
    CHECK(out.format_after == STC_TRACE_AUTO, "only comments: format");
}

static void test_skipped_lines(const scratch *space)
{
    outcome out;
    READ_TEXT(space, "valgrind.txt",
              "==12345== Lackey, an example Valgrind tool\n"
              "==12345== Command: ./a.out\n"
              "==12345== \n"
              "\n"
              "# a comment\n"
              "   \t \n"
              "I  04000bd0,3\n"
              "  # an indented comment, I  1,1\n"
              "\n"
              " L 0412ba98,4\n"
              "==12345== \n"
              "==12345== Counted 1 call to main()\n",
              STC_TRACE_AUTO, &out);
    check_clean(&out, 2, 12, "valgrind output");
    check_ref(&out, 0, STC_REF_IFETCH, 0x04000bd0, 3, "valgrind output");
    check_ref(&out, 1, STC_REF_LOAD, 0x0412ba98, 4, "valgrind output");

    READ_TEXT(space, "din-comments.txt", "# din\n\n0 10\n   # x\n\t\n1 20\n", STC_TRACE_AUTO, &out);
    check_clean(&out, 2, 6, "din comments");
    check_ref(&out, 1, STC_REF_STORE, 0x20, 4, "din comments");

    /* valgrind's "==" lines belong to lackey output only */
    char path[256];
    char want[512];
    READ_TEXT(space, "din-equals.txt", "0 10\n==1== x\n", STC_TRACE_DIN, &out);
    snprintf(want, sizeof want, "%s:2: unknown din label '==1==' (0 read, 1 write, 2 fetch)",
             path_in(space, "din-equals.txt", path, sizeof path));
    check_error(&out, 1, want, "din with ==");
}

static void test_line_endings(const scratch *space)
{
    outcome out;
    READ_TEXT(space, "crlf-lackey.txt", "==1== x\r\n# c\r\n\r\nI  04000bd0,3\r\n L 10,4  \r\n", STC_TRACE_AUTO, &out);
    check_clean(&out, 2, 5, "lackey CRLF");
    check_ref(&out, 1, STC_REF_LOAD, 0x10, 4, "lackey CRLF");

    READ_TEXT(space, "crlf-din.txt", "0 10\r\n\r\n1 20 8\r\n2 30\t\r\n", STC_TRACE_AUTO, &out);
    check_clean(&out, 3, 4, "din CRLF");
    check_ref(&out, 1, STC_REF_STORE, 0x20, 8, "din CRLF");
    check_ref(&out, 2, STC_REF_IFETCH, 0x30, 4, "din CRLF");

    READ_TEXT(space, "no-newline-lackey.txt", "I  04000bd0,3\n L 0412ba98,4", STC_TRACE_AUTO, &out);
    check_clean(&out, 2, 2, "lackey without final newline");
    check_ref(&out, 1, STC_REF_LOAD, 0x0412ba98, 4, "lackey without final newline");

    READ_TEXT(space, "no-newline-din.txt", "0 10\n1 20 8", STC_TRACE_AUTO, &out);
    check_clean(&out, 2, 2, "din without final newline");
    check_ref(&out, 1, STC_REF_STORE, 0x20, 8, "din without final newline");

    READ_TEXT(space, "no-newline-cr.txt", "2 abc\r", STC_TRACE_AUTO, &out);
    check_clean(&out, 1, 1, "CR without final newline");
    check_ref(&out, 0, STC_REF_IFETCH, 0xabc, 4, "CR without final newline");

    char path[256];
    char want[512];
    READ_TEXT(space, "no-newline-bad.txt", "0 10\n1 2g", STC_TRACE_AUTO, &out);
    snprintf(want, sizeof want, "%s:2: bad hexadecimal address '2g'", path_in(space, "no-newline-bad.txt", path, sizeof path));
    check_error(&out, 1, want, "bad last line without newline");
}

/* The line length limit is 4096 characters, not counting "\n" or "\r\n". */
static void test_line_length(const scratch *space)
{
    static char text[12000];
    char path[256];
    char want[512];
    outcome out;
    const char *record = " L 10,4";
    size_t record_len = strlen(record);

    for (int crlf = 0; crlf <= 1; crlf++) {
        for (size_t len = 4096; len <= 4097; len++) {
            memset(text, ' ', len);
            memcpy(text, record, record_len);
            strcpy(text + len, crlf ? "\r\n I 1,1\n" : "\n I 1,1\n");
            read_text(space, "long.txt", text, strlen(text), STC_TRACE_AUTO, &out);
            if (len == 4096) {
                check_clean(&out, 2, 2, "4096 characters");
            } else {
                snprintf(want, sizeof want, "%s:1: line longer than 4096 characters",
                         path_in(space, "long.txt", path, sizeof path));
                check_error(&out, 0, want, "4097 characters");
            }
        }
    }

    /* a comment too, and a line never ended by '\n' before the input ends */
    memset(text, 'x', 5000);
    text[0] = '#';
    strcpy(text + 5000, "\n");
    read_text(space, "long-comment.txt", text, strlen(text), STC_TRACE_AUTO, &out);
    snprintf(want, sizeof want, "%s:1: line longer than 4096 characters",
             path_in(space, "long-comment.txt", path, sizeof path));
    check_error(&out, 0, want, "long comment");

    strcpy(text, "I  04000bd0,3\n");
    memset(text + 14, 'x', 10000);
    text[10014] = '\0';
    read_text(space, "long-tail.txt", text, strlen(text), STC_TRACE_AUTO, &out);
    snprintf(want, sizeof want, "%s:2: line longer than 4096 characters",
             path_in(space, "long-tail.txt", path, sizeof path));
    check_error(&out, 1, want, "long unterminated line");
}

/* A string literal and its length, NULs included. */
#define TEXT(literal) literal, sizeof(literal) - 1

static void test_errors(const scratch *space)
{
    static const struct {
        stc_trace_format format;
        const char *text;
        size_t len;
        uint64_t refs_before;
        const char *message; /* after "PATH:" */
    } cases[] = {
        /* lackey */
        {STC_TRACE_AUTO, TEXT("I  04000bd0,3\n L zz12,4\n"), 1, "2: bad hexadecimal address 'zz12'"},
        {STC_TRACE_AUTO, TEXT("I  04000bd0,3\n L 10000000000000000,4\n"), 1, "2: address does not fit in 64 bits"},
        {STC_TRACE_AUTO, TEXT(" L 1000,0\n"), 0, "1: size 0 is not allowed"},
        {STC_TRACE_AUTO, TEXT(" L 1000,4097\n"), 0, "1: size must be at most 4096"},
        {STC_TRACE_AUTO, TEXT(" L 1000,99999999999999999999999\n"), 0, "1: size must be at most 4096"},
        {STC_TRACE_AUTO, TEXT("I  04000bd0,3\n X 1000,4\n"), 1, "2: unknown lackey record 'X' (expected I, L, S or M)"},
        {STC_TRACE_AUTO, TEXT("I  1,1\nI04000bd0,3\n"), 1,
         "2: unknown lackey record 'I04000bd0,3' (expected I, L, S or M)"},
        {STC_TRACE_AUTO, TEXT(" L 1000,\n"), 0, "1: missing size after ','"},
        {STC_TRACE_AUTO, TEXT(" L 1000, 4\n"), 0, "1: missing size after ','"},
        {STC_TRACE_AUTO, TEXT(" L 1000\n"), 0, "1: missing ',SIZE' after the address"},
        {STC_TRACE_AUTO, TEXT(" L ,4\n"), 0, "1: missing address"},
        {STC_TRACE_AUTO, TEXT("I  1,1\n L\n"), 1, "2: missing address"},
        {STC_TRACE_AUTO, TEXT(" L\n"), 0,
         "1: cannot tell the trace format from 'L' (expected din \"LABEL ADDRESS [SIZE]\" or lackey "
         "\"I|L|S|M ADDRESS,SIZE\")"},
        {STC_TRACE_AUTO, TEXT(" L 0x1000,4\n"), 0, "1: bad hexadecimal address '0x1000'"},
        {STC_TRACE_AUTO, TEXT(" L 1000,4x\n"), 0, "1: bad size '4x'"},
        {STC_TRACE_AUTO, TEXT(" L 1000,4 junk\n"), 0, "1: unexpected text after the record: 'junk'"},
        {STC_TRACE_AUTO, TEXT(" L 1000 ,4\n"), 0, "1: expected ',' right after the address, found ' ,4'"},
        {STC_TRACE_AUTO, TEXT(" L 1000,4\rx\n"), 0, "1: bad size '4\\x0dx'"},
        {STC_TRACE_AUTO, TEXT(" L 1000,4 \rx\n"), 0, "1: unexpected text after the record: '\\x0dx'"},
        {STC_TRACE_AUTO, TEXT("I  04000bd0,3\n L 10\0 00,4\n"), 1, "2: NUL byte in the input (not a text trace?)"},
        {STC_TRACE_AUTO, TEXT("# fine\n# not \0 fine\n"), 0, "2: NUL byte in the input (not a text trace?)"},
        {STC_TRACE_LACKEY, TEXT("I  1,1\n==1== \0\n"), 1, "2: NUL byte in the input (not a text trace?)"},
        {STC_TRACE_AUTO, TEXT("\0"), 0, "1: NUL byte in the input (not a text trace?)"},
        /* din */
        {STC_TRACE_AUTO, TEXT("0 1000\n7 2000\n"), 1, "2: unknown din label 7 (0 read, 1 write, 2 fetch)"},
        {STC_TRACE_AUTO, TEXT("12 1000\n"), 0, "1: unknown din label 12 (0 read, 1 write, 2 fetch)"},
        {STC_TRACE_AUTO, TEXT("3 1000\n"), 0, "1: din label 3 (DineroIV escape) is not supported (0 read, 1 write, 2 fetch)"},
        {STC_TRACE_AUTO, TEXT("4 1000\n"), 0,
         "1: din label 4 (DineroIV cache flush) is not supported (0 read, 1 write, 2 fetch)"},
        {STC_TRACE_DIN, TEXT("r 1000\n"), 0, "1: unknown din label 'r' (0 read, 1 write, 2 fetch)"},
        {STC_TRACE_AUTO, TEXT("0 zz12\n"), 0, "1: bad hexadecimal address 'zz12'"},
        {STC_TRACE_AUTO, TEXT("0 0x\n"), 0, "1: bad hexadecimal address '0x'"},
        {STC_TRACE_AUTO, TEXT("0 12,4\n"), 0, "1: bad hexadecimal address '12,4'"},
        {STC_TRACE_AUTO, TEXT("0 1 2\n1 0x10000000000000000 4\n"), 1, "2: address does not fit in 64 bits"},
        {STC_TRACE_AUTO, TEXT("0 1000 0\n"), 0, "1: size 0 is not allowed"},
        {STC_TRACE_AUTO, TEXT("0 1000 5000\n"), 0, "1: size must be at most 4096"},
        {STC_TRACE_AUTO, TEXT("0 1000 x\n"), 0, "1: bad size 'x'"},
        {STC_TRACE_AUTO, TEXT("0 1000 4 5\n"), 0, "1: unexpected text after the record: '5'"},
        {STC_TRACE_AUTO, TEXT("0\n"), 0, "1: missing address"},
        {STC_TRACE_AUTO, TEXT("1 \t \r\n"), 0, "1: missing address"},
        /* neither */
        {STC_TRACE_AUTO, TEXT("\n# x\nhello world\n"), 0,
         "3: cannot tell the trace format from 'hello world' (expected din \"LABEL ADDRESS [SIZE]\" or lackey "
         "\"I|L|S|M ADDRESS,SIZE\")"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char name[32];
        char path[256];
        char want[1024];
        outcome out;
        snprintf(name, sizeof name, "error-%zu.txt", i);
        read_text(space, name, cases[i].text, cases[i].len, cases[i].format, &out);
        snprintf(want, sizeof want, "%s:%s", path_in(space, name, path, sizeof path), cases[i].message);
        check_error(&out, cases[i].refs_before, want, name);
        CHECK(out.close_result == 0, "%s: close after a syntax error: %s", name, out.close_error);
    }

    /* lines counts what was consumed before the bad line; batches of one
     * still deliver every good record before the error */
    char path[256];
    outcome out;
    write_text(path_in(space, "batch.txt", path, sizeof path), "# c\n0 1\n0 2\n\n0 3\n9 4\n0 5\n");
    read_trace(path, STC_TRACE_AUTO, 1, &out);
    CHECK_EQ_U64(out.count, 3, "batch of 1: references before the error");
    CHECK_EQ_U64(out.lines, 5, "batch of 1: lines before the error");
    CHECK(strstr(out.error, "batch.txt:6: unknown din label 9 ") != NULL, "batch of 1: %s", out.error);
}

static void test_big(const scratch *space)
{
    char lackey[256], din[256], compressed[256];
    struct stat info;
    write_big(path_in(space, "big-lackey.txt", lackey, sizeof lackey), STC_TRACE_LACKEY);
    write_big(path_in(space, "big-din.txt", din, sizeof din), STC_TRACE_DIN);
    CHECK(stat(lackey, &info) == 0 && info.st_size > 2 * (1 << 20), "the large trace must span several buffers");

    check_big(lackey, STC_TRACE_LACKEY, 4096, "large lackey");
    check_big(lackey, STC_TRACE_LACKEY, 7, "large lackey, batches of 7");
    check_big(din, STC_TRACE_DIN, 4096, "large din");

    char gz[256];
    compress("gzip", lackey, path_in(space, "big-lackey.txt.gz", gz, sizeof gz));
    check_big(gz, STC_TRACE_LACKEY, 4096, "large lackey .gz");
    compress("zstd", din, path_in(space, "big-din.txt.zst", compressed, sizeof compressed));
    check_big(compressed, STC_TRACE_DIN, 1000, "large din .zst");

    /* compressed standard input: seekable (a file), then a pipe */
    int saved = stdin_from_file(compressed);
    check_big("-", STC_TRACE_DIN, 4096, "large din .zst on stdin from a file");
    restore_stdin(saved);

    pid_t writer;
    saved = stdin_from_pipe(compressed, &writer, 0);
    check_big("-", STC_TRACE_DIN, 4096, "large din .zst on stdin from a pipe");
    restore_stdin(saved);
    waitpid(writer, NULL, 0);

    saved = stdin_from_pipe(gz, &writer, 0);
    check_big("-", STC_TRACE_LACKEY, 4096, "large lackey .gz on stdin from a pipe");
    restore_stdin(saved);
    waitpid(writer, NULL, 0);

    saved = stdin_from_file(lackey);
    check_big("-", STC_TRACE_LACKEY, 4096, "large lackey on stdin");
    restore_stdin(saved);
}

static void test_compressed_small(const scratch *space)
{
    char plain[256], gz[256], zst[256], want[512];
    outcome out;
    write_text(path_in(space, "small.txt", plain, sizeof plain), "I  04000bd0,3\n S 7ffc12345678,8\n");
    /* no shell is involved, so any name works */
    compress("gzip", plain, path_in(space, "it's a \"small\" $trace.gz", gz, sizeof gz));
    compress("zstd", plain, path_in(space, "small .zst", zst, sizeof zst));
    read_trace(gz, STC_TRACE_AUTO, 4096, &out);
    check_clean(&out, 2, 2, "small .gz");
    check_ref(&out, 1, STC_REF_STORE, 0x7ffc12345678, 8, "small .gz");
    read_trace(zst, STC_TRACE_AUTO, 4096, &out);
    check_clean(&out, 2, 2, "small .zst");
    check_ref(&out, 0, STC_REF_IFETCH, 0x04000bd0, 3, "small .zst");

    /* errors in compressed input still name the file and line */
    write_text(plain, "0 10\n0 20 0\n");
    compress("zstd", plain, zst);
    read_trace(zst, STC_TRACE_AUTO, 4096, &out);
    snprintf(want, sizeof want, "%s:2: size 0 is not allowed", zst);
    check_error(&out, 1, want, "error in .zst");

    pid_t writer;
    int saved = stdin_from_pipe(zst, &writer, 0);
    read_trace("-", STC_TRACE_AUTO, 4096, &out);
    restore_stdin(saved);
    waitpid(writer, NULL, 0);
    check_error(&out, 1, "<stdin>:2: size 0 is not allowed", "error in .zst on stdin");

    /* shorter than any magic */
    write_text(plain, "0 1");
    read_trace(plain, STC_TRACE_AUTO, 4096, &out);
    check_clean(&out, 1, 1, "three bytes");
    check_ref(&out, 0, STC_REF_LOAD, 1, 4, "three bytes");
}

static void test_truncated(const scratch *space)
{
    static const char *const programs[] = {"zstd", "gzip"};
    char plain[256], whole[256], truncated[256], want[512];
    write_big(path_in(space, "trunc.txt", plain, sizeof plain), STC_TRACE_LACKEY);
    for (size_t i = 0; i < 2; i++) {
        const char *program = programs[i];
        char name[32];
        snprintf(name, sizeof name, "trunc-whole.%s", program);
        compress(program, plain, path_in(space, name, whole, sizeof whole));
        snprintf(name, sizeof name, "trunc-half.%s", program);
        path_in(space, name, truncated, sizeof truncated);

        struct stat info;
        FILE *file = fopen(whole, "rb");
        size_t len = file && stat(whole, &info) == 0 ? (size_t)info.st_size : 0;
        char *bytes = malloc(len + 1);
        CHECK(bytes && len > 1000 && fread(bytes, 1, len, file) == len, "%s: cannot read %s", program, whole);
        if (file)
            fclose(file);
        if (bytes)
            write_bytes(truncated, bytes, len / 2);
        free(bytes);

        outcome out;
        int saved = silence_stderr();
        read_trace(truncated, STC_TRACE_AUTO, 4096, &out);
        restore_stderr(saved);
        snprintf(want, sizeof want, "%s: truncated %s data (the input ends inside a %s)", truncated, program,
                 strcmp(program, "gzip") == 0 ? "member" : "frame");
        CHECK(out.count > 0 && out.count < BIG_RECORDS, "truncated %s: %llu references", program,
              (unsigned long long)out.count);
        CHECK(out.failed, "truncated %s: the read must fail", program);
        CHECK(strcmp(out.error, want) == 0, "truncated %s: read error\n    got  \"%s\"\n    want \"%s\"", program,
              out.error, want);
        CHECK(out.close_result == -1, "truncated %s: close must fail", program);
        CHECK(strcmp(out.close_error, want) == 0, "truncated %s: close error\n    got  \"%s\"\n    want \"%s\"",
              program, out.close_error, want);
    }

    /* Closing before the end: no hang, and the unread rest is not an error
     * since we chose not to read it all. */
    char err[MESSAGE_LEN];
    stc_ref refs[100];
    stc_trace *trace = stc_trace_open(whole, STC_TRACE_AUTO, err, sizeof err);
    CHECK(trace != NULL, "early close: %s", err);
    if (trace) {
        CHECK(stc_trace_read(trace, refs, 100) == 100, "early close: first batch");
        CHECK(stc_trace_close(trace, err, sizeof err) == 0, "early close: %s", err);
        CHECK(strcmp(err, "") == 0, "early close: message %s", err);
    }
    pid_t writer;
    int saved = stdin_from_pipe(whole, &writer, 0);
    trace = stc_trace_open("-", STC_TRACE_AUTO, err, sizeof err);
    CHECK(trace != NULL, "early close on stdin: %s", err);
    if (trace) {
        CHECK(stc_trace_read(trace, refs, 100) == 100, "early close on stdin: first batch");
        CHECK(stc_trace_close(trace, err, sizeof err) == 0, "early close on stdin: %s", err);
    }
    restore_stdin(saved);
    waitpid(writer, NULL, 0);

    /* stdin that does not end (for 20 s): open reads only the magic bytes
     * and close must not wait for the rest. The writer is a child, not this
     * process, so no fork of ours holds the pipe open: if this test dies,
     * everything it started still ends within 20 s. */
    char small[256], small_zst[256];
    write_text(path_in(space, "slow.txt", small, sizeof small), "I  1,1\nI  2,2\n");
    compress("zstd", small, path_in(space, "slow.zst", small_zst, sizeof small_zst));
    saved = stdin_from_pipe(small_zst, &writer, 20);
    struct timespec before, after;
    clock_gettime(CLOCK_MONOTONIC, &before);
    trace = stc_trace_open("-", STC_TRACE_AUTO, err, sizeof err);
    CHECK(trace != NULL, "slow stdin: %s", err);
    if (trace)
        CHECK(stc_trace_close(trace, err, sizeof err) == 0, "slow stdin: %s", err);
    clock_gettime(CLOCK_MONOTONIC, &after);
    CHECK(after.tv_sec - before.tv_sec < 5, "slow stdin: close took %lld s", (long long)(after.tv_sec - before.tv_sec));
    restore_stdin(saved);
    kill(writer, SIGKILL);
    waitpid(writer, NULL, 0);
}

static void test_open_errors(const scratch *space)
{
    char path[256], want[512], err[MESSAGE_LEN];

    path_in(space, "no such file.txt", path, sizeof path);
    CHECK(stc_trace_open(path, STC_TRACE_AUTO, err, sizeof err) == NULL, "missing file opened");
    snprintf(want, sizeof want, "%s: No such file or directory", path);
    CHECK(strcmp(err, want) == 0, "missing file:\n    got  \"%s\"\n    want \"%s\"", err, want);

    CHECK(stc_trace_open(space->dir, STC_TRACE_AUTO, err, sizeof err) == NULL, "directory opened");
    snprintf(want, sizeof want, "%s: Is a directory", space->dir);
    CHECK(strcmp(err, want) == 0, "directory:\n    got  \"%s\"\n    want \"%s\"", err, want);

    /* decompression needs no program: it works with an empty PATH */
    char plain[256], zst[256];
    write_text(path_in(space, "no-path.txt", plain, sizeof plain), "0 10\n");
    compress("zstd", plain, path_in(space, "no-path.zst", zst, sizeof zst));
    const char *old_path = getenv("PATH");
    char *saved_path = old_path ? strdup(old_path) : NULL;
    setenv("PATH", space->dir, 1);
    outcome out;
    read_trace(zst, STC_TRACE_AUTO, 4096, &out);
    if (saved_path)
        setenv("PATH", saved_path, 1);
    else
        unsetenv("PATH");
    free(saved_path);
    check_clean(&out, 1, 1, ".zst with an empty PATH");

    /* the magic alone is a truncated frame, found when reading */
    write_bytes(path_in(space, "magic-only.zst", path, sizeof path), "\x28\xb5\x2f\xfd", 4);
    read_trace(path, STC_TRACE_AUTO, 4096, &out);
    snprintf(want, sizeof want, "%s: truncated zstd data (the input ends inside a frame)", path);
    CHECK(out.opened, "magic only: %s", out.open_error);
    check_error(&out, 0, want, "magic only");
    CHECK(out.close_result == -1 && strcmp(out.close_error, want) == 0, "magic only: close: %s", out.close_error);

    CHECK(stc_trace_open(path, (stc_trace_format)7, err, sizeof err) == NULL, "format 7 accepted");
}

static void test_format_names(void)
{
    stc_trace_format format = STC_TRACE_AUTO;
    CHECK(strcmp(stc_trace_format_name(STC_TRACE_AUTO), "auto") == 0, "name of auto");
    CHECK(strcmp(stc_trace_format_name(STC_TRACE_DIN), "din") == 0, "name of din");
    CHECK(strcmp(stc_trace_format_name(STC_TRACE_LACKEY), "lackey") == 0, "name of lackey");
    CHECK(stc_trace_format_parse("din", &format) == 0 && format == STC_TRACE_DIN, "parse din");
    CHECK(stc_trace_format_parse("lackey", &format) == 0 && format == STC_TRACE_LACKEY, "parse lackey");
    CHECK(stc_trace_format_parse("auto", &format) == 0 && format == STC_TRACE_AUTO, "parse auto");
    CHECK(stc_trace_format_parse("Din", &format) == -1, "parse is exact");
    CHECK(stc_trace_format_parse("dinero", &format) == -1, "parse rejects unknown names");
    CHECK(format == STC_TRACE_AUTO, "a failed parse leaves the format alone");
}

/*
 * A plain file is parsed in place (mapped), all but its last lines, which
 * are copied (the parser reads up to 16 bytes past a field); standard input
 * is always read through the buffer. Both must see the same references,
 * lines and errors, wherever the end of the file falls: each text is tried
 * behind 0..40 bytes of padding lines, which moves the switch-over point
 * through every record near the end.
 */
static void test_mapped_matches_read(const scratch *space)
{
    static const char *const tails[] = {
        "0 10\n1 0x20 8\n2 7fffffff\n",
        "0 10\n1 0x20 8\n2 7fffffff",                 /* no final newline */
        "0 10\r\n2 abcdef0123456789\r\n",
        "0 10\n0 1234567890abcdef1\n",                /* 17 digits: an error */
        "0 10\n0 00001234567890abcdef\n",             /* 20 digits, leading zeros */
        "0 10\n# a comment\n\n2 4",
        "0 10\n0 zz\n",
        "0 10\n0 10 0\n",
        "0 1\n0 2\n0 3\n0 4\n0 5\n0 6\n0 7\n0 8\n",
        "I  04000bd0,3\n L 0412ba98,4\n",
        "I  04000bd0,3\n L 0412ba98",                   /* lackey, cut short */
        "I  04000bd0,3\n L 0412ba98,4\n M 0412ba98,40000\n",
    };
    char path[256], want_text[256];
    outcome mapped, read;
    for (size_t tail = 0; tail < sizeof tails / sizeof tails[0]; tail++) {
        for (size_t padding = 0; padding <= 40; padding++) {
            char text[512];
            size_t used = 0;
            bool lackey = tails[tail][0] == 'I';
            /* Padding: comment lines of the chosen total length. */
            if (padding >= 2) {
                text[used++] = '#';
                memset(text + used, '.', padding - 2);
                used += padding - 2;
                text[used++] = '\n';
            }
            snprintf(text + used, sizeof text - used, "%s", tails[tail]);
            write_text(path_in(space, "edge.txt", path, sizeof path), text);
            read_trace(path, STC_TRACE_AUTO, 4096, &mapped);
            int saved = stdin_from_file(path);
            read_trace("-", STC_TRACE_AUTO, 4096, &read);
            restore_stdin(saved);
            snprintf(want_text, sizeof want_text, "tail %zu (%s), padding %zu", tail,
                     lackey ? "lackey" : "din", padding);
            CHECK_EQ_U64(mapped.count, read.count, "%s: references", want_text);
            CHECK_EQ_U64(mapped.lines, read.lines, "%s: lines", want_text);
            CHECK(mapped.failed == read.failed, "%s: failed", want_text);
            for (size_t index = 0; index < mapped.count && index < KEPT_REFS; index++) {
                CHECK(mapped.refs[index].addr == read.refs[index].addr &&
                          mapped.refs[index].size == read.refs[index].size &&
                          mapped.refs[index].kind == read.refs[index].kind,
                      "%s: reference %zu", want_text, index);
            }
            /* The same message but for the file's name. */
            const char *mapped_message = strchr(mapped.error, ':');
            const char *read_message = strchr(read.error, ':');
            CHECK((!mapped_message && !read_message) ||
                      (mapped_message && read_message && strcmp(mapped_message, read_message) == 0),
                  "%s:\n    file  \"%s\"\n    stdin \"%s\"", want_text, mapped.error, read.error);
        }
    }
}

/* ------------------------------------------------------------------ main */

/* Open descriptors among the first 256: a leak from the reader (or a child
 * it forgot to reap, checked in main) would show up here. */
int main(void)
{
    scratch space;
    if (!scratch_open(&space, "/tmp/stc-test-trace.XXXXXX")) {
        return EXIT_FAILURE;
    }
    alarm(60); /* a hang (say, in close) fails the test instead of stalling it */
    int fds_at_start = count_open_fds();
    test_lackey(&space);
    test_din(&space);
    test_detection(&space);
    test_skipped_lines(&space);
    test_line_endings(&space);
    test_line_length(&space);
    test_errors(&space);
    test_compressed_small(&space);
    test_big(&space);
    test_mapped_matches_read(&space);
    test_truncated(&space);
    test_open_errors(&space);
    test_format_names();
    scratch_remove(&space);
    CHECK_EQ_U64(count_open_fds(), fds_at_start, "open file descriptors after all tests");
    CHECK(waitpid(-1, NULL, WNOHANG) == -1, "a child process was left unreaped");
    return check_done("test_trace");
}
