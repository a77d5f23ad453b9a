/*
 * test_byte_source.c - ref/stc_byte_source.c against files made by the real
 * gzip and zstd programs.
 *
 * Each compressed input is checked byte for byte against the text it was
 * made from, read in several call sizes (one byte at a time catches a
 * decoder that loses state between calls), from a file and from a pipe on
 * stdin. The error cases pin the message, which must name the file, and
 * check that an error stays an error.
 */
#include "byte_source.h"
#include "check.h"
#include "scratch.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

enum { MESSAGE_LEN = 8192 };

/* A byte string owned by the test (cap: room allocated, 0 if unknown). */
typedef struct {
    unsigned char *data;
    size_t len;
    size_t cap;
} bytes;

/* Everything observable about reading one source to its end. */
typedef struct {
    bool opened;
    char open_error[MESSAGE_LEN];
    stc_byte_source_kind kind;
    bytes content;
    bool failed;       /* the last read returned -1 */
    bool failed_again; /* and so did one more */
    bool ended_again;  /* or, after 0, one more read returned 0 too */
    char error[MESSAGE_LEN];
} outcome;

/* ---------------------------------------------------------------- helpers */

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *file = fopen(path, "wb");
    if (!file || fwrite(data, 1, len, file) != len || fclose(file) != 0) {
        perror(path);
        exit(EXIT_FAILURE);
    }
}

static bytes read_file(const char *path)
{
    bytes all = {NULL, 0, 0};
    struct stat info;
    FILE *file = fopen(path, "rb");
    if (!file || stat(path, &info) != 0) {
        perror(path);
        exit(EXIT_FAILURE);
    }
    all.len = (size_t)info.st_size;
    all.data = malloc(all.len + 1);
    if (!all.data || fread(all.data, 1, all.len, file) != all.len) {
        perror(path);
        exit(EXIT_FAILURE);
    }
    fclose(file);
    return all;
}

static void append(bytes *to, const bytes *what)
{
    if (to->len + what->len + 1 > to->cap) {
        to->cap = 2 * (to->len + what->len + 1);
        to->data = realloc(to->data, to->cap);
        if (!to->data) {
            perror("realloc");
            exit(EXIT_FAILURE);
        }
    }
    memcpy(to->data + to->len, what->data, what->len);
    to->len += what->len;
}

/* PROGRAM -q -c < the text > the result, by the real program. */
static bytes compressed(const scratch *space, const char *program, const bytes *text)
{
    char in_path[256], out_path[256];
    path_in(space, "to-compress", in_path, sizeof in_path);
    path_in(space, "compressed", out_path, sizeof out_path);
    write_file(in_path, text->data, text->len);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int in = open(in_path, O_RDONLY);
        int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in < 0 || out < 0 || dup2(in, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0)
            _exit(126);
        execlp(program, program, "-q", "-c", (char *)NULL);
        _exit(127);
    }
    int status = -1;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "%s -q -c failed (status %d)", program, status);
    return read_file(out_path);
}

static bytes text_of(const char *text)
{
    bytes copy = {(unsigned char *)strdup(text), strlen(text), 0};
    return copy;
}

/* Text of about len bytes that compresses well but not trivially: trace-like
 * lines whose addresses follow a formula. */
static bytes big_text(size_t len)
{
    bytes text = {malloc(len + 64), 0, 0};
    uint64_t x = 12345;
    while (text.len < len) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        text.len += (size_t)sprintf((char *)text.data + text.len, "%u %08llx %u\n", (unsigned)(x >> 62) % 3,
                                    (unsigned long long)(x >> 40), 1u << ((x >> 33) % 4));
    }
    return text;
}

static void read_source(stc_byte_source *source, size_t chunk, outcome *out)
{
    unsigned char *buffer = malloc(chunk);
    long got;
    out->opened = true;
    out->kind = stc_byte_source_kind_of(source);
    while ((got = stc_byte_source_read(source, buffer, chunk)) > 0) {
        bytes piece = {buffer, (size_t)got, 0};
        if ((size_t)got > chunk)
            CHECK(false, "read %ld bytes into a buffer of %zu", got, chunk);
        append(&out->content, &piece);
    }
    out->failed = got < 0;
    got = stc_byte_source_read(source, buffer, chunk);
    out->failed_again = out->failed && got == -1;
    out->ended_again = !out->failed && got == 0;
    snprintf(out->error, sizeof out->error, "%s", stc_byte_source_error(source));
    free(buffer);
}

static void read_path(const char *path, size_t chunk, outcome *out)
{
    memset(out, 0, sizeof *out);
    stc_byte_source *source = stc_byte_source_open(path, out->open_error, sizeof out->open_error);
    if (!source)
        return;
    read_source(source, chunk, out);
    stc_byte_source_close(source);
}

static void forget(outcome *out)
{
    free(out->content.data);
    out->content.data = NULL;
}

/* Makes fd 0 a pipe (not seekable) fed with data by a child; returns the
 * saved original for restore_stdin. */
static int stdin_from_pipe(const bytes *data, pid_t *writer)
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
        size_t done = 0;
        while (done < data->len) {
            /* odd pieces, so the reader sees short reads mid-frame */
            size_t piece = data->len - done < 4093 ? data->len - done : 4093;
            ssize_t written = write(ends[1], data->data + done, piece);
            if (written <= 0)
                _exit(1);
            done += (size_t)written;
        }
        _exit(0);
    }
    dup2(ends[0], STDIN_FILENO);
    close(ends[0]);
    close(ends[1]);
    return saved;
}

static bool same(const bytes *a, const bytes *b)
{
    return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

/* The file's content reads back as want, cleanly, in every chunk size. */
static void check_reads_as(const char *path, const bytes *want, stc_byte_source_kind kind, const char *what)
{
    static const size_t chunks[] = {1, 7, 4093, 1 << 20};
    for (size_t i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
        if (chunks[i] < 100 && want->len > 100000)
            continue; /* tiny reads are for the small inputs, to keep the test quick */
        outcome out;
        read_path(path, chunks[i], &out);
        CHECK(out.opened, "%s: open: %s", what, out.open_error);
        CHECK(out.kind == kind, "%s: kind %s", what, stc_byte_source_kind_name(out.kind));
        CHECK(!out.failed, "%s (chunk %zu): %s", what, chunks[i], out.error);
        CHECK(out.ended_again, "%s (chunk %zu): the end did not stay the end", what, chunks[i]);
        CHECK(strcmp(out.error, "") == 0, "%s: error set: %s", what, out.error);
        CHECK(same(&out.content, want), "%s (chunk %zu): %zu bytes, want %zu, or different bytes", what, chunks[i],
              out.content.len, want->len);
        forget(&out);
    }
}

/* The file fails with exactly want after delivering at most max_bytes. */
static void check_fails_with(const char *path, const char *want, size_t max_bytes, const char *what)
{
    outcome out;
    read_path(path, 4096, &out);
    CHECK(out.opened, "%s: open: %s", what, out.open_error);
    CHECK(out.failed && out.failed_again, "%s: read did not keep returning -1", what);
    CHECK(strcmp(out.error, want) == 0, "%s:\n    got  \"%s\"\n    want \"%s\"", what, out.error, want);
    CHECK(out.content.len <= max_bytes, "%s: %zu bytes before the error, at most %zu expected", what,
          out.content.len, max_bytes);
    forget(&out);
}

/* ------------------------------------------------------------------ tests */

static void test_plain(const scratch *space)
{
    char path[256];
    bytes text = text_of("0 1000\n2 400a00 4\n");
    write_file(path_in(space, "plain.din", path, sizeof path), text.data, text.len);
    check_reads_as(path, &text, STC_BYTE_SOURCE_PLAIN, "plain");
    free(text.data);

    /* shorter than any magic, and the start of one without the rest */
    static const char *const short_ones[] = {"", "0", "0 1", "\x1f", "\x28\xb5\x2f"};
    for (size_t i = 0; i < sizeof short_ones / sizeof short_ones[0]; i++) {
        bytes tiny = {(unsigned char *)short_ones[i], strlen(short_ones[i]), 0};
        write_file(path_in(space, "short", path, sizeof path), tiny.data, tiny.len);
        check_reads_as(path, &tiny, STC_BYTE_SOURCE_PLAIN, "short plain");
    }

    /* len 0 reads nothing and does not end the content */
    bytes two = text_of("ab");
    write_file(path_in(space, "two", path, sizeof path), two.data, two.len);
    char err[MESSAGE_LEN];
    stc_byte_source *source = stc_byte_source_open(path, err, sizeof err);
    CHECK(source != NULL, "two: %s", err);
    if (source) {
        char buffer[4];
        CHECK(stc_byte_source_read(source, buffer, 0) == 0, "len 0");
        CHECK(stc_byte_source_read(source, buffer, sizeof buffer) == 2 && memcmp(buffer, "ab", 2) == 0,
              "len 0 consumed something");
        CHECK(stc_byte_source_read(source, buffer, sizeof buffer) == 0, "two: end");
        CHECK(strcmp(stc_byte_source_name(source), path) == 0, "name %s", stc_byte_source_name(source));
        stc_byte_source_close(source);
    }
    free(two.data);
}

static void test_compressed(const scratch *space)
{
    static const char *const programs[] = {"gzip", "zstd"};
    static const stc_byte_source_kind kinds[] = {STC_BYTE_SOURCE_GZIP, STC_BYTE_SOURCE_ZSTD};
    char path[256], what[128];
    bytes small = text_of("I  04000bd0,3\n S 7ffc12345678,8\n");
    bytes other = text_of("0 10\n1 20 8\n");
    bytes empty = {(unsigned char *)"", 0, 0};
    bytes big = big_text(3 << 20); /* several input and output buffers */
    for (size_t p = 0; p < 2; p++) {
        const char *program = programs[p];
        stc_byte_source_kind kind = kinds[p];

        bytes packed = compressed(space, program, &small);
        snprintf(what, sizeof what, "small %s", program);
        write_file(path_in(space, "small.c", path, sizeof path), packed.data, packed.len);
        check_reads_as(path, &small, kind, what);

        /* an empty text compressed is a valid, empty member/frame */
        bytes packed_empty = compressed(space, program, &empty);
        snprintf(what, sizeof what, "empty %s", program);
        write_file(path_in(space, "empty.c", path, sizeof path), packed_empty.data, packed_empty.len);
        check_reads_as(path, &empty, kind, what);

        /* concatenated members/frames (an empty one in the middle) read as
         * the concatenated text, as gzip -d and zstd -d give it */
        bytes packed_other = compressed(space, program, &other);
        bytes joined = {NULL, 0, 0}, joined_text = {NULL, 0, 0};
        append(&joined, &packed);
        append(&joined, &packed_empty);
        append(&joined, &packed_other);
        append(&joined_text, &small);
        append(&joined_text, &other);
        snprintf(what, sizeof what, "concatenated %s", program);
        write_file(path_in(space, "joined.c", path, sizeof path), joined.data, joined.len);
        check_reads_as(path, &joined_text, kind, what);

        /* large, then the same twice over from a pipe on stdin */
        bytes packed_big = compressed(space, program, &big);
        snprintf(what, sizeof what, "large %s", program);
        write_file(path_in(space, "big.c", path, sizeof path), packed_big.data, packed_big.len);
        check_reads_as(path, &big, kind, what);
        bytes twice = {NULL, 0, 0}, twice_text = {NULL, 0, 0};
        append(&twice, &packed_big);
        append(&twice, &packed_big);
        append(&twice_text, &big);
        append(&twice_text, &big);
        pid_t writer;
        int saved = stdin_from_pipe(&twice, &writer);
        outcome out;
        read_path("-", 65536, &out);
        restore_stdin(saved);
        waitpid(writer, NULL, 0);
        CHECK(out.opened && out.kind == kind && !out.failed, "%s on stdin: %s%s", program, out.open_error, out.error);
        CHECK(same(&out.content, &twice_text), "%s on stdin: %zu bytes, want %zu, or different bytes", program,
              out.content.len, twice_text.len);
        forget(&out);

        /* every cut inside the small one is truncated (shorter than the
         * magic it is plain text): the error names the file */
        size_t magic_len = kind == STC_BYTE_SOURCE_GZIP ? 2 : 4;
        char want[512];
        path_in(space, "cut.c", path, sizeof path);
        snprintf(want, sizeof want, "%s: truncated %s data (the input ends inside a %s)", path, program,
                 kind == STC_BYTE_SOURCE_GZIP ? "member" : "frame");
        for (size_t cut = magic_len; cut < packed.len; cut++) {
            write_file(path, packed.data, cut);
            snprintf(what, sizeof what, "%s cut at %zu of %zu", program, cut, packed.len);
            check_fails_with(path, want, small.len, what);
        }
        /* a cut in the second of two members/frames: the first one's text
         * comes first, then the error */
        size_t second_cut = packed.len + packed_other.len / 2;
        bytes two = {NULL, 0, 0};
        append(&two, &packed);
        append(&two, &packed_other);
        write_file(path, two.data, second_cut);
        outcome cut_out;
        read_path(path, 4096, &cut_out);
        CHECK(cut_out.failed && strcmp(cut_out.error, want) == 0, "%s cut in the second part: %s", program,
              cut_out.error);
        CHECK(cut_out.content.len >= small.len && memcmp(cut_out.content.data, small.data, small.len) == 0,
              "%s cut in the second part: the first part's text must come first", program);
        forget(&cut_out);
        /* and the large one cut in half, from stdin */
        bytes half = {packed_big.data, packed_big.len / 2, 0};
        saved = stdin_from_pipe(&half, &writer);
        read_path("-", 1 << 20, &out);
        restore_stdin(saved);
        waitpid(writer, NULL, 0);
        snprintf(want, sizeof want, "<stdin>: truncated %s data (the input ends inside a %s)", program,
                 kind == STC_BYTE_SOURCE_GZIP ? "member" : "frame");
        CHECK(out.failed && strcmp(out.error, want) == 0, "half %s on stdin: %s", program, out.error);
        CHECK(out.content.len > 0 && out.content.len < big.len && memcmp(out.content.data, big.data, out.content.len) == 0,
              "half %s on stdin: %zu bytes, which must be a proper prefix of the text", program, out.content.len);
        forget(&out);

        /* a damaged checksum is corrupt data: zstd's is the last four bytes
         * (zstd writes one by default), gzip's CRC-32 the four before the
         * length */
        bytes damaged = {NULL, 0, 0};
        append(&damaged, &packed);
        damaged.data[damaged.len - (kind == STC_BYTE_SOURCE_ZSTD ? 2 : 6)] ^= 0x40;
        snprintf(want, sizeof want, "%s: corrupt %s data: %s", path, program,
                 kind == STC_BYTE_SOURCE_ZSTD ? "Restored data doesn't match checksum" : "incorrect data check");
        write_file(path, damaged.data, damaged.len);
        snprintf(what, sizeof what, "%s with a bad checksum", program);
        check_fails_with(path, want, small.len, what);
        if (kind == STC_BYTE_SOURCE_GZIP) {
            damaged.data[damaged.len - 6] ^= 0x40;
            damaged.data[damaged.len - 2] ^= 0x40;
            snprintf(want, sizeof want, "%s: corrupt gzip data: incorrect length check", path);
            write_file(path, damaged.data, damaged.len);
            check_fails_with(path, want, small.len, "gzip with a bad length");
        }

        /* what follows the last member/frame must be another one */
        bytes trailing = {NULL, 0, 0};
        bytes junk = text_of("junk");
        append(&trailing, &packed);
        append(&trailing, &junk);
        write_file(path, trailing.data, trailing.len);
        snprintf(want, sizeof want, "%s: corrupt %s data: %s", path, program,
                 kind == STC_BYTE_SOURCE_GZIP ? "incorrect header check" : "Unknown frame descriptor");
        snprintf(what, sizeof what, "%s with trailing junk", program);
        check_fails_with(path, want, small.len, what);

        free(packed.data);
        free(packed_empty.data);
        free(packed_other.data);
        free(packed_big.data);
        free(joined.data);
        free(joined_text.data);
        free(twice.data);
        free(twice_text.data);
        free(two.data);
        free(damaged.data);
        free(trailing.data);
        free(junk.data);
    }

    /* gzip -d ignores zeros after the last member (tar's padding), and
     * nothing else */
    bytes packed = compressed(space, "gzip", &small);
    bytes padded = {NULL, 0, 0};
    unsigned char zeros[70000] = {0};
    bytes padding = {zeros, sizeof zeros, 0};
    append(&padded, &packed);
    append(&padded, &padding);
    write_file(path_in(space, "padded.gz", path, sizeof path), padded.data, padded.len);
    check_reads_as(path, &small, STC_BYTE_SOURCE_GZIP, "gzip with zero padding");
    bytes x = text_of("x");
    append(&padded, &x);
    write_file(path, padded.data, padded.len);
    char want[512];
    snprintf(want, sizeof want, "%s: corrupt gzip data: garbage after the zero padding", path);
    check_fails_with(path, want, small.len, "gzip with garbage after the zero padding");
    free(packed.data);
    free(padded.data);
    free(x.data);

    free(small.data);
    free(other.data);
    free(big.data);
}

static void test_open_errors(const scratch *space)
{
    char path[256], want[512], err[MESSAGE_LEN];
    path_in(space, "no such file", path, sizeof path);
    CHECK(stc_byte_source_open(path, err, sizeof err) == NULL, "a missing file opened");
    snprintf(want, sizeof want, "%s: No such file or directory", path);
    CHECK(strcmp(err, want) == 0, "missing file:\n    got  \"%s\"\n    want \"%s\"", err, want);

    CHECK(stc_byte_source_open(space->dir, err, sizeof err) == NULL, "a directory opened");
    snprintf(want, sizeof want, "%s: Is a directory", space->dir);
    CHECK(strcmp(err, want) == 0, "directory:\n    got  \"%s\"\n    want \"%s\"", err, want);

    /* err may be NULL or short */
    CHECK(stc_byte_source_open(path, NULL, 0) == NULL, "a missing file opened (no err)");
    char tiny[5];
    CHECK(stc_byte_source_open(path, tiny, sizeof tiny) == NULL && strlen(tiny) == 4, "a short err is cut, ended");
}

static void test_names(void)
{
    CHECK(strcmp(stc_byte_source_kind_name(STC_BYTE_SOURCE_PLAIN), "plain") == 0, "plain");
    CHECK(strcmp(stc_byte_source_kind_name(STC_BYTE_SOURCE_GZIP), "gzip") == 0, "gzip");
    CHECK(strcmp(stc_byte_source_kind_name(STC_BYTE_SOURCE_ZSTD), "zstd") == 0, "zstd");

    /* stdin is "<stdin>" in messages, and closing the source leaves it open */
    int saved = dup(STDIN_FILENO);
    int null = open("/dev/null", O_RDONLY);
    dup2(null, STDIN_FILENO);
    close(null);
    char err[MESSAGE_LEN];
    stc_byte_source *source = stc_byte_source_open("-", err, sizeof err);
    CHECK(source != NULL, "stdin: %s", err);
    if (source) {
        CHECK(strcmp(stc_byte_source_name(source), "<stdin>") == 0, "stdin's name %s", stc_byte_source_name(source));
        char buffer[8];
        CHECK(stc_byte_source_read(source, buffer, sizeof buffer) == 0, "/dev/null is empty");
        stc_byte_source_close(source);
    }
    CHECK(fcntl(STDIN_FILENO, F_GETFD) != -1, "closing the source closed stdin");
    restore_stdin(saved);
    stc_byte_source_close(NULL);
}

/* ------------------------------------------------------------------ main */

int main(void)
{
    scratch space;
    if (!scratch_open(&space, "/tmp/stc-test-byte-source.XXXXXX")) {
        return EXIT_FAILURE;
    }
    alarm(120); /* a decoder that loops forever fails the test instead of stalling it */
    int fds_at_start = count_open_fds();
    test_plain(&space);
    test_compressed(&space);
    test_open_errors(&space);
    test_names();
    scratch_remove(&space);
    CHECK_EQ_U64(count_open_fds(), fds_at_start, "open file descriptors after all tests");
    return check_done("test_byte_source");
}
