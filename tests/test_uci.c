/*
 * UCI protocol tests against the real binary (env GIZUM) over pipes: every
 * command, searching and pondering handshakes, MultiPV, searchmoves, bad
 * input, mates, draws, Chess960 castling, and a legal bestmove every time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "init.h"
#include "movegen.h"
#include "notation.h"
#include "position.h"
#include "uci_test.h"

static Position Local;

/* Sets Local to "startpos" or a FEN followed by UCI moves; false if anything is invalid. */
static bool local_position(const char *fen, const char *moves, bool chess960) {
    return set_game(&Local, fen, moves, chess960);
}

/* Is every move of a space-separated list legal in turn from Local? (Local is restored.) */
static bool legal_line(const char *line) {
    char buf[8192];
    snprintf(buf, sizeof buf, "%s", line);
    int played = 0;
    bool ok = true;
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        Move m = move_from_uci(&Local, tok);
        if (m == MOVE_NONE) {
            ok = false;
            break;
        }
        pos_do_move(&Local, m);
        played++;
    }
    while (played--) pos_undo_move(&Local);
    return ok;
}

/* The move after "bestmove " (and after " ponder "), copied into out. */
static void bestmove_parts(const char *line, char *best, char *ponder) {
    best[0] = ponder[0] = '\0';
    if (!line) return;
    sscanf(line, "bestmove %7s", best);
    const char *p = strstr(line, " ponder ");
    if (p) sscanf(p, " ponder %7s", ponder);
}

/*
 * Checks the bestmove line: present, legal in Local (or 0000 when Local has
 * no move), ponder legal after it. Each check is one over every search of
 * the test (CHECK_EACH), named by its first failure.
 */
static void check_bestmove(const char *line, const char *what) {
    char best[8], ponder[8];
    CHECK_EACH(line != NULL, "%s: no bestmove", what);
    if (!line) return;
    bestmove_parts(line, best, ponder);
    MoveList legal;
    gen_legal(&Local, &legal);
    if (legal.count == 0) {
        CHECK_EACH(strcmp(best, "0000") == 0, "%s: expected bestmove 0000, got '%s'", what, line);
        return;
    }
    CHECK_EACH(move_from_uci(&Local, best) != MOVE_NONE, "%s: illegal bestmove in '%s'", what, line);
    /* A ponder move is optional (a search stopped early may not know a reply). */
    char pair[32];
    snprintf(pair, sizeof pair, "%s %s", best, ponder);
    CHECK_EACH(!ponder[0] || legal_line(pair), "%s: illegal ponder move in '%s'", what, line);
}

/*
 * Checks every "info ... pv" line kept by the session: fields present and a
 * legal PV. One check per property over every line of every search of the
 * test (how many info lines a search prints depends on timing anyway).
 */
static void check_info_lines(const Session *s, const char *what) {
    int seen = 0;
    for (int i = 0; i < s->count; i++) {
        const char *l = s->lines[i];
        if (!starts_with(l, "info ") || !strstr(l, " pv ")) continue;
        seen++;
        static const char *const Fields[] = {"depth", "seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time"};
        for (size_t f = 0; f < sizeof Fields / sizeof Fields[0]; f++)
            CHECK_EACH(info_rest(l, Fields[f]) != NULL, "%s: info line lacks %s: %s", what, Fields[f], l);
        CHECK_EACH(legal_line(info_rest(l, "pv")), "%s: illegal pv: %s", what, l);
    }
    CHECK_EACH(seen > 0, "%s: no info pv lines", what);
}

/* The last "info depth ... pv" line kept by the session (not currmove lines), or NULL. */
static const char *last_pv_info(const Session *s) {
    for (int i = s->count - 1; i >= 0; i--)
        if (starts_with(s->lines[i], "info depth ") && strstr(s->lines[i], " pv ")) return s->lines[i];
    return NULL;
}

/* Reads score cp/mate from an info line. */
static bool info_score(const char *line, bool *mate, int *value) {
    const char *p = line ? strstr(line, " score ") : NULL;
    if (!p) return false;
    char kind[8];
    if (sscanf(p, " score %7s %d", kind, value) != 2) return false;
    *mate = strcmp(kind, "mate") == 0;
    return true;
}

/* ------------------------------------------------------------------ tests */

static void test_handshake(void) {
    Session s;
    if (!open_session(&s, "uci")) return;
    session_send(&s, "uci");
    CHECK(session_expect(&s, "uciok", FAST) != NULL, "uci: no uciok");
    CHECK(session_count(&s, "id name Gizum") == 1, "uci: no 'id name Gizum'");
    CHECK(session_count(&s, "id author ") == 1, "uci: no id author");
    static const char *const Options[] = {
        "option name Threads type spin default 1 min 1 max 1024",
        "option name Hash type spin default 16 min 1 max 65536",
        "option name Clear Hash type button",
        "option name Ponder type check default false",
        "option name MultiPV type spin default 1 min 1 max 256",
        "option name Move Overhead type spin default 10 min 0 max 5000",
        "option name UCI_Chess960 type check default false",
    };
    for (size_t i = 0; i < sizeof Options / sizeof Options[0]; i++)
        CHECK_EACH(session_count(&s, Options[i]) == 1, "uci: missing '%s'", Options[i]);
    session_forget(&s);

    /* Valid commands and options answer nothing but what they must. */
    session_send(&s, "debug on");
    session_send(&s, "debug off");
    session_send(&s, "register later");
    session_send(&s, "register name Someone code 42");
    session_send(&s, "ucinewgame");
    session_send(&s, "setoption name Hash value 32");
    session_send(&s, "setoption name hash value 8");
    session_send(&s, "setoption name Threads value 2");
    session_send(&s, "setoption name Threads value 1");
    session_send(&s, "setoption name MultiPV value 2");
    session_send(&s, "setoption name MultiPV value 1");
    session_send(&s, "setoption name Move Overhead value 30");
    session_send(&s, "setoption name Ponder value true");
    session_send(&s, "setoption name UCI_Chess960 value false");
    session_send(&s, "setoption name Clear Hash");
    sync_engine(&s, "options");
    CHECK(session_count(&s, "info string") == 0, "valid options produced an info string: %s",
          session_last(&s, "info string") ? session_last(&s, "info string") : "");
    session_forget(&s);

    /* `d` shows the position, `eval` the evaluation, go perft counts. */
    session_send(&s, "position startpos moves e2e4 e7e5 g1f3");
    session_send(&s, "d");
    sync_engine(&s, "d");
    const char *fen = session_last(&s, "Fen: ");
    CHECK(fen && strcmp(fen, "Fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2") == 0,
          "d: wrong FEN '%s'", fen ? fen : "(none)");
    session_forget(&s);
    session_send(&s, "eval");
    sync_engine(&s, "eval");
    CHECK(s.count > 3, "eval: printed only %d lines", s.count);
    session_forget(&s);
    session_send(&s, "position startpos");
    session_send(&s, "go perft 3");
    const char *perft = session_expect(&s, "Nodes searched", SLOW);
    CHECK(perft && strstr(perft, "8902"), "go perft 3: '%s'", perft ? perft : "(none)");
    CHECK(session_quiet(&s, "bestmove", 200), "go perft printed a bestmove");
    session_send(&s, "bench 2");
    const char *bench = session_read(&s, SLOW);
    unsigned long long benchNodes = 0, benchNps = 0;
    char tail[8] = "";
    while (bench && sscanf(bench, "%llu nodes %llu np%1s", &benchNodes, &benchNps, tail) != 3) bench = session_read(&s, SLOW);
    CHECK(bench && benchNodes > 0, "bench in UCI: no '<nodes> nodes <nps> nps' line");
    session_send(&s, "quit");
    CHECK(session_close(&s, FAST) == 0, "quit: engine did not exit cleanly");
}

static void test_go_variants(void) {
    Session s;
    if (!open_session(&s, "go")) return;
    local_position(NULL, "e2e4 c7c5", false);
    session_send(&s, "position startpos moves e2e4 c7c5");

    session_send(&s, "go depth 6");
    const char *bm = session_expect(&s, "bestmove", SLOW);
    check_bestmove(bm, "go depth 6");
    check_info_lines(&s, "go depth 6");
    const char *last = session_last(&s, "info depth 6");
    CHECK(last != NULL, "go depth 6: no depth 6 info line");
    session_forget(&s);

    session_send(&s, "go nodes 3000");
    bm = session_expect(&s, "bestmove", SLOW);
    check_bestmove(bm, "go nodes");
    last = last_pv_info(&s);
    CHECK(last && info_int(last, "nodes", 1 << 30) <= 3000, "go nodes 3000: last info %s", last ? last : "(none)");
    session_forget(&s);

    long long t0 = session_now_ms();
    session_send(&s, "go movetime 300");
    bm = session_expect(&s, "bestmove", SLOW);
    long long took = session_now_ms() - t0;
    check_bestmove(bm, "go movetime");
    CHECK(took >= 250, "go movetime 300 answered after %lld ms", took);
    session_forget(&s);

    session_send(&s, "go wtime 3000 btime 3000 winc 100 binc 100");
    bm = session_expect(&s, "bestmove", SLOW);
    check_bestmove(bm, "go wtime/btime");
    last = last_pv_info(&s);
    CHECK(last && info_int(last, "time", 1 << 30) < 3000, "clock 3 s: searched %s", last ? last : "(none)");
    session_forget(&s);

    session_send(&s, "go wtime 1000 btime 1000 movestogo 1");
    bm = session_expect(&s, "bestmove", SLOW);
    check_bestmove(bm, "go movestogo 1");
    last = last_pv_info(&s);
    CHECK(last && info_int(last, "time", 1 << 30) < 1000, "movestogo 1: %s", last ? last : "(none)");
    session_forget(&s);

    /* 50 ms left and no increment: answer with time to spare. */
    t0 = session_now_ms();
    session_send(&s, "go wtime 50 btime 50");
    bm = session_expect(&s, "bestmove", SLOW);
    took = session_now_ms() - t0;
    check_bestmove(bm, "go wtime 50");
    last = last_pv_info(&s);
    CHECK(last && info_int(last, "time", 1 << 30) < 50, "50 ms left: engine reports %s", last ? last : "(none)");
    CHECK(took < 1000, "50 ms left: bestmove after %lld ms", took);
    session_forget(&s);

    /* Negative clock (some GUIs after the flag fell): still a legal move at once. */
    session_send(&s, "go wtime -20 btime 100");
    check_bestmove(session_expect(&s, "bestmove", SLOW), "go negative wtime");
    session_forget(&s);

    /* searchmoves restricts the root. */
    local_position(NULL, NULL, false);
    session_send(&s, "position startpos");
    session_send(&s, "go depth 7 searchmoves a2a3 h2h3");
    bm = session_expect(&s, "bestmove", SLOW);
    check_bestmove(bm, "searchmoves");
    char best[8], ponder[8];
    bestmove_parts(bm, best, ponder);
    CHECK(!strcmp(best, "a2a3") || !strcmp(best, "h2h3"), "searchmoves: bestmove %s", best);
    Property restricted = {0};
    int pvs = 0;
    for (int i = 0; i < s.count; i++) {
        const char *pv = info_rest(s.lines[i], "pv");
        pvs += pv != NULL;
        if (pv) EXPECT(&restricted, !strncmp(pv, "a2a3", 4) || !strncmp(pv, "h2h3", 4), "searchmoves: pv %s", pv);
    }
    CHECK(pvs > 0, "searchmoves: no pv lines");
    CHECK_PROPERTY(&restricted);
    session_forget(&s);

    /* MultiPV: distinct first moves, ordered by score. */
    session_send(&s, "setoption name MultiPV value 4");
    session_send(&s, "go depth 7");
    bm = session_expect(&s, "bestmove", SLOW);
    check_bestmove(bm, "MultiPV");
    check_info_lines(&s, "MultiPV");
    int found = 0, prevScore = 100000;
    char firsts[4][8] = {{0}};
    Property ordered = {0}, distinct = {0};
    for (int i = 0; i < s.count; i++) {
        const char *l = s.lines[i];
        if (!starts_with(l, "info depth 7 ") || strstr(l, "bound")) continue;
        int k = (int)info_int(l, "multipv", 0);
        bool mate;
        int v;
        if (k < 1 || k > 4 || !info_score(l, &mate, &v)) continue;
        EXPECT(&ordered, v <= prevScore || k == 1, "MultiPV: line %d scores %d above line %d's %d", k, v, k - 1,
               prevScore);
        prevScore = v;
        sscanf(info_rest(l, "pv"), "%7s", firsts[k - 1]);
        found++;
    }
    CHECK(found == 4, "MultiPV 4: %d lines at depth 7", found);
    CHECK_PROPERTY(&ordered);
    for (int a = 0; a < 4; a++)
        for (int b = a + 1; b < 4; b++)
            EXPECT(&distinct, strcmp(firsts[a], firsts[b]) != 0, "MultiPV: line %d and %d both %s", a + 1, b + 1,
                   firsts[a]);
    CHECK_PROPERTY(&distinct);
    bestmove_parts(bm, best, ponder);
    CHECK(!strcmp(best, firsts[0]), "MultiPV: bestmove %s is not line 1 (%s)", best, firsts[0]);
    session_send(&s, "setoption name MultiPV value 1");
    session_forget(&s);

    /* go mate: stops when the mate is proven. */
    const char *legal = "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 12";
    local_position(legal, NULL, false);
    session_send(&s, "position fen %s", legal);
    session_send(&s, "go mate 2");
    bm = session_expect(&s, "bestmove", SLOW);
    check_bestmove(bm, "go mate 2");
    bestmove_parts(bm, best, ponder);
    CHECK(!strcmp(best, "d5d8"), "go mate 2: bestmove %s", best);
    last = last_pv_info(&s);
    bool mate = false;
    int v = 0;
    CHECK(info_score(last, &mate, &v) && mate && v == 2, "go mate 2: %s", last ? last : "(none)");
    session_close(&s, FAST);
}

/*
 * Every go that asks for a bound ends on its own (issue #38): 0 for depth,
 * nodes or movetime is the least search, and a go whose limits could not be
 * read (with no other bound left) searches depth 1 instead of running until
 * a stop that a GUI waiting for its bestmove never sends. No stop is sent.
 */
static void test_go_always_ends(void) {
    static const char *const Lines[] = {"go nodes 0", "go movetime 0", "go depth 0", "go depth x",
                                        "go nodes -5", "go movetime x", "go mate x", "go fast"};
    Session s;
    if (!open_session(&s, "go bounds")) return;
    local_position(NULL, "", false);
    session_send(&s, "position startpos");
    Property ends = {0};
    for (size_t i = 0; i < sizeof Lines / sizeof Lines[0]; i++) {
        session_forget(&s);
        session_send(&s, "%s", Lines[i]);
        const char *bm = session_expect(&s, "bestmove", 10000);
        EXPECT(&ends, bm != NULL, "'%s' did not end by itself", Lines[i]);
        if (bm) check_bestmove(bm, Lines[i]);
        else session_send(&s, "stop"), session_expect(&s, "bestmove", SLOW);
    }
    CHECK_PROPERTY(&ends);
    session_close(&s, FAST);
}

static void test_search_handshakes(void) {
    Session s;
    if (!open_session(&s, "handshakes")) return;
    local_position(NULL, "d2d4 g8f6", false);
    session_send(&s, "position startpos moves d2d4 g8f6");

    /* go infinite: no bestmove before stop; isready answered while searching. */
    session_send(&s, "go infinite");
    CHECK(session_quiet(&s, "bestmove", 400), "go infinite: bestmove before stop");
    long long t0 = session_now_ms();
    session_send(&s, "isready");
    CHECK(session_expect(&s, "readyok", FAST) != NULL, "isready during search: no readyok");
    CHECK(session_now_ms() - t0 < 1000, "isready during search took %lld ms", session_now_ms() - t0);
    CHECK(session_count(&s, "bestmove") == 0, "go infinite: bestmove before stop");
    session_send(&s, "stop");
    check_bestmove(session_expect(&s, "bestmove", FAST), "stop after go infinite");
    CHECK(session_quiet(&s, "bestmove", 200), "a second bestmove after stop");
    session_forget(&s);

    /* go infinite with a depth limit still waits for stop. */
    session_send(&s, "go infinite depth 2");
    CHECK(session_quiet(&s, "bestmove", 400), "go infinite depth 2: bestmove before stop");
    session_send(&s, "stop");
    check_bestmove(session_expect(&s, "bestmove", FAST), "go infinite depth 2");
    session_forget(&s);

    /* go ponder, then ponderhit: the move comes after the hit, within the clock. */
    session_send(&s, "setoption name Ponder value true");
    session_send(&s, "go ponder wtime 2000 btime 2000");
    CHECK(session_quiet(&s, "bestmove", 400), "go ponder: bestmove before ponderhit");
    t0 = session_now_ms();
    session_send(&s, "ponderhit");
    check_bestmove(session_expect(&s, "bestmove", FAST), "ponderhit");
    CHECK(session_now_ms() - t0 < 2000, "ponderhit: bestmove after %lld ms", session_now_ms() - t0);
    session_forget(&s);

    /* A ponder search that finishes (depth 2) still waits for the GUI. */
    session_send(&s, "go ponder depth 2");
    CHECK(session_quiet(&s, "bestmove", 400), "go ponder depth 2: bestmove before ponderhit");
    session_send(&s, "ponderhit");
    check_bestmove(session_expect(&s, "bestmove", FAST), "ponderhit after finished ponder search");
    session_forget(&s);

    /* go ponder, then stop (the opponent played something else). */
    session_send(&s, "go ponder wtime 60000 btime 60000");
    CHECK(session_quiet(&s, "bestmove", 300), "go ponder: bestmove before stop");
    session_send(&s, "stop");
    check_bestmove(session_expect(&s, "bestmove", FAST), "stop while pondering");
    session_forget(&s);

    /* Commands during a search: position is for the next go; Hash/ucinewgame refused; go restarts. */
    session_send(&s, "go infinite");
    session_send(&s, "position startpos moves e2e4");
    session_send(&s, "setoption name Hash value 64");
    session_send(&s, "ucinewgame");
    sync_engine(&s, "commands during search");
    CHECK(session_count(&s, "info string Hash ignored") == 1, "Hash during search: not refused");
    CHECK(session_count(&s, "info string ucinewgame ignored") == 1, "ucinewgame during search: not refused");
    CHECK(session_count(&s, "bestmove") == 0, "bestmove before stop");
    session_send(&s, "go depth 3");
    const char *first = session_expect(&s, "bestmove", FAST);
    check_bestmove(first, "go during go infinite (old search)");
    local_position(NULL, "e2e4", false);
    check_bestmove(session_expect(&s, "bestmove", SLOW), "go during go infinite (new search)");
    session_forget(&s);

    /* After stop the options apply again. */
    session_send(&s, "setoption name Hash value 64");
    session_send(&s, "ucinewgame");
    sync_engine(&s, "options after search");
    CHECK(session_count(&s, "info string") == 0, "options after the search: %s",
          session_last(&s, "info string") ? session_last(&s, "info string") : "");
    session_forget(&s);

    /* stop and ponderhit without a search are ignored. */
    session_send(&s, "stop");
    session_send(&s, "ponderhit");
    sync_engine(&s, "stop when idle");
    CHECK(session_count(&s, "bestmove") == 0, "stop when idle printed a bestmove");

    /* quit during a search: one bestmove, clean exit. */
    session_send(&s, "go infinite");
    session_quiet(&s, "bestmove", 200);
    session_send(&s, "quit");
    CHECK(session_expect(&s, "bestmove", FAST) != NULL, "quit during search: no bestmove");
    CHECK(session_close(&s, FAST) == 0, "quit during search: no clean exit");
}

static void test_threads(void) {
    Session s;
    if (!open_session(&s, "threads")) return;
    local_position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", NULL, false);
    session_send(&s, "setoption name Threads value 3");
    session_send(&s, "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    session_send(&s, "go depth 8");
    const char *bm = session_expect(&s, "bestmove", SLOW);
    check_bestmove(bm, "Threads 3");
    check_info_lines(&s, "Threads 3");
    CHECK(session_count(&s, "bestmove") == 1, "Threads 3: %d bestmoves", session_count(&s, "bestmove"));
    session_forget(&s);
    session_send(&s, "go infinite");
    session_quiet(&s, "bestmove", 300);
    session_send(&s, "stop");
    check_bestmove(session_expect(&s, "bestmove", FAST), "Threads 3 infinite");
    session_send(&s, "setoption name Threads value 1");
    sync_engine(&s, "threads back to 1");
    session_close(&s, FAST);
}

/* Many go/stop/isready/setoption Threads cycles, sent without waiting: one bestmove per go, no hang. */
static void test_stress(void) {
    Session s;
    if (!open_session(&s, "stress")) return;
    enum { CYCLES = 400 };
    int gos = 0;
    session_send(&s, "position startpos moves e2e4");
    for (int i = 0; i < CYCLES; i++) {
        if (i % 25 == 0) session_send(&s, "setoption name Threads value %d", 1 + (i / 25) % 4);
        switch (i % 4) {
        case 0: session_send(&s, "go infinite"); session_send(&s, "stop"); break;
        case 1: session_send(&s, "go depth 3"); break;
        case 2: session_send(&s, "go nodes 800"); session_send(&s, "isready"); break;
        default: session_send(&s, "go ponder"); session_send(&s, "ponderhit"); session_send(&s, "stop"); break;
        }
        gos++;
    }
    session_send(&s, "stop");
    session_send(&s, "isready");
    int readies = 0;
    long long deadline = session_now_ms() + 60000;
    while (readies < CYCLES / 4 + 1 && session_now_ms() < deadline) {
        const char *line = session_read(&s, 5000);
        if (!line) break;
        readies += starts_with(line, "readyok");
    }
    CHECK(readies == CYCLES / 4 + 1, "stress: %d of %d readyok", readies, CYCLES / 4 + 1);
    /* readyok does not wait for a stopping search: its bestmove may still be on the way. */
    while (session_count(&s, "bestmove") < gos && session_read(&s, FAST)) {}
    CHECK(session_quiet(&s, "bestmove", 200), "stress: more bestmoves than go commands");
    CHECK(session_count(&s, "bestmove") == gos, "stress: %d bestmoves for %d go commands", session_count(&s, "bestmove"), gos);
    int bad = 0;
    local_position(NULL, "e2e4", false);
    for (int i = 0; i < s.count; i++)
        if (starts_with(s.lines[i], "bestmove")) {
            char best[8], ponder[8];
            bestmove_parts(s.lines[i], best, ponder);
            bad += move_from_uci(&Local, best) == MOVE_NONE;
        }
    CHECK(bad == 0, "stress: %d illegal bestmoves", bad);
    session_send(&s, "quit");
    CHECK(session_close(&s, FAST) == 0, "stress: no clean exit");
}

/* Threads 1: the same commands give the same search, node for node. */
static void test_determinism(void) {
    char lines[2][2][512];
    for (int run = 0; run < 2; run++) {
        Session s;
        if (!open_session(&s, "determinism")) return;
        session_send(&s, "position startpos moves e2e4 e7e5 g1f3 b8c6");
        session_send(&s, "go depth 9");
        session_expect(&s, "bestmove", SLOW);
        const char *l = session_last(&s, "info depth 9");
        snprintf(lines[run][0], sizeof lines[run][0], "%s", l ? l : "");
        session_send(&s, "go nodes 20000");
        const char *b = session_expect(&s, "bestmove", SLOW);
        l = last_pv_info(&s);
        snprintf(lines[run][1], sizeof lines[run][1], "%lld %s", l ? info_int(l, "nodes", -1) : -1, b ? b : "");
        session_close(&s, FAST);
        /* Drop time and nps, which depend on the clock. */
        char *t = strstr(lines[run][0], " nps ");
        char *pv = strstr(lines[run][0], " pv ");
        if (t && pv) memmove(t, pv, strlen(pv) + 1);
        t = strstr(lines[run][0], " hashfull ");
        pv = strstr(lines[run][0], " pv ");
        if (t && pv) memmove(t, pv, strlen(pv) + 1);
    }
    CHECK(lines[0][0][0] && strcmp(lines[0][0], lines[1][0]) == 0, "go depth 9 differs between runs:\n%s\n%s", lines[0][0], lines[1][0]);
    CHECK(strcmp(lines[0][1], lines[1][1]) == 0, "go nodes differs between runs: %s / %s", lines[0][1], lines[1][1]);
}

static void test_bad_input(void) {
    Session s;
    if (!open_session(&s, "bad input")) return;
    session_send(&s, "position startpos moves e2e4");
    static const struct {
        const char *line, *expect;
    } Cases[] = {
        {"xyzzy", "info string unknown command"},
        {"setoption name Hash value 0", "info string Hash"},
        {"setoption name Hash value 70000", "info string Hash"},
        {"setoption name Hash value lots", "info string Hash"},
        {"setoption name Threads value 0", "info string Threads"},
        {"setoption name Threads value 5000", "info string Threads"},
        {"setoption name MultiPV value 300", "info string MultiPV"},
        {"setoption name Ponder value maybe", "info string Ponder"},
        {"setoption name Move Overhead value -5", "info string Move Overhead"},
        {"setoption name NoSuchThing value 3", "info string No such option"},
        {"setoption Hash 3", "info string setoption"},
        {"position fen 8/8/8/8/8/8/8/8 w - - 0 1", "info string position rejected"},
        {"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "info string position rejected"},
        {"position fen", "info string position rejected"},
        {"position startpos moves e2e4 e7e5 e1e3", "info string position rejected: move 3"},
        {"position startpos moves e2e4 zz", "info string position rejected"},
        {"position startpos e2e4", "info string position rejected"},
        {"position somewhere", "info string position rejected"},
        {"go depth x", "info string go"},
        {"debug sideways", "info string debug"},
        {"bench -3", "info string bench"},
    };
    for (size_t i = 0; i < sizeof Cases / sizeof Cases[0]; i++) {
        session_forget(&s);
        session_send(&s, "%s", Cases[i].line);
        /* The bad parameter is skipped ("go depth x" then searches depth 1); the stop is for any other go. */
        if (starts_with(Cases[i].line, "go ")) session_send(&s, "stop"), session_expect(&s, "bestmove", SLOW);
        else sync_engine(&s, Cases[i].line);
        CHECK_EACH(session_count(&s, Cases[i].expect) >= 1, "'%s': expected '%s'", Cases[i].line, Cases[i].expect);
    }
    /* The rejected position commands left the last good one. */
    session_forget(&s);
    session_send(&s, "d");
    sync_engine(&s, "d after bad positions");
    const char *fen = session_last(&s, "Fen: ");
    CHECK(fen && strstr(fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
          "rejected positions changed the position: %s", fen ? fen : "(none)");

    /* A 1 MB line, binary bytes and NULs: rejected or ignored, engine alive. */
    size_t big = 1 << 20;
    char *line = malloc(big + 1);
    memset(line, 'a', big);
    memcpy(line, "position startpos moves ", 24);
    line[big] = '\n';
    session_forget(&s);
    session_write(&s, line, big + 1);
    free(line);
    sync_engine(&s, "1 MB line");
    CHECK(session_count(&s, "info string line ignored") == 1, "1 MB line: no message");
    static const unsigned char Binary[] = {0xff, 0xfe, 0x00, 0x01, 'g', 'o', 0x00, '\n', 0x80, 0x9f, 0xc3, 0xa9, '\r', '\n',
                                           '\t', '\r', '\n', 0x1b, '[', '2', 'J', '\n', 'i', 's', 0x00, 'r', 'e', 'a', 'd', 'y', '\n'};
    session_forget(&s);
    session_write(&s, Binary, sizeof Binary);
    sync_engine(&s, "binary bytes");
    CHECK(session_count(&s, "bestmove") == 0, "binary bytes started a search");
    CHECK(session_count(&s, "readyok") == 1, "binary bytes: 'is\\0ready' must not count as isready");
    session_forget(&s);
    session_send(&s, "d");
    sync_engine(&s, "d after binary");
    fen = session_last(&s, "Fen: ");
    CHECK(fen && strstr(fen, "4P3"), "binary input changed the position");

    /* A very long but valid moves list (hundreds of plies). */
    char *moves = malloc(8192);
    strcpy(moves, "position startpos moves");
    for (int i = 0; i < 150; i++) strcat(moves, " g1f3 g8f6 f3g1 f6g8");
    strcat(moves, " e2e4");
    session_forget(&s);
    session_send(&s, "%s", moves);
    free(moves);
    session_send(&s, "d");
    sync_engine(&s, "600 plies");
    fen = session_last(&s, "Fen: ");
    CHECK(fen && strstr(fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 301"), "600-ply game: %s", fen ? fen : "(none)");
    local_position(NULL, "e2e4", false);
    session_send(&s, "go depth 4");
    check_bestmove(session_expect(&s, "bestmove", SLOW), "after 600 plies");

    /* End of input is quit, also in the middle of a search (which still gets its bestmove). */
    session_forget(&s);
    session_send(&s, "go infinite");
    session_quiet(&s, "bestmove", 100);
    int status = session_close(&s, FAST);
    CHECK(status == 0, "end of input: exit status %d", status);
}

static void test_mates_and_draws(void) {
    Session s;
    if (!open_session(&s, "mates")) return;
    static const struct {
        const char *fen, *move;
        int mate;
    } Mates[] = {
        {"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8", 1},
        {"r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 12", "d5d8", 2},
        {"2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 30", "b1g6", 3},
        {"2k5/8/8/8/4K3/8/8/7Q w - - 0 1", "h1h7", 4},
        /* WAC.260. Not KQvK a king step further away: that takes Gizum 5.5M nodes
         * (Stockfish 1.6M), over the timeout in the thread-sanitizer build. */
        {"2r2b1r/p1Nk2pp/3p1p2/N2Qn3/4P3/q6P/P4PP1/1R3K1R w - - 0 1", "d5e6", 5},
    };
    /* Mates in 1-3 by depth, all of them by `go mate N`, which stops once the mate is proven. */
    for (size_t i = 0; i < sizeof Mates / sizeof Mates[0]; i++) {
        for (int byDepth = Mates[i].mate <= 3; byDepth >= 0; byDepth--) {
            session_forget(&s);
            local_position(Mates[i].fen, NULL, false);
            session_send(&s, "ucinewgame");
            session_send(&s, "position fen %s", Mates[i].fen);
            if (byDepth) session_send(&s, "go depth %d", 2 * Mates[i].mate + 4);
            else session_send(&s, "go mate %d", Mates[i].mate);
            const char *bm = session_expect(&s, "bestmove", SLOW);
            check_bestmove(bm, Mates[i].fen);
            char best[8], ponder[8];
            bestmove_parts(bm, best, ponder);
            CHECK_EACH(!strcmp(best, Mates[i].move), "mate in %d (%s): bestmove %s, expected %s", Mates[i].mate,
                       byDepth ? "depth" : "go mate", best, Mates[i].move);
            const char *last = last_pv_info(&s);
            bool mate = false;
            int v = 0;
            CHECK_EACH(info_score(last, &mate, &v) && mate && v == Mates[i].mate, "mate in %d: %s", Mates[i].mate,
                       last ? last : "(none)");
        }
    }
    /* The side being mated sees a negative mate. */
    session_forget(&s);
    const char *mated = "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 12";
    local_position(mated, "d5d8", false);
    session_send(&s, "position fen %s moves d5d8", mated);
    session_send(&s, "go depth 6");
    const char *bm = session_expect(&s, "bestmove", SLOW);
    check_bestmove(bm, "being mated");
    const char *last = last_pv_info(&s);
    bool mate = false;
    int v = 0;
    char best2[8], ponder2[8];
    CHECK(info_score(last, &mate, &v) && mate && v == -1, "mated in 1: %s", last ? last : "(none)");

    /* No legal move: mate and stalemate give bestmove 0000. */
    static const char *const NoMove[] = {"3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"};
    for (int i = 0; i < 2; i++) {
        session_forget(&s);
        local_position(NoMove[i], NULL, false);
        session_send(&s, "position fen %s", NoMove[i]);
        session_send(&s, "go depth 5");
        bm = session_expect(&s, "bestmove", FAST);
        CHECK_EACH(bm && !strcmp(bm, "bestmove 0000"), "no legal move: '%s'", bm ? bm : "(none)");
        session_send(&s, "go infinite");
        CHECK_EACH(session_quiet(&s, "bestmove", 300), "no legal move, go infinite: bestmove before stop");
        session_send(&s, "stop");
        bm = session_expect(&s, "bestmove", FAST);
        CHECK_EACH(bm && !strcmp(bm, "bestmove 0000"), "no legal move after stop: '%s'", bm ? bm : "(none)");
    }

    /* Fifty-move rule: every move draws, a mate on the 100th ply still wins. */
    session_forget(&s);
    local_position("8/8/8/8/8/2k5/8/K6R w - - 99 120", NULL, false);
    session_send(&s, "position fen 8/8/8/8/8/2k5/8/K6R w - - 99 120");
    session_send(&s, "go depth 8");
    check_bestmove(session_expect(&s, "bestmove", SLOW), "fifty moves");
    last = last_pv_info(&s);
    CHECK(info_score(last, &mate, &v) && !mate && v == 0, "fifty-move draw: %s", last ? last : "(none)");
    session_forget(&s);
    local_position("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 99 80", NULL, false);
    session_send(&s, "position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 99 80");
    session_send(&s, "go depth 6");
    bm = session_expect(&s, "bestmove", SLOW);
    check_bestmove(bm, "mate on ply 100");
    last = last_pv_info(&s);
    CHECK(info_score(last, &mate, &v) && mate && v == 1, "mate on the 100th ply: %s", last ? last : "(none)");

    /* Repetition: a queen down, White draws by perpetual check. */
    session_forget(&s);
    const char *rep = "6k1/6p1/8/7Q/8/r7/1q4PP/7K w - - 0 1";
    local_position(rep, NULL, false);
    session_send(&s, "position fen %s", rep);
    session_send(&s, "go depth 10");
    bm = session_expect(&s, "bestmove", SLOW);
    check_bestmove(bm, "perpetual");
    last = last_pv_info(&s);
    CHECK(info_score(last, &mate, &v) && !mate && v == 0, "perpetual check: %s", last ? last : "(none)");
    bestmove_parts(bm, best2, ponder2);
    CHECK(!strcmp(best2, "h5e8"), "perpetual check: bestmove %s, expected h5e8", best2);
    session_close(&s, FAST);
}

static void test_chess960(void) {
    Session s;
    if (!open_session(&s, "chess960")) return;
    const char *fen = "r1k4r/pppppppp/8/8/8/8/PPPPPPPP/R1K4R w HAha - 0 1";
    session_send(&s, "setoption name UCI_Chess960 value true");
    session_send(&s, "position fen %s moves c1h1 c8a8", fen);
    session_send(&s, "d");
    sync_engine(&s, "chess960");
    const char *d = session_last(&s, "Fen: ");
    CHECK(d && strcmp(d, "Fen: 2kr3r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 w - - 2 2") == 0, "chess960 castling: %s", d ? d : "(none)");
    CHECK(session_count(&s, "info string") == 0, "chess960 castling rejected: %s",
          session_last(&s, "info string") ? session_last(&s, "info string") : "");
    local_position(fen, "c1h1 c8a8", true);
    session_send(&s, "go depth 6");
    check_bestmove(session_expect(&s, "bestmove", SLOW), "chess960 game");
    check_info_lines(&s, "chess960 game");
    session_forget(&s);

    /* A Chess960 start position: the engine castles king-takes-rook when it wants to. */
    const char *start = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1";
    local_position(start, "f2f3 f7f6 h1f2 h8f7", true);
    session_send(&s, "position fen %s moves f2f3 f7f6 h1f2 h8f7", start);
    session_send(&s, "go depth 5 searchmoves f1g1");
    const char *bm = session_expect(&s, "bestmove", SLOW);
    check_bestmove(bm, "chess960 O-O");
    CHECK(bm && starts_with(bm, "bestmove f1g1"), "chess960: castling move '%s'", bm ? bm : "(none)");
    session_send(&s, "setoption name UCI_Chess960 value false");
    session_close(&s, FAST);
}

int main(void) {
    engine_init();
    alarm(300); /* last-resort guard: the suite must never hang */
    test_handshake();
    test_go_variants();
    test_go_always_ends();
    test_search_handshakes();
    test_threads();
    test_stress();
    test_determinism();
    test_bad_input();
    test_mates_and_draws();
    test_chess960();
    return test_report();
}
