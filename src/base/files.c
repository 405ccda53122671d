/*
 * Opening the user's files with their kind checked (files.h);
 * the system calls are platform.c's.
 */
#include "files.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "platform.h"

enum { REASON_MAX = 256 };

FILE *file_open_read(const char *path, uint64_t *size, char *err, size_t errlen) {
    char why[REASON_MAX];
    PlatformFileInfo info;
    int fd = platform_open_regular(path, &info, why, sizeof why);
    FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
    if (!f) {
        int saved = errno;
        if (fd >= 0) {
            snprintf(why, sizeof why, "%s", strerror(errno));
            close(fd);
        }
        snprintf(err, errlen, "cannot open %s: %s", path, why);
        errno = saved;
    } else if (size) {
        *size = info.size;
    }
    return f;
}

