/*
 * UCI_ShowWDL against the real binary (env GIZUM): off by default and then
 * no info line has a wdl; on, every info line with a score carries
 * "wdl W D L" right after the score, summing to 1000 and equal to the
 * model's figures for that score and the root position's material, in
 * MultiPV too; mates are certain, and so are the depth-0 lines of a
 * position without moves (mate lost, stalemate drawn).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "init.h"
#include "uci_test.h"
#include "wdl.h"

static const char MateIn1[] = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
static const char MatedIn1[] = "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 12 moves d5d8";
static const char Middlegame[] = "r1bq1rk1/ppp2ppp/5n2/2bp4/2NPP3/2P5/PP3PPP/RNBQK2R w KQ - 0 9";

/* The info lines with a score (the reporter's lines, the depth-0 ones too). */
static bool is_score_line(const char *line) {
    return starts_with(line, "info depth ") && strstr(line, " score ") != NULL;
}

/*
 * Parses "score cp|mate N wdl W D L" and checks its form: the wdl right
 * after the score, three integers in 0..1000 summing to 1000, then a bound,
 * nodes or the end of the line. False if any of it is missing or wrong.
 */
static bool parse_score_wdl(const char *line, bool *mate, int *value, Wdl *wdl) {
    const char *p = strstr(line, " score ");
    char kind[8];
    int used = 0;
    if (!p || sscanf(p, " score %7s %d wdl %d %d %d%n", kind, value, &wdl->win, &wdl->draw, &wdl->loss, &used) != 5)
        return false;
    const char *rest = p + used;
    bool follows = !*rest || starts_with(rest, " lowerbound") || starts_with(rest, " upperbound") || starts_with(rest, " nodes ");
    *mate = strcmp(kind, "mate") == 0;
    return (*mate || strcmp(kind, "cp") == 0) && follows && wdl->win >= 0 && wdl->draw >= 0 && wdl->loss >= 0
        && wdl->win + wdl->draw + wdl->loss == 1000;
}

/* The model's W/D/L for a reported score. */
static Wdl expected_wdl(bool mate, int value, int material) {
    if (mate) return value > 0 ? (Wdl){1000, 0, 0} : (Wdl){0, 0, 1000};
    return wdl_from_value(value, material);
}

/*
 * Every score line of the session: well-formed wdl equal to the model's at
 * the root's material (each check one over every line of every call).
 */
static void check_wdl_lines(const Session *s, int material, const char *what) {
    int lines = 0;
    for (int i = 0; i < s->count; i++) {
        const char *l = s->lines[i];
        if (!is_score_line(l)) continue;
        lines++;
        bool mate = false;
        int value = 0;
        Wdl w = {0, 0, 0};
        bool ok = parse_score_wdl(l, &mate, &value, &w);
        CHECK_EACH(ok, "%s: malformed or missing wdl in '%s'", what, l);
        Wdl e = expected_wdl(mate, value, material);
        CHECK_EACH(!ok || (w.win == e.win && w.draw == e.draw && w.loss == e.loss),
                   "%s: '%s' but the model gives %d %d %d at material %d", what, l, e.win, e.draw, e.loss, material);
    }
    CHECK_EACH(lines > 0, "%s: no info lines with a score", what);
}

static int count_wdl(const Session *s) {
    int n = 0;
    for (int i = 0; i < s->count; i++) n += strstr(s->lines[i], " wdl ") != NULL;
    return n;
}

static int material_of(const char *fen, const char *moves) {
    static Position pos;
    return set_game(&pos, fen, moves, false) ? wdl_material(&pos) : -1;
}

int main(void) {
    engine_init();
    alarm(120);
    Session s;
    if (!open_session(&s, "wdl")) return test_report();
    session_send(&s, "uci");
    CHECK(session_expect(&s, "uciok", FAST) != NULL, "uci: no uciok");
    CHECK(session_count(&s, "option name UCI_ShowWDL type check default false") == 1, "uci: no UCI_ShowWDL option");

    /* Off by default: no wdl anywhere. */
    session_forget(&s);
    session_send(&s, "position startpos");
    session_send(&s, "go depth 6");
    CHECK(session_expect(&s, "bestmove", SLOW) != NULL, "default: no bestmove");
    CHECK(session_count(&s, "info depth ") > 0 && count_wdl(&s) == 0, "default: wdl shown without UCI_ShowWDL");

    /* On: every score line, MultiPV lines included. */
    session_forget(&s);
    session_send(&s, "setoption name UCI_ShowWDL value true");
    session_send(&s, "setoption name MultiPV value 3");
    session_send(&s, "position fen %s", Middlegame);
    session_send(&s, "go depth 7");
    CHECK(session_expect(&s, "bestmove", SLOW) != NULL, "on: no bestmove");
    CHECK(session_count(&s, "info string") == 0, "setoption UCI_ShowWDL: %s",
          session_last(&s, "info string") ? session_last(&s, "info string") : "");
    check_wdl_lines(&s, material_of(Middlegame, NULL), "middlegame, MultiPV 3");
    session_send(&s, "setoption name MultiPV value 1");

    /* The material is the root's, also after moves. */
    session_forget(&s);
    session_send(&s, "position startpos moves e2e4 d7d5 e4d5 d8d5 b1c3");
    session_send(&s, "go depth 6");
    CHECK(session_expect(&s, "bestmove", SLOW) != NULL, "after moves: no bestmove");
    check_wdl_lines(&s, material_of(NULL, "e2e4 d7d5 e4d5 d8d5 b1c3"), "after moves");

    /* Mates are certain, for and against. */
    session_forget(&s);
    session_send(&s, "position fen %s", MateIn1);
    session_send(&s, "go depth 4");
    CHECK(session_expect(&s, "bestmove", SLOW) != NULL, "mate: no bestmove");
    const char *last = session_last(&s, "info depth 4 ");
    CHECK(last && strstr(last, " score mate 1 wdl 1000 0 0 "), "mate in 1: '%s'", last ? last : "(none)");
    session_forget(&s);
    session_send(&s, "position fen %s", MatedIn1);
    session_send(&s, "go depth 5");
    CHECK(session_expect(&s, "bestmove", SLOW) != NULL, "mated: no bestmove");
    last = session_last(&s, "info depth 5 ");
    CHECK(last && strstr(last, " score mate -1 wdl 0 0 1000 "), "mated in 1: '%s'", last ? last : "(none)");

    /* No legal move: the depth-0 line. */
    session_forget(&s);
    session_send(&s, "position fen 3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1");
    session_send(&s, "go depth 3");
    CHECK(session_expect(&s, "bestmove", SLOW) != NULL, "checkmated: no bestmove");
    CHECK(session_count(&s, "info depth 0 score mate 0 wdl 0 0 1000") == 1, "checkmated: '%s'",
          session_last(&s, "info depth 0") ? session_last(&s, "info depth 0") : "(none)");
    session_forget(&s);
    session_send(&s, "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    session_send(&s, "go depth 3");
    CHECK(session_expect(&s, "bestmove", SLOW) != NULL, "stalemate: no bestmove");
    CHECK(session_count(&s, "info depth 0 score cp 0 wdl 0 1000 0") == 1, "stalemate: '%s'",
          session_last(&s, "info depth 0") ? session_last(&s, "info depth 0") : "(none)");

    /* A bad value is refused and keeps the option on; false turns it off. */
    session_forget(&s);
    session_send(&s, "setoption name UCI_ShowWDL value maybe");
    session_send(&s, "position startpos");
    session_send(&s, "go depth 3");
    CHECK(session_expect(&s, "bestmove", SLOW) != NULL, "bad value: no bestmove");
    CHECK(session_count(&s, "info string UCI_ShowWDL: value must be true or false") == 1 && count_wdl(&s) > 0,
          "bad UCI_ShowWDL value: not refused, or it turned the option off");
    session_forget(&s);
    session_send(&s, "setoption name UCI_ShowWDL value false");
    session_send(&s, "go depth 3");
    CHECK(session_expect(&s, "bestmove", SLOW) != NULL, "off again: no bestmove");
    CHECK(session_count(&s, "info depth ") > 0 && count_wdl(&s) == 0, "UCI_ShowWDL false: wdl still shown");
    CHECK(session_close(&s, FAST) == 0, "quit: engine did not exit cleanly");
    return test_report();
}
