/*
 * Fuzz target: the tuner's input (tools/tune/tune_data.h), as gizum-tune
 * loads a training file.
 *
 * Input: arbitrary bytes as a file, loaded twice by tune_data_load: as
 * dataset lines ('<FEN> | <score> | <result>') and, under a name ending in
 * .pgn, as PGN games; on one or two threads (the last byte chooses), with
 * a cap on the messages.
 *
 * Each load is recomputed here, record by record, from the readers the
 * loader uses (dataset_read_lines, dataset_read_pgn: fuzz_dataset checks
 * those) and a quiescence search of our own:
 *  - the counts agree: every record is stored or counted once as a bad
 *    FEN, a mate or stalemate, a mate in the capture line or a line too
 *    deep; bad lines and unreadable games are counted as bad, games
 *    without a result as no result;
 *  - the stored positions are the quiet leaves of the records, in input
 *    order, whatever the number of threads: same coefficients, phase, side,
 *    scale factors, result and score;
 *  - a quiet leaf is a valid position, not in check, whose static
 *    evaluation is the quiescence value (tune_qsearch.h's promise), and its
 *    stored coefficients give back the engine's evaluation exactly
 *    (tune_eval_exact == eval_evaluate: the tuner fits the engine's eval);
 *  - every message names the file.
 */
#define _GNU_SOURCE
#include <math.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "fuzz_memfile.h"
#include "dataset.h"
#include "eval.h"
#include "evalweights.h"
#include "fen.h"
#include "tune_data.h"
#include "tune_model.h"
#include "tune_qsearch.h"

static Position *Pos;
static int FileFd = -1;
static char FilePath[64];
static char PgnDir[64], PgnPath[96];
static TuneQsearch *Qs;
static EvalCache *Cache;

static void remove_pgn_link(void) {
    unlink(PgnPath);
    rmdir(PgnDir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    engine_init();
    Pos = fuzz_new_position();
    FileFd = fuzz_memfile_create("fuzz-tunerinput", FilePath, sizeof FilePath);
    /* The loader reads PGN when the name ends in ".pgn": a link with that name to the same file. */
    snprintf(PgnDir, sizeof PgnDir, "/tmp/fuzz-tunerinput.XXXXXX");
    if (!mkdtemp(PgnDir)) abort();
    snprintf(PgnPath, sizeof PgnPath, "%s/games.pgn", PgnDir);
    if (symlink(FilePath, PgnPath) != 0) abort();
    atexit(remove_pgn_link);
    Qs = tune_qsearch_create();
    Cache = eval_cache_create();
    if (!Qs || !Cache) abort();
    return 0;
}

/* ------------------------------------------------------------ the expected load */

/* What the loader should make of the file, computed record by record. */
typedef struct {
    TuneLoadStats stats;
    TuneData data;      /* the expected stored positions */
} Expected;

/* Resolves one record as the loader must, checking the leaf; appends it when it is stored. */
static void expect_record(Expected *x, const DataRecord *rec) {
    char err[256];
    x->stats.records++;
    if (!pos_set_fen(Pos, rec->fen, false, err, sizeof err)) {
        x->stats.bad++;
        return;
    }
    char fen[128];
    pos_get_fen(Pos, fen);
    int score = 0, plies = 0;
    TuneLeafStatus status = tune_qsearch_leaf(Qs, Pos, &score, &plies);
    FUZZ_CHECK(plies >= 0 && plies <= TUNE_QS_MAX_PLY, "%d plies to the leaf of %s", plies, fen);
    fuzz_check_state(Pos, "quiescence leaf");
    if (status == TUNE_LEAF_NO_MOVES) {
        MoveList legal;
        gen_legal(Pos, &legal);
        FUZZ_CHECK(legal.count == 0 && plies == 0, "%s: 'no moves' with %d legal moves", fen, legal.count);
        x->stats.noMoves++;
        return;
    }
    if (status == TUNE_LEAF_MATE) {
        FUZZ_CHECK(abs(score) >= VALUE_MATE_IN_MAX_PLY, "%s: a mate line with score %d", fen, score);
        x->stats.mates++;
        return;
    }
    if (status == TUNE_LEAF_TOO_DEEP) {
        FUZZ_CHECK(pos_in_check(Pos), "%s: a line too deep that ends out of check", fen);
        x->stats.tooDeep++;
        return;
    }
    FUZZ_CHECK(status == TUNE_LEAF_QUIET && !pos_in_check(Pos), "%s: quiet leaf in check", fen);
    Value stand = eval_evaluate(Pos, Cache);
    FUZZ_CHECK(score == (plies % 2 ? -stand : stand), "%s: quiescence value %d, but the leaf (%d plies on) stands at %d",
               fen, score, plies, stand);
    TunePos tp;
    TuneEntry entries[PARAM_NB];
    tune_data_encode(Pos, &tp, entries);
    if (!tune_data_append(&x->data, &tp, entries, rec->result, rec->hasScore ? rec->score : NAN)) abort();
    const TunePos *stored = &x->data.positions[x->data.count - 1];
    char leaf[128];
    pos_get_fen(Pos, leaf);
    int exact = tune_eval_exact(&x->data, stored, EvalWeights);
    FUZZ_CHECK(exact == stand, "%s: the tuner's exact evaluation %d of leaf %s differs from the engine's %d", fen,
               exact, leaf, stand);
    x->stats.loaded++;
    x->stats.resolved += plies > 0;
}

static bool expect_line(void *ctx, size_t line, const DataRecord *rec) {
    (void)line;
    expect_record(ctx, rec);
    return true;
}

static void expect_bad_line(void *ctx, size_t line, const char *reason) {
    (void)line;
    (void)reason;
    Expected *x = ctx;
    x->stats.bad++;
}

static bool expect_pgn_record(const DataRecord *rec, void *ctx) {
    expect_record(ctx, rec);
    return true;
}

/* ------------------------------------------------------------ the comparison */

static bool same_float(float a, float b) { return (isnan(a) && isnan(b)) || a == b; }

/* One load against its expectation. */
static void check_load(const char *path, bool pgn, int threads, int maxMessages, int skipPlies) {
    Expected x;
    memset(&x, 0, sizeof x);
    if (pgn) {
        DatasetPgnOptions options = {.skipPlies = skipPlies};
        DatasetPgnStats stats = {0};
        char err[256];
        FUZZ_CHECK(dataset_read_pgn(path, &options, expect_pgn_record, &x, &stats, err, sizeof err),
                   "dataset_read_pgn: %s", err);
        x.stats.bad += (size_t)(stats.skippedGames - stats.noResultGames);
        x.stats.noResult += (size_t)stats.noResultGames;
    } else {
        FILE *f = fopen(path, "r");
        size_t lines;
        if (!f) abort();
        FUZZ_CHECK(dataset_read_lines(f, expect_line, expect_bad_line, &x, &lines), "dataset_read_lines: read error");
        fclose(f);
    }

    char *messages = NULL;
    size_t messagesSize = 0;
    FILE *out = open_memstream(&messages, &messagesSize);
    if (!out) abort();
    TuneLoadOptions options = {.threads = threads, .messages = out, .pgnSkipPlies = skipPlies,
                               .maxMessages = maxMessages};
    TuneLoadStats got = {0};
    TuneData data = {0};
    bool ok = tune_data_load(&data, path, &options, &got);
    fclose(out);
    FUZZ_CHECK(ok, "tune_data_load failed on a readable file: %.200s", messages);

    const TuneLoadStats *want = &x.stats;
    FUZZ_CHECK(got.records == want->records && got.loaded == want->loaded && got.bad == want->bad &&
                   got.noMoves == want->noMoves && got.mates == want->mates && got.tooDeep == want->tooDeep &&
                   got.resolved == want->resolved && got.noResult == want->noResult,
               "%s load: records %zu/%zu loaded %zu/%zu bad %zu/%zu noMoves %zu/%zu mates %zu/%zu tooDeep %zu/%zu "
               "resolved %zu/%zu noResult %zu/%zu (got/expected)",
               pgn ? "PGN" : "lines", got.records, want->records, got.loaded, want->loaded, got.bad, want->bad,
               got.noMoves, want->noMoves, got.mates, want->mates, got.tooDeep, want->tooDeep, got.resolved,
               want->resolved, got.noResult, want->noResult);
    FUZZ_CHECK(data.count == got.loaded && data.entryCount == x.data.entryCount, "%zu positions stored, %zu counted",
               data.count, got.loaded);
    for (size_t i = 0; i < data.count; i++) {
        const TunePos *a = &data.positions[i], *b = &x.data.positions[i];
        FUZZ_CHECK(a->begin == b->begin && a->count == b->count && a->phase == b->phase &&
                       a->tempoSign == b->tempoSign && memcmp(a->scale, b->scale, sizeof a->scale) == 0 &&
                       memcmp(a->mgScale, b->mgScale, sizeof a->mgScale) == 0 && same_float(a->result, b->result) &&
                       same_float(a->score, b->score),
                   "stored position %zu differs from the leaf of its record", i);
        FUZZ_CHECK(memcmp(data.entries + a->begin, x.data.entries + b->begin, a->count * sizeof *data.entries) == 0,
                   "stored position %zu has other coefficients than the leaf of its record", i);
    }
    /* Every message line names the file. */
    for (char *line = messages; line && *line;) {
        char *nl = strchr(line, '\n');
        FUZZ_CHECK(strncmp(line, path, strlen(path)) == 0 && line[strlen(path)] == ':', "message without the path: %.200s",
                   line);
        line = nl ? nl + 1 : NULL;
    }
    free(messages);
    tune_data_free(&data);
    tune_data_free(&x.data);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_memfile_write(FileFd, data, size);
    uint8_t knobs = size ? data[size - 1] : 0;
    int threads = 1 + (knobs & 1);
    int maxMessages = (knobs >> 1) % 4;
    int skipPlies = (knobs >> 3) % 10;
    check_load(FilePath, false, threads, maxMessages, skipPlies);
    check_load(PgnPath, true, threads, maxMessages, skipPlies);
    return 0;
}
