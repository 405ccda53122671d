/*
 * Iterative deepening, the search's outer loop: each worker searches the
 * root depth after depth, one aspiration-window search per depth and
 * MultiPV line, and the main worker decides after each iteration whether
 * the time allows another. The tree itself is alphabeta.c's, the root and
 * the move played root.c's. Also the workers' life: creation, clearing,
 * statistics.
 */
#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "pages.h"
#include "platform.h"
#include "searchparams.h"
#include "worker.h"

#define SEARCH_STAT_NAME(name) #name,
const char *const SearchStatNames[STAT_NB] = {SEARCH_STATS(SEARCH_STAT_NAME)};
#undef SEARCH_STAT_NAME

/* The deepest iteration: the stack and PV arrays hold MAX_PLY plies. */
static const int MaxSearchDepth = MAX_PLY - 1;

/* ------------------------------------------------------------ iterative deepening */

/* Helper threads skip some depths so that they do not all search in lockstep. */
static bool helper_skips(int index, int depth) {
    if (index == 0 || depth == 1) return false;
    int size = 1 + ((index - 1) / HelperSkipPairing) % HelperSkipSizes;
    int phase = (index - 1) % (2 * size);
    return ((depth + phase) / size) % 2 == 1;
}

/* One root search at `depth` for line t->pvIndex, widening the window until the score is inside it. */
static void aspiration(SearchWorker *t, SearchStack *ss, int depth) {
    RootMove *rm = &t->rootMoves[t->pvIndex];
    Value alpha = -VALUE_INFINITE, beta = VALUE_INFINITE;
    int delta = AspirationDelta;
    if (depth >= AspirationMinDepth && rm->averageScore != -VALUE_INFINITE
        && rm->averageScore > VALUE_MATED_IN_MAX_PLY && rm->averageScore < VALUE_MATE_IN_MAX_PLY) {
        alpha = rm->averageScore - delta > -VALUE_INFINITE ? rm->averageScore - delta : -VALUE_INFINITE;
        beta = rm->averageScore + delta < VALUE_INFINITE ? rm->averageScore + delta : VALUE_INFINITE;
    }
    if (t->shared->limits.mode != SEARCH_NORMAL) alpha = -VALUE_INFINITE, beta = VALUE_INFINITE;
    for (;;) {
        Value value = alphabeta_root(t, ss, alpha, beta, depth);
        root_sort_moves(t->rootMoves, t->pvIndex, t->rootCount);
        if (stopped(t)) return;
        if (value > alpha && value < beta) return;
        STAT(t, ASPIRATION_FAIL);
        if (t->index == 0) root_report_line(t, t->pvIndex, depth, t->rootMoves[t->pvIndex].score,
                                       value <= alpha ? BOUND_UPPER : BOUND_LOWER);
        if (value <= alpha) {
            beta = (alpha + beta) / 2;
            alpha = value - delta > -VALUE_INFINITE ? value - delta : -VALUE_INFINITE;
        } else {
            beta = value + delta < VALUE_INFINITE ? value + delta : VALUE_INFINITE;
        }
        delta = delta * AspirationGrowthPercent / 100;
        if (delta > VALUE_INFINITE) delta = VALUE_INFINITE;
    }
}

/*
 * How far the score fell: against a few iterations back (one iteration alone
 * swings with the aspiration window) and, weighted more, against the score the
 * previous move's search ended with, so a position going wrong gets more time.
 */
static int score_drop(const SearchWorker *t, Value score) {
    int back = t->completedDepth - TmTrendIterations;
    if (back < 1) back = 1;
    int drop = back < t->completedDepth ? t->iterationScores[back] - score : 0;
    if (t->lastMoveScore == VALUE_NONE) return drop;
    return (TmTrendMoveWeight * (t->lastMoveScore - score) + drop) / (TmTrendMoveWeight + 1);
}

/* Main thread, after an iteration: stop if the move is settled for the time we have. */
static bool time_to_stop(SearchWorker *t, int64_t iterationMs) {
    SearchShared *ctl = t->shared;
    const RootMove *best = &t->rootMoves[0];
    if (best->move == t->lastBestMove) {
        t->lastBestMoveDepth++;
    } else {
        t->lastBestMove = best->move;
        t->lastBestMoveDepth = 0;
    }
    /* A fixed movetime is used in full: only the hard limit ends it. */
    if (!ctl->tm.active || ctl->limits.moveTime > 0 || atomic_load(&ctl->ponder)) return false;

    uint64_t total = 0;
    for (int i = 0; i < t->rootCount; i++) total += t->rootMoves[i].nodes;
    /* The best move's share of the nodes, in permille; half while nothing is counted. */
    int permille = total ? (int)(best->nodes * 1000 / total) : 500;
    int drop = score_drop(t, best->score);
    int64_t soft = tm_soft_limit(&ctl->tm, t->lastBestMoveDepth, drop, permille);
    int64_t elapsed = elapsed_ms(t);
    if (elapsed >= soft) return true;
    /* An iteration that would run into the hard limit is not worth starting. */
    return elapsed + iterationMs * NextIterationPercent / 100 > ctl->tm.maximum;
}

/* Strength levels choose among the lines of the last completed iteration: keep them. */
static void remember_choices(SearchWorker *t, int multiPV) {
    int n = multiPV < STRENGTH_LINES_MAX ? multiPV : STRENGTH_LINES_MAX;
    for (int i = 0; i < n; i++) {
        t->choiceMoves[i] = t->rootMoves[i].move;
        t->choiceScores[i] = t->rootMoves[i].score;
    }
    t->choiceCount = n;
}

static void iterative_deepening(SearchWorker *t) {
    SearchShared *ctl = t->shared;
    const SearchLimits *limits = &ctl->limits;
    const bool main = t->index == 0;
    int multiPV = limits->settings.multiPV < t->rootCount ? limits->settings.multiPV : t->rootCount;
    int maxDepth = main && limits->depth > 0 && limits->depth < MaxSearchDepth ? limits->depth : MaxSearchDepth;

    memset(t->stack, 0, sizeof t->stack);
    for (int i = 0; i < (int)(sizeof t->stack / sizeof t->stack[0]); i++) {
        t->stack[i].ply = i - STACK_OFFSET;
        t->stack[i].staticEval = VALUE_NONE;
    }
    SearchStack *ss = &t->stack[STACK_OFFSET];
    t->checkCountdown = t->checkInterval = CheckInterval;
    t->lastCheckUs = tm_now_us();
    t->longestGapUs = 0;
    t->lastBestMove = MOVE_NONE;
    t->lastBestMoveDepth = 0;
    t->lastReportedMove = MOVE_NONE;
    t->choiceCount = 0;

    for (int depth = 1; depth <= maxDepth && !stopped(t); depth++) {
        if (helper_skips(t->index, depth)) continue;
        int64_t iterationStart = tm_now();
        t->rootDepth = depth;
        for (int i = 0; i < t->rootCount; i++) t->rootMoves[i].prevScore = t->rootMoves[i].score;
        for (t->pvIndex = 0; t->pvIndex < multiPV && !stopped(t); t->pvIndex++) {
            t->seldepth = 0;
            aspiration(t, ss, depth);
            root_sort_moves(t->rootMoves, 0, t->pvIndex + 1);
            RootMove *rm = &t->rootMoves[t->pvIndex];
            if (!stopped(t))
                rm->averageScore = rm->averageScore == -VALUE_INFINITE ? rm->score : (rm->averageScore + rm->score) / 2;
        }
        t->pvIndex = multiPV - 1;
        if (stopped(t)) break;
        t->completedDepth = depth;
#ifdef GIZUM_STATS
        t->statsAtDepth[depth] = t->stats;
#endif
        if (!main) continue;
        if (limits->strength.enabled) remember_choices(t, multiPV);

        root_report_iteration(t, depth, multiPV);
        Value best = t->rootMoves[0].score;
        t->iterationScores[depth] = best;
        /* go mate N: a mate in N moves is one in at most 2N - 1 plies. */
        if (limits->mate > 0 && best >= VALUE_MATE_IN_MAX_PLY && VALUE_MATE - best <= 2 * limits->mate - 1) break;
        if (time_to_stop(t, tm_now() - iterationStart)) break;
    }
    if (main && t->completedDepth > 0) t->lastMoveScore = t->iterationScores[t->completedDepth];
}

/* ------------------------------------------------------------ workers */

/* Main thread: the clock started at `start` (go, or a ponderhit); what the thread's processor
 * time is measured against from now on. */
static void note_clock_start(SearchWorker *w, int64_t start) {
    w->clockStartMs = start;
    w->cpuStartUs = platform_thread_cpu_us();
    w->unseenStallUs = 0;
}

void search_worker_run(SearchWorker *t) {
    /* search_finish compares the main thread's processor time since the clock started (go, or
     * a ponderhit: search_follow_clock_start) with the time the search took. */
    if (t->index == 0) {
        note_clock_start(t, atomic_load(&t->shared->startTime));
        t->lastCheckCpuUs = t->cpuStartUs;
    }
    if (t->rootCount > 0) {
        iterative_deepening(t);
    } else if (t->index == 0 && t->shared->reporter.no_moves) {
        const SearchReporter *r = &t->shared->reporter;
        r->no_moves(r->context, pos_in_check(t->pos));
    }
}

bool search_stats(const SearchShared *shared, int depth, SearchStats *out) {
#ifdef GIZUM_STATS
    const SearchWorker *w = shared->workers[0];
    if (depth < 0 || depth > MAX_PLY) return false;
    *out = depth == 0 ? w->stats : w->statsAtDepth[depth];
    return true;
#else
    (void)shared, (void)depth, (void)out;
    return false;
#endif
}

/* A gap between two clock reads this many check periods long may be a stall the thread could not see. */
static const int64_t UnseenStallPeriods = 5;

void search_note_unseen_stall(SearchWorker *w, int64_t wallGapUs, int64_t cpuUs) {
    /* Processor time charged since the last read, and as long on the wall clock, of many periods: a
     * stall the thread could not see (a virtual machine's host froze it for 25-100 ms), summed beyond
     * the period, since a move can meet several. Slow nodes stretch a gap by a period or two before
     * the interval halves; the wall bound drops a coarse processor clock's jumps (Windows counts it
     * in 15.6 ms ticks). */
    int64_t charged = cpuUs - w->lastCheckCpuUs < wallGapUs ? cpuUs - w->lastCheckCpuUs : wallGapUs;
    if (charged > UnseenStallPeriods * CheckPeriodUs) w->unseenStallUs += charged - CheckPeriodUs;
    w->lastCheckCpuUs = cpuUs;
}

void search_follow_clock_start(SearchWorker *w) {
    int64_t start = atomic_load_explicit(&w->shared->startTime, memory_order_relaxed);
    if (start != w->clockStartMs) note_clock_start(w, start);
}

bool search_must_wait(const SearchShared *shared) {
    return !atomic_load(&shared->stop) && (atomic_load(&shared->ponder) || shared->limits.infinite);
}

SearchWorker *search_worker_create(SearchShared *shared, int index) {
    SearchWorker *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->index = index;
    w->shared = shared;
    w->pos = malloc(sizeof *w->pos);
    w->hist = pages_alloc(sizeof *w->hist, false);
    w->evalCache = eval_cache_create();
    atomic_init(&w->nodes, 0);
    atomic_init(&w->tbHits, 0);
    if (!w->pos || !w->hist || !w->evalCache) {
        search_worker_destroy(w);
        return NULL;
    }
    w->lastMoveScore = VALUE_NONE;
    pos_set_startpos(w->pos, false);
    return w;
}

void search_worker_destroy(SearchWorker *w) {
    if (!w) return;
    free(w->pos);
    pages_free(w->hist, sizeof *w->hist);
    if (w->evalCache) eval_cache_destroy(w->evalCache);
    free(w);
}

void search_worker_clear(SearchWorker *w) {
    memset(w->hist, 0, sizeof *w->hist);
    eval_cache_clear(w->evalCache);
    w->lastMoveScore = VALUE_NONE;
}
