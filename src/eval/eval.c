/*
 * Static evaluation: Eval = sum_i w_i * f_i, every weight an (mg, eg) pair
 * from evalweights.c, tapered by game phase and scaled in drawish endings.
 *
 * Every weight enters through term(), which also records the feature count
 * when a trace is requested. The search's copy of the code is compiled
 * with no trace, so the bookkeeping vanishes; the `eval` printout and a
 * tuner run exactly the same code with a trace, so the two cannot drift.
 */
#include "eval.h"

#include <stdlib.h>
#include <string.h>

#include "pages.h"

/* ------------------------------------------------------------ constants */

static const int PhaseWeight[PIECE_TYPE_NB] = {0, 0, 1, 1, 2, 4, 0};
static const int NpmUnits[PIECE_TYPE_NB] = {0, 0, NPM_KNIGHT, NPM_BISHOP, NPM_ROOK, NPM_QUEEN, 0};
static const int KingAttackerUnits[PIECE_TYPE_NB] = {
    0, 0, KD_ATTACKER_KNIGHT, KD_ATTACKER_BISHOP, KD_ATTACKER_ROOK, KD_ATTACKER_QUEEN, 0};
static const int MobilityTerm[PIECE_TYPE_NB] = {
    0, 0, MOBILITY_KNIGHT, MOBILITY_BISHOP, MOBILITY_ROOK, MOBILITY_QUEEN, 0};

/* The four centre squares, and the files c to f. */
static const Bitboard CentreSquares = (FILE_A_BB << 3 | FILE_A_BB << 4) & (RANK_1_BB << 24 | RANK_1_BB << 32);
static const Bitboard CentreFiles = FILE_A_BB << 2 | FILE_A_BB << 3 | FILE_A_BB << 4 | FILE_A_BB << 5;

/* Every piece's first PSQT parameter, by piece type. */
static const int PsqtTerm[PIECE_TYPE_NB] = {
    0, PSQT_PAWN, PSQT_KNIGHT, PSQT_BISHOP, PSQT_ROOK, PSQT_QUEEN, PSQT_KING};

/* The king-wing tables' first parameters, by piece type (none for the king): the square as seen with
 * the own (enemy) king's wing on the right, files e-h, so a piece learns its place beside or away from
 * the king on either wing. */
static const int KingWingOwnTerm[PIECE_TYPE_NB] = {
    0, KWING_OWN_PAWN, KWING_OWN_KNIGHT, KWING_OWN_BISHOP, KWING_OWN_ROOK, KWING_OWN_QUEEN, 0};
static const int KingWingEnemyTerm[PIECE_TYPE_NB] = {
    0, KWING_ENEMY_PAWN, KWING_ENEMY_KNIGHT, KWING_ENEMY_BISHOP, KWING_ENEMY_ROOK, KWING_ENEMY_QUEEN, 0};

#define EVAL_TERM_INFO(id, cnt, lab, grp, txt) \
    {.name = #id, .text = txt, .first = id, .count = cnt, .label = lab, .group = grp},
const EvalTermInfo EvalTerms[TERM_NB] = {EVAL_TERMS(EVAL_TERM_INFO)};
#undef EVAL_TERM_INFO

/* ------------------------------------------------------------ caches */

enum { PAWN_TABLE_SIZE = 1 << 14, MATERIAL_TABLE_BITS = 13, MATERIAL_TABLE_SIZE = 1 << MATERIAL_TABLE_BITS };

/* Everything about a pawn structure that does not depend on the pieces. */
typedef struct {
    Key key;
    Bitboard passed[COLOR_NB];     /* passed pawns */
    Bitboard attacks[COLOR_NB];    /* squares attacked by pawns */
    Bitboard attackSpan[COLOR_NB]; /* squares the pawns attack now or after advancing */
    Score score;                   /* pawn-structure terms, White minus Black */
} PawnEntry;

/* The material imbalance (a quadratic in the piece counts) of one material signature. */
typedef struct {
    uint64_t signature;            /* material_signature() */
    Score imbalance;               /* White minus Black */
} MaterialEntry;

struct EvalCache {
    PawnEntry pawns[PAWN_TABLE_SIZE];
    MaterialEntry material[MATERIAL_TABLE_SIZE];
};

/* Allocates and clears an evaluation cache. */
EvalCache *eval_cache_create(void) {
    EvalCache *table = pages_alloc(sizeof *table, false);
    if (table) eval_cache_clear(table);
    return table;
}

/* Frees a cache from eval_cache_create (NULL is fine). */
void eval_cache_destroy(EvalCache *table) { pages_free(table, sizeof *table); }

/* Empties the cache: each pawn slot gets a key that can never map to that slot, each material slot a
 * signature no position has (the counts fill only the low 48 bits). */
void eval_cache_clear(EvalCache *table) {
    memset(table, 0, sizeof *table);
    for (unsigned i = 0; i < PAWN_TABLE_SIZE; i++) table->pawns[i].key = ~(Key)i;
    for (unsigned i = 0; i < MATERIAL_TABLE_SIZE; i++) table->material[i].signature = ~(uint64_t)0;
}

/* ------------------------------------------------------------ helpers */

/*
 * Every evaluation helper is forced inline into the two callers of
 * evaluate(), so in the search's copy (trace == NULL) the compiler deletes
 * all trace bookkeeping: measured 330 -> 190 ns per evaluation.
 */
#define EVAL_INLINE static inline __attribute__((always_inline))

/* Adds count times parameter p for colour c, recording it when tracing. */
EVAL_INLINE Score term(EvalTrace *trace, int p, Color c, int count) {
    if (trace) trace->coeff[p][c] += (int16_t)count;
    return EvalWeights[p] * count;
}

/* The pawn of b nearest to colour c's first rank. */
static inline Square backmost(Color c, Bitboard b) { return c == WHITE ? lsb(b) : msb(b); }

/* Small integer helpers. */
static inline int min_int(int a, int b) { return a < b ? a : b; }
static inline int max_int(int a, int b) { return a > b ? a : b; }

/* Squares attacked at least twice by the pawns of c. */
static inline Bitboard pawn_double_attacks(Color c, Bitboard pawns) {
    Bitboard up = shift_up(c, pawns);
    return shift_east(up) & shift_west(up);
}

/* ------------------------------------------------------------ pawns */

/* Pawn-structure terms for colour c; fills c's bitboards of the entry. */
EVAL_INLINE Score eval_pawns_side(const Position *pos, PawnEntry *pe, Color c, EvalTrace *trace) {
    Color them = color_flip(c);
    Bitboard ours = pos_pieces_cpt(pos, c, PAWN);
    Bitboard theirs = pos_pieces_cpt(pos, them, PAWN);
    Score s = 0;

    pe->attacks[c] = pawn_attacks_bb(c, ours);
    pe->attackSpan[c] = 0;
    pe->passed[c] = 0;

    for (Bitboard b = ours; b;) {
        Square sq = pop_lsb(&b);
        int r = relative_rank(c, sq);
        Square stop = (Square)(sq + pawn_push(c));
        Bitboard neighbours = ours & adjacent_files_bb(sq);
        Bitboard supporters = ours & pawn_attacks(them, sq);
        Bitboard phalanx = neighbours & rank_bb_of(sq);

        pe->attackSpan[c] |= pawn_attack_span(c, sq);

        if (ours & forward_file_bb(them, sq)) s += term(trace, PAWN_DOUBLED, c, 1);

        bool weak = false;
        if (!neighbours)
            s += term(trace, PAWN_ISOLATED, c, 1), weak = true;
        else if (!(neighbours & ~forward_ranks_bb(c, sq))
                 && (theirs & (pawn_attacks(c, stop) | square_bb(stop))))
            s += term(trace, PAWN_BACKWARD, c, 1), weak = true;
        /* A weak pawn on a half-open file is a target for the enemy rooks. */
        if (weak && !(theirs & forward_file_bb(c, sq))) s += term(trace, PAWN_WEAK_UNOPPOSED, c, 1);

        if (phalanx) s += term(trace, PAWN_PHALANX + r, c, 1);
        if (supporters) s += term(trace, PAWN_SUPPORTED + r, c, popcount(supporters));

        if (!(theirs & passed_pawn_span(c, sq)) && !(ours & forward_file_bb(c, sq))) {
            pe->passed[c] |= square_bb(sq);
            s += term(trace, PASSED_RANK + r, c, 1);
        }
    }
    /* Pawns that two enemy pawns attack and none of ours defends: a lever we lose. */
    int levers = popcount(ours & pawn_double_attacks(them, theirs) & ~pe->attacks[c]);
    if (levers) s += term(trace, PAWN_WEAK_LEVER, c, levers);
    return s;
}

/* Computes the pawn entry of the position into pe. */
EVAL_INLINE void eval_pawns(const Position *pos, PawnEntry *pe, EvalTrace *trace) {
    pe->score = eval_pawns_side(pos, pe, WHITE, trace) - eval_pawns_side(pos, pe, BLACK, trace);
}

/* The pawn entry: from the table when there is one and no trace is wanted. */
EVAL_INLINE const PawnEntry *pawn_probe(const Position *pos, EvalCache *table, PawnEntry *scratch,
                                   EvalTrace *trace) {
    if (!table || trace) {
        eval_pawns(pos, scratch, trace);
        return scratch;
    }
    Key key = pos->st->pawnKey;
    PawnEntry *pe = &table->pawns[key & (PAWN_TABLE_SIZE - 1)];
    if (pe->key != key) {
        eval_pawns(pos, pe, NULL);
        pe->key = key;
    }
    return pe;
}

/* ------------------------------------------------------------ pieces */

/* What the piece loop gathers for king safety, threats and passed pawns. */
typedef struct {
    const Position *pos;
    const PawnEntry *pe;
    Bitboard attackedBy[COLOR_NB][PIECE_TYPE_NB]; /* [c][0] = by anything */
    Bitboard attacked2[COLOR_NB];                 /* attacked at least twice */
    Bitboard mobilityArea[COLOR_NB];
    Bitboard kingZone[COLOR_NB];                  /* around c's own king */
    int kingAttackers[COLOR_NB];                  /* c's pieces attacking the enemy king zone */
    int kingUnits[COLOR_NB];                      /* c's attack units against the enemy king */
} EvalInfo;

/* Attack maps of pawns and kings, king zones and mobility areas. */
EVAL_INLINE void eval_info_init(EvalInfo *ei) {
    const Position *pos = ei->pos;
    Bitboard occupied = pos_pieces(pos);
    for (Color c = WHITE; c <= BLACK; c++) {
        Color them = color_flip(c);
        Square ksq = pos_king_square(pos, c);
        Bitboard pawns = pos_pieces_cpt(pos, c, PAWN);
        Bitboard lowRanks = c == WHITE ? rank_bb(RANK_2) | rank_bb(RANK_3) : rank_bb(RANK_7) | rank_bb(RANK_6);
        Bitboard blocked = pawns & (shift_down(c, occupied) | lowRanks);

        memset(ei->attackedBy[c], 0, sizeof ei->attackedBy[c]);
        ei->attackedBy[c][PAWN] = ei->pe->attacks[c];
        ei->attackedBy[c][KING] = king_attacks(ksq);
        ei->attackedBy[c][0] = ei->attackedBy[c][PAWN] | ei->attackedBy[c][KING];
        ei->attacked2[c] = (ei->attackedBy[c][PAWN] & ei->attackedBy[c][KING]) | pawn_double_attacks(c, pawns);
        ei->mobilityArea[c] = ~(ei->pe->attacks[them] | blocked | square_bb(ksq));

        /* The zone is the 3x3 box around the king, pushed off the board edges. */
        int f = min_int(max_int(file_of(ksq), FILE_B), FILE_G);
        int r = min_int(max_int(rank_of(ksq), RANK_2), RANK_7);
        Square centre = make_square(f, r);
        ei->kingZone[c] = king_attacks(centre) | square_bb(centre);
        ei->kingAttackers[c] = 0;
        ei->kingUnits[c] = 0;
    }
}

/* Squares where a minor of c is an outpost: ranks 4-6, pawn-protected, out of enemy pawns' reach. */
EVAL_INLINE Bitboard outpost_squares(const EvalInfo *ei, Color c) {
    Bitboard ranks = c == WHITE ? RANK_1_BB << 24 | RANK_1_BB << 32 | RANK_1_BB << 40
                                : RANK_1_BB << 16 | RANK_1_BB << 24 | RANK_1_BB << 32;
    return ranks & ei->pe->attacks[c] & ~ei->pe->attackSpan[color_flip(c)];
}

/* A bishop's pawn terms: own pawns on its colour (worse when the centre is blocked), x-rays, the long diagonal. */
EVAL_INLINE Score eval_bishop(const EvalInfo *ei, Color c, Square sq, EvalTrace *trace) {
    const Position *pos = ei->pos;
    Bitboard ourPawns = pos_pieces_cpt(pos, c, PAWN);
    Bitboard sameColour = (DARK_SQUARES_BB & square_bb(sq)) ? DARK_SQUARES_BB : ~DARK_SQUARES_BB;
    int n = popcount(ourPawns & sameColour);
    Score s = 0;
    if (n) {
        s += term(trace, BISHOP_PAWN_COLOR, c, n);
        int blocked = popcount(ourPawns & shift_down(c, pos_pieces(pos)) & CentreFiles);
        if (blocked) s += term(trace, BISHOP_PAWNS_BLOCKED, c, n * blocked);
    }
    int xrays = popcount(bishop_attacks(sq, 0) & pos_pieces_cpt(pos, color_flip(c), PAWN));
    if (xrays) s += term(trace, BISHOP_XRAY_PAWNS, c, xrays);
    if (more_than_one(bishop_attacks(sq, pos_pieces_pt(pos, PAWN)) & CentreSquares))
        s += term(trace, BISHOP_LONG_DIAGONAL, c, 1);
    return s;
}

/* A rook on a queen's file, and a rook shut in by its own uncastled king. */
EVAL_INLINE Score eval_rook(const EvalInfo *ei, Color c, Square sq, int mobility, EvalTrace *trace) {
    const Position *pos = ei->pos;
    Score s = 0;
    if (file_bb_of(sq) & pos_pieces_pt(pos, QUEEN)) s += term(trace, ROOK_QUEEN_FILE, c, 1);
    if (mobility <= 3) {
        int kingFile = file_of(pos_king_square(pos, c));
        if ((kingFile < FILE_E) == (file_of(sq) < kingFile)) {
            bool canCastle = (pos->st->castling >> (2 * (int)c)) & 3;
            s += term(trace, ROOK_TRAPPED, c, canCastle ? 1 : 2);
        }
    }
    return s;
}

/* Is c's queen on sq pinned by, or open to a discovered attack from, an enemy rook or bishop? */
static inline bool queen_is_exposed(const Position *pos, Color c, Square sq) {
    Color them = color_flip(c);
    Bitboard snipers = (rook_attacks(sq, 0) & pos_pieces_cpt(pos, them, ROOK))
                     | (bishop_attacks(sq, 0) & pos_pieces_cpt(pos, them, BISHOP));
    Bitboard occupied = pos_pieces(pos);
    while (snipers) {
        Square sniper = pop_lsb(&snipers);
        Bitboard between = BetweenBB[sq][sniper] & occupied & ~square_bb(sniper);
        if (between && !more_than_one(between)) return true;
    }
    return false;
}

/* Mobility, attacks and placement terms of colour c's pieces of type pt. */
EVAL_INLINE Score eval_piece_type(EvalInfo *ei, Color c, PieceType pt, EvalTrace *trace) {
    const Position *pos = ei->pos;
    Color them = color_flip(c);
    Bitboard occupied = pos_pieces(pos);
    Bitboard ourPawns = pos_pieces_cpt(pos, c, PAWN);
    Bitboard theirPawns = pos_pieces_cpt(pos, them, PAWN);
    Square theirKing = pos_king_square(pos, them);
    Square ourKing = pos_king_square(pos, c);
    Bitboard outposts = pt == KNIGHT || pt == BISHOP ? outpost_squares(ei, c) : 0;
    Score s = 0;

    for (Bitboard b = pos_pieces_cpt(pos, c, pt); b;) {
        Square sq = pop_lsb(&b);
        Bitboard att;
        /* Sliders see through their own queens (and rooks through rooks): batteries. */
        if (pt == KNIGHT)
            att = knight_attacks(sq);
        else if (pt == BISHOP)
            att = bishop_attacks(sq, occupied ^ pos_pieces_cpt(pos, c, QUEEN));
        else if (pt == ROOK)
            att = rook_attacks(sq, occupied ^ pos_pieces_cpt2(pos, c, ROOK, QUEEN));
        else
            att = queen_attacks(sq, occupied);

        ei->attacked2[c] |= ei->attackedBy[c][0] & att;
        ei->attackedBy[c][0] |= att;
        ei->attackedBy[c][pt] |= att;

        if (att & ei->kingZone[them]) {
            ei->kingAttackers[c]++;
            ei->kingUnits[c] += KingAttackerUnits[pt]
                              + KD_ADJACENT_ATTACK * popcount(att & king_attacks(theirKing));
        }

        int mobility = popcount(att & ei->mobilityArea[c]);
        s += term(trace, MobilityTerm[pt] + mobility, c, 1);

        if (pt == KNIGHT || pt == BISHOP) {
            if (outposts & square_bb(sq))
                s += term(trace, pt == KNIGHT ? KNIGHT_OUTPOST : BISHOP_OUTPOST, c, 1);
            else if (pt == KNIGHT && (att & outposts & ~pos_pieces_c(pos, c)))
                s += term(trace, KNIGHT_REACHABLE_OUTPOST, c, 1);
            if (shift_down(c, pos_pieces_pt(pos, PAWN)) & square_bb(sq))
                s += term(trace, MINOR_BEHIND_PAWN, c, 1);
            /* Minors far from their king leave it without defenders. */
            s += term(trace, pt == KNIGHT ? KNIGHT_KING_DISTANCE : BISHOP_KING_DISTANCE, c, distance(sq, ourKing));
            if (pt == BISHOP) s += eval_bishop(ei, c, sq, trace);
        } else {
            Bitboard file = file_bb_of(sq);
            if (!(ourPawns & file)) {
                bool open = !(theirPawns & file);
                int p = pt == ROOK ? (open ? ROOK_OPEN_FILE : ROOK_SEMIOPEN_FILE)
                                   : (open ? QUEEN_OPEN_FILE : QUEEN_SEMIOPEN_FILE);
                s += term(trace, p, c, 1);
            }
            if (pt == ROOK && relative_rank(c, sq) == RANK_7
                && ((theirPawns & rank_bb_of(sq)) || relative_rank(c, theirKing) == RANK_8))
                s += term(trace, ROOK_SEVENTH, c, 1);
            if (pt == ROOK) s += eval_rook(ei, c, sq, mobility, trace);
            if (pt == QUEEN && queen_is_exposed(pos, c, sq)) s += term(trace, QUEEN_WEAK, c, 1);
        }
    }
    return s;
}

/* Material, piece-square tables and the bishop pair of colour c. */
EVAL_INLINE Score eval_material(const Position *pos, Color c, EvalTrace *trace) {
    Score s = 0;
    /* Files mirrored (sq ^ 7) when a king stands on files a-d. */
    int ownFlip = file_of(pos_king_square(pos, c)) <= FILE_D ? 7 : 0;
    int enemyFlip = file_of(pos_king_square(pos, color_flip(c))) <= FILE_D ? 7 : 0;
    for (PieceType pt = PAWN; pt <= KING; pt++) {
        Bitboard b = pos_pieces_cpt(pos, c, pt);
        if (pt != KING && b) s += term(trace, PIECE_VALUE + pt - PAWN, c, popcount(b));
        while (b) {
            /* Tables are written rank 8 first, so White's squares are mirrored. */
            Square sq = pop_lsb(&b);
            Square rel = c == WHITE ? sq ^ 56 : sq;
            s += term(trace, PsqtTerm[pt] + rel, c, 1);
            if (pt == KING) continue;
            s += term(trace, KingWingOwnTerm[pt] + (rel ^ ownFlip), c, 1);
            s += term(trace, KingWingEnemyTerm[pt] + (rel ^ enemyFlip), c, 1);
        }
    }
    Bitboard bishops = pos_pieces_cpt(pos, c, BISHOP);
    if ((bishops & DARK_SQUARES_BB) && (bishops & ~DARK_SQUARES_BB)) s += term(trace, BISHOP_PAIR, c, 1);
    return s;
}

/* ------------------------------------------------------------ king safety */

/* Shield, storm and open files in front of colour c's king. */
EVAL_INLINE Score eval_shelter(const EvalInfo *ei, Color c, EvalTrace *trace) {
    const Position *pos = ei->pos;
    Color them = color_flip(c);
    Square ksq = pos_king_square(pos, c);
    Bitboard notBehind = ~forward_ranks_bb(them, ksq);
    Bitboard ours = pos_pieces_cpt(pos, c, PAWN) & notBehind;
    Bitboard theirs = pos_pieces_cpt(pos, them, PAWN) & notBehind;
    int centre = min_int(max_int(file_of(ksq), FILE_B), FILE_G);
    Score s = 0;

    for (int f = centre - 1; f <= centre + 1; f++) {
        Bitboard file = file_bb(f);
        int edge = min_int(f, FILE_H - f);
        int ourRank = (ours & file) ? relative_rank(c, backmost(c, ours & file)) : 0;
        int theirRank = (theirs & file) ? relative_rank(c, backmost(c, theirs & file)) : 0;

        s += term(trace, KING_SHIELD + 8 * edge + ourRank, c, 1);
        if (ourRank && ourRank == theirRank - 1)
            s += term(trace, KING_STORM_BLOCKED + theirRank, c, 1);
        else
            s += term(trace, KING_STORM + 8 * edge + theirRank, c, 1);
        if (!(pos_pieces_pt(pos, PAWN) & file)) s += term(trace, KING_OPEN_FILE, c, 1);
    }
    return s;
}

/* Danger to colour c's king from the enemy's attacks and checks, as one table entry. */
EVAL_INLINE Score eval_king_danger(const EvalInfo *ei, Color c, EvalTrace *trace) {
    const Position *pos = ei->pos;
    Color them = color_flip(c);
    Square ksq = pos_king_square(pos, c);
    Bitboard occupied = pos_pieces(pos);
    bool queen = pos_pieces_cpt(pos, them, QUEEN) != 0;
    int units = ei->kingUnits[them];

    /* An attack needs two pieces near the king, or one with a queen on the board. */
    if (ei->kingAttackers[them] < 2 - queen) return term(trace, KING_DANGER, c, 1);

    /* Weak: attacked by them, defended at most once, and only by our king or queen. */
    Bitboard weak = ei->attackedBy[them][0] & ~ei->attacked2[c]
                  & (~ei->attackedBy[c][0] | ei->attackedBy[c][KING] | ei->attackedBy[c][QUEEN]);
    /* Squares where an enemy checker would survive. */
    Bitboard safe = ~pos_pieces_c(pos, them) & (~ei->attackedBy[c][0] | (weak & ei->attacked2[them]));
    Bitboard checkable = ~pos_pieces_c(pos, them);

    Bitboard rookLines = rook_attacks(ksq, occupied ^ pos_pieces_cpt(pos, c, QUEEN));
    Bitboard bishopLines = bishop_attacks(ksq, occupied ^ pos_pieces_cpt(pos, c, QUEEN));
    Bitboard rookChecks = rookLines & ei->attackedBy[them][ROOK] & checkable;
    Bitboard queenChecks = (rookLines | bishopLines) & ei->attackedBy[them][QUEEN] & checkable
                         & ~ei->attackedBy[c][QUEEN];
    Bitboard bishopChecks = bishopLines & ei->attackedBy[them][BISHOP] & checkable;
    Bitboard knightChecks = knight_attacks(ksq) & ei->attackedBy[them][KNIGHT] & checkable;
    Bitboard unsafeChecks = 0;

    if (rookChecks & safe) units += KD_SAFE_CHECK_ROOK; else unsafeChecks |= rookChecks;
    if (queenChecks & safe & ~(rookChecks & safe)) units += KD_SAFE_CHECK_QUEEN; else unsafeChecks |= queenChecks;
    if (bishopChecks & safe) units += KD_SAFE_CHECK_BISHOP; else unsafeChecks |= bishopChecks;
    if (knightChecks & safe) units += KD_SAFE_CHECK_KNIGHT; else unsafeChecks |= knightChecks;

    units += KD_UNSAFE_CHECK * popcount(unsafeChecks);
    units += KD_WEAK_ZONE_SQUARE * popcount(ei->kingZone[c] & weak);
    /* A pinned piece, or one whose move uncovers an attack on the king, weakens its guard. The side to
     * move's blockers are already kept in its state (for move legality). */
    Bitboard blockers = c == pos->sideToMove ? pos->st->blockers : pos_slider_blockers(pos, c);
    units += KD_KING_BLOCKER * popcount(blockers);
    if (!queen) units -= KD_NO_QUEEN;
    if (ei->attackedBy[c][KNIGHT] & ei->attackedBy[c][KING]) units -= KD_KNIGHT_DEFENDER;

    return term(trace, KING_DANGER + min_int(max_int(units, 0), KING_DANGER_NB - 1), c, 1);
}

/* The files of a king's wing, by the king's file: a-c, a-d, a-d, c-f, c-f, e-h, e-h, f-h. */
static const Bitboard KingFlank[8] = {
    0x0707070707070707ULL, 0x0F0F0F0F0F0F0F0FULL, 0x0F0F0F0F0F0F0F0FULL, 0x3C3C3C3C3C3C3C3CULL,
    0x3C3C3C3C3C3C3C3CULL, 0xF0F0F0F0F0F0F0F0ULL, 0xF0F0F0F0F0F0F0F0ULL, 0xE0E0E0E0E0E0E0E0ULL};

/* Enemy attacks on the king's flank in our camp (twice-attacked squares count twice); a pawnless flank. */
EVAL_INLINE Score eval_king_flank(const EvalInfo *ei, Color c, EvalTrace *trace) {
    const Position *pos = ei->pos;
    Color them = color_flip(c);
    Bitboard flank = KingFlank[file_of(pos_king_square(pos, c))];
    Bitboard camp = c == WHITE ? ~(RANK_8_BB | RANK_8_BB >> 8 | RANK_8_BB >> 16)
                               : ~(RANK_1_BB | RANK_1_BB << 8 | RANK_1_BB << 16);
    Bitboard attacked = ei->attackedBy[them][0] & flank & camp;
    int attacks = popcount(attacked) + popcount(attacked & ei->attacked2[them]);
    Score s = attacks ? term(trace, KING_FLANK_ATTACKS, c, attacks) : 0;
    if (!(pos_pieces_pt(pos, PAWN) & flank)) s += term(trace, KING_PAWNLESS_FLANK, c, 1);
    return s;
}

/* ------------------------------------------------------------ threats */

/* Enemy pieces attacked by c's safe pawns, or by a safe pawn push next move. */
EVAL_INLINE Score eval_pawn_threats(const EvalInfo *ei, Color c, EvalTrace *trace) {
    const Position *pos = ei->pos;
    Color them = color_flip(c);
    Bitboard nonPawnEnemies = pos_pieces_c(pos, them) & ~pos_pieces_pt(pos, PAWN) & ~pos_pieces_pt(pos, KING);
    Bitboard safe = ~ei->attackedBy[them][0] | ei->attackedBy[c][0];
    Bitboard ourPawns = pos_pieces_cpt(pos, c, PAWN);
    Bitboard empty = ~pos_pieces(pos);
    Bitboard rank3 = rank_bb(c == WHITE ? RANK_3 : RANK_6);
    Score s = 0;

    int bySafe = popcount(pawn_attacks_bb(c, ourPawns & safe) & nonPawnEnemies);
    if (bySafe) s += term(trace, THREAT_SAFE_PAWN, c, bySafe);

    Bitboard pushes = shift_up(c, ourPawns) & empty;
    pushes |= shift_up(c, pushes & rank3) & empty;
    pushes &= ~ei->attackedBy[them][PAWN] & safe;
    int byPush = popcount(pawn_attacks_bb(c, pushes) & nonPawnEnemies);
    if (byPush) s += term(trace, THREAT_PAWN_PUSH, c, byPush);
    return s;
}

/* Safe squares from which c's knights or sliders could attack a lone enemy queen next move. */
EVAL_INLINE Score eval_queen_threats(const EvalInfo *ei, Color c, Bitboard strong, EvalTrace *trace) {
    const Position *pos = ei->pos;
    Bitboard queens = pos_pieces_cpt(pos, color_flip(c), QUEEN);
    if (!queens || more_than_one(queens)) return 0;
    Square sq = lsb(queens);
    Bitboard occupied = pos_pieces(pos);
    Bitboard safe = ei->mobilityArea[c] & ~strong;
    Score s = 0;

    int knights = popcount(ei->attackedBy[c][KNIGHT] & knight_attacks(sq) & safe);
    if (knights) s += term(trace, THREAT_KNIGHT_ON_QUEEN, c, knights);
    Bitboard sliders = (ei->attackedBy[c][BISHOP] & bishop_attacks(sq, occupied))
                     | (ei->attackedBy[c][ROOK] & rook_attacks(sq, occupied));
    int slides = popcount(sliders & safe & ei->attacked2[c]);
    if (slides) s += term(trace, THREAT_SLIDER_ON_QUEEN, c, slides);
    return s;
}

/* Enemy pieces that colour c attacks: by pawns, minors, rooks, king, and hanging ones. */
EVAL_INLINE Score eval_threats(const EvalInfo *ei, Color c, EvalTrace *trace) {
    const Position *pos = ei->pos;
    Color them = color_flip(c);
    Bitboard enemies = pos_pieces_c(pos, them) & ~pos_pieces_pt(pos, KING);
    Bitboard nonPawnEnemies = enemies & ~pos_pieces_pt(pos, PAWN);
    /* Defended by a pawn, or by two pieces while we attack at most once. */
    Bitboard strong = ei->attackedBy[them][PAWN] | (ei->attacked2[them] & ~ei->attacked2[c]);
    Bitboard weak = enemies & ~strong & ei->attackedBy[c][0];
    Score s = 0;

    for (Bitboard b = nonPawnEnemies & ei->attackedBy[c][PAWN]; b;)
        s += term(trace, THREAT_BY_PAWN + piece_type(pos_piece_on(pos, pop_lsb(&b))) - PAWN, c, 1);
    for (Bitboard b = (nonPawnEnemies | weak) & (ei->attackedBy[c][KNIGHT] | ei->attackedBy[c][BISHOP]); b;)
        s += term(trace, THREAT_BY_MINOR + piece_type(pos_piece_on(pos, pop_lsb(&b))) - PAWN, c, 1);
    for (Bitboard b = weak & ei->attackedBy[c][ROOK]; b;)
        s += term(trace, THREAT_BY_ROOK + piece_type(pos_piece_on(pos, pop_lsb(&b))) - PAWN, c, 1);
    if (weak & ei->attackedBy[c][KING]) s += term(trace, THREAT_BY_KING, c, 1);

    int hanging = popcount(nonPawnEnemies & ei->attackedBy[c][0] & ~ei->attackedBy[them][0]);
    if (hanging) s += term(trace, HANGING, c, hanging);

    /* Weak pieces that only the queen defends tie the queen down. */
    int queenProtected = popcount(weak & ei->attackedBy[them][QUEEN]);
    if (queenProtected) s += term(trace, THREAT_QUEEN_PROTECTED, c, queenProtected);
    /* Squares both sides attack where they are not strongly defended: their pieces are hemmed in. */
    int restricted = popcount(ei->attackedBy[them][0] & ~strong & ei->attackedBy[c][0]);
    if (restricted) s += term(trace, THREAT_RESTRICTED, c, restricted);
    return s + eval_pawn_threats(ei, c, trace) + eval_queen_threats(ei, c, strong, trace);
}

/* ------------------------------------------------------------ space */

/* Safe central squares behind c's pawns, weighted by c's piece count (more pieces need more room). */
EVAL_INLINE Score eval_space(const EvalInfo *ei, Color c, EvalTrace *trace) {
    const Position *pos = ei->pos;
    Color them = color_flip(c);
    Bitboard ourPawns = pos_pieces_cpt(pos, c, PAWN);
    Bitboard ranks = c == WHITE ? RANK_1_BB << 8 | RANK_1_BB << 16 | RANK_1_BB << 24
                                : RANK_1_BB << 32 | RANK_1_BB << 40 | RANK_1_BB << 48;
    Bitboard safe = ranks & CentreFiles & ~ourPawns & ~ei->attackedBy[them][PAWN];
    Bitboard behind = ourPawns;
    behind |= shift_down(c, behind);
    behind |= shift_down(c, shift_down(c, behind));
    int bonus = popcount(safe) + popcount(behind & safe & ~ei->attackedBy[them][0]);
    int weight = popcount(pos_pieces_c(pos, c)) - 1;
    int count = bonus * weight * weight / 16;
    return count ? term(trace, SPACE, c, count) : 0;
}

/* ------------------------------------------------------------ imbalance */

/* Material kinds of the imbalance: the bishop pair, pawn, knight, bishop, rook, queen. */
static inline void imbalance_counts(const Position *pos, Color c, int counts[IMBALANCE_KINDS]) {
    Bitboard bishops = pos_pieces_cpt(pos, c, BISHOP);
    counts[0] = (bishops & DARK_SQUARES_BB) && (bishops & ~DARK_SQUARES_BB);
    for (PieceType pt = PAWN; pt <= QUEEN; pt++) counts[pt] = popcount(pos_pieces_cpt(pos, c, pt));
}

/* Pairs of material kinds (ours x ours, ours x theirs): what the piece values alone miss. */
EVAL_INLINE Score eval_imbalance_of(const int ours[IMBALANCE_KINDS], const int theirs[IMBALANCE_KINDS], Color c,
                                    EvalTrace *trace) {
    Score s = 0;
    for (int a = 0; a < IMBALANCE_KINDS; a++) {
        if (!ours[a]) continue;
        for (int b = 0; b <= a; b++) {
            int pair = a * (a + 1) / 2 + b;
            if (ours[b]) s += term(trace, IMBALANCE_OURS + pair, c, ours[a] * ours[b]);
            if (theirs[b]) s += term(trace, IMBALANCE_THEIRS + pair, c, ours[a] * theirs[b]);
        }
    }
    return s;
}

/* The counts of both sides in one word, 4 bits a kind (no count exceeds 10), White's first. */
static inline uint64_t material_signature(const int counts[COLOR_NB][IMBALANCE_KINDS]) {
    uint64_t signature = 0;
    for (Color c = WHITE; c <= BLACK; c++)
        for (int k = 0; k < IMBALANCE_KINDS; k++) signature = signature << 4 | (uint64_t)counts[c][k];
    return signature;
}

/* The imbalance, White minus Black: the same material gives the same value, so the cache keeps it. */
EVAL_INLINE Score eval_imbalance(const Position *pos, EvalCache *table, EvalTrace *trace) {
    int counts[COLOR_NB][IMBALANCE_KINDS];
    imbalance_counts(pos, WHITE, counts[WHITE]);
    imbalance_counts(pos, BLACK, counts[BLACK]);
    MaterialEntry *me = NULL;
    if (table && !trace) {
        uint64_t signature = material_signature(counts);
        /* Fibonacci hashing: the signature's high and low kinds both reach the index bits. */
        me = &table->material[(signature * 0x9E3779B97F4A7C15ULL) >> (64 - MATERIAL_TABLE_BITS)];
        if (me->signature == signature) return me->imbalance;
        me->signature = signature;
    }
    Score s = eval_imbalance_of(counts[WHITE], counts[BLACK], WHITE, trace)
            - eval_imbalance_of(counts[BLACK], counts[WHITE], BLACK, trace);
    if (me) me->imbalance = s;
    return s;
}

/* ------------------------------------------------------------ passed pawns */

/* Blockers, free paths and king distances of colour c's passed pawns. */
EVAL_INLINE Score eval_passed(const EvalInfo *ei, Color c, EvalTrace *trace) {
    const Position *pos = ei->pos;
    Color them = color_flip(c);
    Square ourKing = pos_king_square(pos, c);
    Square theirKing = pos_king_square(pos, them);
    Score s = 0;

    for (Bitboard b = ei->pe->passed[c]; b;) {
        Square sq = pop_lsb(&b);
        int r = relative_rank(c, sq);
        Square stop = (Square)(sq + pawn_push(c));
        Bitboard path = forward_file_bb(c, sq);

        if (pos_pieces_c(pos, them) & square_bb(stop))
            s += term(trace, PASSED_BLOCKED + r, c, 1);
        else if (!(path & (pos_pieces(pos) | ei->attackedBy[them][0])))
            s += term(trace, PASSED_FREE_PATH + r, c, 1);

        int own = min_int(distance(ourKing, stop), PASSED_KING_DIST_MAX);
        int enemy = min_int(distance(theirKing, stop), PASSED_KING_DIST_MAX);
        if (own) s += term(trace, PASSED_OWN_KING + r, c, own);
        if (enemy) s += term(trace, PASSED_ENEMY_KING + r, c, enemy);
    }
    return s;
}

/* ------------------------------------------------------------ complexity */

/*
 * How much of the endgame edge is real: many pawns and passers, pawns on
 * both flanks, kings far apart on files or already invading keep it;
 * kings in opposition with no passer and one pawn wing lose most of it.
 * Returns the change to eg (see ComplexityFeature).
 */
EVAL_INLINE int eval_complexity(const EvalInfo *ei, int eg, EvalTrace *trace) {
    const Position *pos = ei->pos;
    Square wk = pos_king_square(pos, WHITE), bk = pos_king_square(pos, BLACK);
    Bitboard pawns = pos_pieces_pt(pos, PAWN);
    Bitboard queenSide = FILE_A_BB | FILE_A_BB << 1 | FILE_A_BB << 2 | FILE_A_BB << 3;
    int passed = popcount(ei->pe->passed[WHITE] | ei->pe->passed[BLACK]);
    int outflanking = abs(file_of(wk) - file_of(bk)) - abs(rank_of(wk) - rank_of(bk));
    bool bothFlanks = (pawns & queenSide) && (pawns & ~queenSide);
    bool infiltration = rank_of(wk) > RANK_4 || rank_of(bk) < RANK_5;
    bool pawnEnding = !(pos_pieces(pos) & ~pawns & ~pos_pieces_pt(pos, KING));
    bool unwinnable = !passed && outflanking < 0 && !bothFlanks;

    /* A property of the position, not of a side: recorded as White's. */
    Score c = term(trace, COMPLEXITY + COMPLEXITY_PASSED, WHITE, passed)
            + term(trace, COMPLEXITY + COMPLEXITY_PAWNS, WHITE, popcount(pawns))
            + term(trace, COMPLEXITY + COMPLEXITY_OUTFLANKING, WHITE, outflanking)
            + term(trace, COMPLEXITY + COMPLEXITY_BOTH_FLANKS, WHITE, bothFlanks)
            + term(trace, COMPLEXITY + COMPLEXITY_INFILTRATION, WHITE, infiltration)
            + term(trace, COMPLEXITY + COMPLEXITY_PAWN_ENDING, WHITE, pawnEnding)
            + term(trace, COMPLEXITY + COMPLEXITY_UNWINNABLE, WHITE, unwinnable)
            + term(trace, COMPLEXITY + COMPLEXITY_BASE, WHITE, 1);
    int sign = (eg > 0) - (eg < 0);
    return sign * max_int(eg_value(c), -abs(eg));
}

/* ------------------------------------------------------------ scaling */

/* Is either king alone on the board? */
static inline bool bare_king(const Position *pos) {
    Bitboard kings = pos_pieces_pt(pos, KING);
    return !(pos_pieces_c(pos, WHITE) & ~kings) || !(pos_pieces_c(pos, BLACK) & ~kings);
}

/* Non-pawn material of colour c in NPM units. */
static int non_pawn_units(const Position *pos, Color c) {
    int n = 0;
    for (PieceType pt = KNIGHT; pt <= QUEEN; pt++) n += NpmUnits[pt] * popcount(pos_pieces_cpt(pos, c, pt));
    return n;
}

/*
 * Scale factors (SCALE_NORMAL = none) for the side the endgame score
 * favours (strong): the return value scales the endgame score; *mgScale the
 * middlegame score, which only the pawnless near-draws touch (opposite
 * bishops still favour the attacker while the middlegame pieces remain).
 */
static int scale_factor(const Position *pos, const PawnEntry *pe, Color strong, int *mgScale) {
    Color weak = color_flip(strong);
    int npmStrong = non_pawn_units(pos, strong);
    int npmWeak = non_pawn_units(pos, weak);

    *mgScale = SCALE_NORMAL;
    if (!pos_pieces_cpt(pos, strong, PAWN)) {
        int sf = SCALE_NORMAL;
        /* Two knights cannot force mate. */
        if (npmStrong == 2 * NPM_KNIGHT && popcount(pos_pieces_cpt(pos, strong, KNIGHT)) == 2)
            sf = SCALE_DRAW;
        else if (npmStrong - npmWeak <= NPM_BISHOP)
            sf = npmStrong < NPM_ROOK ? SCALE_DRAW
               : npmWeak <= NPM_BISHOP ? SCALE_PAWNLESS_VS_MINOR : SCALE_PAWNLESS_SMALL_EDGE;
        *mgScale = sf;
        if (sf != SCALE_NORMAL) return sf;
    }

    Bitboard wb = pos_pieces_cpt(pos, WHITE, BISHOP), bb = pos_pieces_cpt(pos, BLACK, BISHOP);
    bool oppositeBishops = popcount(wb) == 1 && popcount(bb) == 1
                        && !(DARK_SQUARES_BB & wb) != !(DARK_SQUARES_BB & bb);
    if (oppositeBishops) {
        int sf;
        if (npmStrong == NPM_BISHOP && npmWeak == NPM_BISHOP)
            sf = SCALE_OCB_PURE + SCALE_OCB_PURE_PER_PASSER * popcount(pe->passed[strong]);
        else
            sf = SCALE_OCB_PIECES + SCALE_OCB_PER_PIECE * popcount(pos_pieces_c(pos, strong));
        return min_int(sf, SCALE_NORMAL);
    }
    return SCALE_NORMAL;
}

/* ------------------------------------------------------------ evaluation */

/* Game phase: PHASE_MAX with all pieces on the board, 0 with only kings and pawns. */
static int game_phase(const Position *pos) {
    int phase = 0;
    for (PieceType pt = KNIGHT; pt <= QUEEN; pt++) phase += PhaseWeight[pt] * popcount(pos_pieces_pt(pos, pt));
    return min_int(phase, PHASE_MAX);
}

/* The whole evaluation; trace (may be NULL) receives every feature count. */
EVAL_INLINE Value evaluate(const Position *pos, EvalCache *table, EvalTrace *trace) {
    PawnEntry scratch;
    EvalInfo ei;
    ei.pos = pos;
    ei.pe = pawn_probe(pos, table, &scratch, trace);
    eval_info_init(&ei);

    Score score = ei.pe->score;
    score += eval_material(pos, WHITE, trace) - eval_material(pos, BLACK, trace);
    for (PieceType pt = KNIGHT; pt <= QUEEN; pt++)
        score += eval_piece_type(&ei, WHITE, pt, trace) - eval_piece_type(&ei, BLACK, pt, trace);
    score += eval_shelter(&ei, WHITE, trace) - eval_shelter(&ei, BLACK, trace);
    score += eval_king_danger(&ei, WHITE, trace) - eval_king_danger(&ei, BLACK, trace);
    score += eval_king_flank(&ei, WHITE, trace) - eval_king_flank(&ei, BLACK, trace);
    score += eval_threats(&ei, WHITE, trace) - eval_threats(&ei, BLACK, trace);
    score += eval_passed(&ei, WHITE, trace) - eval_passed(&ei, BLACK, trace);
    if (non_pawn_units(pos, WHITE) + non_pawn_units(pos, BLACK) >= SPACE_MIN_NPM)
        score += eval_space(&ei, WHITE, trace) - eval_space(&ei, BLACK, trace);
    score += eval_imbalance(pos, table, trace);

    int mg = mg_value(score), eg = eg_value(score);
    /* Against a bare king nothing is drawish but what scale_factor() knows. */
    int complexity = bare_king(pos) ? 0 : eval_complexity(&ei, eg, trace);
    eg += complexity;
    int phase = game_phase(pos);
    int mgScale;
    int scale = scale_factor(pos, ei.pe, eg > 0 ? WHITE : BLACK, &mgScale);
    int whiteView = (mg * phase * mgScale + eg * (PHASE_MAX - phase) * scale) / (PHASE_MAX * SCALE_NORMAL);

    Color us = pos_side_to_move(pos);
    Score tempoScore = term(trace, TEMPO, us, 1);
    int tempo = (mg_value(tempoScore) * phase + eg_value(tempoScore) * (PHASE_MAX - phase)) / PHASE_MAX;
    int total = (us == WHITE ? whiteView : -whiteView) + tempo;
    total = max_int(min_int(total, VALUE_EVAL_MAX), -VALUE_EVAL_MAX);

    if (trace) {
        trace->phase = phase;
        trace->scale = scale;
        trace->mgScale = mgScale;
        for (Color c = WHITE; c <= BLACK; c++) trace->scaleFor[c] = scale_factor(pos, ei.pe, c, &trace->mgScaleFor[c]);
        trace->mg = mg;
        trace->eg = eg;
        trace->complexity = complexity;
        trace->whiteView = whiteView;
        trace->tempo = tempo;
        trace->total = total;
    }
    return total;
}

/* The search's entry point: no trace, so no bookkeeping. */
Value eval_evaluate(const Position *pos, EvalCache *pawns) { return evaluate(pos, pawns, NULL); }

/* The same evaluation with every feature count recorded (pawn terms recomputed, not cached). */
Value eval_evaluate_traced(const Position *pos, EvalTrace *trace) {
    memset(trace, 0, sizeof *trace);
    return evaluate(pos, NULL, trace);
}

/* ------------------------------------------------------------ printing */

static const char *const PieceNames[] = {"pawn", "knight", "bishop", "rook", "queen"};
static const char *const ComplexityNames[COMPLEXITY_NB] = {
    "passed pawns", "pawns", "outflanking", "pawns on both flanks", "infiltration", "pawn ending",
    "almost unwinnable", "base"};
static const char *const KindNames[IMBALANCE_KINDS] = {"bishop pair", "pawn", "knight", "bishop", "rook", "queen"};

/* The term a parameter belongs to. */
static const EvalTermInfo *term_of(int param) {
    for (int t = TERM_NB - 1; t >= 0; t--)
        if (param >= EvalTerms[t].first) return &EvalTerms[t];
    return &EvalTerms[0];
}

/* Readable name of one parameter: term text plus piece, square, count or rank. */
void eval_param_label(int param, char *out, size_t len) {
    const EvalTermInfo *info = term_of(param);
    int i = param - info->first;
    switch (info->label) {
    case LABEL_PIECE: snprintf(out, len, "%s %s", info->text, PieceNames[i]); break;
    case LABEL_SQUARE: snprintf(out, len, "%s %c%d", info->text, 'a' + (i & 7), 8 - (i >> 3)); break;
    case LABEL_COUNT: snprintf(out, len, "%s %d", info->text, i); break;
    case LABEL_RANK: snprintf(out, len, "%s rank %d", info->text, i + 1); break;
    case LABEL_SHELTER:
        if (i % 8)
            snprintf(out, len, "%s edge %d rank %d", info->text, i / 8, i % 8 + 1);
        else
            snprintf(out, len, "%s edge %d none", info->text, i / 8);
        break;
    case LABEL_COMPLEXITY: snprintf(out, len, "%s %s", info->text, ComplexityNames[i]); break;
    case LABEL_PAIR: {
        int a = 0;
        while ((a + 1) * (a + 2) / 2 <= i) a++;
        snprintf(out, len, "%s %s x %s", info->text, KindNames[a], KindNames[i - a * (a + 1) / 2]);
        break;
    }
    default: snprintf(out, len, "%s", info->text); break;
    }
}

/* Each term's comment in evalweights.c says how its entries are laid out. */
static const char *const LabelHints[] = {
    [LABEL_NONE] = "",
    [LABEL_PIECE] = ": pawn, knight, bishop, rook, queen",
    [LABEL_SQUARE] = ": rank 8 first, files a to h",
    [LABEL_COUNT] = ": by count, from 0",
    [LABEL_RANK] = ": by relative rank, 1 to 8",
    [LABEL_SHELTER] = ": a row per file edge distance 0 to 3, by the pawn's relative rank (first: no pawn)",
    [LABEL_PAIR] = ": pairs of bishop pair, pawn, knight, bishop, rook, queen (a >= b)",
    [LABEL_COMPLEXITY] = ": passers, pawns, outflanking, flanks, infiltration, pawn ending, unwinnable, base (eg)",
};

/* Writes weights as the C definition of EvalWeights: one commented block per term, eight pairs a line. */
void eval_write_table(FILE *out, const Score *weights) {
    fprintf(out, "const Score EvalWeights[PARAM_NB] = {\n");
    for (int t = 0; t < TERM_NB; t++) {
        const EvalTermInfo *info = &EvalTerms[t];
        fprintf(out, "    /* %s%s */\n", info->text, LabelHints[info->label]);
        if (info->count == 1) {
            Score w = weights[info->first];
            fprintf(out, "    [%s] = S(%4d,%4d),\n", info->name, mg_value(w), eg_value(w));
            continue;
        }
        fprintf(out, "    [%s] =\n", info->name);
        for (int i = 0; i < info->count; i++) {
            Score w = weights[info->first + i];
            fprintf(out, "%sS(%4d,%4d),%s", i % 8 ? " " : "        ", mg_value(w), eg_value(w),
                    i % 8 == 7 || i == info->count - 1 ? "\n" : "");
        }
    }
    fprintf(out, "};\n");
}

/* Writes the compiled-in table that way. */
void eval_print_weights(FILE *out) { eval_write_table(out, EvalWeights); }

static const char *const GroupNames[GROUP_NB] = {
    "Material", "Piece-square", "Mobility", "Pawns", "Passed pawns", "Pieces", "King safety", "Threats", "Space",
    "Imbalance", "Tempo", "Complexity"};

/* One row: a parameter's counts, weights and White-minus-Black contribution. */
static void print_row(FILE *out, const EvalTrace *t, int p) {
    char label[64];
    int w = t->coeff[p][WHITE], b = t->coeff[p][BLACK];
    int mg = mg_value(EvalWeights[p]), eg = eg_value(EvalWeights[p]);
    eval_param_label(p, label, sizeof label);
    fprintf(out, "%-36s %5d %5d | %5d %5d | %6d %6d\n", label, w, b, mg, eg, (w - b) * mg, (w - b) * eg);
}

/* Prints the rows with a non-zero count, group subtotals, then phase, scale, tempo and total. */
void eval_trace(const Position *pos, FILE *out) {
    EvalTrace t;
    eval_evaluate_traced(pos, &t);

    fprintf(out, "Evaluation terms: counts for White and Black, (mg, eg) weight, and the\n"
                 "contribution (White - Black) * weight. Squares and ranks are seen from each\n"
                 "side's own point of view (Black's mirrored).\n\n");
    fprintf(out, "%-36s %5s %5s | %5s %5s | %6s %6s\n", "Term", "White", "Black", "mg", "eg", "mg", "eg");
    int sums[GROUP_NB][COLOR_NB][2] = {{{0}}};
    for (int p = 0; p < PARAM_NB; p++) {
        if (!t.coeff[p][WHITE] && !t.coeff[p][BLACK]) continue;
        const EvalTermInfo *info = term_of(p);
        for (Color c = WHITE; c <= BLACK; c++) {
            sums[info->group][c][0] += t.coeff[p][c] * mg_value(EvalWeights[p]);
            sums[info->group][c][1] += t.coeff[p][c] * eg_value(EvalWeights[p]);
        }
        if (p != TEMPO) print_row(out, &t, p);
    }

    fprintf(out, "\n%-14s | %6s %6s | %6s %6s | %6s %6s\n", "Group", "W mg", "W eg", "B mg", "B eg", "mg", "eg");
    for (int g = 0; g < GROUP_TEMPO; g++)
        fprintf(out, "%-14s | %6d %6d | %6d %6d | %6d %6d\n", GroupNames[g], sums[g][WHITE][0], sums[g][WHITE][1],
                sums[g][BLACK][0], sums[g][BLACK][1], sums[g][WHITE][0] - sums[g][BLACK][0],
                sums[g][WHITE][1] - sums[g][BLACK][1]);
    fprintf(out, "%-14s | %6s %6s | %6s %6s | %6d %6d\n\n", "Sum", "", "", "", "", t.mg, t.eg);

    fprintf(out, "Complexity     %d added to eg (eg before: %d)\n", t.complexity, t.eg - t.complexity);
    fprintf(out, "Phase          %d/%d (mg weight; eg weight %d/%d)\n", t.phase, PHASE_MAX, PHASE_MAX - t.phase, PHASE_MAX);
    fprintf(out, "Scale          mg %d/%d, eg %d/%d\n", t.mgScale, SCALE_NORMAL, t.scale, SCALE_NORMAL);
    fprintf(out, "Tapered        %d (White's view) = (mg %d * %d * %d + eg %d * %d * %d) / (%d * %d)\n", t.whiteView,
            t.mg, t.phase, t.mgScale, t.eg, PHASE_MAX - t.phase, t.scale, PHASE_MAX, SCALE_NORMAL);
    fprintf(out, "Tempo          %d (%s to move, weight S(%d, %d))\n", t.tempo,
            pos_side_to_move(pos) == WHITE ? "White" : "Black", mg_value(EvalWeights[TEMPO]), eg_value(EvalWeights[TEMPO]));
    fprintf(out, "Total          %d (side to move), %d (White's view)\n", t.total,
            pos_side_to_move(pos) == WHITE ? t.total : -t.total);
}
