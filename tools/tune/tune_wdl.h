/*
 * Fitting the win/draw/loss model (src/eval/wdl.h) to self-play games:
 * `gizum-tune --fit-wdl FILE...`. Every position with a score becomes a
 * sample (material, value and outcome from the side to move's view); the
 * coefficients maximise the likelihood of the outcomes (they minimise the
 * mean log loss over win, draw and loss) by Fisher scoring with a
 * Levenberg-Marquardt damping, on all games but the last held-out share,
 * which measures the fit.
 */
#ifndef GIZUM_TUNE_WDL_H
#define GIZUM_TUNE_WDL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "wdl.h"

enum { WDL_WIN, WDL_DRAW, WDL_LOSS, WDL_OUTCOMES };

typedef struct {
    int16_t material;   /* wdl_material() of the position */
    int16_t value;      /* the search's score, side to move's view, cp */
    uint8_t outcome;    /* WDL_WIN .. WDL_LOSS for the side to move */
    uint32_t game;      /* which game (0, 1, ... in file order) */
} WdlSample;

typedef struct {
    WdlSample *samples;
    size_t count, capacity;
    uint32_t games;     /* games seen so far (the next game's index) */
} WdlSet;

typedef struct {
    size_t records;     /* lines with a record */
    size_t used;        /* samples stored */
    size_t bad;         /* reported and skipped */
    size_t noScore;     /* skipped: the record has no score */
    size_t certain;     /* skipped: a mate or tablebase score (the model does not apply) */
} WdlLoadStats;

/*
 * Appends the records of a dataset file (dataset.h). Positions of one game
 * are consecutive lines, as datagen writes them; a game ends where the
 * game ply does not increase, the result changes or the material grows.
 * Faults go to messages as "file:line: reason" (at most maxMessages, 0: all).
 * False if the file cannot be read or memory runs out.
 */
bool tune_wdl_load(WdlSet *set, const char *path, FILE *messages, int maxMessages, WdlLoadStats *stats);
void tune_wdl_free(WdlSet *set);

/* Mean log loss (nats per position) of the model c on n samples; INFINITY when c is not a valid model. */
double tune_wdl_loss(const WdlCoefficients *c, const WdlSample *s, size_t n);

/*
 * Fits c (the starting point on entry) to n samples, with polynomials of
 * the given degree (0: a material-independent model; higher coefficients
 * stay 0). Returns the final mean log loss; *iterations the steps taken.
 */
double tune_wdl_fit(WdlCoefficients *c, int degree, const WdlSample *s, size_t n, int *iterations);

/* Outcome frequencies of n samples (the constant-frequency baseline) and the log loss of freq on them. */
void tune_wdl_frequencies(const WdlSample *s, size_t n, double freq[WDL_OUTCOMES]);
double tune_wdl_constant_loss(const double freq[WDL_OUTCOMES], const WdlSample *s, size_t n);

/* Runs `gizum-tune --fit-wdl ...` (argv without the --fit-wdl itself); the exit status. */
int tune_wdl_cli(int argc, char **argv, FILE *out, FILE *err);

#endif
