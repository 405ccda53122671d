/*
 * Strength levels: the calibration table's shape, the randomised choice
 * (margin, noise, mate guard), searches at every level (legal moves, fewer
 * nodes at lower levels, non-best moves sometimes, no hung queen), full
 * strength unchanged, and the UCI options over pipes (listed, bad values
 * refused, limited play legal, default searches node for node the same).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "init.h"
#include "fen.h"
#include "movegen.h"
#include "notation.h"
#include "search.h"
#include "strength.h"
#include "thread.h"
#include "timeman.h"
#include "tt.h"
#include "uci_test.h"

static Position Pos;

/* Levels are ordered: a higher Elo never searches less nor gambles more. */
static void test_table(void) {
    StrengthLevel prev, cur;
    strength_from_elo(STRENGTH_ELO_MIN, &prev);
    CHECK(prev.enabled && prev.elo == STRENGTH_ELO_MIN && prev.depth >= 1 && prev.nodes > 0 && prev.lines >= 1,
          "lowest level: enabled %d depth %d nodes %llu lines %d", prev.enabled, prev.depth,
          (unsigned long long)prev.nodes, prev.lines);
    Property monotone = {0};
    for (int elo = STRENGTH_ELO_MIN + 1; elo < STRENGTH_ELO_MAX; elo++) {
        strength_from_elo(elo, &cur);
        bool ok = cur.enabled && cur.depth >= prev.depth && cur.nodes >= prev.nodes && cur.lines <= prev.lines
               && cur.lines >= 1 && cur.lines <= STRENGTH_LINES_MAX && cur.marginCp <= prev.marginCp
               && cur.noiseCp <= prev.noiseCp && cur.marginCp >= 0 && cur.noiseCp >= 0;
        EXPECT(&monotone, ok, "Elo %d is not between its neighbours (depth %d nodes %llu lines %d margin %d noise %d)",
               elo, cur.depth, (unsigned long long)cur.nodes, cur.lines, cur.marginCp, cur.noiseCp);
        prev = cur;
    }
    CHECK_PROPERTY(&monotone);
    strength_from_elo(STRENGTH_ELO_MAX, &cur);
    CHECK(!cur.enabled, "UCI_Elo %d must be full strength", STRENGTH_ELO_MAX);
    strength_from_elo(STRENGTH_ELO_MIN - 500, &cur);
    CHECK(cur.enabled && cur.elo == STRENGTH_ELO_MIN, "below the range: clamped to the minimum (elo %d)", cur.elo);
    strength_from_skill(SKILL_LEVEL_MAX, &cur);
    CHECK(!cur.enabled, "Skill Level 20 must be full strength");
    strength_from_skill(0, &cur);
    CHECK(cur.enabled && cur.elo == STRENGTH_ELO_MIN, "Skill Level 0 = the lowest Elo (got %d)", cur.elo);
    int last = 0;
    Property rising = {0};
    for (int s = 0; s < SKILL_LEVEL_MAX; s++) {
        strength_from_skill(s, &cur);
        EXPECT(&rising, cur.enabled && cur.elo > last, "Skill Level %d: elo %d after %d", s, cur.elo, last);
        last = cur.elo;
    }
    CHECK_PROPERTY(&rising);
}

/* The choice: within the margin, sometimes not the best, never into a mate, reproducible per seed. */
static void test_pick(void) {
    StrengthLevel low, full;
    strength_from_elo(STRENGTH_ELO_MIN, &low);
    strength_disable(&full);
    const Move moves[] = {make_move(E2, E4), make_move(D2, D4), make_move(G1, F3), make_move(B1, C3)};
    const Value scores[] = {20, 20 - low.marginCp / 4, 20 - low.marginCp / 2, 20 - low.marginCp - 1};
    int counts[4] = {0};
    Property reproducible = {0}, fullBest = {0};
    for (uint64_t seed = 1; seed <= 4000; seed++) {
        Move m = strength_pick(&low, moves, scores, 4, seed);
        for (int i = 0; i < 4; i++) counts[i] += m == moves[i];
        EXPECT(&reproducible, strength_pick(&low, moves, scores, 4, seed) == m, "seed %llu: not reproducible",
               (unsigned long long)seed);
        EXPECT(&fullBest, strength_pick(&full, moves, scores, 4, seed) == moves[0],
               "seed %llu: full strength did not play the best line", (unsigned long long)seed);
    }
    CHECK_PROPERTY(&reproducible);
    CHECK_PROPERTY(&fullBest);
    CHECK(counts[0] + counts[1] + counts[2] + counts[3] == 4000, "picked a move not offered");
    CHECK(counts[3] == 0, "picked a line beyond the margin %d times", counts[3]);
    CHECK(counts[0] > counts[1] && counts[1] > counts[2], "better lines must be picked more often: %d %d %d",
          counts[0], counts[1], counts[2]);
    CHECK(counts[1] + counts[2] > 400, "the lowest level almost never deviates: %d %d %d", counts[0], counts[1],
          counts[2]);

    /*
     * The mate guard. At real levels a mated line is always far beyond the margin, so
     * the margin alone keeps it out; here a level with a margin and noise larger than
     * any score gap leaves the guard as the only thing between the choice and a mated
     * line. First the control: with plain scores such a level picks the lower lines
     * often, so it is the guard, not the scores, that decides below.
     */
    StrengthLevel wild = low;
    wild.marginCp = 4 * VALUE_MATE;
    wild.noiseCp = 4 * VALUE_MATE;
    const Value plain[] = {-150, -151, -152, -160};
    const Value mated[] = {-150, mated_in(5), mated_in(3), -160};
    int lower = 0;
    Property neverMated = {0};
    for (uint64_t seed = 1; seed <= 2000; seed++) {
        Move p = strength_pick(&wild, moves, plain, 4, seed);
        lower += p == moves[1] || p == moves[2];
        Move m = strength_pick(&wild, moves, mated, 4, seed);
        EXPECT(&neverMated, m == moves[0] || m == moves[3], "seed %llu: chose a mated line (%s)",
               (unsigned long long)seed, m == moves[1] ? "mated in 5" : "mated in 3");
    }
    CHECK(lower > 500, "control: a margin and noise of %d picked lines 2-3 only %d times in 2000", wild.marginCp,
          lower);
    CHECK_PROPERTY(&neverMated);

    /* A mate for us is never given away at a real level (every other line is beyond its margin). */
    const Value mating[] = {mate_in(3), 300, 290, 280};
    Property keepsMate = {0};
    for (uint64_t seed = 1; seed <= 500; seed++)
        EXPECT(&keepsMate, strength_pick(&low, moves, mating, 4, seed) == moves[0], "seed %llu: missed the mate",
               (unsigned long long)seed);
    CHECK_PROPERTY(&keepsMate);
    CHECK(strength_pick(&low, moves, scores, 1, 7) == moves[0], "one line: that line");

    /* The same root lines: a higher level leaves the best line less often. */
    const Move many[] = {make_move(E2, E4), make_move(D2, D4), make_move(G1, F3), make_move(B1, C3),
                         make_move(C2, C4), make_move(G2, G3), make_move(B2, B3), make_move(F2, F4)};
    const Value spread[] = {0, -8, -16, -24, -40, -60, -90, -120};
    static const int Levels[] = {STRENGTH_ELO_MIN, 1700, 2000, 2200};
    enum { LEVELS = sizeof Levels / sizeof Levels[0] };
    int deviations[LEVELS] = {0};
    for (int l = 0; l < LEVELS; l++) {
        StrengthLevel level;
        strength_from_elo(Levels[l], &level);
        for (uint64_t seed = 1; seed <= 2000; seed++)
            deviations[l] += strength_pick(&level, many, spread, level.lines, seed) != many[0];
    }
    /* The lowest level must deviate at all, or the comparisons below prove nothing. */
    CHECK(deviations[0] > 0, "Elo %d never leaves the best line in 2000 picks", Levels[0]);
    for (int l = 1; l < LEVELS; l++)
        CHECK_EACH(deviations[l] < deviations[l - 1] || deviations[l] == 0,
                   "Elo %d leaves the best line %d times in 2000, Elo %d only %d", Levels[l], deviations[l],
                   Levels[l - 1], deviations[l - 1]);
}

/* A queen (of the side that just moved) a pawn or piece can take for less: it has been hung. */
static bool queen_hung(Position *pos) {
    MoveList legal;
    gen_legal(pos, &legal);
    for (int i = 0; i < legal.count; i++) {
        Move m = legal.moves[i];
        if (piece_type(pos_captured_piece(pos, m)) == QUEEN && pos_see_ge(pos, m, 500)) return true;
    }
    return false;
}

/* Searches with the pool, one thread, silently. */
static Move search_at(ThreadPool *pool, TTable *tt, const char *fen, const StrengthLevel *level, uint64_t seed,
                      uint64_t *nodes) {
    char err[128];
    if (!pos_set_fen(&Pos, fen, false, err, sizeof err)) {
        CHECK(false, "bad FEN %s: %s", fen, err);
        return MOVE_NONE;
    }
    SearchLimits limits;
    search_limits_init(&limits);
    limits.strength = *level;
    limits.strengthSeed = seed;
    if (!level->enabled) limits.depth = 6;
    tt_clear(tt, 1);
    threads_clear(pool);
    SearchResult result = threads_search(pool, &Pos, &limits);
    if (nodes) *nodes = threads_nodes(pool);
    return result.bestMove;
}

static const char *const Fens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4",
    "r3k1nr/1p2bpp1/pqn1p3/3pP1p1/3P1B2/1PP4P/2QNBPP1/R4RK1 w kq - 0 17",
    "2r2rk1/1pq1b1pp/p1n1p3/3pPp1b/PP3Pn1/2PB1N2/2N3PP/R1B1QR1K w - - 2 17",
    "8/5pk1/6p1/8/R7/6P1/r4PK1/8 w - - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    /* Queens attacked by a pawn: every level must save them. */
    "rnbqkbnr/pp1ppppp/8/2p5/3Q4/8/PPPP1PPP/RNB1KBNR w KQkq - 0 3",
    "r1b1kbnr/pppp1ppp/2n5/4p1q1/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 4",
    "rnb1kbnr/ppp2ppp/8/3qp3/8/2N5/PPPP1PPP/R1BQKBNR b KQkq - 1 4",
};
enum { FEN_COUNT = sizeof Fens / sizeof Fens[0] };

static void test_searches(void) {
    TTable tt = {0};
    CHECK(tt_resize(&tt, 4, 1), "tt 4 MB");
    ThreadPool *pool = threads_create(1, &tt);
    CHECK(pool != NULL, "thread pool");
    if (!pool) return;
    static const int Elos[] = {STRENGTH_ELO_MIN, 1500, 1700};
    enum { LEVELS = sizeof Elos / sizeof Elos[0], SEEDS = 6 };
    uint64_t levelNodes[LEVELS] = {0};
    int deviations[LEVELS] = {0};
    /* One check per property over every level, position and seed. */
    Property legal = {0}, budget = {0}, lines = {0}, queen = {0};
    for (int l = 0; l < LEVELS; l++) {
        StrengthLevel level;
        strength_from_elo(Elos[l], &level);
        for (int f = 0; f < FEN_COUNT; f++) {
            for (uint64_t seed = 1; seed <= SEEDS; seed++) {
                uint64_t nodes;
                Move m = search_at(pool, &tt, Fens[f], &level, seed * 0x9E3779B97F4A7C15ULL, &nodes);
                levelNodes[l] += nodes;
                EXPECT(&legal, pos_is_legal(&Pos, m), "Elo %d, %s: illegal move %d", Elos[l], Fens[f], m);
                EXPECT(&budget, nodes <= level.nodes, "Elo %d, %s: %llu nodes over the budget %llu", Elos[l], Fens[f],
                       (unsigned long long)nodes, (unsigned long long)level.nodes);
                const SearchWorker *main = pool->threads[0]->worker;
                EXPECT(&lines, main->choiceCount >= 1 && main->choiceCount <= level.lines,
                       "Elo %d, %s: %d lines compared", Elos[l], Fens[f], main->choiceCount);
                deviations[l] += main->choiceCount > 0 && m != main->choiceMoves[0];
                if (!pos_is_legal(&Pos, m)) continue;
                pos_do_move(&Pos, m);
                EXPECT(&queen, !queen_hung(&Pos), "Elo %d, seed %llu: %s hangs the queen in %s", Elos[l],
                       (unsigned long long)seed, "the chosen move", Fens[f]);
                pos_undo_move(&Pos);
            }
        }
    }
    CHECK_PROPERTY(&legal);
    CHECK_PROPERTY(&budget);
    CHECK_PROPERTY(&lines);
    CHECK_PROPERTY(&queen);
    for (int l = 0; l + 1 < LEVELS; l++)
        CHECK_EACH(levelNodes[l] < levelNodes[l + 1], "Elo %d searched %llu nodes, Elo %d only %llu", Elos[l],
                   (unsigned long long)levelNodes[l], Elos[l + 1], (unsigned long long)levelNodes[l + 1]);
    CHECK(deviations[0] > 0, "the lowest level always played the best line");

    /* Full strength: the strength fields at their defaults change nothing, node for node. */
    StrengthLevel off;
    strength_from_skill(SKILL_LEVEL_MAX, &off);
    for (int f = 0; f < 3; f++) {
        uint64_t n1, n2;
        Move m1 = search_at(pool, &tt, Fens[f], &off, 1, &n1);
        SearchLimits plain;
        search_limits_init(&plain);
        plain.depth = 6;
        tt_clear(&tt, 1);
        threads_clear(pool);
        Move m2 = threads_search(pool, &Pos, &plain).bestMove;
        n2 = threads_nodes(pool);
        CHECK_EACH(m1 == m2 && n1 == n2, "Skill Level 20 changed the search at %s: %llu vs %llu nodes", Fens[f],
                   (unsigned long long)n1, (unsigned long long)n2);
    }
    threads_destroy(pool);
    tt_free(&tt);
}

/* ------------------------------------------------------------ over pipes */

/* "go depth 8" from a fresh game: its final node count. */
static long long depth_nodes(Session *s) {
    session_send(s, "ucinewgame");
    session_send(s, "position startpos moves e2e4 c7c5 g1f3");
    session_send(s, "go depth 8");
    const char *bm = session_expect(s, "bestmove", SLOW);
    CHECK_EACH(bm != NULL, "go depth 8: no bestmove");
    long long nodes = -1;
    for (int i = s->count - 1; i >= 0; i--)
        if (starts_with(s->lines[i], "info depth 8 ")) {
            nodes = info_int(s->lines[i], "nodes", -1);
            break;
        }
    session_forget(s);
    return nodes;
}

static void test_uci(void) {
    Session s;
    bool ok = session_open(&s);
    CHECK(ok, "cannot start the engine (GIZUM=%s)", getenv("GIZUM") ? getenv("GIZUM") : "unset");
    if (!ok) return;
    session_send(&s, "uci");
    CHECK(session_expect(&s, "uciok", FAST) != NULL, "no uciok");
    char line[128];
    snprintf(line, sizeof line, "option name UCI_Elo type spin default %d min %d max %d", STRENGTH_ELO_MAX,
             STRENGTH_ELO_MIN, STRENGTH_ELO_MAX);
    CHECK(session_count(&s, line) == 1, "missing '%s'", line);
    CHECK(session_count(&s, "option name UCI_LimitStrength type check default false") == 1, "missing UCI_LimitStrength");
    CHECK(session_count(&s, "option name Skill Level type spin default 20 min 0 max 20") == 1, "missing Skill Level");
    session_forget(&s);

    long long reference = depth_nodes(&s);
    CHECK(reference > 0, "no node count at depth 8");

    /* Bad values are refused with a message naming the option. */
    static const char *const Bad[][2] = {
        {"setoption name UCI_Elo value 1000", "info string UCI_Elo"},
        {"setoption name UCI_Elo value 9999", "info string UCI_Elo"},
        {"setoption name UCI_Elo value strong", "info string UCI_Elo"},
        {"setoption name UCI_Elo", "info string UCI_Elo"},
        {"setoption name Skill Level value -1", "info string Skill Level"},
        {"setoption name Skill Level value 21", "info string Skill Level"},
        {"setoption name UCI_LimitStrength value yes", "info string UCI_LimitStrength"},
    };
    for (size_t i = 0; i < sizeof Bad / sizeof Bad[0]; i++) {
        session_send(&s, "%s", Bad[i][0]);
        sync_engine(&s, Bad[i][0]);
        CHECK_EACH(session_count(&s, Bad[i][1]) == 1, "'%s' not refused", Bad[i][0]);
        session_forget(&s);
    }

    /* Limited play: a short game of legal moves at each setting, with a clock. */
    static const char *const Settings[][2] = {
        {"UCI_LimitStrength", "true"}, {"UCI_Elo", "1350"}, {"UCI_Elo", "2000"},
        {"UCI_LimitStrength", "false"}, {"Skill Level", "0"}, {"Skill Level", "12"},
    };
    for (size_t k = 0; k < sizeof Settings / sizeof Settings[0]; k++) {
        session_send(&s, "setoption name %s value %s", Settings[k][0], Settings[k][1]);
        session_send(&s, "ucinewgame");
        static Position game;
        pos_set_startpos(&game, false);
        char moves[2048] = "";
        for (int ply = 0; ply < 8; ply++) {
            session_send(&s, "position startpos%s%s", moves[0] ? " moves" : "", moves);
            session_send(&s, "go wtime 2000 btime 2000 winc 20 binc 20");
            const char *bm = session_expect(&s, "bestmove", SLOW);
            char best[8] = "";
            if (bm) sscanf(bm, "bestmove %7s", best);
            Move m = bm ? move_from_uci(&game, best) : MOVE_NONE;
            CHECK_EACH(m != MOVE_NONE, "%s %s, ply %d: bad bestmove '%s'", Settings[k][0], Settings[k][1], ply,
                       bm ? bm : "(none)");
            if (m == MOVE_NONE) break;
            pos_do_game_move(&game, m);
            size_t len = strlen(moves);
            snprintf(moves + len, sizeof moves - len, " %s", best);
            session_forget(&s);
        }
    }

    /* Back to the defaults: the search is the same as before, node for node. */
    session_send(&s, "setoption name Skill Level value 20");
    session_send(&s, "setoption name UCI_Elo value 1500");
    session_send(&s, "setoption name UCI_LimitStrength value false");
    CHECK(depth_nodes(&s) == reference, "defaults again: depth 8 took a different number of nodes (%lld)", reference);
    session_send(&s, "setoption name UCI_LimitStrength value true");
    session_send(&s, "setoption name UCI_Elo value %d", STRENGTH_ELO_MAX);
    CHECK(depth_nodes(&s) == reference, "UCI_Elo at the top must be full strength");
    session_send(&s, "quit");
    CHECK(session_close(&s, SLOW) == 0, "engine did not exit cleanly");
}

int main(void) {
    engine_init();
    test_table();
    test_pick();
    test_searches();
    test_uci();
    return test_report();
}
