/*
 * The functions that judge moves without the move generator, each compared
 * with gen_legal's list at one position: pos_is_legal (TT, killer and book
 * moves), pos_gives_check, SEE, SAN both ways and move_from_uci (how the
 * match referee reads an engine's move). Each records every case it
 * checks in a Property (tests/test.h), so a caller counts one check per
 * property over as many positions as it likes. Board layer only.
 */
#ifndef GIZUM_TEST_MOVE_CHECKS_H
#define GIZUM_TEST_MOVE_CHECKS_H

#include <limits.h>
#include <string.h>

#include "epd.h"
#include "fen.h"
#include "movegen.h"
#include "notation.h"
#include "position.h"
#include "test.h"

/* pos_is_legal(v) holds exactly for the listed moves, over all 65536 values. */
static inline void expect_is_legal_exact(const Position *pos, const MoveList *legal, Property *p) {
    static uint8_t listed[65536 / 8];
    char fen[128], uci[8];
    memset(listed, 0, sizeof listed);
    for (int i = 0; i < legal->count; i++) listed[legal->moves[i] >> 3] |= (uint8_t)(1 << (legal->moves[i] & 7));
    int wrong = 0;
    unsigned first = 0;
    for (unsigned v = 0; v < 65536; v++)
        if (pos_is_legal(pos, (Move)v) != ((listed[v >> 3] >> (v & 7)) & 1) && wrong++ == 0) first = v;
    if (wrong) move_to_uci((Move)first, pos->chess960, uci);
    EXPECT(p, wrong == 0,
           "pos_is_legal is wrong on %d of 65536 values at %s, first 0x%04x (%s, kind %d, promotion bits %u): "
           "%s by the generator",
           wrong, fen_of(pos, fen), first, uci, move_kind((Move)first) >> 14, (first >> 12) & 3,
           (listed[first >> 3] >> (first & 7)) & 1 ? "listed" : "not listed");
}

/* pos_gives_check(m) tells whether playing m checks. */
static inline void expect_gives_check(Position *pos, const MoveList *legal, Property *p) {
    for (int i = 0; i < legal->count; i++) {
        Move m = legal->moves[i];
        bool said = pos_gives_check(pos, m);
        pos_do_move(pos, m);
        bool checks = pos_in_check(pos);
        pos_undo_move(pos);
        char fen[128], uci[8] = "";
        if (said != checks) move_to_uci(m, pos->chess960, uci);
        EXPECT(p, said == checks, "pos_gives_check(%s) is %d but the move %s check at %s", uci, said,
               checks ? "gives" : "does not give", fen_of(pos, fen));
    }
}

/*
 * Every move's SAN reads back as that move, and no two moves share a SAN
 * (so no other move can read as it). sans (MAX_MOVES entries, may be NULL)
 * receives the SANs in list order.
 */
static inline void expect_san_round_trip(Position *pos, const MoveList *legal, char (*sans)[16], Property *back,
                                         Property *distinct) {
    static char own[MAX_MOVES][16];
    char fen[128];
    if (!sans) sans = own;
    fen_of(pos, fen);
    for (int i = 0; i < legal->count; i++) {
        memset(sans[i], 0, 16);
        move_to_san(pos, legal->moves[i], sans[i]);
        Move read = move_from_san(pos, sans[i]);
        EXPECT(back, read == legal->moves[i], "SAN round trip at %s: '%s' read back as %d, expected %d", fen, sans[i],
               read, legal->moves[i]);
    }
    for (int i = 0; i < legal->count; i++)
        for (int j = i + 1; j < legal->count; j++)
            EXPECT(distinct, strcmp(sans[i], sans[j]) != 0, "moves %d and %d share SAN '%s' at %s", legal->moves[i],
                   legal->moves[j], sans[i], fen);
}

/* The listed move written as text in UCI (either castling style when alias), or MOVE_NONE. */
static inline Move listed_uci(const Position *pos, const MoveList *legal, const char *text, bool alias) {
    char uci[8];
    for (int i = 0; i < legal->count; i++) {
        move_to_uci(legal->moves[i], pos->chess960, uci);
        if (!strcmp(uci, text)) return legal->moves[i];
        move_to_uci(legal->moves[i], true, uci);
        if (alias && move_kind(legal->moves[i]) == MOVE_CASTLING && !strcmp(uci, text)) return legal->moves[i];
    }
    return MOVE_NONE;
}

/*
 * move_from_uci accepts exactly the listed moves' UCI texts (in standard
 * chess castling also as king takes rook), each as its own move: every
 * text from a square of the side to move, to any square, with and without
 * a promotion letter.
 */
static inline void expect_uci_exact(const Position *pos, const MoveList *legal, Property *p) {
    static const char *const Suffixes[] = {"", "q", "r", "b", "n"};
    char text[8], fen[128];
    for (Bitboard from = pos->byColor[pos->sideToMove]; from;) {
        Square s = pop_lsb(&from);
        for (Square to = A1; to <= H8; to++)
            for (int k = 0; k < 5; k++) {
                square_to_text(s, text);
                square_to_text(to, text + 2);
                strcpy(text + 4, Suffixes[k]);
                Move want = listed_uci(pos, legal, text, !pos->chess960), got = move_from_uci(pos, text);
                EXPECT(p, got == want, "move_from_uci(\"%s\") is %d, the generator's move is %d, at %s", text, got, want,
                       fen_of(pos, fen));
            }
    }
}

/* ---------------------------------------------------------------- SEE */

/*
 * The pieces of the side to move that SEE lets capture on `to`: every
 * attacker through the current occupancy, pins and checks ignored, the
 * king only onto an undefended square.
 */
static inline Bitboard see_capturers(const Position *pos, Square to) {
    Color us = pos->sideToMove;
    Square ksq = pos_king_square(pos, us);
    Bitboard capturers = pos_attackers_to(pos, to, pos_pieces(pos)) & pos->byColor[us];
    if ((capturers & square_bb(ksq)) &&
        (pos_attackers_to(pos, to, pos_pieces(pos) ^ square_bb(ksq)) & pos->byColor[color_flip(us)]))
        capturers ^= square_bb(ksq);
    return capturers;
}

/* What an exchange is worth to the side to move: lo..hi, as the choice between equal capturers goes. */
typedef struct {
    int lo, hi;
} ExchangeRange;

/*
 * SEE's exchange on `to` played out with the generator's legal moves: each
 * side either stops or captures with its least valuable capturer. Which of
 * several capturers of that value goes first is SEE's own choice (it can
 * open different x-rays), so the value is a range over those choices.
 * *inModel is cleared where the legal captures are not SEE's (a pin, a
 * check, a promotion): SEE does not claim those. (Least valuable first is
 * SEE's definition, not always the best order: at 2Rq2k1/8/8/8/8/8/8/5Q1K w
 * Qf8+ is worth -950 as Kxf8 answers it, while SEE's order plays Qxf8 Rxf8+
 * Kxf8 for -500; that is SEE's known blind spot, not tested here.)
 */
static inline ExchangeRange exchange_range(Position *pos, Square to, bool *inModel) {
    MoveList list;
    gen_legal(pos, &list);
    Bitboard capturers = 0;
    PieceType least = NO_PIECE_TYPE;
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        if (move_to(m) != to || move_kind(m) == MOVE_CASTLING) continue;
        if (move_kind(m) != MOVE_NORMAL) *inModel = false;
        capturers |= square_bb(move_from(m));
        PieceType pt = piece_type(pos->board[move_from(m)]);
        if (least == NO_PIECE_TYPE || pt < least) least = pt;
    }
    if (capturers != see_capturers(pos, to)) *inModel = false;
    /* Under any one choice the side takes max(0, gain - the rest); over the choices that spans lo..hi. */
    int gain = SeeValue[piece_type(pos->board[to])], worst = INT_MAX, best = INT_MIN;
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        if (move_to(m) != to || move_kind(m) == MOVE_CASTLING || piece_type(pos->board[move_from(m)]) != least)
            continue;
        pos_do_move(pos, m);
        ExchangeRange rest = exchange_range(pos, to, inModel);
        pos_undo_move(pos);
        if (gain - rest.hi < worst) worst = gain - rest.hi;
        if (gain - rest.lo > best) best = gain - rest.lo;
    }
    ExchangeRange r = {0, 0};
    if (least != NO_PIECE_TYPE) r = (ExchangeRange){worst > 0 ? worst : 0, best > 0 ? best : 0};
    return r;
}

/*
 * pos_see_ge(m, t) holds for t up to the exchange value of m (its capture,
 * then SEE's exchange on its square: exchange_range) and not above, for
 * every plain move whose exchange SEE models. inModel/outOfModel count the
 * moves compared and skipped.
 */
static inline void expect_see(Position *pos, const MoveList *legal, Property *p, long *inModel, long *outOfModel) {
    for (int i = 0; i < legal->count; i++) {
        Move m = legal->moves[i];
        if (move_kind(m) != MOVE_NORMAL) continue;
        Square to = move_to(m);
        bool modelled = true;
        int gain = SeeValue[piece_type(pos->board[to])];
        pos_do_move(pos, m);
        ExchangeRange rest = exchange_range(pos, to, &modelled);
        pos_undo_move(pos);
        if (!modelled) {
            ++*outOfModel;
            continue;
        }
        ++*inModel;
        int lo = gain - rest.hi, hi = gain - rest.lo;
        bool geLo = pos_see_ge(pos, m, lo), aboveHi = pos_see_ge(pos, m, hi + 1);
        char fen[128], uci[8] = "";
        if (!geLo || aboveHi) move_to_uci(m, pos->chess960, uci);
        EXPECT(p, geLo && !aboveHi,
               "SEE of %s at %s: the exchange is worth %d..%d but pos_see_ge(%d) = %d, pos_see_ge(%d) = %d", uci,
               fen_of(pos, fen), lo, hi, lo, geLo, hi + 1, aboveHi);
    }
}

#endif
