/*
 * gizum-match: match statistics.
 *
 * The GSPRT follows Michel Van den Bergh's formulation used by fishtest:
 * the results are an empirical distribution over outcome values a_i (pair
 * scores 0, 1/4, ..., 1 or game scores 0, 1/2, 1) with frequencies p_i; for
 * each hypothesis the maximum-likelihood distribution satisfying it is found
 * by solving a "secular equation", and LLR = N * sum p_i log(q1_i / q0_i).
 *
 * Normalized Elo (the default, as fishtest): the hypothesis fixes the
 * t-value t = (mu - 1/2) / sigma of the per-pair (per-game) score; a
 * normalized Elo difference nElo corresponds to t = nElo / (800 / ln 10)
 * per game, i.e. sqrt(2) times that per pair. Logistic Elo: the
 * hypothesis fixes the expected score mu = 1 / (1 + 10^(-elo / 400)).
 */
#include "match_stats.h"

#include <math.h>
#include <string.h>

/* 97.5% quantile of the standard normal distribution (two-sided 95%). */
static const double Z95 = 1.959963984540054;
/* Normalized Elo per unit of per-game t-value: 800 / ln(10). */
static const double NELO_PER_T = 347.4355855226014;
/* Frequency given to outcomes never seen, so every log-likelihood stays finite. */
static const double REGULARIZE = 1e-3;
/* Iterations of the fixed point for the t-value MLE, and its tolerance. */
static const int MLE_ITERATIONS = 20;
static const double MLE_TOLERANCE = 1e-9;

double stats_elo(double score) {
    if (score <= 0) return -INFINITY;
    if (score >= 1) return INFINITY;
    return -400.0 * log10(1.0 / score - 1.0);
}

double stats_score(double elo) {
    return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

double stats_los(int wins, int losses) {
    if (wins + losses == 0) return 0.5;
    return 0.5 * (1.0 + erf((double)(wins - losses) / sqrt(2.0 * (wins + losses))));
}

void stats_add_pair(MatchScore *m, double first, double second) {
    int halfPoints = (int)lround((first + second) * 2); /* pair points 0..2 in half points */
    if (halfPoints >= 0 && halfPoints < PENTA_NB) m->penta[halfPoints]++;
}

/* Mean and variance of a distribution of n values a[] with frequencies p[]. */
static void moments(const double *a, const double *p, int n, double *mean, double *var) {
    double mu = 0, v = 0;
    for (int i = 0; i < n; i++) mu += p[i] * a[i];
    for (int i = 0; i < n; i++) v += p[i] * (a[i] - mu) * (a[i] - mu);
    *mean = mu;
    *var = v;
}

void stats_estimate(const MatchScore *m, EloEstimate *out) {
    memset(out, 0, sizeof *out);
    int n = m->wins + m->draws + m->losses;
    out->games = n;
    out->eloError = out->nelo = NAN;
    out->los = stats_los(m->wins, m->losses);
    if (n == 0) {
        out->score = 0.5;
        return;
    }
    out->score = (m->wins + 0.5 * m->draws) / n;
    out->elo = stats_elo(out->score);
    out->drawRatio = (double)m->draws / n;

    int pairs = 0;
    for (int i = 0; i < PENTA_NB; i++) pairs += m->penta[i];
    double mu, var, perGameVar, stderrMean;
    if (pairs > 0) {
        /* Pair scores a_i = i/4 (average of the two games). */
        double a[PENTA_NB], p[PENTA_NB];
        for (int i = 0; i < PENTA_NB; i++) {
            a[i] = i / 4.0;
            p[i] = (double)m->penta[i] / pairs;
        }
        moments(a, p, PENTA_NB, &mu, &var);
        stderrMean = sqrt(var / pairs);
        perGameVar = 2 * var; /* a pair average of two games: sigma_game^2 = 2 sigma_pair^2 */
        out->fromPairs = true;
    } else {
        double a[3] = { 0, 0.5, 1 }, p[3] = { (double)m->losses / n, (double)m->draws / n, (double)m->wins / n };
        moments(a, p, 3, &mu, &var);
        stderrMean = sqrt(var / n);
        perGameVar = var;
    }
    if (perGameVar > 0) out->nelo = (mu - 0.5) / sqrt(perGameVar) * NELO_PER_T;
    double lo = out->score - Z95 * stderrMean, hi = out->score + Z95 * stderrMean;
    /* An interval reaching a score of 0 or 1 has no finite Elo width. */
    out->eloError = lo > 0 && hi < 1 ? (stats_elo(hi) - stats_elo(lo)) / 2 : INFINITY;
}

void sprt_bounds(const SprtConfig *c, double *lower, double *upper) {
    *lower = log(c->beta / (1 - c->alpha));
    *upper = log((1 - c->beta) / c->alpha);
}

/*
 * Solves sum_i p_i a_i / (1 + x a_i) = 0 for x in (-1/max a, -1/min a),
 * where the left side falls monotonically; needs min a < 0 < max a.
 */
static double secular(const double *a, const double *p, int n) {
    double lo = -INFINITY, hi = INFINITY;
    for (int i = 0; i < n; i++) {
        if (a[i] > 0 && -1 / a[i] > lo) lo = -1 / a[i];
        if (a[i] < 0 && -1 / a[i] < hi) hi = -1 / a[i];
    }
    if (!isfinite(lo) || !isfinite(hi)) return NAN;
    for (int iter = 0; iter < 200; iter++) {
        double mid = 0.5 * (lo + hi), f = 0;
        if (mid <= lo || mid >= hi) break;
        for (int i = 0; i < n; i++) f += p[i] * a[i] / (1 + mid * a[i]);
        if (f > 0) lo = mid;
        else hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* MLE distribution q with expectation s, given the empirical p (Van den Bergh, Prop. 1.1). */
static bool mle_expected(const double *a, const double *p, int n, double s, double *q) {
    double shifted[PENTA_NB] = { 0 };
    for (int i = 0; i < n; i++) shifted[i] = a[i] - s;
    double x = secular(shifted, p, n);
    if (!isfinite(x)) return false;
    for (int i = 0; i < n; i++) q[i] = p[i] / (1 + x * shifted[i]);
    return true;
}

/* MLE distribution q with t-value (mu - 1/2) / sigma = t, by fixed-point iteration. */
static bool mle_t_value(const double *a, const double *p, int n, double t, double *q) {
    for (int i = 0; i < n; i++) q[i] = 1.0 / n;
    for (int iter = 0; iter < MLE_ITERATIONS; iter++) {
        double mu, var, shifted[PENTA_NB] = { 0 }, prev[PENTA_NB] = { 0 };
        moments(a, q, n, &mu, &var);
        double sigma = sqrt(var);
        for (int i = 0; i < n; i++) {
            double d = (mu - a[i]) / sigma;
            shifted[i] = a[i] - 0.5 - t * sigma * (1 + d * d) / 2;
            prev[i] = q[i];
        }
        double x = secular(shifted, p, n);
        if (!isfinite(x)) return false;
        double change = 0;
        for (int i = 0; i < n; i++) {
            q[i] = p[i] / (1 + x * shifted[i]);
            change = fmax(change, fabs(q[i] - prev[i]));
        }
        if (change < MLE_TOLERANCE) break;
    }
    return true;
}

double sprt_llr(const SprtConfig *c, const MatchScore *m) {
    double counts[PENTA_NB], a[PENTA_NB], p[PENTA_NB], q0[PENTA_NB], q1[PENTA_NB];
    int n = 0, pairs = 0;
    for (int i = 0; i < PENTA_NB; i++) pairs += m->penta[i];
    if (pairs > 0) {
        n = PENTA_NB;
        for (int i = 0; i < n; i++) counts[i] = m->penta[i];
    } else {
        n = 3;
        counts[0] = m->losses;
        counts[1] = m->draws;
        counts[2] = m->wins;
    }
    double total = 0;
    for (int i = 0; i < n; i++) {
        if (counts[i] == 0) counts[i] = REGULARIZE;
        total += counts[i];
    }
    if (total < 1) return 0;
    for (int i = 0; i < n; i++) {
        a[i] = (double)i / (n - 1);
        p[i] = counts[i] / total;
    }
    bool ok;
    if (c->model == SPRT_LOGISTIC) {
        ok = mle_expected(a, p, n, stats_score(c->elo0), q0) && mle_expected(a, p, n, stats_score(c->elo1), q1);
    } else {
        double scale = n == PENTA_NB ? sqrt(2.0) : 1.0;
        double t0 = c->elo0 / NELO_PER_T * scale, t1 = c->elo1 / NELO_PER_T * scale;
        ok = mle_t_value(a, p, n, t0, q0) && mle_t_value(a, p, n, t1, q1);
    }
    if (!ok) return 0;
    double llr = 0;
    for (int i = 0; i < n; i++) llr += p[i] * (log(q1[i]) - log(q0[i]));
    return total * llr;
}

SprtDecision sprt_decide(const SprtConfig *c, double llr) {
    double lower, upper;
    sprt_bounds(c, &lower, &upper);
    if (llr >= upper) return SPRT_H1;
    if (llr <= lower) return SPRT_H0;
    return SPRT_CONTINUE;
}
