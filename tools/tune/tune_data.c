/*
 * Loading the training set: records are read in chunks (dataset lines or
 * PGN positions), each chunk is resolved to quiet leaves and encoded on
 * several threads, and the results are appended in input order, so the
 * stored set does not depend on the number of threads.
 */
#include "tune_data.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pgn.h"
#include "dataset.h"
#include "fen.h"
#include "files.h"
#include "tune_qsearch.h"

enum { CHUNK_RECORDS = 1 << 15, ERROR_SIZE = 160 };

/* ------------------------------------------------------------ storage */

static bool reserve(void **array, size_t *capacity, size_t needed, size_t size) {
    if (needed <= *capacity) return true;
    size_t cap = *capacity ? *capacity : 1024;
    while (cap < needed) cap *= 2;
    void *grown = realloc(*array, cap * size);
    if (!grown) return false;
    *array = grown;
    *capacity = cap;
    return true;
}

bool tune_data_append(TuneData *data, const TunePos *tp, const TuneEntry *entries, double result, double score) {
    if (!reserve((void **)&data->positions, &data->capacity, data->count + 1, sizeof *data->positions)
        || !reserve((void **)&data->entries, &data->entryCapacity, data->entryCount + tp->count, sizeof *data->entries))
        return false;
    TunePos *dst = &data->positions[data->count++];
    memcpy(dst, tp, sizeof *dst); /* padding too: stored sets compare with memcmp */
    dst->begin = data->entryCount;
    dst->result = (float)result;
    dst->score = (float)score;
    if (tp->count) memcpy(data->entries + data->entryCount, entries, tp->count * sizeof *entries);
    data->entryCount += tp->count;
    return true;
}

void tune_data_free(TuneData *data) {
    free(data->positions);
    free(data->entries);
    memset(data, 0, sizeof *data);
}

int tune_data_encode(const Position *pos, TunePos *tp, TuneEntry *entries) {
    EvalTrace trace;
    eval_evaluate_traced(pos, &trace);
    int n = 0;
    for (int p = 0; p < PARAM_NB; p++) {
        int c = trace.coeff[p][WHITE] - trace.coeff[p][BLACK];
        if (c && p != TEMPO) entries[n++] = (TuneEntry){.param = (uint16_t)p, .coeff = (int16_t)c};
    }
    memset(tp, 0, sizeof *tp);
    tp->count = (uint16_t)n;
    tp->phase = (uint8_t)trace.phase;
    tp->tempoSign = pos_side_to_move(pos) == WHITE ? 1 : -1;
    for (Color c = WHITE; c <= BLACK; c++) {
        tp->scale[c] = (uint8_t)trace.scaleFor[c];
        tp->mgScale[c] = (uint8_t)trace.mgScaleFor[c];
    }
    return n;
}

/* ------------------------------------------------------------ resolving a chunk */

typedef enum { OUT_STORED, OUT_BAD_FEN, OUT_NO_MOVES, OUT_MATE, OUT_TOO_DEEP } Outcome;

typedef struct {
    DataRecord rec;
    size_t line;
    Outcome outcome;
    bool resolved;
    char error[ERROR_SIZE];
} Pending;

/* One thread's share of a chunk and what it produced. */
typedef struct {
    Pending *pending;
    size_t lo, hi;
    TuneQsearch *qs;
    TuneData out;
    bool outOfMemory;
} Worker;

static void resolve_one(Worker *w, Pending *p, Position *pos, TuneEntry *scratch) {
    if (!pos_set_fen(pos, p->rec.fen, false, p->error, sizeof p->error)) {
        p->outcome = OUT_BAD_FEN;
        return;
    }
    int plies;
    TuneLeafStatus status = tune_qsearch_leaf(w->qs, pos, NULL, &plies);
    if (status != TUNE_LEAF_QUIET) {
        p->outcome = status == TUNE_LEAF_NO_MOVES ? OUT_NO_MOVES : status == TUNE_LEAF_MATE ? OUT_MATE : OUT_TOO_DEEP;
        return;
    }
    TunePos tp;
    tune_data_encode(pos, &tp, scratch);
    double score = p->rec.hasScore ? p->rec.score : NAN;
    if (!tune_data_append(&w->out, &tp, scratch, p->rec.result, score)) {
        w->outOfMemory = true;
        return;
    }
    p->outcome = OUT_STORED;
    p->resolved = plies > 0;
}

static void *resolve_range(void *arg) {
    Worker *w = arg;
    Position *pos = malloc(sizeof *pos);
    TuneEntry *scratch = malloc(PARAM_NB * sizeof *scratch);
    if (!pos || !scratch) {
        w->outOfMemory = true;
    } else {
        for (size_t i = w->lo; i < w->hi && !w->outOfMemory; i++) resolve_one(w, &w->pending[i], pos, scratch);
    }
    free(pos);
    free(scratch);
    return NULL;
}

/* ------------------------------------------------------------ the loader */

typedef struct {
    TuneData *data;
    const char *path;
    const TuneLoadOptions *opt;
    TuneLoadStats *stats;
    Pending *pending;
    size_t count, capacity;
    int threads;
    TuneQsearch **qs;
    int messages;        /* reported so far for this file */
    size_t unreported;   /* faults beyond maxMessages */
    bool failed;         /* out of memory */
} Loader;

/* Counts one fault; true if it is still to be shown (maxMessages per file). */
static bool fault(Loader *ld) {
    ld->stats->bad++;
    if (!ld->opt->messages) return false;
    if (ld->opt->maxMessages && ld->messages >= ld->opt->maxMessages) {
        ld->unreported++;
        return false;
    }
    ld->messages++;
    return true;
}

/* Reports one fault as "file:line: reason". */
__attribute__((format(printf, 3, 4))) static void report(Loader *ld, size_t line, const char *fmt, ...) {
    if (!fault(ld)) return;
    va_list args;
    va_start(args, fmt);
    fprintf(ld->opt->messages, "%s:%zu: ", ld->path, line);
    vfprintf(ld->opt->messages, fmt, args);
    fputc('\n', ld->opt->messages);
    va_end(args);
}

/* Resolves and stores the pending records, on ld->threads threads, in input order. */
static void flush_chunk(Loader *ld) {
    if (ld->count == 0 || ld->failed) return;
    int threads = ld->threads;
    Worker workers[threads];
    pthread_t ids[threads];
    bool started[threads];
    for (int t = 0; t < threads; t++) {
        workers[t] = (Worker){.pending = ld->pending, .qs = ld->qs[t],
                              .lo = ld->count * (size_t)t / (size_t)threads,
                              .hi = ld->count * (size_t)(t + 1) / (size_t)threads};
        started[t] = t > 0 && pthread_create(&ids[t], NULL, resolve_range, &workers[t]) == 0;
    }
    resolve_range(&workers[0]);
    for (int t = 1; t < threads; t++) {
        if (started[t]) pthread_join(ids[t], NULL);
        else resolve_range(&workers[t]);
    }

    for (size_t i = 0; i < ld->count; i++) {
        Pending *p = &ld->pending[i];
        switch (p->outcome) {
        case OUT_STORED:
            ld->stats->loaded++;
            ld->stats->resolved += p->resolved;
            break;
        case OUT_BAD_FEN: report(ld, p->line, "illegal FEN: %s", p->error); break;
        case OUT_NO_MOVES: ld->stats->noMoves++; break;
        case OUT_MATE: ld->stats->mates++; break;
        case OUT_TOO_DEEP: ld->stats->tooDeep++; break;
        }
    }
    for (int t = 0; t < threads; t++) {
        TuneData *out = &workers[t].out;
        if (workers[t].outOfMemory) ld->failed = true;
        for (size_t i = 0; i < out->count && !ld->failed; i++) {
            const TunePos *tp = &out->positions[i];
            if (!tune_data_append(ld->data, tp, out->entries + tp->begin, tp->result, tp->score)) ld->failed = true;
        }
        tune_data_free(out);
    }
    ld->count = 0;
}

/* Queues one record; full chunks are resolved at once. */
static void add_record(Loader *ld, const DataRecord *rec, size_t line) {
    /* The queue grows to a chunk as records come: a small file does not pay for 10 MB. */
    if (!reserve((void **)&ld->pending, &ld->capacity, ld->count + 1, sizeof *ld->pending)) {
        ld->failed = true;
        return;
    }
    ld->stats->records++;
    Pending *p = &ld->pending[ld->count++];
    p->rec = *rec;
    p->line = line;
    p->outcome = OUT_BAD_FEN;
    p->resolved = false;
    p->error[0] = '\0';
    if (ld->count == CHUNK_RECORDS) flush_chunk(ld);
}

static void bad_line(void *ctx, size_t line, const char *reason) {
    report(ctx, line, "%s", reason);
}

static bool take_line(void *ctx, size_t line, const DataRecord *rec) {
    Loader *ld = ctx;
    add_record(ld, rec, line);
    return !ld->failed;
}

/* Dataset lines: "<FEN> | <score> | <result>" or "<FEN> | <result>". */
static bool load_lines(Loader *ld) {
    char err[512];
    FILE *f = file_open_read(ld->path, NULL, err, sizeof err);
    if (!f) {
        if (ld->opt->messages) fprintf(ld->opt->messages, "%s\n", err);
        return false;
    }
    size_t lines;
    bool readOk = dataset_read_lines(f, take_line, bad_line, ld, &lines);
    if (!readOk && ld->opt->messages) fprintf(ld->opt->messages, "%s:%zu: read error\n", ld->path, lines + 1);
    fclose(f);
    return readOk;
}

/* dataset_read_pgn's callback: one record of a PGN game. */
static bool add_pgn_record(const DataRecord *rec, void *ctx) {
    Loader *ld = ctx;
    add_record(ld, rec, 0);
    return !ld->failed;
}

/*
 * PGN games, through the same conversion as `gizum datagen --pgn`
 * (dataset_read_pgn): positions after the first pgnSkipPlies plies that are
 * not in check and not before a capture, labelled with the game's result
 * and the score of the move's comment when there is one.
 */
static bool load_pgn(Loader *ld) {
    char err[PGN_ERROR_SIZE];
    DatasetPgnOptions options = {.skipPlies = ld->opt->pgnSkipPlies, .warnings = ld->opt->messages};
    DatasetPgnStats stats = {0};
    if (!dataset_read_pgn(ld->path, &options, add_pgn_record, ld, &stats, err, sizeof err)) {
        if (ld->opt->messages) fprintf(ld->opt->messages, "%s\n", err);
        return false;
    }
    /* An unreadable game is a fault of the file; one without a result is only unusable. */
    ld->stats->bad += (size_t)(stats.skippedGames - stats.noResultGames);
    ld->stats->noResult += (size_t)stats.noResultGames;
    return true;
}

static bool has_suffix(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

bool tune_data_load(TuneData *data, const char *path, const TuneLoadOptions *opt, TuneLoadStats *stats) {
    Loader ld = {.data = data, .path = path, .opt = opt, .stats = stats};
    ld.threads = opt->threads < 1 ? 1 : opt->threads;
    ld.qs = calloc((size_t)ld.threads, sizeof *ld.qs);
    bool ok = ld.qs != NULL;
    for (int t = 0; ok && t < ld.threads; t++) ok = (ld.qs[t] = tune_qsearch_create()) != NULL;

    if (ok) {
        ok = has_suffix(path, ".pgn") ? load_pgn(&ld) : load_lines(&ld);
        flush_chunk(&ld);
    }
    if (ld.unreported && opt->messages)
        fprintf(opt->messages, "%s: %zu further faulty records not shown\n", path, ld.unreported);
    if ((!ld.qs || ld.failed) && opt->messages) fprintf(opt->messages, "%s: out of memory\n", path);
    ok = ok && !ld.failed;

    for (int t = 0; ld.qs && t < ld.threads; t++) tune_qsearch_destroy(ld.qs[t]);
    free(ld.qs);
    free(ld.pending);
    return ok;
}
