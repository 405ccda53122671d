/*
 * The EPD suite reader (epdsuite.h): positions with and without counters,
 * bm/am in SAN and UCI, ids, the STS point schemes (c0 and c7/c8/c9),
 * scoring, and bad records refused with a reason.
 */
#include <stdio.h>
#include <string.h>

#include "epdsuite.h"
#include "fen.h"
#include "init.h"
#include "notation.h"
#include "test.h"

/* The legal move text (SAN or UCI) in the record's position. */
static Move move_in(const EpdRecord *rec, const char *text) {
    static Position pos;
    pos_set_fen(&pos, rec->fen, false, NULL, 0);
    return move_from_san(&pos, text);
}

static void test_records(void) {
    EpdRecord r;
    char err[256];
    bool ok = epd_parse_record("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";", &r,
                               err, sizeof err);
    CHECK(ok && strcmp(r.id, "WAC.001") == 0 && r.bestCount == 1 && r.best[0] == move_in(&r, "g3g6") &&
              strcmp(r.fen, "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1") == 0,
          "WAC.001: %s", err);
    CHECK(epd_is_solved(&r, move_in(&r, "Qg6")) && !epd_is_solved(&r, move_in(&r, "Qh4")) && !epd_is_solved(&r, MOVE_NONE),
          "bm decides solved");

    ok = epd_parse_record("r3r1k1/5p2/pQ1b2pB/1p6/4p3/6P1/Pq2BP1P/2R3K1 b - - bm Ba3 Be5 Bf8 e3; "
                          "c0 \"All win but e3 is best.\"; id \"WAC.150\";", &r, err, sizeof err);
    CHECK(ok && r.bestCount == 4 && r.pointCount == 0, "several bm moves; a c0 comment is not a point scheme: %s", err);

    /* Arasan 2020 #84: an '=' inside a comment (a URL's query) does not make it a point scheme. */
    ok = epd_parse_record("rnb1kb1r/pp1p1ppp/1q2p3/8/3NP1n1/2N1B3/PPP2PPP/R2QKB1R w KQkq - bm Qxg4; id \"arasan20.84\"; "
                          "c0 \"Gaw Paw Sicilian: http://rybkaforum.net/cgi-bin/rybkaforum/topic_show.pl?tid=18253\";",
                          &r, err, sizeof err);
    CHECK(ok && r.bestCount == 1 && r.pointCount == 0, "a c0 comment with '=' in a URL is not a point scheme: %s", err);
    ok = epd_parse_record("4k3/P7/8/8/8/8/8/4K3 w - - c0 \"a8=Q=10, a8=R=4, Kd2=1\";", &r, err, sizeof err);
    CHECK(ok && r.pointCount == 3 && epd_points_for(&r, move_in(&r, "a8=Q")) == 10 &&
              epd_points_for(&r, move_in(&r, "a7a8r")) == 4, "c0 points for promotions (SAN's own '='): %s", err);

    ok = epd_parse_record("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3 7 bm e2e4 Nf3; am g4;", &r, err,
                          sizeof err);
    CHECK(ok && strstr(r.fen, " 3 7") && r.bestCount == 2 && r.best[0] == move_in(&r, "e4") && r.avoidCount == 1,
          "counters after the four fields, UCI and SAN moves, am: %s", err);
    CHECK(!epd_is_solved(&r, move_in(&r, "g4")) && !epd_is_solved(&r, move_in(&r, "d4")) &&
              epd_is_solved(&r, move_in(&r, "Nf3")), "bm and am together");
    ok = epd_parse_record("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - am g4; hmvc 5; fmvn 12;", &r, err,
                          sizeof err);
    CHECK(ok && strstr(r.fen, " 5 12") && epd_is_solved(&r, move_in(&r, "e4")) && !epd_is_solved(&r, move_in(&r, "g4")),
          "am alone; hmvc/fmvn give the counters: %s", r.fen);

    /* STS style: points per move in c0, and the parallel c7/c8/c9 lists. */
    ok = epd_parse_record("1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - bm f5; id \"STS.001\"; "
                          "c0 \"f5=10, Be5+=2, Bf2=3, Bg4=2\";", &r, err, sizeof err);
    CHECK(ok && r.pointCount == 4 && epd_points_max(&r) == 10 && epd_points_for(&r, move_in(&r, "Bf2")) == 3 &&
              epd_points_for(&r, move_in(&r, "Be5")) == 2 && epd_points_for(&r, move_in(&r, "Kg2")) == 0,
          "c0 points: %s", err);
    ok = epd_parse_record("1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - c7 \"f5 Bf2 Be5+ Bg4\"; "
                          "c8 \"10 3 2 2\"; c9 \"f4f5 d4f2 d4e5 f3g4\";", &r, err, sizeof err);
    CHECK(ok && r.pointCount == 4 && epd_points_for(&r, move_in(&r, "f5")) == 10 &&
              epd_points_for(&r, move_in(&r, "Bg4")) == 2, "c8 points with c9 moves: %s", err);
    CHECK(epd_is_solved(&r, move_in(&r, "f5")) && !epd_is_solved(&r, move_in(&r, "Bf2")),
          "points alone: the top move solves");

    struct {
        const char *line, *reason;
    } bad[] = {
        {"8/8/8/8 w - - bm e4;", "bad position"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm Qh5;", "'Qh5' is not a legal move"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"x\";", "nothing to test"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm;", "bm without a move"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4; id \"open", "unterminated string"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c0 \"e4=ten\";", "not MOVE=POINTS"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c8 \"10 3\"; c9 \"e2e4\";", "different numbers"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "four FEN fields"},
        {"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Nd5;", "not a legal move"},
    };
    int refused = 0;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        bool rejected = !epd_parse_record(bad[i].line, &r, err, sizeof err) && strstr(err, bad[i].reason);
        if (!rejected) fprintf(stderr, "not refused as expected: %s -> '%s'\n", bad[i].line, err);
        refused += rejected;
    }
    CHECK(refused == (int)(sizeof bad / sizeof bad[0]), "bad records refused with their reason (%d of %zu)", refused,
          sizeof bad / sizeof bad[0]);
    CHECK(!epd_parse_record("   ", &r, err, sizeof err) && !err[0] && !epd_parse_record("# note", &r, err, sizeof err) &&
              !err[0], "blank lines and comments are not records and not errors");
}

int main(void) {
    engine_init();
    test_records();
    return test_report();
}
