/*
 * What the search learns from each node (history.h holds the tables): the
 * move-ordering histories from cutoffs and fail-lows, and the correction
 * histories from the gap between a node's result and its static
 * evaluation. Called in the tree's innermost loops, hence static inline.
 */
#ifndef GIZUM_HISTORY_UPDATE_H
#define GIZUM_HISTORY_UPDATE_H

#include "history.h"
#include "position.h"
#include "search.h"
#include "searchparams.h"

/* The bonus (or, negated, the malus) a move earns at depth. */
static inline int history_bonus(int depth) {
    int b = HistoryBonusQuad * depth * depth + HistoryBonusLinear * depth;
    return b < HistoryBonusCap ? b : HistoryBonusCap;
}

/* ------------------------------------------------------------ continuation histories */

/* How far back each continuation table's move is (history.h's CONT_PLIES). */
static const int ContPliesBack[CONT_PLIES] = {1, 2, 4};

/* The continuation tables a quiet move at ss is scored by. */
static inline void continuation_tables(const SearchStack *ss, const PieceToHistory *cont[CONT_PLIES]) {
    for (int k = 0; k < CONT_PLIES; k++) cont[k] = (ss - ContPliesBack[k])->cont;
}

/* Moves the continuation entries of piece pc going to `to`, after the moves 1, 2 and 4 plies back, by bonus. */
static inline void update_continuation(SearchStack *ss, Piece pc, Square to, int bonus) {
    for (int k = 0; k < CONT_PLIES; k++) {
        PieceToHistory *table = (ss - ContPliesBack[k])->contWrite;
        if (table) history_update(&(*table)[pc][to], bonus);
    }
}

/* Whether the move that led to this node was a quiet one (no capture, no promotion, not a null move). */
static inline bool after_quiet_move(const Position *pos, const SearchStack *ss) {
    return move_is_ok((ss - 1)->move) && pos->st->captured == NO_PIECE && move_kind((ss - 1)->move) != MOVE_PROMOTION;
}

/* The opponent's quiet move that led to this node earns bonus (a malus when negative). */
static inline void update_prior_quiet(SearchStack *ss, int bonus) {
    update_continuation(ss - 1, (ss - 1)->movedPiece, move_to((ss - 1)->move), bonus);
}

/* Records on the stack the move about to be made from this node, for the children's histories. */
static inline void stack_set_move(SearchWorker *t, SearchStack *ss, Move move) {
    ss->move = move;
    ss->movedPiece = pos_piece_on(t->pos, move_from(move));
    ss->contWrite = &t->hist->continuation[ss->movedPiece][move_to(move)];
    ss->cont = ss->contWrite;
}

/* A null move leaves nothing for the children's continuation histories. */
static inline void stack_set_null_move(SearchStack *ss) {
    ss->move = MOVE_NULL;
    ss->movedPiece = NO_PIECE;
    ss->cont = NULL;
    ss->contWrite = NULL;
}

/* ------------------------------------------------------------ cutoffs */

/* Rewards the move that caused a cutoff and punishes the ones tried before it. */
static inline void update_histories(SearchWorker *t, SearchStack *ss, Move best, int depth, const Move *quiets,
                                    int quietCount, const Move *captures, int captureCount) {
    Histories *h = t->hist;
    const Position *pos = t->pos;
    Color us = pos_side_to_move(pos);
    int bonus = history_bonus(depth);

    if (!pos_is_capture_or_promotion(pos, best)) {
        if (ss->killers[0] != best) {
            ss->killers[1] = ss->killers[0];
            ss->killers[0] = best;
        }
        if (move_is_ok((ss - 1)->move)) h->counter[(ss - 1)->movedPiece][move_to((ss - 1)->move)] = best;
        for (int i = 0; i < quietCount; i++) {
            Move m = quiets[i];
            int b = m == best ? bonus : -bonus;
            history_update(&h->butterfly[us][butterfly_threat_index(ss->threats, m)][move_from(m)][move_to(m)], b);
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

/* ------------------------------------------------------------ correction histories */

/* The continuation correction entry of the last two moves, NULL after a null move or near the root. */
static inline int16_t *continuation_correction(SearchWorker *t, const SearchStack *ss) {
    const SearchStack *last = ss - 1, *before = ss - 2;
    if (!move_is_ok(last->move) || !move_is_ok(before->move)) return NULL;
    return &t->hist->continuationCorrection[before->movedPiece][move_to(before->move)][last->movedPiece]
                                           [move_to(last->move)];
}

/* The static evaluation corrected by what earlier searches found in similar positions. */
static inline Value corrected_eval(SearchWorker *t, const SearchStack *ss, Value raw) {
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
static inline void update_corrections(SearchWorker *t, SearchStack *ss, Value raw, Value bestValue, int depth) {
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

#endif
