/*
 * Big tables straight from the kernel (see pages.h).
 */
#include "pages.h"

#include <stdint.h>
#include <sys/mman.h>

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
    madvise((void *)start, bytes, MADV_HUGEPAGE);
#endif
    return (void *)start;
}

void pages_free(void *mem, size_t bytes) {
    if (mem) munmap(mem, bytes);
}
