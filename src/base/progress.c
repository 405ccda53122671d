#include "progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* Redraws closer together than this only flicker; commands quicker than the delay show nothing. */
enum { PROGRESS_REDRAW_MS = 200, PROGRESS_DELAY_MS = 500 };

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void progress_init(Progress *p) {
    const char *force = getenv("GIZUM_PROGRESS");
    bool forced = force && (force[0] == '0' || force[0] == '1');
    p->enabled = forced ? force[0] == '1' : isatty(STDERR_FILENO) == 1;
    p->delayMs = forced ? 0 : PROGRESS_DELAY_MS;
    p->shown = false;
    p->startMs = p->lastMs = now_ms();
}

int64_t progress_elapsed_ms(const Progress *p) { return now_ms() - p->startMs; }

void progress_show(Progress *p, bool force, const char *fmt, ...) {
    if (!p->enabled) return;
    int64_t now = now_ms();
    if (now - p->startMs < p->delayMs) return;
    if (!force && p->shown && now - p->lastMs < PROGRESS_REDRAW_MS) return;
    p->lastMs = now;
    char text[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    /* Carriage return, the text, then erase to the end of the line (ECMA-48 EL). */
    fprintf(stderr, "\r%s  [%.1f s]\033[K", text, (double)(now - p->startMs) / 1000.0);
    fflush(stderr);
    p->shown = true;
}

void progress_clear(Progress *p) {
    if (!p->enabled || !p->shown) return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    p->shown = false;
}
