/*
 * Random positions for differential tests, weighted towards the shapes
 * where move generators go wrong: checks (double and discovered), pins,
 * en passant, castling rights with attacked paths, promotions, Chess960
 * set-ups and sparse endgames. A uniformly random game rarely shows them,
 * so the playout prefers the moves that make them and stops more often
 * once it has one. Board layer only (the board tests link libboard.a alone).
 */
#ifndef GIZUM_TEST_RANDOM_POSITIONS_H
#define GIZUM_TEST_RANDOM_POSITIONS_H

#include "epd.h"

/* What a position shows, as a bit set (a position can show several). */
typedef enum {
    CLASS_CHECK,            /* in check by one piece */
    CLASS_DOUBLE_CHECK,
    CLASS_DISCOVERED_CHECK, /* a checker is not the piece that just moved */
    CLASS_PINNED,           /* the side to move has a piece pinned to its king */
    CLASS_CHECK_XRAY,       /* in check, and an enemy slider aims at the king through exactly two pieces */
    CLASS_EN_PASSANT,       /* an en-passant capture is on the board (legal or not) */
    CLASS_CASTLING_ATTACKED,/* a castling right is held and a square the king crosses is attacked */
    CLASS_CHESS960,
    CLASS_FEW_PIECES,       /* at most FEW_PIECES pieces: endgames, tablebase material */
    CLASS_OTHER,            /* none of the shapes above */
    CLASS_NB
} PositionClass;

enum { FEW_PIECES = 7 };

static const char *const ClassNames[CLASS_NB] = {
    "in check", "double check", "discovered check", "pinned piece", "check with x-ray", "en passant",
    "castling path attacked", "Chess960", "few pieces", "other",
};

/*
 * Pieces of colour `owner` standing alone between the king of colour c and
 * an enemy slider, found from the geometry alone: pinned pieces when owner
 * is c, pieces that can give discovered check when owner is the enemy.
 */
static inline Bitboard line_blockers(const Position *pos, Color c, Color owner) {
    Color them = color_flip(c);
    Square ksq = pos_king_square(pos, c);
    Bitboard occupied = pos_pieces(pos), found = 0;
    Bitboard snipers = (rook_attacks(ksq, 0) & pos_pieces_cpt2(pos, them, ROOK, QUEEN)) |
                       (bishop_attacks(ksq, 0) & pos_pieces_cpt2(pos, them, BISHOP, QUEEN));
    while (snipers) {
        Square s = pop_lsb(&snipers);
        Bitboard between = BetweenBB[ksq][s] & occupied & ~square_bb(s);
        if (between && !more_than_one(between) && (between & pos->byColor[owner])) found |= between;
    }
    return found;
}

/*
 * Does an enemy slider aim at the king of colour c through exactly two
 * pieces? With a check, these are the lines where a pin and the check meet
 * (a pawn behind a checking bishop, a queen behind the pawn).
 */
static inline bool xray_line(const Position *pos, Color c) {
    Color them = color_flip(c);
    Square ksq = pos_king_square(pos, c);
    Bitboard snipers = (rook_attacks(ksq, 0) & pos_pieces_cpt2(pos, them, ROOK, QUEEN)) |
                       (bishop_attacks(ksq, 0) & pos_pieces_cpt2(pos, them, BISHOP, QUEEN));
    while (snipers) {
        Square s = pop_lsb(&snipers);
        if (popcount(BetweenBB[ksq][s] & pos_pieces(pos) & ~square_bb(s)) == 2) return true;
    }
    return false;
}

/* Is a square the king of colour c crosses when castling (destination included) attacked? */
static inline bool castling_path_attacked(const Position *pos, Color c) {
    Square ksq = pos_king_square(pos, c);
    Bitboard enemies = pos->byColor[color_flip(c)];
    int rights = pos->st->castling >> (2 * (int)c) & 3;
    for (int wing = 0; wing < 2; wing++) {
        if (!(rights & (1 << wing))) continue;
        Square kingTo = relative_square(c, wing == 0 ? G1 : C1);
        for (Bitboard path = BetweenBB[ksq][kingTo] | square_bb(kingTo); path;)
            if (pos_attackers_to(pos, pop_lsb(&path), pos_pieces(pos)) & enemies) return true;
    }
    return false;
}

static inline unsigned position_classes(const Position *pos) {
    Color us = pos->sideToMove;
    Bitboard checkers = pos_attackers_to(pos, pos_king_square(pos, us), pos_pieces(pos)) & pos->byColor[color_flip(us)];
    unsigned classes = 0;
    if (more_than_one(checkers)) classes |= 1u << CLASS_DOUBLE_CHECK;
    else if (checkers) classes |= 1u << CLASS_CHECK;
    Move last = pos->st->move;
    if (checkers && move_is_ok(last) && (checkers & ~square_bb(move_to(last)))) classes |= 1u << CLASS_DISCOVERED_CHECK;
    if (line_blockers(pos, us, us)) classes |= 1u << CLASS_PINNED;
    if (checkers && xray_line(pos, us)) classes |= 1u << CLASS_CHECK_XRAY;
    if (pos->st->epSquare != SQ_NONE) classes |= 1u << CLASS_EN_PASSANT;
    if (castling_path_attacked(pos, us)) classes |= 1u << CLASS_CASTLING_ATTACKED;
    if (!classes) classes |= 1u << CLASS_OTHER;
    if (pos->chess960) classes |= 1u << CLASS_CHESS960;
    if (popcount(pos_pieces(pos)) <= FEW_PIECES) classes |= 1u << CLASS_FEW_PIECES;
    return classes;
}

/* One in how many positions of a shape a walk stops at: the rarer the shape, the surer the stop. */
static inline unsigned stop_odds(unsigned classes) {
    if (classes & ((1u << CLASS_DOUBLE_CHECK) | (1u << CLASS_DISCOVERED_CHECK) | (1u << CLASS_CHECK_XRAY))) return 1;
    if (classes & ((1u << CLASS_EN_PASSANT) | (1u << CLASS_CASTLING_ATTACKED))) return 3;
    return 40;
}

/* A double push that lands beside an enemy pawn (it makes an en-passant capture possible). */
static inline bool pushes_past_pawn(const Position *pos, Move m) {
    Square from = move_from(m), to = move_to(m);
    if (piece_type(pos->board[from]) != PAWN || (from ^ to) != 16) return false;
    Bitboard beside = (shift_east(square_bb(to)) | shift_west(square_bb(to)));
    return (beside & pos_pieces_cpt(pos, color_flip(pos->sideToMove), PAWN)) != 0;
}

/*
 * Does m neither take a king nor leave the mover's king attacked? Found by
 * playing it, not by the generator's logic: a walk or a perft that steps
 * past a wrong move would end on a board without a king and crash, instead
 * of reporting the move.
 */
static inline bool move_is_sound(Position *pos, Move m) {
    if (move_kind(m) != MOVE_CASTLING && piece_type(pos->board[move_to(m)]) == KING) return false;
    Color us = pos->sideToMove;
    pos_do_move(pos, m);
    bool sound = !(pos_attackers_to(pos, pos_king_square(pos, us), pos_pieces(pos)) & pos->byColor[color_flip(us)]);
    pos_undo_move(pos);
    return sound;
}

/*
 * How much the playout wants a move: checks (double checks most), moves
 * that pin, prepare a discovered check, attack a castling path or leave an
 * en-passant capture, then
 * captures, promotions and castling. The check is found by playing the
 * move, not with pos_gives_check, which is one of the functions under test.
 */
static inline unsigned move_weight(Position *pos, Move m) {
    unsigned w = 1;
    if (pos_is_capture(pos, m)) w += 2;
    if (move_kind(m) == MOVE_PROMOTION) w += 3;
    if (move_kind(m) == MOVE_CASTLING) w += 4;
    if (pushes_past_pawn(pos, m)) w += 8;
    pos_do_move(pos, m);
    Color them = pos->sideToMove;
    Bitboard checkers = pos_attackers_to(pos, pos_king_square(pos, them), pos_pieces(pos)) & pos->byColor[!them];
    if (more_than_one(checkers)) w += 200;
    else if (checkers & ~square_bb(move_to(m))) w += 30;
    else if (checkers) w += 6;
    if (line_blockers(pos, them, them)) w += 3;
    if (xray_line(pos, them)) w += checkers ? 30 : 3;
    if (line_blockers(pos, them, color_flip(them))) w += 4; /* a discovered check is ready */
    if (castling_path_attacked(pos, them)) w += 6;
    pos_undo_move(pos);
    return w;
}

/* One move chosen by weight; MOVE_NONE when there is none. */
static inline Move biased_move(Position *pos, Rng *rng) {
    MoveList list;
    unsigned weights[MAX_MOVES], total = 0;
    gen_legal(pos, &list);
    for (int i = 0; i < list.count; i++)
        total += weights[i] = move_is_sound(pos, list.moves[i]) ? move_weight(pos, list.moves[i]) : 0;
    if (total == 0) return MOVE_NONE;
    unsigned pick = rng_below(rng, total);
    for (int i = 0;; i++) {
        if (pick < weights[i]) return list.moves[i];
        pick -= weights[i];
    }
}

/*
 * Plays biased moves for up to maxPlies and stops early at a rare shape
 * (often) or at any position (rarely), so that the positions returned are
 * spread over the game and rich in the shapes above. Returns the plies played.
 */
static inline int biased_walk(Position *pos, Rng *rng, int maxPlies) {
    int plies = 0;
    for (; plies < maxPlies; plies++) {
        if (plies > 0 && rng_below(rng, stop_odds(position_classes(pos))) == 0) break;
        Move m = biased_move(pos, rng);
        if (m == MOVE_NONE) break;
        pos_do_move(pos, m);
    }
    return plies;
}

/* The FEN of Chess960 start position n (0..959, Scharnagl's numbering: 518 is the standard one). */
static inline void chess960_start_fen(int n, char *fen) {
    static const int Knights[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}};
    char rank[9] = "        ";
    rank[2 * (n % 4) + 1] = 'b';
    n /= 4;
    rank[2 * (n % 4)] = 'b';
    n /= 4;
    int queen = n % 6, free = 0;
    n /= 6;
    /* The queen, then the knights, go to the free squares counted from the a-file; R K R fill the rest. */
    for (int f = 0; f < 8; f++)
        if (rank[f] == ' ' && free++ == queen) rank[f] = 'q';
    free = 0;
    for (int f = 0; f < 8; f++)
        if (rank[f] == ' ') {
            if (free == Knights[n][0] || free == Knights[n][1]) rank[f] = 'n';
            free++;
        }
    const char *rest = "rkr";
    for (int f = 0; f < 8; f++)
        if (rank[f] == ' ') rank[f] = *rest++;
    char upper[9];
    for (int f = 0; f < 9; f++) upper[f] = (char)(rank[f] >= 'a' ? rank[f] - 32 : rank[f]);
    sprintf(fen, "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w KQkq - 0 1", rank, upper);
}

/*
 * A random legal endgame: the two kings and `extra` other pieces (pawns
 * only when pawns is true) on random squares, side to move random, no
 * castling; false when the draw was not a legal position (try again).
 * Placed piece by piece, not through a FEN: callers draw millions.
 */
static inline bool random_sparse_position(Position *pos, Rng *rng, int extra, bool pawns) {
    pos_clear(pos, false);
    for (int i = -2; i < extra; i++) {
        Square s = (Square)rng_below(rng, 64);
        PieceType pt = i < 0 ? KING : pawns ? (PieceType)(PAWN + rng_below(rng, 5)) : (PieceType)(KNIGHT + rng_below(rng, 4));
        if (pos->board[s] != NO_PIECE || (pt == PAWN && (rank_of(s) == RANK_1 || rank_of(s) == RANK_8))) return false;
        Color c = i == -1 || (i >= 0 && rng_below(rng, 2)) ? BLACK : WHITE;
        pos_put_piece(pos, make_piece(c, pt), s);
    }
    Color us = rng_below(rng, 2) ? BLACK : WHITE, them = color_flip(us);
    pos->sideToMove = us;
    pos->gamePly = us == BLACK;
    /* The side not to move may not be in check (kings side by side included), nor the side to move in triple check. */
    if (pos_attackers_to(pos, pos_king_square(pos, them), pos_pieces(pos)) & pos->byColor[us]) return false;
    if (popcount(pos_attackers_to(pos, pos_king_square(pos, us), pos_pieces(pos)) & pos->byColor[them]) > 2) return false;
    pos_finish_setup(pos);
    return true;
}

#endif
