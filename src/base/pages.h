/*
 * Big tables straight from the kernel, handed back to it when freed
 * (implemented in platform.c, with the rest of what differs between systems).
 *
 * A table of megabytes from malloc may stay in the heap after free (glibc
 * raises its mmap threshold the first time one is freed), so a search
 * worker's tables would keep the process's resident memory up after the
 * worker is gone, by a different amount each time. Mapped pages leave with
 * the table.
 */
#ifndef GIZUM_PAGES_H
#define GIZUM_PAGES_H

#include <stdbool.h>
#include <stddef.h>

/* The transparent huge page size on x86-64 and AArch64 Linux, and the large page size of x86-64 Windows. */
enum { HUGE_PAGE_BYTES = 2 << 20 };

/* Zero-filled memory for a table of bytes, or NULL (errno says why). With hugePages
 * and a table of at least one huge page, it starts on a huge-page boundary and the
 * kernel is asked to back it with huge pages (Linux; on Windows, large pages when the
 * user holds the "Lock pages in memory" right). */
void *pages_alloc(size_t bytes, bool hugePages);

/* Returns memory from pages_alloc(bytes, ...) to the kernel (NULL is fine). */
void pages_free(void *mem, size_t bytes);

#endif
