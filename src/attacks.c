#include "attacks.h"

#include <string.h>

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

#if !defined(USE_PEXT)
/* xorshift64*: small, fast, and deterministic for the magic search. */
static uint64_t prng_next(uint64_t *state) {
    *state ^= *state >> 12, *state ^= *state << 25, *state ^= *state >> 27;
    return *state * 2685821657736338717ULL;
}

/* Magic candidates with few set bits hash better. */
static uint64_t prng_sparse(uint64_t *state) {
    return prng_next(state) & prng_next(state) & prng_next(state);
}

/*
 * Seeds per rank for the magic search, chosen (by trying seeds with this same
 * code) so that all 128 magics are found in about a millisecond.
 */
static const uint64_t MagicSeeds[RANK_NB] = {728, 10316, 55013, 32803, 12281, 15100, 16645, 255};

/*
 * Searches a multiplier that maps every occupancy subset to a slot without
 * harmful collisions, filling the square's table as it verifies.
 */
static void find_magic(Magic *m, Square s, const Bitboard *occupancy, const Bitboard *reference, int size) {
    static int epoch[4096], attempt; /* attempt keeps counting across squares and sliders */
    uint64_t seed = MagicSeeds[rank_of(s)];
    for (int i = 0; i < size;) {
        do m->magic = prng_sparse(&seed);
        while (popcount((m->magic * m->mask) >> 56) < 6);
        /* epoch marks which slots this attempt wrote, so no clearing is needed. */
        attempt++;
        for (i = 0; i < size; i++) {
            unsigned idx = magic_index(m, occupancy[i]);
            if (epoch[idx] < attempt) {
                epoch[idx] = attempt;
                m->table[idx] = reference[i];
            } else if (m->table[idx] != reference[i]) {
                break;
            }
        }
    }
}
#endif

/*
 * Fills one slider's tables: enumerates every subset of the relevant
 * occupancy (Carry-Rippler) with its attack set, then indexes them by PEXT
 * or by a magic multiplier found for the square.
 */
static void init_slider(Magic magics[SQUARE_NB], Bitboard *table, const int steps[4][2]) {
    static Bitboard occupancy[4096], reference[4096];
    Bitboard *next = table;

    for (Square s = A1; s <= H8; s++) {
        Magic *m = &magics[s];
        Bitboard edges = ((RANK_1_BB | RANK_8_BB) & ~rank_bb_of(s)) | ((FILE_A_BB | FILE_H_BB) & ~file_bb_of(s));
        m->mask = sliding_attacks(steps, s, 0) & ~edges;
        m->shift = 64 - popcount(m->mask);
        m->table = next;

        int size = 0;
        Bitboard b = 0;
        do {
            occupancy[size] = b;
            reference[size] = sliding_attacks(steps, s, b);
            size++;
            b = (b - m->mask) & m->mask;
        } while (b);
        next += size;

#if defined(USE_PEXT)
        for (int i = 0; i < size; i++) m->table[magic_index(m, occupancy[i])] = reference[i];
#else
        find_magic(m, s, occupancy, reference, size);
#endif
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
