#include "datagen.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "openings.h"
#include "dataset.h"
#include "fen.h"
#include "files.h"
#include "movegen.h"
#include "numparse.h"
#include "platform.h"
#include "rescore.h"
#include "searcher.h"
#include "timeman.h"

enum {
    DATAGEN_THREADS_MAX = 256,
    DATAGEN_OPENING_TRIES = 10000, /* walks per game before the opening recipe is judged hopeless */
    DATAGEN_WINDOW_PER_THREAD = 16 /* finished games a run may hold back to keep the file in game order */
};

typedef struct {
    const char *out;
    long long games, positions;   /* stop after this many games / positions (0: no such limit) */
    uint64_t nodes;               /* per move (0: none) */
    int depth;                    /* per move (0: none) */
    int threads;
    uint64_t seed;
    long long firstGame;
    const char *book;             /* opening source: NULL = random walks, *.bin = Polyglot, else EPD */
    int randomMin, randomMax;     /* random plies of the openings (-1: the recipe's default) */
    int checkDepth, margin;       /* the openings' balance check (-1: default) */
    int skipPlies;                /* plies after the opening that are not written */
    int resignScore, resignPlies; /* a side this far ahead for this many plies in a row wins (plies 0: off) */
    int drawScore, drawPlies;     /* |score| at most this for this many plies in a row is a draw (plies 0: off) */
    int drawAfter;                /* ... from this game ply on */
    int maxGamePlies;             /* longer games are drawn */
    int hashMB;
    int reportSeconds;
    /* PGN conversion */
    char **pgn;
    int pgnCount;
    bool requireScore;
    /* Rescoring a dataset file */
    const char *rescore;
    long long firstLine, lines;
    bool hashGiven;
} DatagenConfig;

typedef enum { RESULT_BLACK_WINS, RESULT_DRAW, RESULT_WHITE_WINS } GameResult;

/* One game's output, filled by the worker that plays it, then written in order by the main thread. */
typedef struct {
    char *text;
    size_t length, capacity;
    long positions;
    GameResult result;
    bool done;                    /* guarded by Run.mutex */
    bool aborted;                 /* stopped before its end (interrupt, error): never written */
} GameOutput;

typedef struct {
    const DatagenConfig *cfg;
    OpeningRecipe recipe;
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    long long nextToClaim, nextToWrite, endGame; /* game indices; endGame: first game not to play */
    GameOutput *slots;            /* window of games: game i lives in slots[i % window] */
    int window;
    int activeWorkers;
    atomic_bool stop;
    char error[256];              /* a worker's fatal error, guarded by mutex */
} Run;

typedef struct {
    Run *run;
    pthread_t handle;
    Searcher *searcher;
    Position *pos;
    DataRecord *records;          /* this game's positions, before the result is known */
    int recordCount, recordCapacity;
} Worker;

/* The signal that interrupted the run (0: none); lock-free atomics are safe in a signal handler. */
static atomic_int Interrupted;

static void on_signal(int signo) {
    atomic_store(&Interrupted, signo);
}

/* ------------------------------------------------------------ searching and playing */

/* Game index's own random generator: the same for the same run seed and index, on any thread. */
static uint64_t game_seed(uint64_t runSeed, long long index) {
    uint64_t state = runSeed;
    state = book_random(&state) ^ ((uint64_t)index * 0xD1B54A32D192ED03ULL);
    return book_random(&state);
}

/* The result the rules give pos, or -1 when the game goes on. */
static int rules_result(const Position *pos) {
    MoveList list;
    gen_legal(pos, &list);
    if (list.count == 0)
        return pos_in_check(pos) ? (pos_side_to_move(pos) == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS)
                                 : RESULT_DRAW;
    if (pos_rule50(pos) >= 100 || pos_is_threefold(pos) || pos_insufficient_material(pos)) return RESULT_DRAW;
    return -1;
}

static void run_fail(Run *run, const char *message) {
    pthread_mutex_lock(&run->mutex);
    if (!run->error[0]) snprintf(run->error, sizeof run->error, "%s", message);
    atomic_store(&run->stop, true);
    pthread_cond_broadcast(&run->cond);
    pthread_mutex_unlock(&run->mutex);
}

static bool keep_record(Worker *w, const Position *pos, int whiteScore) {
    if (w->recordCount == w->recordCapacity) {
        int capacity = w->recordCapacity ? w->recordCapacity * 2 : 256;
        DataRecord *grown = realloc(w->records, (size_t)capacity * sizeof *grown);
        if (!grown) return false;
        w->records = grown;
        w->recordCapacity = capacity;
    }
    DataRecord *rec = &w->records[w->recordCount++];
    pos_get_fen(pos, rec->fen);
    rec->score = whiteScore;
    rec->hasScore = true;
    return true;
}

/* Formats the game's records with its result into out; false when out of memory. */
static bool format_game(const Worker *w, GameOutput *out, GameResult result) {
    size_t need = (size_t)w->recordCount * DATASET_LINE_SIZE + 1;
    if (need > out->capacity) {
        char *grown = realloc(out->text, need);
        if (!grown) return false;
        out->text = grown;
        out->capacity = need;
    }
    out->length = 0;
    for (int i = 0; i < w->recordCount; i++) {
        DataRecord rec = w->records[i];
        rec.result = result == RESULT_WHITE_WINS ? 1.0 : result == RESULT_DRAW ? 0.5 : 0.0;
        dataset_format_line(&rec, out->text + out->length, DATASET_LINE_SIZE);
        out->length += strlen(out->text + out->length);
    }
    out->positions = w->recordCount;
    out->result = result;
    return true;
}

/* Adjudication by the searched score (White's view); -1 while the game goes on. */
typedef struct {
    int whiteAhead, blackAhead, level;
} Streaks;

static int adjudicate(const DatagenConfig *cfg, Streaks *s, int white, int gamePly) {
    s->whiteAhead = white >= cfg->resignScore ? s->whiteAhead + 1 : 0;
    s->blackAhead = white <= -cfg->resignScore ? s->blackAhead + 1 : 0;
    s->level = gamePly >= cfg->drawAfter && abs(white) <= cfg->drawScore ? s->level + 1 : 0;
    if (cfg->resignPlies > 0 && s->whiteAhead >= cfg->resignPlies) return RESULT_WHITE_WINS;
    if (cfg->resignPlies > 0 && s->blackAhead >= cfg->resignPlies) return RESULT_BLACK_WINS;
    if (cfg->drawPlies > 0 && s->level >= cfg->drawPlies) return RESULT_DRAW;
    return -1;
}

/* Plays game index into out (aborted when the run stops first or fails). */
static void play_game(Worker *w, long long index, GameOutput *out) {
    Run *run = w->run;
    const DatagenConfig *cfg = run->cfg;
    Position *pos = w->pos;
    uint64_t rng = game_seed(cfg->seed, index);
    out->aborted = true;
    if (!openings_make(&run->recipe, w->searcher, &rng, pos, DATAGEN_OPENING_TRIES)) {
        run_fail(run, "no balanced opening found: widen --margin or change the opening source");
        return;
    }
    searcher_new_game(w->searcher);
    w->recordCount = 0;
    Streaks streaks = {0, 0, 0};
    int result = -1;
    for (int ply = 0; result < 0; ply++) {
        if (atomic_load_explicit(&run->stop, memory_order_relaxed) || atomic_load(&Interrupted)) return;
        if ((result = rules_result(pos)) >= 0) break;
        if (ply >= cfg->maxGamePlies) {
            result = RESULT_DRAW;
            break;
        }
        SearcherResult sr;
        searcher_search(w->searcher, pos, cfg->depth, cfg->nodes, &sr);
        int white = pos_side_to_move(pos) == WHITE ? sr.score : -sr.score;
        if (sr.best == MOVE_NONE) return; /* cannot happen after rules_result: never write such a game */
        if (sr.score >= VALUE_MATE_IN_MAX_PLY || sr.score <= VALUE_MATED_IN_MAX_PLY) {
            result = white > 0 ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
            break;
        }
        if (ply >= cfg->skipPlies && !pos_in_check(pos) && !pos_is_capture_or_promotion(pos, sr.best)
            && !keep_record(w, pos, white)) {
            run_fail(run, "out of memory");
            return;
        }
        result = adjudicate(cfg, &streaks, white, pos->gamePly);
        pos_do_game_move(pos, sr.best);
    }
    if (!format_game(w, out, (GameResult)result)) {
        run_fail(run, "out of memory");
        return;
    }
    out->aborted = false;
}

/* The next game to play, or -1 when there is none (or the run stops). Waits while the window is full. */
static long long claim_game(Run *run) {
    pthread_mutex_lock(&run->mutex);
    while (!atomic_load(&run->stop) && run->nextToClaim < run->endGame
           && run->nextToClaim >= run->nextToWrite + run->window)
        pthread_cond_wait(&run->cond, &run->mutex);
    long long index = -1;
    if (!atomic_load(&run->stop) && run->nextToClaim < run->endGame) index = run->nextToClaim++;
    pthread_mutex_unlock(&run->mutex);
    return index;
}

static void *worker_main(void *arg) {
    Worker *w = arg;
    Run *run = w->run;
    long long index;
    while ((index = claim_game(run)) >= 0) {
        /* The slot is this worker's alone until it is marked done. */
        GameOutput *out = &run->slots[index % run->window];
        play_game(w, index, out);
        pthread_mutex_lock(&run->mutex);
        out->done = true;
        pthread_cond_broadcast(&run->cond);
        pthread_mutex_unlock(&run->mutex);
    }
    pthread_mutex_lock(&run->mutex);
    run->activeWorkers--;
    pthread_cond_broadcast(&run->cond);
    pthread_mutex_unlock(&run->mutex);
    return NULL;
}

/* ------------------------------------------------------------ writing */

typedef struct {
    int fd;
    long long games, positions, wins, draws, losses; /* written this run; wins/losses are White's */
    int64_t started, lastReport;
} Writer;

/* Appends one game with a single write() (whole games only); on failure cuts the file back. */
static bool write_game(Writer *wr, const GameOutput *g, const char *path) {
    char err[256];
    if (!file_append_whole(wr->fd, g->text, g->length, err, sizeof err)) {
        fprintf(stderr, "datagen: %s: %s\n", path, err);
        return false;
    }
    wr->games++;
    wr->positions += g->positions;
    wr->wins += g->result == RESULT_WHITE_WINS;
    wr->draws += g->result == RESULT_DRAW;
    wr->losses += g->result == RESULT_BLACK_WINS;
    return true;
}

static void report_progress(Writer *wr) {
    int64_t ms = tm_now() - wr->started;
    double rate = ms > 0 ? (double)wr->positions * 1000.0 / (double)ms : 0.0;
    fprintf(stderr, "datagen: games %lld, positions %lld, %.0f positions/s, W/D/L %lld/%lld/%lld, %" PRId64 " s\n",
            wr->games, wr->positions, rate, wr->wins, wr->draws, wr->losses, ms / 1000);
    wr->lastReport = tm_now();
}

static bool target_reached(const DatagenConfig *cfg, const Writer *wr) {
    return (cfg->games && wr->games >= cfg->games) || (cfg->positions && wr->positions >= cfg->positions);
}

/*
 * The main thread: writes finished games in index order, reports progress,
 * and stops the run at its target, on a signal or on a worker's error.
 * Returns false on a write error.
 */
static bool write_in_order(Run *run, Writer *wr) {
    const DatagenConfig *cfg = run->cfg;
    bool ok = true;
    pthread_mutex_lock(&run->mutex);
    for (;;) {
        GameOutput *slot = &run->slots[run->nextToWrite % run->window];
        if (slot->done && !slot->aborted) {
            pthread_mutex_unlock(&run->mutex);
            ok = write_game(wr, slot, cfg->out);
            pthread_mutex_lock(&run->mutex);
            slot->done = false;
            run->nextToWrite++;
            pthread_cond_broadcast(&run->cond);
            if (!ok || target_reached(cfg, wr)) break;
            continue;
        }
        if (atomic_load(&Interrupted) || atomic_load(&run->stop) || run->activeWorkers == 0) break;
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 200 * 1000000L;
        if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&run->cond, &run->mutex, &until);
        if (tm_now() - wr->lastReport >= (int64_t)cfg->reportSeconds * 1000) report_progress(wr);
    }
    atomic_store(&run->stop, true);
    pthread_cond_broadcast(&run->cond);
    pthread_mutex_unlock(&run->mutex);
    return ok;
}

/* ------------------------------------------------------------ the run */

static void warn_stderr(void *ctx, const char *message) {
    (void)ctx;
    fprintf(stderr, "datagen: %s\n", message);
}

static void worker_free(Worker *w) {
    searcher_destroy(w->searcher);
    free(w->pos);
    free(w->records);
}

/* Starts the workers; false (with none left running) when one cannot be made. */
static bool start_workers(Run *run, Worker *workers) {
    for (int i = 0; i < run->cfg->threads; i++) {
        Worker *w = &workers[i];
        w->run = run;
        w->searcher = searcher_create(run->cfg->hashMB);
        w->pos = malloc(sizeof *w->pos);
        bool ok = w->searcher && w->pos;
        if (ok) {
            pthread_mutex_lock(&run->mutex);
            run->activeWorkers++;
            pthread_mutex_unlock(&run->mutex);
            ok = pthread_create(&w->handle, NULL, worker_main, w) == 0;
            if (!ok) run->activeWorkers--;
        }
        if (!ok) {
            worker_free(w);
            atomic_store(&run->stop, true);
            pthread_cond_broadcast(&run->cond);
            for (int j = 0; j < i; j++) pthread_join(workers[j].handle, NULL);
            for (int j = 0; j < i; j++) worker_free(&workers[j]);
            return false;
        }
    }
    return true;
}

static void print_settings(const DatagenConfig *cfg, const OpeningRecipe *r) {
    fprintf(stderr, "datagen: appending to %s; seed %" PRIu64 ", games from %lld", cfg->out, cfg->seed, cfg->firstGame);
    if (cfg->games) fprintf(stderr, ", %lld games", cfg->games);
    if (cfg->positions) fprintf(stderr, ", until %lld positions", cfg->positions);
    fprintf(stderr, "; %d thread%s, ", cfg->threads, cfg->threads > 1 ? "s" : "");
    if (cfg->nodes) fprintf(stderr, "%" PRIu64 " nodes%s", cfg->nodes, cfg->depth ? " and " : "");
    if (cfg->depth) fprintf(stderr, "depth %d", cfg->depth);
    fprintf(stderr, " per move; openings: %s, %d-%d random plies, depth-%d check within %d cp\n",
            cfg->book ? cfg->book : "start position", r->randomMinPlies, r->randomMaxPlies, r->depth, r->margin);
}

static int self_play(const DatagenConfig *cfg) {
    Run run;
    memset(&run, 0, sizeof run);
    run.cfg = cfg;
    char err[512];
    OpeningSource source;
    if (!openings_open_source(&source, cfg->book, warn_stderr, NULL, err, sizeof err)) {
        fprintf(stderr, "datagen: %s\n", err);
        return 2;
    }
    openings_default_recipe(&run.recipe, &source);
    if (cfg->randomMin >= 0) run.recipe.randomMinPlies = cfg->randomMin, run.recipe.randomMaxPlies = cfg->randomMax;
    if (cfg->checkDepth > 0) run.recipe.depth = cfg->checkDepth;
    if (cfg->margin >= 0) run.recipe.margin = cfg->margin;

    /* Appended to across runs (--first-game continues one); never into a folder, FIFO or device. */
    Writer wr = {.fd = file_output_fd(cfg->out, true, err, sizeof err)};
    if (wr.fd < 0) {
        fprintf(stderr, "datagen: %s\n", err);
        openings_close_source(&source);
        return 2;
    }
    run.window = cfg->threads * DATAGEN_WINDOW_PER_THREAD;
    run.slots = calloc((size_t)run.window, sizeof *run.slots);
    Worker *workers = calloc((size_t)cfg->threads, sizeof *workers);
    run.nextToClaim = run.nextToWrite = cfg->firstGame;
    run.endGame = cfg->games ? cfg->firstGame + cfg->games : INT64_MAX;
    pthread_mutex_init(&run.mutex, NULL);
    pthread_cond_init(&run.cond, NULL);
    atomic_init(&run.stop, false);

    atomic_store(&Interrupted, 0);
    platform_catch_interrupts(on_signal); /* a second Ctrl-C ends the program at once (whole games are still safe) */

    int status = 0;
    print_settings(cfg, &run.recipe);
    wr.started = wr.lastReport = tm_now();
    if (!run.slots || !workers || !start_workers(&run, workers)) {
        fprintf(stderr, "datagen: out of memory\n");
        status = 1;
    } else {
        bool written = write_in_order(&run, &wr);
        for (int i = 0; i < cfg->threads; i++) pthread_join(workers[i].handle, NULL);
        for (int i = 0; i < cfg->threads; i++) worker_free(&workers[i]);
        report_progress(&wr);
        int signo = atomic_load(&Interrupted);
        if (!written) {
            status = 1;
        } else if (run.error[0]) {
            fprintf(stderr, "datagen: %s\n", run.error);
            status = 1;
        } else if (signo && !target_reached(cfg, &wr)) {
            fprintf(stderr, "datagen: interrupted by signal %d: games %lld to %lld are in %s; to continue: --seed %" PRIu64
                    " --first-game %lld\n", signo, cfg->firstGame, run.nextToWrite - 1, cfg->out, cfg->seed, run.nextToWrite);
            status = 128 + signo;
        }
    }
    platform_release_interrupts();
    if (close(wr.fd) != 0 && status == 0) {
        fprintf(stderr, "datagen: %s: %s\n", cfg->out, strerror(errno));
        status = 1;
    }
    for (int i = 0; run.slots && i < run.window; i++) free(run.slots[i].text);
    free(run.slots);
    free(workers);
    pthread_cond_destroy(&run.cond);
    pthread_mutex_destroy(&run.mutex);
    openings_close_source(&source);
    return status;
}

/* ------------------------------------------------------------ PGN conversion */

typedef struct {
    FILE *out;
    bool failed;
} PgnSink;

static bool write_record(const DataRecord *rec, void *ctx) {
    PgnSink *sink = ctx;
    char line[DATASET_LINE_SIZE];
    dataset_format_line(rec, line, sizeof line);
    if (fputs(line, sink->out) == EOF) sink->failed = true;
    return !sink->failed;
}

static int convert_pgn(const DatagenConfig *cfg) {
    bool toStdout = strcmp(cfg->out, "-") == 0;
    char err[512];
    FILE *out = toStdout ? stdout : file_open_output(cfg->out, true, err, sizeof err);
    if (!out) {
        fprintf(stderr, "datagen: %s\n", err);
        return 2;
    }
    DatasetPgnOptions options = {cfg->skipPlies, cfg->requireScore, stderr};
    DatasetPgnStats stats = {0};
    PgnSink sink = {out, false};
    int status = 0;
    for (int i = 0; i < cfg->pgnCount && !sink.failed; i++) {
        if (!dataset_read_pgn(cfg->pgn[i], &options, write_record, &sink, &stats, err, sizeof err)) {
            fprintf(stderr, "datagen: %s (file skipped)\n", err);
            status = 1;
        }
        if (fflush(out) == EOF) sink.failed = true;
    }
    if (sink.failed) {
        fprintf(stderr, "datagen: %s: write failed: %s\n", cfg->out, strerror(errno));
        status = 1;
    }
    if (!toStdout && fclose(out) != 0 && !sink.failed) {
        fprintf(stderr, "datagen: %s: %s\n", cfg->out, strerror(errno));
        status = 1;
    }
    fprintf(stderr, "datagen: %d file%s, %ld games converted, %ld skipped, %ld positions written\n", cfg->pgnCount,
            cfg->pgnCount == 1 ? "" : "s", stats.games, stats.skippedGames, stats.records);
    return status;
}

/* ------------------------------------------------------------ rescoring */

/* Every position is searched on an emptied table: a small one empties fast. */
enum { RESCORE_HASH_MB = 4 };

static int rescore(const DatagenConfig *cfg) {
    RescoreConfig rc = {
        .in = cfg->rescore, .out = cfg->out, .nodes = cfg->nodes, .depth = cfg->depth, .threads = cfg->threads,
        .hashMB = cfg->hashGiven ? cfg->hashMB : RESCORE_HASH_MB, .firstLine = cfg->firstLine ? cfg->firstLine : 1,
        .lines = cfg->lines, .reportSeconds = cfg->reportSeconds,
    };
    return rescore_run(&rc);
}

/* ------------------------------------------------------------ options */

static bool parse_int_option(const char *text, int min, int max, int *out) {
    int64_t v;
    if (!parse_integer(text, min, max, &v)) return false;
    *out = (int)v;
    return true;
}

/* A count option: games, positions, nodes, a first game (long long in the configuration). */
static bool parse_count(const char *text, int64_t min, int64_t max, long long *out) {
    int64_t v;
    if (!parse_integer(text, min, max, &v)) return false;
    *out = v;
    return true;
}

void datagen_usage(FILE *out) {
    fprintf(out,
            "usage: gizum datagen --out FILE (--games N | --positions N) [options]\n"
            "       gizum datagen --pgn FILE... --out FILE|- [--skip-plies N] [--require-score]\n"
            "       gizum datagen --rescore FILE --out FILE [--nodes N] [--depth D] [--threads T] [--hash MB]\n"
            "                     [--first-line K] [--lines N]   each position searched again, new score kept\n"
            "self-play options (defaults in brackets):\n"
            "  --nodes N [5000] --depth D [none]   search per move (either or both)\n"
            "  --threads T [1]                     games played at once, one search thread each\n"
            "  --seed S [1] --first-game K [0]     game i depends only on S and i; K continues a run\n"
            "  --book FILE [none]                  openings: *.bin Polyglot book walks or an EPD file;\n"
            "                                      none: random walks from the start position\n"
            "  --random-plies A-B [8-9; 2-3 after a book or EPD position]\n"
            "  --check-depth D [%d] --margin CP [%d] the openings' balance check\n"
            "  --skip-plies N [8]                  plies after the opening that are not written\n"
            "  --resign-score CP [1000] --resign-plies N [4]   (plies 0: no resign adjudication)\n"
            "  --draw-score CP [10] --draw-plies N [10] --draw-after PLY [80]   (plies 0: none)\n"
            "  --max-plies N [600]                 longer games are drawn\n"
            "  --hash MB [16; 4 when rescoring] --report SECONDS [10]\n",
            OPENINGS_CHECK_DEPTH, OPENINGS_CHECK_MARGIN);
}

/* Reads one "--flag value" (or --require-score); returns how many words it used, 0 on error. */
static int parse_option(DatagenConfig *cfg, int argc, char **argv) {
    const char *flag = argv[0], *v = argc > 1 ? argv[1] : NULL;
    long long n = 0;
    bool ok;
    if (strcmp(flag, "--require-score") == 0) return cfg->requireScore = true, 1;
    if (strcmp(flag, "--pgn") == 0) {
        int count = 0;
        while (count + 1 < argc && strncmp(argv[count + 1], "--", 2) != 0) count++;
        cfg->pgn = argv + 1;
        cfg->pgnCount = count;
        return count > 0 ? count + 1 : 0;
    }
    if (!v) return 0;
    if (strcmp(flag, "--out") == 0) cfg->out = v, ok = true;
    else if (strcmp(flag, "--book") == 0) cfg->book = v, ok = true;
    else if (strcmp(flag, "--rescore") == 0) cfg->rescore = v, ok = true;
    else if (strcmp(flag, "--first-line") == 0) ok = parse_count(v, 1, INT64_MAX / 4, &cfg->firstLine);
    else if (strcmp(flag, "--lines") == 0) ok = parse_count(v, 1, INT64_MAX / 4, &cfg->lines);
    else if (strcmp(flag, "--games") == 0) ok = parse_count(v, 1, INT64_MAX / 4, &cfg->games);
    else if (strcmp(flag, "--positions") == 0) ok = parse_count(v, 1, INT64_MAX / 4, &cfg->positions);
    else if (strcmp(flag, "--nodes") == 0) ok = parse_count(v, 1, 1000000000000LL, &n), cfg->nodes = (uint64_t)n;
    else if (strcmp(flag, "--depth") == 0) ok = parse_int_option(v, 1, MAX_PLY - 1, &cfg->depth);
    else if (strcmp(flag, "--threads") == 0) ok = parse_int_option(v, 1, DATAGEN_THREADS_MAX, &cfg->threads);
    else if (strcmp(flag, "--seed") == 0) ok = parse_unsigned(v, &cfg->seed);
    else if (strcmp(flag, "--first-game") == 0) ok = parse_count(v, 0, INT64_MAX / 4, &cfg->firstGame);
    else if (strcmp(flag, "--random-plies") == 0) ok = openings_parse_plies(v, &cfg->randomMin, &cfg->randomMax);
    else if (strcmp(flag, "--check-depth") == 0) ok = parse_int_option(v, 1, 30, &cfg->checkDepth);
    else if (strcmp(flag, "--margin") == 0) ok = parse_int_option(v, 0, 10000, &cfg->margin);
    else if (strcmp(flag, "--skip-plies") == 0) ok = parse_int_option(v, 0, 10000, &cfg->skipPlies);
    else if (strcmp(flag, "--resign-score") == 0) ok = parse_int_option(v, 1, 30000, &cfg->resignScore);
    else if (strcmp(flag, "--resign-plies") == 0) ok = parse_int_option(v, 0, 1000, &cfg->resignPlies);
    else if (strcmp(flag, "--draw-score") == 0) ok = parse_int_option(v, 0, 30000, &cfg->drawScore);
    else if (strcmp(flag, "--draw-plies") == 0) ok = parse_int_option(v, 0, 1000, &cfg->drawPlies);
    else if (strcmp(flag, "--draw-after") == 0) ok = parse_int_option(v, 0, 10000, &cfg->drawAfter);
    else if (strcmp(flag, "--max-plies") == 0) ok = parse_int_option(v, 1, 100000, &cfg->maxGamePlies);
    else if (strcmp(flag, "--hash") == 0) ok = parse_int_option(v, 1, 4096, &cfg->hashMB), cfg->hashGiven = true;
    else if (strcmp(flag, "--report") == 0) ok = parse_int_option(v, 1, 86400, &cfg->reportSeconds);
    else ok = false;
    return ok ? 2 : 0;
}

int datagen_command(int argc, char **argv) {
    DatagenConfig cfg = {
        .out = NULL, .threads = 1, .seed = 1, .randomMin = -1, .randomMax = -1, .checkDepth = -1, .margin = -1,
        .skipPlies = 8, .resignScore = 1000, .resignPlies = 4, .drawScore = 10, .drawPlies = 10, .drawAfter = 80,
        .maxGamePlies = 600, .hashMB = 16, .reportSeconds = 10,
    };
    for (int i = 0; i < argc;) {
        int used = parse_option(&cfg, argc - i, argv + i);
        if (used == 0) {
            fprintf(stderr, "datagen: bad or incomplete option '%s'\n", argv[i]);
            datagen_usage(stderr);
            return 2;
        }
        i += used;
    }
    if (!cfg.out) {
        fprintf(stderr, "datagen: --out FILE is required\n");
        datagen_usage(stderr);
        return 2;
    }
    if (cfg.rescore && (cfg.pgnCount > 0 || cfg.games || cfg.positions)) {
        fprintf(stderr, "datagen: --rescore reads its positions from its file: no --pgn, --games or --positions\n");
        return 2;
    }
    if (cfg.pgnCount > 0) return convert_pgn(&cfg);
    if (!cfg.nodes && !cfg.depth) cfg.nodes = 5000;
    if (cfg.rescore) return rescore(&cfg);
    if (!cfg.games && !cfg.positions) {
        fprintf(stderr, "datagen: give --games N or --positions N\n");
        datagen_usage(stderr);
        return 2;
    }
    return self_play(&cfg);
}
