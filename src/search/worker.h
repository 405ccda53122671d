/*
 * What the search's own files share about a worker: deepening.c
 * (iterative deepening), alphabeta.c (the tree) and root.c (the root, the
 * reports and the move played), which implement search.h between them.
 * Other modules use search.h.
 */
#ifndef GIZUM_WORKER_H
#define GIZUM_WORKER_H

#include "search.h"

/* Counts an event of the search in the statistics build (make STATS=1); nothing otherwise. */
#ifdef GIZUM_STATS
#define STAT(t, name) ((t)->stats.count[STAT_##name]++)
#else
#define STAT(t, name) ((void)0)
#endif

/* Depth 1 is always finished (in well under a millisecond), so the move played has been searched. */
static inline bool stopped(SearchWorker *t) {
    return atomic_load_explicit(&t->shared->stop, memory_order_relaxed) && t->completedDepth > 0;
}

static inline int64_t elapsed_ms(SearchWorker *t) {
    return tm_now() - atomic_load_explicit(&t->shared->startTime, memory_order_relaxed);
}

/* alphabeta.c: the root position searched to depth within (alpha, beta); 0 when stopped. */
Value alphabeta_root(SearchWorker *t, SearchStack *ss, Value alpha, Value beta, int depth);

/* root.c: the root move m among those not yet searched in this MultiPV pass, NULL if none. */
RootMove *root_find_move(SearchWorker *t, Move m);
/* root.c: stable sort of root moves [from, to) by score, then previous score, best first. */
void root_sort_moves(RootMove *moves, int from, int to);
/* root.c: what the search of root move `move` found (value within alpha..beta), for ordering and reports. */
void root_record(SearchWorker *t, Move move, int moveCount, Value value, Value alpha, Value beta, uint64_t nodes);
/* root.c: reports root move i as one line of progress. */
void root_report_line(SearchWorker *t, int i, int depth, Value v, int bound);
/* root.c: every MultiPV line after an iteration. */
void root_report_iteration(SearchWorker *t, int depth, int multiPV);
/* root.c: the main worker's "currmove" report, once the search has run long enough. */
void root_report_currmove(SearchWorker *t, Move move, int moveNumber);

#endif
