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

/* Receives one line to print: "genfens <FEN>", or a message "genfens: ...". */
typedef void (*GenfensPrintFn)(void *ctx, const char *line);

/* Runs genfens on its arguments (the words after "genfens"); returns the number of positions printed, -1 on bad arguments. */
int genfens_run(int argc, const char *const *argv, GenfensPrintFn print, void *ctx);

#endif
