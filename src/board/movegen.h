/*
 * Legal move generation. Every generator returns only legal moves (pins and
 * checks are resolved while generating), so no filtering step is needed.
 */
#ifndef GIZUM_MOVEGEN_H
#define GIZUM_MOVEGEN_H

#include "position.h"

typedef struct {
    Move moves[MAX_MOVES];
    int count;
} MoveList;

/* All legal moves. */
void gen_legal(const Position *pos, MoveList *list);
/* Captures (incl. en passant) and all promotions: the quiescence search's moves. */
void gen_noisy(const Position *pos, MoveList *list);
/* Everything gen_noisy leaves out: quiet moves and castling. */
void gen_quiets(const Position *pos, MoveList *list);
/* All legal moves when in check (same set as gen_legal; asserts being in check). */
void gen_evasions(const Position *pos, MoveList *list);
/* Number of legal moves, without listing them (perft's last ply). */
int count_legal(const Position *pos);

static inline bool movelist_contains(const MoveList *list, Move m) {
    for (int i = 0; i < list->count; i++)
        if (list->moves[i] == m) return true;
    return false;
}

#endif
