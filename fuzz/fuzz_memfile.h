/*
 * An in-memory file (memfd) that the code under test opens by name, for the
 * targets that fuzz file readers. Needs _GNU_SOURCE before the first include.
 * Only static inline functions here: each target is one translation unit.
 */
#ifndef GIZUM_FUZZ_MEMFILE_H
#define GIZUM_FUZZ_MEMFILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* An in-memory file the code under test opens by name (path: /proc/self/fd/N); aborts on failure. */
static inline int fuzz_memfile_create(const char *name, char *path, size_t pathSize) {
    int fd = memfd_create(name, 0);
    if (fd < 0) abort();
    snprintf(path, pathSize, "/proc/self/fd/%d", fd);
    return fd;
}

/* Replaces the in-memory file's contents with data. */
static inline void fuzz_memfile_write(int fd, const uint8_t *data, size_t size) {
    if (ftruncate(fd, 0) != 0 || lseek(fd, 0, SEEK_SET) != 0) abort();
    for (size_t done = 0; done < size;) {
        ssize_t n = write(fd, data + done, size - done);
        if (n <= 0) abort();
        done += (size_t)n;
    }
}

#endif
