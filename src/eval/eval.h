/*
 * Static evaluation: a weighted linear sum Eval = sum w_i * f_i, tapered
 * between middlegame and endgame weights by game phase, from the side to
 * move's point of view, in centipawns. The weights live in evalweights.c;
 * the term list in evalweights.h.
 */
#ifndef GIZUM_EVAL_H
#define GIZUM_EVAL_H

#include <stdio.h>

#include "evalweights.h"
#include "position.h"

/* Per-thread evaluation cache (about 1 MB): pawn structures by pawn key, material imbalances by the
 * piece counts. Each search thread creates its own. */
typedef struct EvalCache EvalCache;

/*
 * The feature counts behind one evaluation: coeff[p][c] is how often
 * parameter p applies to colour c, so that
 *   mg = sum_p (coeff[p][WHITE] - coeff[p][BLACK]) * mg_value(EvalWeights[p])
 * (likewise eg) over every parameter except TEMPO and COMPLEXITY; then
 *   C = sum over the COMPLEXITY entries of coeff[p][WHITE] * eg_value(EvalWeights[p]),
 *   eg += sign(eg) * max(C, -|eg|), and
 *   whiteView = (mg * phase * mgScale + eg * (PHASE_MAX - phase) * scale)
 *               / (PHASE_MAX * SCALE_NORMAL),
 *   total = (side to move is White ? whiteView : -whiteView) + tempo.
 * This is what the `eval` printout shows and what a tuner reads.
 */
enum { PHASE_MAX = 24 };

typedef struct {
    int16_t coeff[PARAM_NB][COLOR_NB];
    int phase;       /* 0 (bare kings and pawns) .. PHASE_MAX (all pieces) */
    int scale;       /* endgame scale factor, SCALE_NORMAL = no scaling */
    int mgScale;     /* middlegame scale factor (below normal only in pawnless near-draws) */
    /* The scale factors if colour c were ahead in the endgame sum: scale and
     * mgScale are scaleFor[strong], mgScaleFor[strong] with strong = eg > 0 ?
     * WHITE : BLACK. A tuner moves eg's sign, so it needs both. */
    int scaleFor[COLOR_NB], mgScaleFor[COLOR_NB];
    int mg, eg;      /* White's view sums, tempo excluded; eg after the complexity */
    int complexity;  /* what the complexity added to eg */
    int whiteView;   /* tapered and scaled, White's view, tempo excluded */
    int tempo;       /* tapered tempo bonus for the side to move */
    Value total;     /* the evaluation, side to move's view */
} EvalTrace;

/* One entry per term of EVAL_TERMS, for printers and tuners. */
typedef struct {
    const char *name;   /* enum name, e.g. "PSQT_KNIGHT" */
    const char *text;   /* readable name, e.g. "psqt knight" */
    int first, count;   /* parameter indices first .. first + count - 1 */
    LabelKind label;
    TermGroup group;
} EvalTermInfo;

extern const EvalTermInfo EvalTerms[TERM_NB];

/* Returns NULL if the memory is not available. */
EvalCache *eval_cache_create(void);
void eval_cache_destroy(EvalCache *table);
void eval_cache_clear(EvalCache *table);

/* Static evaluation, side to move's view. pawns may be NULL (no caching). */
Value eval_evaluate(const Position *pos, EvalCache *pawns);
/* The same evaluation, recording every feature count into trace (no cache). */
Value eval_evaluate_traced(const Position *pos, EvalTrace *trace);
/* Prints every feature: counts per side, weights, contributions, and the total. */
void eval_trace(const Position *pos, FILE *out);

/* Name of one parameter, e.g. "psqt knight e4" or "mobility rook 7". */
void eval_param_label(int param, char *out, size_t len);
/* Prints a weight table as the C definition of EvalWeights (gizum-tune writes the file around it). */
void eval_write_table(FILE *out, const Score *weights);
/* Prints the compiled-in table (EvalWeights) that way. */
void eval_print_weights(FILE *out);

#endif
