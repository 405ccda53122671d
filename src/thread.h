/*
 * Search threads (Lazy SMP). A pool owns one SearchThread per `Threads`;
 * thread 0 is the main search thread. All threads search the same root
 * with their own position, stack and histories; they share only the
 * transposition table and the pool's SearchControl.
 *
 * Threads sleep on a condition variable between searches, so starting a
 * search costs a wake-up, not a thread creation. The UCI thread never
 * searches: it starts a search (threads_start), may stop it or answer
 * ponderhit at any time, and waits for it only when it must
 * (threads_wait, e.g. before quitting).
 */
#ifndef GIZUM_THREAD_H
#define GIZUM_THREAD_H

#include <pthread.h>
#include <stdatomic.h>

#include "eval.h"
#include "position.h"
#include "search.h"
#include "timeman.h"
#include "tt.h"

enum { THREADS_MAX = 1024 };

typedef struct ThreadPool ThreadPool;

/* State shared by the threads of one search. */
typedef struct {
    atomic_bool stop;          /* every thread unwinds as soon as it sees this */
    atomic_bool ponder;        /* pondering: no time limits, no bestmove yet */
    _Atomic int64_t startTime; /* ms (monotonic) the clock started: go, or ponderhit */
    SearchLimits limits;       /* read-only while the search runs */
    TimeManager tm;            /* read-only while the search runs */
    int rootMoveCount;
    /* Result of the last search, written by the main thread before it goes idle. */
    Move bestMove, ponderMove;
    Value bestScore;
    int bestDepth;
} SearchControl;

struct SearchThread {
    int index;
    ThreadPool *pool;
    pthread_t handle;
    bool searching;            /* guarded by pool->mutex */
    bool exit;                 /* guarded by pool->mutex */

    Position *pos;
    PawnTable *pawns;
    Histories *hist;
    _Atomic uint64_t nodes;    /* written by this thread only; read by the main thread */

    int rootDepth, completedDepth, seldepth, pvIndex;
    int rootCount;
    RootMove rootMoves[MAX_MOVES];

    /* Main-thread time management. */
    int bestMoveChanges;
    Move lastBestMove;
    int lastBestMoveDepth;
    Value previousScore;
    int checkCountdown;
    Move lastPrintedMove;

    /* Strength levels: the root lines of the last completed iteration, best first. */
    int choiceCount;
    Move choiceMoves[STRENGTH_LINES_MAX];
    Value choiceScores[STRENGTH_LINES_MAX];

    SearchStack stack[MAX_PLY + STACK_OFFSET + 4];
    int pvLength[MAX_PLY + 2];
    Move pv[MAX_PLY + 2][MAX_PLY + 2];
};

struct ThreadPool {
    SearchThread **threads;
    int count;
    TTable *tt;
    SearchControl control;
    pthread_mutex_t mutex;     /* guards the threads' searching/exit flags and mainBusy */
    pthread_cond_t cond;       /* signalled whenever one of those changes, and on stop/ponderhit */
    bool mainBusy;             /* a search runs: set by threads_start, cleared after bestmove */
};

/* A pool of count threads searching with tt; NULL if even one thread cannot be made. */
ThreadPool *threads_create(int count, TTable *tt);
void threads_destroy(ThreadPool *pool);
/* Changes the number of threads (only while idle); false and unchanged on failure. */
bool threads_set_count(ThreadPool *pool, int count);
/* Forgets everything learnt: histories, pawn tables (ucinewgame, bench). */
void threads_clear(ThreadPool *pool);

/* Starts searching pos asynchronously. The pool must be idle (see threads_wait). */
void threads_start(ThreadPool *pool, const Position *pos, const SearchLimits *limits, int64_t startTime);
/* Blocks until the current search (if any) has printed its bestmove. */
void threads_wait(ThreadPool *pool);
bool threads_busy(ThreadPool *pool);
/* Asks the search to finish now (also ends pondering). */
void threads_stop(ThreadPool *pool);
/* The opponent played the expected move: pondering becomes a normal timed search. */
void threads_ponderhit(ThreadPool *pool);
/* Nodes searched by all threads in the current or last search. */
uint64_t threads_nodes(ThreadPool *pool);

/* Used by the main thread: sleeps until stop or the end of pondering/infinite. */
void threads_wait_for_release(ThreadPool *pool);
/* Used by the main thread: sets stop and waits until every helper is idle. */
void threads_stop_helpers(ThreadPool *pool);

/* Prints one formatted line to stdout as a unit (several threads write) and flushes. */
void threads_print(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
