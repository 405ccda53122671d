/*
 * gizum-match: match statistics. Elo from the score, a 95% error bar, the
 * likelihood of superiority, pentanomial pair counts and the generalized
 * SPRT (GSPRT) on them, as fishtest and OpenBench compute it.
 */
#ifndef MATCH_STATS_H
#define MATCH_STATS_H

#include <stdbool.h>

/* Pair outcomes by pair score: LL, LD+DL, LW+DD+WL, DW+WD, WW. */
enum { PENTA_NB = 5 };

typedef struct {
    int wins, draws, losses;    /* from the first engine's point of view */
    int penta[PENTA_NB];        /* complete colour-reversed pairs */
} MatchScore;

typedef struct {
    int games;
    double score;               /* points per game, 0..1 */
    double elo;                 /* logistic Elo difference (may be +-INFINITY) */
    double eloError;            /* half-width of the 95% interval (NAN: no games; INFINITY: interval reaches 0 or 1) */
    double los;                 /* likelihood of superiority, 0..1 */
    double drawRatio;
    double nelo;                /* normalized Elo (NAN when unknown) */
    bool fromPairs;             /* error bar computed from pentanomial pairs */
} EloEstimate;

typedef enum { SPRT_NORMALIZED, SPRT_LOGISTIC } SprtModel;

typedef struct {
    bool enabled;
    double elo0, elo1, alpha, beta;
    SprtModel model;
} SprtConfig;

typedef enum { SPRT_CONTINUE, SPRT_H0, SPRT_H1 } SprtDecision;

/* Logistic Elo of a score fraction: -400 log10(1/s - 1). */
double stats_elo(double score);
/* Score fraction of a logistic Elo difference: 1 / (1 + 10^(-elo/400)). */
double stats_score(double elo);
/* Likelihood of superiority from wins and losses: 0.5 (1 + erf((W - L) / sqrt(2 (W + L)))). */
double stats_los(int wins, int losses);
/* Elo, error bar (pentanomial when pairs exist, else trinomial), LOS, draw ratio. */
void stats_estimate(const MatchScore *m, EloEstimate *out);

/* Records one finished pair (scores 0, 0.5 or 1 of the first engine in each game). */
void stats_add_pair(MatchScore *m, double first, double second);

/* LLR bounds: log(beta / (1 - alpha)) and log((1 - beta) / alpha). */
void sprt_bounds(const SprtConfig *c, double *lower, double *upper);
/*
 * The GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0): on the
 * pentanomial counts when any pair is complete, else on W/D/L.
 */
double sprt_llr(const SprtConfig *c, const MatchScore *m);
SprtDecision sprt_decide(const SprtConfig *c, double llr);

#endif
