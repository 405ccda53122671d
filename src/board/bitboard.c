#include "bitboard.h"

#include <stdlib.h>

Bitboard BetweenBB[SQUARE_NB][SQUARE_NB];
Bitboard LineBB[SQUARE_NB][SQUARE_NB];
uint8_t SquareDistance[SQUARE_NB][SQUARE_NB];

/* Walks from a towards b in steps of (df, dr); the squares passed, b included. */
static Bitboard ray_until(Square a, Square b, int df, int dr) {
    Bitboard ray = 0;
    int f = file_of(a) + df, r = rank_of(a) + dr;
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
        Square s = make_square(f, r);
        ray |= square_bb(s);
        if (s == b) return ray;
        f += df, r += dr;
    }
    return 0;
}

/* The whole line through a in direction (df, dr), both ways, a included. */
static Bitboard full_line(Square a, int df, int dr) {
    Bitboard line = square_bb(a);
    for (int sign = -1; sign <= 1; sign += 2) {
        int f = file_of(a) + sign * df, r = rank_of(a) + sign * dr;
        for (; f >= 0 && f < 8 && r >= 0 && r < 8; f += sign * df, r += sign * dr)
            line |= square_bb(make_square(f, r));
    }
    return line;
}

void bitboard_init(void) {
    static const int Directions[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}};
    for (Square a = A1; a <= H8; a++) {
        for (Square b = A1; b <= H8; b++) {
            int df = abs(file_of(a) - file_of(b)), dr = abs(rank_of(a) - rank_of(b));
            SquareDistance[a][b] = (uint8_t)(df > dr ? df : dr);
            /* Between includes b itself, so "between king and checker" is the check-blocking mask. */
            BetweenBB[a][b] = square_bb(b);
            LineBB[a][b] = 0;
        }
        for (int d = 0; d < 8; d++) {
            int df = Directions[d][0], dr = Directions[d][1];
            for (Square b = A1; b <= H8; b++) {
                Bitboard ray = ray_until(a, b, df, dr);
                if (ray) {
                    BetweenBB[a][b] = ray;
                    LineBB[a][b] = full_line(a, df, dr);
                }
            }
        }
    }
}
