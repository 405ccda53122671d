/*
 * Rescoring training data: every position of a dataset file (dataset.h) is
 * searched again, deeper than the games that wrote it (datagen plays at
 * 5,000 nodes a move), and written with the new score beside its game's
 * result, so the tuner can fit to better labels without replaying games.
 *
 * Each position is searched on fresh search state (empty hash, histories),
 * so its new score depends only on the position and the limits: the output
 * is the same for any number of threads. Positions are written in input
 * order, in blocks; an interrupted run keeps whole blocks and names the
 * line to continue from (--first-line). Like datagen's own filter, a
 * position is left out when the deeper search finds a mate, its best move
 * is a capture or promotion (not quiet after all), or it is in check.
 */
#ifndef GIZUM_RESCORE_H
#define GIZUM_RESCORE_H

#include <stdint.h>

typedef struct {
    const char *in, *out;  /* out is appended to */
    uint64_t nodes;        /* per position (0: none) */
    int depth;             /* per position (0: none); nodes or depth must be set */
    int threads;
    int hashMB;            /* each thread's table, cleared before every position */
    long long firstLine;   /* input lines before this one (1-based) are skipped */
    long long lines;       /* stop after the input line firstLine + lines - 1 (0: the whole file) */
    int reportSeconds;
} RescoreConfig;

/* Runs the rescoring; returns the exit status (0 done, 1 failure, 2 bad setup, 128 + signal when interrupted). */
int rescore_run(const RescoreConfig *cfg);

#endif
