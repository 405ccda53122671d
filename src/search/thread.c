/*
 * Thread pool for Lazy SMP: creation, start/stop handshakes, joining.
 */
#include "thread.h"

#include <stdlib.h>

/* Main thread, after its worker's run: waits for stop or ponderhit where the GUI decides. */
static void wait_for_release(ThreadPool *pool) {
    pthread_mutex_lock(&pool->mutex);
    while (search_must_wait(&pool->shared)) pthread_cond_wait(&pool->cond, &pool->mutex);
    pthread_mutex_unlock(&pool->mutex);
}

/* Main thread: stops the helpers and waits until every one is idle. */
static void stop_helpers(ThreadPool *pool) {
    atomic_store(&pool->shared.stop, true);
    pthread_mutex_lock(&pool->mutex);
    for (int i = 1; i < pool->count; i++)
        while (pool->threads[i]->searching) pthread_cond_wait(&pool->cond, &pool->mutex);
    pthread_mutex_unlock(&pool->mutex);
}

/* Sleeps until told to search (then searches) or to exit. */
static void *thread_main(void *arg) {
    PoolThread *t = arg;
    ThreadPool *pool = t->pool;
    const bool main = t->worker->index == 0;
    for (;;) {
        pthread_mutex_lock(&pool->mutex);
        while (!t->searching && !t->exit) pthread_cond_wait(&pool->cond, &pool->mutex);
        bool quit = t->exit;
        pthread_mutex_unlock(&pool->mutex);
        if (quit) return NULL;

        search_worker_run(t->worker);
        if (main) {
            wait_for_release(pool);
            search_follow_clock_start(t->worker);
            stop_helpers(pool);
            search_finish(&pool->shared);
        }

        pthread_mutex_lock(&pool->mutex);
        t->searching = false;
        if (main) pool->mainBusy = false;
        pthread_cond_broadcast(&pool->cond);
        pthread_mutex_unlock(&pool->mutex);
    }
}

static void thread_free(PoolThread *t) {
    if (!t) return;
    search_worker_destroy(t->worker);
    free(t);
}

/* Allocates one thread and its worker and starts the OS thread (sleeping). */
static PoolThread *thread_new(ThreadPool *pool, int index) {
    PoolThread *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->pool = pool;
    t->worker = search_worker_create(&pool->shared, index);
    if (!t->worker) {
        free(t);
        return NULL;
    }
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
static void thread_delete(ThreadPool *pool, PoolThread *t) {
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
    pthread_mutex_init(&pool->mutex, NULL);
    pthread_cond_init(&pool->cond, NULL);
    SearchShared *shared = &pool->shared;
    shared->tt = tt;
    atomic_init(&shared->stop, false);
    atomic_init(&shared->ponder, false);
    atomic_init(&shared->startTime, 0);
    search_limits_init(&shared->limits);
    shared->result = (SearchResult){MOVE_NONE, MOVE_NONE, VALUE_NONE, 0};
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
    free(pool->shared.workers);
    pthread_cond_destroy(&pool->cond);
    pthread_mutex_destroy(&pool->mutex);
    free(pool);
}

bool threads_set_count(ThreadPool *pool, int count) {
    if (count < 1 || count > THREADS_MAX || threads_busy(pool)) return false;
    if (count == pool->count) return true;
    if (count > pool->count) {
        PoolThread **grown = realloc(pool->threads, (size_t)count * sizeof *grown);
        if (!grown) return false;
        pool->threads = grown;
        SearchWorker **workers = realloc(pool->shared.workers, (size_t)count * sizeof *workers);
        if (!workers) return false;
        pool->shared.workers = workers;
        int old = pool->count;
        for (int i = old; i < count; i++) {
            PoolThread *t = thread_new(pool, i);
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
    /* The search reaches every worker through shared.workers. */
    for (int i = 0; i < count; i++) pool->shared.workers[i] = pool->threads[i]->worker;
    pool->shared.workerCount = count;
    return true;
}

void threads_clear(ThreadPool *pool) {
    for (int i = 0; i < pool->count; i++) search_worker_clear(pool->threads[i]->worker);
}

void threads_start(ThreadPool *pool, const Position *pos, const SearchLimits *limits,
                   const SearchReporter *reporter, int64_t startTime) {
    threads_wait(pool);
    search_prepare(&pool->shared, pos, limits, reporter, startTime);
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

bool threads_stopping(ThreadPool *pool) {
    return atomic_load(&pool->shared.stop);
}

void threads_stop(ThreadPool *pool) {
    pthread_mutex_lock(&pool->mutex);
    atomic_store(&pool->shared.stop, true);
    atomic_store(&pool->shared.ponder, false);
    pthread_cond_broadcast(&pool->cond);
    pthread_mutex_unlock(&pool->mutex);
}

void threads_ponderhit(ThreadPool *pool) {
    pthread_mutex_lock(&pool->mutex);
    if (atomic_load(&pool->shared.ponder)) {
        /* Our clock starts now: the time planned at `go ponder` counts from here. */
        atomic_store(&pool->shared.startTime, tm_now());
        atomic_store(&pool->shared.ponder, false);
    }
    pthread_cond_broadcast(&pool->cond);
    pthread_mutex_unlock(&pool->mutex);
}

uint64_t threads_nodes(ThreadPool *pool) {
    return search_nodes(&pool->shared);
}

SearchResult threads_result(ThreadPool *pool) {
    return pool->shared.result;
}

const SearchLimits *threads_limits(ThreadPool *pool) {
    return &pool->shared.limits;
}

const TimeManager *threads_time_plan(ThreadPool *pool) {
    return &pool->shared.tm;
}

int64_t threads_elapsed(ThreadPool *pool) {
    return tm_now() - atomic_load(&pool->shared.startTime);
}

int64_t threads_waited(ThreadPool *pool) {
    return pool->threads[0]->worker->waitedUs / 1000;
}

int64_t threads_unseen_stalls(ThreadPool *pool) {
    return pool->threads[0]->worker->unseenStallUs / 1000;
}

bool threads_stats(ThreadPool *pool, int depth, SearchStats *out) {
    return search_stats(&pool->shared, depth, out);
}

SearchResult threads_search(ThreadPool *pool, const Position *pos, const SearchLimits *limits) {
    threads_start(pool, pos, limits, NULL, tm_now());
    threads_wait(pool);
    return threads_result(pool);
}
