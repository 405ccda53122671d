/*
 * Zobrist keys. They are the Polyglot Random64 constants, laid out as the
 * Polyglot specification lays them out, so that Gizum's incremental hash of
 * a position is its Polyglot book key.
 */
#ifndef GIZUM_ZOBRIST_H
#define GIZUM_ZOBRIST_H

#include "types.h"

enum {
    RANDOM64_COUNT = 781,
    RANDOM64_CASTLE = 768,     /* white short, white long, black short, black long */
    RANDOM64_EN_PASSANT = 772, /* by file of the ep square */
    RANDOM64_TURN = 780        /* xored in when white is to move */
};

extern const Key Random64[RANDOM64_COUNT];

/* Polyglot's piece order: black pawn, white pawn, black knight, ... white king. */
static inline Key zobrist_piece(Piece p, Square s) {
    int kind = 2 * (piece_type(p) - 1) + (piece_color(p) == WHITE);
    return Random64[64 * kind + s];
}
static inline Key zobrist_castling_bit(int rightIndex) { return Random64[RANDOM64_CASTLE + rightIndex]; }
static inline Key zobrist_en_passant(Square s) { return Random64[RANDOM64_EN_PASSANT + file_of(s)]; }
static inline Key zobrist_turn(void) { return Random64[RANDOM64_TURN]; }

#endif
