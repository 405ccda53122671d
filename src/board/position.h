/*
 * The board: piece placement, side to move, castling, en passant, clocks,
 * incremental Zobrist keys, and make/unmake with an undo stack.
 *
 * Hashing follows the Polyglot convention exactly (same 781 keys, same
 * rules), so pos->st->key is the Polyglot book key of the position. In
 * particular an en-passant square is recorded at all (for the key, for FEN
 * output and for move generation) only when a pawn of the side to move
 * attacks it; a double push that no pawn can answer leaves no ep square.
 */
#ifndef GIZUM_POSITION_H
#define GIZUM_POSITION_H


#include "attacks.h"
#include "types.h"

/*
 * Depth of the undo stack. Game moves beyond an irreversible move are
 * forgotten (they can never repeat), so this bounds memory for games of any
 * length; see pos_do_game_move().
 */
enum { MAX_STATES = 1024 + MAX_PLY + 8 };

typedef struct {
    /* Copied forward by do_move, then updated. */
    Key pawnKey;
    Key nonPawnKey[COLOR_NB]; /* each side's pieces other than pawns (king included) */
    int castling;       /* castling rights bit set */
    int rule50;         /* plies since the last capture or pawn move */
    int pliesFromNull;  /* plies since the last null move (bounds repetition scans) */
    Square epSquare;    /* SQ_NONE unless a pawn of the side to move can capture there */
    /* Recomputed by do_move. */
    Key key;
    Bitboard checkers;  /* enemy pieces giving check to the side to move */
    Bitboard blockers;  /* pieces (either colour) shielding the side to move's king from sliders;
                         * with every enemy slider lifted, so a piece behind a checker counts */
    Piece captured;
    Move move;          /* the move that led here */
    /* Filled by the first pos_gives_check() here (most nodes of a quiescence search never ask):
     * the squares from which each piece type of the side to move would attack the enemy king,
     * and its pieces whose leaving the line would uncover a slider's check. */
    bool checkInfoReady;
    Bitboard checkSquares[PIECE_TYPE_NB];
    Bitboard discoverers;
} StateInfo;

typedef struct {
    Bitboard byType[PIECE_TYPE_NB]; /* byType[0] = all pieces */
    Bitboard byColor[COLOR_NB];
    Piece board[SQUARE_NB];
    Color sideToMove;
    int gamePly;          /* plies since the start of the game (from the FEN move number) */
    bool chess960;        /* affects only move notation (e1h1 vs e1g1) */
    /* Castling geometry, indexed by right index 0..3 (WHITE_OO = 0, WHITE_OOO = 1, ...). */
    Square castlingRookSquare[4];
    Bitboard castlingPath[4];      /* squares that must be empty */
    Bitboard castlingKingPath[4];  /* squares the king crosses, destination included */
    int castlingRightsMask[SQUARE_NB]; /* rights lost when a piece leaves or enters the square */
    StateInfo *st;
    StateInfo states[MAX_STATES];
} Position;

/* Builds the board layer's start-up tables (bitboards, attack tables). Call once. */
void board_init(void);

/*
 * Setting up a position piece by piece (fen.c, tests): clear, put the
 * pieces, set side, counters and castling rights, then finish (keys and
 * check information).
 */
void pos_clear(Position *pos, bool chess960);
void pos_put_piece(Position *pos, Piece pc, Square s);
/* Gives colour c the right to castle with the rook on rookSquare (king already placed). */
void pos_add_castling_right(Position *pos, Color c, Square rookSquare);
void pos_finish_setup(Position *pos);

/* Copies a position (fixes the internal state pointer). */
void pos_copy(Position *dst, const Position *src);
/* Copies the board and current state only: no repetition history (cheap scratch copies for probing). */
void pos_copy_without_history(Position *dst, const Position *src);

/* Plays a legal move / takes back the last one. */
void pos_do_move(Position *pos, Move m);
void pos_undo_move(Position *pos);
void pos_do_null_move(Position *pos);
void pos_undo_null_move(Position *pos);
/* Plays a game move (not a search move): drops history that can never repeat again. */
void pos_do_game_move(Position *pos, Move m);

/* True if m (any 16-bit value, e.g. from the TT) is a legal move here. */
bool pos_is_legal(const Position *pos, Move m);
bool pos_gives_check(const Position *pos, Move m);
/* Can the side to move castle with right index idx (0..3) now? (Right must be held.) */
bool pos_castling_is_legal(const Position *pos, int idx);
/* Static exchange evaluation: is the material outcome of m at least threshold? */
bool pos_see_ge(const Position *pos, Move m, int threshold);
Bitboard pos_attackers_to(const Position *pos, Square s, Bitboard occupied);
/* Every square a piece of colour c attacks. */
Bitboard pos_attacks_by(const Position *pos, Color c);
/* Pieces of either colour standing alone between the king of c and an enemy slider (pins, discoveries). */
Bitboard pos_slider_blockers(const Position *pos, Color c);
/* Key of the position after m, for TT prefetching (ignores ep and castling changes). */
Key pos_key_after(const Position *pos, Move m);

/* Draw rules. ply = distance from the search root (0 outside a search). */
bool pos_is_repetition(const Position *pos, int ply);
bool pos_is_threefold(const Position *pos);     /* game rule: third occurrence */
bool pos_insufficient_material(const Position *pos);
/* Key recomputed from scratch (for testing the incremental one). */
Key pos_compute_key(const Position *pos);
Key pos_compute_pawn_key(const Position *pos);
Key pos_compute_non_pawn_key(const Position *pos, Color c);

/* Piece values used by SEE and move ordering (mg-ish, pawn = 100). */
extern const int SeeValue[PIECE_TYPE_NB];

static inline Bitboard pos_pieces(const Position *pos) { return pos->byType[0]; }
static inline Bitboard pos_pieces_c(const Position *pos, Color c) { return pos->byColor[c]; }
static inline Bitboard pos_pieces_pt(const Position *pos, PieceType pt) { return pos->byType[pt]; }
static inline Bitboard pos_pieces_cpt(const Position *pos, Color c, PieceType pt) {
    return pos->byColor[c] & pos->byType[pt];
}
static inline Bitboard pos_pieces_cpt2(const Position *pos, Color c, PieceType a, PieceType b) {
    return pos->byColor[c] & (pos->byType[a] | pos->byType[b]);
}
static inline Piece pos_piece_on(const Position *pos, Square s) { return pos->board[s]; }
static inline Square pos_king_square(const Position *pos, Color c) { return lsb(pos_pieces_cpt(pos, c, KING)); }
static inline Color pos_side_to_move(const Position *pos) { return pos->sideToMove; }
/* The squares the side not to move attacks: the threats the side to move faces. */
static inline Bitboard pos_threats(const Position *pos) {
    return pos_attacks_by(pos, color_flip(pos_side_to_move(pos)));
}
static inline Key pos_key(const Position *pos) { return pos->st->key; }
static inline Bitboard pos_checkers(const Position *pos) { return pos->st->checkers; }
static inline bool pos_in_check(const Position *pos) { return pos->st->checkers != 0; }
static inline int pos_rule50(const Position *pos) { return pos->st->rule50; }
static inline bool pos_is_capture(const Position *pos, Move m) {
    return (pos->board[move_to(m)] != NO_PIECE && move_kind(m) != MOVE_CASTLING) || move_kind(m) == MOVE_EN_PASSANT;
}
static inline bool pos_is_capture_or_promotion(const Position *pos, Move m) {
    return pos_is_capture(pos, m) || move_kind(m) == MOVE_PROMOTION;
}
/* The piece a move captures (pawn for en passant), or NO_PIECE. */
static inline Piece pos_captured_piece(const Position *pos, Move m) {
    if (move_kind(m) == MOVE_EN_PASSANT) return make_piece(color_flip(pos->sideToMove), PAWN);
    if (move_kind(m) == MOVE_CASTLING) return NO_PIECE;
    return pos->board[move_to(m)];
}
/* Has colour c any piece other than pawns and king (null-move zugzwang guard)? */
static inline bool pos_has_non_pawn_material(const Position *pos, Color c) {
    return (pos->byColor[c] & ~(pos->byType[PAWN] | pos->byType[KING])) != 0;
}
/* Index 0..3 of a castling right bit. */
static inline int castling_index(int right) { return __builtin_ctz((unsigned)right); }

#endif
