/*
 * Gizum's evaluation weights: (middlegame, endgame) pairs in centipawns,
 * laid out by EVAL_TERMS in evalweights.h. Data only: this whole file is
 * what gizum-tune writes (tools/tune/tune_weights.c), so a tune can
 * regenerate it.
 */
#include "evalweights.h"

const Score EvalWeights[PARAM_NB] = {
    /* material: pawn, knight, bishop, rook, queen */
    [PIECE_VALUE] =
        S( 100, 108), S( 321, 324), S( 340, 350), S( 458, 588), S(1004,1048),
    /* psqt pawn: rank 8 first, files a to h */
    [PSQT_PAWN] =
        S(   0,   0), S(   0,   0), S(   0,   0), S(   0,   0), S(   0,   0), S(   0,   0), S(   0,   0), S(   0,   0),
        S( 131, -10), S(   7,  35), S(  -4,  50), S(  10,  47), S(  28,  69), S(  -6,  74), S(  17,  66), S(  16,  21),
        S(   9,   2), S(  22,   2), S(  -7,  15), S(  19,   5), S(  -1,  28), S(   7,  12), S(  22,   9), S(  -7,  17),
        S(  -5,  19), S(  -1,  11), S(  -4,  14), S(  -3,  -2), S(   3,   6), S(   3,   5), S(   7,   6), S( -11,  15),
        S( -22,   9), S( -18,  11), S(  -7,   4), S(  -2,  -9), S(  -7,   1), S(   2,   3), S( -12,  13), S( -12,   8),
        S( -25,   7), S( -18,  14), S( -14,   6), S(  -8,  -2), S(  -7,   8), S( -11,   2), S(   4,  10), S( -12,  10),
        S( -25,  14), S(  -7,   9), S( -18,  16), S( -13,   5), S( -15,  11), S( -13,   8), S(  14,   6), S(  -9,   8),
        S(   0,   0), S(   0,   0), S(   0,   0), S(   0,   0), S(   0,   0), S(   0,   0), S(   0,   0), S(   0,   0),
    /* psqt knight: rank 8 first, files a to h */
    [PSQT_KNIGHT] =
        S( -63, -24), S( -43, -25), S( -37,  -6), S( -19,  -9), S( -12,   6), S( -38,   0), S( -43, -25), S( -55, -35),
        S( -26, -15), S( -23,   2), S(  11,   1), S(  18,   1), S(  10,  -1), S(  20,   3), S(  -7, -13), S( -21, -33),
        S(  -3,  -6), S(  -2,   5), S(  15,   7), S(  24,   1), S(  28,   4), S(  20,   9), S( -16,   4), S( -10, -11),
        S(  -2,   1), S(  12,  -1), S(  14,   7), S(  22,  14), S(  16,  11), S(  39,   0), S(  10,   2), S(  14, -10),
        S(   3, -17), S(   9,   7), S(   7,   6), S(   5,  13), S(  14,  10), S(  10,   3), S(  31,   3), S(   4,  -8),
        S( -24,  -8), S( -11, -11), S(  -7,  -1), S(  -4,   4), S(   5,   2), S(  -1, -11), S(   6, -11), S( -18, -24),
        S( -26, -10), S( -64,  -6), S(  -9, -22), S(  -6, -12), S(  -8, -10), S(   3, -34), S( -26, -10), S( -18,  -6),
        S( -42, -19), S( -26,  -7), S( -20, -20), S(  -4, -17), S(  -6, -18), S( -18, -41), S( -28, -11), S( -55, -31),
    /* psqt bishop: rank 8 first, files a to h */
    [PSQT_BISHOP] =
        S(  -9, -13), S( -10, -22), S(  -4,   9), S( -10,  -1), S(  -5,   3), S( -12,   3), S(  -2,  12), S(  12,   0),
        S( -17, -22), S( -32,   2), S(  -8,  -3), S(   0,   5), S(  -1,  10), S(  -4,   2), S( -36,   0), S(  -1, -19),
        S( -15,  -9), S(  -9, -17), S( -19,   0), S(  10,  -7), S(  14,   5), S(   0,   7), S(   3,   4), S(  -1,  -2),
        S(  -3, -11), S(  -4,  -4), S(  -1,  11), S(  13,   3), S(  17,   2), S(  22,   3), S(  -3,   3), S(   0, -17),
        S(  -2, -19), S(  -1, -11), S(   7,   6), S(   8,   2), S(  17,  -3), S(   3,   0), S(   2,  -7), S(   8, -18),
        S(  -7,  -9), S(  12, -17), S(   3, -15), S(  -2,   6), S(  -1,   2), S(   0, -18), S(   8,  -6), S(   1, -19),
        S( -14,   0), S(  -1, -24), S(  -2, -11), S(  -9, -10), S( -10,  -6), S(  -4, -11), S(   5, -25), S(  21, -24),
        S( -21,  -5), S( -15, -11), S( -21, -19), S( -16, -13), S( -19, -15), S( -29, -11), S( -21,  -7), S( -17, -30),
    /* psqt rook: rank 8 first, files a to h */
    [PSQT_ROOK] =
        S(  21,  16), S(   3,  23), S(   7,  18), S(   8,  14), S(   3,  18), S(  -3,  12), S(  -2,  17), S(  19,  11),
        S(  21,   8), S(  -3,  10), S(  22,  11), S(  10,  13), S(   9,  13), S(  17,   3), S(   0,  15), S(  31,   2),
        S(   7,  14), S(   5,   6), S(  18,   7), S(   3,  10), S(  29,   2), S(   1,  -5), S(  20,  -1), S( -13,  17),
        S( -11,  18), S(   4,  11), S(  16,   6), S(  -1,   4), S(   7,  10), S(   3,   7), S(   5,  17), S(   6,   4),
        S( -18,  21), S(  -7,  10), S(  -5,   4), S(   5,  -3), S(  18,  -1), S(  -8,   3), S(  -7,  11), S(  -6,   8),
        S( -24,   3), S( -30,  -2), S( -12,   1), S( -19,  -1), S(  -8,  -1), S(  -9, -10), S(   4,  -8), S(  -6,  -9),
        S( -20,  -1), S( -17, -11), S(  -3,  -9), S(  -7,  -7), S(  -9,  -4), S(   6, -18), S(   9, -13), S( -16, -14),
        S( -12, -14), S(  -5, -18), S(  -5, -13), S(  -1, -18), S(   4, -21), S(   3, -23), S(   9, -24), S(   8, -38),
    /* psqt queen: rank 8 first, files a to h */
    [PSQT_QUEEN] =
        S( -17, -15), S(  -6, -10), S(   1,  -5), S(  -5, -11), S(  -7, -12), S(  11,   3), S(  -1, -10), S(  12, -14),
        S(  -6, -15), S( -17,   0), S(   3,   6), S(  -1,   7), S(  -1,  11), S(  -1,   2), S( -11,  -5), S(   7,  -9),
        S(   5,  -8), S(   4,  13), S(   0,  15), S(   8,  11), S( -16,  12), S(  -2,   2), S(   0,   0), S(   2,  -2),
        S(   2,   4), S(  -3,  10), S(  -1,  19), S(  -2,  36), S(   0,  28), S(  46,   8), S(   7,  14), S(   7, -34),
        S(  -5, -10), S(  -9, -10), S(   0,  14), S( -20,  30), S(  -4,  14), S(  -6,   9), S(   0,  -3), S(   4,   1),
        S(  -8, -13), S(  -1,  -9), S(  -2,   7), S(  -4,   4), S(  -3,  -1), S(  -4,   0), S(  -2, -13), S(  -3, -19),
        S( -16, -24), S( -15, -20), S(  -1, -32), S(  -2, -17), S(   0, -30), S(  -6, -32), S(   0, -37), S( -31, -19),
        S(  -8, -38), S( -12, -47), S( -11, -33), S(  -6, -68), S( -14, -36), S( -20, -41), S( -24, -29), S(  -4, -40),
    /* psqt king: rank 8 first, files a to h */
    [PSQT_KING] =
        S( -82, -76), S( -84, -50), S( -86, -23), S( -91, -17), S( -92, -29), S( -85, -21), S( -81, -22), S( -90,-104),
        S( -72, -58), S( -71,  -1), S( -75,  -9), S( -84,   2), S( -83,   2), S( -73,  22), S( -75,   4), S( -72, -52),
        S( -60, -43), S( -59, -14), S( -72,  -3), S( -83,   3), S( -81,  21), S( -75,   9), S( -67,   0), S( -56, -24),
        S( -50, -18), S( -55, -17), S( -61,  -6), S( -74,   8), S( -70,  14), S( -58,  -4), S( -54, -15), S( -38, -37),
        S( -41, -38), S( -32, -24), S( -35, -15), S( -65,  -1), S( -51,   0), S( -46, -11), S( -27, -24), S( -27, -39),
        S( -28, -36), S( -24, -30), S( -21, -25), S( -39,  -8), S( -46, -10), S( -11, -26), S( -15, -30), S( -26, -35),
        S(  -5, -39), S( -11, -43), S( -39, -40), S( -31, -22), S( -16, -30), S( -14, -42), S( -11, -38), S(  -6, -55),
        S(   8, -65), S(  16, -61), S(  18, -62), S( -29, -46), S(  -2, -57), S( -14, -53), S(  18, -65), S(  11, -78),
    /* mobility knight: by count, from 0 */
    [MOBILITY_KNIGHT] =
        S( -34, -60), S( -18, -59), S(  -9, -18), S(  -4,  10), S(   1,  18), S(   5,  22), S(   9,  26), S(  15,  24),
        S(  16,  22),
    /* mobility bishop: by count, from 0 */
    [MOBILITY_BISHOP] =
        S( -20, -53), S( -11, -24), S(  -1,  -2), S(   3,   3), S(   7,  14), S(  11,  19), S(  11,  25), S(  14,  26),
        S(  14,  28), S(  16,  30), S(  24,  22), S(  28,  22), S(  41,  22), S(  46,  20),
    /* mobility rook: by count, from 0 */
    [MOBILITY_ROOK] =
        S( -41, -73), S( -11, -19), S(   2,  -8), S(   0,   4), S(   0,   8), S(   0,  23), S(   0,  29), S(   5,  27),
        S(   5,  41), S(   7,  45), S(   5,  53), S(  11,  55), S(   1,  60), S(  11,  59), S(  19,  55),
    /* mobility queen: by count, from 0 */
    [MOBILITY_QUEEN] =
        S( -20, -30), S( -12, -20), S(   1, -19), S(   3, -17), S(   4, -23), S(   5, -28), S(   8,  -6), S(   7,   8),
        S(  10,   4), S(  10,  14), S(  10,  30), S(  10,  36), S(  10,  37), S(  10,  46), S(  13,  45), S(  15,  56),
        S(  11,  59), S(   9,  55), S(  50,  46), S(  30,  35), S(  24,  42), S(  28,  32), S(  23,  37), S(  25,  37),
        S(  21,  34), S(  18,  29), S(  24,  39), S(  24,  40),
    /* doubled pawn */
    [PAWN_DOUBLED] = S( -17, -19),
    /* isolated pawn */
    [PAWN_ISOLATED] = S(   0, -12),
    /* backward pawn */
    [PAWN_BACKWARD] = S(   0, -18),
    /* pawn phalanx: by relative rank, 1 to 8 */
    [PAWN_PHALANX] =
        S(   0,   0), S(   5,  -2), S(   8,  -1), S(   8,  12), S(  24,  34), S(  63,  66), S(  70,  55), S(   0,   0),
    /* pawn supporters: by relative rank, 1 to 8 */
    [PAWN_SUPPORTED] =
        S(   0,   0), S(   0,   0), S(  13,   6), S(  13,   8), S(  10,  19), S(  41,  39), S(  51,  75), S(   0,   0),
    /* weak pawn, no enemy pawn ahead */
    [PAWN_WEAK_UNOPPOSED] = S(  -4,  -7),
    /* pawn attacked twice by pawns, undefended */
    [PAWN_WEAK_LEVER] = S(   0,   0),
    /* passed pawn: by relative rank, 1 to 8 */
    [PASSED_RANK] =
        S(   0,   0), S(  -1,  15), S(  -2,  30), S(  16,  43), S(  47,  60), S(  63,  85), S( 100,  67), S(   0,   0),
    /* passed blocked: by relative rank, 1 to 8 */
    [PASSED_BLOCKED] =
        S(   0,   0), S(  -2,   1), S(  -5,   1), S( -21,   3), S(  -5,  -4), S( -23, -16), S( -14, -26), S(   0,   0),
    /* passed free path: by relative rank, 1 to 8 */
    [PASSED_FREE_PATH] =
        S(   0,   0), S( -26,  14), S( -27,  12), S( -45,  29), S( -21,  38), S(  19,  65), S(  30, 100), S(   0,   0),
    /* passed own king dist: by relative rank, 1 to 8 */
    [PASSED_OWN_KING] =
        S(   0,   0), S(   0,   2), S(   0,  -4), S(   8, -15), S(  -2, -17), S(   2, -21), S(  36, -37), S(   0,   0),
    /* passed enemy king dist: by relative rank, 1 to 8 */
    [PASSED_ENEMY_KING] =
        S(   0,   0), S(  -2,  -1), S(  -1,  -1), S( -11,  14), S(  -8,  23), S( -11,  41), S( -28,  61), S(   0,   0),
    /* bishop pair */
    [BISHOP_PAIR] = S(  27,  51),
    /* bishop own pawns same colour */
    [BISHOP_PAWN_COLOR] = S(  -3,  -7),
    /* knight outpost */
    [KNIGHT_OUTPOST] = S(  23,  13),
    /* bishop outpost */
    [BISHOP_OUTPOST] = S(  24,   9),
    /* minor behind pawn */
    [MINOR_BEHIND_PAWN] = S(   5,   9),
    /* rook open file */
    [ROOK_OPEN_FILE] = S(  32,  -6),
    /* rook semi-open file */
    [ROOK_SEMIOPEN_FILE] = S(  13,   5),
    /* rook on 7th */
    [ROOK_SEVENTH] = S(  -6,   6),
    /* queen open file */
    [QUEEN_OPEN_FILE] = S(  -9,   9),
    /* queen semi-open file */
    [QUEEN_SEMIOPEN_FILE] = S(   6,  -1),
    /* knight can reach an outpost */
    [KNIGHT_REACHABLE_OUTPOST] = S(  12,   8),
    /* knight distance to own king */
    [KNIGHT_KING_DISTANCE] = S(   1,  -4),
    /* bishop distance to own king */
    [BISHOP_KING_DISTANCE] = S(  -2,  -1),
    /* bishop pawns x blocked centre pawns */
    [BISHOP_PAWNS_BLOCKED] = S(   0,  -1),
    /* bishop x-rays enemy pawns */
    [BISHOP_XRAY_PAWNS] = S(  -2,  -2),
    /* bishop sees both centre squares */
    [BISHOP_LONG_DIAGONAL] = S(   6,  13),
    /* rook trapped by own king */
    [ROOK_TRAPPED] = S(  -7,  -9),
    /* rook on a queen's file */
    [ROOK_QUEEN_FILE] = S(  -4,   7),
    /* queen pinned or open to discovery */
    [QUEEN_WEAK] = S( -13,  -1),
    /* king pawn shield: a row per file edge distance 0 to 3, by the pawn's relative rank (first: no pawn) */
    [KING_SHIELD] =
        S( -15,  14), S(  25, -16), S(  19, -10), S(  12,  -8), S(  -6,   3), S(   4,   7), S(  -8,   8), S(   0,   0),
        S( -18,  18), S(  28,  12), S(  19,   3), S(  11,  -2), S(   3,   5), S(  18, -13), S(   3,  -4), S(   0,   0),
        S(  -7,   5), S(  28,   1), S(  10,   0), S(   0,  -4), S( -12,   0), S(  -6,  -4), S( -12,   0), S(   0,   0),
        S( -17,   6), S(   0,  -1), S(  -2,  -2), S(  -2,  -5), S(   1,  -9), S(  -3, -15), S(  -7,  -5), S(   0,   0),
    /* king pawn storm: a row per file edge distance 0 to 3, by the pawn's relative rank (first: no pawn) */
    [KING_STORM] =
        S(  -5,  -6), S(   6, 113), S( -16,  13), S( -15,   4), S(  -8,  -4), S(  -6,  -1), S(  -8,  -3), S(   0,   0),
        S( -30,  14), S(  12, -12), S( -25,  18), S( -19,  10), S( -27,   6), S( -13,   3), S( -18,   0), S(   0,   0),
        S(   3,   7), S(  -7, -37), S( -54,   5), S( -11,   8), S(   4,  -6), S(   9, -11), S(   7,  -8), S(   0,   0),
        S(  -7,  10), S(  -3, -10), S(  -9,  13), S( -16,  -7), S(  -4,  -4), S(   5,  -6), S(  -5, -18), S(   0,   0),
    /* king blocked storm: by relative rank, 1 to 8 */
    [KING_STORM_BLOCKED] =
        S(   0,   0), S(   0,   0), S(   0, -32), S(  -6,  -5), S(   2, -17), S(  -8,  -5), S(   2, -32), S(   0,   0),
    /* king open file near */
    [KING_OPEN_FILE] = S( -12, -17),
    /* king danger units: by count, from 0 */
    [KING_DANGER] =
        S( -43, -15), S( -35, -16), S( -39,   0), S( -38, -15), S( -37, -19), S( -41,  -3), S( -43, -30), S( -43, -11),
        S( -41, -18), S( -41, -21), S( -44, -19), S( -37, -21), S( -40, -31), S( -42, -28), S( -45, -15), S( -46, -23),
        S( -51, -26), S( -48, -22), S( -45, -25), S( -54, -25), S( -42, -38), S( -50, -28), S( -55, -36), S( -59, -28),
        S( -60, -27), S( -57, -32), S( -59, -34), S( -65, -29), S( -67, -29), S( -73, -33), S( -69, -28), S( -71, -33),
        S( -79, -32), S( -78, -41), S( -70, -38), S( -89, -32), S( -84, -34), S(-105, -34), S( -93, -33), S( -93, -42),
        S( -99, -21), S(-103, -36), S(-113, -36), S(-117, -31), S(-121, -25), S(-125, -42), S(-137, -37), S(-142, -31),
        S(-143, -34), S(-161, -23), S(-158, -29), S(-173, -40), S(-176, -33), S(-178, -29), S(-195, -33), S(-212, -24),
        S(-212, -29), S(-210, -38), S(-227, -22), S(-230, -22), S(-242, -32), S(-168, -19), S(-242, -10), S(-279, -44),
        S(-365, -55), S(-282, -11), S(-318, -49), S(-309, -40), S(-318, -20), S(-348, -51), S(-346, -29), S(-368, -53),
        S(-378, -53), S(-380, -49), S(-385, -13), S(-411, -56), S(-422, -56), S(-433, -57), S(-444, -58), S(-456, -58),
        S(-467, -59), S(-479, -60), S(-491, -61), S(-503, -61), S(-515, -62), S(-527, -63), S(-540, -64), S(-553, -64),
        S(-565, -65), S(-578, -66), S(-591, -67), S(-605, -67), S(-618, -68), S(-631, -69), S(-645, -70), S(-659, -70),
        S(-673, -71), S(-687, -72), S(-701, -73), S(-715, -73),
    /* attacks on the king's flank */
    [KING_FLANK_ATTACKS] = S(  -2,   2),
    /* no pawn on the king's flank */
    [KING_PAWNLESS_FLANK] = S(  19, -41),
    /* threat by pawn on: pawn, knight, bishop, rook, queen */
    [THREAT_BY_PAWN] =
        S(   0,   0), S(  59,  30), S(  45,  52), S(  41,  26), S(  42,  33),
    /* threat by minor on: pawn, knight, bishop, rook, queen */
    [THREAT_BY_MINOR] =
        S(   2,  20), S(  17,  35), S(  29,  18), S(  43,  11), S(  32,  32),
    /* threat by rook on: pawn, knight, bishop, rook, queen */
    [THREAT_BY_ROOK] =
        S(   2,  22), S(  17,  25), S(  20,  32), S(  -1,  23), S(  36,  30),
    /* threat by king */
    [THREAT_BY_KING] = S(  16,  23),
    /* hanging piece */
    [HANGING] = S(   9,  -3),
    /* threat by a safe pawn */
    [THREAT_SAFE_PAWN] = S(  -4,  -5),
    /* threat by a safe pawn push */
    [THREAT_PAWN_PUSH] = S(  12,   7),
    /* knight can attack the queen */
    [THREAT_KNIGHT_ON_QUEEN] = S(   5,   7),
    /* slider can attack the queen */
    [THREAT_SLIDER_ON_QUEEN] = S(   9,   3),
    /* restricted enemy square */
    [THREAT_RESTRICTED] = S(   3,   0),
    /* weak piece only the queen guards */
    [THREAT_QUEEN_PROTECTED] = S(   1,   9),
    /* space x weight^2 / 16 */
    [SPACE] = S(   0,   0),
    /* imbalance ours x ours: pairs of bishop pair, pawn, knight, bishop, rook, queen (a >= b) */
    [IMBALANCE_OURS] =
        S(  -3,   6), S(   1,   5), S(   1,   2), S(   9,   2), S(   2,  12), S(   4,  -3), S(  -3,   7), S(   0,   7),
        S(   0,  -6), S(  -5,  -4), S(  12,  -6), S(   4,   9), S(  -1,   4), S(  -5,  -2), S( -22,  -3), S(  -6,  -8),
        S( -10,  28), S( -21, -10), S( -12,  -9), S( -34, -41), S( -27, -42),
    /* imbalance ours x theirs: pairs of bishop pair, pawn, knight, bishop, rook, queen (a >= b) */
    [IMBALANCE_THEIRS] =
        S(   0,   0), S(  -5,   6), S(   0,   0), S(  16,  -2), S(   0,  11), S(   0,   0), S(   1,  -4), S(  -1,  17),
        S(  11,  -4), S(   0,   0), S(  11,  -3), S(   5,  17), S(   7,  11), S(   1,  -9), S(   0,   0), S(   0,   3),
        S(   8,  34), S(  20,  27), S(  10,  19), S(  16,  18), S(   0,   0),
    /* tempo */
    [TEMPO] = S(  13,   6),
    /* complexity: passers, pawns, outflanking, flanks, infiltration, pawn ending, unwinnable, base (eg) */
    [COMPLEXITY] =
        S(   0,   2), S(   0,   1), S(   0,   1), S(   0,  36), S(   0,  -1), S(   0,  47), S(   0,   4), S(   0, -48),
};
