/*
 * Slider lookups (magic or PEXT, whichever this build uses) against a plain
 * ray walk, for every square and many random occupancies; leaper tables and
 * the between/line masks against their definitions; a side's attacked
 * squares (pos_attacks_by) against the attackers of each square.
 */
#include <stdlib.h>

#include "attacks.h"
#include "fen.h"
#include "position.h"
#include "test.h"

static Bitboard ray_walk(Square s, Bitboard occupied, const int steps[4][2]) {
    Bitboard attacks = 0;
    for (int d = 0; d < 4; d++)
        for (int f = file_of(s) + steps[d][0], r = rank_of(s) + steps[d][1]; f >= 0 && f < 8 && r >= 0 && r < 8;
             f += steps[d][0], r += steps[d][1]) {
            attacks |= square_bb(make_square(f, r));
            if (occupied & square_bb(make_square(f, r))) break;
        }
    return attacks;
}

static uint64_t rng_state = 0x12345678ULL;
static uint64_t rng(void) {
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return rng_state;
}

/* pos_attacks_by: a hand-counted case, then every square of varied positions against pos_attackers_to. */
static void check_attacks_by(void) {
    static const char *const Fens[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r1bq1rk1/pp2nppp/2n1p3/3pP3/1b1P4/2NB1N2/PP3PPP/R1BQK2R w KQ - 0 9",
        "4k3/8/8/3Q4/8/8/8/4K3 b - - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    };
    Position pos;
    char err[128];
    pos_set_startpos(&pos, false);
    /* White attacks all of ranks 2 and 3 and rank 1 but the corners: 22 squares. */
    Bitboard white = pos_attacks_by(&pos, WHITE);
    CHECK(popcount(white) == 22 && !(white & (square_bb(A1) | square_bb(H1))),
          "start position: white attacks %d squares, expected 22 (all but a1 and h1 up to rank 3)", popcount(white));
    Property same = {0};
    for (size_t i = 0; i < sizeof Fens / sizeof Fens[0]; i++) {
        if (!pos_set_fen(&pos, Fens[i], false, err, sizeof err)) {
            EXPECT(&same, false, "%s: %s", Fens[i], err);
            continue;
        }
        for (Color c = WHITE; c <= BLACK; c++)
            for (Square s = A1; s <= H8; s++) {
                bool attacked = (pos_attackers_to(&pos, s, pos_pieces(&pos)) & pos_pieces_c(&pos, c)) != 0;
                EXPECT(&same, attacked == ((pos_attacks_by(&pos, c) >> s) & 1), "%s: colour %d, square %d", Fens[i],
                       c, s);
            }
    }
    CHECK_PROPERTY(&same);
}

int main(void) {
    static const int Rook[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    static const int Bishop[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    board_init();

    int rookBad = 0, bishopBad = 0;
    for (Square s = A1; s <= H8; s++)
        for (int i = 0; i < 3000; i++) {
            /* Mix dense and sparse boards so every mask bit is exercised both ways. */
            Bitboard occ = i % 3 == 0 ? rng() : i % 3 == 1 ? rng() & rng() : rng() & rng() & rng();
            rookBad += rook_attacks(s, occ) != ray_walk(s, occ, Rook);
            bishopBad += bishop_attacks(s, occ) != ray_walk(s, occ, Bishop);
        }
    CHECK(rookBad == 0, "%d wrong rook attack sets", rookBad);
    CHECK(bishopBad == 0, "%d wrong bishop attack sets", bishopBad);

    CHECK(knight_attacks(A1) == (square_bb(B3) | square_bb(C2)), "knight a1");
    CHECK(popcount(knight_attacks(D4)) == 8, "knight d4");
    CHECK(popcount(king_attacks(H8)) == 3 && popcount(king_attacks(E4)) == 8, "king attacks");
    CHECK(pawn_attacks(WHITE, E4) == (square_bb(D5) | square_bb(F5)), "white pawn e4");
    CHECK(pawn_attacks(BLACK, A5) == square_bb(B4), "black pawn a5");
    CHECK(BetweenBB[A1][H8] == (ray_walk(A1, square_bb(H8), Bishop) & LineBB[A1][H8]), "between a1-h8");
    CHECK(BetweenBB[E1][E8] == (file_bb(FILE_E) & ~rank_bb(RANK_1)), "between e1-e8");
    CHECK(BetweenBB[A1][B3] == square_bb(B3), "between of unaligned squares is the target only");
    CHECK(LineBB[B2][C3] == LineBB[A1][H8] && LineBB[A1][B3] == 0, "line masks");
    CHECK(distance(A1, H8) == 7 && distance(E4, F6) == 2, "distance");
    check_attacks_by();
    return test_report();
}
