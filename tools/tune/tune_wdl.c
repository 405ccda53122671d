#include "tune_wdl.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "dataset.h"
#include "fen.h"
#include "files.h"

enum {
    MATERIAL_BUCKETS = WDL_MATERIAL_MAX - WDL_MATERIAL_MIN + 1,
    MAX_PARAMS = 2 * (WDL_DEGREE + 1),
    MAX_ITERATIONS = 200,
    MAX_DAMPING_TRIES = 40,
};

/* ------------------------------------------------------------ loading */

typedef struct {
    WdlSet *set;
    const char *path;
    FILE *messages;
    int maxMessages, shown;
    size_t unshown;
    WdlLoadStats *stats;
} Loader;

__attribute__((format(printf, 3, 4))) static void report(Loader *ld, size_t line, const char *fmt, ...) {
    ld->stats->bad++;
    if (!ld->messages) return;
    if (ld->maxMessages && ld->shown >= ld->maxMessages) {
        ld->unshown++;
        return;
    }
    ld->shown++;
    va_list args;
    va_start(args, fmt);
    fprintf(ld->messages, "%s:%zu: ", ld->path, line);
    vfprintf(ld->messages, fmt, args);
    fputc('\n', ld->messages);
    va_end(args);
}

static bool append(WdlSet *set, WdlSample sample) {
    if (set->count == set->capacity) {
        size_t capacity = set->capacity ? set->capacity * 2 : 1 << 16;
        WdlSample *grown = realloc(set->samples, capacity * sizeof *grown);
        if (!grown) return false;
        set->samples = grown;
        set->capacity = capacity;
    }
    set->samples[set->count++] = sample;
    return true;
}

/* Where the previous record of the file stood, to see where its game ended. */
typedef struct {
    bool any;
    int ply, pieces;
    double result;
} GameTrack;

/* A new game: the first record, or one that cannot follow the last in the same game. */
static bool starts_game(const GameTrack *t, int ply, int pieces, double result) {
    return !t->any || ply <= t->ply || pieces > t->pieces || result != t->result;
}

static WdlSample sample_of(const Position *pos, const DataRecord *rec, uint32_t game) {
    bool white = pos_side_to_move(pos) == WHITE;
    double won = white ? rec->result : 1.0 - rec->result;
    return (WdlSample){.material = (int16_t)wdl_material(pos), .value = (int16_t)(white ? rec->score : -rec->score),
                       .outcome = won > 0.75 ? WDL_WIN : won < 0.25 ? WDL_LOSS : WDL_DRAW, .game = game};
}

/* What load_lines needs besides the loader: the position to set up and the game being read. */
typedef struct {
    Loader *ld;
    Position *pos;
    GameTrack track;
    bool ok;
} LineReader;

static void bad_line(void *ctx, size_t line, const char *reason) {
    report(((LineReader *)ctx)->ld, line, "%s", reason);
}

static bool take_line(void *ctx, size_t line, const DataRecord *rec) {
    LineReader *r = ctx;
    Loader *ld = r->ld;
    char err[160];
    ld->stats->records++;
    if (!pos_set_fen(r->pos, rec->fen, false, err, sizeof err)) {
        report(ld, line, "illegal FEN: %s", err);
        return true;
    }
    int pieces = popcount(pos_pieces(r->pos));
    if (starts_game(&r->track, r->pos->gamePly, pieces, rec->result)) ld->set->games++;
    r->track = (GameTrack){true, r->pos->gamePly, pieces, rec->result};
    if (!rec->hasScore) {
        ld->stats->noScore++;
        return true;
    }
    if (abs(rec->score) >= VALUE_TB_WIN_IN_MAX_PLY) {
        ld->stats->certain++;
        return true;
    }
    r->ok = append(ld->set, sample_of(r->pos, rec, ld->set->games - 1));
    ld->stats->used += r->ok;
    if (!r->ok && ld->messages) fprintf(ld->messages, "%s: out of memory\n", ld->path);
    return r->ok;
}

static bool load_lines(Loader *ld, FILE *f, Position *pos) {
    LineReader r = {.ld = ld, .pos = pos, .ok = true};
    size_t lines;
    if (!dataset_read_lines(f, take_line, bad_line, &r, &lines)) {
        if (ld->messages) fprintf(ld->messages, "%s:%zu: read error\n", ld->path, lines + 1);
        return false;
    }
    return r.ok;
}

bool tune_wdl_load(WdlSet *set, const char *path, FILE *messages, int maxMessages, WdlLoadStats *stats) {
    Loader ld = {.set = set, .path = path, .messages = messages, .maxMessages = maxMessages, .stats = stats};
    size_t n = strlen(path);
    if (n >= 4 && strcasecmp(path + n - 4, ".pgn") == 0) {
        if (messages) fprintf(messages, "%s: --fit-wdl reads dataset lines only (convert PGN with `gizum datagen --pgn`)\n", path);
        return false;
    }
    char err[512];
    FILE *f = file_open_read(path, NULL, err, sizeof err);
    if (!f) {
        if (messages) fprintf(messages, "%s\n", err);
        return false;
    }
    Position *pos = malloc(sizeof *pos);
    bool ok = pos && load_lines(&ld, f, pos);
    if (!pos && messages) fprintf(messages, "%s: out of memory\n", path);
    if (ld.unshown && messages) fprintf(messages, "%s: %zu further faulty records not shown\n", path, ld.unshown);
    free(pos);
    fclose(f);
    return ok;
}

void tune_wdl_free(WdlSet *set) {
    free(set->samples);
    memset(set, 0, sizeof *set);
}

/* ------------------------------------------------------------ the likelihood */

static int bucket_of(int material) {
    int clamped = material < WDL_MATERIAL_MIN ? WDL_MATERIAL_MIN : material > WDL_MATERIAL_MAX ? WDL_MATERIAL_MAX : material;
    return clamped - WDL_MATERIAL_MIN;
}

static double bucket_m(int bucket) {
    return (double)(bucket + WDL_MATERIAL_MIN) / WDL_MATERIAL_ANCHOR;
}

/*
 * a and b of every material bucket. False unless both exceed 1 cp over the
 * whole material range, where wdl_params() would start to clamp: the fit
 * stays where the model is exactly the polynomials.
 */
static bool bucket_params(const WdlCoefficients *c, double a[MATERIAL_BUCKETS], double b[MATERIAL_BUCKETS]) {
    for (int i = 0; i < MATERIAL_BUCKETS; i++) {
        double m = bucket_m(i), power = 1;
        a[i] = b[i] = 0;
        for (int k = 0; k <= WDL_DEGREE; k++, power *= m) {
            a[i] += c->a[k] * power;
            b[i] += c->b[k] * power;
        }
        if (!(a[i] > 1.0 && b[i] > 1.0)) return false;
    }
    return true;
}

/* 1/(1+e^-x) and 1/(1+e^x), each without overflow or cancellation. */
static void logistic_pair(double x, double *up, double *down) {
    double e = exp(-fabs(x));
    double big = 1.0 / (1.0 + e), small = e / (1.0 + e);
    *up = x >= 0 ? big : small;
    *down = x >= 0 ? small : big;
}

/* The three chances for value v, and (if dpda is not NULL) their derivatives by a and b. */
static void chances(double v, double a, double b, double p[WDL_OUTCOMES], double *dpda, double *dpdb) {
    double xw = (v - a) / b, xl = (-v - a) / b, notWin, notLoss;
    logistic_pair(xw, &p[WDL_WIN], &notWin);
    logistic_pair(xl, &p[WDL_LOSS], &notLoss);
    p[WDL_DRAW] = notWin - p[WDL_LOSS];
    if (!dpda) return;
    double sw = p[WDL_WIN] * notWin, sl = p[WDL_LOSS] * notLoss;
    dpda[WDL_WIN] = -sw / b, dpdb[WDL_WIN] = -sw * xw / b;
    dpda[WDL_LOSS] = -sl / b, dpdb[WDL_LOSS] = -sl * xl / b;
    dpda[WDL_DRAW] = -dpda[WDL_WIN] - dpda[WDL_LOSS];
    dpdb[WDL_DRAW] = -dpdb[WDL_WIN] - dpdb[WDL_LOSS];
}

/* A chance below this counts as this: one surprising game must not make the loss infinite. */
static const double MinChance = 1e-12;

double tune_wdl_loss(const WdlCoefficients *c, const WdlSample *s, size_t n) {
    double a[MATERIAL_BUCKETS], b[MATERIAL_BUCKETS];
    if (!bucket_params(c, a, b)) return INFINITY;
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        int k = bucket_of(s[i].material);
        double p[WDL_OUTCOMES];
        chances(s[i].value, a[k], b[k], p, NULL, NULL);
        sum -= log(fmax(p[s[i].outcome], MinChance));
    }
    return n ? sum / (double)n : 0;
}

void tune_wdl_frequencies(const WdlSample *s, size_t n, double freq[WDL_OUTCOMES]) {
    size_t count[WDL_OUTCOMES] = {0};
    for (size_t i = 0; i < n; i++) count[s[i].outcome]++;
    for (int k = 0; k < WDL_OUTCOMES; k++) freq[k] = n ? (double)count[k] / (double)n : 1.0 / WDL_OUTCOMES;
}

double tune_wdl_constant_loss(const double freq[WDL_OUTCOMES], const WdlSample *s, size_t n) {
    double sum = 0;
    for (size_t i = 0; i < n; i++) sum -= log(fmax(freq[s[i].outcome], MinChance));
    return n ? sum / (double)n : 0;
}

/* ------------------------------------------------------------ Fisher scoring */

/* Parameter vector: a[0..degree], then b[0..degree]. */
static void to_vector(const WdlCoefficients *c, int degree, double *theta) {
    for (int k = 0; k <= degree; k++) theta[k] = c->a[k], theta[degree + 1 + k] = c->b[k];
}

static void from_vector(const double *theta, int degree, WdlCoefficients *c) {
    memset(c, 0, sizeof *c);
    for (int k = 0; k <= degree; k++) c->a[k] = theta[k], c->b[k] = theta[degree + 1 + k];
}

/*
 * The gradient of the mean loss and its expected Hessian (the Fisher
 * information, sum over outcomes of dp dp^T / p: positive semi-definite
 * everywhere, unlike the observed Hessian). Per sample they depend on a and
 * b only, so they are summed per material bucket first and then spread over
 * the polynomial coefficients, basis m^k.
 */
static void gradient_and_fisher(const WdlCoefficients *c, int degree, const WdlSample *s, size_t n, double *g,
                                double h[MAX_PARAMS][MAX_PARAMS]) {
    double a[MATERIAL_BUCKETS], b[MATERIAL_BUCKETS];
    double ga[MATERIAL_BUCKETS] = {0}, gb[MATERIAL_BUCKETS] = {0};
    double faa[MATERIAL_BUCKETS] = {0}, fab[MATERIAL_BUCKETS] = {0}, fbb[MATERIAL_BUCKETS] = {0};
    bucket_params(c, a, b);
    for (size_t i = 0; i < n; i++) {
        int k = bucket_of(s[i].material), y = s[i].outcome;
        double p[WDL_OUTCOMES], dpda[WDL_OUTCOMES], dpdb[WDL_OUTCOMES];
        chances(s[i].value, a[k], b[k], p, dpda, dpdb);
        for (int o = 0; o < WDL_OUTCOMES; o++) p[o] = fmax(p[o], MinChance);
        ga[k] -= dpda[y] / p[y];
        gb[k] -= dpdb[y] / p[y];
        for (int o = 0; o < WDL_OUTCOMES; o++) {
            faa[k] += dpda[o] * dpda[o] / p[o];
            fab[k] += dpda[o] * dpdb[o] / p[o];
            fbb[k] += dpdb[o] * dpdb[o] / p[o];
        }
    }
    int half = degree + 1, params = 2 * half;
    memset(g, 0, (size_t)params * sizeof *g);
    for (int i = 0; i < params; i++) memset(h[i], 0, (size_t)params * sizeof h[i][0]);
    for (int k = 0; k < MATERIAL_BUCKETS; k++) {
        double basis[WDL_DEGREE + 1], m = bucket_m(k);
        basis[0] = 1;
        for (int j = 1; j < half; j++) basis[j] = basis[j - 1] * m;
        for (int i = 0; i < half; i++) {
            g[i] += ga[k] * basis[i] / (double)n;
            g[half + i] += gb[k] * basis[i] / (double)n;
            for (int j = 0; j < half; j++) {
                double bb = basis[i] * basis[j] / (double)n;
                h[i][j] += faa[k] * bb;
                h[i][half + j] += fab[k] * bb;
                h[half + i][j] += fab[k] * bb;
                h[half + i][half + j] += fbb[k] * bb;
            }
        }
    }
}

/* Solves m x = r (size n) by Gaussian elimination with partial pivoting; false if singular. */
static bool solve(double m[MAX_PARAMS][MAX_PARAMS], double *r, int n, double *x) {
    for (int col = 0; col < n; col++) {
        int pivot = col;
        for (int row = col + 1; row < n; row++)
            if (fabs(m[row][col]) > fabs(m[pivot][col])) pivot = row;
        if (!(fabs(m[pivot][col]) > 1e-300)) return false;
        if (pivot != col) {
            for (int j = 0; j < n; j++) {
                double t = m[col][j];
                m[col][j] = m[pivot][j], m[pivot][j] = t;
            }
            double t = r[col];
            r[col] = r[pivot], r[pivot] = t;
        }
        for (int row = col + 1; row < n; row++) {
            double f = m[row][col] / m[col][col];
            for (int j = col; j < n; j++) m[row][j] -= f * m[col][j];
            r[row] -= f * r[col];
        }
    }
    for (int row = n - 1; row >= 0; row--) {
        double sum = r[row];
        for (int j = row + 1; j < n; j++) sum -= m[row][j] * x[j];
        x[row] = sum / m[row][row];
    }
    return true;
}

double tune_wdl_fit(WdlCoefficients *c, int degree, const WdlSample *s, size_t n, int *iterations) {
    degree = degree < 0 ? 0 : degree > WDL_DEGREE ? WDL_DEGREE : degree;
    int params = 2 * (degree + 1);
    double theta[MAX_PARAMS];
    to_vector(c, degree, theta);
    from_vector(theta, degree, c);
    double loss = tune_wdl_loss(c, s, n), damping = 1e-3;
    int it = 0;
    while (isfinite(loss) && it < MAX_ITERATIONS) {
        double g[MAX_PARAMS], h[MAX_PARAMS][MAX_PARAMS];
        gradient_and_fisher(c, degree, s, n, g, h);
        it++;
        bool improved = false;
        double trialLoss = loss;
        WdlCoefficients trial;
        /* Levenberg-Marquardt: a failed step is retried shorter and more gradient-like. */
        for (int tries = 0; tries < MAX_DAMPING_TRIES && !improved; tries++) {
            double m[MAX_PARAMS][MAX_PARAMS], r[MAX_PARAMS], step[MAX_PARAMS], next[MAX_PARAMS];
            for (int i = 0; i < params; i++) {
                memcpy(m[i], h[i], sizeof m[i]);
                m[i][i] += damping * h[i][i] + 1e-12;
                r[i] = -g[i];
            }
            if (solve(m, r, params, step)) {
                for (int i = 0; i < params; i++) next[i] = theta[i] + step[i];
                from_vector(next, degree, &trial);
                trialLoss = tune_wdl_loss(&trial, s, n);
                if (trialLoss < loss) {
                    improved = true;
                    memcpy(theta, next, sizeof theta);
                    damping = fmax(damping * 0.3, 1e-9);
                    break;
                }
            }
            damping *= 10;
        }
        if (!improved) break;
        double gain = loss - trialLoss;
        *c = trial;
        loss = trialLoss;
        if (gain < 1e-12) break;
    }
    if (iterations) *iterations = it;
    return loss;
}

/* ------------------------------------------------------------ the command */

static const char Usage[] =
    "usage: gizum-tune --fit-wdl [options] FILE...\n"
    "Fits the win/draw/loss model (src/eval/wdl.h) to the positions of FILEs (dataset lines\n"
    "'<FEN> | <score> | <result>', positions of a game on consecutive lines) by maximum\n"
    "likelihood, holding out the last games, and prints the coefficient table.\n"
    "  --holdout F        share of the games, the last ones, held out (default 0.05)\n"
    "  --wdl-out PATH     also write the table as a complete wdlmodel.c (e.g. src/eval/wdlmodel.c)\n"
    "  --max-messages N   bad records reported per file (default 100; 0: all)\n";

typedef struct {
    const char **files;
    int fileCount;
    double holdout;
    const char *outPath;
    int maxMessages;
} WdlOptions;

static int parse_wdl_options(int argc, char **argv, WdlOptions *opt, FILE *out, FILE *err) {
    *opt = (WdlOptions){.holdout = 0.05, .maxMessages = 100};
    opt->files = calloc((size_t)argc + 1, sizeof *opt->files);
    if (!opt->files) return 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || !a[1]) {
            opt->files[opt->fileCount++] = a;
            continue;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(Usage, out);
            return -1;
        }
        if (i + 1 >= argc) {
            fprintf(err, "gizum-tune: %s needs a value (see --fit-wdl --help)\n", a);
            return 2;
        }
        const char *v = argv[++i];
        char *end;
        errno = 0;
        if (!strcmp(a, "--holdout")) {
            opt->holdout = strtod(v, &end);
            if (end == v || *end || errno || !(opt->holdout > 0 && opt->holdout <= 0.5)) {
                fprintf(err, "gizum-tune: --holdout: expected a share in (0, 0.5], got '%s'\n", v);
                return 2;
            }
        } else if (!strcmp(a, "--wdl-out")) {
            opt->outPath = v;
        } else if (!strcmp(a, "--max-messages")) {
            long n = strtol(v, &end, 10);
            if (end == v || *end || errno || n < 0 || n > 1L << 30) {
                fprintf(err, "gizum-tune: --max-messages: expected an integer >= 0, got '%s'\n", v);
                return 2;
            }
            opt->maxMessages = (int)n;
        } else {
            fprintf(err, "gizum-tune: --fit-wdl: unknown option '%s' (see --fit-wdl --help)\n", a);
            return 2;
        }
    }
    if (opt->fileCount == 0) {
        fprintf(err, "gizum-tune: --fit-wdl: no data files given\n%s", Usage);
        return 2;
    }
    char why[512];
    if (opt->outPath && !file_write_check(opt->outPath, why, sizeof why)) {
        fprintf(err, "gizum-tune: --wdl-out: %s\n", why);
        return 2;
    }
    return 0;
}

/* Predicted against observed outcome rates on the held-out samples, by score. */
static void print_calibration(const WdlCoefficients *c, const WdlSample *s, size_t n, FILE *out) {
    static const int Edges[] = {-400, -200, -100, -40, 40, 100, 200, 400};
    enum { EDGES = sizeof Edges / sizeof Edges[0], BUCKETS = EDGES + 1 };
    double predicted[BUCKETS][WDL_OUTCOMES] = {{0}};
    size_t observed[BUCKETS][WDL_OUTCOMES] = {{0}}, count[BUCKETS] = {0};
    for (size_t i = 0; i < n; i++) {
        int k = 0;
        while (k < EDGES && s[i].value >= Edges[k]) k++;
        double win, loss;
        wdl_chances(c, s[i].value, s[i].material, &win, &loss);
        predicted[k][WDL_WIN] += win, predicted[k][WDL_LOSS] += loss, predicted[k][WDL_DRAW] += 1 - win - loss;
        observed[k][s[i].outcome]++;
        count[k]++;
    }
    fprintf(out, "held-out calibration (side to move's view, per mille):\n");
    fprintf(out, "  score cp      positions   predicted W/D/L   observed W/D/L\n");
    for (int k = 0; k < BUCKETS; k++) {
        char range[32];
        if (k == 0) snprintf(range, sizeof range, "< %d", Edges[0]);
        else if (k == EDGES) snprintf(range, sizeof range, ">= %d", Edges[EDGES - 1]);
        else snprintf(range, sizeof range, "%d..%d", Edges[k - 1], Edges[k] - 1);
        double d = count[k] ? (double)count[k] : 1;
        fprintf(out, "  %-12s %10zu   %4.0f %4.0f %4.0f    %4.0f %4.0f %4.0f\n", range, count[k],
                1000 * predicted[k][0] / d, 1000 * predicted[k][1] / d, 1000 * predicted[k][2] / d,
                1000 * (double)observed[k][0] / d, 1000 * (double)observed[k][1] / d,
                1000 * (double)observed[k][2] / d);
    }
}

/* Writes c as a complete wdlmodel.c; provenance (may be NULL) becomes its header comment's last lines. */
static void print_model(FILE *out, const WdlCoefficients *c, const char *provenance) {
    fputs("/*\n"
          " * The win/draw/loss model's coefficients (wdl.h): a(m) and b(m) in\n"
          " * centipawns, constant term first. Data only: this whole file is what\n"
          " * `gizum-tune --fit-wdl FILE... --wdl-out src/eval/wdlmodel.c` writes.\n",
          out);
    if (provenance && provenance[0]) {
        fputs(" *\n * ", out);
        for (const char *p = provenance; *p; p++) {
            fputc(*p, out);
            if (*p == '\n' && p[1]) fputs(" * ", out);
        }
        if (provenance[0] && provenance[strlen(provenance) - 1] != '\n') fputc('\n', out);
    }
    fputs(" */\n#include \"wdl.h\"\n\nconst WdlCoefficients WdlModel = {\n", out);
    const double *rows[2] = {c->a, c->b};
    for (int r = 0; r < 2; r++) {
        fprintf(out, "    .%c = {", r ? 'b' : 'a');
        for (int k = 0; k <= WDL_DEGREE; k++) fprintf(out, "%s%.4f", k ? ", " : "", rows[r][k]);
        fputs("},\n", out);
    }
    fputs("};\n", out);
}

/* Writes the table to path through a temporary file renamed over it (files.h); false with a message. */
static bool write_model(const char *path, const WdlCoefficients *c, const char *provenance, FILE *err) {
    FileWriter w;
    char why[512];
    bool ok = file_write_begin(&w, path, why, sizeof why);
    if (ok) {
        print_model(w.f, c, provenance);
        ok = file_write_commit(&w, why, sizeof why);
    }
    if (!ok) fprintf(err, "gizum-tune: %s\n", why);
    return ok;
}

/* Splits by game: the samples of the last games (a share holdout of them) go last; returns the first held-out index. */
static size_t holdout_start(const WdlSet *set, double holdout, uint32_t *firstHeldGame) {
    uint32_t held = (uint32_t)ceil(holdout * set->games);
    if (held < 1) held = 1;
    *firstHeldGame = set->games > held ? set->games - held : 0;
    size_t i = 0;
    while (i < set->count && set->samples[i].game < *firstHeldGame) i++;
    return i;
}

static int fit_and_report(const WdlOptions *opt, const WdlSet *set, FILE *out, FILE *err) {
    uint32_t firstHeld;
    size_t split = holdout_start(set, opt->holdout, &firstHeld);
    const WdlSample *train = set->samples, *held = set->samples + split;
    size_t nTrain = split, nHeld = set->count - split;
    if (nTrain == 0 || nHeld == 0) {
        fprintf(err, "gizum-tune: --fit-wdl: %u games are too few to hold some out\n", set->games);
        return 1;
    }
    fprintf(out, "fitting on %u games (%zu positions); held out: the last %u games (%zu positions)\n", firstHeld,
            nTrain, set->games - firstHeld, nHeld);

    double freq[WDL_OUTCOMES];
    tune_wdl_frequencies(train, nTrain, freq);
    /* Material-independent model first; its a and b start the cubic fit. */
    WdlCoefficients flat = {.a = {100}, .b = {100}};
    int flatIt = 0, fullIt = 0;
    double flatTrain = tune_wdl_fit(&flat, 0, train, nTrain, &flatIt);
    WdlCoefficients model = flat;
    double modelTrain = tune_wdl_fit(&model, WDL_DEGREE, train, nTrain, &fullIt);
    if (!isfinite(flatTrain) || !isfinite(modelTrain)) {
        fprintf(err, "gizum-tune: --fit-wdl: the fit failed (no valid model found)\n");
        return 1;
    }
    double constHeld = tune_wdl_constant_loss(freq, held, nHeld);
    double flatHeld = tune_wdl_loss(&flat, held, nHeld), modelHeld = tune_wdl_loss(&model, held, nHeld);
    fprintf(out, "training outcome rates (side to move): win %.3f draw %.3f loss %.3f\n", freq[0], freq[1], freq[2]);
    fprintf(out, "log loss per position (nats):          training   held-out\n");
    fprintf(out, "  constant frequencies                 %.5f    %.5f\n",
            tune_wdl_constant_loss(freq, train, nTrain), constHeld);
    fprintf(out, "  material-independent a, b (%2d steps) %.5f    %.5f   (a %.1f, b %.1f)\n", flatIt, flatTrain,
            flatHeld, flat.a[0], flat.b[0]);
    fprintf(out, "  cubic in material (%2d steps)         %.5f    %.5f\n", fullIt, modelTrain, modelHeld);
    fprintf(out, "a(m), b(m) at material 78/58/40/24: ");
    static const int Materials[] = {78, 58, 40, 24};
    for (int i = 0; i < 4; i++) {
        double a, b;
        wdl_params(&model, Materials[i], &a, &b);
        fprintf(out, "%s%.0f/%.0f", i ? ", " : "", a, b);
    }
    fputc('\n', out);
    print_calibration(&model, held, nHeld, out);

    char provenance[2048];
    int len = snprintf(provenance, sizeof provenance, "Fitted by gizum-tune --fit-wdl --holdout %g", opt->holdout);
    for (int f = 0; f < opt->fileCount && len < (int)sizeof provenance; f++) {
        const char *slash = strrchr(opt->files[f], '/');
        len += snprintf(provenance + len, sizeof provenance - (size_t)len, " %s", slash ? slash + 1 : opt->files[f]);
    }
    if (len < (int)sizeof provenance)
        snprintf(provenance + len, sizeof provenance - (size_t)len,
                 "\non %zu positions of %u games; held out: the last %u games (%zu positions).\n"
                 "Held-out log loss (nats per position): %.4f; material-independent model\n"
                 "%.4f; constant outcome frequencies %.4f.\n",
                 nTrain, firstHeld, set->games - firstHeld, nHeld, modelHeld, flatHeld, constHeld);
    fputs("\n", out);
    print_model(out, &model, provenance);
    if (opt->outPath) {
        if (!write_model(opt->outPath, &model, provenance, err)) return 1;
        fprintf(out, "wrote %s\n", opt->outPath);
    }
    return 0;
}

int tune_wdl_cli(int argc, char **argv, FILE *out, FILE *err) {
    WdlOptions opt;
    int status = parse_wdl_options(argc, argv, &opt, out, err);
    if (status == 0) {
        WdlSet set = {0};
        bool ok = true;
        for (int f = 0; f < opt.fileCount && ok; f++) {
            WdlLoadStats st = {0};
            ok = tune_wdl_load(&set, opt.files[f], err, opt.maxMessages, &st);
            if (ok)
                fprintf(out, "%s: %zu records, %zu used, %zu bad, %zu without a score, %zu mate or tablebase scores; "
                             "%u games so far\n",
                        opt.files[f], st.records, st.used, st.bad, st.noScore, st.certain, set.games);
        }
        status = !ok ? 1 : set.count == 0 ? (fprintf(err, "gizum-tune: --fit-wdl: no usable positions\n"), 1)
                                          : fit_and_report(&opt, &set, out, err);
        tune_wdl_free(&set);
    }
    free(opt.files);
    return status < 0 ? 0 : status;
}
