/*
 * The weight table as a file: reading an evalweights.c back (so a tune can
 * start from, or be checked against, a table without rebuilding), writing
 * one (src/eval/evalweights.c is this module's output) without ever leaving
 * a half-written file, and naming sets of weights for freezing.
 */
#ifndef GIZUM_TUNE_WEIGHTS_H
#define GIZUM_TUNE_WEIGHTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "evalweights.h"

/*
 * Parses text in the layout tune_weights_print() prints ("[NAME] =" and
 * then the term's S(mg, eg) pairs, for every term in EVAL_TERMS order;
 * comments are ignored; values within +-32767, which S() packs). False
 * with a reason in err on any deviation.
 */
bool tune_weights_parse(const char *text, Score *weights, char *err, size_t errlen);
/* Reads and parses a file; err names the file. */
bool tune_weights_read(const char *path, Score *weights, char *err, size_t errlen);

/* Prints weights as the complete C source of evalweights.c: one commented block per term, eight pairs a line. */
void tune_weights_print(FILE *out, const Score *weights);

/*
 * Writes weights as a complete evalweights.c: into a temporary file beside
 * path, flushed and synced, then renamed over path. On failure path is
 * untouched and err says why.
 */
bool tune_weights_write(const char *path, const Score *weights, char *err, size_t errlen);

/*
 * Marks the weights a spec names in mask (2 * PARAM_NB flags, mg and eg of
 * each parameter): "NAME" is a whole term of EVAL_TERMS (e.g. PSQT_KNIGHT),
 * "NAME[i]" one entry of it (PIECE_VALUE[0] is the pawn), either followed
 * by ".mg" or ".eg" for one half only. False with a reason for a bad spec.
 */
bool tune_weights_select(const char *spec, bool *mask, char *err, size_t errlen);

#endif
