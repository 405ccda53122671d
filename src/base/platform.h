/*
 * Everything that differs between operating systems and CPUs, in one place:
 * Linux and other POSIX systems (macOS, the BSDs) on one side, Windows
 * (MinGW-w64, statically linked) on the other. The rest of Gizum is plain
 * C11 with POSIX threads and calls these instead of the system. The big
 * tables' memory (pages_alloc, pages_free in pages.h) lives in platform.c
 * too.
 */
#ifndef GIZUM_PLATFORM_H
#define GIZUM_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Separates the folders of a search path such as SyzygyPath (Windows paths hold ':' after the drive). */
#ifdef _WIN32
#define PLATFORM_PATH_LIST_SEPARATOR ';'
#else
#define PLATFORM_PATH_LIST_SEPARATOR ':'
#endif

/* A function whose argument fmt is a printf format and whose arguments start at first: the compiler
 * checks calls. GNU formats (%zu) with MinGW too, whose "printf" means Microsoft's C library's. */
#ifdef __MINGW32__
#define PRINTF_FORMAT(fmt, first) __attribute__((format(gnu_printf, fmt, first)))
#else
#define PRINTF_FORMAT(fmt, first) __attribute__((format(printf, fmt, first)))
#endif

#ifdef _WIN32
/* The POSIX stdio calls that MinGW's C library names otherwise. */
#define flockfile _lock_file
#define funlockfile _unlock_file
#define getc_unlocked _getc_nolock
/* POSIX getline (MinGW has none): reads a line with its newline into *line, grown as needed; -1 at end of file. */
#include <sys/types.h>
ssize_t getline(char **line, size_t *size, FILE *f);
#endif

/* Before anything else in main(): false (after one line on stderr saying why) when this CPU
 * lacks an instruction set the build was compiled for (POPCNT, AVX2, BMI2, ...). */
bool platform_cpu_check(void);

/* Console set-up for a GUI on the other end of a pipe: stdout line-buffered (unbuffered on
 * Windows, whose C library buffers lines fully), and on Windows binary standard streams and
 * files, so that every line ends in "\n" alone, as on POSIX. */
void platform_console_init(void);

/* Online logical processors (at least 1). */
int platform_cpu_count(void);

/* Processor time the calling thread has used, in microseconds (0 where the system does not say):
 * measured against the wall clock, it tells how long a loaded machine kept the thread from running. */
int64_t platform_thread_cpu_us(void);

/* Memory this process may fill: physical memory, or less under a Linux cgroup limit;
 * UINT64_MAX when unknown. */
uint64_t platform_memory_bytes(void);

/* The folder holding the running executable, ending in its separator ("/" or "\\");
 * false (out empty) when the system does not say. */
bool platform_exe_dir(char *out, size_t size);

/* What the file system says of a file: its length and its last modification (ns since the epoch). */
typedef struct {
    uint64_t size;
    int64_t mtimeNs;
} PlatformFileInfo;

/*
 * Opens an existing file read-only if it is a regular file: a descriptor, or
 * -1 with err saying why ("is a directory", "not a regular file (a FIFO)",
 * or the system's reason; errno is kept for the caller). A FIFO or device is
 * never waited on: opening one for reading can block forever. info (may be
 * NULL) receives the file's size and time.
 */
int platform_open_regular(const char *path, PlatformFileInfo *info, char *err, size_t errlen);

/*
 * Opens a file for writing, created if missing (mode 0666 less the umask),
 * emptied first unless append: a descriptor, or -1 with err saying why. What
 * exists there and is not a regular file (a directory, FIFO, device) is
 * refused without being opened, so that output never lands in a device or
 * blocks on a FIFO.
 */
int platform_open_output(const char *path, bool append, char *err, size_t errlen);

/* Creates a new file that must not exist yet (O_EXCL), for writing: a descriptor, or -1 with errno set. */
int platform_create_new(const char *path, unsigned mode);

/* Asks the system to put what was written to fd on the disk: false with errno set on failure. */
bool platform_sync(int fd);

/* Why a file of this st_mode is not a regular file ("is a directory", ...); NULL for a regular file. */
const char *platform_not_regular(unsigned mode);

/* The size and time of path, following links; false with err saying why. */
bool platform_file_info(const char *path, PlatformFileInfo *info, char *err, size_t errlen);

/*
 * The file a path finally names when it is a symbolic link (a chain of them
 * followed, a relative target read from the link's folder): a new string to
 * free, the path itself (copied) when it is no link, NULL when the chain
 * loops or memory runs out. Windows: always the path itself.
 */
char *platform_link_target(const char *path);

/* Maps a whole regular, non-empty file read-only for random access; NULL (err says why)
 * on failure. *info receives its size and time as mapped (to see later changes). */
void *platform_map_file(const char *path, PlatformFileInfo *info, char *err, size_t errlen);

/* Unmaps a file mapped by platform_map_file (NULL is fine). */
void platform_unmap_file(void *map, size_t size);

/* rename(from, to) that replaces an existing `to` on Windows too: 0, or -1 with errno set. */
int platform_replace_file(const char *from, const char *to);

/* Calls handler(signal number) on the first interrupt (Ctrl-C, SIGINT) or termination request
 * (SIGTERM); a second one ends the program as usual. The handler may only set an atomic flag. */
void platform_catch_interrupts(void (*handler)(int));

/* Restores what interrupts did before platform_catch_interrupts. */
void platform_release_interrupts(void);

#endif
