/*
 * Tests of the Texel tuner (tools/tune): the stored coefficients give back
 * evaluate() exactly, the quiescence leaf is the principal one, the
 * analytic gradient matches finite differences, K and a known weight
 * vector are recovered from labels they generated, weights survive a
 * write and read-back byte for byte, bad input is reported as file:line,
 * and the command line runs end to end. The WDL fitter (--fit-wdl) recovers
 * a model from outcomes it generated, splits the games of a file and runs
 * end to end.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "eval.h"
#include "fen.h"
#include "init.h"
#include "movegen.h"
#include "test.h"
#include "tune_cli.h"
#include "tune_data.h"
#include "tune_model.h"
#include "tune_qsearch.h"
#include "tune_weights.h"
#include "tune_wdl.h"

static char TmpDir[] = "/tmp/gizum-tuner-XXXXXX";
static char PathBuf[8][256];

/* A file name inside the test's temporary directory (eight live at once). */
static const char *tmp_path(const char *name) {
    static int next;
    char *p = PathBuf[next++ % 8];
    snprintf(p, sizeof PathBuf[0], "%s/%s", TmpDir, name);
    return p;
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

/* The whole of a file (NULL if unreadable); *len its size. */
static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&buf, &size);
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) fwrite(chunk, 1, n, mem);
    fclose(f);
    fclose(mem);
    if (len) *len = size;
    return buf;
}

static uint64_t Rng = 0x243F6A8885A308D3ULL;
static uint64_t rng_next(void) {
    Rng ^= Rng << 13;
    Rng ^= Rng >> 7;
    Rng ^= Rng << 17;
    return Rng;
}
static double rng_unit(void) { return (double)(rng_next() >> 11) / 9007199254740992.0; }

/* Start positions of the playouts: the opening, middlegames, and endings that reach every scale factor. */
static const char *const Starts[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/ppp2ppp/5n2/2bp4/2NPP3/2P5/PP3PPP/RNBQK2R w KQ - 0 9",
    "8/4k3/2p5/3b4/8/3PB3/2P1KP2/8 w - - 0 1",
    "2k5/8/8/8/8/8/8/1RK1b3 w - - 0 1",
    "4k3/8/8/3n4/8/8/8/1B2K3 w - - 0 1",
    "r3k3/1p3b2/8/8/8/8/P2B4/R3K3 w - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
};

/* Random legal playouts: about `count` positions, each set up in turn and passed to visit. */
static void playouts(int count, int plies, void (*visit)(Position *pos, void *ctx), void *ctx) {
    static Position pos;
    int done = 0;
    for (int game = 0; done < count; game++) {
        pos_set_fen(&pos, Starts[game % (int)(sizeof Starts / sizeof Starts[0])], false, NULL, 0);
        for (int ply = 0; ply < plies && done < count; ply++) {
            MoveList list;
            gen_legal(&pos, &list);
            if (list.count == 0) break;
            visit(&pos, ctx);
            done++;
            pos_do_move(&pos, list.moves[rng_next() % (uint64_t)list.count]);
        }
    }
}

/* ------------------------------------------------------------ exact reproduction */

typedef struct {
    TuneData data;
    TuneEntry entries[PARAM_NB];
    int positions, exactMismatches, floatMismatches, scaled, mgScaled;
    double worstFloat;
} ExactCtx;

static void check_exact(Position *pos, void *arg) {
    ExactCtx *c = arg;
    TunePos tp;
    tune_data_encode(pos, &tp, c->entries);
    tune_data_append(&c->data, &tp, c->entries, 0.5, NAN);
    const TunePos *stored = &c->data.positions[c->data.count - 1];
    Value v = eval_evaluate(pos, NULL);
    if (tune_eval_exact(&c->data, stored, EvalWeights) != v) c->exactMismatches++;

    double w[TUNE_WEIGHTS];
    tune_weights_to_real(EvalWeights, w);
    double e = tune_eval(&c->data, stored, w);
    double stm = pos_side_to_move(pos) == WHITE ? e : -e;
    /* Two integer truncations, each under 1 cp. */
    if (fabs(stm - v) >= 2) c->floatMismatches++;
    if (fabs(stm - v) > c->worstFloat) c->worstFloat = fabs(stm - v);
    c->scaled += stored->scale[WHITE] != SCALE_NORMAL || stored->scale[BLACK] != SCALE_NORMAL;
    c->mgScaled += stored->mgScale[WHITE] != SCALE_NORMAL || stored->mgScale[BLACK] != SCALE_NORMAL;
    c->positions++;
}

/* The sparse stored form, run through the engine's integer arithmetic, is evaluate() itself. */
static void test_exact_reproduction(void) {
    static ExactCtx c;
    playouts(6000, 160, check_exact, &c);
    CHECK(c.positions == 6000, "only %d positions", c.positions);
    CHECK(c.exactMismatches == 0, "%d of %d stored positions do not reproduce eval_evaluate()", c.exactMismatches,
          c.positions);
    CHECK(c.floatMismatches == 0, "%d positions: real-valued model differs from eval by 2 cp or more (worst %.2f)",
          c.floatMismatches, c.worstFloat);
    CHECK(c.scaled > 50 && c.mgScaled > 10, "too few scaled positions tested: %d eg, %d mg", c.scaled, c.mgScaled);
    double perPos = (double)c.data.entryCount / (double)c.data.count;
    CHECK(perPos > 5 && perPos < 200, "%.1f entries per position", perPos);
    printf("tuner: %d positions reproduce eval exactly (%d scaled), %.1f entries each, real model within %.2f cp\n",
           c.positions, c.scaled, perPos, c.worstFloat);
    tune_data_free(&c.data);
}

/* ------------------------------------------------------------ quiescence leaf */

typedef struct {
    TuneQsearch *qs;
    int quiet, wrongValue, notIdempotent, resolved;
} LeafCtx;

static void check_leaf(Position *root, void *arg) {
    LeafCtx *c = arg;
    static Position pos;
    pos_copy(&pos, root);
    int score, plies;
    if (tune_qsearch_leaf(c->qs, &pos, &score, &plies) != TUNE_LEAF_QUIET) return;
    c->quiet++;
    c->resolved += plies > 0;
    /* The principal leaf's static evaluation is the quiescence value. */
    int leafEval = eval_evaluate(&pos, NULL) * (plies % 2 ? -1 : 1);
    if (leafEval != score) c->wrongValue++;
    /* And the leaf is quiet: searching it again stands pat. */
    int again, againPlies;
    tune_qsearch_leaf(c->qs, &pos, &again, &againPlies);
    if (againPlies != 0) c->notIdempotent++;
}

static void test_quiescence_leaf(void) {
    TuneQsearch *qs = tune_qsearch_create();
    CHECK(qs != NULL, "qsearch allocation");
    if (!qs) return;
    static Position pos;
    int score, plies;

    /* A queen en prise: the leaf is after Nxd5, a queen up. */
    pos_set_fen(&pos, "4k3/pp6/8/3q4/8/4N3/PP6/4K3 w - - 0 1", false, NULL, 0);
    TuneLeafStatus st = tune_qsearch_leaf(qs, &pos, &score, &plies);
    CHECK(st == TUNE_LEAF_QUIET && plies == 1 && !pos_pieces_pt(&pos, QUEEN) && score > 200,
          "hanging queen: status %d, %d plies, score %d", st, plies, score);

    /* An exchange in flight: Bxf6 gxf6 is played out (the bishop is taken back). */
    pos_set_fen(&pos, "4k3/5p1p/5n2/8/8/1B6/6B1/4K3 b - - 0 1", false, NULL, 0);
    st = tune_qsearch_leaf(qs, &pos, &score, &plies);
    CHECK(st == TUNE_LEAF_QUIET && plies == 0, "quiet position resolved by %d plies (status %d)", plies, st);

    pos_set_fen(&pos, "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", false, NULL, 0);
    CHECK(tune_qsearch_leaf(qs, &pos, NULL, NULL) == TUNE_LEAF_NO_MOVES, "checkmated root not reported");
    pos_set_fen(&pos, "6k1/5ppp/8/8/8/8/8/K3R3 b - - 0 1", false, NULL, 0);
    pos_do_move(&pos, make_move(G8, H8));
    CHECK(tune_qsearch_leaf(qs, &pos, NULL, NULL) == TUNE_LEAF_QUIET, "quiet rook ending");

    LeafCtx c = {.qs = qs};
    playouts(3000, 120, check_leaf, &c);
    CHECK(c.quiet > 2500, "only %d of 3000 positions have a quiet leaf", c.quiet);
    CHECK(c.resolved > 100, "only %d positions resolved by captures", c.resolved);
    CHECK(c.wrongValue == 0, "%d leaves whose static eval is not the quiescence value", c.wrongValue);
    CHECK(c.notIdempotent == 0, "%d leaves that are not quiet themselves", c.notIdempotent);
    tune_qsearch_destroy(qs);
}

/* ------------------------------------------------------------ gradient, K, recovery */

typedef struct {
    TuneData data;
    TuneQsearch *qs;
    TuneEntry entries[PARAM_NB];
    int stride, seen;
} BuildCtx;

/* Stores every stride-th playout position's quiet leaf, labelled with a random result and a score. */
static void add_leaf(Position *root, void *arg) {
    BuildCtx *c = arg;
    if (c->seen++ % c->stride) return;
    static Position pos;
    pos_copy(&pos, root);
    if (tune_qsearch_leaf(c->qs, &pos, NULL, NULL) != TUNE_LEAF_QUIET) return;
    TunePos tp;
    tune_data_encode(&pos, &tp, c->entries);
    double result = (double)(rng_next() % 3) / 2;
    double score = (double)((int)(rng_next() % 801) - 400);
    tune_data_append(&c->data, &tp, c->entries, result, rng_next() % 4 ? score : NAN);
}

static void build_set(TuneData *data, int positions, int stride) {
    static BuildCtx c;
    memset(&c, 0, sizeof c);
    c.qs = tune_qsearch_create();
    c.stride = stride;
    playouts(positions * stride, 200, add_leaf, &c);
    tune_qsearch_destroy(c.qs);
    *data = c.data;
}

static void test_gradient(const TuneData *data0) {
    TuneData data = *data0;
    const double K = 0.006;
    tune_set_targets(&data, K, 0.5);
    double w[TUNE_WEIGHTS], grad[TUNE_WEIGHTS], grad3[TUNE_WEIGHTS];
    tune_weights_to_real(EvalWeights, w);
    for (int i = 0; i < TUNE_WEIGHTS; i++) w[i] += 20 * (rng_unit() - 0.5);
    double loss = tune_gradient(&data, 0, data.count, w, K, 1, grad);
    double loss3 = tune_gradient(&data, 0, data.count, w, K, 3, grad3);

    int compared = 0, bad = 0;
    double worst = 0, gradDiff = 0, gradMax = 0;
    for (int i = 0; i < TUNE_WEIGHTS; i++) {
        gradDiff = fmax(gradDiff, fabs(grad[i] - grad3[i]));
        gradMax = fmax(gradMax, fabs(grad[i]));
    }
    for (int i = 0; i < TUNE_WEIGHTS; i++) {
        bool sample = i == 2 * TEMPO || i == 2 * TEMPO + 1 || (eval_param_is_complexity(i / 2) && i % 2)
                   || rng_next() % 8 == 0;
        if (!sample || fabs(grad[i]) < 1e-9) continue;
        const double h = 1e-3;
        double keep = w[i];
        w[i] = keep + h;
        double up = tune_loss(&data, 0, data.count, w, K, 2);
        w[i] = keep - h;
        double down = tune_loss(&data, 0, data.count, w, K, 2);
        w[i] = keep;
        double numeric = (up - down) / (2 * h);
        /* Relative error, floored for tiny components where the loss's rounding dominates. */
        double rel = fabs(numeric - grad[i]) / fmax(fabs(grad[i]), 1e-3 * gradMax);
        worst = fmax(worst, rel);
        bad += rel > 1e-4;
        compared++;
    }
    CHECK(compared > 60, "only %d gradient components compared", compared);
    CHECK(bad == 0, "%d of %d gradient components differ from finite differences (worst relative %.2e)", bad,
          compared, worst);
    CHECK(fabs(loss - loss3) < 1e-12 && gradDiff < 1e-10 * gradMax, "1 and 3 threads differ: loss %.3e, gradient %.3e",
          fabs(loss - loss3), gradDiff);
    printf("tuner: %d gradient components match finite differences (worst relative error %.1e)\n", compared, worst);
}

static void test_fit_k(const TuneData *data0) {
    TuneData data = *data0;
    TunePos *saved = malloc(data.count * sizeof *saved);
    memcpy(saved, data.positions, data.count * sizeof *saved);
    data.positions = saved;
    double w[TUNE_WEIGHTS];
    tune_weights_to_real(EvalWeights, w);
    /* Soft results that a sigmoid with K = 0.0042 produced: the fit must find that K. */
    const double K = 0.0042;
    for (size_t i = 0; i < data.count; i++)
        saved[i].result = (float)(1 / (1 + exp(-K * tune_eval(&data, &saved[i], w))));
    double fitted = tune_fit_k(&data, w);
    CHECK(fabs(fitted - K) < 1e-5, "fitted K %.6f, labels made with %.6f", fitted, K);
    free(saved);
}

/* Weights that a known vector labels, started elsewhere, come back to that vector. */
static void test_recovery(const TuneData *data0) {
    TuneData data = *data0;
    TunePos *copy = malloc(data.count * sizeof *copy);
    memcpy(copy, data.positions, data.count * sizeof *copy);
    data.positions = copy;

    static const char *const Tuned[] = {"PIECE_VALUE", "BISHOP_PAIR", "ROOK_OPEN_FILE", "PAWN_DOUBLED",
                                        "PAWN_ISOLATED", "TEMPO", "HANGING", "PASSED_RANK[5]"};
    bool mask[TUNE_WEIGHTS] = {false}, frozen[TUNE_WEIGHTS];
    char err[256];
    for (size_t i = 0; i < sizeof Tuned / sizeof Tuned[0]; i++) tune_weights_select(Tuned[i], mask, err, sizeof err);
    for (int i = 0; i < TUNE_WEIGHTS; i++) frozen[i] = !mask[i];

    double truth[TUNE_WEIGHTS], w[TUNE_WEIGHTS];
    tune_weights_to_real(EvalWeights, truth);
    for (int i = 0; i < TUNE_WEIGHTS; i++) {
        if (mask[i]) truth[i] = round(truth[i] * 1.05 + 4);
    }
    /* Without the complexity the model is linear, so the optimum is one point; the
     * complexity's clamp leaves flat directions (it has its own gradient test). */
    for (int i = 0; i < TUNE_WEIGHTS; i++)
        if (eval_param_is_complexity(i / 2)) truth[i] = 0;
    /* Labels: the exact model score of the true vector (lambda 0: scores only). */
    for (size_t i = 0; i < data.count; i++) copy[i].score = (float)tune_eval(&data, &copy[i], truth);
    tune_weights_to_real(EvalWeights, w);
    for (int i = 0; i < TUNE_WEIGHTS; i++)
        if (eval_param_is_complexity(i / 2)) w[i] = 0;

    TuneConfig cfg;
    tune_config_defaults(&cfg);
    cfg.K = 0.003;
    cfg.lambda = 0;
    cfg.lr = 4;
    cfg.lrDecay = 0.99;
    cfg.epochs = 1000;
    cfg.batch = 0;
    cfg.threads = 2;
    cfg.frozen = frozen;
    double loss = tune_train(&data, &cfg, w);

    int off = 0, moved = 0;
    double worst = 0;
    for (int i = 0; i < TUNE_WEIGHTS; i++) {
        if (mask[i]) {
            worst = fmax(worst, fabs(w[i] - truth[i]));
            off += fabs(w[i] - truth[i]) > 0.5;
        } else {
            moved += w[i] != truth[i];
        }
    }
    CHECK(off == 0, "%d tuned weights not recovered to within 0.5 cp (worst %.2f)", off, worst);
    CHECK(moved == 0, "%d frozen weights moved", moved);
    CHECK(loss < 1e-7, "final loss %.3e", loss);
    printf("tuner: %d weights recovered within %.3f cp from %zu positions\n",
           (int)(sizeof Tuned / sizeof Tuned[0]), worst, data.count);
    free(copy);
}

/* ------------------------------------------------------------ weights file */

/* tune_weights_print() into memory: *buf (to free) and *len. */
static void print_weights(const Score *weights, char **buf, size_t *len) {
    *buf = NULL;
    FILE *f = open_memstream(buf, len);
    tune_weights_print(f, weights);
    fclose(f);
}

static void test_weights_file(void) {
    char err[512];
    const char *path = tmp_path("weights.c");

    /* The committed table is exactly what the printer writes. */
    size_t committedLen, printedLen;
    char *committed = read_file("src/eval/evalweights.c", &committedLen);
    char *printed;
    print_weights(EvalWeights, &printed, &printedLen);
    CHECK(committed && committedLen == printedLen && !memcmp(committed, printed, printedLen),
          "src/eval/evalweights.c is not tune_weights_print(EvalWeights)");
    free(committed);

    /* Write, read back, write again: the same weights and the same bytes. */
    Score random[PARAM_NB], back[PARAM_NB];
    for (int p = 0; p < PARAM_NB; p++) random[p] = S((int)(rng_next() % 2001) - 1000, (int)(rng_next() % 2001) - 1000);
    random[0] = S(-32767, 32767);
    random[1] = S(32767, -32767);
    bool wrote = tune_weights_write(path, random, err, sizeof err);
    bool read = tune_weights_read(path, back, err, sizeof err);
    CHECK(wrote && read && !memcmp(random, back, sizeof random), "weights differ after write and read-back: %s", err);
    size_t len1, len2;
    char *first = read_file(path, &len1);
    char *second;
    print_weights(back, &second, &len2);
    CHECK(first && len1 == len2 && !memcmp(first, second, len1), "re-written weights are not byte-identical");
    free(second);

    CHECK(tune_weights_parse(printed, back, err, sizeof err) && !memcmp(back, EvalWeights, sizeof back),
          "compiled-in table does not parse back: %s", err);

    /* Faults are named, never half-read. */
    first[len1 / 2] = '\0';
    CHECK(!tune_weights_parse(first, back, err, sizeof err) && strstr(err, "line "), "truncated table accepted");
    char *swapped = strstr(printed, "[PSQT_PAWN]");
    memcpy(swapped, "[PSQT_PAWX]", 11);
    CHECK(!tune_weights_parse(printed, back, err, sizeof err) && strstr(err, "PSQT_PAWX"), "wrong term name: %s", err);
    free(first);
    free(printed);

    /* A failed write leaves no file behind. */
    const char *nowhere = tmp_path("missing-dir/weights.c");
    CHECK(!tune_weights_write(nowhere, EvalWeights, err, sizeof err) && access(nowhere, F_OK) != 0,
          "write into a missing directory");

    bool mask[TUNE_WEIGHTS] = {false};
    CHECK(tune_weights_select("PIECE_VALUE[0].mg", mask, err, sizeof err) && mask[2 * PIECE_VALUE]
              && !mask[2 * PIECE_VALUE + 1] && !mask[2 * PIECE_VALUE + 2],
          "PIECE_VALUE[0].mg selects the pawn's mg value only");
    CHECK(!tune_weights_select("PIECE_VALUE[5]", mask, err, sizeof err)
              && !tune_weights_select("NO_SUCH_TERM", mask, err, sizeof err)
              && !tune_weights_select("TEMPO.xx", mask, err, sizeof err),
          "bad specs accepted");
}

/* ------------------------------------------------------------ loading */

static void test_loading(void) {
    const char *path = tmp_path("data.txt");
    write_file(path,
               "# comment\n"
               "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 30 | 0.5\n"
               "\n"
               "4k3/8/8/3q4/8/4N3/8/4K3 w - - 0 1 | 850 | 1.0\n"
               "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 1-0\n"
               "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 12 | 2.0\n"
               "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1 | 12 | 1.0\n"
               "no bars at all\n"
               "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1 | -32000 | 1.0\n"
               "4k3/8/8/8/8/8/8/4K2R w K - 0 1 | 500 | 1");
    TuneData data = {0};
    TuneLoadStats st = {0};
    char *messages = NULL;
    size_t len = 0;
    FILE *log = open_memstream(&messages, &len);
    TuneLoadOptions opt = {.threads = 2, .messages = log};
    bool ok = tune_data_load(&data, path, &opt, &st);
    fclose(log);
    char expect[512];

    CHECK(ok && data.count == 3 && st.loaded == 3, "loaded %zu positions (3 good lines)", data.count);
    CHECK(st.bad == 4 && st.noMoves == 1 && st.resolved == 1, "bad %zu, no moves %zu, resolved %zu", st.bad,
          st.noMoves, st.resolved);
    snprintf(expect, sizeof expect, "%s:6: result must be", path);
    CHECK(strstr(messages, expect) != NULL, "bad result not reported as file:line: %s", messages);
    snprintf(expect, sizeof expect, "%s:7: illegal FEN:", path);
    CHECK(strstr(messages, expect) != NULL, "illegal FEN not reported as file:line: %s", messages);
    snprintf(expect, sizeof expect, "%s:8: expected", path);
    CHECK(strstr(messages, expect) != NULL, "malformed line not reported: %s", messages);
    snprintf(expect, sizeof expect, "%s:10: truncated line", path);
    CHECK(strstr(messages, expect) != NULL, "truncated last line not reported: %s", messages);
    /* Line 4 (the queen en prise) is stored as its leaf; line 5 has no score. */
    CHECK(data.count == 3 && data.positions[1].score == 850 && data.positions[1].phase == 1
              && isnan(data.positions[2].score) && data.positions[2].result == 1.0f,
          "records stored out of order or with wrong labels");
    free(messages);
    tune_data_free(&data);

    /* The same file on 1 and 3 threads: the same stored set. */
    TuneData a = {0}, b = {0};
    TuneLoadStats sa = {0}, sb = {0};
    const char *big = tmp_path("big.txt");
    FILE *f = fopen(big, "w");
    static Position pos;
    for (int game = 0; game < 30; game++) {
        pos_set_startpos(&pos, false);
        for (int ply = 0; ply < 80; ply++) {
            MoveList list;
            gen_legal(&pos, &list);
            if (!list.count) break;
            char fen[128];
            pos_get_fen(&pos, fen);
            fprintf(f, "%s | %d | %s\n", fen, (int)(rng_next() % 200) - 100, ply % 3 ? "0.5" : "1.0");
            pos_do_move(&pos, list.moves[rng_next() % (uint64_t)list.count]);
        }
    }
    fclose(f);
    TuneLoadOptions one = {.threads = 1}, three = {.threads = 3};
    tune_data_load(&a, big, &one, &sa);
    tune_data_load(&b, big, &three, &sb);
    bool same = a.count == b.count && a.entryCount == b.entryCount && a.count > 1000
             && !memcmp(a.positions, b.positions, a.count * sizeof *a.positions)
             && !memcmp(a.entries, b.entries, a.entryCount * sizeof *a.entries);
    CHECK(same, "loading on 1 and 3 threads differs (%zu vs %zu positions)", a.count, b.count);
    tune_data_free(&a);
    tune_data_free(&b);

    /* PGN (dataset_read_pgn): positions after the skipped plies and before quiet moves, labelled
     * with the result and the comment's score; unreadable and unfinished games are skipped. */
    const char *pgn = tmp_path("games.pgn");
    write_file(pgn, "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 {+0.40/10 0.1s} Nc6 3. Bb5 a6 1-0\n\n"
                    "[Event \"b\"]\n[Result \"*\"]\n\n1. d4 d5 *\n\n"
                    "[Event \"c\"]\n[Result \"0-1\"]\n\n1. e4 Ke7 2. Ke3 0-1\n\n"
                    "[Event \"d\"]\n[Result \"1/2-1/2\"]\n\n1. c4 c5 1/2-1/2\n");
    TuneLoadStats sp = {0};
    messages = NULL;
    log = open_memstream(&messages, &len);
    TuneLoadOptions popt = {.threads = 2, .messages = log, .pgnSkipPlies = 2};
    ok = tune_data_load(&data, pgn, &popt, &sp);
    fclose(log);
    /* Game c has an illegal move (bad); game b has no result, counted apart (issue #38). */
    CHECK(ok && sp.records == 4 && sp.bad == 1 && sp.noResult == 1, "PGN: %zu records, %zu bad, %zu without a result",
          sp.records, sp.bad, sp.noResult);
    CHECK(data.count == 4 && !isnan(data.positions[0].score) && isnan(data.positions[1].score)
              && data.positions[0].result == 1.0f && data.positions[3].result == 1.0f,
          "PGN positions stored with wrong labels");
    snprintf(expect, sizeof expect, "%s:", pgn);
    CHECK(strstr(messages, expect) && strstr(messages, "game 3"), "bad PGN game not reported: %s", messages);
    free(messages);
    tune_data_free(&data);

    TuneLoadStats none = {0};
    messages = NULL;
    log = open_memstream(&messages, &len);
    TuneLoadOptions mopt = {.threads = 1, .messages = log};
    ok = tune_data_load(&data, tmp_path("no-such-file.txt"), &mopt, &none);
    fclose(log);
    CHECK(!ok && strstr(messages, "cannot open"), "missing file: %s", messages);
    free(messages);
    tune_data_free(&data);
}

/* ------------------------------------------------------------ command line */

static int run_cli(const char *args, char **output) {
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", args);
    char *argv[32] = {"gizum-tune"};
    int argc = 1;
    for (char *tok = strtok(buf, " "); tok && argc < 31; tok = strtok(NULL, " ")) argv[argc++] = tok;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    int status = tune_cli_run(argc, argv, out, out);
    fclose(out);
    if (output) *output = text;
    else free(text);
    return status;
}

/*
 * --out never replaces what is not a regular file (issue #38): a folder or
 * FIFO is refused before any tuning; through a symbolic link the target is
 * written and the link kept.
 */
static void test_cli_out(const char *data) {
    char args[1024], expect[1024], *output;
    snprintf(expect, sizeof expect, "cannot write %s: is a directory", TmpDir);
    snprintf(args, sizeof args, "%s --epochs 1 --out %s", data, TmpDir);
    CHECK(run_cli(args, &output) == 2 && strstr(output, expect) && !strstr(output, "epoch"), "--out a folder: %s",
          output);
    free(output);
    const char *fifo = tmp_path("fifo.c");
    struct stat st;
    mkfifo(fifo, 0600);
    snprintf(expect, sizeof expect, "cannot write %s: not a regular file (a FIFO)", fifo);
    snprintf(args, sizeof args, "%s --epochs 1 --out %s", data, fifo);
    CHECK(run_cli(args, &output) == 2 && strstr(output, expect) && stat(fifo, &st) == 0 && S_ISFIFO(st.st_mode),
          "--out a FIFO: %s", output);
    free(output);
    const char *link = tmp_path("link.c"), *target = tmp_path("linked.c");
    Score read[PARAM_NB];
    char err[512];
    CHECK(symlink("linked.c", link) == 0, "symlink");
    snprintf(args, sizeof args, "%s --epochs 0 --out %s", data, link);
    CHECK(run_cli(args, NULL) == 0 && lstat(link, &st) == 0 && S_ISLNK(st.st_mode)
              && tune_weights_read(target, read, err, sizeof err),
          "--out through a link: the link replaced or the target not written");
    snprintf(expect, sizeof expect, "cannot write %s: is a directory", TmpDir);
    snprintf(args, sizeof args, "--fit-wdl %s --wdl-out %s", data, TmpDir);
    CHECK(run_cli(args, &output) == 2 && strstr(output, expect), "--wdl-out a folder: %s", output);
    free(output);
}

static void test_cli(void) {
    char args[1024], *output;
    const char *data = tmp_path("big.txt"), *out = tmp_path("tuned.c");
    snprintf(args, sizeof args, "%s --epochs 3 --threads 2 --batch 256 --out %s --freeze PIECE_VALUE[0] --validate 0.1",
             data, out);
    int status = run_cli(args, &output);
    Score tuned[PARAM_NB];
    char err[512];
    bool read = tune_weights_read(out, tuned, err, sizeof err);
    CHECK(status == 0 && read, "gizum-tune run failed (%d): %s", status, output);
    CHECK(strstr(output, "epoch     3") && strstr(output, "held-out") && strstr(output, " s\n"),
          "no per-epoch loss and time: %s", output);
    CHECK(read && tuned[PIECE_VALUE] == EvalWeights[PIECE_VALUE] && memcmp(tuned, EvalWeights, sizeof tuned),
          "pawn value moved or nothing was tuned");
    free(output);

    /* Epochs 0 with the start weights from the written file: the same file again. */
    const char *again = tmp_path("again.c");
    snprintf(args, sizeof args, "%s --epochs 0 --init %s --out %s --k 0.005", data, out, again);
    status = run_cli(args, NULL);
    size_t la, lb;
    char *a = read_file(out, &la), *b = read_file(again, &lb);
    CHECK(status == 0 && a && b && la == lb && !memcmp(a, b, la), "--epochs 0 --init does not reproduce the file");
    free(a);
    free(b);

    const char *untouched = tmp_path("untouched.c");
    snprintf(args, sizeof args, "%s --lambda 2 --out %s", data, untouched);
    CHECK(run_cli(args, &output) == 2 && strstr(output, "--lambda"), "bad lambda: %s", output);
    free(output);
    snprintf(args, sizeof args, "%s --freeze NOPE --out %s", data, untouched);
    CHECK(run_cli(args, NULL) == 2, "bad freeze spec accepted");
    snprintf(args, sizeof args, "%s --out %s", tmp_path("no-such-file.txt"), untouched);
    CHECK(run_cli(args, NULL) == 1 && access(untouched, F_OK) != 0, "missing data file: status or output wrong");
    CHECK(run_cli("--help", &output) == 0 && strstr(output, "--freeze"), "help");
    free(output);

    /* The load line of games.pgn (test_loading): one bad game and one without a result, each said as
     * such. Its path is not taken from tmp_path: data's buffer must outlive this. */
    char pgn[256], expect[300];
    snprintf(pgn, sizeof pgn, "%s/games.pgn", TmpDir);
    snprintf(args, sizeof args, "%s --pgn-skip 2 --epochs 0 --out %s", pgn, untouched);
    snprintf(expect, sizeof expect, "%s: 4 records, ", pgn);
    status = run_cli(args, &output);
    CHECK(status == 0 && strstr(output, expect) && strstr(output, ", 1 bad, ") && strstr(output, ", 1 no result\n"),
          "PGN load line (status %d): %s", status, output);
    free(output);
    remove(untouched);

    /* A folder given as data or start weights is named as one (issue #38), not read as nothing. */
    char folder[1024];
    snprintf(folder, sizeof folder, "%s: is a directory", TmpDir);
    snprintf(args, sizeof args, "%s --out %s", TmpDir, untouched);
    CHECK(run_cli(args, &output) == 1 && strstr(output, folder), "data file a folder: %s", output);
    free(output);
    snprintf(args, sizeof args, "%s --init %s --out %s", data, TmpDir, untouched);
    CHECK(run_cli(args, &output) != 0 && strstr(output, folder), "--init a folder: %s", output);
    free(output);
    test_cli_out(data);
}

/*
 * --validate holds out the file's last positions, not a random share: a game's
 * positions are written together and share its result, so a random hold-out
 * scores positions whose results the fit has already seen. Here the first 90
 * positions are won and the last 10 (the same position) lost: fitting the
 * wins must raise the held-out loss, which a random split would lower with
 * the training loss.
 */
static void test_cli_holdout(void) {
    const char *data = tmp_path("split.txt"), *out = tmp_path("split.c");
    FILE *f = fopen(data, "w");
    for (int i = 0; f && i < 100; i++) fprintf(f, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 | 0 | %s\n", i < 90 ? "1.0" : "0.0");
    if (f) fclose(f);
    char args[1024], *output;
    snprintf(args, sizeof args, "%s --lambda 1 --k 0.01 --epochs 20 --batch 30 --validate 0.1 --threads 1 --out %s", data,
             out);
    int status = run_cli(args, &output);
    double train0 = 0, held0 = 0, train = 0, held = 0;
    int lines = 0;
    for (const char *p = output ? strstr(output, "epoch ") : NULL; p; p = strstr(p + 1, "\nepoch ")) {
        if (*p == '\n') p++;
        int epoch;
        double loss, heldLoss;
        if (sscanf(p, "epoch %d loss %lf held-out %lf", &epoch, &loss, &heldLoss) != 3) continue;
        if (lines++ == 0) train0 = loss, held0 = heldLoss;
        train = loss, held = heldLoss;
    }
    CHECK(status == 0 && lines == 21 && train < train0 && held > held0,
          "hold-out not the file's tail (status %d, %d epochs; training %.5f -> %.5f, held out %.5f -> %.5f)", status,
          lines, train0, train, held0, held);
    free(output);
    remove(data);
    remove(out);
}

/* ------------------------------------------------------------ the WDL fitter */

static void test_wdl_recovery(void) {
    enum { SAMPLES = 60000 };
    WdlSample *s = malloc(SAMPLES * sizeof *s);
    for (int i = 0; i < SAMPLES; i++) {
        int material = WDL_MATERIAL_MIN + (int)(rng_next() % (WDL_MATERIAL_MAX - WDL_MATERIAL_MIN + 1));
        int v = (int)(rng_next() % 1201) - 600;
        double win, loss, u = rng_unit();
        wdl_chances(&WdlModel, v, material, &win, &loss);
        s[i] = (WdlSample){.material = (int16_t)material, .value = (int16_t)v,
                           .outcome = u < win ? WDL_WIN : u < win + loss ? WDL_LOSS : WDL_DRAW, .game = (uint32_t)i};
    }
    WdlCoefficients fit = {.a = {100}, .b = {100}};
    int it0 = 0, it3 = 0;
    tune_wdl_fit(&fit, 0, s, SAMPLES, &it0);
    double loss = tune_wdl_fit(&fit, WDL_DEGREE, s, SAMPLES, &it3);
    double trueLoss = tune_wdl_loss(&WdlModel, s, SAMPLES);
    CHECK(isfinite(loss) && loss <= trueLoss + 1e-9 && it3 < 100,
          "WDL fit: loss %.6f, the generating model's %.6f, %d steps", loss, trueLoss, it3);
    /* The polynomials, not their (collinear) coefficients, are what must come back. */
    double worstA = 0, worstB = 0;
    for (int material = WDL_MATERIAL_MIN; material <= WDL_MATERIAL_MAX; material++) {
        double a, b, a0, b0;
        wdl_params(&fit, material, &a, &b);
        wdl_params(&WdlModel, material, &a0, &b0);
        worstA = fmax(worstA, fabs(a - a0));
        worstB = fmax(worstB, fabs(b - b0));
    }
    CHECK(worstA < 15 && worstB < 10, "WDL fit: a off by up to %.1f cp, b by %.1f cp", worstA, worstB);
    free(s);
}

static void test_wdl_loading(void) {
    const char *path = tmp_path("wdl.txt");
    write_file(path,
               "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 9 | 20 | 1.0\n"
               "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 11 | 40 | 1.0\n"
               "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 10 | 60 | 1.0\n"
               "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 12 | 80 | 0.5\n"
               "this is no record\n"
               "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 13 | 0.5\n"
               "4k3/8/8/8/8/8/4P3/4K2R b K - 0 14 | 50 | 0.5\n"
               "4k3/8/8/8/8/8/4P3/4K2R b K - 0 15 | 31900 | 0.5\n"
               "4k3/8/8/8/8/8/4P3/4K2R b K - 0 16 | 70 | 0.0\n");
    WdlSet set = {0};
    WdlLoadStats st = {0};
    char *messages = NULL;
    size_t len = 0;
    FILE *log = open_memstream(&messages, &len);
    bool ok = tune_wdl_load(&set, path, log, 100, &st);
    fclose(log);
    char expect[512];
    snprintf(expect, sizeof expect, "%s:5: ", path);
    CHECK(ok && st.records == 8 && st.used == 6 && st.bad == 1 && st.noScore == 1 && st.certain == 1
              && strstr(messages, expect),
          "WDL loading: %zu records, %zu used, %zu bad, %zu without a score, %zu certain; messages: %s", st.records,
          st.used, st.bad, st.noScore, st.certain, messages);
    /* Games: ply 16, 20 | 18 (ply fell) | 22 (result changed), 25, 27 | 31 (result changed). */
    static const uint32_t Games[] = {0, 0, 1, 2, 2, 3};
    bool gamesRight = set.count == 6 && set.games == 4;
    for (size_t i = 0; gamesRight && i < 6; i++) gamesRight = set.samples[i].game == Games[i];
    CHECK(gamesRight, "WDL loading: %u games, not split where the ply falls or the result changes", set.games);
    /* Black to move: the score and the result turn to the side to move's view. */
    CHECK(set.count == 6 && set.samples[4].value == -50 && set.samples[4].outcome == WDL_DRAW
              && set.samples[4].material == 6 && set.samples[5].value == -70 && set.samples[5].outcome == WDL_WIN
              && set.samples[0].value == 20 && set.samples[0].outcome == WDL_WIN && set.samples[0].material == 78,
          "WDL loading: samples not in the side to move's view");
    free(messages);
    tune_wdl_free(&set);
}

static void test_wdl_cli(void) {
    char args[1024], *output;
    const char *data = tmp_path("big.txt"), *out = tmp_path("wdlmodel.c");
    snprintf(args, sizeof args, "--fit-wdl %s --holdout 0.1 --wdl-out %s", data, out);
    int status = run_cli(args, &output);
    size_t len;
    char *written = read_file(out, &len);
    CHECK(status == 0 && written && strstr(written, "const WdlCoefficients WdlModel = {") && strstr(written, ".b = {")
              && strstr(output, "held-out calibration") && strstr(output, "constant frequencies"),
          "--fit-wdl run failed (%d): %s", status, output);
    free(written);
    free(output);
    snprintf(args, sizeof args, "--fit-wdl %s --holdout 0.9", data);
    CHECK(run_cli(args, &output) == 2 && strstr(output, "--holdout"), "--fit-wdl: bad holdout: %s", output);
    free(output);
    snprintf(args, sizeof args, "%s --fit-wdl", data);
    CHECK(run_cli(args, &output) == 2 && strstr(output, "first argument"), "--fit-wdl not first: %s", output);
    free(output);
    char folder[1024];
    snprintf(folder, sizeof folder, "%s: is a directory", TmpDir);
    snprintf(args, sizeof args, "--fit-wdl %s", TmpDir);
    CHECK(run_cli(args, &output) != 0 && strstr(output, folder), "--fit-wdl a folder: %s", output);
    free(output);
}

int main(void) {
    engine_init();
    if (!mkdtemp(TmpDir)) {
        perror("mkdtemp");
        return 1;
    }
    test_exact_reproduction();
    test_quiescence_leaf();
    TuneData set;
    build_set(&set, 3000, 3);
    CHECK(set.count > 2500, "training set of %zu positions", set.count);
    test_gradient(&set);
    test_fit_k(&set);
    test_recovery(&set);
    tune_data_free(&set);
    test_weights_file();
    test_loading();
    test_cli();
    test_cli_holdout();
    test_wdl_recovery();
    test_wdl_loading();
    test_wdl_cli();

    static const char *const Files[] = {"weights.c", "data.txt", "big.txt", "games.pgn", "tuned.c", "again.c",
                                         "wdl.txt", "wdlmodel.c", "fifo.c", "link.c", "linked.c"};
    for (size_t i = 0; i < sizeof Files / sizeof Files[0]; i++) remove(tmp_path(Files[i]));
    rmdir(TmpDir);
    return test_report();
}
