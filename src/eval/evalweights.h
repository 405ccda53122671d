/*
 * The evaluation's parameters: one flat table of middlegame/endgame pairs
 * (EvalWeights, defined in evalweights.c), indexed by the term list below.
 * The evaluator, the trace (`eval` command), a Texel tuner and the printer
 * that writes tuned values back as C all walk the same list, so adding a
 * term here is the only place its size and name are declared.
 */
#ifndef GIZUM_EVALWEIGHTS_H
#define GIZUM_EVALWEIGHTS_H

#include <stdint.h>

/*
 * A packed middlegame/endgame pair: eg in the high 16 bits, mg in the low
 * 16 bits (sign-corrected), so pairs add, subtract and scale by an integer
 * in one operation. Built by multiplication, never by shifting a negative.
 */
typedef int32_t Score;

#define S(mg, eg) ((Score)((int32_t)(eg) * 65536 + (int32_t)(mg)))

static inline int mg_value(Score s) { return (int16_t)(uint16_t)(uint32_t)s; }
static inline int eg_value(Score s) { return (int16_t)(uint16_t)(((uint32_t)s + 0x8000u) >> 16); }

/* How a term's entries are named in the trace and the printer. */
typedef enum {
    LABEL_NONE,    /* a single value */
    LABEL_PIECE,   /* indexed by piece type - 1: pawn .. queen */
    LABEL_SQUARE,  /* 64 entries, rank 8 first (reads like a board from White's side) */
    LABEL_COUNT,   /* indexed by a count: safe squares, danger units, distance ... */
    LABEL_RANK,    /* indexed by relative rank 0..7 */
    LABEL_SHELTER, /* indexed by 8 * edge distance of the file (0..3) + relative rank (0 = none) */
    LABEL_PAIR,    /* indexed by a pair of material kinds a >= b: a * (a + 1) / 2 + b (imbalance) */
    LABEL_COMPLEXITY /* indexed by ComplexityFeature */
} LabelKind;

/* Feature groups, for the trace's summary table. */
typedef enum {
    GROUP_MATERIAL, GROUP_PSQT, GROUP_MOBILITY, GROUP_PAWNS, GROUP_PASSED,
    GROUP_PIECES, GROUP_KING, GROUP_THREATS, GROUP_SPACE, GROUP_IMBALANCE, GROUP_TEMPO,
    GROUP_COMPLEXITY, GROUP_NB
} TermGroup;

/* Every term: enum name, number of entries, how entries are labelled, group, description. */
#define EVAL_TERMS(X)                                                                          \
    X(PIECE_VALUE, 5, LABEL_PIECE, GROUP_MATERIAL, "material")                                 \
    X(PSQT_PAWN, 64, LABEL_SQUARE, GROUP_PSQT, "psqt pawn")                                    \
    X(PSQT_KNIGHT, 64, LABEL_SQUARE, GROUP_PSQT, "psqt knight")                                \
    X(PSQT_BISHOP, 64, LABEL_SQUARE, GROUP_PSQT, "psqt bishop")                                \
    X(PSQT_ROOK, 64, LABEL_SQUARE, GROUP_PSQT, "psqt rook")                                    \
    X(PSQT_QUEEN, 64, LABEL_SQUARE, GROUP_PSQT, "psqt queen")                                  \
    X(PSQT_KING, 64, LABEL_SQUARE, GROUP_PSQT, "psqt king")                                    \
    X(KWING_OWN_PAWN, 64, LABEL_SQUARE, GROUP_PSQT, "pawn by own king's wing")                 \
    X(KWING_OWN_KNIGHT, 64, LABEL_SQUARE, GROUP_PSQT, "knight by own king's wing")             \
    X(KWING_OWN_BISHOP, 64, LABEL_SQUARE, GROUP_PSQT, "bishop by own king's wing")             \
    X(KWING_OWN_ROOK, 64, LABEL_SQUARE, GROUP_PSQT, "rook by own king's wing")                 \
    X(KWING_OWN_QUEEN, 64, LABEL_SQUARE, GROUP_PSQT, "queen by own king's wing")               \
    X(KWING_ENEMY_PAWN, 64, LABEL_SQUARE, GROUP_PSQT, "pawn by enemy king's wing")             \
    X(KWING_ENEMY_KNIGHT, 64, LABEL_SQUARE, GROUP_PSQT, "knight by enemy king's wing")         \
    X(KWING_ENEMY_BISHOP, 64, LABEL_SQUARE, GROUP_PSQT, "bishop by enemy king's wing")         \
    X(KWING_ENEMY_ROOK, 64, LABEL_SQUARE, GROUP_PSQT, "rook by enemy king's wing")             \
    X(KWING_ENEMY_QUEEN, 64, LABEL_SQUARE, GROUP_PSQT, "queen by enemy king's wing")           \
    X(MOBILITY_KNIGHT, 9, LABEL_COUNT, GROUP_MOBILITY, "mobility knight")                      \
    X(MOBILITY_BISHOP, 14, LABEL_COUNT, GROUP_MOBILITY, "mobility bishop")                     \
    X(MOBILITY_ROOK, 15, LABEL_COUNT, GROUP_MOBILITY, "mobility rook")                         \
    X(MOBILITY_QUEEN, 28, LABEL_COUNT, GROUP_MOBILITY, "mobility queen")                       \
    X(PAWN_DOUBLED, 1, LABEL_NONE, GROUP_PAWNS, "doubled pawn")                                \
    X(PAWN_ISOLATED, 1, LABEL_NONE, GROUP_PAWNS, "isolated pawn")                              \
    X(PAWN_BACKWARD, 1, LABEL_NONE, GROUP_PAWNS, "backward pawn")                              \
    X(PAWN_PHALANX, 8, LABEL_RANK, GROUP_PAWNS, "pawn phalanx")                                \
    X(PAWN_SUPPORTED, 8, LABEL_RANK, GROUP_PAWNS, "pawn supporters")                           \
    X(PAWN_WEAK_UNOPPOSED, 1, LABEL_NONE, GROUP_PAWNS, "weak pawn, no enemy pawn ahead")       \
    X(PAWN_WEAK_LEVER, 1, LABEL_NONE, GROUP_PAWNS, "pawn attacked twice by pawns, undefended") \
    X(PASSED_RANK, 8, LABEL_RANK, GROUP_PASSED, "passed pawn")                                 \
    X(PASSED_BLOCKED, 8, LABEL_RANK, GROUP_PASSED, "passed blocked")                           \
    X(PASSED_FREE_PATH, 8, LABEL_RANK, GROUP_PASSED, "passed free path")                       \
    X(PASSED_OWN_KING, 8, LABEL_RANK, GROUP_PASSED, "passed own king dist")                    \
    X(PASSED_ENEMY_KING, 8, LABEL_RANK, GROUP_PASSED, "passed enemy king dist")                \
    X(BISHOP_PAIR, 1, LABEL_NONE, GROUP_PIECES, "bishop pair")                                 \
    X(BISHOP_PAWN_COLOR, 1, LABEL_NONE, GROUP_PIECES, "bishop own pawns same colour")          \
    X(KNIGHT_OUTPOST, 1, LABEL_NONE, GROUP_PIECES, "knight outpost")                           \
    X(BISHOP_OUTPOST, 1, LABEL_NONE, GROUP_PIECES, "bishop outpost")                           \
    X(MINOR_BEHIND_PAWN, 1, LABEL_NONE, GROUP_PIECES, "minor behind pawn")                     \
    X(ROOK_OPEN_FILE, 1, LABEL_NONE, GROUP_PIECES, "rook open file")                           \
    X(ROOK_SEMIOPEN_FILE, 1, LABEL_NONE, GROUP_PIECES, "rook semi-open file")                  \
    X(ROOK_SEVENTH, 1, LABEL_NONE, GROUP_PIECES, "rook on 7th")                                \
    X(QUEEN_OPEN_FILE, 1, LABEL_NONE, GROUP_PIECES, "queen open file")                         \
    X(QUEEN_SEMIOPEN_FILE, 1, LABEL_NONE, GROUP_PIECES, "queen semi-open file")                \
    X(KNIGHT_REACHABLE_OUTPOST, 1, LABEL_NONE, GROUP_PIECES, "knight can reach an outpost")    \
    X(KNIGHT_KING_DISTANCE, 1, LABEL_NONE, GROUP_PIECES, "knight distance to own king")        \
    X(BISHOP_KING_DISTANCE, 1, LABEL_NONE, GROUP_PIECES, "bishop distance to own king")        \
    X(BISHOP_PAWNS_BLOCKED, 1, LABEL_NONE, GROUP_PIECES, "bishop pawns x blocked centre pawns") \
    X(BISHOP_XRAY_PAWNS, 1, LABEL_NONE, GROUP_PIECES, "bishop x-rays enemy pawns")             \
    X(BISHOP_LONG_DIAGONAL, 1, LABEL_NONE, GROUP_PIECES, "bishop sees both centre squares")    \
    X(ROOK_TRAPPED, 1, LABEL_NONE, GROUP_PIECES, "rook trapped by own king")                   \
    X(ROOK_QUEEN_FILE, 1, LABEL_NONE, GROUP_PIECES, "rook on a queen's file")                  \
    X(QUEEN_WEAK, 1, LABEL_NONE, GROUP_PIECES, "queen pinned or open to discovery")            \
    X(KING_SHIELD, 32, LABEL_SHELTER, GROUP_KING, "king pawn shield")                          \
    X(KING_STORM, 32, LABEL_SHELTER, GROUP_KING, "king pawn storm")                            \
    X(KING_STORM_BLOCKED, 8, LABEL_RANK, GROUP_KING, "king blocked storm")                     \
    X(KING_OPEN_FILE, 1, LABEL_NONE, GROUP_KING, "king open file near")                        \
    X(KING_DANGER, 100, LABEL_COUNT, GROUP_KING, "king danger units")                          \
    X(KING_FLANK_ATTACKS, 1, LABEL_NONE, GROUP_KING, "attacks on the king's flank")            \
    X(KING_PAWNLESS_FLANK, 1, LABEL_NONE, GROUP_KING, "no pawn on the king's flank")           \
    X(THREAT_BY_PAWN, 5, LABEL_PIECE, GROUP_THREATS, "threat by pawn on")                      \
    X(THREAT_BY_MINOR, 5, LABEL_PIECE, GROUP_THREATS, "threat by minor on")                    \
    X(THREAT_BY_ROOK, 5, LABEL_PIECE, GROUP_THREATS, "threat by rook on")                      \
    X(THREAT_BY_KING, 1, LABEL_NONE, GROUP_THREATS, "threat by king")                          \
    X(HANGING, 1, LABEL_NONE, GROUP_THREATS, "hanging piece")                                  \
    X(THREAT_SAFE_PAWN, 1, LABEL_NONE, GROUP_THREATS, "threat by a safe pawn")                 \
    X(THREAT_PAWN_PUSH, 1, LABEL_NONE, GROUP_THREATS, "threat by a safe pawn push")            \
    X(THREAT_KNIGHT_ON_QUEEN, 1, LABEL_NONE, GROUP_THREATS, "knight can attack the queen")     \
    X(THREAT_SLIDER_ON_QUEEN, 1, LABEL_NONE, GROUP_THREATS, "slider can attack the queen")     \
    X(THREAT_RESTRICTED, 1, LABEL_NONE, GROUP_THREATS, "restricted enemy square")              \
    X(THREAT_QUEEN_PROTECTED, 1, LABEL_NONE, GROUP_THREATS, "weak piece only the queen guards") \
    X(SPACE, 1, LABEL_NONE, GROUP_SPACE, "space x weight^2 / 16")                               \
    X(IMBALANCE_OURS, 21, LABEL_PAIR, GROUP_IMBALANCE, "imbalance ours x ours")                \
    X(IMBALANCE_THEIRS, 21, LABEL_PAIR, GROUP_IMBALANCE, "imbalance ours x theirs")            \
    X(TEMPO, 1, LABEL_NONE, GROUP_TEMPO, "tempo")                                              \
    X(COMPLEXITY, 8, LABEL_COMPLEXITY, GROUP_COMPLEXITY, "complexity")

/* Parameter indices: each term's first entry gets its name, the rest follow it. */
#define EVAL_TERM_ENUM(name, count, label, group, text) name, name##_LAST_ = name + (count) - 1,
enum { EVAL_TERMS(EVAL_TERM_ENUM) PARAM_NB };
#undef EVAL_TERM_ENUM

/* Term numbers (one per X entry), for walking the list. */
#define EVAL_TERM_ID(name, count, label, group, text) TERM_##name,
enum { EVAL_TERMS(EVAL_TERM_ID) TERM_NB };
#undef EVAL_TERM_ID

/*
 * The complexity entries (endgame weights only; their middlegame halves are
 * unused). Their sum C is not added like the other terms: it moves the
 * endgame sum eg away from zero, eg + sign(eg) * max(C, -|eg|), so a
 * simple-looking ending (few pawns, kings in opposition) is pulled towards a
 * draw and a rich one keeps the edge (Stockfish's "initiative").
 */
typedef enum {
    COMPLEXITY_PASSED, COMPLEXITY_PAWNS, COMPLEXITY_OUTFLANKING, COMPLEXITY_BOTH_FLANKS,
    COMPLEXITY_INFILTRATION, COMPLEXITY_PAWN_ENDING, COMPLEXITY_UNWINNABLE, COMPLEXITY_BASE,
    COMPLEXITY_NB
} ComplexityFeature;

static inline int eval_param_is_complexity(int p) { return p >= COMPLEXITY && p <= COMPLEXITY_LAST_; }

/* Size of the king danger table: attack units beyond the last entry use the last entry. */
enum { KING_DANGER_NB = 100 };

/*
 * Fixed shape constants (not tuned: they choose which KING_DANGER entry
 * applies, the tuner then sets each entry's value). King attack units:
 * per enemy piece attacking the king zone, per attack on a square next to
 * the king, per weak zone square, per safe / unsafe check, per piece pinned
 * to or shielding its king from a slider (either colour), and the
 * reduction when the attacker has no queen.
 */
enum {
    KD_ATTACKER_KNIGHT = 3, KD_ATTACKER_BISHOP = 2, KD_ATTACKER_ROOK = 2, KD_ATTACKER_QUEEN = 1,
    KD_ADJACENT_ATTACK = 3,
    KD_WEAK_ZONE_SQUARE = 6,
    KD_SAFE_CHECK_KNIGHT = 24, KD_SAFE_CHECK_BISHOP = 18, KD_SAFE_CHECK_ROOK = 30, KD_SAFE_CHECK_QUEEN = 24,
    KD_UNSAFE_CHECK = 4, KD_KING_BLOCKER = 3,
    KD_NO_QUEEN = 30, KD_KNIGHT_DEFENDER = 3
};

/*
 * Non-pawn material in fixed units for endgame scaling decisions (which
 * endings are drawish), independent of the tuned piece values.
 */
enum { NPM_KNIGHT = 3, NPM_BISHOP = 3, NPM_ROOK = 5, NPM_QUEEN = 9 };

/*
 * Endgame scale factors out of SCALE_NORMAL: a pawnless side with a small
 * edge (below a rook: a draw, against at most a minor: almost, otherwise
 * much less), and opposite-coloured bishops (bishops only: a base plus a
 * bonus per passed pawn of the stronger side; with other pieces: a base
 * plus a bonus per piece).
 */
enum {
    SCALE_NORMAL = 64, SCALE_DRAW = 0,
    SCALE_PAWNLESS_VS_MINOR = 4, SCALE_PAWNLESS_SMALL_EDGE = 14,
    SCALE_OCB_PURE = 16, SCALE_OCB_PURE_PER_PASSER = 6,
    SCALE_OCB_PIECES = 22, SCALE_OCB_PER_PIECE = 3
};

/*
 * Space counts only while this much non-pawn material (NPM units, both
 * sides) is on the board: space matters while pieces need room to manoeuvre.
 */
enum { SPACE_MIN_NPM = 46 };

/* Material kinds of the imbalance pairs: the bishop pair counts as a kind of its own. */
enum { IMBALANCE_KINDS = 6 };

/* Passed-pawn king distances are counted up to this many squares. */
enum { PASSED_KING_DIST_MAX = 5 };

/* The parameter table (middlegame, endgame pairs), laid out by EVAL_TERMS. */
extern const Score EvalWeights[PARAM_NB];

#endif
