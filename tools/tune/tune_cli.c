#include "tune_cli.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "eval.h"
#include "files.h"
#include "numparse.h"
#include "tune_data.h"
#include "tune_model.h"
#include "tune_wdl.h"
#include "tune_weights.h"

enum { MAX_THREADS = 256 };

static const char Usage[] =
    "usage: gizum-tune [options] FILE...\n"
    "Fits Gizum's evaluation weights to FILEs (dataset lines '<FEN> | <score> | <result>',\n"
    "or PGN games when the name ends in .pgn) and writes them as evalweights.c.\n"
    "  --out PATH         output file (default src/eval/evalweights.c)\n"
    "  --init PATH        start from this evalweights.c (default: the compiled-in weights)\n"
    "  --lambda L         share of the game result in the target, 0..1 (default 0.5)\n"
    "  --k K              sigmoid scale per cp (default: fitted to the results)\n"
    "  --epochs N         epochs (default 100; 0 only loads, fits K and writes)\n"
    "  --optimizer NAME   adam (default) or gd (plain gradient descent)\n"
    "  --lr X             learning rate (default 1.0 for adam: cp per step; gd: gradient factor)\n"
    "  --lr-decay F       multiply the rate by F after each epoch (default 1)\n"
    "  --batch N          positions per step (default 16384)\n"
    "  --full-batch       one step per epoch over all positions\n"
    "  --threads N        threads (default: all cores)\n"
    "  --freeze SPEC      keep weights fixed: TERM, TERM[i], optionally .mg or .eg\n"
    "                     (e.g. PIECE_VALUE[0], KING_DANGER, PSQT_KING.eg); repeatable\n"
    "  --only SPEC        tune only these weights (repeatable; the rest is frozen)\n"
    "  --min-positions N  freeze parameters present in fewer than N positions (default 0)\n"
    "  --l2 R             add R * sum (w - w_start)^2 to the loss (default 0)\n"
    "  --validate F       hold out the last share F of the positions (whole games) and report their loss\n"
    "  --seed N           order of the positions (default 1)\n"
    "  --save-every N     also write the output every N epochs\n"
    "  --pgn-skip N       PGN: skip the positions of each game's first N plies (default 8)\n"
    "  --max-messages N   bad records reported per file (default 100; 0: all)\n"
    "gizum-tune --fit-wdl [options] FILE...: fits the win/draw/loss model instead\n"
    "                     (see gizum-tune --fit-wdl --help)\n";

typedef struct {
    const char **files;
    int fileCount;
    const char *out, *init;
    double lambda, k, lr, lrDecay, l2, validation;
    int epochs, threads, saveEvery, pgnSkip, maxMessages;
    int64_t minPositions;
    size_t batch;
    TuneOptimizer optimizer;
    uint64_t seed;
    bool frozen[TUNE_WEIGHTS];
    bool only[TUNE_WEIGHTS];
    bool anyOnly;
} Options;

static bool parse_double(const char *s, double lo, double hi, double *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(v) || v < lo || v > hi) return false;
    *out = v;
    return true;
}

static int default_threads(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
}

/* Fills opt from argv; 0 on success, else the exit status (usage printed). */
static int parse_options(int argc, char **argv, Options *opt, FILE *out, FILE *err) {
    TuneConfig defaults;
    tune_config_defaults(&defaults);
    *opt = (Options){.out = "src/eval/evalweights.c", .lambda = defaults.lambda, .k = 0, .lr = defaults.lr,
                     .lrDecay = defaults.lrDecay, .l2 = defaults.l2, .validation = defaults.validation,
                     .epochs = defaults.epochs, .threads = default_threads(), .pgnSkip = 8, .maxMessages = 100,
                     .batch = defaults.batch, .optimizer = defaults.optimizer, .seed = defaults.seed};
    opt->files = calloc((size_t)argc, sizeof *opt->files);
    if (!opt->files) return 1;
    bool lrGiven = false, endOfOptions = false;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (endOfOptions || a[0] != '-' || !a[1]) {
            opt->files[opt->fileCount++] = a;
            continue;
        }
        if (!strcmp(a, "--")) {
            endOfOptions = true;
            continue;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(Usage, out);
            return -1;
        }
        if (!strcmp(a, "--fit-wdl")) {
            fprintf(err, "gizum-tune: --fit-wdl must be the first argument\n");
            return 2;
        }
        if (!strcmp(a, "--full-batch")) {
            opt->batch = 0;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(err, "gizum-tune: %s needs a value (see --help)\n", a);
            return 2;
        }
        const char *v = argv[++i];
        int64_t n = 0;
        char reason[256];
        bool ok = true;
        const char *expected = "";
        if (!strcmp(a, "--out")) opt->out = v;
        else if (!strcmp(a, "--init")) opt->init = v;
        else if (!strcmp(a, "--lambda")) ok = parse_double(v, 0, 1, &opt->lambda), expected = "a number in 0..1";
        else if (!strcmp(a, "--k")) ok = parse_double(v, 1e-6, 1, &opt->k), expected = "a number in 1e-6..1";
        else if (!strcmp(a, "--lr")) ok = lrGiven = parse_double(v, 1e-12, 1e12, &opt->lr), expected = "a positive number";
        else if (!strcmp(a, "--lr-decay")) ok = parse_double(v, 1e-6, 1, &opt->lrDecay), expected = "a number in 1e-6..1";
        else if (!strcmp(a, "--l2")) ok = parse_double(v, 0, 1e6, &opt->l2), expected = "a number >= 0";
        else if (!strcmp(a, "--validate")) ok = parse_double(v, 0, 0.9, &opt->validation), expected = "a share in 0..0.9";
        else if (!strcmp(a, "--epochs")) ok = parse_integer(v, 0, 1000000, &n) && ((opt->epochs = (int)n), true), expected = "an integer in 0..1000000";
        else if (!strcmp(a, "--threads")) ok = parse_integer(v, 1, MAX_THREADS, &n) && ((opt->threads = (int)n), true), expected = "an integer in 1..256";
        else if (!strcmp(a, "--batch")) ok = parse_integer(v, 1, 1L << 40, &n) && ((opt->batch = (size_t)n), true), expected = "a positive integer";
        else if (!strcmp(a, "--seed")) ok = parse_integer(v, 0, 0x7fffffffffffffffL, &n) && ((opt->seed = (uint64_t)n), true), expected = "an integer >= 0";
        else if (!strcmp(a, "--save-every")) ok = parse_integer(v, 1, 1000000, &n) && ((opt->saveEvery = (int)n), true), expected = "a positive integer";
        else if (!strcmp(a, "--pgn-skip")) ok = parse_integer(v, 0, 10000, &n) && ((opt->pgnSkip = (int)n), true), expected = "an integer in 0..10000";
        else if (!strcmp(a, "--min-positions")) ok = parse_integer(v, 0, 1L << 40, &opt->minPositions), expected = "an integer >= 0";
        else if (!strcmp(a, "--max-messages")) ok = parse_integer(v, 0, 1L << 30, &n) && ((opt->maxMessages = (int)n), true), expected = "an integer >= 0";
        else if (!strcmp(a, "--optimizer")) {
            if (!strcmp(v, "adam")) opt->optimizer = TUNE_ADAM;
            else if (!strcmp(v, "gd")) opt->optimizer = TUNE_GD;
            else ok = false, expected = "adam or gd";
        } else if (!strcmp(a, "--freeze") || !strcmp(a, "--only")) {
            bool isOnly = a[2] == 'o';
            if (!tune_weights_select(v, isOnly ? opt->only : opt->frozen, reason, sizeof reason)) {
                fprintf(err, "gizum-tune: %s %s\n", a, reason);
                return 2;
            }
            opt->anyOnly |= isOnly;
        } else {
            fprintf(err, "gizum-tune: unknown option '%s' (see --help)\n", a);
            return 2;
        }
        if (!ok) {
            fprintf(err, "gizum-tune: %s: expected %s, got '%s'\n", a, expected, v);
            return 2;
        }
    }
    if (opt->fileCount == 0) {
        fprintf(err, "gizum-tune: no data files given\n%s", Usage);
        return 2;
    }
    /* Said now, not after the tuning: --out is written only at the end (and every --save-every epochs). */
    char why[512];
    if (!file_write_check(opt->out, why, sizeof why)) {
        fprintf(err, "gizum-tune: --out: %s\n", why);
        return 2;
    }
    /* Plain gradient descent steps by lr * gradient; the gradient of the mean loss is tiny in cp. */
    if (opt->optimizer == TUNE_GD && !lrGiven) opt->lr = 1e5;
    return 0;
}

/* Writes the weights w (rounded) to path; false with a message on err. */
static bool save(const char *path, const double *w, FILE *err) {
    Score weights[PARAM_NB];
    char reason[512];
    tune_weights_from_real(w, weights);
    if (tune_weights_write(path, weights, reason, sizeof reason)) return true;
    fprintf(err, "gizum-tune: %s\n", reason);
    return false;
}

typedef struct {
    const Options *opt;
    FILE *err;
    bool failed;
} SaveContext;

static bool on_epoch(void *ctx, int epoch, const double *w) {
    SaveContext *sc = ctx;
    if (sc->opt->saveEvery && epoch % sc->opt->saveEvery == 0 && !save(sc->opt->out, w, sc->err)) sc->failed = true;
    return !sc->failed;
}

static double seconds_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Loads every file; false if one could not be read at all. */
static bool load_all(const Options *opt, TuneData *data, FILE *out, FILE *err) {
    TuneLoadOptions lo = {.threads = opt->threads, .messages = err, .pgnSkipPlies = opt->pgnSkip,
                          .maxMessages = opt->maxMessages};
    double t0 = seconds_now();
    TuneLoadStats total = {0};
    bool ok = true;
    for (int f = 0; f < opt->fileCount; f++) {
        TuneLoadStats st = {0};
        if (!tune_data_load(data, opt->files[f], &lo, &st)) {
            ok = false;
            continue;
        }
        fprintf(out, "%s: %zu records, %zu positions kept (%zu resolved to a quieter leaf), %zu bad, "
                     "skipped %zu mate/stalemate, %zu mate in the capture line, %zu no quiet leaf, %zu no result\n",
                opt->files[f], st.records, st.loaded, st.resolved, st.bad, st.noMoves, st.mates, st.tooDeep,
                st.noResult);
        total.loaded += st.loaded;
    }
    double mb = (double)(data->count * sizeof(TunePos) + data->entryCount * sizeof(TuneEntry)) / (1 << 20);
    fprintf(out, "loaded %zu positions, %.1f coefficients each, %.0f MB, in %.2f s\n", data->count,
            data->count ? (double)data->entryCount / (double)data->count : 0.0, mb, seconds_now() - t0);
    return ok;
}

/* Prints how far the weights moved. */
static void print_changes(const double *start, const double *w, FILE *out) {
    Score a[PARAM_NB], b[PARAM_NB];
    tune_weights_from_real(start, a);
    tune_weights_from_real(w, b);
    int changed = 0, worst = 0, worstParam = 0;
    for (int p = 0; p < PARAM_NB; p++) {
        int dMg = abs(mg_value(a[p]) - mg_value(b[p])), dEg = abs(eg_value(a[p]) - eg_value(b[p]));
        int d = dMg > dEg ? dMg : dEg;
        changed += d != 0;
        if (d > worst) worst = d, worstParam = p;
    }
    char label[64];
    eval_param_label(worstParam, label, sizeof label);
    fprintf(out, "%d of %d parameters changed", changed, PARAM_NB);
    if (changed)
        fprintf(out, "; largest change %d cp (%s: S(%d, %d) -> S(%d, %d))", worst, label, mg_value(a[worstParam]),
                eg_value(a[worstParam]), mg_value(b[worstParam]), eg_value(b[worstParam]));
    fputc('\n', out);
}

/* How many positions each parameter is present in (TEMPO: all). */
static void count_presence(const TuneData *data, size_t *present) {
    memset(present, 0, PARAM_NB * sizeof *present);
    for (size_t i = 0; i < data->entryCount; i++) present[data->entries[i].param]++;
    present[TEMPO] = data->count;
}

/* Fits the weights w (starting values, updated) to the loaded data and writes them; the exit status. */
static int tune(const Options *opt, TuneData *data, double *w, FILE *out, FILE *err) {
    double start[TUNE_WEIGHTS];
    memcpy(start, w, sizeof start);

    TuneConfig cfg;
    tune_config_defaults(&cfg);
    cfg.K = opt->k > 0 ? opt->k : tune_fit_k(data, w);
    tune_set_targets(data, cfg.K, 1.0);
    double resultLoss = tune_loss(data, 0, data->count, w, cfg.K, opt->threads);
    fprintf(out, "K = %.6f per cp (%s); loss of the starting weights against the results: %.8f\n", cfg.K,
            opt->k > 0 ? "given" : "fitted", resultLoss);

    bool frozen[TUNE_WEIGHTS];
    int freeWeights = 0, rare = 0;
    static size_t present[PARAM_NB];
    count_presence(data, present);
    for (int i = 0; i < TUNE_WEIGHTS; i++) {
        bool tooRare = (int64_t)present[i / 2] < opt->minPositions;
        frozen[i] = opt->frozen[i] || (opt->anyOnly && !opt->only[i]) || tooRare;
        freeWeights += !frozen[i];
        rare += tooRare && i % 2 == 0;
    }
    if (opt->minPositions) fprintf(out, "%d parameters frozen: in fewer than %" PRId64 " positions\n", rare, opt->minPositions);
    SaveContext sc = {.opt = opt, .err = err};
    cfg.lambda = opt->lambda;
    cfg.lr = opt->lr;
    cfg.lrDecay = opt->lrDecay;
    cfg.l2 = opt->l2;
    cfg.epochs = opt->epochs;
    cfg.batch = opt->batch;
    cfg.threads = opt->threads;
    cfg.optimizer = opt->optimizer;
    cfg.validation = opt->validation;
    cfg.seed = opt->seed;
    cfg.frozen = frozen;
    cfg.log = out;
    cfg.onEpoch = on_epoch;
    cfg.ctx = &sc;
    fprintf(out, "tuning %d of %d weights: %s, lr %g, lambda %g, %d epochs, %d threads\n", freeWeights,
            TUNE_WEIGHTS, opt->optimizer == TUNE_ADAM ? "adam" : "gradient descent", opt->lr, opt->lambda,
            opt->epochs, opt->threads);

    double t0 = seconds_now();
    double loss = tune_train(data, &cfg, w);
    if (sc.failed || isnan(loss)) return 1;
    fprintf(out, "final loss %.8f after %.2f s\n", loss, seconds_now() - t0);
    print_changes(start, w, out);
    if (!save(opt->out, w, err)) return 1;
    fprintf(out, "wrote %s\n", opt->out);
    return 0;
}

int tune_cli_run(int argc, char **argv, FILE *out, FILE *err) {
    if (argc > 1 && !strcmp(argv[1], "--fit-wdl")) return tune_wdl_cli(argc - 1, argv + 1, out, err);
    Options *opt = calloc(1, sizeof *opt);
    if (!opt) return 1;
    int status = parse_options(argc, argv, opt, out, err);
    if (status == 0) {
        Score weights[PARAM_NB];
        char reason[512];
        double w[TUNE_WEIGHTS];
        TuneData data = {0};
        memcpy(weights, EvalWeights, sizeof weights);
        status = 1;
        if (opt->init && !tune_weights_read(opt->init, weights, reason, sizeof reason))
            fprintf(err, "gizum-tune: --init %s\n", reason);
        else if (!load_all(opt, &data, out, err))
            ;
        else if (data.count == 0)
            fprintf(err, "gizum-tune: no usable positions\n");
        else {
            tune_weights_to_real(weights, w);
            status = tune(opt, &data, w, out, err);
        }
        tune_data_free(&data);
    }
    free(opt->files);
    free(opt);
    return status < 0 ? 0 : status;
}
