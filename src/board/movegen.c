#include "movegen.h"

#include <assert.h>

typedef enum { GEN_ALL, GEN_NOISY, GEN_QUIET } GenType;

/*
 * Where generated moves go. perft's last ply only needs their number, so a
 * sink without a buffer counts target sets with popcount instead of listing
 * them; the generator is inlined for each use, so the test costs nothing.
 */
typedef struct {
    Move *moves; /* NULL: count only */
    int count;
} Sink;

static inline void add_move(Sink *sink, Move m) {
    if (sink->moves) sink->moves[sink->count] = m;
    sink->count++;
}

static inline void add_promotions(Sink *sink, Square from, Square to) {
    if (!sink->moves) {
        sink->count += 4;
        return;
    }
    add_move(sink, make_promotion(from, to, QUEEN));
    add_move(sink, make_promotion(from, to, KNIGHT));
    add_move(sink, make_promotion(from, to, ROOK));
    add_move(sink, make_promotion(from, to, BISHOP));
}

/* A move from..to for every to in targets. */
static inline void add_targets(Sink *sink, Square from, Bitboard targets) {
    if (!sink->moves) {
        sink->count += popcount(targets);
        return;
    }
    while (targets) add_move(sink, make_move(from, pop_lsb(&targets)));
}

/* Moves from..to for every to in targets, with a fixed offset from = to - offset. */
static inline void add_shifted(Sink *sink, Bitboard targets, int offset) {
    if (!sink->moves) {
        sink->count += popcount(targets);
        return;
    }
    while (targets) {
        Square to = pop_lsb(&targets);
        add_move(sink, make_move((Square)(to - offset), to));
    }
}

static inline void add_shifted_promotions(Sink *sink, Bitboard targets, int offset) {
    if (!sink->moves) {
        sink->count += 4 * popcount(targets);
        return;
    }
    while (targets) {
        Square to = pop_lsb(&targets);
        add_promotions(sink, (Square)(to - offset), to);
    }
}

/* Pawns not pinned to the king, all at once with shifts. */
static inline void gen_free_pawns(const Position *pos, Sink *list, GenType type, Bitboard pawns, Bitboard checkMask) {
    Color us = pos->sideToMove;
    int up = pawn_push(us);
    Bitboard empty = ~pos_pieces(pos), enemies = pos->byColor[color_flip(us)];
    Bitboard rank7 = rank_bb(us == WHITE ? RANK_7 : RANK_2), rank3 = rank_bb(us == WHITE ? RANK_3 : RANK_6);
    Bitboard promoting = pawns & rank7, others = pawns & ~rank7;

    if (type != GEN_NOISY) {
        Bitboard single = shift_up(us, others) & empty;
        Bitboard twice = shift_up(us, single & rank3) & empty;
        add_shifted(list, single & checkMask, up);
        add_shifted(list, twice & checkMask, 2 * up);
    }
    if (type != GEN_QUIET) {
        Bitboard east = shift_east(shift_up(us, others)) & enemies & checkMask;
        Bitboard west = shift_west(shift_up(us, others)) & enemies & checkMask;
        add_shifted(list, east, up + 1);
        add_shifted(list, west, up - 1);
        if (promoting) {
            add_shifted_promotions(list, shift_up(us, promoting) & empty & checkMask, up);
            add_shifted_promotions(list, shift_east(shift_up(us, promoting)) & enemies & checkMask, up + 1);
            add_shifted_promotions(list, shift_west(shift_up(us, promoting)) & enemies & checkMask, up - 1);
        }
    }
}

/* A pawn pinned to the king may only move along the pin line. */
static void gen_pinned_pawn(const Position *pos, Sink *list, GenType type, Square from, Bitboard pinLine) {
    Color us = pos->sideToMove;
    Bitboard empty = ~pos_pieces(pos), enemies = pos->byColor[color_flip(us)];
    Bitboard pushes = shift_up(us, square_bb(from)) & empty;
    if (pushes && relative_rank(us, from) == RANK_2) pushes |= shift_up(us, pushes) & empty;
    Bitboard targets = ((pushes) | (pawn_attacks(us, from) & enemies)) & pinLine;
    bool promotion = relative_rank(us, from) == RANK_7;

    while (targets) {
        Square to = pop_lsb(&targets);
        bool capture = (enemies & square_bb(to)) != 0;
        if (promotion) {
            if (type != GEN_QUIET) add_promotions(list, from, to);
        } else if (capture ? type != GEN_QUIET : type != GEN_NOISY) {
            add_move(list, make_move(from, to));
        }
    }
}

/* En passant: rare, so checked by playing it out on the occupancy. */
static void gen_en_passant(const Position *pos, Sink *list) {
    Square ep = pos->st->epSquare;
    if (ep == SQ_NONE) return;
    Color us = pos->sideToMove;
    Square ksq = pos_king_square(pos, us), capSq = (Square)(ep - pawn_push(us));
    Bitboard enemies = pos->byColor[color_flip(us)];
    for (Bitboard b = pawn_attacks(color_flip(us), ep) & pos_pieces_cpt(pos, us, PAWN); b;) {
        Square from = pop_lsb(&b);
        Bitboard after = (pos_pieces(pos) ^ square_bb(from) ^ square_bb(capSq)) | square_bb(ep);
        if (!(pos_attackers_to(pos, ksq, after) & enemies & ~square_bb(capSq)))
            add_move(list, make_special(from, ep, MOVE_EN_PASSANT));
    }
}

static inline void gen_pieces(const Position *pos, Sink *list, Bitboard targets) {
    Color us = pos->sideToMove;
    Square ksq = pos_king_square(pos, us);
    Bitboard occupied = pos_pieces(pos), pinned = pos->st->blockers & pos->byColor[us];
    Bitboard pieces = pos->byColor[us] & ~(pos->byType[PAWN] | pos->byType[KING]);
    /* A pinned knight can never move; other pinned pieces stay on the pin line. */
    pieces &= ~(pinned & pos->byType[KNIGHT]);
    while (pieces) {
        Square from = pop_lsb(&pieces);
        Bitboard attacks = piece_attacks(piece_type(pos->board[from]), from, occupied) & targets;
        if (pinned & square_bb(from)) attacks &= LineBB[ksq][from];
        add_targets(list, from, attacks);
    }
}

static inline void gen_king(const Position *pos, Sink *list, Bitboard targets) {
    Color us = pos->sideToMove;
    Square ksq = pos_king_square(pos, us);
    Bitboard occupied = pos_pieces(pos) ^ square_bb(ksq), enemies = pos->byColor[color_flip(us)];
    for (Bitboard b = king_attacks(ksq) & targets; b;) {
        Square to = pop_lsb(&b);
        if (!(pos_attackers_to(pos, to, occupied) & enemies)) add_move(list, make_move(ksq, to));
    }
}

static void gen_castling(const Position *pos, Sink *list) {
    Color us = pos->sideToMove;
    Square ksq = pos_king_square(pos, us);
    for (int idx = 2 * (int)us; idx < 2 * (int)us + 2; idx++)
        if ((pos->st->castling & (1 << idx)) && pos_castling_is_legal(pos, idx))
            add_move(list, make_special(ksq, pos->castlingRookSquare[idx], MOVE_CASTLING));
}

static inline __attribute__((always_inline)) void generate(const Position *pos, Sink *list, GenType type) {
    Color us = pos->sideToMove;
    Square ksq = pos_king_square(pos, us);
    Bitboard ours = pos->byColor[us], enemies = pos->byColor[color_flip(us)];
    Bitboard checkers = pos->st->checkers;
    Bitboard wanted = type == GEN_ALL ? ~ours : type == GEN_NOISY ? enemies : ~pos_pieces(pos);

    gen_king(pos, list, wanted & ~ours);
    if (more_than_one(checkers)) return;

    Bitboard checkMask = checkers ? BetweenBB[ksq][lsb(checkers)] : ~0ULL;
    Bitboard pinned = pos->st->blockers & ours;
    Bitboard pawns = pos_pieces_cpt(pos, us, PAWN);

    gen_pieces(pos, list, wanted & checkMask);
    gen_free_pawns(pos, list, type, pawns & ~pinned, checkMask);
    /* A pinned pawn may still answer a check: the blockers are found with every
     * enemy slider lifted off the board, so a pawn behind a checking slider on the
     * same line counts as pinned by the slider behind it (6rQ/6p1/5B2/4k3 b: g7
     * "pinned" by h8 through the checking f6). Taking the checker keeps it on its
     * pin line, so pin line and check mask together give exactly its legal moves;
     * for a truly pinned pawn the two lines meet only at the king: no move. */
    for (Bitboard b = pawns & pinned; b;) {
        Square from = pop_lsb(&b);
        gen_pinned_pawn(pos, list, type, from, LineBB[ksq][from] & checkMask);
    }
    if (type != GEN_QUIET) gen_en_passant(pos, list);
    if (type != GEN_NOISY && !checkers) gen_castling(pos, list);
}

static void generate_into(const Position *pos, MoveList *list, GenType type) {
    Sink sink = {list->moves, 0};
    generate(pos, &sink, type);
    list->count = sink.count;
}

void gen_legal(const Position *pos, MoveList *list) {
    generate_into(pos, list, GEN_ALL);
}

void gen_noisy(const Position *pos, MoveList *list) {
    generate_into(pos, list, GEN_NOISY);
}

void gen_quiets(const Position *pos, MoveList *list) {
    generate_into(pos, list, GEN_QUIET);
}

void gen_evasions(const Position *pos, MoveList *list) {
    assert(pos_in_check(pos));
    generate_into(pos, list, GEN_ALL);
}

int count_legal(const Position *pos) {
    Sink sink = {NULL, 0};
    generate(pos, &sink, GEN_ALL);
    return sink.count;
}
