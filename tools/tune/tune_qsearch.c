#include "tune_qsearch.h"

#include <stdlib.h>

#include "eval.h"
#include "movegen.h"

/*
 * Delta pruning: a capture that cannot lift the stand-pat score to alpha
 * even with this much positional gain is not searched. It only acts below
 * alpha, so never at a node of the principal line (whose stand pat, when it
 * is the line's leaf, is above alpha). Wider than the engine's QsDeltaMargin
 * (searchparams.h, 150, tuned for speed in games): here only the leaf
 * matters, not the time, and every leaf of the training data was resolved
 * with 200, so the fitted weights depend on it; a change is a new fit.
 */
enum { LEAF_DELTA_MARGIN = 200 };

struct TuneQsearch {
    EvalCache *evalCache;
    uint64_t nodes;
    /* Triangular principal-variation table: pv[ply] is the line from ply on. */
    Move pv[TUNE_QS_MAX_PLY + 1][TUNE_QS_MAX_PLY + 1];
    int pvLength[TUNE_QS_MAX_PLY + 1];
};

TuneQsearch *tune_qsearch_create(void) {
    TuneQsearch *qs = calloc(1, sizeof *qs);
    if (!qs) return NULL;
    qs->evalCache = eval_cache_create();
    if (!qs->evalCache) {
        free(qs);
        return NULL;
    }
    return qs;
}

void tune_qsearch_destroy(TuneQsearch *qs) {
    if (!qs) return;
    eval_cache_destroy(qs->evalCache);
    free(qs);
}

uint64_t tune_qsearch_nodes(const TuneQsearch *qs) { return qs->nodes; }

/* MVV-LVA: the most valuable victim first, the cheapest attacker among equals; promotions by piece. */
static int order_score(const Position *pos, Move m) {
    Piece victim = pos_captured_piece(pos, m);
    int score = victim != NO_PIECE ? 16 * SeeValue[piece_type(victim)] : 0;
    if (move_kind(m) == MOVE_PROMOTION) score += SeeValue[move_promotion(m)];
    return score - SeeValue[piece_type(pos_piece_on(pos, move_from(m)))] / 100;
}

/* Sorts the list by order_score, best first (lists are short: insertion sort). */
static void order_moves(const Position *pos, MoveList *list) {
    int scores[MAX_MOVES];
    for (int i = 0; i < list->count; i++) scores[i] = order_score(pos, list->moves[i]);
    for (int i = 1; i < list->count; i++) {
        Move m = list->moves[i];
        int s = scores[i], j = i;
        for (; j > 0 && scores[j - 1] < s; j--) {
            list->moves[j] = list->moves[j - 1];
            scores[j] = scores[j - 1];
        }
        list->moves[j] = m;
        scores[j] = s;
    }
}

/* Fail-soft quiescence search; fills qs->pv[ply] with the line it found. */
static int resolve(TuneQsearch *qs, Position *pos, int alpha, int beta, int ply) {
    qs->nodes++;
    qs->pvLength[ply] = 0;
    bool inCheck = pos_in_check(pos);
    if (ply >= TUNE_QS_MAX_PLY) return eval_evaluate(pos, qs->evalCache);

    int best = mated_in(ply);
    if (!inCheck) {
        best = eval_evaluate(pos, qs->evalCache);
        if (best >= beta) return best;
        if (best > alpha) alpha = best;
    }

    MoveList list;
    if (inCheck)
        gen_evasions(pos, &list);
    else
        gen_noisy(pos, &list);
    order_moves(pos, &list);

    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        if (!inCheck) {
            /* Under-promotions to rook or bishop never beat the queen; losing captures are not in flight. */
            if (move_kind(m) == MOVE_PROMOTION && move_promotion(m) != QUEEN && move_promotion(m) != KNIGHT)
                continue;
            Piece victim = pos_captured_piece(pos, m);
            if (move_kind(m) != MOVE_PROMOTION && victim != NO_PIECE
                && best + SeeValue[piece_type(victim)] + LEAF_DELTA_MARGIN <= alpha)
                continue;
            if (!pos_see_ge(pos, m, 0)) continue;
        }
        pos_do_move(pos, m);
        int value = -resolve(qs, pos, -beta, -alpha, ply + 1);
        pos_undo_move(pos);
        if (value <= best) continue;
        best = value;
        if (value > alpha) {
            alpha = value;
            qs->pv[ply][0] = m;
            for (int k = 0; k < qs->pvLength[ply + 1]; k++) qs->pv[ply][k + 1] = qs->pv[ply + 1][k];
            qs->pvLength[ply] = qs->pvLength[ply + 1] + 1;
            if (value >= beta) break;
        }
    }
    return best;
}

TuneLeafStatus tune_qsearch_leaf(TuneQsearch *qs, Position *pos, int *score, int *plies) {
    if (score) *score = 0;
    if (plies) *plies = 0;
    MoveList legal;
    gen_legal(pos, &legal);
    if (legal.count == 0) return TUNE_LEAF_NO_MOVES;

    int value = resolve(qs, pos, -VALUE_INFINITE, VALUE_INFINITE, 0);
    if (score) *score = value;
    int length = qs->pvLength[0];
    for (int i = 0; i < length; i++) pos_do_move(pos, qs->pv[0][i]);
    if (plies) *plies = length;

    if (value >= VALUE_MATE_IN_MAX_PLY || value <= VALUE_MATED_IN_MAX_PLY) return TUNE_LEAF_MATE;
    if (pos_in_check(pos)) return TUNE_LEAF_TOO_DEEP;
    return TUNE_LEAF_QUIET;
}
