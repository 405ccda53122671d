/*
 * Thread pool for Lazy SMP: creation, start/stop handshakes, output lock.
 */
#include "thread.h"
#include "fen.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"

void threads_print(const char *fmt, ...) {
    char line[8192];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    /* stdio's own lock keeps lines from different threads whole. */
    flockfile(stdout);
    fputs(line, stdout);
    fputc('\n', stdout);
    fflush(stdout);
    funlockfile(stdout);
}

/* Sleeps until told to search (then searches) or to exit. */
static void *thread_main(void *arg) {
    SearchThread *t = arg;
    ThreadPool *pool = t->pool;
    for (;;) {
        pthread_mutex_lock(&pool->mutex);
        while (!t->searching && !t->exit) pthread_cond_wait(&pool->cond, &pool->mutex);
        bool quit = t->exit;
        pthread_mutex_unlock(&pool->mutex);
        if (quit) return NULL;

        search_thread_run(t);

        pthread_mutex_lock(&pool->mutex);
        t->searching = false;
        if (t->index == 0) pool->mainBusy = false;
        pthread_cond_broadcast(&pool->cond);
        pthread_mutex_unlock(&pool->mutex);
    }
}

static void thread_free(SearchThread *t) {
    if (!t) return;
    free(t->pos);
    free(t->hist);
    if (t->pawns) pawn_table_destroy(t->pawns);
    free(t);
}

/* Allocates one thread's data and starts its OS thread (sleeping). */
static SearchThread *thread_new(ThreadPool *pool, int index) {
    SearchThread *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->index = index;
    t->pool = pool;
    t->pos = malloc(sizeof *t->pos);
    t->hist = calloc(1, sizeof *t->hist);
    t->pawns = pawn_table_create();
    atomic_init(&t->nodes, 0);
    if (!t->pos || !t->hist || !t->pawns) {
        thread_free(t);
        return NULL;
    }
    pos_set_startpos(t->pos, false);
    /* Search threads recurse deeply; ask for a stack with generous room. */
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 8u << 20);
    int rc = pthread_create(&t->handle, &attr, thread_main, t);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        thread_free(t);
        return NULL;
    }
    return t;
}

/* Tells a thread to exit, joins it and frees it. */
static void thread_delete(ThreadPool *pool, SearchThread *t) {
    pthread_mutex_lock(&pool->mutex);
    t->exit = true;
    pthread_cond_broadcast(&pool->cond);
    pthread_mutex_unlock(&pool->mutex);
    pthread_join(t->handle, NULL);
    thread_free(t);
}

ThreadPool *threads_create(int count, TTable *tt) {
    ThreadPool *pool = calloc(1, sizeof *pool);
    if (!pool) return NULL;
    pool->tt = tt;
    pthread_mutex_init(&pool->mutex, NULL);
    pthread_cond_init(&pool->cond, NULL);
    atomic_init(&pool->control.stop, false);
    atomic_init(&pool->control.ponder, false);
    atomic_init(&pool->control.startTime, 0);
    search_limits_init(&pool->control.limits);
    if (!threads_set_count(pool, count)) {
        threads_destroy(pool);
        return NULL;
    }
    return pool;
}

void threads_destroy(ThreadPool *pool) {
    if (!pool) return;
    threads_stop(pool);
    threads_wait(pool);
    for (int i = 0; i < pool->count; i++) thread_delete(pool, pool->threads[i]);
    free(pool->threads);
    pthread_cond_destroy(&pool->cond);
    pthread_mutex_destroy(&pool->mutex);
    free(pool);
}

bool threads_set_count(ThreadPool *pool, int count) {
    if (count < 1 || count > THREADS_MAX || threads_busy(pool)) return false;
    if (count == pool->count) return true;
    if (count > pool->count) {
        SearchThread **grown = realloc(pool->threads, (size_t)count * sizeof *grown);
        if (!grown) return false;
        pool->threads = grown;
        int old = pool->count;
        for (int i = old; i < count; i++) {
            SearchThread *t = thread_new(pool, i);
            if (!t) {
                for (int j = old; j < i; j++) thread_delete(pool, pool->threads[j]);
                return false;
            }
            pool->threads[i] = t;
        }
    } else {
        for (int i = count; i < pool->count; i++) thread_delete(pool, pool->threads[i]);
    }
    pool->count = count;
    return true;
}

void threads_clear(ThreadPool *pool) {
    for (int i = 0; i < pool->count; i++) {
        SearchThread *t = pool->threads[i];
        memset(t->hist, 0, sizeof *t->hist);
        pawn_table_clear(t->pawns);
    }
}

/* True if m is one of the moves listed in limits->searchMoves (or none are listed). */
static bool root_move_wanted(const SearchLimits *limits, Move m) {
    if (limits->searchMovesCount == 0) return true;
    for (int i = 0; i < limits->searchMovesCount; i++)
        if (limits->searchMoves[i] == m) return true;
    return false;
}

/* A strength level searches at least its lines, no deeper and no longer than it allows. */
static void apply_strength(SearchLimits *limits) {
    const StrengthLevel *level = &limits->strength;
    if (!level->enabled) return;
    if (limits->multiPV < level->lines) limits->multiPV = level->lines;
    if (limits->depth == 0 || limits->depth > level->depth) limits->depth = level->depth;
    if (limits->nodes == 0 || limits->nodes > level->nodes) limits->nodes = level->nodes;
}

void threads_start(ThreadPool *pool, const Position *pos, const SearchLimits *limits, int64_t startTime) {
    threads_wait(pool);
    SearchControl *ctl = &pool->control;
    ctl->limits = *limits;
    if (ctl->limits.multiPV < 1) ctl->limits.multiPV = 1;
    apply_strength(&ctl->limits);
    ctl->bestMove = ctl->ponderMove = MOVE_NONE;
    ctl->bestScore = VALUE_NONE;
    ctl->bestDepth = 0;

    MoveList legal;
    gen_legal(pos, &legal);
    RootMove *first = pool->threads[0]->rootMoves;
    int count = 0;
    for (int i = 0; i < legal.count; i++) {
        if (!root_move_wanted(limits, legal.moves[i])) continue;
        RootMove *rm = &first[count++];
        memset(rm, 0, sizeof *rm);
        rm->move = legal.moves[i];
        rm->score = rm->prevScore = rm->averageScore = -VALUE_INFINITE;
        rm->pvLength = 1;
        rm->pv[0] = rm->move;
    }
    ctl->rootMoveCount = count;
    tm_init(&ctl->tm, &ctl->limits, pos_side_to_move(pos), count);
    tt_new_search(pool->tt);

    for (int i = 0; i < pool->count; i++) {
        SearchThread *t = pool->threads[i];
        pos_copy(t->pos, pos);
        t->rootCount = count;
        if (i > 0) memcpy(t->rootMoves, first, (size_t)count * sizeof *first);
        atomic_store_explicit(&t->nodes, 0, memory_order_relaxed);
        t->completedDepth = t->rootDepth = t->seldepth = t->pvIndex = 0;
    }

    atomic_store(&ctl->stop, false);
    atomic_store(&ctl->ponder, limits->ponder);
    atomic_store(&ctl->startTime, startTime);

    pthread_mutex_lock(&pool->mutex);
    pool->mainBusy = true;
    for (int i = 0; i < pool->count; i++) pool->threads[i]->searching = true;
    pthread_cond_broadcast(&pool->cond);
    pthread_mutex_unlock(&pool->mutex);
}

void threads_wait(ThreadPool *pool) {
    pthread_mutex_lock(&pool->mutex);
    while (pool->mainBusy) pthread_cond_wait(&pool->cond, &pool->mutex);
    pthread_mutex_unlock(&pool->mutex);
}

bool threads_busy(ThreadPool *pool) {
    pthread_mutex_lock(&pool->mutex);
    bool busy = pool->mainBusy;
    pthread_mutex_unlock(&pool->mutex);
    return busy;
}

void threads_stop(ThreadPool *pool) {
    pthread_mutex_lock(&pool->mutex);
    atomic_store(&pool->control.stop, true);
    atomic_store(&pool->control.ponder, false);
    pthread_cond_broadcast(&pool->cond);
    pthread_mutex_unlock(&pool->mutex);
}

void threads_ponderhit(ThreadPool *pool) {
    pthread_mutex_lock(&pool->mutex);
    if (atomic_load(&pool->control.ponder)) {
        /* Our clock starts now: the time planned at `go ponder` counts from here. */
        atomic_store(&pool->control.startTime, tm_now());
        atomic_store(&pool->control.ponder, false);
    }
    pthread_cond_broadcast(&pool->cond);
    pthread_mutex_unlock(&pool->mutex);
}

uint64_t threads_nodes(ThreadPool *pool) {
    uint64_t sum = 0;
    for (int i = 0; i < pool->count; i++)
        sum += atomic_load_explicit(&pool->threads[i]->nodes, memory_order_relaxed);
    return sum;
}

void threads_wait_for_release(ThreadPool *pool) {
    SearchControl *ctl = &pool->control;
    pthread_mutex_lock(&pool->mutex);
    while (!atomic_load(&ctl->stop) && (atomic_load(&ctl->ponder) || ctl->limits.infinite))
        pthread_cond_wait(&pool->cond, &pool->mutex);
    pthread_mutex_unlock(&pool->mutex);
}

void threads_stop_helpers(ThreadPool *pool) {
    atomic_store(&pool->control.stop, true);
    pthread_mutex_lock(&pool->mutex);
    for (int i = 1; i < pool->count; i++)
        while (pool->threads[i]->searching) pthread_cond_wait(&pool->cond, &pool->mutex);
    pthread_mutex_unlock(&pool->mutex);
}
