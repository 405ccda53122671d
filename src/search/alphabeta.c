/*
 * The tree: fail-soft principal variation search, node by node, with its
 * pruning, reductions and extensions; ProbCut; and the quiescence search
 * at the horizon. search.c calls it once per root search (alphabeta_root);
 * what a node teaches the histories is history_update.h's.
 */
#include <stdlib.h>
#include <string.h>

#include "history_update.h"
#include "movegen.h"
#include "movepick.h"
#include "platform.h"
#include "searchparams.h"
#include "syzygy.h"
#include "worker.h"

/*
 * Numbers of the tree that are not tuned (searchparams.h holds those), each
 * with its reason.
 */
enum {
    /* The quiet moves and captures tried before a cutoff that it punishes; later ones go unpunished
     * (the picker tries the likely ones first, and the arrays live on the stack of every node). */
    QUIETS_TRIED_MAX = 64,
    CAPTURES_TRIED_MAX = 32,
    /* From this fifty-move counter on a TT value may hide the coming draw: no TT cutoff. */
    TT_CUTOFF_RULE50_MAX = 90,
    /* A tablebase result is stored this much deeper than the node: it holds at any depth. */
    TB_STORE_DEPTH_BONUS = 6,
    /* tb_wdl_value scores a cursed win or blessed loss this close to a draw: an exact value, not a bound. */
    TB_DRAW_BAND = 2,
    /* Extensions stop on lines longer than this many times the iteration's depth. */
    EXTENSION_PLY_FACTOR = 2,
};

/* ------------------------------------------------------------ reductions */

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

/* ------------------------------------------------------------ nodes */

/*
 * Main thread: stops the search at the hard time limit or the node limit.
 * The limits are checked every checkInterval nodes, which halves while checks
 * are more than CheckPeriodUs apart (a slow build, a loaded machine, more
 * threads than cores) and grows back to CheckInterval while they are under a
 * quarter of it, so a stop lands within about CheckPeriodUs of the limit.
 */
static void check_limits(SearchWorker *t) {
    SearchShared *ctl = t->shared;
    int64_t now = tm_now_us(), gap = now - t->lastCheckUs;
    t->lastCheckUs = now;
    if (gap > t->longestGapUs) t->longestGapUs = gap;
    search_note_unseen_stall(t, gap, platform_thread_cpu_us());
    if (gap > CheckPeriodUs)
        t->checkInterval = t->checkInterval / 2 > CheckIntervalMin ? t->checkInterval / 2 : CheckIntervalMin;
    else if (gap < CheckPeriodUs / 4)
        t->checkInterval = t->checkInterval * 2 < CheckInterval ? t->checkInterval * 2 : CheckInterval;
    if (ctl->limits.nodes && search_nodes(t->shared) >= ctl->limits.nodes) atomic_store(&ctl->stop, true);
    search_follow_clock_start(t);
    /* Always finish depth 1, so the move played has been looked at. */
    if (ctl->tm.active && t->completedDepth >= 1 && !atomic_load_explicit(&ctl->ponder, memory_order_relaxed)
        && now / 1000 - atomic_load_explicit(&ctl->startTime, memory_order_relaxed) >= ctl->tm.maximum)
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
        check_limits(t);
        t->checkCountdown = t->checkInterval;
    }
}

/* Static values stay clear of the mate range (eval_evaluate clamps them). */
static inline Value evaluate(SearchWorker *t) {
    return eval_evaluate(t->pos, t->evalCache);
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

/* The bound a node's value is: a fail high is a lower bound, a PV node with a best move exact, else upper. */
static inline int value_bound(Value bestValue, Value beta, bool pvNode, Move bestMove) {
    return bestValue >= beta ? BOUND_LOWER : pvNode && bestMove ? BOUND_EXACT : BOUND_UPPER;
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
            /* Futility: when standing pat plus a margin stays under alpha, a capture
             * without check matters only if its victim lifts the score over alpha
             * and the exchange wins something. A pruned capture still raises the
             * fail-soft best value to what it could at most have reached. */
            const Value futilityBase = standPat + QsDeltaMargin;
            if (move_kind(move) != MOVE_PROMOTION && futilityBase <= alpha && !pos_gives_check(pos, move)) {
                Value futilityValue = futilityBase + SeeValue[piece_type(pos_captured_piece(pos, move))];
                if (futilityValue <= alpha) {
                    if (futilityValue > bestValue) bestValue = futilityValue;
                    STAT(t, QS_DELTA);
                    continue;
                }
                if (!pos_see_ge(pos, move, 1)) {
                    if (futilityBase > bestValue) bestValue = futilityBase;
                    STAT(t, QS_FUTILITY);
                    continue;
                }
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

    tt_store(t->shared->tt, key, bestMove, tt_value_to_tt(bestValue, ply), rawEval, TT_DEPTH_QS,
             value_bound(bestValue, beta, pvNode, bestMove), pvNode);
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

/* ------------------------------------------------------------ the node's steps */

/* Counts a node of the tree by its kind (statistics build) and the selective depth reached on a PV. */
static inline void count_tree_node(SearchWorker *t, int ply, bool pvNode, bool cutNode) {
    count_node(t);
#ifdef GIZUM_STATS
    if (pvNode) STAT(t, NODES_PV);
    else if (cutNode) STAT(t, NODES_CUT);
    else STAT(t, NODES_ALL);
#else
    (void)cutNode;
#endif
    if (pvNode && ply + 1 > t->seldepth) t->seldepth = ply + 1;
}

/* Mate distance pruning: no line from here can beat a mate already found nearer the root. */
static inline bool mate_distance_prune(int ply, Value *alpha, Value *beta) {
    *alpha = *alpha > mated_in(ply) ? *alpha : mated_in(ply);
    *beta = *beta < mate_in(ply + 1) ? *beta : mate_in(ply + 1);
    return *alpha >= *beta;
}

/* The children start with no killers and no cutoffs of their own; the double extensions so far carry over. */
static inline void prepare_children(SearchStack *ss, bool root) {
    (ss + 2)->killers[0] = (ss + 2)->killers[1] = MOVE_NONE;
    (ss + 2)->cutoffCount = 0;
    if (root) (ss + 1)->cutoffCount = 0;
    (ss + 1)->doubleExtensions = ss->doubleExtensions;
}

static Value search(SearchWorker *t, SearchStack *ss, Value alpha, Value beta, int depth, bool cutNode);

/* What the transposition table knows of a node. */
typedef struct {
    bool hit;
    TTData entry;
    Value value;                  /* from the root's view; VALUE_NONE without an entry */
    Move move;                    /* the move to try first (at the root: the current line's) */
    bool pv;                      /* the node is or once was on a principal variation */
    bool capture;                 /* the TT move captures or promotes */
} TtProbe;

static inline void probe_tt(SearchWorker *t, const SearchStack *ss, Key key, bool pvNode, bool root, TtProbe *tt) {
    const Position *pos = t->pos;
    tt->hit = tt_probe(t->shared->tt, key, &tt->entry);
    STAT(t, TT_PROBE);
    if (tt->hit) STAT(t, TT_HIT);
    tt->value = tt->hit ? tt_value_from_tt(tt->entry.value, ss->ply) : VALUE_NONE;
    tt->move = root ? t->rootMoves[t->pvIndex].move : tt->hit ? tt->entry.move : MOVE_NONE;
    tt->pv = pvNode || (tt->hit && tt->entry.pv);
    tt->capture = tt->move != MOVE_NONE && pos_is_capture_or_promotion(pos, tt->move);
}

/*
 * A deep enough TT bound ends a non-PV node. A refuting quiet TT move earns
 * what a searched cutoff would, and the opponent's early quiet move that
 * allowed the cutoff was worse than its rank said.
 */
static inline bool tt_cutoff(SearchWorker *t, SearchStack *ss, const TtProbe *tt, int depth, Value beta) {
    const Position *pos = t->pos;
    if (!tt->hit || tt->entry.depth < depth || tt->value == VALUE_NONE || pos_rule50(pos) >= TT_CUTOFF_RULE50_MAX
        || !(tt->entry.bound & (tt->value >= beta ? BOUND_LOWER : BOUND_UPPER)))
        return false;
    STAT(t, TT_CUTOFF);
    Move ttMove = tt->move;
    if (tt->value >= beta && ttMove != MOVE_NONE && !tt->capture && pos_is_legal(pos, ttMove)) {
        ss->threats = pos_threats(pos);
        update_histories(t, ss, ttMove, depth, &ttMove, 1, NULL, 0);
    }
    if (tt->value >= beta && (ss - 1)->moveCount <= TtCutoffPriorMaxMove && after_quiet_move(pos, ss))
        update_prior_quiet(ss, -history_bonus(depth + 1));
    return true;
}

/* The bound a tablebase value is: wins and losses bound the node, the draws band is exact. */
static inline int tb_value_bound(Value v) {
    return v > VALUE_DRAW + TB_DRAW_BAND ? BOUND_LOWER : v < VALUE_DRAW - TB_DRAW_BAND ? BOUND_UPPER : BOUND_EXACT;
}

/*
 * The endgame tablebases, probed just after a capture or pawn move within
 * the probe limit: the exact result, as a bound the window may cut on
 * (true, *cut is the node's value). A PV node that is not cut keeps the
 * result as the least (*minValue) or most (*maxValue) it is worth and
 * searches on for the best way to realise or delay it.
 */
static inline bool probe_tablebases(SearchWorker *t, SearchStack *ss, Key key, int depth, bool pvNode, Value *alpha,
                                    Value beta, Value *minValue, Value *maxValue, Value *cut) {
    const Position *pos = t->pos;
    const SearchShared *shared = t->shared;
    int pieces = popcount(pos_pieces(pos));
    if (!shared->tbPieces || pieces > shared->tbPieces
        || (depth < shared->limits.settings.tbProbeDepth && pieces >= shared->tbPieces) || pos_rule50(pos) != 0
        || pos->st->castling)
        return false;
    TbWdl wdl;
    if (!tb_probe_wdl(pos, &wdl)) return false;
    atomic_store_explicit(&t->tbHits, atomic_load_explicit(&t->tbHits, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    Value v = tb_wdl_value(wdl, ss->ply, shared->limits.settings.tbRule50);
    int bound = tb_value_bound(v);
    if (bound == BOUND_EXACT || (bound == BOUND_LOWER ? v >= beta : v <= *alpha)) {
        int stored = depth + TB_STORE_DEPTH_BONUS < MAX_PLY - 1 ? depth + TB_STORE_DEPTH_BONUS : MAX_PLY - 1;
        tt_store(shared->tt, key, MOVE_NONE, tt_value_to_tt(v, ss->ply), VALUE_NONE, stored, bound, pvNode);
        *cut = v;
        return true;
    }
    if (pvNode) {
        if (bound == BOUND_LOWER) *minValue = v;
        if (bound == BOUND_LOWER && v > *alpha) *alpha = v;
        if (bound == BOUND_UPPER) *maxValue = v;
    }
    return false;
}

/*
 * The node's static evaluation (ss->staticEval, corrected by the correction
 * histories; *rawEval uncorrected, as the TT keeps it), and the value the
 * node's pruning works with: the TT bound when it is more precise.
 */
static inline Value static_eval(SearchWorker *t, SearchStack *ss, const TtProbe *tt, bool inCheck, bool excluded,
                                Value *rawEval) {
    *rawEval = VALUE_NONE;
    if (inCheck) return ss->staticEval = VALUE_NONE;
    /* The singular search's node has evaluated this position already. */
    if (excluded) return ss->staticEval;
    *rawEval = tt->hit && tt->entry.eval != VALUE_NONE ? tt->entry.eval : evaluate(t);
    Value eval = ss->staticEval = corrected_eval(t, ss, *rawEval);
    if (tt->value != VALUE_NONE && (tt->entry.bound & (tt->value > eval ? BOUND_LOWER : BOUND_UPPER)))
        eval = tt->value;
    return eval;
}

/* Whether the side to move stands better than two plies ago (four, when it was in check then). */
static inline bool is_improving(const SearchStack *ss, bool inCheck) {
    if (inCheck) return false;
    Value past = (ss - 2)->staticEval != VALUE_NONE ? (ss - 2)->staticEval : (ss - 4)->staticEval;
    return past == VALUE_NONE || ss->staticEval > past;
}

/* Reverse futility pruning: far above beta at low depth, the node will fail high. */
static inline bool reverse_futility(SearchWorker *t, Value eval, Value beta, int depth, bool improving) {
    (void)t;
    if (depth > RfpMaxDepth || eval - RfpMargin * (depth - improving) < beta || eval >= VALUE_MATE_IN_MAX_PLY
        || beta <= VALUE_MATED_IN_MAX_PLY)
        return false;
    STAT(t, RFP);
    return true;
}

/*
 * Null-move pruning: if passing still fails high, a real move will too. Not
 * with pawns and king only, where zugzwang is common. Returns the value to
 * end the node with, or VALUE_NONE.
 */
static inline Value null_move(SearchWorker *t, SearchStack *ss, Value eval, Value beta, int depth, bool cutNode,
                              bool excluded) {
    Position *pos = t->pos;
    if (depth < NmpMinDepth || excluded || eval < beta || ss->staticEval < beta || (ss - 1)->move == MOVE_NULL
        || !pos_has_non_pawn_material(pos, pos_side_to_move(pos)) || beta <= VALUE_MATED_IN_MAX_PLY
        || beta >= VALUE_MATE_IN_MAX_PLY)
        return VALUE_NONE;
    int evalR = (eval - beta) / NmpEvalDivisor;
    int r = NmpBaseReduction + depth / NmpDepthDivisor + (evalR < NmpEvalMaxReduction ? evalR : NmpEvalMaxReduction);
    STAT(t, NMP_TRY);
    stack_set_null_move(ss);
    pos_do_null_move(pos);
    Value v = -search(t, ss + 1, -beta, -beta + 1, depth - r, !cutNode);
    pos_undo_null_move(pos);
    if (stopped(t)) return 0;
    if (v < beta) return VALUE_NONE;
    STAT(t, NMP_CUTOFF);
    /* An unproven mate from a null move is only a fail high. */
    return v >= VALUE_MATE_IN_MAX_PLY ? beta : v;
}

/* The previous move captured with a more valuable piece: it may be a sacrifice, whose point only a
 * full search sees, so ProbCut's shallow capture search must not refute it. (A king capture counts
 * as "more valuable": harmless.) */
static bool after_possible_sacrifice(const Position *pos, const SearchStack *ss) {
    Piece captured = pos->st->captured;
    return captured != NO_PIECE
        && SeeValue[piece_type(captured)] < SeeValue[piece_type((ss - 1)->movedPiece)];
}

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

/*
 * ProbCut's gate: a good capture that beats beta by a margin in a shallow
 * search almost surely beats beta at full depth, unless the previous move
 * may be a sacrifice, beta is a tablebase or mate score, or a TT entry
 * almost as deep says the node fails low. Returns the value to end the node
 * with, or VALUE_NONE.
 */
static inline Value try_probcut(SearchWorker *t, SearchStack *ss, const TtProbe *tt, Value beta, int depth,
                                bool improving, bool excluded, Value rawEval, bool cutNode) {
    Value probCutBeta = beta + ProbCutMargin - ProbCutImprovingMargin * improving;
    if (depth < ProbCutMinDepth || excluded || after_possible_sacrifice(t->pos, ss)
        || beta <= -VALUE_TB_WIN_IN_MAX_PLY || beta >= VALUE_TB_WIN_IN_MAX_PLY
        || (tt->hit && tt->entry.depth >= depth - ProbCutTtDepthMargin && tt->value != VALUE_NONE
            && tt->value < probCutBeta))
        return VALUE_NONE;
    Value v = probcut(t, ss, probCutBeta, depth, tt->capture ? tt->move : MOVE_NONE, rawEval, cutNode);
    if (stopped(t)) return 0;
    return v >= probCutBeta ? v : VALUE_NONE;
}

/* What the move loop knows of the move at hand. */
typedef struct {
    Move move;
    int count;                    /* its number among the moves searched here, from 1 */
    bool noisy;                   /* a capture or promotion */
    bool givesCheck;
    int history;                  /* its capture history, or its quiet history score */
} MoveInfo;

/*
 * Shallow-depth pruning, once a move has saved us from being mated: late
 * moves, quiets with a bad history, futile quiets and captures, and moves
 * that lose material by SEE. True: skip the move (late-move and futility
 * pruning skip the remaining quiets too).
 */
static inline bool prune_move(SearchWorker *t, SearchStack *ss, MovePicker *mp, const MoveInfo *m, int depth,
                              Value alpha, bool improving, bool inCheck) {
    const Position *pos = t->pos;
    int lmrDepth = depth - 1 - reduction(depth, m->count);
    if (lmrDepth < 0) lmrDepth = 0;
    if (!m->noisy && !m->givesCheck) {
        /* Late move pruning: enough quiet moves tried at this depth. */
        if (depth <= LmpMaxDepth && m->count >= (LmpBase + depth * depth) / (LmpImprovingDivisor - improving)) {
            STAT(t, LMP);
            mp->skipQuiets = true;
            return true;
        }
        /* History pruning: a quiet move that has failed here again and again. */
        if (lmrDepth <= HistoryPruneMaxDepth && m->history < -HistoryPruneMargin * depth) {
            STAT(t, HISTORY_PRUNE);
            return true;
        }
        /* Futility pruning: a quiet move will not bring the eval up to alpha. */
        if (!inCheck && lmrDepth <= FutilityMaxDepth
            && ss->staticEval + FutilityBase + FutilityPerDepth * lmrDepth <= alpha) {
            STAT(t, FUTILITY);
            mp->skipQuiets = true;
            return true;
        }
        if (lmrDepth <= SeeMaxDepth && !pos_see_ge(pos, m->move, -SeeQuietMargin * lmrDepth * lmrDepth)) {
            STAT(t, SEE_QUIET);
            return true;
        }
        return false;
    }
    /* Capture futility: even the victim and a good history leave the eval below alpha. */
    if (!m->givesCheck && !inCheck && move_kind(m->move) != MOVE_PROMOTION && lmrDepth <= CaptureFutilityMaxDepth
        && ss->staticEval + CaptureFutilityBase + CaptureFutilityPerDepth * lmrDepth
               + SeeValue[piece_type(pos_captured_piece(pos, m->move))] + m->history / CaptureFutilityHistoryDivisor
               <= alpha) {
        STAT(t, CAPTURE_FUTILITY);
        return true;
    }
    if (depth <= SeeMaxDepth && !pos_see_ge(pos, m->move, -SeeNoisyMargin * depth)) {
        STAT(t, SEE_NOISY);
        return true;
    }
    return false;
}

/*
 * Singular extensions: the TT move is searched deeper when every other move
 * fails low against ttValue - margin * depth in a half-depth search that
 * leaves it out, doubly deeper when far below; when that search fails high
 * anyway, more than one move beats beta and the node is cut (multi-cut,
 * *cut set); when the others look as good, one ply less. Returns the
 * extension.
 */
static inline int singular_extension(SearchWorker *t, SearchStack *ss, const TtProbe *tt, int depth, Value beta,
                                     bool pvNode, bool cutNode, Value *cut) {
    Value singularBeta = tt->value - SingularBetaMargin * depth / 64;
    STAT(t, SINGULAR_TRY);
    ss->excludedMove = tt->move;
    Value v = search(t, ss, singularBeta - 1, singularBeta, (depth - 1) / 2, cutNode);
    ss->excludedMove = MOVE_NONE;
    if (stopped(t)) {
        *cut = 0;
        return 0;
    }
    if (v < singularBeta) {
        int extension = !pvNode && v < singularBeta - DoubleExtensionMargin
                     && ss->doubleExtensions < DoubleExtensionMax ? 2 : 1;
        STAT(t, SINGULAR_EXTENSION);
        if (extension == 2) STAT(t, DOUBLE_EXTENSION);
        return extension;
    }
    if (singularBeta >= beta) {
        STAT(t, MULTI_CUT);
        *cut = singularBeta;
        return 0;
    }
    if (tt->value >= beta || cutNode) {
        STAT(t, NEGATIVE_EXTENSION);
        return -1;
    }
    return 0;
}

/* Whether the TT move qualifies for the singular test: a deep enough lower bound, no tablebase score. */
static inline bool singular_candidate(const TtProbe *tt, Move move, int depth, bool root, Move excluded) {
    return !root && move == tt->move && !excluded && depth >= SingularMinDepth && tt->value != VALUE_NONE
        && (tt->entry.bound & BOUND_LOWER) && tt->entry.depth >= depth - SingularTtDepthMargin
        && tt->value > -VALUE_TB_WIN_IN_MAX_PLY && tt->value < VALUE_TB_WIN_IN_MAX_PLY;
}

/*
 * How much shallower a late move is searched first: by depth and move
 * number, more where the replies keep refuting our moves, less for a good
 * history; for quiets also by the node's kind and the TT move, less for
 * killers and the counter move.
 */
static inline int late_move_reduction(SearchStack *ss, const MoveInfo *m, const TtProbe *tt, int depth, bool pvNode,
                                      bool cutNode, bool improving, Move counter) {
    int r = reduction(depth, m->count);
    /* Replies keep refuting our moves here: the later ones are likely refuted too. */
    r += (ss + 1)->cutoffCount > LmrChildCutoffs;
    /* A check narrows the replies: less likely to be refuted by chance. */
    r -= m->givesCheck;
    if (m->noisy) {
        r += cutNode - pvNode;
        r -= m->history / LmrCaptureHistoryDivisor;
    } else {
        r += !pvNode;
        r += !improving;
        r += cutNode;
        r -= !pvNode && tt->pv;
        r += tt->capture;
        r -= m->move == ss->killers[0] || m->move == ss->killers[1] || m->move == counter;
        r -= m->history / LmrHistoryDivisor;
    }
    return r;
}

/*
 * Late move reductions: a reduced null-window search first; a move that
 * beats alpha there is searched again at full depth, a ply deeper when it
 * beat the best move by far, a ply shallower when it barely did (*newDepth
 * says which, for a principal variation's search after it), and a quiet
 * one's continuation history learns from that second search.
 */
static inline Value search_reduced(SearchWorker *t, SearchStack *ss, const MoveInfo *m, int r, int *newDepth,
                                   Value alpha, Value beta, Value bestValue, bool cutNode) {
    int reduced = *newDepth - r;
    if (reduced > *newDepth) reduced = *newDepth;
    if (reduced < 1) reduced = 1;
    Value value = -search(t, ss + 1, -alpha - 1, -alpha, reduced, true);
    STAT(t, LMR);
    if (value <= alpha || reduced >= *newDepth) return value;
    bool deeper = value > bestValue + LmrDeeperBase + LmrDeeperPerPly * (*newDepth - reduced);
    /* Barely: by less than a centipawn per ply of the full depth. */
    bool shallower = value < bestValue + *newDepth;
    if (deeper) STAT(t, LMR_DEEPER);
    if (shallower) STAT(t, LMR_SHALLOWER);
    *newDepth += deeper - shallower;
    if (*newDepth <= reduced) return value;
    STAT(t, LMR_RESEARCH);
    value = -search(t, ss + 1, -alpha - 1, -alpha, *newDepth, !cutNode);
    if (!m->noisy)
        update_continuation(ss, ss->movedPiece, move_to(m->move),
                            value <= alpha ? -history_bonus(*newDepth) : value >= beta ? history_bonus(*newDepth) : 0);
    return value;
}

/*
 * After the move loop, what the node teaches: a cutoff rewards its move and
 * punishes the ones tried before it; a node where nothing reached alpha
 * rewards the opponent's quiet move that led here (it refuted ours).
 */
static inline void learn_from_result(SearchWorker *t, SearchStack *ss, Move bestMove, Value bestValue, Value beta,
                                     int depth, Move *quiets, int quietCount, Move *captures, int captureCount,
                                     bool excluded) {
    const Position *pos = t->pos;
    if (bestValue >= beta) {
        if (!pos_is_capture_or_promotion(pos, bestMove) && quietCount < QUIETS_TRIED_MAX) quiets[quietCount++] = bestMove;
        else if (pos_is_capture_or_promotion(pos, bestMove) && captureCount < CAPTURES_TRIED_MAX)
            captures[captureCount++] = bestMove;
        update_histories(t, ss, bestMove, depth, quiets, quietCount, captures, captureCount);
    } else if (bestMove == MOVE_NONE && !excluded && after_quiet_move(pos, ss)) {
        update_prior_quiet(ss, history_bonus(depth));
    }
}

/* A quiet result that the static evaluation did not foresee (nor a tablebase score) corrects later evaluations. */
static inline bool teaches_correction(const Position *pos, const SearchStack *ss, Move bestMove, Value bestValue,
                                      int bound) {
    return (bestMove == MOVE_NONE || !pos_is_capture_or_promotion(pos, bestMove))
        && !(bound == BOUND_LOWER && bestValue <= ss->staticEval) && !(bound == BOUND_UPPER && bestValue >= ss->staticEval)
        && bestValue > -VALUE_TB_WIN_IN_MAX_PLY && bestValue < VALUE_TB_WIN_IN_MAX_PLY;
}

/* ------------------------------------------------------------ the node */

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

    /* Step 2. A new node: counted, then ended at once by a draw, the ply limit, or a mate found
     * nearer the root. */
    const bool inCheck = pos_in_check(pos);
    t->pvLength[ply] = 0;
    if (!root && stopped(t)) return 0;
    count_tree_node(t, ply, pvNode, cutNode);
    if (!root) {
        if (is_draw(pos, ply)) return VALUE_DRAW;
        if (ply >= MAX_PLY - 1) return inCheck ? VALUE_DRAW : evaluate(t);
    }
    if (!root && selective && mate_distance_prune(ply, &alpha, &beta)) return alpha;
    prepare_children(ss, root);

    /* Step 3. The transposition table: a deep enough bound ends a non-PV node. */
    Key key = pos_key(pos);
    TtProbe tt;
    probe_tt(t, ss, key, pvNode, root, &tt);
    if (!pvNode && !excluded && mode != SEARCH_PLAIN_NO_TT && tt_cutoff(t, ss, &tt, depth, beta)) return tt.value;

    /* Step 4. The endgame tablebases. */
    Value minValue = -VALUE_INFINITE, maxValue = VALUE_INFINITE, cut;
    if (!root && !excluded && probe_tablebases(t, ss, key, depth, pvNode, &alpha, beta, &minValue, &maxValue, &cut))
        return cut;

    /* Step 5. The static evaluation, and whether it is improving. */
    Value rawEval;
    const Value eval = static_eval(t, ss, &tt, inCheck, excluded, &rawEval);
    const bool improving = is_improving(ss, inCheck);

    /* Step 6. Whole-node pruning outside the principal variation: reverse futility, null move, ProbCut. */
    if (!pvNode && !inCheck && selective) {
        if (reverse_futility(t, eval, beta, depth, improving)) return eval;
        Value v = null_move(t, ss, eval, beta, depth, cutNode, excluded);
        if (v != VALUE_NONE) return v;
        v = try_probcut(t, ss, &tt, beta, depth, improving, excluded, rawEval, cutNode);
        if (v != VALUE_NONE) return v;
    }

    /* Step 7. Internal iterative reduction: without a TT move this node is probably less important. */
    if (!root && selective && depth >= IirMinDepth && tt.move == MOVE_NONE && (pvNode || cutNode)) {
        STAT(t, IIR);
        depth--;
    }

    /* Step 8. The move loop, best moves first (movepick.c). */
    Move counter = move_is_ok((ss - 1)->move) ? t->hist->counter[(ss - 1)->movedPiece][move_to((ss - 1)->move)]
                                              : MOVE_NONE;
    MovePicker mp;
    const PieceToHistory *cont[CONT_PLIES];
    continuation_tables(ss, cont);
    ss->threats = pos_threats(pos);
    movepick_init(&mp, pos, t->hist, tt.move, ss->killers, counter, cont, ss->threats);

    Value bestValue = -VALUE_INFINITE;
    Move bestMove = MOVE_NONE;
    int moveCount = 0, quietCount = 0, captureCount = 0;
    Move quiets[QUIETS_TRIED_MAX], captures[CAPTURES_TRIED_MAX];
    const Color us = pos_side_to_move(pos);
    MoveInfo m;

    while ((m.move = movepick_next(&mp)) != MOVE_NONE) {
        const Move move = m.move;
        if (move == excluded) continue;
        if (root && !root_find_move(t, move)) continue;
        m.count = ++moveCount;
        m.noisy = pos_is_capture_or_promotion(pos, move);
        m.givesCheck = pos_gives_check(pos, move);
        m.history = m.noisy ? movepick_capture_history(pos, t->hist, move)
                            : movepick_quiet_score(pos, t->hist, move, cont, ss->threats);

        /* Step 9. Shallow-depth pruning, once a move has saved us from being mated. */
        if (!root && selective && bestValue > VALUE_MATED_IN_MAX_PLY && pos_has_non_pawn_material(pos, us)
            && prune_move(t, ss, &mp, &m, depth, alpha, improving, inCheck))
            continue;

        /* Step 10. Extensions, bounded so that extended lines cannot run away: the singular TT
         * move (or a cutoff without it), then checks. */
        int extension = 0;
        if (selective && ply < EXTENSION_PLY_FACTOR * t->rootDepth) {
            if (singular_candidate(&tt, move, depth, root, excluded)) {
                Value multiCut = VALUE_NONE;
                extension = singular_extension(t, ss, &tt, depth, beta, pvNode, cutNode, &multiCut);
                if (multiCut != VALUE_NONE) return multiCut;
            } else if (m.givesCheck) {
                extension = 1;
                STAT(t, CHECK_EXTENSION);
            }
        }
        int newDepth = depth - 1 + extension;

        /* Step 11. Make the move; late moves are searched reduced first, the rest with a null
         * window; on a principal variation, a move that beats alpha again with the full window. */
        if (root) root_report_currmove(t, move, moveCount + t->pvIndex);
        uint64_t nodesBefore = atomic_load_explicit(&t->nodes, memory_order_relaxed);
        stack_set_move(t, ss, move);
        ss->moveCount = moveCount;
        (ss + 1)->doubleExtensions = ss->doubleExtensions + (extension >= 2);
        tt_prefetch(t->shared->tt, pos_key_after(pos, move));
        pos_do_move(pos, move);

        Value value = -VALUE_INFINITE;
        /* The first move is never reduced, nor the root's second. */
        if (selective && depth >= LmrMinDepth && moveCount > 1 + root) {
            int r = late_move_reduction(ss, &m, &tt, depth, pvNode, cutNode, improving, counter);
            value = search_reduced(t, ss, &m, r, &newDepth, alpha, beta, bestValue, cutNode);
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
        if (root)
            root_record(t, move, moveCount, value, alpha, beta,
                        atomic_load_explicit(&t->nodes, memory_order_relaxed) - nodesBefore);
        if (value > bestValue) {
            bestValue = value;
            if (value > alpha) {
                bestMove = move;
                if (pvNode && !root) update_pv(t, ply, move);
                if (value >= beta) {
                    /* A cutoff without a TT move says more about the replies: it counts twice. */
                    ss->cutoffCount += 1 + (tt.move == MOVE_NONE);
                    STAT(t, FAIL_HIGH);
                    if (moveCount == 1) STAT(t, FAIL_HIGH_FIRST);
                    break;
                }
                alpha = value;
            }
        }
        if (move != bestMove) {
            if (m.noisy && captureCount < CAPTURES_TRIED_MAX) captures[captureCount++] = move;
            else if (!m.noisy && quietCount < QUIETS_TRIED_MAX) quiets[quietCount++] = move;
        }
    }

    /* Step 13. No legal move: checkmate or stalemate (or only the excluded move). */
    if (moveCount == 0) return excluded ? alpha : inCheck ? mated_in(ply) : VALUE_DRAW;

    /* A tablebase loss caps what the moves found; a tablebase win is the least they are worth. */
    if (bestValue > maxValue) bestValue = maxValue;
    if (bestValue < minValue) bestValue = minValue;

    /* Step 14. Learn from the result (histories, corrections), then store it. */
    learn_from_result(t, ss, bestMove, bestValue, beta, depth, quiets, quietCount, captures, captureCount, excluded);
    int bound = value_bound(bestValue, beta, pvNode, bestMove);
    if (selective && !inCheck && !excluded && teaches_correction(pos, ss, bestMove, bestValue, bound))
        update_corrections(t, ss, rawEval, bestValue, depth);
    /* In MultiPV only the first line may describe the root in the table. */
    if (!(root && t->pvIndex > 0) && !excluded)
        tt_store(t->shared->tt, key, bestMove, tt_value_to_tt(bestValue, ply), rawEval, depth, bound, pvNode);
    return bestValue;
}

Value alphabeta_root(SearchWorker *t, SearchStack *ss, Value alpha, Value beta, int depth) {
    return search(t, ss, alpha, beta, depth, false);
}
