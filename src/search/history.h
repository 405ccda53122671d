/*
 * Move-ordering statistics learnt during the search, one set per thread:
 * butterfly history (side, whether the enemy attacks the from and the to
 * square, from, to: a move out of or into danger is a different move),
 * capture history (piece, to, captured type), counter moves (the reply that refuted the previous move) and
 * continuation history (how good a move is after a given previous move);
 * and correction histories: how far the static evaluation was from what the
 * search found, for positions with the same pawns, the same pieces of one
 * side, or reached by the same two moves.
 */
#ifndef GIZUM_HISTORY_H
#define GIZUM_HISTORY_H

#include <stdlib.h>

#include "types.h"

/* Every history entry stays within +-HISTORY_MAX (fits int16_t). */
enum { HISTORY_MAX = 16384 };

typedef int16_t PieceToHistory[PIECE_NB][SQUARE_NB];

/* A quiet move is scored by the continuation tables of the moves 1, 2 and 4 plies back
 * (a list of CONT_PLIES pointers, NULL where there was no such move). */
enum { CONT_PLIES = 3 };

/* Correction entries hold centipawns * CORRECTION_GRAIN, within +-CORRECTION_LIMIT. */
enum { CORRECTION_SIZE = 16384, CORRECTION_GRAIN = 64, CORRECTION_LIMIT = 128 * CORRECTION_GRAIN };

typedef struct {
    int16_t butterfly[COLOR_NB][4][SQUARE_NB][SQUARE_NB];   /* [side][butterfly_threat_index][from][to] */
    int16_t capture[PIECE_NB][SQUARE_NB][PIECE_TYPE_NB];
    Move counter[PIECE_NB][SQUARE_NB];
    PieceToHistory continuation[PIECE_NB][SQUARE_NB];
    int16_t pawnCorrection[COLOR_NB][CORRECTION_SIZE];                /* [side to move][pawn key] */
    int16_t nonPawnCorrection[COLOR_NB][COLOR_NB][CORRECTION_SIZE];   /* [side to move][owner][key] */
    PieceToHistory continuationCorrection[PIECE_NB][SQUARE_NB];       /* [move before last][last move] */
} Histories;

/* Which butterfly table a move uses: whether the enemy attacks (threats) its from and its to square. */
static inline int butterfly_threat_index(Bitboard threats, Move m) {
    return (int)(((threats >> move_from(m)) & 1) * 2 + ((threats >> move_to(m)) & 1));
}

/* Moves an entry towards +-HISTORY_MAX by bonus, slowing down as it nears the bound. */
static inline void history_update(int16_t *entry, int bonus) {
    if (bonus > HISTORY_MAX) bonus = HISTORY_MAX;
    if (bonus < -HISTORY_MAX) bonus = -HISTORY_MAX;
    *entry = (int16_t)(*entry + bonus - *entry * abs(bonus) / HISTORY_MAX);
}

/* Moves a correction entry towards target (both in grains) by weight / 256 of the gap. */
static inline void correction_update(int16_t *entry, int target, int weight) {
    int v = (*entry * (256 - weight) + target * weight) / 256;
    if (v > CORRECTION_LIMIT) v = CORRECTION_LIMIT;
    if (v < -CORRECTION_LIMIT) v = -CORRECTION_LIMIT;
    *entry = (int16_t)v;
}

#endif
