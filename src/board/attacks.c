#include "attacks.h"

#include <string.h>

#include "magics.h"

Bitboard PawnAttacks[COLOR_NB][SQUARE_NB];
Bitboard KnightAttacks[SQUARE_NB];
Bitboard KingAttacks[SQUARE_NB];
Magic BishopMagics[SQUARE_NB];
Magic RookMagics[SQUARE_NB];

/* Fancy magic tables: each square's slice is sized by its own relevant-bit count. */
static Bitboard RookTable[0x19000];
static Bitboard BishopTable[0x1480];

static const int RookSteps[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int BishopSteps[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

/* Slider attacks by walking the rays; only used to build the tables. */
static Bitboard sliding_attacks(const int steps[4][2], Square s, Bitboard occupied) {
    Bitboard attacks = 0;
    for (int d = 0; d < 4; d++) {
        int f = file_of(s) + steps[d][0], r = rank_of(s) + steps[d][1];
        for (; f >= 0 && f < 8 && r >= 0 && r < 8; f += steps[d][0], r += steps[d][1]) {
            attacks |= square_bb(make_square(f, r));
            if (occupied & square_bb(make_square(f, r))) break;
        }
    }
    return attacks;
}

/* Leaper attacks from s for the given (file, rank) offsets. */
static Bitboard leaper_attacks(Square s, const int offsets[][2], int count) {
    Bitboard attacks = 0;
    for (int i = 0; i < count; i++) {
        int f = file_of(s) + offsets[i][0], r = rank_of(s) + offsets[i][1];
        if (f >= 0 && f < 8 && r >= 0 && r < 8) attacks |= square_bb(make_square(f, r));
    }
    return attacks;
}

/*
 * Sets the relevant-occupancy mask of square s and lists every subset of it
 * (Carry-Rippler) with its attack set; returns how many there are.
 */
static int slider_subsets(Magic *m, Square s, const int steps[4][2], Bitboard *occupancy, Bitboard *reference) {
    Bitboard edges = ((RANK_1_BB | RANK_8_BB) & ~rank_bb_of(s)) | ((FILE_A_BB | FILE_H_BB) & ~file_bb_of(s));
    m->mask = sliding_attacks(steps, s, 0) & ~edges;
    m->shift = 64 - popcount(m->mask);
    int size = 0;
    Bitboard b = 0;
    do {
        occupancy[size] = b;
        reference[size] = sliding_attacks(steps, s, b);
        size++;
        b = (b - m->mask) & m->mask;
    } while (b);
    return size;
}

/* Fills one slider's tables, indexed by PEXT or by the square's magic multiplier (magics.c). */
static void init_slider(Magic magics[SQUARE_NB], Bitboard *table, const int steps[4][2]) {
    static Bitboard occupancy[4096], reference[4096];
    Bitboard *next = table;

    for (Square s = A1; s <= H8; s++) {
        Magic *m = &magics[s];
        int size = slider_subsets(m, s, steps, occupancy, reference);
        m->table = next;
        next += size;
        m->magic = magics == RookMagics ? RookMagicNumbers[s] : BishopMagicNumbers[s];
        for (int i = 0; i < size; i++) m->table[magic_index(m, occupancy[i])] = reference[i];
    }
}

void attacks_init(void) {
    static const int KnightOffsets[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int KingOffsets[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static const int WhitePawnOffsets[2][2] = {{-1, 1}, {1, 1}};
    static const int BlackPawnOffsets[2][2] = {{-1, -1}, {1, -1}};

    for (Square s = A1; s <= H8; s++) {
        KnightAttacks[s] = leaper_attacks(s, KnightOffsets, 8);
        KingAttacks[s] = leaper_attacks(s, KingOffsets, 8);
        PawnAttacks[WHITE][s] = leaper_attacks(s, WhitePawnOffsets, 2);
        PawnAttacks[BLACK][s] = leaper_attacks(s, BlackPawnOffsets, 2);
    }
    init_slider(RookMagics, RookTable, RookSteps);
    init_slider(BishopMagics, BishopTable, BishopSteps);
}
