/*
 * A private, silent search for tools that play or judge positions (datagen,
 * genfens, openings): one search thread with its own hash table, so results
 * are reproducible node for node and never touch the UCI engine's state.
 *
 * This is the only place those tools call into the search; they see just
 * the best move and its score.
 */
#ifndef GIZUM_SEARCHER_H
#define GIZUM_SEARCHER_H

#include <stdint.h>

#include "position.h"

typedef struct Searcher Searcher;

typedef struct {
    Move best;     /* MOVE_NONE when the position has no legal move */
    Value score;   /* side to move's view; mate scores are VALUE_MATE - ply */
} SearcherResult;

/* A searcher with a hashMB table; NULL when out of memory. */
Searcher *searcher_create(int hashMB);
void searcher_destroy(Searcher *s);
/* Forgets everything learnt (hash table, histories), so the next search depends only on its position. */
void searcher_new_game(Searcher *s);
/* Searches pos to depth and/or nodes (0 = no such limit; at least one must be given). */
void searcher_search(Searcher *s, const Position *pos, int depth, uint64_t nodes, SearcherResult *out);

#endif
