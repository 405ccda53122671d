/*
 * Tests of gizum-match's modules: statistics against hand-computed values,
 * the referee and adjudication on crafted positions, time controls and the
 * clock, opening readers, the PGN writer, and games against the fake engine
 * (tests/fake_engine.c) misbehaving in every way it can.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "position.h"
#include "fen.h"
#include "match_cli.h"
#include "match_clock.h"
#include "match_game.h"
#include "match_openings.h"
#include "match_pgn.h"
#include "match_referee.h"
#include "match_spsa.h"
#include "match_stats.h"
#include "notation.h"
#include "test.h"

static bool near(double a, double b, double tol) {
    return fabs(a - b) <= tol;
}

/*
 * Trinomial: W=60 D=20 L=20 (N=100).
 *   score s = (60 + 20/2) / 100 = 0.7
 *   Elo = -400 log10(1/0.7 - 1) = -400 log10(0.428571) = -400 * (-0.367977) = 147.19
 *   per-game variance = 0.6 (1-0.7)^2 + 0.2 (0.5-0.7)^2 + 0.2 (0-0.7)^2
 *                     = 0.054 + 0.008 + 0.098 = 0.16; stderr = sqrt(0.16/100) = 0.04
 *   95%: s +- 1.959964 * 0.04 = [0.621601, 0.778399] -> Elo [86.225, 218.252]
 *   error bar = (218.252 - 86.225) / 2 = 66.013
 *   LOS = 0.5 (1 + erf((60-20) / sqrt(2 * 80))) = 0.5 (1 + erf(3.16228)) = 0.9999961
 * Pentanomial: [LL, LD, LW+DD, DW, WW] = [2, 10, 20, 12, 6] (50 pairs), pair scores 0 .. 1 step 1/4
 *   mean = (0*2 + .25*10 + .5*20 + .75*12 + 1*6) / 50 = 27.5/50 = 0.55
 *   var = (2*.3025 + 10*.09 + 20*.0025 + 12*.04 + 6*.2025) / 50 = 3.25/50 = 0.065
 *   stderr = sqrt(0.065/50) = 0.0360555; with W=35 D=40 L=25 the score is also 0.55:
 *   Elo(0.55) = 34.860; Elo(0.55 +- 1.959964*0.0360555) -> error bar 49.953
 *   nElo = (0.55 - 0.5) / sqrt(2 * 0.065) * 800/ln(10) = 0.138675 * 347.4356 = 48.181
 */
static void test_elo(void) {
    CHECK(near(stats_elo(0.5), 0, 1e-12), "elo(0.5)");
    CHECK(near(stats_elo(0.7), 147.1907, 1e-3), "elo(0.7) = %f", stats_elo(0.7));
    CHECK(near(stats_elo(0.25), -190.8485, 1e-3), "elo(0.25) = %f", stats_elo(0.25)); /* -400 log10(3) */
    CHECK(isinf(stats_elo(1.0)) && stats_elo(1.0) > 0, "elo(1) = +inf");
    CHECK(near(stats_score(stats_elo(0.63)), 0.63, 1e-12), "score(elo(x)) = x");

    MatchScore m = { .wins = 60, .draws = 20, .losses = 20 };
    EloEstimate e;
    stats_estimate(&m, &e);
    CHECK(!e.fromPairs && e.games == 100, "trinomial estimate");
    CHECK(near(e.score, 0.7, 1e-12), "score %f", e.score);
    CHECK(near(e.elo, 147.1907, 1e-3), "elo %f", e.elo);
    CHECK(near(e.eloError, 66.0134, 1e-3), "error bar %f", e.eloError);
    CHECK(near(e.los, 0.9999961, 1e-6), "los %f", e.los);
    CHECK(near(e.drawRatio, 0.2, 1e-12), "draw ratio %f", e.drawRatio);

    MatchScore p = { .wins = 35, .draws = 40, .losses = 25, .penta = { 2, 10, 20, 12, 6 } };
    stats_estimate(&p, &e);
    CHECK(e.fromPairs, "pentanomial estimate");
    CHECK(near(e.elo, 34.8601, 1e-3), "elo %f", e.elo);
    CHECK(near(e.eloError, 49.9525, 1e-3), "pentanomial error bar %f", e.eloError);
    CHECK(near(e.nelo, 48.1806, 1e-3), "nElo %f", e.nelo);
    /* LOS = 0.5 (1 + erf(10 / sqrt(120))) = 0.5 (1 + erf(0.912871)) = 0.5 (1 + 0.803294) = 0.901647 */
    CHECK(near(e.los, 0.901647, 1e-5), "los %f", e.los);
    CHECK(near(stats_los(5, 5), 0.5, 1e-12) && near(stats_los(0, 0), 0.5, 1e-12), "even LOS");

    /* 18-2-0 in pairs [0,0,2,0,8]: mean 0.9, pair sd 0.2, 0.9 + 1.96 * 0.2 / sqrt(10) > 1, so no finite width. */
    MatchScore lopsided = { .wins = 18, .draws = 0, .losses = 2, .penta = { 0, 0, 2, 0, 8 } };
    stats_estimate(&lopsided, &e);
    CHECK(isinf(e.eloError) && e.eloError > 0, "an interval beyond a score of 1 is infinite, not NaN: %f", e.eloError);

    MatchScore q = { 0 };
    stats_add_pair(&q, 1, 1);
    stats_add_pair(&q, 1, 0);
    stats_add_pair(&q, 0.5, 0.5);
    stats_add_pair(&q, 0, 0.5);
    stats_add_pair(&q, 1, 0.5);
    CHECK(q.penta[4] == 1 && q.penta[2] == 2 && q.penta[1] == 1 && q.penta[3] == 1 && q.penta[0] == 0,
          "pair classification");
}

/*
 * SPRT. Bounds for alpha = beta = 0.05: ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = +2.944439.
 * LLR references come from an independent implementation of the same GSPRT
 * (fishtest's LLRcalc algorithm: MLE under each hypothesis via the secular
 * equation, zero counts replaced by 1e-3). They are cross-checked against
 * the closed-form approximations, which the exact values must be close to:
 *   pentanomial [2, 10, 20, 12, 6], logistic elo0=0 elo1=5:
 *     s0 = 0.5, s1 = 1/(1+10^(-5/400)) = 0.507195; mean 0.55, var 0.065
 *     approx LLR = N (s1-s0)(2 mean - s0 - s1) / (2 var)
 *                = 50 * 0.007195 * (1.1 - 1.007195) / 0.13 = 0.25682; exact 0.253973
 *   same counts, normalized elo0=0 elo1=5:
 *     nt = (0.55-0.5)/sqrt(2*0.065) = 0.138675, nt0 = 0, nt1 = 5/347.4356 = 0.014391
 *     approx LLR = (100/2) ln((1 + nt^2) / (1 + (nt - nt1)^2)) = 0.18599; exact 0.188004
 *   trinomial L=20 D=20 W=60 (games = 1): logistic 0..5 exact 0.707247, normalized 0.633348
 */
static void test_sprt(void) {
    SprtConfig c = { .enabled = true, .elo0 = 0, .elo1 = 5, .alpha = 0.05, .beta = 0.05, .model = SPRT_LOGISTIC };
    double lo, hi;
    sprt_bounds(&c, &lo, &hi);
    CHECK(near(lo, -2.944439, 1e-6) && near(hi, 2.944439, 1e-6), "bounds %f %f", lo, hi);
    MatchScore m = { .wins = 35, .draws = 40, .losses = 25, .penta = { 2, 10, 20, 12, 6 } };
    double llr = sprt_llr(&c, &m);
    CHECK(near(llr, 0.253973, 1e-4), "logistic pentanomial LLR %f", llr);
    CHECK(near(llr, 0.25682, 0.01), "close to the closed-form approximation");
    c.model = SPRT_NORMALIZED;
    llr = sprt_llr(&c, &m);
    CHECK(near(llr, 0.188004, 1e-4), "normalized pentanomial LLR %f", llr);
    CHECK(near(llr, 0.18599, 0.01), "close to the closed-form approximation");

    MatchScore p3 = { .penta = { 0, 5, 20, 30, 10 } }; /* a zero count: regularised */
    c.elo1 = 10;
    CHECK(near(sprt_llr(&c, &p3), 1.509461, 1e-4), "normalized LLR with a zero cell %f", sprt_llr(&c, &p3));
    c.model = SPRT_LOGISTIC;
    CHECK(near(sprt_llr(&c, &p3), 1.843758, 1e-4), "logistic LLR with a zero cell %f", sprt_llr(&c, &p3));

    MatchScore tri = { .wins = 60, .draws = 20, .losses = 20 };
    c.elo1 = 5;
    CHECK(near(sprt_llr(&c, &tri), 0.707247, 1e-4), "trinomial logistic LLR %f", sprt_llr(&c, &tri));
    c.model = SPRT_NORMALIZED;
    CHECK(near(sprt_llr(&c, &tri), 0.633348, 1e-4), "trinomial normalized LLR %f", sprt_llr(&c, &tri));

    CHECK(sprt_decide(&c, 3.0) == SPRT_H1 && sprt_decide(&c, -3.0) == SPRT_H0 && sprt_decide(&c, 0) == SPRT_CONTINUE,
          "decisions");
    /* 40 pairs all lost, normalized -10..10: exact LLR -3.255489 (below -2.944: H0). */
    MatchScore lost = { .losses = 80, .penta = { 40, 0, 0, 0, 0 } };
    c.elo0 = -10;
    c.elo1 = 10;
    CHECK(near(sprt_llr(&c, &lost), -3.255489, 1e-4) && sprt_decide(&c, sprt_llr(&c, &lost)) == SPRT_H0,
          "all pairs lost accepts H0 (LLR %f)", sprt_llr(&c, &lost));
    MatchScore won = { .wins = 40, .penta = { 0, 0, 0, 0, 20 } };
    CHECK(sprt_llr(&c, &won) > 0, "all pairs won gives a positive LLR");
}

/* Sets pos from a FEN or fails the test. */
static bool set_fen(Position *pos, const char *fen) {
    char err[128];
    bool ok = pos_set_fen(pos, fen, false, err, sizeof err);
    CHECK_EACH(ok, "FEN %s: %s", fen, err);
    return ok;
}

/* Plays SAN moves on pos. */
static void play(Position *pos, const char *moves) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        Move m = move_from_san(pos, tok);
        CHECK_EACH(m != MOVE_NONE, "move %s", tok);
        if (m == MOVE_NONE) return;
        pos_do_game_move(pos, m);
    }
}

static void test_referee(Position *pos) {
    GameOutcome o;
    set_fen(pos, StartFEN);
    CHECK(!referee_check(pos, &o), "start position goes on");
    set_fen(pos, "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    CHECK(referee_check(pos, &o) && o.result == RESULT_WHITE_WINS && strcmp(o.reason, "White mates") == 0 &&
              o.termination == TERM_NORMAL, "checkmate: %s", o.reason);
    set_fen(pos, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    CHECK(referee_check(pos, &o) && o.result == RESULT_DRAW && strstr(o.reason, "stalemate"), "stalemate: %s",
          o.reason);
    set_fen(pos, "8/8/4k3/8/8/3K4/3R4/8 w - - 100 80");
    CHECK(referee_check(pos, &o) && o.result == RESULT_DRAW && strstr(o.reason, "fifty"), "fifty moves: %s",
          o.reason);
    set_fen(pos, "8/8/4k3/8/8/3K4/3R4/8 w - - 99 80");
    CHECK(!referee_check(pos, &o), "99 plies is not yet fifty moves");
    set_fen(pos, "7k/6Q1/6K1/8/8/8/8/8 b - - 100 90");
    CHECK(referee_check(pos, &o) && o.result == RESULT_WHITE_WINS, "mate beats the fifty-move rule");
    set_fen(pos, "8/8/4k3/8/8/3K4/8/8 w - - 0 1");
    CHECK(referee_check(pos, &o) && strstr(o.reason, "insufficient"), "KvK: %s", o.reason);
    set_fen(pos, "8/8/4k3/8/8/3KN3/8/8 w - - 0 1");
    CHECK(referee_check(pos, &o) && strstr(o.reason, "insufficient"), "KNvK");
    set_fen(pos, "8/8/4k3/8/8/3K4/7R/8 w - - 0 1");
    CHECK(!referee_check(pos, &o), "KRvK goes on");
    set_fen(pos, StartFEN);
    play(pos, "Nf3 Nf6 Ng1 Ng8");
    CHECK(!referee_check(pos, &o), "second occurrence is not a draw");
    play(pos, "Nf3 Nf6 Ng1 Ng8");
    CHECK(referee_check(pos, &o) && strstr(o.reason, "3-fold"), "threefold repetition");
}

static void test_adjudication(Position *pos) {
    AdjudicationConfig cfg = { .drawEnabled = true, .drawMoveNumber = 10, .drawMoveCount = 3, .drawScore = 10,
                               .resignEnabled = true, .resignMoveCount = 2, .resignScore = 500 };
    Adjudicator a;
    GameOutcome o;
    set_fen(pos, "r3k3/8/8/8/8/8/8/4K2R w - - 0 30");
    adjudicator_reset(&a);
    int scores[] = { 5, -3, 0, 10, -10 };
    for (int i = 0; i < 5; i++)
        CHECK_EACH(!adjudicator_update(&a, &cfg, pos, (Color)(i % 2), true, scores[i], &o), "draw not yet at ply %d",
                   i);
    CHECK(adjudicator_update(&a, &cfg, pos, BLACK, true, 4, &o) && o.result == RESULT_DRAW &&
              o.termination == TERM_ADJUDICATION, "draw after 3 moves each");
    adjudicator_reset(&a);
    for (int i = 0; i < 5; i++) adjudicator_update(&a, &cfg, pos, (Color)(i % 2), true, 0, &o);
    CHECK(!adjudicator_update(&a, &cfg, pos, BLACK, true, 11, &o), "a score outside the bound resets");
    CHECK(!adjudicator_update(&a, &cfg, pos, WHITE, false, 0, &o), "a missing score resets");
    set_fen(pos, "r3k3/8/8/8/8/8/8/4K2R w - - 0 5");
    adjudicator_reset(&a);
    for (int i = 0; i < 10; i++)
        CHECK_EACH(!adjudicator_update(&a, &cfg, pos, (Color)(i % 2), true, 0, &o), "no draw before move 10 (ply %d)",
                   i);

    /* Resign: White's engine says +600, Black's says -600: both agree Black is lost. */
    set_fen(pos, "r3k3/8/8/8/8/8/8/4K2R w - - 0 30");
    adjudicator_reset(&a);
    CHECK(!adjudicator_update(&a, &cfg, pos, WHITE, true, 600, &o), "resign ply 1");
    CHECK(!adjudicator_update(&a, &cfg, pos, BLACK, true, -600, &o), "resign ply 2");
    CHECK(!adjudicator_update(&a, &cfg, pos, WHITE, true, 650, &o), "resign ply 3");
    CHECK(adjudicator_update(&a, &cfg, pos, BLACK, true, -700, &o) && o.result == RESULT_WHITE_WINS,
          "resign after 2 moves each: %s", o.reason);
    /* Disagreement: Black's engine thinks it is fine. */
    adjudicator_reset(&a);
    adjudicator_update(&a, &cfg, pos, WHITE, true, 600, &o);
    adjudicator_update(&a, &cfg, pos, BLACK, true, 100, &o);
    adjudicator_update(&a, &cfg, pos, WHITE, true, 600, &o);
    CHECK(!adjudicator_update(&a, &cfg, pos, BLACK, true, -600, &o), "no resignation when the engines disagree");
    /* Black winning: Black's engine +800, White's engine -800. */
    adjudicator_reset(&a);
    for (int i = 0; i < 3; i++) adjudicator_update(&a, &cfg, pos, (Color)(i % 2), true, i % 2 ? 800 : -800, &o);
    CHECK(adjudicator_update(&a, &cfg, pos, BLACK, true, 800, &o) && o.result == RESULT_BLACK_WINS, "black wins");

    AdjudicationConfig maxm = { .maxMoves = 20 };
    set_fen(pos, "r3k3/8/8/8/8/8/8/4K2R w - - 0 21");
    adjudicator_reset(&a);
    CHECK(adjudicator_update(&a, &maxm, pos, BLACK, false, 0, &o) && strstr(o.reason, "maximum"), "max moves");
}

static void test_clock(void) {
    TimeControl tc = { 0 };
    char err[128], text[64];
    CHECK(tc_parse_clock(&tc, "40/60+0.5", err, sizeof err) && tc.moves == 40 && tc.base == 60 && tc.inc == 0.5,
          "40/60+0.5");
    CHECK(tc_parse_clock(&tc, "1:30+1", err, sizeof err) && tc.moves == 0 && tc.base == 90 && tc.inc == 1, "1:30+1");
    CHECK(tc_parse_clock(&tc, "10+0.1", err, sizeof err) && tc.base == 10 && near(tc.inc, 0.1, 1e-12), "10+0.1");
    tc_format_pgn(&tc, text, sizeof text);
    CHECK(strcmp(text, "10+0.1") == 0, "pgn tc %s", text);
    const char *bad[] = { "abc", "0+0", "40/", "-5", "10+x", "0/10" };
    for (int i = 0; i < 6; i++) CHECK_EACH(!tc_parse_clock(&tc, bad[i], err, sizeof err), "rejects %s", bad[i]);
    CHECK(tc_parse_clock(&tc, "inf", err, sizeof err) && !tc.hasClock, "inf");
    /*
     * Engines are told the clock in whole milliseconds (UCI wtime, winc): a finer time is refused
     * rather than sent rounded and written "0+0" in the PGN (issue #38); one millisecond is kept
     * and written as it is.
     */
    const char *fine[] = { "0.0005+0", "0.0004", "10+0.0005", "40/1.0005", "1:00.0001+1", "1e-4+1" };
    TimeControl ms = { 0 };
    for (int i = 0; i < 6; i++) {
        err[0] = '\0';
        CHECK_EACH(!tc_parse_clock(&ms, fine[i], err, sizeof err) && strstr(err, "whole milliseconds"),
                   "refuses %s with its reason: '%s'", fine[i], err);
    }
    CHECK(tc_parse_clock(&ms, "0.001+0.001", err, sizeof err) && (tc_format_pgn(&ms, text, sizeof text), true)
              && strcmp(text, "0.001+0.001") == 0,
          "one millisecond is a clock, written 0.001+0.001: %s %s", text, err);
    /*
     * Times beyond a billion seconds are refused (found by fuzz_matchreply: tc=1e300 overflowed the
     * conversion to the milliseconds of "go wtime", undefined behaviour; fuzz_matchcli: the PGN tag
     * of tc=1e40 read "10000000000000000303786028427").
     */
    const char *huge[] = { "1e300", "1e10+0", "10+1e10", "40/1e12", "20000000:00", "1:1e300" };
    TimeControl big = { 0 };
    for (int i = 0; i < 6; i++) CHECK(!tc_parse_clock(&big, huge[i], err, sizeof err), "rejects %s", huge[i]);
    double seconds;
    CHECK(tc_parse_clock(&big, "1000000000+1", err, sizeof err) && !tc_parse_seconds("1e300", &seconds) &&
              tc_parse_seconds("1e9", &seconds), "a billion seconds is the most");
    tc.moveTime = 0.05;
    tc_format_pgn(&tc, text, sizeof text);
    CHECK(strcmp(text, "0.05/move") == 0, "st pgn %s", text);

    TimeControl t = { .hasClock = true, .base = 10, .inc = 0.1 };
    Clock c;
    clock_reset(&c, &t);
    CHECK(clock_charge(&c, &t, 2.0, 0.05) && near(c.remaining, 8.1, 1e-9), "charge %f", c.remaining);
    c.remaining = 0.05;
    CHECK(clock_charge(&c, &t, 0.09, 0.05) && near(c.remaining, 0.06, 1e-9), "within the margin");
    c.remaining = 0.05;
    CHECK(!clock_charge(&c, &t, 0.2, 0.1), "flag falls beyond the margin");
    CHECK(near(clock_allowance(&c, &t, 0.1, 60), 0.1, 1e-9), "no time left: only the margin");

    TimeControl p = { .hasClock = true, .base = 10, .moves = 2 };
    clock_reset(&c, &p);
    CHECK(clock_moves_to_go(&c, &p) == 2, "movestogo 2");
    clock_charge(&c, &p, 3, 0);
    CHECK(clock_moves_to_go(&c, &p) == 1 && near(c.remaining, 7, 1e-9), "movestogo 1");
    clock_charge(&c, &p, 3, 0);
    CHECK(clock_moves_to_go(&c, &p) == 2 && near(c.remaining, 14, 1e-9), "new period adds time: %f", c.remaining);

    TimeControl st = { .moveTime = 0.5 };
    clock_reset(&c, &st);
    CHECK(near(clock_allowance(&c, &st, 0.1, 60), 0.6, 1e-9), "st allowance");
    CHECK(clock_charge(&c, &st, 0.55, 0.1) && !clock_charge(&c, &st, 0.65, 0.1), "st forfeit");
    TimeControl nodes = { .nodes = 1000 };
    CHECK(near(clock_allowance(&c, &nodes, 0.1, 60), 60, 1e-9), "node limit: hang limit");
}

/* Writes text to a temporary file; returns its path (static buffer per slot). */
static const char *temp_file(int slot, const char *text) {
    static char paths[4][64];
    snprintf(paths[slot], sizeof paths[slot], "/tmp/gizum_test_match_%d_%d", (int)getpid(), slot);
    FILE *f = fopen(paths[slot], "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    return paths[slot];
}

static void test_openings(void) {
    const char *epd = temp_file(0,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 hmvc 0; fmvn 1; c0 \"e4\";\n"
        "not a position\n"
        "\n"
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\n"
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n");
    OpeningConfig cfg = { .file = (char *)epd, .format = OPENINGS_EPD };
    OpeningSuite s;
    char err[256];
    CHECK(openings_load(&s, &cfg, false, err, sizeof err) && s.count == 3, "EPD: 3 positions (%ld)", s.count);
    Opening o;
    CHECK(openings_get(&s, 0, &o) && o.fen && strcmp(o.fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1") == 0,
          "EPD opcodes give the counters (ep square dropped: no pawn can take): %s", o.fen ? o.fen : "(null)");
    opening_free(&o);
    CHECK(openings_get(&s, 1, &o) && strstr(o.fen, " w KQkq - 2 3"), "EPD counters kept: %s", o.fen);
    opening_free(&o);
    CHECK(openings_get(&s, 4, &o) && strstr(o.fen, "r1bqkbnr"), "wraps around");
    opening_free(&o);
    openings_free(&s);

    cfg.random = true;
    cfg.seed = 42;
    OpeningSuite r1, r2;
    CHECK(openings_load(&r1, &cfg, false, err, sizeof err) && openings_load(&r2, &cfg, false, err, sizeof err), "load");
    bool same = true, perm = true;
    int seen[3] = { 0 };
    for (long i = 0; i < r1.count; i++) {
        same = same && r1.order[i] == r2.order[i];
        if (r1.order[i] >= 0 && r1.order[i] < 3) seen[r1.order[i]]++;
    }
    for (int i = 0; i < 3; i++) perm = perm && seen[i] == 1;
    CHECK(same && perm, "random order is a reproducible permutation");
    openings_free(&r1);
    openings_free(&r2);

    const char *pgn = temp_file(1,
        "[Event \"a\"]\n[Result \"*\"]\n\n1. e4 {book} e5 2. Nf3 (2. f4 exf4) Nc6 3. Bb5 a6 *\n\n"
        "[Event \"b\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 Kd7 *\n");
    OpeningConfig pc = { .file = (char *)pgn, .format = OPENINGS_PGN, .plies = 4 };
    CHECK(openings_load(&s, &pc, false, err, sizeof err) && s.count == 2, "PGN: 2 games (%s)", err);
    CHECK(openings_get(&s, 0, &o) && !o.fen && o.moveCount == 4, "first 4 plies from the start position");
    opening_free(&o);
    CHECK(openings_get(&s, 1, &o) && o.fen && o.moveCount == 2, "FEN game keeps its start and both plies");
    opening_free(&o);
    openings_free(&s);

    /* A two-entry Polyglot book: 1. e4 (weight 10), then 1... e5; the walk stops when out of book. */
    static Position bp;
    pos_set_startpos(&bp, false);
    BookEntry entries[2];
    Move e4 = move_from_uci(&bp, "e2e4");
    entries[0] = (BookEntry){ .key = pos_key(&bp), .move = book_encode_move(e4), .weight = 10 };
    pos_do_game_move(&bp, e4);
    entries[1] = (BookEntry){ .key = pos_key(&bp), .move = book_encode_move(move_from_uci(&bp, "e7e5")), .weight = 3 };
    const char *bin = temp_file(2, "");
    CHECK(book_write_entries(bin, entries, 2, err, sizeof err), "book written: %s", err);
    OpeningConfig bc = { .file = (char *)bin, .format = OPENINGS_BOOK, .plies = 6, .seed = 5 };
    CHECK(openings_load(&s, &bc, false, err, sizeof err), "book loads: %s", err);
    CHECK(openings_get(&s, 0, &o) && !o.fen && o.moveCount == 2 && o.moves[0] == e4, "book walk e4 e5 (%d plies)",
          o.moveCount);
    opening_free(&o);
    openings_free(&s);
    remove(bin);

    OpeningConfig missing = { .file = "/nonexistent/openings.epd", .format = OPENINGS_EPD };
    CHECK(!openings_load(&s, &missing, false, err, sizeof err) && strstr(err, "cannot open"), "missing file: %s", err);
    remove(epd);
    remove(pgn);
}

static void test_pgn_writer(void) {
    GameRecord rec;
    game_record_init(&rec);
    static Position pos;
    set_fen(&pos, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    pos_get_fen(&pos, rec.startFen);
    rec.standard = false;
    rec.started = 0;
    const char *moves[] = { "e7e5", "g1f3", "b8c6" };
    rec.plies = calloc(3, sizeof *rec.plies);
    rec.texts = calloc(3, sizeof *rec.texts);
    rec.cap = 3;
    for (int i = 0; i < 3; i++) {
        Move m = move_from_uci(&pos, moves[i]);
        rec.plies[i] = (PlyRecord){ .move = m, .hasScore = true, .score = i == 1 ? 35 : -20, .depth = 12, .seconds = 0.512 };
        snprintf(rec.texts[i].uci, sizeof rec.texts[i].uci, "%s", moves[i]);
        move_to_san(&pos, m, rec.texts[i].san);
        pos_do_game_move(&pos, m);
        rec.count++;
    }
    rec.plies[0].book = true;
    rec.plies[2].isMate = true;
    rec.plies[2].score = -3;
    referee_loss(&rec.outcome, BLACK, TERM_TIME_FORFEIT, "Black loses on time");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    PgnHeader h = { "ev", "here", "1.1", "A \"quoted\"", "B", "10+0.1", "10+0.1", NULL };
    pgn_write_game(f, &h, &rec);
    fclose(f);
    CHECK(strstr(buf, "[White \"A \\\"quoted\\\"\"]"), "escaped tag");
    CHECK(strstr(buf, "[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n[SetUp \"1\"]"), "FEN+SetUp");
    CHECK(strstr(buf, "[Result \"1-0\"]") && strstr(buf, "[Termination \"time forfeit\"]") &&
              strstr(buf, "[TimeControl \"10+0.1\"]") && strstr(buf, "[PlyCount \"3\"]"), "tags");
    CHECK(strstr(buf, "1... e5 {book} 2. Nf3 {+0.35/12 0.512s} Nc6 {-M3/12 0.512s}"), "movetext:\n%s", buf);
    CHECK(strstr(buf, "{Black loses on time} 1-0\n\n"), "result comment");
    free(buf);
    game_record_free(&rec);
}

/* An engine config for the fake engine with the given arguments. */
static void fake_config(EngineConfig *c, const char *path, const char *const *args, Protocol proto, const TimeControl *tc) {
    memset(c, 0, sizeof *c);
    int n = 0;
    while (args[n]) n++;
    c->argv = calloc((size_t)n + 2, sizeof *c->argv);
    c->argv[0] = (char *)path;
    for (int i = 0; i < n; i++) c->argv[i + 1] = (char *)args[i];
    c->argc = n + 1;
    c->cmd = (char *)path;
    c->name = (char *)args[0];
    c->proto = proto;
    c->tc = *tc;
}

typedef struct {
    int warnings;
    char last[512];
} LogCapture;

static void capture(void *ctx, const char *message) {
    LogCapture *l = ctx;
    l->warnings++;
    snprintf(l->last, sizeof l->last, "%s", message);
}

/*
 * The start-up (uci/isready) timeout for a fake. With 0.5 s for every fake
 * the stall tests failed now and then on a loaded machine for the wrong
 * reason: an engine that does answer had not started within 0.5 s and was
 * reported as giving no uciok. Fakes that answer get 10 s; the ones that never
 * answer (whose tests wait the whole timeout) 2 s, which still leaves the
 * noreadyok fake time to give its uciok first.
 */
static double init_timeout(const char *const *args) {
    bool stalls = strcmp(args[0], "nouciok") == 0 || strcmp(args[0], "noreadyok") == 0;
    return stalls ? 2.0 : 10.0;
}

/* Plays one game between fake engines in the given modes; returns the record (caller frees). */
static bool fake_game(const char *fake, const char *const *whiteArgs, const char *const *blackArgs, Protocol wp,
                      const TimeControl *tc, const AdjudicationConfig *adj, GameRecord *rec, LogCapture *log,
                      int games, int *whiteStarts) {
    static atomic_bool stop;
    EngineConfig wc, bc;
    fake_config(&wc, fake, whiteArgs, wp, tc);
    fake_config(&bc, fake, blackArgs, PROTO_UCI, tc);
    Engine w, b;
    engine_prepare(&w, &wc, "white-engine", NULL, &stop, init_timeout(whiteArgs));
    engine_prepare(&b, &bc, "black-engine", NULL, &stop, init_timeout(blackArgs));
    GameSettings s = { .timeMargin = 0.05, .hangLimit = 5, .adjudication = adj, .log = capture, .logCtx = log };
    bool ok = true;
    for (int g = 0; g < games && ok; g++) {
        game_record_free(rec);
        game_record_init(rec);
        ok = game_play(&s, &w, &b, rec);
    }
    if (whiteStarts) *whiteStarts = w.starts;
    engine_free(&w);
    engine_free(&b);
    free(wc.argv);
    free(bc.argv);
    return ok;
}

static void test_fake_engines(const char *fake) {
    TimeControl tc = { .hasClock = true, .base = 5, .inc = 0.05 };
    AdjudicationConfig adj = { .maxMoves = 30 };
    GameRecord rec;
    game_record_init(&rec);
    LogCapture log = { 0 };
    const char *good[] = { "random", NULL };
    int starts = 0;

    const char *illegal[] = { "illegal", "after=2", NULL };
    CHECK(fake_game(fake, illegal, good, PROTO_UCI, &tc, &adj, &rec, &log, 1, NULL), "illegal game played");
    CHECK(rec.outcome.result == RESULT_BLACK_WINS && rec.outcome.termination == TERM_RULES_INFRACTION &&
              strstr(rec.outcome.reason, "White makes an illegal move: a1a1") && rec.count == 4,
          "illegal move loses: %s (%d plies)", rec.outcome.reason, rec.count);
    CHECK(strstr(log.last, "illegal move") && strstr(log.last, "position "), "illegal move logged with FEN: %s", log.last);

    const char *garbage[] = { "garbage", NULL };
    fake_game(fake, good, garbage, PROTO_UCI, &tc, &adj, &rec, &log, 1, NULL);
    /* garbage is Black here: fake_game gives Black the second list */
    CHECK(rec.outcome.result == RESULT_WHITE_WINS && strstr(rec.outcome.reason, "illegal move"),
          "garbage output and a malformed move lose: %s", rec.outcome.reason);

    TimeControl fast = { .hasClock = true, .base = 0.3, .inc = 0 };
    const char *timeout[] = { "timeout", "after=1", NULL };
    fake_game(fake, timeout, good, PROTO_UCI, &fast, &adj, &rec, &log, 1, NULL);
    CHECK(rec.outcome.result == RESULT_BLACK_WINS && rec.outcome.termination == TERM_TIME_FORFEIT &&
              strcmp(rec.outcome.reason, "White loses on time") == 0, "timeout loses on time: %s", rec.outcome.reason);

    TimeControl st = { .moveTime = 0.1 };
    fake_game(fake, timeout, good, PROTO_UCI, &st, &adj, &rec, &log, 1, NULL);
    CHECK(rec.outcome.termination == TERM_TIME_FORFEIT, "st timeout: %s", rec.outcome.reason);

    const char *crash[] = { "crash", "after=1", NULL };
    log.warnings = 0;
    CHECK(fake_game(fake, crash, good, PROTO_UCI, &tc, &adj, &rec, &log, 2, &starts), "crash games played");
    CHECK(rec.outcome.result == RESULT_BLACK_WINS && rec.outcome.termination == TERM_ABANDONED &&
              strstr(rec.outcome.reason, "disconnects"), "crash loses: %s", rec.outcome.reason);
    CHECK(starts == 2, "crashed engine restarted for the next game (starts %d)", starts);
    CHECK(log.warnings >= 3, "crash and restart logged (%d warnings)", log.warnings);

    const char *flood[] = { "flood", NULL };
    AdjudicationConfig shortGame = { .maxMoves = 3 };
    TimeControl roomy = { .hasClock = true, .base = 30, .inc = 0.1 };
    fake_game(fake, flood, good, PROTO_UCI, &roomy, &shortGame, &rec, &log, 1, NULL);
    CHECK(rec.outcome.result == RESULT_DRAW && strstr(rec.outcome.reason, "maximum") && rec.count == 6,
          "flooding engine is read through and plays on: %s", rec.outcome.reason);

    const char *nouciok[] = { "nouciok", NULL };
    fake_game(fake, nouciok, good, PROTO_UCI, &tc, &adj, &rec, &log, 1, NULL);
    CHECK(rec.outcome.result == RESULT_BLACK_WINS && strstr(rec.outcome.reason, "no uciok"),
          "no uciok reported: %s", rec.outcome.reason);

    const char *noready[] = { "noreadyok", NULL };
    fake_game(fake, good, noready, PROTO_UCI, &tc, &adj, &rec, &log, 1, NULL);
    CHECK(rec.outcome.result == RESULT_WHITE_WINS && strstr(rec.outcome.reason, "isready"),
          "stalled isready detected: %s", rec.outcome.reason);

    const char *xboard[] = { "xboard", NULL };
    AdjudicationConfig ten = { .maxMoves = 10 };
    fake_game(fake, xboard, good, PROTO_XBOARD, &tc, &ten, &rec, &log, 2, &starts);
    CHECK(rec.outcome.result != RESULT_NONE && rec.outcome.termination != TERM_ABANDONED &&
              rec.outcome.termination != TERM_RULES_INFRACTION && starts == 1,
          "xboard engine plays two games on one process: %s (%d plies)", rec.outcome.reason, rec.count);

    const char *winning[] = { "random", "score=600", NULL }, *losing[] = { "random", "score=-600", NULL };
    AdjudicationConfig resign = { .resignEnabled = true, .resignMoveCount = 3, .resignScore = 500 };
    fake_game(fake, winning, losing, PROTO_UCI, &tc, &resign, &rec, &log, 1, NULL);
    CHECK(rec.outcome.result == RESULT_WHITE_WINS && rec.outcome.termination == TERM_ADJUDICATION && rec.count == 6,
          "resign adjudication when both agree: %s after %d plies", rec.outcome.reason, rec.count);
    game_record_free(&rec);
}

static void test_cli(const char *fake) {
    char *argv[] = { "gizum-match", "-engine", "cmd=/bin/sh", "name=First", "tc=40/60", "option.Hash=32",
                     "-engine", "cmd=/bin/sh", "args=-c 'echo hi' x", "proto=xboard", "-each", "tc=10+0.1",
                     "option.Hash=16", "option.Threads=1", "-rounds", "3", "-games", "2", "-concurrency", "2",
                     "-openings", "file=x.epd", "format=epd", "order=random", "seed=9", "plies=6",
                     "-draw", "movenumber=40", "movecount=8", "score=10", "-resign", "movecount=3", "score=600",
                     "-sprt", "elo0=0", "elo1=5", "model=logistic", "-timemargin", "100", "-tournament", "gauntlet",
                     NULL };
    int argc = (int)(sizeof argv / sizeof *argv) - 1;
    MatchConfig cfg;
    char err[256] = "";
    bool ok = cli_parse(argc, argv, &cfg, err, sizeof err);
    CHECK(ok, "cli parses: %s", err);
    if (ok) {
        const EngineConfig *a = &cfg.engines[0], *b = &cfg.engines[1];
        CHECK(cfg.engineCount == 2 && strcmp(a->name, "First") == 0 && strcmp(b->name, "sh") == 0, "names");
        CHECK(a->tc.moves == 40 && a->tc.base == 60 && b->tc.base == 10 && near(b->tc.inc, 0.1, 1e-12),
              "-engine tc overrides -each tc");
        CHECK(a->optionCount == 2 && strcmp(a->options[0].value, "32") == 0 && strcmp(b->options[0].value, "16") == 0,
              "-engine option overrides -each option");
        CHECK(b->proto == PROTO_XBOARD && b->argc == 4 && strcmp(b->argv[1], "-c") == 0 &&
                  strcmp(b->argv[2], "echo hi") == 0 && strcmp(b->argv[3], "x") == 0 && b->argv[4] == NULL && strcmp(b->argv[0], "/bin/sh") == 0,
              "args split with quotes");
        CHECK(cfg.rounds == 3 && cfg.games == 2 && cfg.concurrency == 2 && cfg.type == TOURNAMENT_GAUNTLET, "numbers");
        CHECK(cfg.openings.random && cfg.openings.seed == 9 && cfg.openings.plies == 6, "openings");
        CHECK(cfg.adjudication.drawEnabled && cfg.adjudication.drawMoveNumber == 40 &&
                  cfg.adjudication.drawMoveCount == 8 && cfg.adjudication.drawScore == 10 &&
                  cfg.adjudication.resignEnabled && cfg.adjudication.resignScore == 600, "adjudication");
        CHECK(cfg.sprt.enabled && cfg.sprt.model == SPRT_LOGISTIC && cfg.sprt.elo1 == 5 && cfg.sprt.alpha == 0.05,
              "sprt");
        CHECK(near(cfg.timeMargin, 0.1, 1e-12), "time margin in ms");
    }
    cli_free(&cfg);
    char *bad1[] = { "gizum-match", "-engine", "cmd=/bin/sh", "tc=1", "-engine", "cmd=/bin/sh", "tc=1",
                     "proto=xboard", "st=0.5", NULL };
    CHECK(!cli_parse(9, bad1, &cfg, err, sizeof err) && strstr(err, "whole seconds"), "xboard st: %s", err);
    cli_free(&cfg);
    char *bad2[] = { "gizum-match", "-engine", "cmd=/bin/sh", "-engine", "cmd=/bin/sh", "-each", "st=1",
                     "-sprt", "elo0=5", "elo1=0", NULL };
    CHECK(!cli_parse(10, bad2, &cfg, err, sizeof err) && strstr(err, "elo0 < elo1"), "sprt bounds: %s", err);
    cli_free(&cfg);
    char *bad3[] = { "gizum-match", "-engine", (char *)"cmd=x", "-each", "tc=1", "-engine", "cmd=y", NULL };
    (void)fake;
    CHECK(!cli_parse(7, bad3, &cfg, err, sizeof err) && strstr(err, "not found"), "missing program: %s", err);
    cli_free(&cfg);
    /* An empty cmd= or a folder is no program (found by fuzz_matchcli: "cmd=" passed as the folder /usr/bin/);
       an empty name= is refused too (it left the engine nameless in the standings and the PGN). */
    char *bad4[] = { "gizum-match", "-engine", "cmd=", "-each", "tc=1", "-engine", "cmd=/bin/sh", NULL };
    CHECK(!cli_parse(7, bad4, &cfg, err, sizeof err) && strstr(err, "not found"), "empty cmd=: %s", err);
    cli_free(&cfg);
    char *bad5[] = { "gizum-match", "-engine", "cmd=/tmp", "-each", "tc=1", "-engine", "cmd=/bin/sh", NULL };
    CHECK(!cli_parse(7, bad5, &cfg, err, sizeof err) && strstr(err, "not found"), "a folder as cmd=: %s", err);
    cli_free(&cfg);
    char *bad7[] = { "gizum-match", "-engine", "cmd=/bin/sh", "st=1e300", "-each", "tc=1", "-engine", "cmd=/bin/sh", NULL };
    CHECK(!cli_parse(8, bad7, &cfg, err, sizeof err) && strstr(err, "st=1e300"), "st=1e300: %s", err);
    cli_free(&cfg);
    char *bad6[] = { "gizum-match", "-engine", "cmd=/bin/sh", "name=", "-each", "tc=1", "-engine", "cmd=/bin/sh", NULL };
    CHECK(!cli_parse(8, bad6, &cfg, err, sizeof err) && strstr(err, "empty name="), "empty name=: %s", err);
    cli_free(&cfg);
    /* -spsa copies the one engine it tunes; an engine without cmd= was copied through strdup(NULL)
       (found by fuzz_matchcli's 10-minute run: a crash in the release build). */
    char *bad8[] = { "gizum-match", "-spsa", "file=p.spsa", "iterations=100", "-engine", "tc=1", NULL };
    CHECK(!cli_parse(6, bad8, &cfg, err, sizeof err) && strstr(err, "no cmd="), "-spsa with an engine without cmd=: %s", err);
    cli_free(&cfg);
}


/* Parses a command line given as one string (split at blanks); err gets the message. */
static bool parse_line(const char *line, MatchConfig *cfg, char *err, size_t errlen) {
    static char buf[4096];
    char *argv[256];
    int argc = 0;
    snprintf(buf, sizeof buf, "gizum-match %s", line);
    for (char *tok = strtok(buf, " "); tok && argc < 255; tok = strtok(NULL, " ")) argv[argc++] = tok;
    argv[argc] = NULL;
    return cli_parse(argc, argv, cfg, err, errlen);
}

/*
 * Engines of the same name are numbered apart, however many there are
 * (found by fuzz_matchcli: the third "sh" became "sh-2" like the second).
 */
static void test_cli_names(void) {
    static const struct {
        const char *line, *names;
    } Cases[] = {
        {"-engine cmd=/bin/sh -engine cmd=/bin/sh -engine cmd=/bin/sh -each tc=1", "sh sh-2 sh-3"},
        {"-engine cmd=/bin/sh name=a -engine cmd=/bin/sh name=a -engine cmd=/bin/sh name=a "
         "-engine cmd=/bin/sh name=a-2 -each tc=1", "a a-2 a-3 a-2-2"},
        {"-engine cmd=/bin/sh name=a-2 -engine cmd=/bin/sh name=a -engine cmd=/bin/sh name=a -each tc=1", "a-2 a a-3"},
    };
    for (size_t i = 0; i < sizeof Cases / sizeof Cases[0]; i++) {
        MatchConfig cfg;
        char err[2048] = "", names[256] = "";
        bool ok = parse_line(Cases[i].line, &cfg, err, sizeof err);
        for (int e = 0; ok && e < cfg.engineCount; e++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", e ? " " : "", cfg.engines[e].name);
        CHECK(ok && strcmp(names, Cases[i].names) == 0, "engine names '%s', expected '%s' (%s)", names, Cases[i].names,
              err);
        cli_free(&cfg);
    }
}

/* Command lines as fastchess's and cutechess-cli's documentation, fishtest and OpenBench's worker write them. */
static void test_cli_dialects(void) {
    MatchConfig cfg;
    char err[2048] = "";
    bool ok = parse_line("-engine name=New cmd=/bin/sh -engine name=Base cmd=/bin/sh "
                         "-each proto=uci option.Threads=1 option.Hash=16 tc=10+0.1 timemargin=250 "
                         "-openings file=x.epd format=epd order=random plies=8 start=3 -srand 5 "
                         "-resign movecount=3 score=600 twosided=true -draw movenumber=34 movecount=8 score=20 "
                         "-sprt elo0=0 elo1=2 alpha=0.05 beta=0.05 model=logistic "
                         "-pgnout file=g.pgn notation=lan nodes=true seldepth=true nps=true hashfull=true tbhits=true "
                         "timeleft=true latency=true pv=true append=false min=false "
                         "-report penta=false -log file=l.txt level=info engine=true realtime=true -recover -repeat "
                         "-games 2 -rounds 10 -concurrency 2 -tournament roundrobin -config outname=st.json "
                         "-autosaveinterval 5 -testEnv -output format=cutechess -variant standard -ratinginterval 0 "
                         "-startup-ms 20000 -force-concurrency -show-latency -scoreinterval 1 -noswap -wait 5",
                         &cfg, err, sizeof err);
    CHECK(ok, "fastchess command line parses: %s", err);
    if (ok) {
        const EngineConfig *a = &cfg.engines[0];
        CHECK(cfg.engineCount == 2 && near(a->timeMargin, 0.25, 1e-12) && near(a->tc.base, 10, 1e-12) &&
                  a->optionCount == 2, "fastchess engine settings (timemargin=250 ms)");
        CHECK(cfg.openings.random && cfg.openings.plies == 8 && cfg.openings.start == 3 && cfg.openings.seed == 5,
              "fastchess -openings and -srand");
        CHECK(cfg.adjudication.resignEnabled && !cfg.adjudication.resignOneSided && cfg.adjudication.resignScore == 600 &&
                  cfg.adjudication.drawMoveNumber == 34 && cfg.adjudication.drawScore == 20, "fastchess -resign/-draw");
        CHECK(cfg.sprt.enabled && cfg.sprt.model == SPRT_LOGISTIC && near(cfg.sprt.elo1, 2, 1e-12), "fastchess -sprt");
        const PgnOptions *o = &cfg.pgn;
        CHECK(strcmp(cfg.pgnOut, "g.pgn") == 0 && !cfg.pgnAppend && o->notation == PGN_LAN && o->nodes && o->seldepth &&
                  o->nps && o->hashfull && o->tbhits && o->timeleft && o->latency && o->pv && !o->min,
              "fastchess -pgnout file= with every key");
        CHECK(!cfg.reportPenta && strcmp(cfg.logFile, "l.txt") == 0 && strcmp(cfg.stateOut, "st.json") == 0 &&
                  !cfg.stateIn && cfg.autosaveInterval == 5 && near(cfg.initTimeout, 20, 1e-12) && cfg.noSwap &&
                  cfg.waitMs == 5, "-report, -log file=, -config outname=, -startup-ms, -noswap, -wait");
    }
    cli_free(&cfg);

    ok = parse_line("-repeat -recover -variant standard -concurrency 2 -games 2 -resign movecount=3 score=400 "
                    "-draw movenumber=40 movecount=8 score=10 "
                    "-engine dir=/ cmd=/bin/sh proto=uci tc=8.00+0.08 timemargin=250 option.Threads=1 option.Hash=16 "
                    "name=Gizum-dev arg=-x arg=y ponder trust restart=on "
                    "-engine dir=/ cmd=/bin/sh proto=uci tc=8.00+0.08 timemargin=250 option.Threads=1 name=Gizum-base "
                    "-openings file=Books/x.pgn order=random start=7 -srand 99 -pgnout PGNs/1.2.3.0.pgn min fi "
                    "-tournament round-robin -debug",
                    &cfg, err, sizeof err);
    CHECK(ok, "cutechess / OpenBench worker command line parses: %s", err);
    if (ok) {
        const EngineConfig *a = &cfg.engines[0];
        CHECK(a->argc == 3 && strcmp(a->argv[1], "-x") == 0 && strcmp(a->argv[2], "y") == 0 && a->argv[3] == NULL &&
                  a->ponder && a->restart && !cfg.engines[1].ponder, "cutechess arg=, bare ponder and trust, restart=on");
        CHECK(cfg.openings.format == OPENINGS_PGN && cfg.openings.start == 7 && cfg.openings.seed == 99,
              "format from the file name when -openings has none");
        CHECK(strcmp(cfg.pgnOut, "PGNs/1.2.3.0.pgn") == 0 && cfg.pgn.min && cfg.pgnAppend && cfg.pgn.notation == PGN_SAN,
              "cutechess -pgnout FILE min fi");
        CHECK(strcmp(cfg.logFile, "-") == 0, "-debug logs to stdout");
    }
    cli_free(&cfg);
    ok = parse_line("-engine cmd=/bin/sh -engine cmd=/bin/sh -each tc=1+0 -resign movecount=2 score=500 twosided=false",
                    &cfg, err, sizeof err);
    CHECK(ok && cfg.adjudication.resignOneSided, "-resign twosided=false: one-sided resignation");
    cli_free(&cfg);

    /* Refused with the key named and the accepted forms. */
    struct {
        const char *line, *message;
    } bad[] = {
        {"-pgnout file=x notation=fen", "unknown or bad setting 'notation=fen' (accepted: -pgnout FILE [min] [fi]"},
        {"-pgnout file=x frob=true", "'frob=true'"},
        {"-sprt elo0=0 elo1=5 model=bayesian", "model=bayesian (BayesElo) is not supported"},
        {"-tb /usr/share/syzygy -tbpieces 6", "-tb: tablebase adjudication is not supported"},
        {"-openings file=x.epd frob=1", "-openings: unknown or bad setting 'frob=1' (accepted: file=F format="},
        {"-engine cmd=/bin/sh book=x.bin -engine cmd=/bin/sh -each tc=1", "unknown engine setting 'book' (accepted:"},
        {"-tournament knockout", "unknown type 'knockout' (accepted: round-robin, roundrobin, gauntlet)"},
        {"-seeds 2", "-seeds: only 1"},
        {"-draw frob=1", "-draw: unknown or bad setting 'frob=1'"},
        {"-resign movecount=3 score=400 twosided=maybe", "'twosided=maybe' (accepted: movecount=N score=CP twosided"},
        {"-report penta=maybe", "(accepted: penta=true|false)"},
        {"-config file=a.json frob=1", "-config: unknown or bad setting 'frob=1'"},
        {"-frobnicate 3", "unknown option -frobnicate (known: -engine -each"},
        {"-repeat 3", "-repeat [2]"},
        {"-quick cmd=a cmd=b book=c", "-quick: write it out"},
    };
    int refused = 0;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char line[512];
        snprintf(line, sizeof line, "-engine cmd=/bin/sh -engine cmd=/bin/sh -each tc=1+0 %s", bad[i].line);
        if (strstr(bad[i].line, "-engine")) snprintf(line, sizeof line, "%s", bad[i].line);
        err[0] = '\0';
        bool rejected = !parse_line(line, &cfg, err, sizeof err) && strstr(err, bad[i].message);
        if (!rejected) fprintf(stderr, "not refused as expected: %s\n  -> %s\n", bad[i].line, err);
        refused += rejected;
        cli_free(&cfg);
    }
    CHECK(refused == (int)(sizeof bad / sizeof bad[0]), "unknown keys and options refused by name (%d of %zu)", refused,
          sizeof bad / sizeof bad[0]);
}

/* -resign twosided=false: the losing engine's own score decides, the other's is not needed. */
static void test_one_sided_resign(Position *pos) {
    AdjudicationConfig cfg = { .resignEnabled = true, .resignMoveCount = 2, .resignScore = 500, .resignOneSided = true };
    Adjudicator a;
    GameOutcome o;
    set_fen(pos, "r3k3/8/8/8/8/8/8/4K2R w - - 0 30");
    adjudicator_reset(&a);
    CHECK(!adjudicator_update(&a, &cfg, pos, WHITE, true, 100, &o), "one-sided ply 1");
    CHECK(!adjudicator_update(&a, &cfg, pos, BLACK, true, -600, &o), "one-sided ply 2: Black's engine says lost");
    CHECK(!adjudicator_update(&a, &cfg, pos, WHITE, true, 100, &o), "one-sided ply 3: White's engine disagrees");
    CHECK(adjudicator_update(&a, &cfg, pos, BLACK, true, -700, &o) && o.result == RESULT_WHITE_WINS,
          "one-sided resign after two moves of the loser alone");
}

/* PGN notations and the fastchess comment extras. */
static void test_pgn_options(void) {
    GameRecord rec;
    game_record_init(&rec);
    static Position pos;
    set_fen(&pos, StartFEN);
    pos_get_fen(&pos, rec.startFen);
    rec.standard = true;
    const char *moves[] = { "e2e4", "d7d5", "e4d5", "g8f6" };
    rec.plies = calloc(4, sizeof *rec.plies);
    rec.texts = calloc(4, sizeof *rec.texts);
    rec.cap = 4;
    for (int i = 0; i < 4; i++) {
        Move m = move_from_uci(&pos, moves[i]);
        rec.plies[i] = (PlyRecord){ .move = m, .hasScore = true, .score = 20, .depth = 9, .seconds = 0.25,
                                    .nodes = 1234, .nps = 5000, .tbhits = 0, .seldepth = 14, .hashfull = 7,
                                    .timeLeft = 9.5, .latency = 0.002 };
        snprintf(rec.plies[i].pv, sizeof rec.plies[i].pv, "%s", moves[i]);
        snprintf(rec.texts[i].uci, sizeof rec.texts[i].uci, "%s", moves[i]);
        move_to_san(&pos, m, rec.texts[i].san);
        pos_do_game_move(&pos, m);
        rec.count++;
    }
    referee_loss(&rec.outcome, BLACK, TERM_ADJUDICATION, "Black resigns");
    PgnOptions lan = { .notation = PGN_LAN, .nodes = true, .seldepth = true, .nps = true, .hashfull = true,
                       .tbhits = true, .timeleft = true, .latency = true, .pv = true };
    PgnOptions uci = { .notation = PGN_UCI, .min = true };
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    PgnHeader h = { "ev", "here", "1.1", "A", "B", "10+0.1", "10+0.1", &lan };
    pgn_write_game(f, &h, &rec);
    h.options = &uci;
    pgn_write_game(f, &h, &rec);
    fclose(f);
    for (char *c = buf; *c; c++) /* movetext lines wrap where they will */
        if (*c == '\n' && c[1] != '\n' && c[1] != '[' && c > buf && c[-1] != '\n' && c[-1] != ']') *c = ' ';
    CHECK(strstr(buf, "1. e2-e4 {+0.20/9 0.250s, n=1234, sd=14, nps=5000, hashfull=7, tbhits=0, tl=9.500s, "
                      "latency=0.002s, pv=\"e2e4\"} d7-d5"), "LAN with every extra:\n%s", buf);
    CHECK(strstr(buf, "2. e4xd5 "), "LAN capture");
    const char *second = strstr(buf + 1, "[Event");
    CHECK(second && strstr(second, "1. e2e4 d7d5 2. e4d5 g8f6 1-0") && !strstr(second, "[Termination") &&
              !strstr(second, "{"), "min=true with UCI notation: no comments, seven tags:\n%s", second ? second : "");
    free(buf);
    game_record_free(&rec);
}

/* Reads parameter lines from a string; err gets the reason when they are refused. */
static bool spsa_params_from(SpsaTune *t, const char *text, char *err, size_t errlen) {
    memset(t, 0, sizeof *t);
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    bool ok = f && spsa_read_params(t, f, "p.spsa", err, errlen);
    if (f) fclose(f);
    return ok;
}

/*
 * SPSA gains, hand-computed for N = 100 pairs, A = 10, alpha 0.602, gamma 0.101 and a
 * parameter with c_end 5, r_end 0.002:
 *   c_1 = 5 * 100^0.101 = 5 * 1.592209 = 7.961044;  c_100 = c_end = 5
 *   a = 0.002 * 25 * 110^0.602 = 0.05 * 16.940195 = 0.847010
 *   r_1 = a / 11^0.602 / c_1^2 = 0.847010 / 4.235634 / 63.378 = 0.00315522;  r_100 = r_end
 */
static void test_spsa(void) {
    char err[512] = "";
    SpsaTune t;
    CHECK(spsa_params_from(&t, "# from ./gizum spsa\n\nRfpMargin, int, 75, 30, 150, 5, 0.002\n"
                               "  Skew ,float, 0.5, 0, 1, 0.1, 0.002  \n", err, sizeof err) && t.count == 2,
          "OpenBench's lines, a comment, a blank line and blanks around fields: %s", err);
    CHECK(strcmp(t.params[0].name, "RfpMargin") == 0 && !t.params[0].isFloat && t.params[0].value == 75 &&
              t.params[0].min == 30 && t.params[0].max == 150 && t.params[0].cEnd == 5 && t.params[0].rEnd == 0.002,
          "every field of an int line read");
    CHECK(strcmp(t.params[1].name, "Skew") == 0 && t.params[1].isFloat && t.params[1].cEnd == 0.1, "a float line");
    spsa_free(&t);
    static const struct { const char *text, *reason; } Bad[] = {
        {"A, int, 5, 0, 10, 1\n", "p.spsa:1: expected 7 fields"},
        {"#\nA, long, 5, 0, 10, 1, 0.002\n", "p.spsa:2: type 'long'"},
        {"A, int, 5x, 0, 10, 1, 0.002\n", "p.spsa:1: value '5x' is not a number"},
        {"A, int, 11, 0, 10, 1, 0.002\n", "p.spsa:1: needs min < max and the value within them"},
        {"A, int, 5, 0, 10, 0, 0.002\n", "p.spsa:1: c_end and r_end must be positive"},
        {"A, int, 5, 0, 10, 1, 0.002\nA, int, 5, 0, 10, 1, 0.002\n", "p.spsa:2: parameter 'A' is listed twice"},
        {", int, 5, 0, 10, 1, 0.002\n", "p.spsa:1: the name must have"},
        {"# nothing\n", "p.spsa: no parameters"},
    };
    for (size_t i = 0; i < sizeof Bad / sizeof Bad[0]; i++) {
        err[0] = '\0';
        bool ok = spsa_params_from(&t, Bad[i].text, err, sizeof err);
        CHECK_EACH(!ok && strstr(err, Bad[i].reason), "refused with '%s': got '%s'", Bad[i].reason, err);
        spsa_free(&t);
    }

    CHECK(spsa_params_from(&t, "P, int, 75, 30, 150, 5, 0.002\nF, float, 0.5, 0, 1, 0.01, 0.002\n", err, sizeof err),
          "two parameters");
    t.iterations = 100;
    t.A = 10;
    t.alpha = SPSA_DEFAULT_ALPHA;
    t.gamma = SPSA_DEFAULT_GAMMA;
    t.seed = 42;
    const SpsaParam *p = &t.params[0];
    CHECK(near(spsa_c(&t, p, 1), 7.961044, 1e-5), "c_1 = %f", spsa_c(&t, p, 1));
    CHECK(near(spsa_r(&t, p, 1), 0.00315522, 1e-7), "r_1 = %.8f", spsa_r(&t, p, 1));
    CHECK(near(spsa_c(&t, p, 100), 5, 1e-12) && near(spsa_r(&t, p, 100), 0.002, 1e-12),
          "the last iteration's gains are c_end and r_end");
    CHECK(near(spsa_c(&t, &t.params[1], 100), 0.01, 1e-12), "a float's step may be below half a unit");
    t.params[0].cEnd = 0.1;
    CHECK(spsa_c(&t, p, 100) == 0.5, "an int's step is at least half a unit");
    t.params[0].cEnd = 5;

    SpsaPoint a, b;
    CHECK(spsa_draw(&t, 7, &a) && spsa_draw(&t, 7, &b), "draw");
    CHECK(a.flip[0] == b.flip[0] && a.plus[0] == b.plus[0] && a.minus[1] == b.minus[1],
          "a pair's perturbation depends only on the seed and the pair");
    int flips = 0, gapsOk = 0;
    for (long pair = 0; pair < 200; pair++) {
        SpsaPoint q;
        spsa_draw(&t, pair, &q);
        flips += q.flip[0] > 0;
        double gap = (q.plus[0] - q.minus[0]) * q.flip[0]; /* 2 c_1 = 15.9: rounds to 15 or 16 */
        gapsOk += q.plus[0] == floor(q.plus[0]) && (gap == 15 || gap == 16) &&
                  fabs((q.plus[1] - q.minus[1]) * q.flip[1] - 2 * q.c[1]) < 1e-12;
        spsa_point_free(&q);
    }
    CHECK(flips > 70 && flips < 130, "directions are random: %d of 200 up", flips);
    CHECK(gapsOk == 200, "int sides are whole numbers 2c apart, float sides exactly 2c: %d of 200", gapsOk);

    /* A pair the plus side won 2-0 moves P by r c * 2 in its direction. */
    double before = t.params[0].value, step = a.r[0] * a.c[0] * 2 * a.flip[0];
    spsa_update(&t, &a, 2);
    CHECK(near(t.params[0].value, before + step, 1e-12) && t.done == 1, "update: value %f, expected %f",
          t.params[0].value, before + step);
    a.r[0] = 1e6;
    spsa_update(&t, &a, 2 * a.flip[0]);
    CHECK(t.params[0].value == 150, "the value stays within max: %f", t.params[0].value);
    spsa_update(&t, &a, -2 * a.flip[0]);
    CHECK(t.params[0].value == 30, "and within min: %f", t.params[0].value);
    spsa_point_free(&a);
    spsa_point_free(&b);

    /* The state: written, read back by a tune with the same settings, refused by another. */
    char dir[] = "/tmp/gizum_spsa.XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "temporary directory");
    char params[256], state[256];
    snprintf(params, sizeof params, "%s/p.spsa", dir);
    snprintf(state, sizeof state, "%s/p.state", dir);
    FILE *f = fopen(params, "w");
    fputs("P, int, 75, 30, 150, 5, 0.002\nF, float, 0.5, 0, 1, 0.01, 0.002\n", f);
    fclose(f);
    t.params[0].value = 81.25;
    t.params[1].value = 0.625;
    t.done = 37;
    CHECK(spsa_save(&t, state, err, sizeof err), "state saved: %s", err);
    SpsaConfig cfg = {.enabled = true, .file = params, .state = state, .iterations = 100, .aRatio = 0.1,
                      .alpha = SPSA_DEFAULT_ALPHA, .gamma = SPSA_DEFAULT_GAMMA, .seed = 1};
    SpsaTune r;
    CHECK(spsa_open(&r, &cfg, err, sizeof err), "a saved tune resumes: %s", err);
    CHECK(r.done == 37 && r.resumedFrom == 37 && r.params[0].value == 81.25 && r.params[1].value == 0.625 &&
              r.params[0].start == 75 && r.seed == 42,
          "resumed with its pairs, values and seed (the file's values are the start)");
    spsa_free(&r);
    cfg.iterations = 200;
    CHECK(!spsa_open(&r, &cfg, err, sizeof err) && strstr(err, "the state of another tune"),
          "other settings are refused: %s", err);
    cfg.iterations = 100;
    f = fopen(params, "w");
    fputs("Q, int, 75, 30, 150, 5, 0.002\nF, float, 0.5, 0, 1, 0.01, 0.002\n", f);
    fclose(f);
    CHECK(!spsa_open(&r, &cfg, err, sizeof err) && strstr(err, "p.state:8:"),
          "other parameters are refused at the line: %s", err);
    f = fopen(state, "w");
    fputs("gizum-match state 1\n", f);
    fclose(f);
    CHECK(!spsa_open(&r, &cfg, err, sizeof err) && strstr(err, "p.state:1: not a gizum-match SPSA state"),
          "a file that is not an SPSA state is refused: %s", err);
    remove(state);
    CHECK(spsa_open(&r, &cfg, err, sizeof err) && r.done == 0 && r.params[0].value == 75 && r.A == 10,
          "without a state the tune starts at the file's values, A = 0.1 N: %s", err);
    spsa_free(&r);
    cfg.file = state;
    CHECK(!spsa_open(&r, &cfg, err, sizeof err) && strstr(err, "the parameter file: cannot open"),
          "a missing parameter file is named: %s", err);
    remove(params);
    rmdir(dir);
    spsa_free(&t);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    board_init();
    static Position pos;
    test_elo();
    test_sprt();
    test_referee(&pos);
    test_adjudication(&pos);
    test_clock();
    test_openings();
    test_pgn_writer();
    test_cli(NULL);
    test_cli_dialects();
    test_cli_names();
    test_one_sided_resign(&pos);
    test_pgn_options();
    test_spsa();
    const char *dir = getenv("TESTBIN");
    char fake[1024];
    snprintf(fake, sizeof fake, "%s/fake_engine", dir ? dir : ".");
    if (access(fake, X_OK) == 0) test_fake_engines(fake);
    else CHECK(false, "fake engine not found at %s (set TESTBIN)", fake);
    return test_report();
}
