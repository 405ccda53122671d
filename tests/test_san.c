/*
 * Move text: SAN and UCI round trips for every legal move in many positions,
 * check/mate suffixes, specific SAN strings (disambiguation, en passant,
 * castling, promotion, mate), lenient SAN input, and the square helpers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "epd.h"
#include "fen.h"
#include "move_checks.h"
#include "position.h"
#include "movegen.h"
#include "notation.h"
#include "position.h"
#include "test.h"

static Position Pos;
static EpdSuite Suite;
static long RoundTrips, Positions;

/*
 * SAN and UCI of every legal move read back as the same move; SANs are
 * distinct; suffixes are right. Each property is one check over every
 * position (tests/test.h), naming the first move (or pair of moves) that
 * breaks it.
 */
static Property SanBack, SanDistinct;

static void round_trip_all(Position *pos) {
    MoveList list;
    gen_legal(pos, &list);
    static char sans[MAX_MOVES][16];
    char fen[128], before[128];
    pos_get_fen(pos, before);
    expect_san_round_trip(pos, &list, sans, &SanBack, &SanDistinct);
    pos_get_fen(pos, fen);
    CHECK_EACH(strcmp(fen, before) == 0, "move_to_san changed the position %s into %s", before, fen);
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        char *san = sans[i], uci[8];
        CHECK_EACH(san[0] != '\0' && strlen(san) < 12, "SAN of move %d at %s is '%s'", m, before, san);

        move_to_uci(m, pos->chess960, uci);
        Move ub = move_from_uci(pos, uci);
        CHECK_EACH(ub == m, "UCI round trip at %s: '%s' read back as %d, expected %d", before, uci, ub, m);
        /* SAN input falls back to UCI. */
        CHECK_EACH(move_from_san(pos, uci) == m, "move_from_san of UCI text '%s' at %s", uci, before);

        /* '+' exactly when the move checks, '#' when it mates. */
        pos_do_move(pos, m);
        bool check = pos_in_check(pos);
        bool mate = check && count_legal(pos) == 0;
        pos_undo_move(pos);
        size_t n = strlen(san);
        char last = n ? san[n - 1] : '\0';
        CHECK_EACH(mate    ? last == '#'
                   : check ? last == '+'
                           : (last != '+' && last != '#'),
                   "SAN '%s' at %s: check %d mate %d", san, before, check, mate);
        RoundTrips++;
    }
    Positions++;
}

/* Round trips over a suite and random games from it. */
static void round_trip_suite(const char *file, bool chess960, int gamesPerPosition, uint64_t seed) {
    CHECK(epd_load(file, &Suite), "cannot load %s", file);
    Rng rng = {seed};
    char err[256];
    for (int i = 0; i < Suite.size; i++) {
        for (int g = 0; g < gamesPerPosition; g++) {
            if (!pos_set_fen(&Pos, Suite.entries[i].fen, chess960, err, sizeof err)) {
                CHECK(false, "FEN refused: %s (%s)", Suite.entries[i].fen, err);
                break;
            }
            MoveList list;
            for (int ply = 0; ply < 100; ply++) {
                round_trip_all(&Pos);
                gen_legal(&Pos, &list);
                if (list.count == 0) break;
                pos_do_move(&Pos, list.moves[rng_below(&rng, (unsigned)list.count)]);
            }
        }
    }
}

/* The SAN of the move given in UCI at fen (hand-written), and that the SAN reads back: one check. */
static void check_san(const char *fen, bool chess960, const char *uci, const char *expected) {
    char err[256], san[16] = "";
    if (!pos_set_fen(&Pos, fen, chess960, err, sizeof err)) {
        CHECK(false, "FEN refused: %s (%s)", fen, err);
        return;
    }
    Move m = move_from_uci(&Pos, uci);
    if (m != MOVE_NONE) move_to_san(&Pos, m, san);
    CHECK(m != MOVE_NONE && strcmp(san, expected) == 0 && move_from_san(&Pos, expected) == m,
          "SAN of %s at %s: expected '%s', got '%s'%s", uci, fen, expected, san,
          m == MOVE_NONE                       ? " (the UCI move is refused)"
          : move_from_san(&Pos, expected) != m ? " (it does not read back)"
                                               : "");
}

/* move_from_san of text at fen gives the UCI move want (NULL: must be refused). */
static void check_parse(const char *fen, const char *text, const char *want) {
    char err[256], got[8] = "none";
    pos_set_fen(&Pos, fen, false, err, sizeof err);
    Move m = move_from_san(&Pos, text);
    if (m != MOVE_NONE) move_to_uci(m, false, got);
    if (want)
        CHECK(m != MOVE_NONE && strcmp(got, want) == 0, "'%s' at %s: expected %s, got %s", text, fen, want, got);
    else
        CHECK(m == MOVE_NONE, "'%s' at %s must be refused, got %s", text, fen, got);
}

static void specific_san(void) {
    /* Disambiguation by file, by rank, and by both. */
    const char *twoKnights = "rnbqkb1r/ppp1pppp/5n2/3p4/3P4/5N2/PPP1PPPP/RNBQKB1R b KQkq - 1 3";
    check_san(twoKnights, false, "b8d7", "Nbd7");
    check_san(twoKnights, false, "f6d7", "Nfd7");
    check_san("4k3/8/8/6N1/8/8/8/4K1N1 w - - 0 1", false, "g1f3", "N1f3");
    check_san("4k3/8/8/6N1/8/8/8/4K1N1 w - - 0 1", false, "g5f3", "N5f3");
    const char *threeQueens = "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1";
    check_san(threeQueens, false, "a1b2", "Qa1b2");
    check_san(threeQueens, false, "a3b2", "Q3b2");
    check_san(threeQueens, false, "c1b2", "Qcb2");
    /* A pinned knight does not count for disambiguation. */
    check_san("4k3/8/8/8/1b6/8/3N4/4K1N1 w - - 0 1", false, "g1f3", "Nf3");
    /* Pawns: push, capture, en passant, promotion with check, capture promotion, underpromotion. */
    check_san(StartFEN, false, "e2e4", "e4");
    check_san("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", false, "e5d6", "exd6");
    check_san("k7/4P3/8/8/8/8/8/4K3 w - - 0 1", false, "e7e8q", "e8=Q+");
    check_san("k7/4P3/8/8/8/8/8/4K3 w - - 0 1", false, "e7e8n", "e8=N");
    check_san("k2r4/4P3/8/8/8/8/8/4K3 w - - 0 1", false, "e7d8r", "exd8=R+");
    check_san("4k3/8/8/8/8/8/1p6/4K3 b - - 0 1", false, "b2b1q", "b1=Q+");
    /* Castling, with check. */
    check_san("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false, "e1c1", "O-O-O");
    check_san("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false, "e1g1", "O-O");
    check_san("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", false, "e8c8", "O-O-O");
    check_san("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", false, "e1c1", "O-O-O+");
    check_san("5k2/8/8/8/8/8/8/4K2R w K - 0 1", false, "e1g1", "O-O+");
    /* Chess960 castling (king takes rook in UCI) is still O-O / O-O-O. */
    check_san("rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", true, "b1a1", "O-O-O");
    check_san("rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", true, "b1h1", "O-O");
    check_san("r5kr/8/8/8/8/8/8/R5KR w HAha - 0 1", true, "g1h1", "O-O");
    /* Mate and check. */
    check_san("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", false, "d8h4", "Qh4#");
    check_san("rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 2", false, "d8h4", "Qh4+");
    check_san("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", false, "a1a8", "Ra8#");
    check_san("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false, "e5f7", "Nxf7");
    check_san("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false, "d5e6", "dxe6");
    check_san("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false, "f3f6", "Qxf6");
    check_san("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false, "g2h3", "gxh3");
}

static void lenient_san(void) {
    const char *twoKnights = "rnbqkb1r/ppp1pppp/5n2/3p4/3P4/5N2/PPP1PPPP/RNBQKB1R b KQkq - 1 3";
    check_parse(twoKnights, "Nd7", NULL); /* ambiguous */
    check_parse(twoKnights, "Nbd7", "b8d7");
    check_parse(twoKnights, "Nb8d7", "b8d7");
    check_parse(twoKnights, "Nbd7!?", "b8d7");
    check_parse(twoKnights, "Nfd7+", "f6d7"); /* extra check sign accepted */
    check_parse(twoKnights, "Ke7", NULL);     /* illegal */
    check_parse(twoKnights, "Qd7", "d8d7");
    check_parse(twoKnights, "", NULL);
    check_parse(twoKnights, "Z", NULL);
    check_parse(twoKnights, "e9", NULL);
    check_parse(twoKnights, "O-O", NULL);
    check_parse(twoKnights, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", NULL);
    check_parse("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0", "e1g1");
    check_parse("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0-0", "e1c1");
    check_parse("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O-O", "e1c1");
    check_parse("k7/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8Q", "e7e8q");
    check_parse("k7/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8=Q", "e7e8q");
    check_parse("k7/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8=N", "e7e8n");
    check_parse("k7/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8", NULL); /* promotion piece missing */
    check_parse("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "Qh4", "d8h4");
    check_parse("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "Qh4+", "d8h4");
    check_parse("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6", "e5d6");
    check_parse("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", "e5d6");
    check_parse(StartFEN, "e2e4", "e2e4");
    check_parse(StartFEN, "e4", "e2e4");
    check_parse(StartFEN, "e5", NULL);
    check_parse(StartFEN, "Nf3", "g1f3");
}

/* UCI text: castling spellings, promotions, and refusals. */
static void specific_uci(void) {
    char err[256], out[8];
    pos_set_fen(&Pos, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false, err, sizeof err);
    Move oo = move_from_uci(&Pos, "e1g1"), ooo = move_from_uci(&Pos, "e1c1");
    CHECK(oo != MOVE_NONE && move_kind(oo) == MOVE_CASTLING && move_to(oo) == H1, "e1g1 must be castling e1xh1");
    CHECK(ooo != MOVE_NONE && move_kind(ooo) == MOVE_CASTLING && move_to(ooo) == A1, "e1c1 must be castling e1xa1");
    CHECK(move_from_uci(&Pos, "e1h1") == oo, "king-takes-rook e1h1 must be accepted as O-O");
    CHECK(move_from_uci(&Pos, "e1a1") == ooo, "king-takes-rook e1a1 must be accepted as O-O-O");
    move_to_uci(oo, false, out);
    CHECK(strcmp(out, "e1g1") == 0, "O-O in standard chess is '%s', expected e1g1", out);
    move_to_uci(oo, true, out);
    CHECK(strcmp(out, "e1h1") == 0, "O-O in Chess960 is '%s', expected e1h1", out);
    move_to_uci(ooo, false, out);
    CHECK(strcmp(out, "e1c1") == 0, "O-O-O in standard chess is '%s', expected e1c1", out);
    move_to_uci(ooo, true, out);
    CHECK(strcmp(out, "e1a1") == 0, "O-O-O in Chess960 is '%s', expected e1a1", out);

    /* Chess960 with the king beside its rook: g1h1 is castling, g1f1 is a plain king move. */
    pos_set_fen(&Pos, "r5kr/8/8/8/8/8/8/R5KR w HAha - 0 1", true, err, sizeof err);
    Move c = move_from_uci(&Pos, "g1h1");
    CHECK(c != MOVE_NONE && move_kind(c) == MOVE_CASTLING, "Chess960 g1h1 must be castling");
    Move k = move_from_uci(&Pos, "g1f1");
    CHECK(k != MOVE_NONE && move_kind(k) == MOVE_NORMAL, "Chess960 g1f1 must be the plain king move");
    /* King on b1, rook a1: b1a1 castles (king to c1, rook to d1); b1c1 is a plain king move. */
    pos_set_fen(&Pos, "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", true, err, sizeof err);
    c = move_from_uci(&Pos, "b1a1");
    CHECK(c != MOVE_NONE && move_kind(c) == MOVE_CASTLING, "Chess960 b1a1 must be castling");
    k = move_from_uci(&Pos, "b1c1");
    CHECK(k != MOVE_NONE && move_kind(k) == MOVE_NORMAL, "Chess960 b1c1 must be the plain king move");
    if (c != MOVE_NONE) {
        pos_do_move(&Pos, c);
        CHECK(Pos.board[C1] == W_KING && Pos.board[D1] == W_ROOK && Pos.board[A1] == NO_PIECE &&
                  Pos.board[B1] == NO_PIECE,
              "Chess960 O-O-O from b1 must put the king on c1 and the rook on d1");
        pos_undo_move(&Pos);
    }

    /* Found by fuzzing: the same Chess960 set-up in standard mode. "b1c1" cannot be both
     * the king step and O-O-O, so castling outside the classical e-file geometry is written
     * king-takes-rook in either mode, and every move's text reads back as that move. */
    pos_set_fen(&Pos, "r3k2r/8/8/8/8/8/8/RK5R w KQkq - 0 1", false, err, sizeof err);
    round_trip_all(&Pos);
    c = move_from_uci(&Pos, "b1a1");
    CHECK(c != MOVE_NONE && move_kind(c) == MOVE_CASTLING, "standard mode b1a1 must be castling");
    move_to_uci(c, false, out);
    CHECK(strcmp(out, "b1a1") == 0, "non-classical O-O-O prints as '%s', expected b1a1", out);

    pos_set_fen(&Pos, "k7/4P3/8/8/8/8/8/4K3 w - - 0 1", false, err, sizeof err);
    Move q = move_from_uci(&Pos, "e7e8q"), n = move_from_uci(&Pos, "e7e8n");
    CHECK(q != MOVE_NONE && move_kind(q) == MOVE_PROMOTION && move_promotion(q) == QUEEN, "e7e8q");
    CHECK(n != MOVE_NONE && move_kind(n) == MOVE_PROMOTION && move_promotion(n) == KNIGHT, "e7e8n");
    CHECK(move_from_uci(&Pos, "e7e8") == MOVE_NONE, "e7e8 without a piece must be refused");
    CHECK(move_from_uci(&Pos, "e7e8k") == MOVE_NONE, "e7e8k must be refused");
    CHECK(move_from_uci(&Pos, "e1e3") == MOVE_NONE, "illegal e1e3 must be refused");
    CHECK(move_from_uci(&Pos, "") == MOVE_NONE, "empty UCI move must be refused");
    CHECK(move_from_uci(&Pos, "e1") == MOVE_NONE, "'e1' must be refused");
    CHECK(move_from_uci(&Pos, "0000") == MOVE_NONE, "'0000' is not a legal move");
    CHECK(move_from_uci(&Pos, "z9z9") == MOVE_NONE, "'z9z9' must be refused");
    CHECK(move_from_uci(&Pos, "e1d1xxxxxxxxxxxxxxxxxxxxxxxx") == MOVE_NONE, "trailing junk must be refused");
    move_to_uci(q, false, out);
    CHECK(strcmp(out, "e7e8q") == 0, "promotion prints as '%s'", out);
    move_to_uci(MOVE_NONE, false, out);
    CHECK(strcmp(out, "0000") == 0, "MOVE_NONE prints as '%s'", out);
}

static void squares(void) {
    char text[4];
    for (int s = A1; s <= H8; s++) {
        square_to_text((Square)s, text);
        CHECK_EACH(strlen(text) == 2 && text[0] == 'a' + file_of((Square)s) && text[1] == '1' + rank_of((Square)s),
                   "square %d prints as '%s'", s, text);
        CHECK_EACH(square_from_text(text) == (Square)s, "square '%s' parses as %d", text, square_from_text(text));
    }
    const char *bad[] = {"", "a", "i1", "a9", "a0", "A1", "11", "-"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_EACH(square_from_text(bad[i]) == SQ_NONE, "square '%s' must be refused", bad[i]);
}

int main(void) {
    board_init();
    bool quick = test_quick();
    specific_san();
    lenient_san();
    specific_uci();
    squares();
    round_trip_suite("perft_classic.epd", false, quick ? 1 : 6, 11);
    round_trip_suite("perft_tricky.epd", false, quick ? 1 : 4, 12);
    round_trip_suite("chess960.epd", true, quick ? 1 : 3, 13);
    CHECK_PROPERTY(&SanBack);
    CHECK_PROPERTY(&SanDistinct);
    printf("%ld SAN/UCI round trips in %ld positions\n", RoundTrips, Positions);
    CHECK(Positions > 5000 && RoundTrips > 100000, "only %ld round trips in %ld positions", RoundTrips, Positions);
    return test_report();
}
