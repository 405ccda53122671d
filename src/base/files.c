/*
 * Reading and writing the user's files with their kind checked (files.h);
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

int file_output_fd(const char *path, bool append, char *err, size_t errlen) {
    char why[REASON_MAX];
    int fd = platform_open_output(path, append, why, sizeof why);
    if (fd < 0) snprintf(err, errlen, "cannot write %s: %s", path, why);
    return fd;
}

FILE *file_open_output(const char *path, bool append, char *err, size_t errlen) {
    int fd = file_output_fd(path, append, err, errlen);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, append ? "ab" : "wb");
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        close(fd);
    }
    return f;
}

/* ------------------------------------------------------------ whole files */

static void writer_free(FileWriter *w) {
    free(w->target);
    free(w->tmp);
    w->target = w->tmp = NULL;
    w->f = NULL;
}

/*
 * The permissions the new file gets: the replaced file's, or 0666 less the
 * umask for a new one. False (err set) when the target exists and is no
 * regular file.
 */
static bool target_mode(const char *path, const char *target, unsigned *mode, bool *exists, char *err,
                        size_t errlen) {
    struct stat st;
    *exists = stat(target, &st) == 0;
    if (!*exists) {
        if (errno == ENOENT) {
            *mode = 0666;
            return true;
        }
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return false;
    }
    const char *why = platform_not_regular(st.st_mode);
    if (why) {
        snprintf(err, errlen, "cannot write %s: %s", path, why);
        return false;
    }
    *mode = (unsigned)st.st_mode & 0777;
    return true;
}

/* A new temporary file beside the target ("<target>.tmp<pid>-<n>"), open for writing. */
static int create_temporary(FileWriter *w, unsigned mode) {
    enum { ATTEMPTS = 100 };
    size_t len = strlen(w->target) + 48;
    w->tmp = malloc(len);
    if (!w->tmp) return -1;
    static unsigned counter;
    for (int i = 0; i < ATTEMPTS; i++) {
        snprintf(w->tmp, len, "%s.tmp%ld-%u", w->target, (long)getpid(), counter++);
        int fd = platform_create_new(w->tmp, mode);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    return -1;
}

bool file_write_begin(FileWriter *w, const char *path, char *err, size_t errlen) {
    memset(w, 0, sizeof *w);
    w->target = platform_link_target(path);
    if (!w->target) {
        snprintf(err, errlen, "cannot write %s: too many symbolic links, or out of memory", path);
        return false;
    }
    unsigned mode;
    bool exists;
    if (!target_mode(path, w->target, &mode, &exists, err, errlen)) {
        writer_free(w);
        return false;
    }
    int fd = create_temporary(w, mode);
    if (fd >= 0 && exists) chmod(w->tmp, mode); /* the old file's permissions, not the umask's */
    w->f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!w->f) {
        snprintf(err, errlen, "cannot write %s: no temporary file beside it: %s", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            remove(w->tmp);
        }
        writer_free(w);
        return false;
    }
    return true;
}

bool file_write_check(const char *path, char *err, size_t errlen) {
    char *target = platform_link_target(path);
    if (!target) {
        snprintf(err, errlen, "cannot write %s: too many symbolic links, or out of memory", path);
        return false;
    }
    unsigned mode;
    bool exists;
    bool ok = target_mode(path, target, &mode, &exists, err, errlen);
    free(target);
    return ok;
}

bool file_write_commit(FileWriter *w, char *err, size_t errlen) {
    bool ok = fflush(w->f) == 0 && !ferror(w->f) && platform_sync(fileno(w->f));
    int why = ok ? 0 : errno;
    if (fclose(w->f) != 0 && ok) {
        ok = false;
        why = errno;
    }
    if (!ok) {
        snprintf(err, errlen, "cannot write %s: %s", w->target, strerror(why ? why : EIO));
    } else if (platform_replace_file(w->tmp, w->target) != 0) {
        snprintf(err, errlen, "cannot write %s: cannot rename the new file over it: %s", w->target, strerror(errno));
        ok = false;
    }
    if (!ok) remove(w->tmp);
    writer_free(w);
    return ok;
}

void file_write_abort(FileWriter *w) {
    if (w->f) {
        fclose(w->f);
        remove(w->tmp);
    }
    writer_free(w);
}

bool file_append_whole(int fd, const char *text, size_t length, char *err, size_t errlen) {
    struct stat st;
    off_t before = fstat(fd, &st) == 0 ? st.st_size : -1;
    size_t done = 0;
    while (done < length) {
        ssize_t n = write(fd, text + done, length - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const char *why = n < 0 ? strerror(errno) : "no progress";
            bool cut = before >= 0 && ftruncate(fd, before) == 0;
            snprintf(err, errlen, "write failed: %s%s", why, cut ? "" : " (the partly written text could not be removed)");
            return false;
        }
        done += (size_t)n;
    }
    return true;
}
