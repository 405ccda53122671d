/*
 * The operating system and the CPU (see platform.h and pages.h): POSIX
 * (Linux, macOS, the BSDs) and Windows side by side, one function at a time.
 */
#include "platform.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pages.h"

#include <fcntl.h>
#include <sys/stat.h>
#ifdef _WIN32
#include <io.h>
#include <windows.h>
#else
#include <sys/mman.h>
#include <unistd.h>
#endif
#ifdef __APPLE__
#include <mach-o/dyld.h>
#endif

/* ------------------------------------------------------------ the CPU */

/*
 * Compiled for the plainest x86-64, so that it runs on any CPU before the
 * code built for a newer one does. Each instruction set the compiler was
 * allowed to use (its predefined macros say which) is asked of the CPU.
 */
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("arch=x86-64"))) bool platform_cpu_check(void) {
    __builtin_cpu_init();
    char missing[64] = "";
#define PLATFORM_NEED(feature, name) \
    if (!__builtin_cpu_supports(feature)) strcat(strcat(missing, missing[0] ? ", " : ""), name)
#ifdef __POPCNT__
    PLATFORM_NEED("popcnt", "POPCNT");
#endif
#ifdef __SSE4_2__
    PLATFORM_NEED("sse4.2", "SSE4.2");
#endif
#ifdef __AVX__
    PLATFORM_NEED("avx", "AVX");
#endif
#ifdef __AVX2__
    PLATFORM_NEED("avx2", "AVX2");
#endif
#ifdef __FMA__
    PLATFORM_NEED("fma", "FMA");
#endif
#ifdef __BMI__
    PLATFORM_NEED("bmi", "BMI");
#endif
#ifdef __BMI2__
    PLATFORM_NEED("bmi2", "BMI2");
#endif
#ifdef __AVX512F__
    PLATFORM_NEED("avx512f", "AVX-512");
#endif
#undef PLATFORM_NEED
    if (!missing[0]) return true;
    fprintf(stderr, "gizum: this build needs a CPU with %s, which this one lacks: "
                    "use a build for an older CPU (x86-64, or generic)\n", missing);
    return false;
}
#else
/* Other CPUs: the builds use the base instruction set of their architecture. */
bool platform_cpu_check(void) { return true; }
#endif

int platform_cpu_count(void) {
#ifdef _WIN32
    DWORD n = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
    return n < 1 ? 1 : n > INT_MAX ? INT_MAX : (int)n;
#else
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > INT_MAX ? INT_MAX : (int)n;
#endif
}

int64_t platform_thread_cpu_us(void) {
#ifdef _WIN32
    FILETIME created, exited, kernel, user;
    if (!GetThreadTimes(GetCurrentThread(), &created, &exited, &kernel, &user)) return 0;
    uint64_t k = ((uint64_t)kernel.dwHighDateTime << 32) | kernel.dwLowDateTime;
    uint64_t u = ((uint64_t)user.dwHighDateTime << 32) | user.dwLowDateTime;
    return (int64_t)((k + u) / 10); /* 100 ns units */
#elif defined(CLOCK_THREAD_CPUTIME_ID)
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
#else
    return 0;
#endif
}

/* ------------------------------------------------------------ memory */

#ifdef __linux__
/* A number from the first line of a file (cgroup limits); 0 if absent or "max". */
static uint64_t read_limit(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    unsigned long long v = 0;
    if (fscanf(f, "%llu", &v) != 1) v = 0;
    fclose(f);
    return v;
}
#endif

uint64_t platform_memory_bytes(void) {
#ifdef _WIN32
    MEMORYSTATUSEX status;
    status.dwLength = sizeof status;
    return GlobalMemoryStatusEx(&status) ? (uint64_t)status.ullTotalPhys : UINT64_MAX;
#else
    long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
    uint64_t limit = pages > 0 && pageSize > 0 ? (uint64_t)pages * (uint64_t)pageSize : UINT64_MAX;
#ifdef __linux__
    /* A container's limit: cgroup v2, then v1. */
    uint64_t cg = read_limit("/sys/fs/cgroup/memory.max");
    if (!cg) cg = read_limit("/sys/fs/cgroup/memory/memory.limit_in_bytes");
    if (cg && cg < limit) limit = cg;
#endif
    return limit;
#endif
}

#ifdef _WIN32
/*
 * Large pages need the "Lock pages in memory" right (SeLockMemoryPrivilege),
 * which an administrator grants to a user; the process must then switch it
 * on. NULL when the right or the pages are not there.
 */
static void *large_pages_alloc(size_t bytes) {
    SIZE_T large = GetLargePageMinimum();
    HANDLE token;
    if (!large || !OpenProcessToken(GetCurrentProcess(), TOKEN_ADJUST_PRIVILEGES | TOKEN_QUERY, &token)) return NULL;
    void *mem = NULL;
    LUID luid;
    if (LookupPrivilegeValueA(NULL, "SeLockMemoryPrivilege", &luid)) {
        TOKEN_PRIVILEGES want = {1, {{luid, SE_PRIVILEGE_ENABLED}}}, before;
        DWORD beforeSize = 0;
        /* AdjustTokenPrivileges succeeds without the right, saying so through GetLastError. */
        if (AdjustTokenPrivileges(token, FALSE, &want, sizeof before, &before, &beforeSize)
            && GetLastError() == ERROR_SUCCESS) {
            size_t rounded = (bytes + large - 1) / large * large;
            mem = VirtualAlloc(NULL, rounded, MEM_RESERVE | MEM_COMMIT | MEM_LARGE_PAGES, PAGE_READWRITE);
            AdjustTokenPrivileges(token, FALSE, &before, 0, NULL, NULL);
        }
    }
    CloseHandle(token);
    return mem;
}

/* VirtualAlloc memory is zero-filled; large pages when allowed, else normal pages. */
void *pages_alloc(size_t bytes, bool hugePages) {
    void *mem = hugePages && bytes >= HUGE_PAGE_BYTES ? large_pages_alloc(bytes) : NULL;
    if (!mem) mem = VirtualAlloc(NULL, bytes, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
    if (!mem) errno = ENOMEM;
    return mem;
}

void pages_free(void *mem, size_t bytes) {
    (void)bytes;
    if (mem) VirtualFree(mem, 0, MEM_RELEASE);
}
#else
/* mmap a huge page more than asked, unmap the unaligned ends, and ask for huge pages. */
void *pages_alloc(size_t bytes, bool hugePages) {
    size_t extra = hugePages && bytes >= HUGE_PAGE_BYTES ? HUGE_PAGE_BYTES : 0;
    unsigned char *raw = mmap(NULL, bytes + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return NULL;
    if (!extra) return raw;
    uintptr_t start = ((uintptr_t)raw + extra) & ~(uintptr_t)(extra - 1);
    size_t head = start - (uintptr_t)raw, tail = extra - head;
    if (head) munmap(raw, head);
    if (tail) munmap((unsigned char *)start + bytes, tail);
#if defined(MADV_HUGEPAGE)
    madvise((void *)start, bytes, MADV_HUGEPAGE); /* Linux only */
#endif
    return (void *)start;
}

void pages_free(void *mem, size_t bytes) {
    if (mem) munmap(mem, bytes);
}
#endif

/* ------------------------------------------------------------ files */

const char *platform_not_regular(unsigned mode) {
    mode_t m = (mode_t)mode;
    if (S_ISREG(m)) return NULL;
    if (S_ISDIR(m)) return "is a directory";
#ifdef S_ISFIFO
    if (S_ISFIFO(m)) return "not a regular file (a FIFO)";
#endif
    if (S_ISCHR(m) || S_ISBLK(m)) return "not a regular file (a device)";
#ifdef S_ISSOCK
    if (S_ISSOCK(m)) return "not a regular file (a socket)";
#endif
    return "not a regular file";
}

/* True (err says why, errno EINVAL) when mode is not a regular file's. */
static bool refuse_kind(unsigned mode, char *err, size_t errlen) {
    const char *why = platform_not_regular(mode);
    if (!why) return false;
    snprintf(err, errlen, "%s", why);
    errno = EINVAL;
    return true;
}

#ifdef _WIN32
/* The system's text for the last error of this thread. */
static void windows_error(char *out, size_t size, const char *what) {
    DWORD code = GetLastError();
    char text[256] = "";
    DWORD n = FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL, code, 0, text,
                             sizeof text, NULL);
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == '.')) text[--n] = '\0';
    snprintf(out, size, "%s: %s (error %lu)", what, n ? text : "unknown error", (unsigned long)code);
}

/*
 * Opens path with flags if what is there is a regular file (or, with
 * O_CREAT, nothing yet). Windows keeps no FIFOs among files: a look before
 * opening is enough. info (may be NULL) gets the size and time seen.
 */
static int open_regular_only(const char *path, int flags, PlatformFileInfo *info, char *err, size_t errlen) {
    struct _stat64 st = {0};
    if (_stat64(path, &st) == 0) {
        if (refuse_kind(st.st_mode, err, errlen)) return -1;
    } else if (!(flags & O_CREAT) || errno != ENOENT) {
        snprintf(err, errlen, "%s", strerror(errno));
        return -1;
    }
    int fd = open(path, flags | O_BINARY, 0666);
    if (fd < 0) snprintf(err, errlen, "%s", strerror(errno));
    else if (info) *info = (PlatformFileInfo){(uint64_t)st.st_size, (int64_t)st.st_mtime * 1000000000};
    return fd;
}

int platform_open_regular(const char *path, PlatformFileInfo *info, char *err, size_t errlen) {
    return open_regular_only(path, O_RDONLY, info, err, errlen);
}

bool platform_file_info(const char *path, PlatformFileInfo *info, char *err, size_t errlen) {
    struct _stat64 st;
    if (_stat64(path, &st) != 0) {
        snprintf(err, errlen, "%s", strerror(errno));
        return false;
    }
    if (refuse_kind(st.st_mode, err, errlen)) return false;
    if (info) *info = (PlatformFileInfo){(uint64_t)st.st_size, (int64_t)st.st_mtime * 1000000000};
    return true;
}

char *platform_link_target(const char *path) { return strdup(path); }

int platform_open_output(const char *path, bool append, char *err, size_t errlen) {
    return open_regular_only(path, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC), NULL, err, errlen);
}

int platform_create_new(const char *path, unsigned mode) {
    return open(path, O_WRONLY | O_CREAT | O_EXCL | O_BINARY, (int)mode);
}

bool platform_sync(int fd) { return _commit(fd) == 0; }

void *platform_map_file(const char *path, PlatformFileInfo *info, char *err, size_t errlen) {
    /* The size and time first: a file changed after this is seen by the next comparison. */
    char why[256];
    if (!platform_file_info(path, info, why, sizeof why)) {
        snprintf(err, errlen, "cannot open: %s", why);
        return NULL;
    }
    HANDLE file = CreateFileA(path, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING,
                              FILE_ATTRIBUTE_NORMAL | FILE_FLAG_RANDOM_ACCESS, NULL);
    if (file == INVALID_HANDLE_VALUE) {
        windows_error(err, errlen, "cannot open");
        return NULL;
    }
    void *map = NULL;
    LARGE_INTEGER length;
    if (GetFileType(file) != FILE_TYPE_DISK) {
        snprintf(err, errlen, "not a regular file");
    } else if (!GetFileSizeEx(file, &length)) {
        windows_error(err, errlen, "cannot stat");
    } else if (length.QuadPart == 0) {
        snprintf(err, errlen, "empty file");
    } else {
        HANDLE mapping = CreateFileMappingA(file, NULL, PAGE_READONLY, 0, 0, NULL);
        if (!mapping) {
            windows_error(err, errlen, "cannot map");
        } else {
            /* The view keeps the mapping and the file open after their handles are closed. */
            map = MapViewOfFile(mapping, FILE_MAP_READ, 0, 0, 0);
            if (!map) windows_error(err, errlen, "cannot map");
            else info->size = (uint64_t)length.QuadPart;
            CloseHandle(mapping);
        }
    }
    CloseHandle(file);
    return map;
}

void platform_unmap_file(void *map, size_t size) {
    (void)size;
    if (map) UnmapViewOfFile(map);
}

int platform_replace_file(const char *from, const char *to) {
    if (MoveFileExA(from, to, MOVEFILE_REPLACE_EXISTING)) return 0;
    DWORD code = GetLastError();
    errno = code == ERROR_FILE_NOT_FOUND || code == ERROR_PATH_NOT_FOUND ? ENOENT
          : code == ERROR_ACCESS_DENIED || code == ERROR_SHARING_VIOLATION ? EACCES : EIO;
    return -1;
}
#else
static PlatformFileInfo file_info_of(const struct stat *st) {
#ifdef __APPLE__
    int64_t ns = (int64_t)st->st_mtimespec.tv_sec * 1000000000 + st->st_mtimespec.tv_nsec;
#else
    int64_t ns = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
#endif
    return (PlatformFileInfo){(uint64_t)st->st_size, ns};
}

bool platform_file_info(const char *path, PlatformFileInfo *info, char *err, size_t errlen) {
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err, errlen, "%s", strerror(errno));
        return false;
    }
    if (refuse_kind(st.st_mode, err, errlen)) return false;
    if (info) *info = file_info_of(&st);
    return true;
}

/*
 * Opens path with flags only if what is there is a regular file (or, with
 * O_CREAT, nothing yet): looked at before it is opened (a device is not
 * even opened), then opened without blocking and looked at again through
 * the descriptor, so that a FIFO put there in between is refused too
 * instead of waited on. *st gets what the descriptor shows. -1 with err
 * (errno: the system's, or EINVAL for a file of another kind).
 */
static int open_regular_only(const char *path, int flags, struct stat *st, char *err, size_t errlen) {
    if (stat(path, st) == 0) {
        if (refuse_kind(st->st_mode, err, errlen)) return -1;
    } else if (!(flags & O_CREAT) || errno != ENOENT) {
        snprintf(err, errlen, "%s", strerror(errno));
        return -1;
    }
    int fd = open(path, flags | O_NONBLOCK | O_CLOEXEC, 0666);
    if (fd < 0 || fstat(fd, st) != 0) {
        snprintf(err, errlen, "%s", strerror(errno));
        if (fd >= 0) close(fd);
        return -1;
    }
    if (platform_not_regular(st->st_mode)) {
        close(fd);
        refuse_kind(st->st_mode, err, errlen);
        return -1;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK); /* ordinary reads and writes from here on */
    return fd;
}

int platform_open_regular(const char *path, PlatformFileInfo *info, char *err, size_t errlen) {
    struct stat st;
    int fd = open_regular_only(path, O_RDONLY, &st, err, errlen);
    if (fd >= 0 && info) *info = file_info_of(&st);
    return fd;
}

char *platform_link_target(const char *path) {
    enum { MAX_HOPS = 40 }; /* Linux's own limit on a chain of links */
    char *cur = strdup(path);
    for (int hop = 0; cur && hop < MAX_HOPS; hop++) {
        struct stat st;
        char target[PATH_MAX];
        ssize_t n;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode) || (n = readlink(cur, target, sizeof target - 1)) < 0)
            return cur; /* no link (or none that can be read): the path names itself */
        target[n] = '\0';
        const char *slash = strrchr(cur, '/');
        size_t dirLen = target[0] == '/' || !slash ? 0 : (size_t)(slash - cur) + 1;
        char *next = malloc(dirLen + (size_t)n + 1);
        if (next) {
            memcpy(next, cur, dirLen);
            memcpy(next + dirLen, target, (size_t)n + 1);
        }
        free(cur);
        cur = next;
    }
    free(cur);
    return NULL;
}

int platform_open_output(const char *path, bool append, char *err, size_t errlen) {
    struct stat st;
    return open_regular_only(path, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC), &st, err, errlen);
}

int platform_create_new(const char *path, unsigned mode) {
    return open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, (mode_t)mode);
}

bool platform_sync(int fd) { return fsync(fd) == 0; }

void *platform_map_file(const char *path, PlatformFileInfo *info, char *err, size_t errlen) {
    char why[256];
    int fd = platform_open_regular(path, info, why, sizeof why);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open: %s", why);
        return NULL;
    }
    void *map = NULL;
    if (info->size == 0) {
        snprintf(err, errlen, "empty file");
    } else if (info->size > SIZE_MAX) {
        snprintf(err, errlen, "cannot map: too large for this build");
    } else {
        void *m = mmap(NULL, (size_t)info->size, PROT_READ, MAP_SHARED, fd, 0);
        if (m == MAP_FAILED) {
            snprintf(err, errlen, "cannot map: %s", strerror(errno));
        } else {
            /* Probes jump around: read-ahead would only waste I/O. */
            posix_madvise(m, (size_t)info->size, POSIX_MADV_RANDOM);
            map = m;
        }
    }
    close(fd);
    return map;
}

void platform_unmap_file(void *map, size_t size) {
    if (map) munmap(map, size);
}

int platform_replace_file(const char *from, const char *to) { return rename(from, to); }
#endif

bool platform_exe_dir(char *out, size_t size) {
    if (size == 0) return false;
    out[0] = '\0';
    if (size < 2) return false;
#if defined(_WIN32)
    DWORD n = GetModuleFileNameA(NULL, out, (DWORD)(size > UINT32_MAX ? UINT32_MAX : size));
    if (n == 0 || n >= size) {
        out[0] = '\0';
        return false;
    }
    char *slash = strrchr(out, '\\');
    char *other = strrchr(out, '/');
    if (other > slash) slash = other;
#elif defined(__APPLE__)
    uint32_t room = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;
    if (_NSGetExecutablePath(out, &room) != 0) {
        out[0] = '\0';
        return false;
    }
    char *slash = strrchr(out, '/');
#else
    /* Linux (and systems with its /proc); elsewhere the caller's other places are searched. */
    ssize_t n = readlink("/proc/self/exe", out, size - 1);
    if (n <= 0) {
        out[0] = '\0';
        return false;
    }
    out[n] = '\0';
    char *slash = strrchr(out, '/');
#endif
    if (!slash) {
        out[0] = '\0';
        return false;
    }
    slash[1] = '\0';
    return true;
}

/* ------------------------------------------------------------ console and signals */

void platform_console_init(void) {
#ifdef _WIN32
    /* No "\r\n" from "\n", in the GUI's pipe or in files (training data, books, PGN). */
    _setmode(_fileno(stdin), _O_BINARY);
    _setmode(_fileno(stdout), _O_BINARY);
    _setmode(_fileno(stderr), _O_BINARY);
    _fmode = _O_BINARY;
    setvbuf(stdout, NULL, _IONBF, 0);
#else
    setvbuf(stdout, NULL, _IOLBF, 0);
#endif
}

#ifdef _WIN32
/* Windows' C library resets a handler to the default as it calls it: a second Ctrl-C ends the program. */
static void (*OldInt)(int), (*OldTerm)(int);

void platform_catch_interrupts(void (*handler)(int)) {
    OldInt = signal(SIGINT, handler);
    OldTerm = signal(SIGTERM, handler);
}

void platform_release_interrupts(void) {
    signal(SIGINT, OldInt == SIG_ERR ? SIG_DFL : OldInt);
    signal(SIGTERM, OldTerm == SIG_ERR ? SIG_DFL : OldTerm);
}

ssize_t getline(char **line, size_t *size, FILE *f) {
    if (!line || !size) {
        errno = EINVAL;
        return -1;
    }
    size_t n = 0;
    int c;
    while ((c = getc(f)) != EOF) {
        if (n + 2 > *size || !*line) {
            size_t grown = *size < 120 ? 128 : *size * 2;
            char *more = realloc(*line, grown);
            if (!more) {
                errno = ENOMEM;
                return -1;
            }
            *line = more;
            *size = grown;
        }
        (*line)[n++] = (char)c;
        if (c == '\n') break;
    }
    if (n == 0) return -1;
    (*line)[n] = '\0';
    return (ssize_t)n;
}
#else
static struct sigaction OldInt, OldTerm;

void platform_catch_interrupts(void (*handler)(int)) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    action.sa_flags = SA_RESETHAND; /* a second Ctrl-C ends the program at once */
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &OldInt);
    sigaction(SIGTERM, &action, &OldTerm);
}

void platform_release_interrupts(void) {
    sigaction(SIGINT, &OldInt, NULL);
    sigaction(SIGTERM, &OldTerm, NULL);
}
#endif
