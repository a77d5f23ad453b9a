/* mapped_file.c - a regular file mapped read-only (mapped_file.h). */
#include "mapped_file.h"

#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int stc_mapped_file_open(const char *path, stc_mapped_file *file)
{
    file->bytes = NULL;
    file->size = 0;
    /* Non-blocking: opening a FIFO a second time would otherwise wait for a
     * writer that may be gone. It is refused below anyway. */
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0) {
        return -1;
    }
    struct stat status;
    void *bytes = MAP_FAILED;
    if (fstat(fd, &status) == 0 && S_ISREG(status.st_mode) && status.st_size > 0 &&
        (uintmax_t)status.st_size <= SIZE_MAX) {
        bytes = mmap(NULL, (size_t)status.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    }
    close(fd); /* the mapping keeps the file */
    if (bytes == MAP_FAILED) {
        return -1;
    }
    /* Read once from start to end: let the kernel read ahead. Advice only. */
    posix_madvise(bytes, (size_t)status.st_size, POSIX_MADV_SEQUENTIAL);
    file->bytes = bytes;
    file->size = (size_t)status.st_size;
    return 0;
}

void stc_mapped_file_close(stc_mapped_file *file)
{
    if (file->bytes) {
        munmap((void *)(uintptr_t)file->bytes, file->size);
    }
    file->bytes = NULL;
    file->size = 0;
}
