/*
 * The thread pool (Lazy SMP). It owns one OS thread per `Threads`, each
 * running one search worker (search.h); thread 0 runs the main worker.
 * The pool only creates, starts, stops and joins: what a search does, and
 * the state it does it with, belong to the search.
 *
 * Threads sleep on a condition variable between searches, so starting a
 * search costs a wake-up, not a thread creation. The caller's thread never
 * searches: it starts a search (threads_start), may stop it or answer
 * ponderhit at any time, and waits for it only when it must
 * (threads_wait, e.g. before quitting).
 */
#ifndef GIZUM_THREAD_H
#define GIZUM_THREAD_H

#include <pthread.h>

#include "search.h"

enum { THREADS_MAX = 1024 };

typedef struct ThreadPool ThreadPool;

typedef struct {
    ThreadPool *pool;
    SearchWorker *worker;
    pthread_t handle;
    bool searching;            /* guarded by pool->mutex */
    bool exit;                 /* guarded by pool->mutex */
} PoolThread;

struct ThreadPool {
    PoolThread **threads;
    int count;
    SearchShared shared;
    pthread_mutex_t mutex;     /* guards the threads' searching/exit flags and mainBusy */
    pthread_cond_t cond;       /* signalled whenever one of those changes, and on stop/ponderhit */
    bool mainBusy;             /* a search runs: set by threads_start, cleared after bestmove */
};

/* A pool of count threads searching with tt; NULL if even one thread cannot be made. */
ThreadPool *threads_create(int count, TTable *tt);
void threads_destroy(ThreadPool *pool);
/* Changes the number of threads (only while idle); false and unchanged on failure. */
bool threads_set_count(ThreadPool *pool, int count);
/* Forgets everything learnt: histories, evaluation caches (ucinewgame, bench). */
void threads_clear(ThreadPool *pool);

/*
 * Starts searching pos asynchronously, telling reporter (may be NULL) of
 * its progress. The pool must be idle (see threads_wait).
 */
void threads_start(ThreadPool *pool, const Position *pos, const SearchLimits *limits,
                   const SearchReporter *reporter, int64_t startTime);
/* Blocks until the current search (if any) has finished and reported its bestmove. */
void threads_wait(ThreadPool *pool);
bool threads_busy(ThreadPool *pool);
/* Has the current search been told to stop? */
bool threads_stopping(ThreadPool *pool);
/* Asks the search to finish now (also ends pondering). */
void threads_stop(ThreadPool *pool);
/* The opponent played the expected move: pondering becomes a normal timed search. */
void threads_ponderhit(ThreadPool *pool);
/* Nodes searched by all threads in the current or last search. */
uint64_t threads_nodes(ThreadPool *pool);
/* The last finished search's result (call when idle). */
SearchResult threads_result(ThreadPool *pool);
/* The current search's limits and time plan (as the search uses them). */
const SearchLimits *threads_limits(ThreadPool *pool);
const TimeManager *threads_time_plan(ThreadPool *pool);
/* Milliseconds since the current or last search's clock started (go, or ponderhit). */
int64_t threads_elapsed(ThreadPool *pool);
/* Milliseconds of the last search's time (from go or ponderhit to bestmove) that its main thread did not
 * run: how long a loaded machine kept it waiting. */
int64_t threads_waited(ThreadPool *pool);
/* The processor time the main thread was charged between two reads of the clock beyond the period they
 * are kept to, summed since the clock started, ms: stalls it could not see. */
int64_t threads_unseen_stalls(ThreadPool *pool);

/* The main worker's statistics after iteration depth (0: the whole search); false without them. */
bool threads_stats(ThreadPool *pool, int depth, SearchStats *out);

/* Searches pos silently to the limits and waits for the result (bench, tools, tests). */
SearchResult threads_search(ThreadPool *pool, const Position *pos, const SearchLimits *limits);

#endif
