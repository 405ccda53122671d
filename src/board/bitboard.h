/*
 * Bitboard helpers and the geometric masks everything above builds on.
 */
#ifndef GIZUM_BITBOARD_H
#define GIZUM_BITBOARD_H

#include "types.h"

#define FILE_A_BB 0x0101010101010101ULL
#define FILE_H_BB (FILE_A_BB << 7)
#define RANK_1_BB 0xFFULL
#define RANK_8_BB (RANK_1_BB << 56)
#define DARK_SQUARES_BB 0xAA55AA55AA55AA55ULL

/* Tables filled once by bitboard_init(); read-only afterwards. */
extern Bitboard BetweenBB[SQUARE_NB][SQUARE_NB]; /* squares strictly between, plus the second square */
extern Bitboard LineBB[SQUARE_NB][SQUARE_NB];    /* the full line through both squares, or 0 */
extern uint8_t SquareDistance[SQUARE_NB][SQUARE_NB];

void bitboard_init(void);

static inline Bitboard square_bb(Square s) { return 1ULL << s; }
static inline Bitboard file_bb(int f) { return FILE_A_BB << f; }
static inline Bitboard rank_bb(int r) { return RANK_1_BB << (8 * r); }
static inline Bitboard file_bb_of(Square s) { return file_bb(file_of(s)); }
static inline Bitboard rank_bb_of(Square s) { return rank_bb(rank_of(s)); }

static inline int popcount(Bitboard b) { return __builtin_popcountll(b); }
static inline Square lsb(Bitboard b) { return (Square)__builtin_ctzll(b); }
static inline Square msb(Bitboard b) { return (Square)(63 ^ __builtin_clzll(b)); }
static inline Square pop_lsb(Bitboard *b) {
    Square s = lsb(*b);
    *b &= *b - 1;
    return s;
}
static inline bool more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }

static inline Bitboard shift_north(Bitboard b) { return b << 8; }
static inline Bitboard shift_south(Bitboard b) { return b >> 8; }
static inline Bitboard shift_east(Bitboard b) { return (b & ~FILE_H_BB) << 1; }
static inline Bitboard shift_west(Bitboard b) { return (b & ~FILE_A_BB) >> 1; }
/* Forward from colour c's point of view. */
static inline Bitboard shift_up(Color c, Bitboard b) { return c == WHITE ? b << 8 : b >> 8; }
static inline Bitboard shift_down(Color c, Bitboard b) { return c == WHITE ? b >> 8 : b << 8; }

/* All squares attacked by the pawns in b of colour c. */
static inline Bitboard pawn_attacks_bb(Color c, Bitboard b) {
    Bitboard up = shift_up(c, b);
    return shift_east(up) | shift_west(up);
}

static inline Bitboard adjacent_files_bb(Square s) {
    Bitboard f = file_bb_of(s);
    return shift_east(f) | shift_west(f);
}

/* Ranks strictly in front of square s from colour c's point of view. */
static inline Bitboard forward_ranks_bb(Color c, Square s) {
    return c == WHITE ? ~RANK_1_BB << (8 * rank_of(s)) : ~RANK_8_BB >> (8 * (7 - rank_of(s)));
}
/* The squares in front of s on its file. */
static inline Bitboard forward_file_bb(Color c, Square s) { return forward_ranks_bb(c, s) & file_bb_of(s); }
/* Squares a pawn on s may be attacked from as it advances. */
static inline Bitboard pawn_attack_span(Color c, Square s) { return forward_ranks_bb(c, s) & adjacent_files_bb(s); }
/* Squares that must be free of enemy pawns for a pawn on s to be passed. */
static inline Bitboard passed_pawn_span(Color c, Square s) { return pawn_attack_span(c, s) | forward_file_bb(c, s); }

static inline bool aligned(Square a, Square b, Square c) { return (LineBB[a][b] & square_bb(c)) != 0; }
static inline int distance(Square a, Square b) { return SquareDistance[a][b]; }

#endif
