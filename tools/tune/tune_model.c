/*
 * Loss, gradient, K and the optimiser over the sparse training set. Each
 * pass splits its positions into one contiguous slice per thread; every
 * thread sums its own loss and gradient and the slices are added in
 * thread order, so a run is reproducible for a given thread count.
 */
#include "tune_model.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void tune_config_defaults(TuneConfig *cfg) {
    *cfg = (TuneConfig){
        .lambda = 0.5, .K = 0, .lr = 1.0, .lrDecay = 1.0, .l2 = 0, .epochs = 100, .batch = 16384,
        .threads = 1, .optimizer = TUNE_ADAM, .validation = 0, .seed = 1,
    };
}

void tune_weights_to_real(const Score *weights, double *w) {
    for (int p = 0; p < PARAM_NB; p++) {
        w[2 * p] = mg_value(weights[p]);
        w[2 * p + 1] = eg_value(weights[p]);
    }
}

/* Nearest integer, kept well inside the 16 bits a packed half holds. */
static int to_weight(double x) {
    double r = round(x);
    return r > 30000 ? 30000 : r < -30000 ? -30000 : (int)r;
}

void tune_weights_from_real(const double *w, Score *weights) {
    for (int p = 0; p < PARAM_NB; p++) weights[p] = S(to_weight(w[2 * p]), to_weight(w[2 * p + 1]));
}

/* ------------------------------------------------------------ the model */

/* How E depends on the mg and eg sums and on the tempo weights of one position. */
typedef struct {
    double mg, eg;          /* the sums (eg after the complexity) */
    double mgFactor;        /* dE / d mg */
    double egFactor;        /* dE / d eg of an ordinary term (0 where the complexity cancels eg) */
    double complexityFactor; /* dE / d eg of a complexity entry */
    double tempoMg, tempoEg; /* dE / d tempo weights */
    double value;           /* E */
} ModelTerms;

static inline void model_terms(const TuneData *data, const TunePos *tp, const double *w, ModelTerms *m) {
    const TuneEntry *e = data->entries + tp->begin;
    double mg = 0, eg = 0, complexity = 0;
    for (int k = 0; k < tp->count; k++) {
        if (eval_param_is_complexity(e[k].param)) {
            complexity += e[k].coeff * w[2 * e[k].param + 1];
            continue;
        }
        mg += e[k].coeff * w[2 * e[k].param];
        eg += e[k].coeff * w[2 * e[k].param + 1];
    }
    /* eg + sign(eg) * max(C, -|eg|): where the clamp holds, eg is 0 and moves with nothing. */
    double sign = (eg > 0) - (eg < 0);
    bool cancelled = complexity <= -fabs(eg);
    eg = cancelled ? 0 : eg + sign * complexity;
    int strong = eg > 0 ? WHITE : BLACK;
    double phase = tp->phase, rest = PHASE_MAX - tp->phase;
    m->mg = mg;
    m->eg = eg;
    m->mgFactor = phase * tp->mgScale[strong] / (PHASE_MAX * SCALE_NORMAL);
    m->egFactor = cancelled ? 0 : rest * tp->scale[strong] / (PHASE_MAX * SCALE_NORMAL);
    m->complexityFactor = sign * m->egFactor;
    m->tempoMg = tp->tempoSign * phase / PHASE_MAX;
    m->tempoEg = tp->tempoSign * rest / PHASE_MAX;
    m->value = mg * m->mgFactor + eg * m->egFactor + m->tempoMg * w[2 * TEMPO] + m->tempoEg * w[2 * TEMPO + 1];
}

double tune_eval(const TuneData *data, const TunePos *tp, const double *w) {
    ModelTerms m;
    model_terms(data, tp, w, &m);
    return m.value;
}

int tune_eval_exact(const TuneData *data, const TunePos *tp, const Score *weights) {
    const TuneEntry *e = data->entries + tp->begin;
    int mg = 0, eg = 0, complexity = 0;
    for (int k = 0; k < tp->count; k++) {
        if (eval_param_is_complexity(e[k].param)) {
            complexity += e[k].coeff * eg_value(weights[e[k].param]);
            continue;
        }
        mg += e[k].coeff * mg_value(weights[e[k].param]);
        eg += e[k].coeff * eg_value(weights[e[k].param]);
    }
    eg += ((eg > 0) - (eg < 0)) * (complexity > -abs(eg) ? complexity : -abs(eg));
    int strong = eg > 0 ? WHITE : BLACK;
    int phase = tp->phase;
    int whiteView = (mg * phase * tp->mgScale[strong] + eg * (PHASE_MAX - phase) * tp->scale[strong])
                  / (PHASE_MAX * SCALE_NORMAL);
    int tempo = (mg_value(weights[TEMPO]) * phase + eg_value(weights[TEMPO]) * (PHASE_MAX - phase)) / PHASE_MAX;
    int total = (tp->tempoSign > 0 ? whiteView : -whiteView) + tempo;
    if (total > VALUE_MATE_IN_MAX_PLY - 1) total = VALUE_MATE_IN_MAX_PLY - 1;
    if (total < VALUE_MATED_IN_MAX_PLY + 1) total = VALUE_MATED_IN_MAX_PLY + 1;
    return total;
}

static inline double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

void tune_set_targets(TuneData *data, double K, double lambda) {
    for (size_t i = 0; i < data->count; i++) {
        TunePos *tp = &data->positions[i];
        tp->target = isnan(tp->score) ? tp->result
                                      : (float)(lambda * tp->result + (1 - lambda) * sigmoid(K * tp->score));
    }
}

/* ------------------------------------------------------------ parallel passes */

typedef struct {
    const TuneData *data;
    const double *w;
    double K;
    size_t lo, hi;
    double *grad;   /* this slice's gradient sums, or NULL for the loss alone */
    double loss;    /* sum of squared errors */
} Slice;

/* Sums the squared errors (and their gradient) over one slice. */
static void *slice_run(void *arg) {
    Slice *s = arg;
    const TuneData *data = s->data;
    const double *w = s->w;
    double loss = 0;
    for (size_t i = s->lo; i < s->hi; i++) {
        const TunePos *tp = &data->positions[i];
        ModelTerms m;
        model_terms(data, tp, w, &m);
        double p = sigmoid(s->K * m.value);
        double diff = p - tp->target;
        loss += diff * diff;
        if (!s->grad) continue;

        double g = 2 * diff * p * (1 - p) * s->K; /* d loss / d E */
        double gm = g * m.mgFactor, ge = g * m.egFactor;
        double *grad = s->grad;
        const TuneEntry *e = data->entries + tp->begin;
        double gc = g * m.complexityFactor;
        for (int k = 0; k < tp->count; k++) {
            if (eval_param_is_complexity(e[k].param)) {
                grad[2 * e[k].param + 1] += e[k].coeff * gc;
                continue;
            }
            grad[2 * e[k].param] += e[k].coeff * gm;
            grad[2 * e[k].param + 1] += e[k].coeff * ge;
        }
        grad[2 * TEMPO] += g * m.tempoMg;
        grad[2 * TEMPO + 1] += g * m.tempoEg;
    }
    s->loss = loss;
    return NULL;
}

/* One pass over [lo, hi) on threads threads; returns the mean loss, grad (if not NULL) its gradient. */
static double pass(const TuneData *data, size_t lo, size_t hi, const double *w, double K, int threads, double *grad) {
    if (hi <= lo) {
        if (grad) memset(grad, 0, TUNE_WEIGHTS * sizeof *grad);
        return 0;
    }
    if (threads < 1) threads = 1;
    if ((size_t)threads > hi - lo) threads = (int)(hi - lo);
    Slice slices[threads];
    pthread_t ids[threads];
    bool started[threads];
    double *grads = grad ? calloc((size_t)threads * TUNE_WEIGHTS, sizeof *grads) : NULL;
    if (grad && !grads) threads = 1; /* no memory for per-thread sums: one slice into grad itself */
    if (grad) memset(grad, 0, TUNE_WEIGHTS * sizeof *grad);

    size_t n = hi - lo;
    for (int t = 0; t < threads; t++) {
        slices[t] = (Slice){.data = data, .w = w, .K = K,
                            .lo = lo + n * (size_t)t / (size_t)threads,
                            .hi = lo + n * (size_t)(t + 1) / (size_t)threads,
                            .grad = grad ? (grads ? grads + (size_t)t * TUNE_WEIGHTS : grad) : NULL};
        started[t] = t > 0 && pthread_create(&ids[t], NULL, slice_run, &slices[t]) == 0;
    }
    slice_run(&slices[0]);
    for (int t = 1; t < threads; t++) {
        if (started[t]) pthread_join(ids[t], NULL);
        else slice_run(&slices[t]);
    }

    double loss = 0;
    for (int t = 0; t < threads; t++) loss += slices[t].loss;
    if (grad) {
        if (grads)
            for (int t = 0; t < threads; t++)
                for (int i = 0; i < TUNE_WEIGHTS; i++) grad[i] += grads[(size_t)t * TUNE_WEIGHTS + i];
        for (int i = 0; i < TUNE_WEIGHTS; i++) grad[i] /= (double)n;
    }
    free(grads);
    return loss / (double)n;
}

double tune_loss(const TuneData *data, size_t lo, size_t hi, const double *w, double K, int threads) {
    return pass(data, lo, hi, w, K, threads, NULL);
}

double tune_gradient(const TuneData *data, size_t lo, size_t hi, const double *w, double K, int threads, double *grad) {
    return pass(data, lo, hi, w, K, threads, grad);
}

/* ------------------------------------------------------------ K */

static double k_error(const float *evals, const float *results, size_t n, double K) {
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        double d = sigmoid(K * evals[i]) - results[i];
        sum += d * d;
    }
    return n ? sum / (double)n : 0;
}

double tune_fit_k(const TuneData *data, const double *w) {
    size_t n = data->count;
    float *evals = malloc((n ? n : 1) * sizeof *evals);
    float *results = malloc((n ? n : 1) * sizeof *results);
    if (!evals || !results) {
        free(evals);
        free(results);
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        evals[i] = (float)tune_eval(data, &data->positions[i], w);
        results[i] = data->positions[i].result;
    }
    /* Golden-section search over log K: the error is unimodal in K. */
    const double phi = (sqrt(5.0) - 1) / 2;
    double a = log(1e-5), b = log(0.1);
    double c = b - phi * (b - a), d = a + phi * (b - a);
    double fc = k_error(evals, results, n, exp(c)), fd = k_error(evals, results, n, exp(d));
    for (int it = 0; it < 80 && b - a > 1e-9; it++) {
        if (fc < fd) {
            b = d, d = c, fd = fc;
            c = b - phi * (b - a);
            fc = k_error(evals, results, n, exp(c));
        } else {
            a = c, c = d, fc = fd;
            d = a + phi * (b - a);
            fd = k_error(evals, results, n, exp(d));
        }
    }
    free(evals);
    free(results);
    return exp((a + b) / 2);
}

/* ------------------------------------------------------------ training */

static uint64_t splitmix(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static double seconds_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Fisher-Yates over the first count positions (their entries stay where they are). */
static void shuffle_positions(TuneData *data, size_t count, uint64_t seed) {
    uint64_t state = seed;
    for (size_t i = count; i > 1; i--) {
        size_t j = (size_t)(splitmix(&state) % i);
        TunePos tmp = data->positions[i - 1];
        data->positions[i - 1] = data->positions[j];
        data->positions[j] = tmp;
    }
}

typedef struct {
    double m[TUNE_WEIGHTS], v[TUNE_WEIGHTS]; /* Adam's moment estimates */
    double beta1Power, beta2Power;
} OptimiserState;

static const double AdamBeta1 = 0.9, AdamBeta2 = 0.999, AdamEpsilon = 1e-10;

/* One step on the free weights. */
static void optimiser_step(OptimiserState *st, const TuneConfig *cfg, double lr, const double *grad, double *w) {
    st->beta1Power *= AdamBeta1;
    st->beta2Power *= AdamBeta2;
    for (int i = 0; i < TUNE_WEIGHTS; i++) {
        if (cfg->frozen && cfg->frozen[i]) continue;
        if (cfg->optimizer == TUNE_GD) {
            w[i] -= lr * grad[i];
            continue;
        }
        st->m[i] = AdamBeta1 * st->m[i] + (1 - AdamBeta1) * grad[i];
        st->v[i] = AdamBeta2 * st->v[i] + (1 - AdamBeta2) * grad[i] * grad[i];
        double mHat = st->m[i] / (1 - st->beta1Power);
        double vHat = st->v[i] / (1 - st->beta2Power);
        w[i] -= lr * mHat / (sqrt(vHat) + AdamEpsilon);
    }
}

double tune_train(TuneData *data, const TuneConfig *cfg, double *w) {
    /* The held-out share is the data's last positions, in file order: datagen and PGN write a game's
     * positions together, so none of them shares its game, and its result, with a fitted one. */
    size_t held = (size_t)((double)data->count * cfg->validation);
    size_t train = data->count - held;
    shuffle_positions(data, train, cfg->seed);
    tune_set_targets(data, cfg->K, cfg->lambda);

    double *start = malloc(TUNE_WEIGHTS * sizeof *start);
    double *grad = malloc(TUNE_WEIGHTS * sizeof *grad);
    OptimiserState *st = calloc(1, sizeof *st);
    size_t batch = cfg->batch == 0 || cfg->batch > train ? train : cfg->batch;
    size_t batches = batch ? (train + batch - 1) / batch : 0;
    size_t *order = malloc((batches ? batches : 1) * sizeof *order);
    if (!start || !grad || !st || !order) {
        free(start), free(grad), free(st), free(order);
        if (cfg->log) fprintf(cfg->log, "out of memory\n");
        return NAN;
    }
    memcpy(start, w, TUNE_WEIGHTS * sizeof *w);
    st->beta1Power = st->beta2Power = 1;
    uint64_t rng = cfg->seed ^ 0x5DEECE66DULL;
    double lr = cfg->lr;

    double loss = tune_loss(data, 0, train, w, cfg->K, cfg->threads);
    if (cfg->log) {
        fprintf(cfg->log, "epoch %5d  loss %.8f", 0, loss);
        if (held) fprintf(cfg->log, "  held-out %.8f", tune_loss(data, train, data->count, w, cfg->K, cfg->threads));
        fprintf(cfg->log, "  (start: %zu positions, %zu held out, %zu per step)\n", train, held, batch);
    }

    for (int epoch = 1; epoch <= cfg->epochs && batches; epoch++) {
        double t0 = seconds_now();
        for (size_t b = 0; b < batches; b++) order[b] = b;
        for (size_t b = batches; b > 1; b--) {
            size_t j = (size_t)(splitmix(&rng) % b);
            size_t tmp = order[b - 1];
            order[b - 1] = order[j];
            order[j] = tmp;
        }
        double sum = 0;
        for (size_t b = 0; b < batches; b++) {
            size_t lo = order[b] * batch, hi = lo + batch < train ? lo + batch : train;
            sum += tune_gradient(data, lo, hi, w, cfg->K, cfg->threads, grad) * (double)(hi - lo);
            if (cfg->l2 > 0)
                for (int i = 0; i < TUNE_WEIGHTS; i++) grad[i] += 2 * cfg->l2 * (w[i] - start[i]);
            optimiser_step(st, cfg, lr, grad, w);
        }
        loss = sum / (double)train;
        double elapsed = seconds_now() - t0;
        if (cfg->log) {
            fprintf(cfg->log, "epoch %5d  loss %.8f", epoch, loss);
            if (held) fprintf(cfg->log, "  held-out %.8f", tune_loss(data, train, data->count, w, cfg->K, cfg->threads));
            fprintf(cfg->log, "  lr %.4g  %.3f s\n", lr, elapsed);
            fflush(cfg->log);
        }
        lr *= cfg->lrDecay;
        if (cfg->onEpoch && !cfg->onEpoch(cfg->ctx, epoch, w)) break;
    }
    free(start), free(grad), free(st), free(order);
    return tune_loss(data, 0, train, w, cfg->K, cfg->threads);
}
