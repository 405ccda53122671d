/*
 * Static evaluation: a weighted linear sum Eval = sum w_i * f_i, tapered
 * between middlegame and endgame weights by game phase, from the side to
 * move's point of view, in centipawns. (Interface contract: the eval module
 * owns the implementation and may extend this header.)
 */
#ifndef GIZUM_EVAL_H
#define GIZUM_EVAL_H

#include <stdio.h>

#include "position.h"

/* Per-thread pawn hash table: a complete type so a search thread can own one. */
typedef struct PawnTable PawnTable;

void eval_init(void);
PawnTable *pawn_table_create(void);
void pawn_table_destroy(PawnTable *table);
void pawn_table_clear(PawnTable *table);

/* Static evaluation of a position not in check, side to move's view. */
Value eval_evaluate(const Position *pos, PawnTable *pawns);
/* Prints every feature: counts per side, weights, contributions, and the total. */
void eval_trace(const Position *pos, FILE *out);

#endif
