/*
 * The root: the moves a search may play (searchmoves, the tablebases'
 * filter) and what each was found worth, the progress reports, and the
 * move played at the end (the threads' vote, or a strength level's choice).
 */
#include <string.h>

#include "movegen.h"
#include "platform.h"
#include "searchparams.h"
#include "syzygy.h"
#include "worker.h"

/* ------------------------------------------------------------ root moves */

RootMove *root_find_move(SearchWorker *t, Move m) {
    for (int i = t->pvIndex; i < t->rootCount; i++)
        if (t->rootMoves[i].move == m) return &t->rootMoves[i];
    return NULL;
}

void root_sort_moves(RootMove *moves, int from, int to) {
    for (int i = from + 1; i < to; i++) {
        RootMove tmp = moves[i];
        int j = i - 1;
        while (j >= from && (moves[j].score < tmp.score
                             || (moves[j].score == tmp.score && moves[j].prevScore < tmp.prevScore))) {
            moves[j + 1] = moves[j];
            j--;
        }
        moves[j + 1] = tmp;
    }
}

void root_record(SearchWorker *t, Move move, int moveCount, Value value, Value alpha, Value beta, uint64_t nodes) {
    RootMove *rm = root_find_move(t, move);
    rm->nodes += nodes;
    if (moveCount == 1 || value > alpha) {
        rm->score = value;
        rm->scoreBound = value >= beta ? BOUND_LOWER : value <= alpha ? BOUND_UPPER : BOUND_EXACT;
        rm->selDepth = t->seldepth;
        rm->pv[0] = move;
        rm->pvLength = 1;
        for (int i = 0; i < t->pvLength[1] && rm->pvLength < MAX_PLY; i++) rm->pv[rm->pvLength++] = t->pv[1][i];
    } else {
        /* Failed low: below the lines already searched, whatever the value says. */
        rm->score = -VALUE_INFINITE;
    }
}

/* True if m is one of the moves listed in limits->searchMoves (or none are listed). */
static bool root_move_wanted(const SearchLimits *limits, Move m) {
    if (limits->searchMovesCount == 0) return true;
    for (int i = 0; i < limits->searchMovesCount; i++)
        if (limits->searchMoves[i] == m) return true;
    return false;
}

/*
 * Tablebases at the root: where the position is in the tables, only the
 * moves that keep its result are searched (DTZ ranking converts wins within
 * the fifty-move rule and never throws a draw), and the search probes below
 * only what it may: nodes within the probe limit.
 */
static void tablebase_root(SearchShared *shared, const Position *pos, MoveList *legal) {
    const SearchLimits *limits = &shared->limits;
    int largest = tb_max_pieces();
    shared->tbPieces = limits->settings.tbProbeLimit < largest ? limits->settings.tbProbeLimit : largest;
    shared->tbRoot = false;
    shared->tbRootHits = 0;
    if (!shared->tbPieces || popcount(pos_pieces(pos)) > shared->tbPieces) return;
    TbRootMoves ranked;
    if (!tb_rank_root_moves(pos, limits->settings.tbRule50, &ranked) || ranked.keep < 1) return;
    /* With searchmoves the best of the given moves sets the result (it may be worse than the root's). */
    int best = 0;
    while (best < ranked.count && !root_move_wanted(limits, ranked.moves[best].move)) best++;
    if (best == ranked.count) return;
    shared->tbRootHits = (uint64_t)ranked.count;
    legal->count = 0;
    for (int i = best; i < ranked.count && ranked.moves[i].rank == ranked.moves[best].rank; i++)
        legal->moves[legal->count++] = ranked.moves[i].move;
    shared->tbRoot = true;
    TbWdl result = ranked.moves[best].rank == ranked.moves[0].rank ? ranked.wdl : ranked.moves[best].wdl;
    shared->tbRootValue = tb_wdl_value(result, 0, limits->settings.tbRule50);
    /* The root knows its result: the tree below needs no more probes unless DTZ was missing. */
    if (ranked.byDtz) shared->tbPieces = 0;
}

void search_prepare(SearchShared *shared, const Position *pos, const SearchLimits *limits,
                    const SearchReporter *reporter, int64_t startTime) {
    shared->limits = *limits;
    if (shared->limits.settings.multiPV < 1) shared->limits.settings.multiPV = 1;
    search_limits_apply_strength(&shared->limits);
    shared->reporter = reporter ? *reporter : (SearchReporter){0};
    shared->result = (SearchResult){MOVE_NONE, MOVE_NONE, VALUE_NONE, 0};

    MoveList legal;
    gen_legal(pos, &legal);
    tablebase_root(shared, pos, &legal);
    RootMove *first = shared->workers[0]->rootMoves;
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
    tm_init(&shared->tm, &shared->limits, pos_side_to_move(pos), count, shared->stallMs);
    tt_new_search(shared->tt);

    for (int i = 0; i < shared->workerCount; i++) {
        SearchWorker *w = shared->workers[i];
        pos_copy(w->pos, pos);
        w->rootCount = count;
        if (i > 0) memcpy(w->rootMoves, first, (size_t)count * sizeof *first);
        atomic_store_explicit(&w->nodes, 0, memory_order_relaxed);
        atomic_store_explicit(&w->tbHits, 0, memory_order_relaxed);
#ifdef GIZUM_STATS
        memset(&w->stats, 0, sizeof w->stats);
        memset(w->statsAtDepth, 0, sizeof w->statsAtDepth);
#endif
        w->completedDepth = w->rootDepth = w->seldepth = w->pvIndex = 0;
    }
    atomic_store(&shared->stop, false);
    atomic_store(&shared->ponder, limits->ponder);
    atomic_store(&shared->startTime, startTime);
}

/* ------------------------------------------------------------ reports */

/* The whole search's totals, all workers: what the reports show and the node limit counts. */
uint64_t search_tb_hits(const SearchShared *shared) {
    uint64_t sum = shared->tbRootHits;
    for (int i = 0; i < shared->workerCount; i++)
        sum += atomic_load_explicit(&shared->workers[i]->tbHits, memory_order_relaxed);
    return sum;
}

uint64_t search_nodes(const SearchShared *shared) {
    uint64_t sum = 0;
    for (int i = 0; i < shared->workerCount; i++)
        sum += atomic_load_explicit(&shared->workers[i]->nodes, memory_order_relaxed);
    return sum;
}

/* For GUIs during long searches. */
void root_report_currmove(SearchWorker *t, Move move, int moveNumber) {
    const SearchReporter *r = &t->shared->reporter;
    if (t->index != 0 || !r->currmove || elapsed_ms(t) < CurrmoveDelayMs) return;
    r->currmove(r->context, t->rootDepth, move, moveNumber, t->pos->chess960);
}

/* The longest prefix of the root move's PV that is legal from the root (TT moves can collide). */
static int legal_pv_length(SearchWorker *t, const RootMove *rm) {
    Position *pos = t->pos;
    int played = 0;
    while (played < rm->pvLength && pos_is_legal(pos, rm->pv[played])) pos_do_move(pos, rm->pv[played++]);
    for (int i = 0; i < played; i++) pos_undo_move(pos);
    return played;
}

/* At a tablebase root every searched move keeps the known result: show it, unless the search proved a mate. */
static Value shown_value(const SearchShared *shared, Value v) {
    if (!shared->tbRoot || v >= VALUE_MATE_IN_MAX_PLY || v <= VALUE_MATED_IN_MAX_PLY) return v;
    return shared->tbRootValue;
}

void root_report_line(SearchWorker *t, int i, int depth, Value v, int bound) {
    const SearchReporter *r = &t->shared->reporter;
    if (!r->line) return;
    const RootMove *rm = &t->rootMoves[i];
    SearchLine line = {
        .depth = depth,
        .selDepth = rm->selDepth > depth ? rm->selDepth : depth,
        .multiPV = i + 1,
        .score = shown_value(t->shared, v),
        .bound = t->shared->tbRoot && shown_value(t->shared, v) != v ? BOUND_EXACT : bound,
        .nodes = search_nodes(t->shared),
        .tbHits = search_tb_hits(t->shared),
        .timeMs = elapsed_ms(t),
        .hashfull = tt_hashfull(t->shared->tt),
        .pv = rm->pv,
        .pvLength = legal_pv_length(t, rm),
        .chess960 = t->pos->chess960,
    };
    r->line(r->context, &line);
}

/* Lines not yet searched at this depth show the last one. */
void root_report_iteration(SearchWorker *t, int depth, int multiPV) {
    for (int i = 0; i < multiPV; i++) {
        const RootMove *rm = &t->rootMoves[i];
        bool updated = i <= t->pvIndex && rm->score != -VALUE_INFINITE;
        int d = updated ? depth : depth - 1;
        Value v = updated ? rm->score : rm->prevScore;
        if (d < 1 || v == -VALUE_INFINITE) continue;
        root_report_line(t, i, d, v, updated ? rm->scoreBound : BOUND_EXACT);
    }
    t->lastReportedMove = t->rootMoves[0].move;
}

/* ------------------------------------------------------------ the move played */

static int64_t move_votes(const int64_t *votes, const RootMove *order, int count, Move m) {
    for (int j = 0; j < count; j++)
        if (order[j].move == m) return votes[j];
    return 0;
}

/* Lazy SMP: the worker whose move gets most votes, weighted by depth and score. */
static SearchWorker *pick_best_worker(SearchShared *shared) {
    SearchWorker *const *workers = shared->workers;
    const int count = shared->workerCount;
    SearchWorker *best = workers[0];
    if (count == 1 || shared->limits.settings.multiPV > 1 || shared->limits.strength.enabled) return best;
    Value minScore = VALUE_INFINITE;
    for (int i = 0; i < count; i++) {
        const SearchWorker *t = workers[i];
        if (t->completedDepth > 0 && t->rootMoves[0].score < minScore) minScore = t->rootMoves[0].score;
    }
    int64_t votes[MAX_MOVES] = {0};
    const RootMove *order = best->rootMoves;
    int moves = best->rootCount;
    for (int i = 0; i < count; i++) {
        const SearchWorker *t = workers[i];
        if (t->completedDepth == 0) continue;
        for (int j = 0; j < moves; j++)
            if (order[j].move == t->rootMoves[0].move)
                votes[j] += (int64_t)(t->rootMoves[0].score - minScore + VoteBase) * t->completedDepth;
    }
    for (int i = 1; i < count; i++) {
        SearchWorker *t = workers[i];
        if (t->completedDepth == 0) continue;
        Value s = t->rootMoves[0].score, bs = best->rootMoves[0].score;
        if (bs >= VALUE_MATE_IN_MAX_PLY) {
            /* A proven mate is kept unless another worker proved a shorter one. */
            if (s > bs) best = t;
        } else if (s >= VALUE_MATE_IN_MAX_PLY
                   || move_votes(votes, order, moves, t->rootMoves[0].move)
                          > move_votes(votes, order, moves, best->rootMoves[0].move)) {
            best = t;
        }
    }
    return best;
}

/* The expected reply: second PV move, or the TT's best move after our move. */
static Move ponder_move(SearchWorker *t, const RootMove *rm) {
    Position *pos = t->pos;
    Move reply = MOVE_NONE;
    if (!pos_is_legal(pos, rm->move)) return MOVE_NONE;
    pos_do_move(pos, rm->move);
    if (rm->pvLength > 1 && pos_is_legal(pos, rm->pv[1])) {
        reply = rm->pv[1];
    } else {
        TTData tte;
        if (tt_probe(t->shared->tt, pos_key(pos), &tte) && tte.move != MOVE_NONE && pos_is_legal(pos, tte.move))
            reply = tte.move;
    }
    pos_undo_move(pos);
    return reply;
}

/* A limited level plays one of the near-best lines of the last completed iteration (strength.c). */
static SearchResult strength_choice(SearchWorker *t) {
    const SearchShared *ctl = t->shared;
    Move m = strength_pick(&ctl->limits.strength, t->choiceMoves, t->choiceScores, t->choiceCount,
                           ctl->limits.strengthSeed ^ pos_key(t->pos));
    int i = 0;
    while (i + 1 < t->choiceCount && t->choiceMoves[i] != m) i++;
    const RootMove *rm = NULL;
    for (int j = 0; j < t->rootCount && !rm; j++)
        if (t->rootMoves[j].move == m) rm = &t->rootMoves[j];
    return (SearchResult){m, rm ? ponder_move(t, rm) : MOVE_NONE, t->choiceScores[i], t->completedDepth};
}

void search_finish(SearchShared *shared) {
    SearchWorker *t = shared->workers[0];
    const SearchReporter *r = &shared->reporter;
    SearchResult result = {MOVE_NONE, MOVE_NONE, VALUE_NONE, 0};
    if (t->rootCount > 0 && shared->limits.strength.enabled && t->choiceCount > 0) {
        result = strength_choice(t);
    } else if (t->rootCount > 0) {
        SearchWorker *bt = pick_best_worker(shared);
        const RootMove *rm = &bt->rootMoves[0];
        result.bestMove = rm->move;
        result.ponderMove = ponder_move(bt, rm);
        result.score = rm->score != -VALUE_INFINITE ? rm->score : rm->prevScore;
        result.depth = bt->completedDepth;
        /* The GUI shows the last info line: make it describe the move played. */
        if ((bt != t || result.bestMove != t->lastReportedMove) && result.score != -VALUE_INFINITE) {
            int depth = bt->completedDepth > 0 ? bt->completedDepth : 1;
            root_report_line(bt, 0, depth, result.score, rm->score == -VALUE_INFINITE ? BOUND_EXACT : rm->scoreBound);
        }
    }
    if (result.score != VALUE_NONE) result.score = shown_value(shared, result.score);
    shared->result = result;
    /* From go (or ponderhit) to this bestmove, the time this thread did not run: a loaded machine's;
     * and a stall it could not see since its last clock read, as the search's own reads count them. */
    int64_t cpu = platform_thread_cpu_us(), now = tm_now_us();
    search_note_unseen_stall(t, now - t->lastCheckUs, cpu);
    int64_t waited = (now - atomic_load(&shared->startTime) * 1000) - (cpu - t->cpuStartUs);
    t->waitedUs = t->cpuStartUs > 0 && cpu >= t->cpuStartUs && waited > 0 ? waited : 0;
    /* How late the machine can make a reply: the next searches keep a reserve for it. */
    if (t->rootCount > 0) shared->stallMs = tm_note_stall(shared->stallMs, t->longestGapUs / 1000);
    if (r->bestmove) r->bestmove(r->context, result.bestMove, result.ponderMove, t->pos->chess960);
}
