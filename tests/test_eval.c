/*
 * Evaluation tests: colour symmetry on many positions, the trace's linear
 * sum equals the evaluation, the evaluation cache (pawns, material) changes nothing, the weight
 * printer round-trips, feature detection and drawish-endgame scaling.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "fen.h"
#include "init.h"
#include "movegen.h"
#include "position.h"
#include "test.h"

static Position Pos, Flipped;
static EvalTrace Trace;

/* Fixed positions: openings, middlegames, endgames, odd material. */
static const char *const Fens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbqkb1r/pp1p1ppp/4pn2/2pP4/2P5/8/PP2PPPP/RNBQKBNR w KQkq c6 0 4",
    "r1bq1rk1/ppp2ppp/5n2/2bp4/2NPP3/2P5/PP3PPP/RNBQK2R w KQ - 0 9",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
    "8/8/4k3/8/2P5/8/8/4K3 w - - 0 1",
    "8/5k2/8/8/8/8/1P3K2/8 b - - 0 1",
    "4k3/8/8/8/8/8/8/4KB2 w - - 0 1",
    "4k3/8/8/8/8/8/8/4KN2 b - - 0 1",
    "2k5/8/8/8/8/8/8/1RK1b3 w - - 0 1",
    "8/8/3k4/3p4/2pP1b2/2P5/3K1B2/8 w - - 0 1",
    "r1b2rk1/pp1p1pp1/1b1p2B1/n1qQ2p1/8/5N2/P3RPPP/4R1K1 w - - 0 1",
    "2r2rk1/1bqnbpp1/1p1ppn1p/pP6/N1P1P3/P2B1N1P/1B2QPP1/R2R2K1 b - - 0 1",
    "8/8/1p1k4/1P6/2PK4/8/8/8 w - - 0 1",
    "6k1/pp3ppp/8/3Q4/8/8/PPP2PPP/6K1 w - - 0 1",
    "1k6/1pp5/8/8/8/8/5PPP/3QQ1K1 b - - 0 1",
    "8/3k4/8/2b5/8/5B2/3PK3/8 w - - 0 1",
    "7k/6pp/8/8/8/8/PPP5/K6Q w - - 0 1",
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "8/8/8/8/8/6k1/4q3/6K1 w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/8/4K3 w kq - 0 1",
};

/* Colour-flipped FEN: ranks mirrored, colours and side to move swapped. */
static void flip_fen(const char *fen, char *out) {
    char board[100], side[4], castling[8], ep[4];
    int half = 0, full = 1;
    sscanf(fen, "%99s %3s %7s %3s %d %d", board, side, castling, ep, &half, &full);
    char *ranks[8];
    int n = 0;
    for (char *p = strtok(board, "/"); p && n < 8; p = strtok(NULL, "/")) ranks[n++] = p;
    out[0] = '\0';
    for (int i = n - 1; i >= 0; i--) {
        for (char *p = ranks[i]; *p; p++)
            *p = (char)(isupper((unsigned char)*p) ? tolower((unsigned char)*p) : toupper((unsigned char)*p));
        strcat(out, ranks[i]);
        if (i) strcat(out, "/");
    }
    /* Castling letters with swapped case, White's first as FEN wants. */
    char cs[8] = "-";
    int k = 0;
    for (char *p = castling; *p && k < 4; p++)
        if (islower((unsigned char)*p)) cs[k++] = (char)toupper((unsigned char)*p);
    for (char *p = castling; *p && k < 4; p++)
        if (isupper((unsigned char)*p)) cs[k++] = (char)tolower((unsigned char)*p);
    if (k) cs[k] = '\0';
    if (strcmp(ep, "-") != 0) ep[1] = (char)('1' + '8' - ep[1]);
    sprintf(out + strlen(out), " %s %s %s %d %d", side[0] == 'w' ? "b" : "w", cs, ep, half, full);
}

static uint64_t Rng = 0x9E3779B97F4A7C15ULL;
static uint64_t rng_next(void) {
    Rng ^= Rng << 13;
    Rng ^= Rng >> 7;
    Rng ^= Rng << 17;
    return Rng;
}

/*
 * The trace's linear sums: count * weight over every parameter but TEMPO,
 * the complexity terms apart (eval.h: mg, eg before the complexity, and C).
 */
static void trace_sums(const EvalTrace *t, int *mg, int *eg, int *complexity) {
    *mg = *eg = *complexity = 0;
    for (int p = 0; p < PARAM_NB; p++) {
        if (p == TEMPO) continue;
        int d = t->coeff[p][WHITE] - t->coeff[p][BLACK];
        if (eval_param_is_complexity(p)) {
            *complexity += d * eg_value(EvalWeights[p]);
            continue;
        }
        *mg += d * mg_value(EvalWeights[p]);
        *eg += d * eg_value(EvalWeights[p]);
    }
}

/* The "Total" line of the printed trace. */
static int printed_total(const Position *pos) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    eval_trace(pos, f);
    fclose(f);
    int total = 99999;
    const char *line = strstr(buf, "\nTotal ");
    if (line) sscanf(line + 7, "%d", &total);
    free(buf);
    return total;
}

static int Checked;

static const char *fen_of(const Position *pos, char *buf) {
    pos_get_fen(pos, buf);
    return buf;
}

/*
 * What each check of this file is. PROPERTY: holds for any correct
 * evaluation, whatever its weights and formula (colour symmetry, a cache
 * changes nothing, the phase blend gives the middlegame score at full phase,
 * the endgame score at phase 0 and something between them in between).
 * CONTRACT: the trace's documented decomposition (eval.h), the one
 * gizum-tune computes with, restated here: it shows that the trace records
 * what the evaluation used, not that the evaluation is right. HAND: a
 * position with its answer worked out by hand (the taper cases below,
 * test_sanity, test_features). Each check of check_position is one
 * property over every position it sees (CHECK_EACH).
 */
static Property FullPhase, ZeroPhase; /* the blend's two ends: each must be seen */

/* All per-position checks: symmetry, cache, trace == eval, the phase blend. */
static void check_position(Position *pos, EvalCache *table, bool printTrace) {
    char fen[128], flipped[128], err[128];
    pos_get_fen(pos, fen);
    flip_fen(fen, flipped);
    if (!pos_set_fen(&Flipped, flipped, false, err, sizeof err)) {
        CHECK(false, "flip of %s gave bad FEN %s: %s", fen, flipped, err);
        return;
    }
    /* PROPERTY: colour symmetry; the evaluation cache changes nothing, on a miss or a hit. */
    Value v = eval_evaluate(pos, NULL);
    Value vf = eval_evaluate(&Flipped, NULL);
    CHECK_EACH(v == vf, "symmetry: %s -> %d, flipped %s -> %d", fen, v, flipped, vf);
    CHECK_EACH(eval_evaluate(pos, table) == v, "evaluation cache changes eval of %s", fen);
    CHECK_EACH(eval_evaluate(pos, table) == v, "evaluation cache hit changes eval of %s", fen);

    /* PROPERTY: the traced evaluation is the evaluation; its printout says so too. */
    Value vt = eval_evaluate_traced(pos, &Trace);
    CHECK_EACH(vt == v && Trace.total == v, "traced eval %d (total %d) != eval %d for %s", vt, Trace.total, v, fen);
    if (printTrace) CHECK_EACH(printed_total(pos) == v, "printed total != eval %d for %s", v, fen);

    /* CONTRACT: mg and eg are the sums of count * weight; the complexity adds its terms'
     * sum C in eg's direction, cut off where eg would cross zero (eval.h). */
    int mg, eg, complexity;
    trace_sums(&Trace, &mg, &eg, &complexity);
    int egBefore = Trace.eg - Trace.complexity, sign = (egBefore > 0) - (egBefore < 0);
    CHECK_EACH(mg == Trace.mg && eg == egBefore, "linear sum (%d,%d) != trace (%d,%d) for %s", mg, eg, Trace.mg,
               egBefore, fen);
    CHECK_EACH(Trace.complexity == sign * complexity || (Trace.eg == 0 && complexity < -abs(egBefore)),
               "complexity added %d to eg %d, its terms sum to %d, for %s", Trace.complexity, egBefore, complexity,
               fen);
    /* PROPERTY: the complexity never turns one side's edge into the other's. */
    CHECK_EACH(sign * Trace.eg >= 0, "complexity %d took eg from %d past zero to %d for %s", Trace.complexity, egBefore,
               Trace.eg, fen);
    /* CONTRACT: the scale factors are those for the side the endgame score favours. */
    Color strong = Trace.eg > 0 ? WHITE : BLACK;
    CHECK_EACH(Trace.scaleFor[strong] == Trace.scale && Trace.mgScaleFor[strong] == Trace.mgScale,
               "scaleFor[strong side] (%d,%d) != scale (%d,%d) for %s", Trace.mgScaleFor[strong],
               Trace.scaleFor[strong], Trace.mgScale, Trace.scale, fen);

    /* PROPERTY: the blend by phase. The middlegame score alone at full phase, the endgame
     * score alone at phase 0 (each scaled), between them in between; the tempo bonus too.
     * (The exact blend in between: the HAND cases of test_taper, and test_tuner, whose
     * model reproduces the evaluation from the trace on 6000 positions.) */
    int mgPart = Trace.mg * Trace.mgScale / SCALE_NORMAL, egPart = Trace.eg * Trace.scale / SCALE_NORMAL;
    int tempoMg = mg_value(EvalWeights[TEMPO]), tempoEg = eg_value(EvalWeights[TEMPO]);
    if (Trace.phase == PHASE_MAX)
        EXPECT(&FullPhase, Trace.whiteView == mgPart && Trace.tempo == tempoMg,
               "full phase: blend %d, tempo %d; middlegame score %d, tempo %d, for %s", Trace.whiteView, Trace.tempo,
               mgPart, tempoMg, fen);
    if (Trace.phase == 0)
        EXPECT(&ZeroPhase, Trace.whiteView == egPart && Trace.tempo == tempoEg,
               "phase 0: blend %d, tempo %d; endgame score %d, tempo %d, for %s", Trace.whiteView, Trace.tempo, egPart,
               tempoEg, fen);
    int lo = mgPart < egPart ? mgPart : egPart, hi = mgPart < egPart ? egPart : mgPart;
    int tempoLo = tempoMg < tempoEg ? tempoMg : tempoEg, tempoHi = tempoMg < tempoEg ? tempoEg : tempoMg;
    CHECK_EACH(Trace.phase >= 0 && Trace.phase <= PHASE_MAX && Trace.whiteView >= lo - 1 && Trace.whiteView <= hi + 1 &&
                   Trace.tempo >= tempoLo && Trace.tempo <= tempoHi,
               "phase %d: blend %d outside middlegame %d .. endgame %d, or tempo %d outside %d .. %d, for %s",
               Trace.phase, Trace.whiteView, mgPart, egPart, Trace.tempo, tempoMg, tempoEg, fen);
    /* CONTRACT: the evaluation is the blend from the side to move's view plus its tempo. */
    int total = (pos_side_to_move(pos) == WHITE ? Trace.whiteView : -Trace.whiteView) + Trace.tempo;
    total = total > VALUE_EVAL_MAX ? VALUE_EVAL_MAX : total < -VALUE_EVAL_MAX ? -VALUE_EVAL_MAX : total;
    CHECK_EACH(total == v, "blend %d and tempo %d make %d, not eval %d, for %s", Trace.whiteView, Trace.tempo, total, v,
               fen);
    Checked++;
}

/* Random legal playouts from the start position, checking every position (tableOnly: only the evaluation cache). */
static void test_playouts(EvalCache *table, bool tableOnly) {
    for (int game = 0; game < 40; game++) {
        pos_set_startpos(&Pos, false);
        for (int ply = 0; ply < 120; ply++) {
            if (tableOnly) {
                char fen[128];
                CHECK_EACH(eval_evaluate(&Pos, table) == eval_evaluate(&Pos, NULL),
                           "full evaluation cache changes eval of %s", fen_of(&Pos, fen));
            } else {
                check_position(&Pos, table, ply % 16 == 0);
            }
            MoveList list;
            gen_legal(&Pos, &list);
            if (list.count == 0) break;
            pos_do_move(&Pos, list.moves[rng_next() % (uint64_t)list.count]);
        }
    }
}

static Value eval_fen(const char *fen) {
    char err[128];
    if (!pos_set_fen(&Pos, fen, false, err, sizeof err)) {
        CHECK(false, "bad test FEN %s: %s", fen, err);
        return VALUE_NONE;
    }
    eval_evaluate_traced(&Pos, &Trace);
    return eval_evaluate(&Pos, NULL);
}

static void test_sanity(void) {
    Value v = eval_fen(StartFEN);
    CHECK(v >= -50 && v <= 50, "start position %d not within +-50", v);
    CHECK(v > 0, "start position %d should favour the side to move (tempo)", v);

    v = eval_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    CHECK(v > 700, "queen up (white to move) %d", v);
    v = eval_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    CHECK(v < -700, "queen down (black to move) %d", v);

    int tempo = abs(mg_value(EvalWeights[TEMPO])) + abs(eg_value(EvalWeights[TEMPO]));
    const char *drawn[] = {"4k3/8/8/8/8/8/8/4KB2 w - - 0 1", "4k3/8/8/8/8/8/8/4KN2 b - - 0 1",
                           "4k3/8/8/8/8/8/8/2N1KN2 w - - 0 1", "4k3/8/8/3n4/8/8/8/1B2K3 w - - 0 1"};
    for (int i = 0; i < 4; i++) {
        v = eval_fen(drawn[i]);
        CHECK_EACH(abs(v) <= tempo, "drawish %s scores %d", drawn[i], v);
    }
    v = eval_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    CHECK(v > 400, "KRK only %d", v);
    v = eval_fen("4k3/8/8/8/8/8/8/R3K2b w - - 0 1");
    CHECK(Trace.scale < SCALE_NORMAL && abs(v) < 100, "KRKB scale %d eval %d", Trace.scale, v);

    /* Opposite bishops with an extra pawn: scaled well below the same bishops. */
    Value ocb = eval_fen("8/4k3/2p5/3b4/8/3PB3/2P1KP2/8 w - - 0 1");
    int ocbScale = Trace.scale;
    Value same = eval_fen("8/4k3/2p5/4b3/8/3PB3/2P1KP2/8 w - - 0 1");
    CHECK(ocbScale < SCALE_NORMAL / 2, "OCB scale %d", ocbScale);
    CHECK(Trace.scale == SCALE_NORMAL, "same-colour bishops scaled %d", Trace.scale);
    CHECK(ocb > 0 && ocb < same / 2, "OCB %d vs same bishops %d", ocb, same);
}

/*
 * HAND: the phase counted by hand (knight and bishop 1, rook 2, queen 4, as
 * usual), and the blend it gives: quarters of the middlegame score, the
 * rest endgame. Both sides have pawns and no bishops: no scale factor. No
 * position is symmetric (a symmetric one scores 0 whatever the blend).
 */
static void test_taper(void) {
    static const struct {
        const char *fen;
        int phase, mgQuarters;
    } Cases[] = {
        {"rnbqkbnr/ppp5/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 24, 4}, /* 4 N, 4 B, 4 R, 2 Q: 4+4+8+8 */
        {"r2qk3/ppppp3/8/8/8/8/PPPPPPPP/R2QK3 w - - 0 1", 12, 2},        /* 2 Q, 2 R: 8+4 */
        {"3qk3/pppppppp/8/8/8/8/PPPPPPPP/R3K3 b - - 0 1", 6, 1},         /* 1 Q, 1 R: 4+2 */
        {"4k3/ppp5/8/8/8/8/PPPPPPPP/4K3 w - - 0 1", 0, 0},               /* kings and pawns */
    };
    int tempoMg = mg_value(EvalWeights[TEMPO]), tempoEg = eg_value(EvalWeights[TEMPO]);
    for (size_t i = 0; i < sizeof Cases / sizeof Cases[0]; i++) {
        Value v = eval_fen(Cases[i].fen);
        int q = Cases[i].mgQuarters;
        int blend = (Trace.mg * q + Trace.eg * (4 - q)) / 4, tempo = (tempoMg * q + tempoEg * (4 - q)) / 4;
        int total = (pos_side_to_move(&Pos) == WHITE ? blend : -blend) + tempo;
        CHECK_EACH(Trace.phase == Cases[i].phase && Trace.scale == SCALE_NORMAL && Trace.mgScale == SCALE_NORMAL &&
                       Trace.whiteView == blend && Trace.tempo == tempo && v == total,
                   "%s: phase %d (by hand %d), scales %d %d; blend %d, tempo %d, eval %d (by hand %d/4 of mg %d: %d, "
                   "tempo %d, eval %d)",
                   Cases[i].fen, Trace.phase, Cases[i].phase, Trace.mgScale, Trace.scale, Trace.whiteView, Trace.tempo,
                   v, q, Trace.mg, blend, tempo, total);
    }
}

/* Individual features show up in the trace where a chess player expects them. */
static void test_features(void) {
    eval_fen("7k/8/8/3P4/8/8/8/4K3 w - - 0 1");
    CHECK(Trace.coeff[PASSED_RANK + RANK_5][WHITE] == 1, "passed d5 not found");
    CHECK(Trace.coeff[PAWN_ISOLATED][WHITE] == 1, "isolated d5 not found");
    CHECK(Trace.coeff[PASSED_FREE_PATH + RANK_5][WHITE] == 1, "free path of d5 not found");
    CHECK(Trace.coeff[PASSED_ENEMY_KING + RANK_5][WHITE] == 4, "enemy king distance %d",
          Trace.coeff[PASSED_ENEMY_KING + RANK_5][WHITE]);

    eval_fen("4k3/8/3n4/3P4/8/8/8/4K3 w - - 0 1");
    CHECK(Trace.coeff[PASSED_BLOCKED + RANK_5][WHITE] == 1, "blocked passer not found");

    eval_fen("4k3/pp6/8/8/8/2P5/2P5/4K3 w - - 0 1");
    CHECK(Trace.coeff[PAWN_DOUBLED][WHITE] == 1, "doubled c-pawns %d", Trace.coeff[PAWN_DOUBLED][WHITE]);
    CHECK(Trace.coeff[PAWN_PHALANX + RANK_2][BLACK] == 2, "phalanx a7 b7 %d", Trace.coeff[PAWN_PHALANX + RANK_2][BLACK]);

    eval_fen("r3k3/1p6/8/8/8/8/P7/R3K2R w - - 0 1");
    CHECK(Trace.coeff[ROOK_OPEN_FILE][WHITE] == 1, "rook h1 on open file");
    CHECK(Trace.coeff[ROOK_SEMIOPEN_FILE][BLACK] == 1, "rook a8 on semi-open file");

    eval_fen("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1");
    CHECK(Trace.coeff[BISHOP_PAIR][WHITE] == 1, "bishop pair");
    eval_fen("4k3/8/8/8/8/8/8/3BKB2 w - - 0 1");
    CHECK(Trace.coeff[BISHOP_PAIR][WHITE] == 0, "same-coloured bishops are no pair");

    eval_fen("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1");
    CHECK(Trace.coeff[THREAT_BY_PAWN + KNIGHT - PAWN][WHITE] == 1, "pawn attacks knight");
    CHECK(Trace.coeff[HANGING][WHITE] == 1, "undefended knight hangs");

    eval_fen("4k3/8/8/4p3/2P1P3/3P4/8/4K3 w - - 0 1");
    CHECK(Trace.coeff[PAWN_BACKWARD][WHITE] == 1, "backward d3 not found");
    eval_fen("4k3/8/8/3N4/4P3/8/8/4K3 w - - 0 1");
    CHECK(Trace.coeff[KNIGHT_OUTPOST][WHITE] == 1, "outpost d5 not found");
    eval_fen("4k3/2p5/8/3N4/4P3/8/8/4K3 w - - 0 1");
    CHECK(Trace.coeff[KNIGHT_OUTPOST][WHITE] == 0, "d5 can be chased by c7-c6");
    eval_fen("4k3/R7/8/8/8/8/8/4K3 w - - 0 1");
    CHECK(Trace.coeff[ROOK_SEVENTH][WHITE] == 1, "rook on 7th not found");
    eval_fen("6k1/8/8/8/6p1/8/5PPP/6K1 w - - 0 1");
    CHECK(Trace.coeff[KING_STORM + 8 * 1 + RANK_4][WHITE] == 1, "g4 storm not found");
    CHECK(Trace.coeff[KING_SHIELD + 8 * 2 + RANK_2][WHITE] == 1, "f2 shield not found");
    eval_fen("6k1/8/8/8/8/6p1/5PPP/6K1 w - - 0 1");
    CHECK(Trace.coeff[KING_STORM_BLOCKED + RANK_3][WHITE] == 1, "blocked g3 storm not found");

    /* The terms from Stockfish 11's evaluation, each on a position worked out by hand. */
    eval_fen("3r2k1/8/8/8/3N4/8/8/3QK3 w - - 0 1");
    CHECK(Trace.coeff[QUEEN_WEAK][WHITE] == 1, "Nd4 between Rd8 and Qd1: the queen is open to a discovery");
    eval_fen("6k1/8/8/8/8/8/6PP/5K1R w - - 0 1");
    CHECK(Trace.coeff[ROOK_TRAPPED][WHITE] == 2, "Rh1 shut in by Kf1 without castling rights counts twice");
    eval_fen("4k3/8/8/8/8/8/8/RN2K3 w - - 0 1");
    CHECK(Trace.coeff[IMBALANCE_OURS + 4 * 5 / 2 + 2][WHITE] == 1 && Trace.coeff[IMBALANCE_OURS + 4 * 5 / 2 + 4][WHITE] == 1,
          "rook x knight and rook x rook pairs of R+N not found");
    eval_fen("4k3/8/3n4/8/4P3/8/8/4K3 w - - 0 1");
    CHECK(Trace.coeff[THREAT_PAWN_PUSH][WHITE] == 1, "e4-e5 would attack Nd6");
    eval_fen("8/5p2/8/4k3/8/8/4P3/4K3 w - - 0 1");
    int c[COMPLEXITY_NB];
    for (int i = 0; i < COMPLEXITY_NB; i++) c[i] = Trace.coeff[COMPLEXITY + i][WHITE];
    CHECK(c[COMPLEXITY_PASSED] == 0 && c[COMPLEXITY_PAWNS] == 2 && c[COMPLEXITY_OUTFLANKING] == -4
              && c[COMPLEXITY_BOTH_FLANKS] == 0 && c[COMPLEXITY_INFILTRATION] == 0 && c[COMPLEXITY_PAWN_ENDING] == 1
              && c[COMPLEXITY_UNWINNABLE] == 1 && c[COMPLEXITY_BASE] == 1,
          "complexity of Ke1/e2 vs Ke5/f7: got %d %d %d %d %d %d %d %d", c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]);
    eval_fen("6k1/8/8/8/8/8/5P1P/6K1 w - - 0 1");
    CHECK(Trace.coeff[KING_OPEN_FILE][WHITE] == 1 && Trace.coeff[KING_SHIELD + 8 * 1][WHITE] == 1,
          "open g-file next to the king not found");

    /* A mating attack on Black's king: king danger well above a quiet position. */
    eval_fen("r4rk1/ppp2p1p/6pQ/4N3/8/8/PPP2PPP/4R1K1 b - - 0 1");
    int danger = 0;
    for (int i = 0; i < KING_DANGER_NB; i++)
        if (Trace.coeff[KING_DANGER + i][BLACK]) danger = i;
    CHECK(danger >= 20, "king danger units under attack only %d", danger);
    eval_fen(StartFEN);
    CHECK(Trace.coeff[KING_DANGER + 0][WHITE] == 1, "no king danger at the start");
    CHECK(Trace.coeff[KING_SHIELD + 8 * 3 + 1][WHITE] == 2, "d2/e2 shield");
}

/* The printer writes every weight, in table order, as S(mg, eg). */
static void test_weight_printer(void) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    eval_print_weights(f);
    fclose(f);
    int n = 0, mismatches = 0;
    for (const char *p = strstr(buf, "S("); p; p = strstr(p + 2, "S(")) {
        int mg, eg;
        if (sscanf(p, "S(%d,%d)", &mg, &eg) != 2) continue;
        if (n >= PARAM_NB || mg != mg_value(EvalWeights[n]) || eg != eg_value(EvalWeights[n])) mismatches++;
        n++;
    }
    free(buf);
    CHECK(n == PARAM_NB, "printer wrote %d of %d weights", n, PARAM_NB);
    CHECK(mismatches == 0, "printer wrote %d wrong weights", mismatches);

    int covered = 0;
    for (int t = 0; t < TERM_NB; t++) covered += EvalTerms[t].count;
    CHECK(covered == PARAM_NB && EvalTerms[TERM_NB - 1].first + EvalTerms[TERM_NB - 1].count == PARAM_NB,
          "term list covers %d of %d parameters", covered, PARAM_NB);
    char label[64];
    eval_param_label(PSQT_KNIGHT + (E4 ^ 56), label, sizeof label);
    CHECK(strcmp(label, "psqt knight e4") == 0, "label '%s'", label);
}

int main(void) {
    engine_init();
    EvalCache *table = eval_cache_create();
    CHECK(table != NULL, "evaluation cache allocation");
    if (!table) return test_report();

    for (size_t i = 0; i < sizeof Fens / sizeof Fens[0]; i++) {
        char err[128];
        if (!pos_set_fen(&Pos, Fens[i], false, err, sizeof err)) {
            CHECK(false, "bad FEN %s: %s", Fens[i], err);
            continue;
        }
        check_position(&Pos, table, true);
    }
    test_playouts(table, false);
    CHECK(Checked > 300, "only %d positions checked", Checked);

    /* A table full of other positions' entries gives the same results as no table.
     * (Clearing it and replaying the same games, as this did before, only repeated
     * the first pass; a new seed visits new positions that hit or evict old entries.) */
    Rng = 0xD1B54A32D192ED03ULL;
    test_playouts(table, true);
    /* And a cleared table is empty, not stale. */
    eval_cache_clear(table);
    Value plain = eval_fen(Fens[1]);
    CHECK(eval_evaluate(&Pos, table) == plain, "cleared evaluation cache changes eval of %s", Fens[1]);

    CHECK_PROPERTY(&FullPhase);
    CHECK_PROPERTY(&ZeroPhase);

    test_sanity();
    test_taper();
    test_features();
    test_weight_printer();
    eval_cache_destroy(table);
    printf("eval: %d positions checked\n", Checked);
    return test_report();
}
