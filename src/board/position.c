#include "position.h"

#include <stdlib.h>
#include <string.h>

#include "bitboard.h"
#include "zobrist.h"

const int SeeValue[PIECE_TYPE_NB] = {0, 100, 320, 330, 500, 950, 20000};

/* ---------------------------------------------------------------- pieces */

static void put_piece(Position *pos, Piece pc, Square s) {
    Bitboard b = square_bb(s);
    pos->board[s] = pc;
    pos->byType[0] |= b;
    pos->byType[piece_type(pc)] |= b;
    pos->byColor[piece_color(pc)] |= b;
}

static void remove_piece(Position *pos, Square s) {
    Piece pc = pos->board[s];
    Bitboard b = square_bb(s);
    pos->byType[0] ^= b;
    pos->byType[piece_type(pc)] ^= b;
    pos->byColor[piece_color(pc)] ^= b;
    pos->board[s] = NO_PIECE;
}

static void move_piece(Position *pos, Square from, Square to) {
    Piece pc = pos->board[from];
    Bitboard fromTo = square_bb(from) | square_bb(to);
    pos->byType[0] ^= fromTo;
    pos->byType[piece_type(pc)] ^= fromTo;
    pos->byColor[piece_color(pc)] ^= fromTo;
    pos->board[from] = NO_PIECE;
    pos->board[to] = pc;
}

Bitboard pos_attackers_to(const Position *pos, Square s, Bitboard occupied) {
    return (pawn_attacks(BLACK, s) & pos_pieces_cpt(pos, WHITE, PAWN))
         | (pawn_attacks(WHITE, s) & pos_pieces_cpt(pos, BLACK, PAWN))
         | (knight_attacks(s) & pos->byType[KNIGHT])
         | (bishop_attacks(s, occupied) & (pos->byType[BISHOP] | pos->byType[QUEEN]))
         | (rook_attacks(s, occupied) & (pos->byType[ROOK] | pos->byType[QUEEN]))
         | (king_attacks(s) & pos->byType[KING]);
}

Bitboard pos_attacks_by(const Position *pos, Color c) {
    Bitboard occupied = pos_pieces(pos);
    Bitboard attacks = pawn_attacks_bb(c, pos_pieces_cpt(pos, c, PAWN)) | king_attacks(pos_king_square(pos, c));
    for (Bitboard b = pos_pieces_cpt(pos, c, KNIGHT); b;) attacks |= knight_attacks(pop_lsb(&b));
    for (Bitboard b = pos_pieces_cpt2(pos, c, BISHOP, QUEEN); b;) attacks |= bishop_attacks(pop_lsb(&b), occupied);
    for (Bitboard b = pos_pieces_cpt2(pos, c, ROOK, QUEEN); b;) attacks |= rook_attacks(pop_lsb(&b), occupied);
    return attacks;
}

/* Pieces of either colour standing alone between the king of c and an enemy slider. */
Bitboard pos_slider_blockers(const Position *pos, Color c) {
    Square ksq = pos_king_square(pos, c);
    Color them = color_flip(c);
    Bitboard snipers = (rook_attacks(ksq, 0) & pos_pieces_cpt2(pos, them, ROOK, QUEEN))
                     | (bishop_attacks(ksq, 0) & pos_pieces_cpt2(pos, them, BISHOP, QUEEN));
    Bitboard occupied = pos_pieces(pos) ^ snipers;
    Bitboard blockers = 0;
    while (snipers) {
        Square s = pop_lsb(&snipers);
        Bitboard between = BetweenBB[ksq][s] & occupied;
        if (between && !more_than_one(between)) blockers |= between;
    }
    return blockers;
}

/* Checkers and pins for the side to move: what move generation needs. */
static void update_check_info(Position *pos) {
    Color us = pos->sideToMove;
    Square ksq = pos_king_square(pos, us);
    pos->st->checkers = pos_attackers_to(pos, ksq, pos_pieces(pos)) & pos->byColor[color_flip(us)];
    pos->st->blockers = pos_slider_blockers(pos, us);
    pos->st->checkInfoReady = false;
}

/* ---------------------------------------------------------------- keys */

Key pos_compute_key(const Position *pos) {
    Key key = 0;
    for (Bitboard b = pos_pieces(pos); b;) {
        Square s = pop_lsb(&b);
        key ^= zobrist_piece(pos->board[s], s);
    }
    for (int i = 0; i < 4; i++)
        if (pos->st->castling & (1 << i)) key ^= zobrist_castling_bit(i);
    if (pos->st->epSquare != SQ_NONE) key ^= zobrist_en_passant(pos->st->epSquare);
    if (pos->sideToMove == WHITE) key ^= zobrist_turn();
    return key;
}

Key pos_compute_pawn_key(const Position *pos) {
    Key key = 0;
    for (Bitboard b = pos_pieces_pt(pos, PAWN); b;) {
        Square s = pop_lsb(&b);
        key ^= zobrist_piece(pos->board[s], s);
    }
    return key;
}

Key pos_compute_non_pawn_key(const Position *pos, Color c) {
    Key key = 0;
    for (Bitboard b = pos_pieces_c(pos, c) & ~pos_pieces_pt(pos, PAWN); b;) {
        Square s = pop_lsb(&b);
        key ^= zobrist_piece(pos->board[s], s);
    }
    return key;
}

static Key castling_key(int rights) {
    Key key = 0;
    for (int i = 0; i < 4; i++)
        if (rights & (1 << i)) key ^= zobrist_castling_bit(i);
    return key;
}

void board_init(void) {
    bitboard_init();
    attacks_init();
    /* Zobrist keys are constant data (zobrist.c): nothing to build. */
}

/* ---------------------------------------------------------------- set-up */

void pos_clear(Position *pos, bool chess960) {
    memset(pos, 0, offsetof(Position, states));
    memset(&pos->states[0], 0, sizeof pos->states[0]);
    pos->st = &pos->states[0];
    pos->st->epSquare = SQ_NONE;
    pos->chess960 = chess960;
    for (int i = 0; i < 4; i++) pos->castlingRookSquare[i] = SQ_NONE;
}

void pos_put_piece(Position *pos, Piece pc, Square s) {
    put_piece(pos, pc, s);
}

/* Registers castling right for colour c with the rook on rookSquare. */
void pos_add_castling_right(Position *pos, Color c, Square rookSquare) {
    Square ksq = pos_king_square(pos, c);
    bool kingSide = rookSquare > ksq;
    int right = (c == WHITE ? WHITE_OO : BLACK_OO) << (kingSide ? 0 : 1);
    int idx = castling_index(right);
    Square kingTo = relative_square(c, kingSide ? G1 : C1);
    Square rookTo = relative_square(c, kingSide ? F1 : D1);

    pos->st->castling |= right;
    pos->castlingRookSquare[idx] = rookSquare;
    pos->castlingRightsMask[ksq] |= right;
    pos->castlingRightsMask[rookSquare] |= right;
    pos->castlingPath[idx] = (BetweenBB[ksq][kingTo] | BetweenBB[rookSquare][rookTo])
                           & ~(square_bb(ksq) | square_bb(rookSquare));
    pos->castlingKingPath[idx] = BetweenBB[ksq][kingTo] & ~square_bb(ksq);
}

void pos_finish_setup(Position *pos) {
    pos->st->key = pos_compute_key(pos);
    pos->st->pawnKey = pos_compute_pawn_key(pos);
    for (Color c = WHITE; c <= BLACK; c++) pos->st->nonPawnKey[c] = pos_compute_non_pawn_key(pos, c);
    update_check_info(pos);
}

void pos_copy(Position *dst, const Position *src) {
    size_t used = (size_t)(src->st - src->states) + 1;
    memcpy(dst, src, offsetof(Position, states));
    memcpy(dst->states, src->states, used * sizeof src->states[0]);
    dst->st = dst->states + (used - 1);
}

void pos_copy_without_history(Position *dst, const Position *src) {
    memcpy(dst, src, offsetof(Position, states));
    dst->states[0] = *src->st;
    dst->st = dst->states;
}

/* ---------------------------------------------------------------- make / unmake */

/* King and rook destinations of a castling move (king "captures" its rook). */
static void castling_squares(Color us, Square kingFrom, Square rookFrom, Square *kingTo, Square *rookTo) {
    bool kingSide = rookFrom > kingFrom;
    *kingTo = relative_square(us, kingSide ? G1 : C1);
    *rookTo = relative_square(us, kingSide ? F1 : D1);
}

void pos_do_move(Position *pos, Move m) {
    StateInfo *prev = pos->st, *st = prev + 1;
    Color us = pos->sideToMove, them = color_flip(us);
    Square from = move_from(m), to = move_to(m);
    Piece pc = pos->board[from];
    Key key = prev->key ^ zobrist_turn();

    st->pawnKey = prev->pawnKey;
    st->nonPawnKey[WHITE] = prev->nonPawnKey[WHITE];
    st->nonPawnKey[BLACK] = prev->nonPawnKey[BLACK];
    st->castling = prev->castling;
    st->rule50 = prev->rule50 + 1;
    st->pliesFromNull = prev->pliesFromNull + 1;
    st->epSquare = SQ_NONE;
    st->captured = NO_PIECE;
    st->move = m;
    if (prev->epSquare != SQ_NONE) key ^= zobrist_en_passant(prev->epSquare);

    if (move_kind(m) == MOVE_CASTLING) {
        Square kingTo, rookTo;
        Piece rook = pos->board[to];
        castling_squares(us, from, to, &kingTo, &rookTo);
        remove_piece(pos, from);
        remove_piece(pos, to);
        put_piece(pos, pc, kingTo);
        put_piece(pos, rook, rookTo);
        Key moved = zobrist_piece(pc, from) ^ zobrist_piece(pc, kingTo) ^ zobrist_piece(rook, to) ^ zobrist_piece(rook, rookTo);
        key ^= moved;
        st->nonPawnKey[us] ^= moved;
    } else {
        Square capSq = move_kind(m) == MOVE_EN_PASSANT ? (Square)(to - pawn_push(us)) : to;
        Piece captured = pos->board[capSq];
        if (captured != NO_PIECE) {
            remove_piece(pos, capSq);
            key ^= zobrist_piece(captured, capSq);
            if (piece_type(captured) == PAWN) st->pawnKey ^= zobrist_piece(captured, capSq);
            else st->nonPawnKey[them] ^= zobrist_piece(captured, capSq);
            st->captured = captured;
            st->rule50 = 0;
        }
        move_piece(pos, from, to);
        key ^= zobrist_piece(pc, from) ^ zobrist_piece(pc, to);

        if (piece_type(pc) != PAWN) st->nonPawnKey[us] ^= zobrist_piece(pc, from) ^ zobrist_piece(pc, to);
        else {
            st->rule50 = 0;
            st->pawnKey ^= zobrist_piece(pc, from);
            if (move_kind(m) == MOVE_PROMOTION) {
                Piece promoted = make_piece(us, move_promotion(m));
                remove_piece(pos, to);
                put_piece(pos, promoted, to);
                key ^= zobrist_piece(pc, to) ^ zobrist_piece(promoted, to);
                st->nonPawnKey[us] ^= zobrist_piece(promoted, to);
            } else {
                st->pawnKey ^= zobrist_piece(pc, to);
                /* Polyglot convention: ep counts only when an enemy pawn attacks it. */
                if ((to ^ from) == 16) {
                    Square ep = (Square)(from + pawn_push(us));
                    if (pawn_attacks(us, ep) & pos_pieces_cpt(pos, them, PAWN)) {
                        st->epSquare = ep;
                        key ^= zobrist_en_passant(ep);
                    }
                }
            }
        }
    }

    int lost = st->castling & (pos->castlingRightsMask[from] | pos->castlingRightsMask[to]);
    if (lost) {
        st->castling ^= lost;
        key ^= castling_key(lost);
    }

    st->key = key;
    pos->st = st;
    pos->sideToMove = them;
    pos->gamePly++;
    update_check_info(pos);
}

void pos_undo_move(Position *pos) {
    StateInfo *st = pos->st;
    Move m = st->move;
    Color us = color_flip(pos->sideToMove);
    Square from = move_from(m), to = move_to(m);

    pos->sideToMove = us;
    pos->gamePly--;
    if (move_kind(m) == MOVE_CASTLING) {
        Square kingTo, rookTo;
        castling_squares(us, from, to, &kingTo, &rookTo);
        remove_piece(pos, kingTo);
        remove_piece(pos, rookTo);
        put_piece(pos, make_piece(us, KING), from);
        put_piece(pos, make_piece(us, ROOK), to);
    } else {
        if (move_kind(m) == MOVE_PROMOTION) {
            remove_piece(pos, to);
            put_piece(pos, make_piece(us, PAWN), to);
        }
        move_piece(pos, to, from);
        if (st->captured != NO_PIECE) {
            Square capSq = move_kind(m) == MOVE_EN_PASSANT ? (Square)(to - pawn_push(us)) : to;
            put_piece(pos, st->captured, capSq);
        }
    }
    pos->st = st - 1;
}

void pos_do_null_move(Position *pos) {
    StateInfo *prev = pos->st, *st = prev + 1;
    *st = *prev;
    st->key ^= zobrist_turn();
    if (prev->epSquare != SQ_NONE) st->key ^= zobrist_en_passant(prev->epSquare);
    st->epSquare = SQ_NONE;
    st->rule50++;
    st->pliesFromNull = 0;
    st->captured = NO_PIECE;
    st->move = MOVE_NULL;
    pos->st = st;
    pos->sideToMove = color_flip(pos->sideToMove);
    pos->gamePly++;
    update_check_info(pos);
}

void pos_undo_null_move(Position *pos) {
    pos->st--;
    pos->sideToMove = color_flip(pos->sideToMove);
    pos->gamePly--;
}

void pos_do_game_move(Position *pos, Move m) {
    pos_do_move(pos, m);
    /* Nothing before an irreversible move can repeat: forget it. */
    if (pos->st->rule50 == 0) {
        pos->states[0] = *pos->st;
        pos->st = pos->states;
    } else if (pos->st - pos->states >= MAX_STATES - MAX_PLY - 4) {
        /* Over a thousand reversible plies: keep only the most recent half. */
        int keep = (MAX_STATES - MAX_PLY) / 2;
        memmove(pos->states, pos->st - keep + 1, (size_t)keep * sizeof pos->states[0]);
        pos->st = pos->states + keep - 1;
    }
}

Key pos_key_after(const Position *pos, Move m) {
    Square from = move_from(m), to = move_to(m);
    Piece pc = pos->board[from], captured = pos->board[to];
    Key key = pos->st->key ^ zobrist_turn() ^ zobrist_piece(pc, from) ^ zobrist_piece(pc, to);
    if (captured != NO_PIECE && move_kind(m) != MOVE_CASTLING) key ^= zobrist_piece(captured, to);
    return key;
}

/* ---------------------------------------------------------------- legality */

/* Castling right index (0..3) for a king-takes-rook move, or -1. */
static int castling_right_of(const Position *pos, Color us, Square rookSquare) {
    for (int i = 2 * (int)us; i < 2 * (int)us + 2; i++)
        if ((pos->st->castling & (1 << i)) && pos->castlingRookSquare[i] == rookSquare) return i;
    return -1;
}

bool pos_castling_is_legal(const Position *pos, int idx) {
    Color us = idx < 2 ? WHITE : BLACK, them = color_flip(us);
    Bitboard occupied = pos_pieces(pos);
    if (pos->st->checkers || (occupied & pos->castlingPath[idx])) return false;
    Square kingFrom = pos_king_square(pos, us), rookFrom = pos->castlingRookSquare[idx];
    Square kingTo, rookTo;
    castling_squares(us, kingFrom, rookFrom, &kingTo, &rookTo);
    Bitboard enemies = pos->byColor[them];
    /* Squares the king crosses, then its destination once the rook has left its square. */
    for (Bitboard path = pos->castlingKingPath[idx] & ~square_bb(kingTo); path;)
        if (pos_attackers_to(pos, pop_lsb(&path), occupied) & enemies) return false;
    Bitboard after = (occupied ^ square_bb(kingFrom) ^ square_bb(rookFrom)) | square_bb(rookTo) | square_bb(kingTo);
    return !(pos_attackers_to(pos, kingTo, after) & enemies);
}

/* Can the piece on from reach to by its own movement rules (ignoring pins and checks)? */
static bool pseudo_reaches(const Position *pos, Move m, Piece pc) {
    Color us = pos->sideToMove;
    Square from = move_from(m), to = move_to(m);
    Bitboard occupied = pos_pieces(pos), toBB = square_bb(to);
    bool lastRank = relative_rank(us, to) == RANK_8;

    if (piece_type(pc) != PAWN) return move_kind(m) == MOVE_NORMAL && (piece_attacks(piece_type(pc), from, occupied) & toBB);
    if (move_kind(m) == MOVE_EN_PASSANT) return to == pos->st->epSquare && (pawn_attacks(us, from) & toBB);
    if (lastRank != (move_kind(m) == MOVE_PROMOTION)) return false;
    if (pawn_attacks(us, from) & pos->byColor[color_flip(us)] & toBB) return true;
    if (occupied & toBB) return false;
    if (to == from + pawn_push(us)) return true;
    return to == from + 2 * pawn_push(us) && relative_rank(us, from) == RANK_2
        && !(occupied & square_bb((Square)(from + pawn_push(us))));
}

bool pos_is_legal(const Position *pos, Move m) {
    if (!move_is_ok(m)) return false;
    Color us = pos->sideToMove;
    Square from = move_from(m), to = move_to(m);
    Piece pc = pos->board[from];
    if (pc == NO_PIECE || piece_color(pc) != us || from == to) return false;
    /* Only promotions carry a promotion piece: one move, one 16-bit code. */
    if (move_kind(m) != MOVE_PROMOTION && (m & 0x3000)) return false;

    if (move_kind(m) == MOVE_CASTLING) {
        if (piece_type(pc) != KING) return false;
        int idx = castling_right_of(pos, us, to);
        return idx >= 0 && pos_castling_is_legal(pos, idx);
    }
    if (pos->byColor[us] & square_bb(to)) return false;
    if (!pseudo_reaches(pos, m, pc)) return false;

    Square ksq = pos_king_square(pos, us);
    Bitboard occupied = pos_pieces(pos), enemies = pos->byColor[color_flip(us)];
    if (piece_type(pc) == KING)
        return !(pos_attackers_to(pos, to, occupied ^ square_bb(from)) & enemies);
    if (move_kind(m) == MOVE_EN_PASSANT) {
        Square capSq = (Square)(to - pawn_push(us));
        Bitboard after = (occupied ^ square_bb(from) ^ square_bb(capSq)) | square_bb(to);
        return !(pos_attackers_to(pos, ksq, after) & enemies & ~square_bb(capSq));
    }
    Bitboard checkers = pos->st->checkers;
    if (checkers && (more_than_one(checkers) || !(BetweenBB[ksq][lsb(checkers)] & square_bb(to)))) return false;
    return !(pos->st->blockers & square_bb(from)) || aligned(ksq, from, to);
}

/* The state's checking squares and discoverers, computed once per position (the state is the cache). */
static const StateInfo *check_info(const Position *pos) {
    StateInfo *st = pos->st;
    if (st->checkInfoReady) return st;
    Color us = pos->sideToMove, them = color_flip(us);
    Square ksq = pos_king_square(pos, them);
    Bitboard occupied = pos_pieces(pos);
    st->checkSquares[PAWN] = pawn_attacks(them, ksq);
    st->checkSquares[KNIGHT] = knight_attacks(ksq);
    st->checkSquares[BISHOP] = bishop_attacks(ksq, occupied);
    st->checkSquares[ROOK] = rook_attacks(ksq, occupied);
    st->checkSquares[QUEEN] = st->checkSquares[BISHOP] | st->checkSquares[ROOK];
    st->checkSquares[KING] = 0;
    st->discoverers = pos_slider_blockers(pos, them) & pos->byColor[us];
    st->checkInfoReady = true;
    return st;
}

bool pos_gives_check(const Position *pos, Move m) {
    Color us = pos->sideToMove;
    Square from = move_from(m), to = move_to(m);
    Square ksq = pos_king_square(pos, color_flip(us));
    if (move_kind(m) == MOVE_NORMAL) {
        /* A slider's attacks from `to` cannot pass through `from` towards the king: it would
         * have been giving check already. */
        const StateInfo *ci = check_info(pos);
        return (ci->checkSquares[piece_type(pos->board[from])] & square_bb(to))
            || ((ci->discoverers & square_bb(from)) && !aligned(from, to, ksq));
    }
    Bitboard occupied = pos_pieces(pos);
    Bitboard ours = pos->byColor[us];

    if (move_kind(m) == MOVE_CASTLING) {
        Square kingTo, rookTo;
        castling_squares(us, from, to, &kingTo, &rookTo);
        Bitboard after = (occupied ^ square_bb(from) ^ square_bb(to)) | square_bb(kingTo) | square_bb(rookTo);
        return (rook_attacks(rookTo, after) & square_bb(ksq)) != 0;
    }
    PieceType pt = move_kind(m) == MOVE_PROMOTION ? move_promotion(m) : piece_type(pos->board[from]);
    Bitboard after = (occupied ^ square_bb(from)) | square_bb(to);
    if (move_kind(m) == MOVE_EN_PASSANT) after ^= square_bb((Square)(to - pawn_push(us)));

    Bitboard direct = pt == PAWN ? pawn_attacks(us, to) : piece_attacks(pt, to, after);
    if (direct & square_bb(ksq)) return true;
    Bitboard sliders = ours & ~square_bb(from);
    return ((bishop_attacks(ksq, after) & sliders & (pos->byType[BISHOP] | pos->byType[QUEEN]))
          | (rook_attacks(ksq, after) & sliders & (pos->byType[ROOK] | pos->byType[QUEEN]))) != 0;
}

/* ---------------------------------------------------------------- SEE */

/* The least valuable attacker of colour c in attackers; removes it from occupied. */
static PieceType pop_least_valuable(const Position *pos, Bitboard attackers, Color c, Bitboard *occupied) {
    for (PieceType pt = PAWN; pt <= KING; pt++) {
        Bitboard b = attackers & pos_pieces_cpt(pos, c, pt);
        if (b) {
            *occupied ^= b & -b;
            return pt;
        }
    }
    return NO_PIECE_TYPE;
}

bool pos_see_ge(const Position *pos, Move m, int threshold) {
    if (move_kind(m) != MOVE_NORMAL) return threshold <= 0;
    Square from = move_from(m), to = move_to(m);
    int swap = SeeValue[piece_type(pos->board[to])] - threshold;
    if (swap < 0) return false;
    swap = SeeValue[piece_type(pos->board[from])] - swap;
    if (swap <= 0) return true;

    Bitboard occupied = pos_pieces(pos) ^ square_bb(from) ^ square_bb(to);
    Bitboard attackers = pos_attackers_to(pos, to, occupied);
    Bitboard diagonal = pos->byType[BISHOP] | pos->byType[QUEEN];
    Bitboard straight = pos->byType[ROOK] | pos->byType[QUEEN];
    Color side = pos->sideToMove;
    int result = 1;

    /* Alternate captures with the least valuable attacker; x-rays join as pieces leave. */
    for (;;) {
        side = color_flip(side);
        attackers &= occupied;
        Bitboard mine = attackers & pos->byColor[side];
        if (!mine) break;
        result ^= 1;
        PieceType pt = pop_least_valuable(pos, mine, side, &occupied);
        if (pt == KING) return (attackers & pos->byColor[color_flip(side)] & occupied) ? result ^ 1 : result;
        swap = SeeValue[pt] - swap;
        if (swap < result) break;
        if (pt == PAWN || pt == BISHOP || pt == QUEEN) attackers |= bishop_attacks(to, occupied) & diagonal;
        if (pt == ROOK || pt == QUEEN) attackers |= rook_attacks(to, occupied) & straight;
    }
    return result != 0;
}

/* ---------------------------------------------------------------- draws */

bool pos_is_repetition(const Position *pos, int ply) {
    const StateInfo *st = pos->st;
    int end = st->rule50 < st->pliesFromNull ? st->rule50 : st->pliesFromNull;
    int available = (int)(st - pos->states);
    if (end > available) end = available;
    int seen = 0;
    for (int i = 4; i <= end; i += 2) {
        if ((st - i)->key != st->key) continue;
        /* Inside the search tree one repetition is enough; before it, a third occurrence is needed. */
        if (i < ply || ++seen == 2) return true;
    }
    return false;
}

bool pos_is_threefold(const Position *pos) {
    return pos_is_repetition(pos, 0);
}

bool pos_insufficient_material(const Position *pos) {
    if (pos->byType[PAWN] | pos->byType[ROOK] | pos->byType[QUEEN]) return false;
    Bitboard minors = pos->byType[KNIGHT] | pos->byType[BISHOP];
    if (!more_than_one(minors)) return true;
    /* Only bishops, all on one colour of square: no mate is possible. */
    Bitboard bishops = pos->byType[BISHOP];
    return !pos->byType[KNIGHT] && (!(bishops & DARK_SQUARES_BB) || !(bishops & ~DARK_SQUARES_BB));
}
