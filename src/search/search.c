/*
 * Alpha-beta search (fail-soft PVS), quiescence search, iterative deepening
 * with aspiration windows, and the main worker's reporting and move choice.
 */
#include "search.h"

#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "movegen.h"
#include "movepick.h"
#include "pages.h"
#include "searchparams.h"
#include "syzygy.h"

#ifdef GIZUM_STATS
#define STAT(t, name) ((t)->stats.count[STAT_##name]++)
#else
#define STAT(t, name) ((void)0)
#endif

#define SEARCH_STAT_NAME(name) #name,
const char *const SearchStatNames[STAT_NB] = {SEARCH_STATS(SEARCH_STAT_NAME)};
#undef SEARCH_STAT_NAME

/* The deepest iteration: the stack and PV arrays hold MAX_PLY plies. */
static const int MaxSearchDepth = MAX_PLY - 1;

/* ------------------------------------------------------------ tables */

enum { LMR_TABLE = 64 };
static int Reductions[LMR_TABLE][LMR_TABLE];

/* log2(n) in 16.16 fixed point, with integers only so every build agrees. */
static int64_t log2_q16(unsigned n) {
    int ip = 31 - __builtin_clz(n);
    uint64_t x = ((uint64_t)n << 30) >> ip; /* n / 2^ip in [1, 2), Q30 */
    int64_t frac = 0;
    for (int bit = 15; bit >= 0; bit--) {
        x = (x * x) >> 30;
        if (x >= (2ULL << 30)) {
            x >>= 1;
            frac |= (int64_t)1 << bit;
        }
    }
    return ((int64_t)ip << 16) | frac;
}

/* ln(n) in 16.16 fixed point. */
static int64_t ln_q16(unsigned n) {
    return log2_q16(n) * 45426 >> 16; /* 45426 = ln 2 * 65536 */
}

void search_init(void) {
    for (int d = 1; d < LMR_TABLE; d++)
        for (int m = 1; m < LMR_TABLE; m++) {
            int64_t prod = ln_q16((unsigned)d) * ln_q16((unsigned)m) >> 16;
            int64_t r = ((int64_t)LmrBaseHundredths << 16) / 100 + prod * 100 / LmrDivisorHundredths;
            Reductions[d][m] = (int)(r >> 16);
        }
}

static inline int reduction(int depth, int moveCount) {
    return Reductions[depth < LMR_TABLE ? depth : LMR_TABLE - 1][moveCount < LMR_TABLE ? moveCount : LMR_TABLE - 1];
}

static inline int history_bonus(int depth) {
    int b = HistoryBonusQuad * depth * depth + HistoryBonusLinear * depth;
    return b < HistoryBonusCap ? b : HistoryBonusCap;
}

/* ------------------------------------------------------------ helpers */

/* Depth 1 is always finished (in well under a millisecond), so the move played has been searched. */
static inline bool stopped(SearchWorker *t) {
    return atomic_load_explicit(&t->shared->stop, memory_order_relaxed) && t->completedDepth > 0;
}

static inline int64_t elapsed_ms(SearchWorker *t) {
    return tm_now() - atomic_load_explicit(&t->shared->startTime, memory_order_relaxed);
}

/* Main thread: stops the search at the hard time limit or the node limit. */
static void check_limits(SearchWorker *t) {
    SearchShared *ctl = t->shared;
    if (ctl->limits.nodes && search_nodes(t->shared) >= ctl->limits.nodes) atomic_store(&ctl->stop, true);
    /* Always finish depth 1, so the move played has been looked at. */
    if (ctl->tm.active && t->completedDepth >= 1 && !atomic_load_explicit(&ctl->ponder, memory_order_relaxed)
        && elapsed_ms(t) >= ctl->tm.maximum)
        atomic_store(&ctl->stop, true);
}

/* Counts a node; the main thread also polls the limits. */
static inline void count_node(SearchWorker *t) {
    uint64_t n = atomic_load_explicit(&t->nodes, memory_order_relaxed) + 1;
    atomic_store_explicit(&t->nodes, n, memory_order_relaxed);
    if (t->index != 0) return;
    SearchShared *ctl = t->shared;
    /* With one thread the node limit is exact, so `go nodes` is reproducible. */
    if (ctl->limits.nodes && t->shared->workerCount == 1 && n >= ctl->limits.nodes) atomic_store(&ctl->stop, true);
    if (--t->checkCountdown <= 0) {
        t->checkCountdown = CheckInterval;
        check_limits(t);
    }
}

/* Static values stay clear of the mate range (eval_evaluate clamps them). */
static inline Value evaluate(SearchWorker *t) {
    return eval_evaluate(t->pos, t->pawns);
}

/* ------------------------------------------------------------ correction history */

/* The continuation correction entry of the last two moves, NULL after a null move or near the root. */
static int16_t *continuation_correction(SearchWorker *t, const SearchStack *ss) {
    const SearchStack *last = ss - 1, *before = ss - 2;
    if (!move_is_ok(last->move) || !move_is_ok(before->move)) return NULL;
    return &t->hist->continuationCorrection[before->movedPiece][move_to(before->move)]
                                           [last->movedPiece][move_to(last->move)];
}

/* The static evaluation corrected by what earlier searches found in similar positions. */
static Value corrected_eval(SearchWorker *t, const SearchStack *ss, Value raw) {
    const Histories *h = t->hist;
    const StateInfo *st = t->pos->st;
    Color us = pos_side_to_move(t->pos);
    int64_t sum = (int64_t)CorrectionPawnWeight * h->pawnCorrection[us][st->pawnKey % CORRECTION_SIZE]
                + (int64_t)CorrectionNonPawnWeight
                      * (h->nonPawnCorrection[us][WHITE][st->nonPawnKey[WHITE] % CORRECTION_SIZE]
                         + h->nonPawnCorrection[us][BLACK][st->nonPawnKey[BLACK] % CORRECTION_SIZE]);
    const int16_t *cont = continuation_correction(t, ss);
    if (cont) sum += (int64_t)CorrectionContinuationWeight * *cont;
    int64_t v = raw + sum / (100 * CORRECTION_GRAIN);
    return (Value)(v > VALUE_EVAL_MAX ? VALUE_EVAL_MAX : v < -VALUE_EVAL_MAX ? -VALUE_EVAL_MAX : v);
}

/* Teaches every correction table the gap between the search's result and the raw evaluation. */
static void update_corrections(SearchWorker *t, SearchStack *ss, Value raw, Value bestValue, int depth) {
    Histories *h = t->hist;
    const StateInfo *st = t->pos->st;
    Color us = pos_side_to_move(t->pos);
    int gap = (bestValue - raw) * CORRECTION_GRAIN;
    int target = gap > CORRECTION_LIMIT ? CORRECTION_LIMIT : gap < -CORRECTION_LIMIT ? -CORRECTION_LIMIT : gap;
    int weight = depth + 1 < CorrectionMaxWeight ? depth + 1 : CorrectionMaxWeight;
    correction_update(&h->pawnCorrection[us][st->pawnKey % CORRECTION_SIZE], target, weight);
    correction_update(&h->nonPawnCorrection[us][WHITE][st->nonPawnKey[WHITE] % CORRECTION_SIZE], target, weight);
    correction_update(&h->nonPawnCorrection[us][BLACK][st->nonPawnKey[BLACK] % CORRECTION_SIZE], target, weight);
    int16_t *cont = continuation_correction(t, ss);
    if (cont) correction_update(cont, target, weight);
}

/* Draw by repetition, the fifty-move rule or lack of mating material (not checkmate on ply 100). */
static bool is_draw(const Position *pos, int ply) {
    if (pos_rule50(pos) >= 100) return !pos_in_check(pos) || count_legal(pos) > 0;
    return pos_is_repetition(pos, ply) || pos_insufficient_material(pos);
}

/* The triangular PV: the line at ply is move followed by the child's line. */
static void update_pv(SearchWorker *t, int ply, Move move) {
    Move *dst = t->pv[ply];
    const Move *src = t->pv[ply + 1];
    int len = t->pvLength[ply + 1];
    dst[0] = move;
    for (int i = 0; i < len && i < MAX_PLY; i++) dst[i + 1] = src[i];
    t->pvLength[ply] = len + 1 < MAX_PLY ? len + 1 : MAX_PLY;
}

static RootMove *find_root_move(SearchWorker *t, Move m) {
    for (int i = t->pvIndex; i < t->rootCount; i++)
        if (t->rootMoves[i].move == m) return &t->rootMoves[i];
    return NULL;
}

/* Stable sort of root moves [from, to) by score, then previous score, best first. */
static void sort_root_moves(RootMove *moves, int from, int to) {
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

/* How far back each continuation table's move is (history.h's CONT_PLIES). */
static const int ContPliesBack[CONT_PLIES] = {1, 2, 4};

/* The continuation tables a quiet move at ss is scored by. */
static inline void continuation_tables(const SearchStack *ss, const PieceToHistory *cont[CONT_PLIES]) {
    for (int k = 0; k < CONT_PLIES; k++) cont[k] = (ss - ContPliesBack[k])->cont;
}

/* Moves the continuation entries of piece pc going to `to`, after the moves 1, 2 and 4 plies back, by bonus. */
static void update_continuation(SearchStack *ss, Piece pc, Square to, int bonus) {
    for (int k = 0; k < CONT_PLIES; k++) {
        PieceToHistory *table = (ss - ContPliesBack[k])->contWrite;
        if (table) history_update(&(*table)[pc][to], bonus);
    }
}

/* Whether the move that led to this node was a quiet one (no capture, no promotion, not a null move). */
static inline bool after_quiet_move(const Position *pos, const SearchStack *ss) {
    return move_is_ok((ss - 1)->move) && pos->st->captured == NO_PIECE && move_kind((ss - 1)->move) != MOVE_PROMOTION;
}

/* Rewards the move that caused a cutoff and punishes the ones tried before it. */
static void update_histories(SearchWorker *t, SearchStack *ss, Move best, int depth,
                             const Move *quiets, int quietCount, const Move *captures, int captureCount) {
    Histories *h = t->hist;
    const Position *pos = t->pos;
    Color us = pos_side_to_move(pos);
    int bonus = history_bonus(depth);

    if (!pos_is_capture_or_promotion(pos, best)) {
        if (ss->killers[0] != best) {
            ss->killers[1] = ss->killers[0];
            ss->killers[0] = best;
        }
        if (move_is_ok((ss - 1)->move))
            h->counter[(ss - 1)->movedPiece][move_to((ss - 1)->move)] = best;
        for (int i = 0; i < quietCount; i++) {
            Move m = quiets[i];
            int b = m == best ? bonus : -bonus;
            history_update(&h->butterfly[us][move_from(m)][move_to(m)], b);
            update_continuation(ss, pos_piece_on(pos, move_from(m)), move_to(m), b);
        }
    }
    for (int i = 0; i < captureCount; i++) {
        Move m = captures[i];
        int b = m == best ? bonus : -bonus;
        Piece pc = pos_piece_on(pos, move_from(m));
        PieceType victim = piece_type(pos_captured_piece(pos, m));
        history_update(&h->capture[pc][move_to(m)][victim], b);
    }
}

/* Records on the stack the move about to be made from this node, for the children's histories. */
static inline void stack_set_move(SearchWorker *t, SearchStack *ss, Move move) {
    ss->move = move;
    ss->movedPiece = pos_piece_on(t->pos, move_from(move));
    ss->contWrite = &t->hist->continuation[ss->movedPiece][move_to(move)];
    ss->cont = ss->contWrite;
}

/* ------------------------------------------------------------ quiescence */

/* Quiescence search: captures and promotions (all evasions in check) until the position is quiet. */
static Value qsearch(SearchWorker *t, SearchStack *ss, Value alpha, Value beta) {
    Position *pos = t->pos;
    const bool pvNode = beta - alpha > 1;
    const int ply = ss->ply;
    const bool inCheck = pos_in_check(pos);

    t->pvLength[ply] = 0;
    if (stopped(t)) return 0;
    count_node(t);
    STAT(t, NODES_QS);
    if (ply + 1 > t->seldepth) t->seldepth = ply + 1;
    if (is_draw(pos, ply)) return VALUE_DRAW;
    if (ply >= MAX_PLY - 1) return inCheck ? VALUE_DRAW : evaluate(t);

    Key key = pos_key(pos);
    TTData tte;
    bool ttHit = tt_probe(t->shared->tt, key, &tte);
    Value ttValue = ttHit ? tt_value_from_tt(tte.value, ply) : VALUE_NONE;
    if (!pvNode && ttHit && ttValue != VALUE_NONE
        && (tte.bound & (ttValue >= beta ? BOUND_LOWER : BOUND_UPPER))) {
        STAT(t, QS_TT_CUTOFF);
        return ttValue;
    }

    Value bestValue, standPat, rawEval = VALUE_NONE;
    if (inCheck) {
        bestValue = standPat = -VALUE_INFINITE;
        ss->staticEval = VALUE_NONE;
    } else {
        rawEval = ttHit && tte.eval != VALUE_NONE ? tte.eval : evaluate(t);
        standPat = ss->staticEval = corrected_eval(t, ss, rawEval);
        bestValue = standPat;
        if (ttValue != VALUE_NONE && (tte.bound & (ttValue > bestValue ? BOUND_LOWER : BOUND_UPPER)))
            bestValue = ttValue;
        if (bestValue >= beta) return bestValue;
        if (bestValue > alpha) alpha = bestValue;
    }

    MovePicker mp;
    const PieceToHistory *cont[CONT_PLIES];
    continuation_tables(ss, cont);
    movepick_init_qsearch(&mp, pos, t->hist, ttHit ? tte.move : MOVE_NONE, cont);
    Move bestMove = MOVE_NONE, move;
    int moveCount = 0;
    while ((move = movepick_next(&mp)) != MOVE_NONE) {
        moveCount++;
        if (!inCheck) {
            if (move_kind(move) == MOVE_PROMOTION && move_promotion(move) != QUEEN) continue;
            /* Delta pruning: even winning the piece outright would not reach alpha. */
            if (move_kind(move) != MOVE_PROMOTION
                && standPat + SeeValue[piece_type(pos_captured_piece(pos, move))] + QsDeltaMargin <= alpha
                && !pos_gives_check(pos, move)) {
                STAT(t, QS_DELTA);
                continue;
            }
            /* Losing captures cannot help a side that could stand pat instead. */
            if (!pos_see_ge(pos, move, 0)) {
                STAT(t, QS_SEE);
                continue;
            }
        }
        stack_set_move(t, ss, move);
        tt_prefetch(t->shared->tt, pos_key_after(pos, move));
        pos_do_move(pos, move);
        Value value = -qsearch(t, ss + 1, -beta, -alpha);
        pos_undo_move(pos);
        if (stopped(t)) return 0;

        if (value > bestValue) {
            bestValue = value;
            if (value > alpha) {
                bestMove = move;
                if (pvNode) update_pv(t, ply, move);
                if (value >= beta) break;
                alpha = value;
            }
        }
    }
    if (inCheck && moveCount == 0) return mated_in(ply);

    int bound = bestValue >= beta ? BOUND_LOWER : pvNode && bestMove ? BOUND_EXACT : BOUND_UPPER;
    tt_store(t->shared->tt, key, bestMove, tt_value_to_tt(bestValue, ply), rawEval, TT_DEPTH_QS, bound, pvNode);
    return bestValue;
}

/* The plain modes' horizon: mate, stalemate or the static evaluation, nothing resolved. */
static Value plain_leaf(SearchWorker *t, SearchStack *ss) {
    t->pvLength[ss->ply] = 0;
    count_node(t);
    if (is_draw(t->pos, ss->ply)) return VALUE_DRAW;
    if (count_legal(t->pos) == 0) return pos_in_check(t->pos) ? mated_in(ss->ply) : VALUE_DRAW;
    return evaluate(t);
}

/* ------------------------------------------------------------ main search */

/* The previous move captured with a more valuable piece: it may be a sacrifice, whose point only a
 * full search sees, so ProbCut's shallow capture search must not refute it. (A king capture counts
 * as "more valuable": harmless.) */
static bool after_possible_sacrifice(const Position *pos, const SearchStack *ss) {
    Piece captured = pos->st->captured;
    return captured != NO_PIECE
        && SeeValue[piece_type(captured)] < SeeValue[piece_type((ss - 1)->movedPiece)];
}

static Value search(SearchWorker *t, SearchStack *ss, Value alpha, Value beta, int depth, bool cutNode);

/*
 * ProbCut: tries the captures whose exchange alone gains what probCutBeta asks
 * beyond the static value, first in quiescence, then reduced. Returns a value
 * >= probCutBeta (stored as a lower bound) or -VALUE_INFINITE.
 */
static Value probcut(SearchWorker *t, SearchStack *ss, Value probCutBeta, int depth, Move ttMove, Value rawEval,
                     bool cutNode) {
    Position *pos = t->pos;
    MovePicker mp;
    const PieceToHistory *cont[CONT_PLIES];
    continuation_tables(ss, cont);
    movepick_init_qsearch(&mp, pos, t->hist, ttMove, cont);
    STAT(t, PROBCUT_TRY);
    Move move;
    while ((move = movepick_next(&mp)) != MOVE_NONE) {
        if (!pos_see_ge(pos, move, probCutBeta - ss->staticEval)) continue;
        stack_set_move(t, ss, move);
        tt_prefetch(t->shared->tt, pos_key_after(pos, move));
        pos_do_move(pos, move);
        Value v = -qsearch(t, ss + 1, -probCutBeta, -probCutBeta + 1);
        if (v >= probCutBeta)
            v = -search(t, ss + 1, -probCutBeta, -probCutBeta + 1, depth - ProbCutReduction, !cutNode);
        pos_undo_move(pos);
        if (stopped(t)) return 0;
        if (v >= probCutBeta) {
            STAT(t, PROBCUT_CUTOFF);
            tt_store(t->shared->tt, pos_key(pos), move, tt_value_to_tt(v, ss->ply), rawEval,
                     depth - ProbCutReduction + 1, BOUND_LOWER, false);
            return v;
        }
    }
    return -VALUE_INFINITE;
}

/* Main worker: "currmove" reports for GUIs during long searches. */
static void report_currmove(SearchWorker *t, Move move, int moveNumber) {
    const SearchReporter *r = &t->shared->reporter;
    if (t->index != 0 || !r->currmove || elapsed_ms(t) < CurrmoveDelayMs) return;
    r->currmove(r->context, t->rootDepth, move, moveNumber, t->pos->chess960);
}

/*
 * Fail-soft principal variation search. pvNode: open window; cutNode: a
 * null-window node expected to fail high. Returns the best value found
 * (mate scores relative to the root); 0 when the search was stopped.
 */
static Value search(SearchWorker *t, SearchStack *ss, Value alpha, Value beta, int depth, bool cutNode) {
    Position *pos = t->pos;
    const bool pvNode = beta - alpha > 1;
    const int ply = ss->ply;
    const bool root = ply == 0;
    const SearchMode mode = t->shared->limits.mode;
    const bool selective = mode == SEARCH_NORMAL;
    const Move excluded = ss->excludedMove;

    /* Step 1. At the horizon, resolve captures first (the plain modes stop at the static value). */
    if (depth <= 0) return selective ? qsearch(t, ss, alpha, beta) : plain_leaf(t, ss);

    const bool inCheck = pos_in_check(pos);
    t->pvLength[ply] = 0;
    if (!root && stopped(t)) return 0;
    count_node(t);
#ifdef GIZUM_STATS
    if (pvNode) STAT(t, NODES_PV);
    else if (cutNode) STAT(t, NODES_CUT);
    else STAT(t, NODES_ALL);
#endif
    if (pvNode && ply + 1 > t->seldepth) t->seldepth = ply + 1;

    /* Step 2. Draws, the ply limit, and mate distance pruning (no line from here can
     * beat a mate already found nearer the root). */
    if (!root) {
        if (is_draw(pos, ply)) return VALUE_DRAW;
        if (ply >= MAX_PLY - 1) return inCheck ? VALUE_DRAW : evaluate(t);
    }
    if (!root && selective) {
        alpha = alpha > mated_in(ply) ? alpha : mated_in(ply);
        beta = beta < mate_in(ply + 1) ? beta : mate_in(ply + 1);
        if (alpha >= beta) return alpha;
    }
    (ss + 2)->killers[0] = (ss + 2)->killers[1] = MOVE_NONE;
    (ss + 2)->cutoffCount = 0;
    if (root) (ss + 1)->cutoffCount = 0;
    (ss + 1)->doubleExtensions = ss->doubleExtensions;

    /* Step 3. Transposition table: a deep enough bound ends non-PV nodes at once. */
    Key key = pos_key(pos);
    TTData tte;
    bool ttHit = tt_probe(t->shared->tt, key, &tte);
    STAT(t, TT_PROBE);
    if (ttHit) STAT(t, TT_HIT);
    Value ttValue = ttHit ? tt_value_from_tt(tte.value, ply) : VALUE_NONE;
    Move ttMove = root ? t->rootMoves[t->pvIndex].move : ttHit ? tte.move : MOVE_NONE;
    const bool ttPv = pvNode || (ttHit && tte.pv);
    const bool ttCapture = ttMove != MOVE_NONE && pos_is_capture_or_promotion(pos, ttMove);
    if (!pvNode && !excluded && mode != SEARCH_PLAIN_NO_TT && ttHit && tte.depth >= depth && ttValue != VALUE_NONE && pos_rule50(pos) < 90
        && (tte.bound & (ttValue >= beta ? BOUND_LOWER : BOUND_UPPER))) {
        STAT(t, TT_CUTOFF);
        /* A quiet TT move that still refutes the node earns what a searched cutoff would. */
        if (ttValue >= beta && ttMove != MOVE_NONE && !ttCapture && pos_is_legal(pos, ttMove))
            update_histories(t, ss, ttMove, depth, &ttMove, 1, NULL, 0);
        /* The opponent's early quiet move that let the cutoff happen was less good than its rank said. */
        if (ttValue >= beta && (ss - 1)->moveCount <= TtCutoffPriorMaxMove && after_quiet_move(pos, ss))
            update_continuation(ss - 1, (ss - 1)->movedPiece, move_to((ss - 1)->move), -history_bonus(depth + 1));
        return ttValue;
    }

    /* Step 3b. Endgame tablebases: the exact result, as a bound the window may cut on. */
    Value minValue = -VALUE_INFINITE, maxValue = VALUE_INFINITE;
    if (!root && !excluded && t->shared->tbPieces && popcount(pos_pieces(pos)) <= t->shared->tbPieces
        && (depth >= t->shared->limits.settings.tbProbeDepth || popcount(pos_pieces(pos)) < t->shared->tbPieces)
        && pos_rule50(pos) == 0 && !pos->st->castling) {
        TbWdl wdl;
        if (tb_probe_wdl(pos, &wdl)) {
            atomic_store_explicit(&t->tbHits, atomic_load_explicit(&t->tbHits, memory_order_relaxed) + 1,
                                  memory_order_relaxed);
            Value v = tb_wdl_value(wdl, ply, t->shared->limits.settings.tbRule50);
            int bound = v > VALUE_DRAW + 2 ? BOUND_LOWER : v < VALUE_DRAW - 2 ? BOUND_UPPER : BOUND_EXACT;
            if (bound == BOUND_EXACT || (bound == BOUND_LOWER ? v >= beta : v <= alpha)) {
                tt_store(t->shared->tt, key, MOVE_NONE, tt_value_to_tt(v, ply), VALUE_NONE,
                         depth + 6 < MAX_PLY - 1 ? depth + 6 : MAX_PLY - 1, bound, pvNode);
                return v;
            }
            /* A PV node goes on searching for the best way to realise or delay the result. */
            if (pvNode) {
                if (bound == BOUND_LOWER) minValue = v;
                if (bound == BOUND_LOWER && v > alpha) alpha = v;
                if (bound == BOUND_UPPER) maxValue = v;
            }
        }
    }

    /* Step 4. Static evaluation, refined by the TT bound when it is more precise. */
    Value eval, rawEval = VALUE_NONE;
    bool improving = false;
    if (inCheck) {
        eval = ss->staticEval = VALUE_NONE;
    } else if (excluded) {
        eval = ss->staticEval; /* the singular search's node has evaluated this position already */
    } else {
        rawEval = ttHit && tte.eval != VALUE_NONE ? tte.eval : evaluate(t);
        eval = ss->staticEval = corrected_eval(t, ss, rawEval);
        if (ttValue != VALUE_NONE && (tte.bound & (ttValue > eval ? BOUND_LOWER : BOUND_UPPER)))
            eval = ttValue;
    }
    if (!inCheck) {
        Value past = (ss - 2)->staticEval != VALUE_NONE ? (ss - 2)->staticEval : (ss - 4)->staticEval;
        improving = past == VALUE_NONE || ss->staticEval > past;
    }

    if (!pvNode && !inCheck && selective) {
        /* Step 5. Reverse futility pruning: far above beta at low depth, assume a cutoff. */
        if (depth <= RfpMaxDepth && eval - RfpMargin * (depth - improving) >= beta
            && eval < VALUE_MATE_IN_MAX_PLY && beta > VALUE_MATED_IN_MAX_PLY) {
            STAT(t, RFP);
            return eval;
        }

        /* Step 6. Null-move pruning: if passing still fails high, a real move will too.
         * Not with pawns and king only, where zugzwang is common. */
        if (depth >= NmpMinDepth && !excluded && eval >= beta && ss->staticEval >= beta && (ss - 1)->move != MOVE_NULL
            && pos_has_non_pawn_material(pos, pos_side_to_move(pos)) && beta > VALUE_MATED_IN_MAX_PLY
            && beta < VALUE_MATE_IN_MAX_PLY) {
            int evalR = (eval - beta) / NmpEvalDivisor;
            int r = NmpBaseReduction + depth / NmpDepthDivisor + (evalR < NmpEvalMaxReduction ? evalR : NmpEvalMaxReduction);
            STAT(t, NMP_TRY);
            ss->move = MOVE_NULL;
            ss->movedPiece = NO_PIECE;
            ss->cont = NULL;
            ss->contWrite = NULL;
            pos_do_null_move(pos);
            Value v = -search(t, ss + 1, -beta, -beta + 1, depth - r, !cutNode);
            pos_undo_null_move(pos);
            if (stopped(t)) return 0;
            if (v >= beta) {
                STAT(t, NMP_CUTOFF);
                return v >= VALUE_MATE_IN_MAX_PLY ? beta : v;
            }
        }

        /* Step 6b. ProbCut: a good capture that beats beta by a margin in a shallow search
         * almost surely beats beta at full depth. */
        Value probCutBeta = beta + ProbCutMargin - ProbCutImprovingMargin * improving;
        if (depth >= ProbCutMinDepth && !excluded && !after_possible_sacrifice(pos, ss)
            && beta > -VALUE_TB_WIN_IN_MAX_PLY && beta < VALUE_TB_WIN_IN_MAX_PLY
            && !(ttHit && tte.depth >= depth - ProbCutTtDepthMargin && ttValue != VALUE_NONE && ttValue < probCutBeta)) {
            Value v = probcut(t, ss, probCutBeta, depth, ttCapture ? ttMove : MOVE_NONE, rawEval, cutNode);
            if (stopped(t)) return 0;
            if (v >= probCutBeta) return v;
        }
    }

    /* Step 7. Internal iterative reduction: without a TT move this node is probably less important. */
    if (!root && selective && depth >= IirMinDepth && ttMove == MOVE_NONE && (pvNode || cutNode)) {
        STAT(t, IIR);
        depth--;
    }

    /* Step 8. The move loop, best moves first (movepick.c). */
    Move counter = move_is_ok((ss - 1)->move)
                 ? t->hist->counter[(ss - 1)->movedPiece][move_to((ss - 1)->move)] : MOVE_NONE;
    MovePicker mp;
    const PieceToHistory *cont[CONT_PLIES];
    continuation_tables(ss, cont);
    movepick_init(&mp, pos, t->hist, ttMove, ss->killers, counter, cont);

    Value bestValue = -VALUE_INFINITE;
    Move bestMove = MOVE_NONE, move;
    int moveCount = 0, quietCount = 0, captureCount = 0;
    Move quiets[64], captures[32];
    const Color us = pos_side_to_move(pos);

    while ((move = movepick_next(&mp)) != MOVE_NONE) {
        if (move == excluded) continue;
        if (root && !find_root_move(t, move)) continue;
        moveCount++;
        const bool noisy = pos_is_capture_or_promotion(pos, move);
        const bool givesCheck = pos_gives_check(pos, move);
        const int history = noisy ? movepick_capture_history(pos, t->hist, move)
                                  : movepick_quiet_score(pos, t->hist, move, cont);

        /* Step 9. Shallow-depth pruning (late moves, futility, SEE), once a move has saved us from being mated. */
        if (!root && selective && bestValue > VALUE_MATED_IN_MAX_PLY && pos_has_non_pawn_material(pos, us)) {
            int lmrDepth = depth - 1 - reduction(depth, moveCount);
            if (lmrDepth < 0) lmrDepth = 0;
            if (!noisy && !givesCheck) {
                /* Late move pruning: enough quiet moves tried at this depth. */
                if (depth <= LmpMaxDepth && moveCount >= (LmpBase + depth * depth) / (LmpImprovingDivisor - improving)) {
                    STAT(t, LMP);
                    mp.skipQuiets = true;
                    continue;
                }
                /* History pruning: a quiet move that has failed here again and again. */
                if (lmrDepth <= HistoryPruneMaxDepth && history < -HistoryPruneMargin * depth) {
                    STAT(t, HISTORY_PRUNE);
                    continue;
                }
                /* Futility pruning: a quiet move will not bring the eval up to alpha. */
                if (!inCheck && lmrDepth <= FutilityMaxDepth
                    && ss->staticEval + FutilityBase + FutilityPerDepth * lmrDepth <= alpha) {
                    STAT(t, FUTILITY);
                    mp.skipQuiets = true;
                    continue;
                }
                if (lmrDepth <= SeeMaxDepth && !pos_see_ge(pos, move, -SeeQuietMargin * lmrDepth * lmrDepth)) {
                    STAT(t, SEE_QUIET);
                    continue;
                }
            } else {
                /* Capture futility: even the victim and a good history leave the eval below alpha. */
                if (!givesCheck && !inCheck && move_kind(move) != MOVE_PROMOTION && lmrDepth <= CaptureFutilityMaxDepth
                    && ss->staticEval + CaptureFutilityBase + CaptureFutilityPerDepth * lmrDepth
                           + SeeValue[piece_type(pos_captured_piece(pos, move))]
                           + history / CaptureFutilityHistoryDivisor <= alpha) {
                    STAT(t, CAPTURE_FUTILITY);
                    continue;
                }
                if (depth <= SeeMaxDepth && !pos_see_ge(pos, move, -SeeNoisyMargin * depth)) {
                    STAT(t, SEE_NOISY);
                    continue;
                }
            }
        }

        /* Step 10. Extensions, bounded so that extended lines cannot run away: the singular
         * TT move (or a cutoff without it, or less depth when others look as good), then checks. */
        int extension = 0;
        if (selective && ply < 2 * t->rootDepth) {
            if (!root && move == ttMove && !excluded && depth >= SingularMinDepth && ttValue != VALUE_NONE
                && (tte.bound & BOUND_LOWER) && tte.depth >= depth - SingularTtDepthMargin
                && ttValue > -VALUE_TB_WIN_IN_MAX_PLY && ttValue < VALUE_TB_WIN_IN_MAX_PLY) {
                Value singularBeta = ttValue - SingularBetaMargin * depth / 64;
                STAT(t, SINGULAR_TRY);
                ss->excludedMove = move;
                Value v = search(t, ss, singularBeta - 1, singularBeta, (depth - 1) / 2, cutNode);
                ss->excludedMove = MOVE_NONE;
                if (stopped(t)) return 0;
                if (v < singularBeta) {
                    extension = !pvNode && v < singularBeta - DoubleExtensionMargin
                             && ss->doubleExtensions < DoubleExtensionMax ? 2 : 1;
                    STAT(t, SINGULAR_EXTENSION);
                    if (extension == 2) STAT(t, DOUBLE_EXTENSION);
                } else if (singularBeta >= beta) {
                    STAT(t, MULTI_CUT);
                    return singularBeta;
                } else if (ttValue >= beta || cutNode) {
                    extension = -1;
                    STAT(t, NEGATIVE_EXTENSION);
                }
            } else if (givesCheck) {
                extension = 1;
                STAT(t, CHECK_EXTENSION);
            }
        }
        int newDepth = depth - 1 + extension;

        if (root) report_currmove(t, move, moveCount + t->pvIndex);
        uint64_t nodesBefore = atomic_load_explicit(&t->nodes, memory_order_relaxed);
        stack_set_move(t, ss, move);
        ss->moveCount = moveCount;
        (ss + 1)->doubleExtensions = ss->doubleExtensions + (extension >= 2);
        tt_prefetch(t->shared->tt, pos_key_after(pos, move));
        pos_do_move(pos, move);

        Value value = -VALUE_INFINITE;
        /* Step 11. Late move reductions: later moves are searched shallower first, and again
         * at full depth (then with the full window) only if they beat alpha. */
        if (selective && depth >= LmrMinDepth && moveCount > 1 + root && !givesCheck) {
            int r = reduction(depth, moveCount);
            /* Replies keep refuting our moves here: the later ones are likely refuted too. */
            r += (ss + 1)->cutoffCount > LmrChildCutoffs;
            if (noisy) {
                r += cutNode - pvNode;
                r -= history / LmrCaptureHistoryDivisor;
            } else {
                r += !pvNode;
                r += !improving;
                r += cutNode;
                r -= !pvNode && ttPv;
                r += ttCapture;
                r -= move == ss->killers[0] || move == ss->killers[1] || move == counter;
                r -= history / LmrHistoryDivisor;
            }
            int reduced = newDepth - r;
            if (reduced > newDepth) reduced = newDepth;
            if (reduced < 1) reduced = 1;
            value = -search(t, ss + 1, -alpha - 1, -alpha, reduced, true);
            STAT(t, LMR);
            if (value > alpha && reduced < newDepth) {
                /* The second look goes a ply deeper when the reduced search beat the best move by far,
                 * a ply shallower when it barely did; its result teaches the continuation history. */
                bool deeper = value > bestValue + LmrDeeperBase + LmrDeeperPerPly * (newDepth - reduced);
                bool shallower = value < bestValue + newDepth;
                if (deeper) STAT(t, LMR_DEEPER);
                if (shallower) STAT(t, LMR_SHALLOWER);
                newDepth += deeper - shallower;
                if (newDepth > reduced) {
                    STAT(t, LMR_RESEARCH);
                    value = -search(t, ss + 1, -alpha - 1, -alpha, newDepth, !cutNode);
                    if (!noisy)
                        update_continuation(ss, ss->movedPiece, move_to(move),
                                            value <= alpha ? -history_bonus(newDepth)
                                            : value >= beta ? history_bonus(newDepth) : 0);
                }
            }
        } else if (!pvNode || moveCount > 1) {
            value = -search(t, ss + 1, -alpha - 1, -alpha, newDepth, !cutNode);
        }
        if (pvNode && (moveCount == 1 || (value > alpha && (root || value < beta)))) {
            if (moveCount > 1) STAT(t, PVS_RESEARCH);
            value = -search(t, ss + 1, -beta, -alpha, newDepth, false);
        }

        pos_undo_move(pos);
        if (stopped(t)) return 0;

        /* Step 12. Record root results, the best move and the PV; cut off at beta. */
        if (root) {
            RootMove *rm = find_root_move(t, move);
            rm->nodes += atomic_load_explicit(&t->nodes, memory_order_relaxed) - nodesBefore;
            if (moveCount == 1 || value > alpha) {
                rm->score = value;
                rm->scoreBound = value >= beta ? BOUND_LOWER : value <= alpha ? BOUND_UPPER : BOUND_EXACT;
                rm->selDepth = t->seldepth;
                rm->pv[0] = move;
                rm->pvLength = 1;
                for (int i = 0; i < t->pvLength[1] && rm->pvLength < MAX_PLY; i++) rm->pv[rm->pvLength++] = t->pv[1][i];
            } else {
                rm->score = -VALUE_INFINITE;
            }
        }

        if (value > bestValue) {
            bestValue = value;
            if (value > alpha) {
                bestMove = move;
                if (pvNode && !root) update_pv(t, ply, move);
                if (value >= beta) {
                    ss->cutoffCount += 1 + (ttMove == MOVE_NONE);
                    STAT(t, FAIL_HIGH);
                    if (moveCount == 1) STAT(t, FAIL_HIGH_FIRST);
                    break;
                }
                alpha = value;
            }
        }
        if (move != bestMove) {
            if (noisy && captureCount < 32) captures[captureCount++] = move;
            else if (!noisy && quietCount < 64) quiets[quietCount++] = move;
        }
    }

    /* Step 13. No legal move: checkmate or stalemate (or only the excluded move). */
    if (moveCount == 0) return excluded ? alpha : inCheck ? mated_in(ply) : VALUE_DRAW;

    /* A tablebase loss caps what the moves found; a tablebase win is the least they are worth. */
    if (bestValue > maxValue) bestValue = maxValue;
    if (bestValue < minValue) bestValue = minValue;

    /* Step 14. Learn from the cutoff, then store the result. */
    if (bestValue >= beta) {
        if (!pos_is_capture_or_promotion(pos, bestMove) && quietCount < 64) quiets[quietCount++] = bestMove;
        else if (pos_is_capture_or_promotion(pos, bestMove) && captureCount < 32) captures[captureCount++] = bestMove;
        update_histories(t, ss, bestMove, depth, quiets, quietCount, captures, captureCount);
    } else if (bestMove == MOVE_NONE && !excluded && after_quiet_move(pos, ss)) {
        /* Nothing here reached alpha: the opponent's quiet move that led here refuted ours. */
        update_continuation(ss - 1, (ss - 1)->movedPiece, move_to((ss - 1)->move), history_bonus(depth));
    }

    int bound = bestValue >= beta ? BOUND_LOWER : pvNode && bestMove ? BOUND_EXACT : BOUND_UPPER;
    /* A quiet result the static evaluation did not foresee corrects later evaluations. */
    if (selective && !inCheck && !excluded && (bestMove == MOVE_NONE || !pos_is_capture_or_promotion(pos, bestMove))
        && !(bound == BOUND_LOWER && bestValue <= ss->staticEval) && !(bound == BOUND_UPPER && bestValue >= ss->staticEval)
        && bestValue > -VALUE_TB_WIN_IN_MAX_PLY && bestValue < VALUE_TB_WIN_IN_MAX_PLY)
        update_corrections(t, ss, rawEval, bestValue, depth);

    /* In MultiPV only the first line may describe the root in the table. */
    if (!(root && t->pvIndex > 0) && !excluded)
        tt_store(t->shared->tt, key, bestMove, tt_value_to_tt(bestValue, ply), rawEval, depth, bound, pvNode);
    return bestValue;
}

/* ------------------------------------------------------------ reporting */

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

/* Reports root move i as one line of progress. */
static void report_line(SearchWorker *t, int i, int depth, Value v, int bound) {
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

/* Every MultiPV line after an iteration (lines not yet searched at this depth show the last one). */
static void report_iteration(SearchWorker *t, int depth, int multiPV) {
    for (int i = 0; i < multiPV; i++) {
        const RootMove *rm = &t->rootMoves[i];
        bool updated = i <= t->pvIndex && rm->score != -VALUE_INFINITE;
        int d = updated ? depth : depth - 1;
        Value v = updated ? rm->score : rm->prevScore;
        if (d < 1 || v == -VALUE_INFINITE) continue;
        report_line(t, i, d, v, updated ? rm->scoreBound : BOUND_EXACT);
    }
    t->lastReportedMove = t->rootMoves[0].move;
}

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
        Value value = search(t, ss, alpha, beta, depth, false);
        sort_root_moves(t->rootMoves, t->pvIndex, t->rootCount);
        if (stopped(t)) return;
        if (value > alpha && value < beta) return;
        STAT(t, ASPIRATION_FAIL);
        if (t->index == 0) report_line(t, t->pvIndex, depth, t->rootMoves[t->pvIndex].score,
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
    t->checkCountdown = CheckInterval;
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
            sort_root_moves(t->rootMoves, 0, t->pvIndex + 1);
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

        report_iteration(t, depth, multiPV);
        Value best = t->rootMoves[0].score;
        t->iterationScores[depth] = best;
        if (limits->mate > 0 && best >= VALUE_MATE_IN_MAX_PLY && VALUE_MATE - best <= 2 * limits->mate - 1) break;
        if (time_to_stop(t, tm_now() - iterationStart)) break;
    }
    if (main && t->completedDepth > 0) t->lastMoveScore = t->iterationScores[t->completedDepth];
}

/* ------------------------------------------------------------ finishing */

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
            report_line(bt, 0, depth, result.score, rm->score == -VALUE_INFINITE ? BOUND_EXACT : rm->scoreBound);
        }
    }
    if (result.score != VALUE_NONE) result.score = shown_value(shared, result.score);
    shared->result = result;
    if (r->bestmove) r->bestmove(r->context, result.bestMove, result.ponderMove, t->pos->chess960);
}

void search_worker_run(SearchWorker *t) {
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

bool search_must_wait(const SearchShared *shared) {
    return !atomic_load(&shared->stop) && (atomic_load(&shared->ponder) || shared->limits.infinite);
}

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

/* ------------------------------------------------------------ workers */

SearchWorker *search_worker_create(SearchShared *shared, int index) {
    SearchWorker *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->index = index;
    w->shared = shared;
    w->pos = malloc(sizeof *w->pos);
    w->hist = pages_alloc(sizeof *w->hist, false);
    w->pawns = pawn_table_create();
    atomic_init(&w->nodes, 0);
    atomic_init(&w->tbHits, 0);
    if (!w->pos || !w->hist || !w->pawns) {
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
    if (w->pawns) pawn_table_destroy(w->pawns);
    free(w);
}

void search_worker_clear(SearchWorker *w) {
    memset(w->hist, 0, sizeof *w->hist);
    pawn_table_clear(w->pawns);
    w->lastMoveScore = VALUE_NONE;
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
    tm_init(&shared->tm, &shared->limits, pos_side_to_move(pos), count);
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
