/*
 * scratch.h - a temporary folder for tests that read and write files, and
 * the descriptor count that shows a reader leaking one (header-only, like
 * check.h; include check.h first).
 *
 * scratch_open makes the folder from a mkdtemp template; path_in names a
 * file in it; scratch_remove deletes its files and the folder (a check
 * fails if the folder cannot go); count_open_fds counts the open
 * descriptors among the first 256, so a test compares it before and after.
 */
#ifndef STC_SCRATCH_H
#define STC_SCRATCH_H

#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    char dir[64];
} scratch;

/* template: e.g. "/tmp/stc-test-trace.XXXXXX". false (and a message) if
 * the folder cannot be made. */
static bool scratch_open(scratch *space, const char *template_path)
{
    snprintf(space->dir, sizeof space->dir, "%s", template_path);
    if (!mkdtemp(space->dir)) {
        perror("mkdtemp");
        return false;
    }
    return true;
}

static const char *path_in(const scratch *space, const char *name, char *path, size_t path_len)
{
    snprintf(path, path_len, "%s/%s", space->dir, name);
    return path;
}

static void scratch_remove(const scratch *space)
{
    DIR *dir = opendir(space->dir);
    struct dirent *entry;
    char path[512];
    while (dir && (entry = readdir(dir)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", space->dir, entry->d_name);
        unlink(path);
    }
    if (dir)
        closedir(dir);
    CHECK(rmdir(space->dir) == 0, "cannot remove %s", space->dir);
}

/* Open descriptors among the first 256: a leak from a reader shows here. */
static int count_open_fds(void)
{
    int open_count = 0;
    for (int fd = 0; fd < 256; fd++)
        open_count += fcntl(fd, F_GETFD) != -1;
    return open_count;
}

/* Put back the standard input a test replaced (saved: dup of the original). */
static void restore_stdin(int saved)
{
    dup2(saved, STDIN_FILENO);
    close(saved);
}

#endif
