/*
 * The tuner's quiescence search: resolves a training position to the leaf
 * of its quiescence principal variation, so that the weights are fitted on
 * positions without captures in flight (a position in the middle of an
 * exchange would teach that being a piece down is fine). The engine's
 * qsearch (src/search/alphabeta.c) serves the search; this one, resolve(),
 * serves the training data and is deliberately small:
 * stand pat, captures and promotions with SEE >= 0 (MVV-LVA order), delta
 * pruning, all evasions in check, mate detection, no hash table and no
 * draw rules.
 */
#ifndef GIZUM_TUNE_QSEARCH_H
#define GIZUM_TUNE_QSEARCH_H

#include "position.h"

/* Quiescence lines longer than this end in a static evaluation. */
enum { TUNE_QS_MAX_PLY = 32 };

typedef enum {
    TUNE_LEAF_QUIET,      /* pos is now the principal leaf: not in check, stand pat */
    TUNE_LEAF_NO_MOVES,   /* the root is checkmate or stalemate */
    TUNE_LEAF_MATE,       /* the principal line ends in a mate */
    TUNE_LEAF_TOO_DEEP    /* the principal line reached TUNE_QS_MAX_PLY in check */
} TuneLeafStatus;

typedef struct TuneQsearch TuneQsearch;

/* One per thread (it owns an evaluation cache); NULL if out of memory. */
TuneQsearch *tune_qsearch_create(void);
void tune_qsearch_destroy(TuneQsearch *qs);

/*
 * Searches pos and plays the principal variation on it, so pos ends at the
 * principal leaf. *score (may be NULL) receives the quiescence value, side
 * to move at the root; *plies (may be NULL) the number of plies played.
 * For TUNE_LEAF_QUIET the leaf's static evaluation is that value (seen from
 * the leaf's side to move).
 */
TuneLeafStatus tune_qsearch_leaf(TuneQsearch *qs, Position *pos, int *score, int *plies);

/* Positions searched since creation. */
uint64_t tune_qsearch_nodes(const TuneQsearch *qs);

#endif
