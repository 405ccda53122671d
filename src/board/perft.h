/*
 * perft: counts the leaf nodes of the legal move tree, with bulk counting at
 * the last ply. The divide printout follows Stockfish's format so existing
 * scripts can compare the two.
 */
#ifndef GIZUM_PERFT_H
#define GIZUM_PERFT_H

#include <stdio.h>

#include "position.h"
#include "progress.h"

uint64_t perft(Position *pos, int depth);
/* Prints "move: count" per root move, a blank line, "Nodes searched: N", time and speed. */
uint64_t perft_divide(Position *pos, int depth, FILE *out);
/* The same, showing which root move is being counted on progress (NULL: none). */
uint64_t perft_divide_report(Position *pos, int depth, FILE *out, Progress *progress);

#endif
