/* output.c - write a set of files into a folder atomically. */
#include "output.h"

#include "files.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

enum { PATH_MAX_LEN = 4096 };

/* parent and base of dir, trailing slashes ignored: "a/b/" -> "a", "b";
 * "b" -> ".", "b"; "/b" -> "/", "b". */
static int split_path(const char *dir, char *parent, size_t parent_len, char *base,
                      size_t base_len)
{
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/') {
        len--;
    }
    size_t slash = len;
    while (slash > 0 && dir[slash - 1] != '/') {
        slash--;
    }
    size_t base_size = len - slash;
    if (base_size == 0 || base_size >= base_len || slash >= parent_len) {
        return -1;
    }
    memcpy(base, dir + slash, base_size);
    base[base_size] = '\0';
    if (slash == 0) {
        snprintf(parent, parent_len, ".");
    } else if (slash == 1) {
        snprintf(parent, parent_len, "/");
    } else {
        memcpy(parent, dir, slash - 1);
        parent[slash - 1] = '\0';
    }
    if (strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
        return -1;
    }
    return 0;
}

static int join(char *out, size_t out_len, const char *dir, const char *name)
{
    int used = snprintf(out, out_len, "%s/%s", dir, name);
    return used < 0 || (size_t)used >= out_len ? -1 : 0;
}

/* Remove the named files from dir (those that exist), then dir. */
static void remove_folder(const char *dir, const stcgen_output_file *files, size_t count)
{
    char path[PATH_MAX_LEN];
    for (size_t index = 0; index < count; index++) {
        if (join(path, sizeof path, dir, files[index].name) == 0) {
            unlink(path);
        }
    }
    rmdir(dir);
}

/* Remove a folder that holds only stcgen's files (checked before). */
static int remove_ours(const char *dir, char *err, size_t err_len)
{
    DIR *handle = opendir(dir);
    if (!handle) {
        snprintf(err, err_len, "cannot read %s: %s", dir, strerror(errno));
        return -1;
    }
    char path[PATH_MAX_LEN];
    struct dirent *entry;
    int status = 0;
    while ((entry = readdir(handle)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) {
            continue;
        }
        if (join(path, sizeof path, dir, entry->d_name) != 0 || unlink(path) != 0) {
            snprintf(err, err_len, "cannot remove %s/%s: %s", dir, entry->d_name,
                     strerror(errno));
            status = -1;
            break;
        }
    }
    closedir(handle);
    if (status == 0 && rmdir(dir) != 0) {
        snprintf(err, err_len, "cannot remove %s: %s", dir, strerror(errno));
        status = -1;
    }
    return status;
}

/* Does dir hold only regular files that stcgen writes? */
static stcgen_output_status check_ours(const char *dir, char *err, size_t err_len)
{
    DIR *handle = opendir(dir);
    if (!handle) {
        snprintf(err, err_len, "cannot read %s: %s", dir, strerror(errno));
        return STCGEN_OUTPUT_IO;
    }
    char path[PATH_MAX_LEN];
    struct dirent *entry;
    stcgen_output_status status = STCGEN_OUTPUT_OK;
    while ((entry = readdir(handle)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) {
            continue;
        }
        struct stat info;
        if (!stcgen_is_output_name(entry->d_name) ||
            join(path, sizeof path, dir, entry->d_name) != 0 || lstat(path, &info) != 0 ||
            !S_ISREG(info.st_mode)) {
            snprintf(err, err_len, "%s holds '%s', which stcgen does not write: not replacing it",
                     dir, entry->d_name);
            status = STCGEN_OUTPUT_REFUSED;
            break;
        }
    }
    closedir(handle);
    return status;
}

static int write_file(const char *path, const stcgen_output_file *file, char *err, size_t err_len)
{
    FILE *out = fopen(path, "wb");
    if (!out) {
        snprintf(err, err_len, "cannot create %s: %s", path, strerror(errno));
        return -1;
    }
    size_t written = fwrite(file->data, 1, file->len, out);
    int write_errno = errno;
    if (written != file->len) {
        fclose(out);
        snprintf(err, err_len, "cannot write %s: %s", path, strerror(write_errno));
        return -1;
    }
    if (fclose(out) != 0) {
        snprintf(err, err_len, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* The test hook: STCGEN_TEST_FAIL_AFTER=N fails after N files. */
static long fail_after(void)
{
    const char *text = getenv("STCGEN_TEST_FAIL_AFTER");
    if (!text || !*text) {
        return -1;
    }
    char *end = NULL;
    long value = strtol(text, &end, 10);
    return (*end == '\0' && value >= 0) ? value : -1;
}

stcgen_output_status stcgen_output_write(const char *dir, bool replace,
                                         const stcgen_output_file *files, size_t count,
                                         char *err, size_t err_len)
{
    char parent[PATH_MAX_LEN];
    char base[256];
    if (split_path(dir, parent, sizeof parent, base, sizeof base) != 0) {
        snprintf(err, err_len, "--out %s: must name a folder (not ., .. or /)", dir);
        return STCGEN_OUTPUT_REFUSED;
    }
    struct stat info;
    if (stat(parent, &info) != 0 || !S_ISDIR(info.st_mode)) {
        snprintf(err, err_len, "%s: the parent folder %s does not exist", dir, parent);
        return STCGEN_OUTPUT_REFUSED;
    }
    bool exists = false;
    if (lstat(dir, &info) == 0) {
        if (!S_ISDIR(info.st_mode)) {
            snprintf(err, err_len, "%s exists and is not a folder", dir);
            return STCGEN_OUTPUT_REFUSED;
        }
        if (!replace) {
            snprintf(err, err_len, "%s exists (--force replaces it)", dir);
            return STCGEN_OUTPUT_REFUSED;
        }
        stcgen_output_status ours = check_ours(dir, err, err_len);
        if (ours != STCGEN_OUTPUT_OK) {
            return ours;
        }
        exists = true;
    } else if (errno != ENOENT) {
        snprintf(err, err_len, "cannot use %s: %s", dir, strerror(errno));
        return STCGEN_OUTPUT_IO;
    }

    char tmp[PATH_MAX_LEN];
    int used = snprintf(tmp, sizeof tmp, "%s/.%s.tmp.XXXXXX", parent, base);
    if (used < 0 || (size_t)used >= sizeof tmp || !mkdtemp(tmp)) {
        snprintf(err, err_len, "cannot create a temporary folder in %s: %s", parent,
                 used < 0 || (size_t)used >= sizeof tmp ? "path too long" : strerror(errno));
        return STCGEN_OUTPUT_IO;
    }
    /* mkdtemp makes the folder private; give it the usual permissions. */
    mode_t mask = umask(0);
    umask(mask);
    if (chmod(tmp, 0777 & ~mask) != 0) {
        snprintf(err, err_len, "cannot set the permissions of %s: %s", tmp, strerror(errno));
        rmdir(tmp);
        return STCGEN_OUTPUT_IO;
    }

    long limit = fail_after();
    char path[PATH_MAX_LEN];
    for (size_t index = 0; index < count; index++) {
        if (limit >= 0 && index == (size_t)limit) {
            snprintf(err, err_len, "cannot write %s/%s: simulated failure (STCGEN_TEST_FAIL_AFTER)",
                     tmp, files[index].name);
            remove_folder(tmp, files, count);
            return STCGEN_OUTPUT_IO;
        }
        if (join(path, sizeof path, tmp, files[index].name) != 0) {
            snprintf(err, err_len, "%s/%s: path too long", tmp, files[index].name);
            remove_folder(tmp, files, count);
            return STCGEN_OUTPUT_IO;
        }
        if (write_file(path, &files[index], err, err_len) != 0) {
            remove_folder(tmp, files, count);
            return STCGEN_OUTPUT_IO;
        }
    }

    if (!exists) {
        if (rename(tmp, dir) != 0) {
            snprintf(err, err_len, "cannot rename %s to %s: %s", tmp, dir, strerror(errno));
            remove_folder(tmp, files, count);
            return STCGEN_OUTPUT_IO;
        }
        return STCGEN_OUTPUT_OK;
    }

    /* Replace: the old folder goes aside (over an empty placeholder, which
     * rename allows), the new one takes its name, the old one is removed. */
    char old[PATH_MAX_LEN];
    used = snprintf(old, sizeof old, "%s/.%s.old.XXXXXX", parent, base);
    if (used < 0 || (size_t)used >= sizeof old || !mkdtemp(old)) {
        snprintf(err, err_len, "cannot create a temporary folder in %s", parent);
        remove_folder(tmp, files, count);
        return STCGEN_OUTPUT_IO;
    }
    if (rename(dir, old) != 0) {
        snprintf(err, err_len, "cannot move %s aside: %s", dir, strerror(errno));
        rmdir(old);
        remove_folder(tmp, files, count);
        return STCGEN_OUTPUT_IO;
    }
    if (rename(tmp, dir) != 0) {
        snprintf(err, err_len, "cannot rename %s to %s: %s", tmp, dir, strerror(errno));
        rename(old, dir); /* put the old output back */
        remove_folder(tmp, files, count);
        return STCGEN_OUTPUT_IO;
    }
    if (remove_ours(old, err, err_len) != 0) {
        return STCGEN_OUTPUT_IO;
    }
    return STCGEN_OUTPUT_OK;
}
