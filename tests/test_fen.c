/*
 * FEN in and out: exact round trips for standard FENs, semantic round trips
 * for Chess960 (X-FEN and Shredder-FEN castling), FENs that must be accepted,
 * and the bad-FEN table: every malformed FEN is refused with a message and
 * leaves the previous position intact.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "epd.h"
#include "fen.h"
#include "position.h"
#include "movegen.h"
#include "perft.h"
#include "position.h"
#include "test.h"

static Position Pos, Other;
static EpdSuite Suite;

/*
 * The round trips and the refusal below run on every position of a suite,
 * a table or a random game: each of their checks is one property over all
 * of them (CHECK_EACH, tests/test.h).
 */

/* Parse then print must give back the same text. */
static void check_exact_round_trip(const char *fen, bool chess960) {
    char err[256] = "", out[128];
    bool ok = pos_set_fen(&Pos, fen, chess960, err, sizeof err);
    CHECK_EACH(ok, "FEN refused: %s (%s)", fen, err);
    if (!ok) return;
    pos_get_fen(&Pos, out);
    CHECK_EACH(strcmp(out, fen) == 0, "round trip of '%s' gave '%s'", fen, out);
}

/* Same pieces, side, rights (with their rooks), ep square, clocks and key. */
static bool same_position(const Position *a, const Position *b) {
    if (memcmp(a->board, b->board, sizeof a->board) != 0) return false;
    if (a->sideToMove != b->sideToMove || a->st->castling != b->st->castling) return false;
    if (a->st->epSquare != b->st->epSquare || a->st->rule50 != b->st->rule50) return false;
    if (a->gamePly != b->gamePly || a->st->key != b->st->key || a->st->pawnKey != b->st->pawnKey) return false;
    for (int i = 0; i < 4; i++)
        if ((a->st->castling & (1 << i)) && a->castlingRookSquare[i] != b->castlingRookSquare[i]) return false;
    return true;
}

/*
 * Print, parse the printout again, and compare meaning; printing again must
 * be stable. For Chess960 also spells the rights with Shredder letters.
 */
static void check_semantic_round_trip(const char *fen, bool chess960) {
    char err[256] = "", out[128], out2[128];
    bool ok = pos_set_fen(&Pos, fen, chess960, err, sizeof err);
    CHECK_EACH(ok, "FEN refused: %s (%s)", fen, err);
    if (!ok) return;
    pos_get_fen(&Pos, out);
    ok = pos_set_fen(&Other, out, chess960, err, sizeof err);
    CHECK_EACH(ok, "printed FEN '%s' (from '%s') refused: %s", out, fen, err);
    if (!ok) return;
    CHECK_EACH(same_position(&Pos, &Other), "'%s' printed as '%s' means something else", fen, out);
    pos_get_fen(&Other, out2);
    CHECK_EACH(strcmp(out, out2) == 0, "printing is not stable: '%s' then '%s'", out, out2);
    if (!chess960) return;

    /* The same rights spelt with Shredder letters must mean the same position. */
    char shredder[128], letters[8] = "";
    int n = 0;
    static const int order[4] = {0, 1, 2, 3};
    for (int k = 0; k < 4; k++) {
        int i = order[k];
        if (!(Pos.st->castling & (1 << i))) continue;
        char f = (char)('a' + file_of(Pos.castlingRookSquare[i]));
        letters[n++] = i < 2 ? (char)(f - 'a' + 'A') : f;
    }
    letters[n] = '\0';
    char board[100], side[4], cast[8], ep[4];
    int h, fm;
    if (sscanf(out, "%99s %3s %7s %3s %d %d", board, side, cast, ep, &h, &fm) != 6) {
        CHECK_EACH(false, "printed FEN '%s' does not have six fields", out);
        return;
    }
    snprintf(shredder, sizeof shredder, "%s %s %s %s %d %d", board, side, n ? letters : "-", ep, h, fm);
    ok = pos_set_fen(&Other, shredder, true, err, sizeof err);
    CHECK_EACH(ok, "Shredder-FEN '%s' refused: %s", shredder, err);
    if (ok) CHECK_EACH(same_position(&Pos, &Other), "Shredder-FEN '%s' differs from '%s'", shredder, fen);
}

/* Every position of a suite file round-trips. */
static void round_trip_suite(const char *file, bool chess960) {
    CHECK(epd_load(file, &Suite), "cannot load %s", file);
    for (int i = 0; i < Suite.size; i++) {
        if (chess960)
            check_semantic_round_trip(Suite.entries[i].fen, true);
        else
            check_exact_round_trip(Suite.entries[i].fen, false);
    }
}

/* Positions reached by random play round-trip too (ep squares, clocks, lost rights). */
static void round_trip_random_games(bool chess960, const char *startFen, int games) {
    Rng rng = {0x9E3779B97F4A7C15ULL ^ (uint64_t)games};
    char fen[128], err[256];
    for (int g = 0; g < games; g++) {
        pos_set_fen(&Pos, startFen, chess960, err, sizeof err);
        int plies = 1 + (int)rng_below(&rng, 80);
        MoveList list;
        for (int p = 0; p < plies; p++) {
            gen_legal(&Pos, &list);
            if (list.count == 0) break;
            pos_do_move(&Pos, list.moves[rng_below(&rng, (unsigned)list.count)]);
            pos_get_fen(&Pos, fen);
            bool ok = pos_set_fen(&Other, fen, chess960, err, sizeof err);
            CHECK_EACH(ok, "FEN printed after random play refused: %s (%s)", fen, err);
            if (!ok) return;
            CHECK_EACH(same_position(&Pos, &Other), "random game: '%s' parses back to another position", fen);
            if (!chess960) {
                char again[128];
                pos_get_fen(&Other, again);
                CHECK_EACH(strcmp(fen, again) == 0, "random game: '%s' prints back as '%s'", fen, again);
            }
        }
    }
}

/* Opening-suite lines (shared/openings, not in the repo): extra coverage when present. */
static void round_trip_openings(const char *file, bool chess960, int step) {
    const char *dir = getenv("GIZUM_OPENINGS");
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "../shared/openings", file);
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("SKIP: opening round trips (%s not found)\n", path);
        return;
    }
    char line[256], fen[160];
    int n = 0, checked = 0;
    while (fgets(line, sizeof line, f)) {
        if (n++ % step) continue;
        line[strcspn(line, "\r\n")] = '\0';
        int fields = 0;
        for (char *p = line; *p; p++)
            if (*p == ' ' && p[1] && p[1] != ' ') fields++;
        snprintf(fen, sizeof fen, fields + 1 == 4 ? "%s 0 1" : "%s", line);
        /* Opening lines may carry ep squares no pawn can use, which print as '-'. */
        check_semantic_round_trip(fen, chess960);
        checked++;
    }
    fclose(f);
    printf("%s: %d lines round-tripped\n", file, checked);
}

/* FENs that are unusual but valid. */
static void check_accepted(void) {
    static const struct {
        const char *fen;
        const char *printed; /* expected output, NULL = same as input */
    } Cases[] = {
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
        /* No black pawn can take on e3: the ep square is dropped (Polyglot rule). */
        {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
        {"rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", NULL},
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", NULL},
        {"4k3/8/8/8/8/8/8/4K3 b - - 99 150", NULL},
        {"4k3/8/8/8/8/8/8/4K2R b K - 0 1", NULL},
        {"r3k3/8/8/8/8/8/8/4K3 w q - 12 40", NULL},
        /* The side to move may be in check (even double check). */
        {"4k3/8/8/8/8/8/8/4R1K1 b - - 0 1", NULL},
        {"4k3/8/5N2/8/8/8/8/4R1K1 b - - 0 1", NULL},
        {"rnbqkbnr/ppppp2p/5p2/6pQ/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 3", NULL},
    };
    char err[256], out[128];
    bool ok;
    for (size_t i = 0; i < sizeof Cases / sizeof Cases[0]; i++) {
        err[0] = '\0';
        ok = pos_set_fen(&Pos, Cases[i].fen, false, err, sizeof err);
        CHECK_EACH(ok, "valid FEN refused: '%s' (%s)", Cases[i].fen, err);
        if (!ok) continue;
        pos_get_fen(&Pos, out);
        const char *want = Cases[i].printed ? Cases[i].printed : Cases[i].fen;
        CHECK_EACH(strcmp(out, want) == 0, "'%s' printed as '%s', expected '%s'", Cases[i].fen, out, want);
    }
    /* pos_set_startpos sets the standard start position (judged by its own text and by
     * parsing the standard FEN, not by the StartFEN constant it is built from). */
    static const char *const Standard = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    pos_set_startpos(&Pos, false);
    pos_get_fen(&Pos, out);
    CHECK(strcmp(out, Standard) == 0, "pos_set_startpos prints as '%s'", out);
    ok = pos_set_fen(&Other, Standard, false, err, sizeof err);
    CHECK(ok && same_position(&Pos, &Other), "pos_set_startpos differs from the parsed standard FEN (%s)",
          ok ? "differs" : err);
    pos_set_startpos(&Pos, true);
    pos_set_fen(&Other, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", true, err, sizeof err);
    CHECK(same_position(&Pos, &Other), "Chess960 start position differs from HAha spelling");
    /* X-FEN: K/Q mean the outermost rook; a letter picks an inner one. */
    ok = pos_set_fen(&Pos, "4k3/8/8/8/8/8/8/RR2K1RR w KQ - 0 1", true, err, sizeof err);
    CHECK(ok, "X-FEN with two rooks a side refused: %s", err);
    if (ok)
        CHECK(Pos.castlingRookSquare[0] == H1 && Pos.castlingRookSquare[1] == A1,
              "X-FEN KQ must use the outermost rooks (h1, a1), got %d, %d", Pos.castlingRookSquare[0],
              Pos.castlingRookSquare[1]);
    ok = pos_set_fen(&Pos, "4k3/8/8/8/8/8/8/RR2K1RR w GB - 0 1", true, err, sizeof err);
    CHECK(ok, "Shredder-FEN GB refused: %s", err);
    if (ok) {
        CHECK(Pos.castlingRookSquare[0] == G1 && Pos.castlingRookSquare[1] == B1,
              "Shredder GB must use g1 and b1, got %d, %d", Pos.castlingRookSquare[0], Pos.castlingRookSquare[1]);
        pos_get_fen(&Pos, out);
        ok = pos_set_fen(&Other, out, true, err, sizeof err);
        CHECK(ok && same_position(&Pos, &Other), "inner-rook rights printed as '%s' do not read back", out);
    }
}

typedef struct {
    const char *fen;
    const char *why;
} BadFen;

static const BadFen BadFens[] = {
    {"", "empty string"},
    {" ", "only a space"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "one field"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", "two fields"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "three fields"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", "seven fields"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "bad piece letter X"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "h1 rook missing but K right (also bad rights)"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN@ w KQkq - 0 1", "bad character @"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1", "rank of 9 squares (letters)"},
    {"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "digit 9"},
    {"rnbqkbnr/ppppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "ranks of 9 and 7 squares"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "rank of 7 squares"},
    {"rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "empty rank of 7"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1", "nine ranks"},
    {"rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "seven ranks"},
    {"rnbqkbnr/pppppppp/8/8//8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "empty rank"},
    {"rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "digit 0"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", "white king missing"},
    {"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "black king missing"},
    {"8/8/8/8/8/8/8/8 w - - 0 1", "empty board"},
    {"rnbqkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBQKBNR w kq - 0 1", "two white kings"},
    {"rnbqkbnr/pppppppp/4k3/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "two black kings"},
    {"4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "white pawn on the first rank"},
    {"4k2P/8/8/8/8/8/8/4K3 w - - 0 1", "white pawn on the last rank"},
    {"4k3/8/8/8/8/8/8/3pK3 b - - 0 1", "black pawn on the first rank"},
    {"p3k3/8/8/8/8/8/8/4K3 b - - 0 1", "black pawn on the last rank"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side letter x"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1", "side letter W"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR wb KQkq - 0 1", "side field 'wb'"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", "castling letter x"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq1 - 0 1", "castling digit"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1", "castling right twice"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w K - 0 1", "K right without the h1 rook"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w Q - 0 1", "Q right without the a1 rook"},
    {"rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w k - 0 1", "k right without the h8 rook"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w K - 0 1", "K right and no white king"},
    {"4k3/8/8/8/8/8/4K3/R6R w KQ - 0 1", "K and Q rights with the king off e1"},
    {"r3k2r/8/8/8/8/8/8/4K3 w KQ - 0 1", "white rights without white rooks"},
    {"r6r/4k3/8/8/8/8/8/R3K2R w KQkq - 0 1", "black rights with the black king off e8"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "ep square e9"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq i6 0 1", "ep square i6"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e 0 1", "ep square 'e'"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e66 0 1", "ep square 'e66'"},
    {"rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d3 0 3", "ep square on the wrong rank for white"},
    {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6 0 1", "ep square on the wrong rank for black"},
    {"rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d5 0 3", "ep square on the pawn itself"},
    {"rnbqkbnr/pppp1ppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 3", "ep c6 without a black pawn on c5"},
    {"rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", "ep d6 but d7 still holds a pawn"},
    {"rnbqkbnr/ppp1pppp/3n4/3pP3/8/8/PPPP1PPP/RNBQKB1R w KQkq d6 0 3", "ep d6 square occupied"},
    {"4k3/8/8/8/8/8/8/4K2R w - - 0 1 junk", "seven fields on a legal position"},
    {"4k3/8/8/8/8/8/8/4RK2 w - - 0 1", "side not to move (black) in check"},
    {"4k3/8/8/8/8/8/8/3K3r b - - 0 1", "side not to move (white) in check"},
    {"8/8/8/8/8/8/3kK3/8 w - - 0 1", "kings side by side"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove 'x'"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "negative halfmove"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1.5 1", "halfmove 1.5"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 y", "fullmove 'y'"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -3", "negative fullmove"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1z", "fullmove '1z'"},
    {"startpos", "the word startpos"},
};

/* A garbage string of n characters drawn from set (n < size of buf). */
static void make_garbage(char *buf, size_t n, const char *set, Rng *rng) {
    size_t k = strlen(set);
    for (size_t i = 0; i < n; i++) buf[i] = set[rng_below(rng, (unsigned)k)];
    buf[n] = '\0';
}

/* pos must be untouched by a refused FEN: same FEN, key, history and moves. */
static void check_refused(const char *fen, const char *why, bool chess960) {
    char before[128], after[128], err[256];
    pos_get_fen(&Pos, before);
    Key key = pos_key(&Pos), pawnKey = Pos.st->pawnKey;
    const StateInfo *st = Pos.st;
    int count = count_legal(&Pos);
    memset(err, 0, sizeof err);
    bool ok = pos_set_fen(&Pos, fen, chess960, err, sizeof err);
    CHECK_EACH(!ok, "bad FEN accepted (%s): '%.120s'", why, fen);
    CHECK_EACH(err[0] != '\0', "bad FEN refused without a message (%s): '%.120s'", why, fen);
    pos_get_fen(&Pos, after);
    CHECK_EACH(strcmp(before, after) == 0 && key == pos_key(&Pos) && pawnKey == Pos.st->pawnKey && st == Pos.st &&
                   count == count_legal(&Pos),
               "refused FEN (%s) changed the position from '%s' to '%s'", why, before, after);
}

/* The bad-FEN table, garbage strings and tiny error buffers. */
static void check_bad_fens(void) {
    char err[256];
    /* A position with history, so an overwritten state stack would show. */
    pos_set_fen(&Pos, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false, err,
                sizeof err);
    MoveList list;
    gen_legal(&Pos, &list);
    pos_do_move(&Pos, list.moves[0]);
    gen_legal(&Pos, &list);
    pos_do_move(&Pos, list.moves[list.count - 1]);
    uint64_t p3 = perft(&Pos, 3);

    for (size_t i = 0; i < sizeof BadFens / sizeof BadFens[0]; i++) {
        check_refused(BadFens[i].fen, BadFens[i].why, false);
        check_refused(BadFens[i].fen, BadFens[i].why, true);
    }
    /* Chess960 only: a letter naming a square without a rook, or a rook on the wrong side. */
    check_refused("4k3/8/8/8/8/8/8/R3K2R w C - 0 1", "Shredder letter C without a rook on c1", true);
    check_refused("4k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "black rights without black rooks", true);

    Rng rng = {12345};
    static char garbage[1001];
    const char *sets[] = {"rnbqkpRNBQKP12345678/ wb-KQkqabcdefgh", "/", " ", "0123456789",
                          "\x01\x7f\xff\xc3\xa9%s%n\\\"", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"};
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++)
        for (int k = 0; k < 20; k++) {
            make_garbage(garbage, 1000, sets[s], &rng);
            check_refused(garbage, "1000-character garbage", k & 1);
        }
    /* A valid FEN followed by 900 spaces and junk, and one padded to 1000 chars inside a field. */
    snprintf(garbage, sizeof garbage, "%s%900s", StartFEN, "x");
    check_refused(garbage, "valid FEN then junk", false);
    memset(garbage, '8', 1000);
    garbage[1000] = '\0';
    check_refused(garbage, "1000 eights", false);

    /* Tiny and absent error buffers must not overflow or crash. */
    char tiny[4] = "zzz";
    CHECK(!pos_set_fen(&Pos, "8/8/8/8/8/8/8/8 w - - 0 1", false, tiny, sizeof tiny), "empty board accepted");
    CHECK(strlen(tiny) < sizeof tiny, "error message overflowed a 4-byte buffer");
    CHECK(!pos_set_fen(&Pos, "8/8/8/8/8/8/8/8 w - - 0 1", false, NULL, 0), "empty board accepted (err NULL)");
    CHECK(!pos_set_fen(&Pos, "xyz", false, tiny, 1), "garbage accepted (errlen 1)");

    CHECK(perft(&Pos, 3) == p3, "after all refused FENs perft 3 is %" PRIu64 ", was %" PRIu64, perft(&Pos, 3), p3);
    pos_undo_move(&Pos);
    pos_undo_move(&Pos);
    char fen[128];
    pos_get_fen(&Pos, fen);
    CHECK(strcmp(fen, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1") == 0,
          "undo after refused FENs gives '%s'", fen);

    /* Messages should name the fault: spot-check a few words. */
    struct {
        const char *fen, *word;
    } named[] = {
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", "king"},
        {"4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "pawn"},
        {"4k3/8/8/8/8/8/8/4RK2 w - - 0 1", "check"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "passant"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w K - 0 1", "astling"},
    };
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        err[0] = '\0';
        pos_set_fen(&Other, named[i].fen, false, err, sizeof err);
        CHECK_EACH(strstr(err, named[i].word) != NULL, "message for '%s' should mention '%s', got '%s'", named[i].fen,
                   named[i].word, err);
    }
}

/*
 * Seeded FEN fuzzing: valid FENs with characters replaced, inserted or
 * deleted. A refused mutant must leave the position intact (as above); an
 * accepted one must be a sane position: one king each, no pawn on the first
 * or last rank, the side not to move not in check, keys right, and its
 * printout must read back as the same position. The mutants are samples of
 * one test: each property is one check over all of them.
 */
static void fuzz_fens(int count) {
    static const char *const Seeds[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1",
    };
    static const char Alphabet[] = "pnbrqkPNBRQK12345678/ -wbKQkqHAhaeE36x0";
    Rng rng = {2024};
    char fen[160], err[256], out[128];
    int accepted = 0;
    Property intact = {0}, sane = {0}, keyRight = {0}, readBack = {0}, perft2 = {0};
    pos_set_startpos(&Pos, false);
    for (int i = 0; i < count; i++) {
        bool chess960 = rng_below(&rng, 3) == 0;
        snprintf(fen, sizeof fen, "%s", Seeds[rng_below(&rng, sizeof Seeds / sizeof Seeds[0])]);
        int edits = 1 + (int)rng_below(&rng, 3);
        for (int e = 0; e < edits; e++) {
            size_t len = strlen(fen), at = rng_below(&rng, (unsigned)len + 1);
            char c = Alphabet[rng_below(&rng, sizeof Alphabet - 1)];
            unsigned kind = rng_below(&rng, 3);
            if (kind == 0 && at < len) {
                fen[at] = c; /* replace */
            } else if (kind == 1 && len + 1 < sizeof fen) {
                memmove(fen + at + 1, fen + at, len - at + 1); /* insert */
                fen[at] = c;
            } else if (kind == 2 && at < len) {
                memmove(fen + at, fen + at + 1, len - at); /* delete */
            }
        }
        char before[128];
        pos_get_fen(&Pos, before);
        Key key = pos_key(&Pos);
        if (!pos_set_fen(&Pos, fen, chess960, err, sizeof err)) {
            pos_get_fen(&Pos, out);
            EXPECT(&intact, strcmp(before, out) == 0 && key == pos_key(&Pos), "refused mutant '%s' changed the position",
                   fen);
            continue;
        }
        accepted++;
        Color us = Pos.sideToMove, them = color_flip(us);
        Bitboard attackers = pos_attackers_to(&Pos, pos_king_square(&Pos, them), pos_pieces(&Pos));
        bool isSane = popcount(pos_pieces_cpt(&Pos, WHITE, KING)) == 1 &&
                      popcount(pos_pieces_cpt(&Pos, BLACK, KING)) == 1 &&
                      !(pos_pieces_pt(&Pos, PAWN) & (RANK_1_BB | RANK_8_BB)) && !(attackers & pos_pieces_c(&Pos, us));
        EXPECT(&sane, isSane, "accepted mutant '%s' (chess960 %d) is not a sane position", fen, chess960);
        if (!isSane) {
            pos_set_startpos(&Pos, false);
            continue;
        }
        EXPECT(&keyRight, pos_key(&Pos) == pos_compute_key(&Pos), "accepted mutant '%s': key differs from computed",
               fen);
        pos_get_fen(&Pos, out);
        bool ok = pos_set_fen(&Other, out, chess960, err, sizeof err);
        EXPECT(&readBack, ok && same_position(&Pos, &Other),
               "accepted mutant '%s' printed as '%s' does not read back (%s)", fen, out, ok ? "differs" : err);
        MoveList list;
        gen_legal(&Pos, &list);
        uint64_t sum = 0;
        for (int m = 0; m < list.count; m++) {
            pos_do_move(&Pos, list.moves[m]);
            sum += (uint64_t)count_legal(&Pos);
            pos_undo_move(&Pos);
        }
        EXPECT(&perft2, sum == perft(&Pos, 2), "accepted mutant '%s': perft 2 inconsistent", fen);
    }
    CHECK_PROPERTY(&intact);
    CHECK_PROPERTY(&sane);
    CHECK_PROPERTY(&keyRight);
    CHECK_PROPERTY(&readBack);
    CHECK_PROPERTY(&perft2);
    /* Both branches must have been exercised for the checks above to mean anything. */
    CHECK(accepted > count / 100 && accepted < count - count / 10, "FEN fuzzing: %d of %d mutants accepted", accepted,
          count);
    printf("FEN fuzzing: %d mutants, %d accepted\n", count, accepted);
}

/* One thread of the concurrent parsing test: reads its FEN over and over, counting wrong results. */
typedef struct {
    const char *fen;
    int rounds, failures;
} ParseJob;

static void *parse_repeatedly(void *arg) {
    ParseJob *job = arg;
    static _Thread_local Position pos;
    char out[128];
    for (int i = 0; i < job->rounds; i++) {
        if (!pos_set_fen(&pos, job->fen, false, NULL, 0)) {
            job->failures++;
            continue;
        }
        pos_get_fen(&pos, out);
        job->failures += strcmp(out, job->fen) != 0;
    }
    return NULL;
}

/* FEN parsing keeps no hidden state: threads reading different FENs at once (the tuner does) all succeed. */
static void check_concurrent_parsing(void) {
    ParseJob jobs[3] = {
        {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 50000, 0},
        {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 50000, 0},
        {"rnbqkb1r/pp1p1ppp/4pn2/2pP4/2P5/8/PP2PPPP/RNBQKBNR w KQkq c6 0 4", 50000, 0},
    };
    pthread_t ids[3];
    for (int t = 0; t < 3; t++) pthread_create(&ids[t], NULL, parse_repeatedly, &jobs[t]);
    int failures = 0;
    for (int t = 0; t < 3; t++) {
        pthread_join(ids[t], NULL);
        failures += jobs[t].failures;
    }
    CHECK(failures == 0, "%d of 150000 FENs parsed wrongly while other threads parsed too", failures);
}

int main(void) {
    board_init();
    check_concurrent_parsing();
    check_exact_round_trip(StartFEN, false);
    round_trip_suite("perft_classic.epd", false);
    round_trip_suite("perft_tricky.epd", false);
    round_trip_suite("chess960.epd", true);
    round_trip_random_games(false, StartFEN, test_quick() ? 20 : 200);
    round_trip_random_games(false, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                            test_quick() ? 20 : 200);
    round_trip_random_games(true, "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1", test_quick() ? 20 : 200);
    round_trip_random_games(true, "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", test_quick() ? 20 : 200);
    round_trip_openings("noob_3moves.epd", false, test_quick() ? 1500 : 150);
    round_trip_openings("3moves_FRC.epd", true, test_quick() ? 1200 : 120);
    check_accepted();
    check_bad_fens();
    fuzz_fens(test_quick() ? 3000 : 30000);
    /* Found by fuzzing: with two rooks on the queen side, the right belongs to the inner
     * one, which plain 'Q' would give to the outer one; the printout must say which. */
    check_semantic_round_trip("bbqnnrkr/ppppppqp/8/8/8/8/PPPPPPPP/BBQNRRKR b F - 0 1", false);
    return test_report();
}
