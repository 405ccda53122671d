/*
 * Move text: UCI long algebraic and SAN, both directions; a score as UCI writes it.
 */
#ifndef GIZUM_NOTATION_H
#define GIZUM_NOTATION_H

#include "position.h"

/* "e2e4", "e7e8q", castling "e1g1" (or "e1h1" when chess960), "0000" for none. Buffer >= 6. */
void move_to_uci(Move m, bool chess960, char *out);
/* The legal move written in UCI here (both castling forms accepted), or MOVE_NONE. */
Move move_from_uci(const Position *pos, const char *text);

/* SAN with check/mate suffix ("Nbd7", "exd6", "O-O-O", "e8=Q+", "Qh4#"). Buffer >= 12. */
void move_to_san(Position *pos, Move m, char *out);
/*
 * Parses SAN leniently (accepts missing or extra +/#, "0-0", "e8Q", "!?"
 * annotations, and a UCI move as fallback). Returns MOVE_NONE if the text is
 * not exactly one legal move here.
 */
Move move_from_san(const Position *pos, const char *text);

/* A score in UCI form, "cp N" or "mate N" (mates in moves; a tablebase win is cp 20000 less its
 * distance in plies, as Stockfish shows it). Buffer >= 16. */
void value_to_uci(Value v, char *out);

/* "e4" style square name into out (buffer >= 3); parse returns SQ_NONE on error. */
void square_to_text(Square s, char *out);
Square square_from_text(const char *text);

#endif
