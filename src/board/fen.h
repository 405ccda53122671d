/*
 * The position as text: FEN (Forsyth-Edwards Notation) in and out, with
 * X-FEN and Shredder-FEN castling for Chess960, and the `d` board. The
 * setters keep the pos_ prefix of the position they fill; they live here,
 * above position.c, so that the board itself needs no text.
 */
#ifndef GIZUM_FEN_H
#define GIZUM_FEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

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
/*
 * The FEN of one EPD line: its four position fields, then the move counters
 * from its hmvc/fmvn opcodes, or from two plain numbers after the fields (a
 * FEN saved as EPD), else "0 1". False when the line has fewer than four
 * fields or the result does not fit out; the position itself is checked by
 * pos_set_fen.
 */
bool fen_from_epd(const char *line, char *out, size_t outlen);
/* Writes the FEN (Shredder-style castling letters only when needed in Chess960). Buffer >= 100. */
void pos_get_fen(const Position *pos, char *out);

/* Prints the board, FEN, key and checkers (the `d` command). */
void pos_print(const Position *pos, FILE *out);

/* The placement field of a FEN from 64 piece letters (a1 first, 0 = empty); out needs 72 bytes. */
void fen_placement(const char board[64], char *out);

#endif
