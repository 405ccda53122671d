/*
 * Slider lookups (magic or PEXT, whichever this build uses) against a plain
 * ray walk, for every square and many random occupancies; leaper tables and
 * the between/line masks against their definitions.
 */
#include <stdlib.h>

#include "attacks.h"
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

int main(void) {
    static const int Rook[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    static const int Bishop[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    bitboard_init();
    attacks_init();

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
    return test_report();
}
