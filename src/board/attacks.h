/*
 * Attack tables: leapers by lookup, sliders by magic bitboards (or PEXT when
 * the build enables BMI2). The magic numbers are found by our own search at
 * start-up (see attacks.c); both methods give identical attack sets.
 */
#ifndef GIZUM_ATTACKS_H
#define GIZUM_ATTACKS_H

#include "bitboard.h"

/* PEXT is used when the compiler targets BMI2, unless the build opts out. */
#if defined(__BMI2__) && !defined(GIZUM_NO_PEXT)
#define USE_PEXT
#include <immintrin.h>
#endif

typedef struct {
    Bitboard mask;    /* relevant occupancy (edges excluded) */
    Bitboard magic;   /* multiplier (unused with PEXT) */
    Bitboard *table;  /* attack sets indexed by the hashed occupancy */
    unsigned shift;
} Magic;

extern Bitboard PawnAttacks[COLOR_NB][SQUARE_NB];
extern Bitboard KnightAttacks[SQUARE_NB];
extern Bitboard KingAttacks[SQUARE_NB];
extern Magic BishopMagics[SQUARE_NB];
extern Magic RookMagics[SQUARE_NB];

/* Builds every attack table; call once before anything else (after bitboard_init). */
void attacks_init(void);

static inline unsigned magic_index(const Magic *m, Bitboard occupied) {
#if defined(USE_PEXT)
    return (unsigned)_pext_u64(occupied, m->mask);
#else
    return (unsigned)(((occupied & m->mask) * m->magic) >> m->shift);
#endif
}

static inline Bitboard bishop_attacks(Square s, Bitboard occupied) {
    const Magic *m = &BishopMagics[s];
    return m->table[magic_index(m, occupied)];
}
static inline Bitboard rook_attacks(Square s, Bitboard occupied) {
    const Magic *m = &RookMagics[s];
    return m->table[magic_index(m, occupied)];
}
static inline Bitboard queen_attacks(Square s, Bitboard occupied) {
    return bishop_attacks(s, occupied) | rook_attacks(s, occupied);
}
static inline Bitboard knight_attacks(Square s) { return KnightAttacks[s]; }
static inline Bitboard king_attacks(Square s) { return KingAttacks[s]; }
static inline Bitboard pawn_attacks(Color c, Square s) { return PawnAttacks[c][s]; }

/* Attacks of a non-pawn piece type from s given the occupancy. */
static inline Bitboard piece_attacks(PieceType pt, Square s, Bitboard occupied) {
    switch (pt) {
    case KNIGHT: return KnightAttacks[s];
    case BISHOP: return bishop_attacks(s, occupied);
    case ROOK: return rook_attacks(s, occupied);
    case QUEEN: return queen_attacks(s, occupied);
    case KING: return KingAttacks[s];
    default: return 0;
    }
}

#endif
