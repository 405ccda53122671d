/*
 * Gizum, a UCI chess engine. The basic types of the board and everything above it:
 * squares, pieces, moves, values.
 */
#ifndef GIZUM_TYPES_H
#define GIZUM_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t Bitboard;
typedef uint64_t Key;

/* Deepest ply the search may reach; every per-ply array is sized from it. */
enum { MAX_PLY = 128 };
/* No legal chess position has more than 218 moves. */
enum { MAX_MOVES = 256 };

typedef enum { WHITE, BLACK, COLOR_NB } Color;

typedef enum {
    NO_PIECE_TYPE, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, PIECE_TYPE_NB
} PieceType;

/* A piece is colour * 8 + type, so type and colour are cheap to extract. */
typedef enum {
    NO_PIECE,
    W_PAWN = 1, W_KNIGHT, W_BISHOP, W_ROOK, W_QUEEN, W_KING,
    B_PAWN = 9, B_KNIGHT, B_BISHOP, B_ROOK, B_QUEEN, B_KING,
    PIECE_NB = 16
} Piece;

/* a1 = 0, b1 = 1, ... h8 = 63. */
typedef enum {
    A1, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
    SQ_NONE, SQUARE_NB = 64
} Square;

enum { FILE_A, FILE_B, FILE_C, FILE_D, FILE_E, FILE_F, FILE_G, FILE_H, FILE_NB };
enum { RANK_1, RANK_2, RANK_3, RANK_4, RANK_5, RANK_6, RANK_7, RANK_8, RANK_NB };

/* Castling rights: one bit per side and wing. */
enum {
    WHITE_OO = 1, WHITE_OOO = 2, BLACK_OO = 4, BLACK_OOO = 8,
    ALL_CASTLING = 15, CASTLING_RIGHT_NB = 16
};

/*
 * A move in 16 bits: from (0-5), to (6-11), promotion piece (12-13: knight,
 * bishop, rook, queen) and kind (14-15). Castling is stored as "king takes
 * own rook" so that standard chess and Chess960 share one code path.
 */
typedef uint16_t Move;

enum { MOVE_NONE = 0, MOVE_NULL = 65 };
enum { MOVE_NORMAL = 0, MOVE_PROMOTION = 1 << 14, MOVE_EN_PASSANT = 2 << 14, MOVE_CASTLING = 3 << 14 };

static inline Square move_from(Move m) { return (Square)(m & 63); }
static inline Square move_to(Move m) { return (Square)((m >> 6) & 63); }
static inline int move_kind(Move m) { return m & (3 << 14); }
static inline PieceType move_promotion(Move m) { return (PieceType)(((m >> 12) & 3) + KNIGHT); }
static inline Move make_move(Square from, Square to) { return (Move)(from | (to << 6)); }
static inline Move make_special(Square from, Square to, int kind) { return (Move)(from | (to << 6) | kind); }
static inline Move make_promotion(Square from, Square to, PieceType pt) {
    return (Move)(from | (to << 6) | MOVE_PROMOTION | ((pt - KNIGHT) << 12));
}
static inline bool move_is_ok(Move m) { return m != MOVE_NONE && m != MOVE_NULL; }

static inline Color color_flip(Color c) { return (Color)(c ^ 1); }
static inline PieceType piece_type(Piece p) { return (PieceType)(p & 7); }
static inline Color piece_color(Piece p) { return (Color)(p >> 3); }
static inline Piece make_piece(Color c, PieceType pt) { return (Piece)((c << 3) | pt); }

static inline int file_of(Square s) { return s & 7; }
static inline int rank_of(Square s) { return s >> 3; }
static inline Square make_square(int file, int rank) { return (Square)((rank << 3) | file); }
static inline bool square_is_ok(int s) { return s >= A1 && s <= H8; }
/* The square as seen from c's side of the board (a1 <-> a8 for black). */
static inline Square relative_square(Color c, Square s) { return (Square)(s ^ (c * 56)); }
static inline int relative_rank(Color c, Square s) { return rank_of(s) ^ (c * 7); }
/* One step forward for a pawn of colour c. */
static inline int pawn_push(Color c) { return c == WHITE ? 8 : -8; }

/* Search values. Mate scores are VALUE_MATE - ply (distance-discounted). */
typedef int Value;
enum {
    VALUE_DRAW = 0,
    VALUE_MATE = 32000,
    VALUE_INFINITE = 32001,
    VALUE_NONE = 32002,
    VALUE_MATE_IN_MAX_PLY = VALUE_MATE - MAX_PLY,
    VALUE_MATED_IN_MAX_PLY = -VALUE_MATE_IN_MAX_PLY,
    /* Tablebase wins: VALUE_TB_WIN - ply, just below the mates; static values stay below them. */
    VALUE_TB_WIN = VALUE_MATE_IN_MAX_PLY - 1,
    VALUE_TB_WIN_IN_MAX_PLY = VALUE_TB_WIN - MAX_PLY,
    VALUE_EVAL_MAX = VALUE_TB_WIN_IN_MAX_PLY - 1,
};

static inline Value mate_in(int ply) { return VALUE_MATE - ply; }
static inline Value mated_in(int ply) { return -VALUE_MATE + ply; }

#endif
