/*
 * The tuner's model and its fit. Weights are real numbers during the fit,
 * 2 * PARAM_NB of them, middlegame and endgame interleaved (w[2p] = mg of
 * parameter p, w[2p + 1] = eg). For a stored position (White's view):
 *
 *   mg = sum coeff * w_mg,  eg = sum coeff * w_eg
 *   s  = the side leading in eg (eg > 0: White), as in eval.c
 *   E  = (mg * phase * mgScale[s] + eg * (PHASE_MAX - phase) * scale[s]) / (PHASE_MAX * SCALE_NORMAL)
 *        + tempoSign * (tempo_mg * phase + tempo_eg * (PHASE_MAX - phase)) / PHASE_MAX
 *
 * which is evaluate() without its two integer truncations (each under
 * 1 cp) and its clamp to the mate range (never reached by a static
 * evaluation). The scale factor chosen by the sign of eg is the only
 * non-linear part: the model picks it exactly as the engine does, and the
 * gradient treats it as constant (it is, except on the set eg = 0).
 *
 * Loss: mean over positions of (sigmoid(K * E) - target)^2 with
 * target = lambda * result + (1 - lambda) * sigmoid(K * score), plus
 * l2 * sum over free weights of (w - w_start)^2.
 */
#ifndef GIZUM_TUNE_MODEL_H
#define GIZUM_TUNE_MODEL_H

#include <stdio.h>

#include "tune_data.h"

enum { TUNE_WEIGHTS = 2 * PARAM_NB };

typedef enum { TUNE_ADAM, TUNE_GD } TuneOptimizer;

typedef struct {
    double lambda;          /* share of the game result in the target, 0..1 */
    double K;               /* sigmoid scale per centipawn */
    double lr;              /* Adam: step in cp; gradient descent: multiplies the gradient */
    double lrDecay;         /* lr is multiplied by this after every epoch */
    double l2;              /* pull toward the starting weights */
    int epochs;
    size_t batch;           /* positions per step; 0 = full batch */
    int threads;
    TuneOptimizer optimizer;
    double validation;      /* share of the positions held out to measure overfitting */
    uint64_t seed;          /* order of the positions (mini-batches, held-out set) */
    const bool *frozen;     /* TUNE_WEIGHTS flags: weights the fit must not move (NULL: none) */
    FILE *log;              /* one line per epoch (NULL: silent) */
    /* Called after every epoch with the current weights (NULL: none); false stops the fit. */
    bool (*onEpoch)(void *ctx, int epoch, const double *w);
    void *ctx;
} TuneConfig;

/* Sets every field to its default (the recommended settings). */
void tune_config_defaults(TuneConfig *cfg);

/* Converts between the packed table and the fitted reals (rounded to the nearest integer). */
void tune_weights_to_real(const Score *weights, double *w);
void tune_weights_from_real(const double *w, Score *weights);

/* The model E above for one position, in cp, White's view. */
double tune_eval(const TuneData *data, const TunePos *tp, const double *w);
/* The engine's own integer arithmetic on the stored coefficients, side to move's view:
 * equals eval_evaluate() of the stored position when weights = EvalWeights. */
int tune_eval_exact(const TuneData *data, const TunePos *tp, const Score *weights);

/* Sets each position's target for K and lambda (positions without a score use the result). */
void tune_set_targets(TuneData *data, double K, double lambda);

/* Mean loss over positions [lo, hi), without the l2 term. */
double tune_loss(const TuneData *data, size_t lo, size_t hi, const double *w, double K, int threads);
/* The same loss; grad (TUNE_WEIGHTS) receives its gradient. */
double tune_gradient(const TuneData *data, size_t lo, size_t hi, const double *w, double K, int threads, double *grad);

/* The K minimising the mean (sigmoid(K * E) - result)^2 for weights w (results only: scores do not enter). */
double tune_fit_k(const TuneData *data, const double *w);

/*
 * Shuffles the positions (cfg->seed), holds out cfg->validation of them,
 * sets the targets, and runs cfg->epochs epochs from w (updated in place).
 * Returns the final training loss.
 */
double tune_train(TuneData *data, const TuneConfig *cfg, double *w);

#endif
