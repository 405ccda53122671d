/*
 * genfens: OpenBench's opening generator for data-generation workloads.
 * OpenBench runs
 *
 *     ./gizum "genfens N seed S book <None|FILE> [extra]" quit
 *
 * and reads every line "info string genfens <FEN>". Gizum answers with N
 * distinct, legal, near-balanced positions (openings.h's default recipe:
 * random walks from the start position, or from the book's positions),
 * the same for the same seed (all 64 bits are used). Optional extra words:
 * "plies A-B" (random moves), "depth D" and "margin CP" (the check).
 */
#ifndef GIZUM_GENFENS_H
#define GIZUM_GENFENS_H

#include <stdbool.h>
#include <stdint.h>

#include "openings.h"

/* Receives one line to print: "genfens <FEN>", or a message "genfens: ...". */
typedef void (*GenfensPrintFn)(void *ctx, const char *line);

/* Runs genfens on its arguments (the words after "genfens"); returns the number of positions printed, -1 on bad arguments. */
int genfens_run(int argc, const char *const *argv, GenfensPrintFn print, void *ctx);

/*
 * genfens_run in its two steps, so the arguments can be checked (and
 * fuzzed) without a search: what the arguments ask for, with the book or
 * EPD file opened. The source and recipe point into the job itself: it
 * stays where genfens_parse filled it until genfens_close.
 */
typedef struct {
    int count;                  /* positions to print, 1 .. GENFENS_COUNT_MAX */
    uint64_t seed;
    OpeningSource source;
    OpeningRecipe recipe;
    GenfensPrintFn print;
    void *ctx;
} GenfensJob;

enum { GENFENS_COUNT_MAX = 10000000 };

/* Reads the arguments into job; false when they are bad (said through print), and then nothing is left open. */
bool genfens_parse(int argc, const char *const *argv, GenfensPrintFn print, void *ctx, GenfensJob *job);
/* Walks, checks and prints the job's positions; returns how many were printed. */
int genfens_generate(const GenfensJob *job);
/* Closes the job's book or EPD file (naming the book entries the walks skipped as illegal). */
void genfens_close(GenfensJob *job);

#endif
