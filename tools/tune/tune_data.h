/*
 * The tuner's training set: every position resolved to its quiet leaf and
 * stored once as a sparse list of feature coefficients, so an epoch is a
 * walk over flat arrays and never runs the evaluator.
 *
 * For a position the evaluator computes (eval.h)
 *   mg = sum_p coeff_p * mg(w_p),  eg = sum_p coeff_p * eg(w_p)
 *   whiteView = (mg * phase * mgScale + eg * (PHASE_MAX - phase) * scale) / (PHASE_MAX * SCALE_NORMAL)
 * with coeff_p = White's count minus Black's, and adds the tapered tempo
 * for the side to move. A TunePos keeps exactly what that needs: the
 * non-zero coefficients (TEMPO apart: it is not scaled), the phase, the
 * side to move, and both pairs of scale factors (which one applies depends
 * on the sign of eg, which the tuner moves).
 */
#ifndef GIZUM_TUNE_DATA_H
#define GIZUM_TUNE_DATA_H

#include <stdint.h>
#include <stdio.h>

#include "eval.h"
#include "position.h"

typedef struct {
    uint16_t param;   /* index into EvalWeights */
    int16_t coeff;    /* White's count minus Black's, never 0 */
} TuneEntry;

typedef struct {
    uint64_t begin;              /* first entry in TuneData.entries */
    uint16_t count;              /* number of entries */
    uint8_t phase;               /* 0 .. PHASE_MAX */
    int8_t tempoSign;            /* +1 White to move, -1 Black to move */
    uint8_t scale[COLOR_NB];     /* endgame scale factor when that colour leads in eg */
    uint8_t mgScale[COLOR_NB];   /* middlegame scale factor likewise */
    float result;                /* game result, White's view: 1, 0.5, 0 */
    float score;                 /* search score in cp, White's view; NAN if the record had none */
    float target;                /* what the tuner fits (tune_model_set_targets) */
} TunePos;

typedef struct {
    TunePos *positions;
    size_t count, capacity;
    TuneEntry *entries;
    size_t entryCount, entryCapacity;
} TuneData;

typedef struct {
    size_t records;    /* lines with a record, or positions taken from PGN games */
    size_t loaded;     /* positions stored */
    size_t bad;        /* reported and skipped: malformed lines, illegal FENs, unreadable games */
    size_t noMoves;    /* skipped: the position is checkmate or stalemate */
    size_t mates;      /* skipped: the quiescence line ends in a mate */
    size_t tooDeep;    /* skipped: no quiet leaf within TUNE_QS_MAX_PLY plies */
    size_t noResult;   /* skipped: PGN games without a result */
    size_t resolved;   /* stored positions whose quiet leaf is not the position itself */
} TuneLoadStats;

typedef struct {
    int threads;           /* resolving positions runs on this many threads */
    FILE *messages;        /* "file:line: reason" reports go here (NULL: none) */
    int pgnSkipPlies;      /* PGN games: the first plies' positions are not used */
    int maxMessages;       /* per file; further faults are only counted (0: no limit) */
} TuneLoadOptions;

/*
 * Appends the positions of one file: a PGN file when the name ends in
 * ".pgn", otherwise dataset lines (dataset.h). Faulty records are reported
 * and skipped; returns false only if the file cannot be opened or read.
 * stats are added to, not reset.
 */
bool tune_data_load(TuneData *data, const char *path, const TuneLoadOptions *opt, TuneLoadStats *stats);

/*
 * The coefficients of pos as a TunePos (begin, result and score left 0)
 * and its entries; returns the number of entries (at most PARAM_NB).
 */
int tune_data_encode(const Position *pos, TunePos *tp, TuneEntry *entries);

/* Appends one encoded position with its labels (tests, synthetic data). False if out of memory. */
bool tune_data_append(TuneData *data, const TunePos *tp, const TuneEntry *entries, double result, double score);

void tune_data_free(TuneData *data);

#endif
