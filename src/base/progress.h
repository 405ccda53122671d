/*
 * A one-line progress display on stderr for long shell commands (perft,
 * bench, book make, epd). Nothing shows in the first half second, so quick
 * commands stay quiet; it shows only when stderr is a terminal, so
 * redirected output and pipes never see it and stdout is never touched.
 * GIZUM_PROGRESS=1 forces it on (from the start) and GIZUM_PROGRESS=0 off.
 */
#ifndef GIZUM_PROGRESS_H
#define GIZUM_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "platform.h" /* PRINTF_FORMAT */

typedef struct {
    bool enabled;
    bool shown;         /* a line is on screen and must be cleared */
    int64_t startMs;
    int64_t lastMs;     /* when the line was last redrawn */
    int64_t delayMs;    /* nothing shows before this (0 when forced on) */
} Progress;

/* Starts the clock; enabled when stderr is a terminal (or forced by GIZUM_PROGRESS). */
void progress_init(Progress *p);
/* Redraws the line (at most a few times a second, unless force); the text gets the elapsed time. */
void progress_show(Progress *p, bool force, const char *fmt, ...) PRINTF_FORMAT(3, 4);
/* Removes the line so that normal output continues on a clean line. */
void progress_clear(Progress *p);
/* Milliseconds since progress_init. */
int64_t progress_elapsed_ms(const Progress *p);

#endif
