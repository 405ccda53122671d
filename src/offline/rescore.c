#include "rescore.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dataset.h"
#include "fen.h"
#include "files.h"
#include "platform.h"
#include "searcher.h"
#include "timeman.h"

/* Positions searched between two writes: whole blocks survive an interrupt. */
enum { RESCORE_BLOCK = 1024 };

typedef enum { VERDICT_KEEP, VERDICT_MATE, VERDICT_NOISY, VERDICT_CHECK, VERDICT_BAD, VERDICT_COUNT } Verdict;

static const char *const VerdictNames[VERDICT_COUNT] = {"written", "mate or no move", "best move noisy", "in check",
                                                        "bad position"};

typedef struct {
    DataRecord rec;
    long long line;
    Verdict verdict;
    char err[96];                 /* VERDICT_BAD: why the FEN does not set up */
} Item;

typedef struct Run Run;

typedef struct {
    Run *run;
    Searcher *searcher;
    Position *pos;
    pthread_t handle;
} Worker;

struct Run {
    const RescoreConfig *cfg;
    Worker *workers;
    Item *items;
    int count;                    /* items in the block being filled */
    atomic_int next;              /* the next item a worker takes */
    int fd;
    char *text;                   /* one block's output */
    long long counts[VERDICT_COUNT];
    long long lastWritten;        /* the last input line of the last block written (0: none) */
    int64_t started, lastReport;
    bool failed;
};

/* The signal that interrupted the run (0: none); lock-free atomics are safe in a signal handler. */
static atomic_int Interrupted;

static void on_signal(int signo) {
    atomic_store(&Interrupted, signo);
}

/* Searches one position on fresh state and judges whether it stays a quiet training position. */
static void rescore_item(Worker *w, Item *it) {
    const RescoreConfig *cfg = w->run->cfg;
    if (!pos_set_fen(w->pos, it->rec.fen, false, it->err, sizeof it->err)) {
        it->verdict = VERDICT_BAD;
        return;
    }
    if (pos_in_check(w->pos)) {
        it->verdict = VERDICT_CHECK;
        return;
    }
    SearcherResult sr;
    searcher_new_game(w->searcher);
    searcher_search(w->searcher, w->pos, cfg->depth, cfg->nodes, &sr);
    if (sr.best == MOVE_NONE || sr.score >= VALUE_MATE_IN_MAX_PLY || sr.score <= VALUE_MATED_IN_MAX_PLY) {
        it->verdict = VERDICT_MATE;
    } else if (pos_is_capture_or_promotion(w->pos, sr.best)) {
        it->verdict = VERDICT_NOISY;
    } else {
        it->verdict = VERDICT_KEEP;
        it->rec.score = pos_side_to_move(w->pos) == WHITE ? sr.score : -sr.score;
        it->rec.hasScore = true;
    }
}

static void *worker_main(void *arg) {
    Worker *w = arg;
    Run *run = w->run;
    int i;
    while (!atomic_load(&Interrupted) && (i = atomic_fetch_add(&run->next, 1)) < run->count)
        rescore_item(w, &run->items[i]);
    return NULL;
}

static void report_progress(Run *run) {
    int64_t ms = tm_now() - run->started;
    long long searched = 0;
    for (int v = 0; v < VERDICT_COUNT; v++) searched += run->counts[v];
    fprintf(stderr, "rescore: line %lld, %lld positions written of %lld, %.1f positions/s, %" PRId64 " s\n",
            run->lastWritten, run->counts[VERDICT_KEEP], searched,
            ms > 0 ? (double)searched * 1000.0 / (double)ms : 0.0, ms / 1000);
    run->lastReport = tm_now();
}

/* Searches the filled block on every thread, then writes it in input order; false to stop. */
static bool flush_block(Run *run) {
    if (run->count == 0) return true;
    atomic_store(&run->next, 0);
    int started = 0;
    for (; started < run->cfg->threads; started++)
        if (pthread_create(&run->workers[started].handle, NULL, worker_main, &run->workers[started]) != 0) break;
    if (started == 0) worker_main(&run->workers[0]); /* no thread to spare: search here */
    for (int i = 0; i < started; i++) pthread_join(run->workers[i].handle, NULL);
    if (atomic_load(&Interrupted)) return false; /* an unfinished block is never written */
    size_t length = 0;
    for (int i = 0; i < run->count; i++) {
        const Item *it = &run->items[i];
        run->counts[it->verdict]++;
        if (it->verdict == VERDICT_BAD) fprintf(stderr, "%s:%lld: %s (line skipped)\n", run->cfg->in, it->line, it->err);
        if (it->verdict != VERDICT_KEEP) continue;
        dataset_format_line(&it->rec, run->text + length, DATASET_LINE_SIZE);
        length += strlen(run->text + length);
    }
    char err[256];
    if (!file_append_whole(run->fd, run->text, length, err, sizeof err)) {
        fprintf(stderr, "rescore: %s: %s\n", run->cfg->out, err);
        return run->failed = true, false;
    }
    run->lastWritten = run->items[run->count - 1].line;
    run->count = 0;
    if (tm_now() - run->lastReport >= (int64_t)run->cfg->reportSeconds * 1000) report_progress(run);
    return true;
}

static bool on_record(void *ctx, size_t line, const DataRecord *rec) {
    Run *run = ctx;
    const RescoreConfig *cfg = run->cfg;
    if (atomic_load(&Interrupted)) return false;
    if ((long long)line < cfg->firstLine) return true;
    if (cfg->lines > 0 && (long long)line >= cfg->firstLine + cfg->lines) return false;
    Item *it = &run->items[run->count++];
    it->rec = *rec;
    it->line = (long long)line;
    return run->count < RESCORE_BLOCK || flush_block(run);
}

static void on_bad_line(void *ctx, size_t line, const char *reason) {
    const Run *run = ctx;
    const RescoreConfig *cfg = run->cfg;
    if ((long long)line >= cfg->firstLine && (cfg->lines == 0 || (long long)line < cfg->firstLine + cfg->lines))
        fprintf(stderr, "%s:%zu: %s (line skipped)\n", cfg->in, line, reason);
}

/* The input and the output are one file (the run would read what it writes). */
static bool same_file(const char *a, const char *b) {
    struct stat sa, sb;
    if (strcmp(a, b) == 0) return true;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
        && sa.st_ino != 0;
}

static bool create_workers(Run *run) {
    for (int i = 0; i < run->cfg->threads; i++) {
        Worker *w = &run->workers[i];
        w->run = run;
        w->pos = malloc(sizeof *w->pos);
        w->searcher = searcher_create(run->cfg->hashMB);
        if (!w->pos || !w->searcher) return false;
    }
    return true;
}

static void free_workers(Run *run) {
    for (int i = 0; run->workers && i < run->cfg->threads; i++) {
        free(run->workers[i].pos);
        searcher_destroy(run->workers[i].searcher);
    }
    free(run->workers);
}

/* The totals, a read error (its errno, 0: none), and after an interrupt the line to continue from. */
static int finish(Run *run, int readErrno, int status) {
    report_progress(run);
    fprintf(stderr, "rescore:");
    for (int v = 0; v < VERDICT_COUNT; v++)
        fprintf(stderr, "%s %lld %s", v ? "," : "", run->counts[v], VerdictNames[v]);
    fprintf(stderr, "\n");
    int signo = atomic_load(&Interrupted);
    if (readErrno) {
        fprintf(stderr, "rescore: %s: read error: %s\n", run->cfg->in, strerror(readErrno));
        return 1;
    }
    if (signo) {
        if (run->lastWritten)
            fprintf(stderr, "rescore: interrupted by signal %d: input lines %lld to %lld are in %s; to continue: "
                    "--first-line %lld\n", signo, run->cfg->firstLine, run->lastWritten, run->cfg->out,
                    run->lastWritten + 1);
        else
            fprintf(stderr, "rescore: interrupted by signal %d before a block of %d positions was done; nothing "
                    "written; to continue: --first-line %lld\n", signo, RESCORE_BLOCK, run->cfg->firstLine);
        return 128 + signo;
    }
    return status;
}

int rescore_run(const RescoreConfig *cfg) {
    char err[512];
    if (same_file(cfg->in, cfg->out)) {
        fprintf(stderr, "rescore: %s is both the input and the output\n", cfg->in);
        return 2;
    }
    FILE *in = file_open_read(cfg->in, NULL, err, sizeof err);
    if (!in) {
        fprintf(stderr, "rescore: %s\n", err);
        return 2;
    }
    Run run;
    memset(&run, 0, sizeof run);
    run.cfg = cfg;
    run.fd = file_output_fd(cfg->out, true, err, sizeof err);
    if (run.fd < 0) {
        fprintf(stderr, "rescore: %s\n", err);
        fclose(in);
        return 2;
    }
    run.items = malloc(RESCORE_BLOCK * sizeof *run.items);
    run.text = malloc((size_t)RESCORE_BLOCK * DATASET_LINE_SIZE);
    run.workers = calloc((size_t)cfg->threads, sizeof *run.workers);
    int status = 0;
    atomic_store(&Interrupted, 0);
    platform_catch_interrupts(on_signal);
    run.started = run.lastReport = tm_now();
    fprintf(stderr, "rescore: %s from line %lld into %s, %" PRIu64 " nodes, depth %d, %d threads, %d MB each\n",
            cfg->in, cfg->firstLine, cfg->out, cfg->nodes, cfg->depth, cfg->threads, cfg->hashMB);
    if (!run.items || !run.text || !run.workers || !create_workers(&run)) {
        fprintf(stderr, "rescore: out of memory\n");
        status = 1;
    } else {
        size_t lines;
        /* errno is taken at once: the reports that follow may change it. */
        int readErrno = dataset_read_lines(in, on_record, on_bad_line, &run, &lines) ? 0 : errno ? errno : EIO;
        if (!run.failed && !readErrno) flush_block(&run);
        if (run.failed) status = 1;
        status = finish(&run, readErrno, status);
    }
    platform_release_interrupts();
    if (close(run.fd) != 0 && status == 0) {
        fprintf(stderr, "rescore: %s: %s\n", cfg->out, strerror(errno));
        status = 1;
    }
    fclose(in);
    free_workers(&run);
    free(run.items);
    free(run.text);
    return status;
}
