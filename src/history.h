/*
 * Move-ordering statistics learnt during the search, one set per thread:
 * butterfly history (side, from, to), capture history (piece, to, captured
 * type), counter moves (the reply that refuted the previous move) and
 * continuation history (how good a move is after a given previous move).
 */
#ifndef GIZUM_HISTORY_H
#define GIZUM_HISTORY_H

#include <stdlib.h>

#include "types.h"

/* Every history entry stays within +-HISTORY_MAX (fits int16_t). */
enum { HISTORY_MAX = 16384 };

typedef int16_t PieceToHistory[PIECE_NB][SQUARE_NB];

typedef struct {
    int16_t butterfly[COLOR_NB][SQUARE_NB][SQUARE_NB];
    int16_t capture[PIECE_NB][SQUARE_NB][PIECE_TYPE_NB];
    Move counter[PIECE_NB][SQUARE_NB];
    PieceToHistory continuation[PIECE_NB][SQUARE_NB];
} Histories;

/* Moves an entry towards +-HISTORY_MAX by bonus, slowing down as it nears the bound. */
static inline void history_update(int16_t *entry, int bonus) {
    if (bonus > HISTORY_MAX) bonus = HISTORY_MAX;
    if (bonus < -HISTORY_MAX) bonus = -HISTORY_MAX;
    *entry = (int16_t)(*entry + bonus - *entry * abs(bonus) / HISTORY_MAX);
}

#endif
