/*
 * FEN (Forsyth-Edwards Notation) in and out, with X-FEN and Shredder-FEN
 * castling for Chess960.
 */
#ifndef GIZUM_FEN_H
#define GIZUM_FEN_H

#include <stdbool.h>
#include <stddef.h>

#include "position.h"

extern const char *const StartFEN;
/* The FEN letter of each piece (' ' for none), indexed by Piece. */
extern const char PieceChars[];

/*
 * Parses a FEN (also X-FEN and Shredder-FEN castling for Chess960; four to
 * six fields). On failure returns false, writes a message naming the fault
 * to err (if err is not NULL) and leaves pos untouched.
 */
bool pos_set_fen(Position *pos, const char *fen, bool chess960, char *err, size_t errlen);
void pos_set_startpos(Position *pos, bool chess960);
/* Writes the FEN (Shredder-style castling letters only when needed in Chess960). Buffer >= 100. */
void pos_get_fen(const Position *pos, char *out);

#endif
