/*
 * Opening books and PGN: Polyglot keys from the specification, move
 * encoding, book validation, probing and picking, Polyglot-style building,
 * the tolerant PGN reader, and Gizum's own book in books/.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "book.h"
#include "fen.h"
#include "bookmaker.h"
#include "position.h"
#include "movegen.h"
#include "notation.h"
#include "pgn.h"
#include "test.h"

static Position Pos;
static char TmpDir[] = "/tmp/gizum-test-book-XXXXXX";

/* A path inside the test's temporary directory. */
static const char *tmp_path(const char *name) {
    static char path[4][256];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", TmpDir, name);
    return p;
}

/* Writes bytes to a file; false on failure. */
static bool write_file(const char *path, const void *data, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

/* Plays UCI moves from the start position. */
static void play_uci(Position *pos, const char *moves) {
    pos_set_startpos(pos, false);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        Move m = move_from_uci(pos, tok);
        CHECK_EACH(m != MOVE_NONE, "move %s not legal in '%s'", tok, moves);
        if (m == MOVE_NONE) return;
        pos_do_game_move(pos, m);
    }
}

/* The test keys published with the Polyglot book format, by FEN and by playing the moves. */
static void test_polyglot_keys(void) {
    static const struct {
        const char *moves, *fen;
        Key key;
    } Cases[] = {
        {"", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x463b96181691fc9cULL},
        {"e2e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0x823c9b50fd114196ULL},
        {"e2e4 d7d5", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 0x0756b94461c50fb0ULL},
        {"e2e4 d7d5 e4e5", "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", 0x662fafb965db29d4ULL},
        {"e2e4 d7d5 e4e5 f7f5", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
         0x22a48b5a8e47ff78ULL},
        {"e2e4 d7d5 e4e5 f7f5 e1e2", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3",
         0x652a607ca3f242c1ULL},
        {"e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4",
         0x00fdd303c946bdd9ULL},
        {"a2a4 b7b5 h2h4 b5b4 c2c4", "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
         0x3c8123ea7b067637ULL},
        {"a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4",
         0x5c3f9b829b279560ULL},
    };
    for (size_t i = 0; i < sizeof Cases / sizeof Cases[0]; i++) {
        char err[256];
        bool ok = pos_set_fen(&Pos, Cases[i].fen, false, err, sizeof err);
        CHECK_EACH(ok, "FEN %s: %s", Cases[i].fen, err);
        CHECK_EACH(pos_key(&Pos) == Cases[i].key, "key of %s is %016llx, Polyglot says %016llx", Cases[i].fen,
                   (unsigned long long)pos_key(&Pos), (unsigned long long)Cases[i].key);
        play_uci(&Pos, Cases[i].moves);
        CHECK_EACH(pos_key(&Pos) == Cases[i].key, "key after '%s' is %016llx, Polyglot says %016llx", Cases[i].moves,
                   (unsigned long long)pos_key(&Pos), (unsigned long long)Cases[i].key);
    }
}

/* Sets Pos from a FEN that must be valid. */
static void set_fen(const char *fen) {
    char err[256];
    bool ok = pos_set_fen(&Pos, fen, false, err, sizeof err);
    CHECK_EACH(ok, "FEN %s: %s", fen, err);
}

/* Polyglot move code from square names and promotion code. */
static uint16_t code_of(Square from, Square to, int promotion) {
    return (uint16_t)((promotion << 12) | (from << 6) | to);
}

/* Castling as king-takes-rook, promotions, en passant, and rejection of impossible codes. */
static void test_move_codes(void) {
    pos_set_startpos(&Pos, false);
    CHECK(book_encode_move(make_move(E2, E4)) == 0x031c, "e2e4 encodes as 0x031c");
    CHECK(book_decode_move(&Pos, 0x031c) == make_move(E2, E4), "0x031c decodes as e2e4");
    CHECK(book_decode_move(&Pos, code_of(E2, E5, 0)) == MOVE_NONE, "e2e5 is not legal");
    CHECK(book_decode_move(&Pos, 0) == MOVE_NONE, "code 0 is no move");
    CHECK(book_decode_move(&Pos, code_of(E2, E4, 5)) == MOVE_NONE, "promotion code 5 is rejected");
    CHECK(book_decode_move(&Pos, 0x8000 | 0x031c) == MOVE_NONE, "bit 15 is rejected");
    for (int promotion = 1; promotion <= 4; promotion++) {
        CHECK_EACH(book_decode_move(&Pos, code_of(G1, F3, promotion)) == MOVE_NONE, "knight move with promotion %d",
                   promotion);
        CHECK_EACH(book_decode_move(&Pos, code_of(E2, E4, promotion)) == MOVE_NONE, "pawn push with promotion %d",
                   promotion);
    }

    set_fen("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    Move oo = make_special(E1, H1, MOVE_CASTLING), ooo = make_special(E1, A1, MOVE_CASTLING);
    CHECK(book_decode_move(&Pos, code_of(E1, H1, 0)) == oo, "e1h1 is white O-O");
    CHECK(book_decode_move(&Pos, code_of(E1, A1, 0)) == ooo, "e1a1 is white O-O-O");
    CHECK(book_decode_move(&Pos, code_of(E1, G1, 0)) == oo, "e1g1 (non-standard books) is white O-O");
    CHECK(book_decode_move(&Pos, code_of(E1, C1, 0)) == ooo, "e1c1 (non-standard books) is white O-O-O");
    CHECK(book_encode_move(oo) == code_of(E1, H1, 0), "white O-O encodes as e1h1");
    CHECK(book_encode_move(ooo) == code_of(E1, A1, 0), "white O-O-O encodes as e1a1");
    set_fen("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1");
    CHECK(book_decode_move(&Pos, code_of(E8, H8, 0)) == make_special(E8, H8, MOVE_CASTLING), "e8h8 is black O-O");
    CHECK(book_decode_move(&Pos, code_of(E8, A8, 0)) == make_special(E8, A8, MOVE_CASTLING),
          "e8a8 is black O-O-O");
    set_fen("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w - - 0 1");
    CHECK(book_decode_move(&Pos, code_of(E1, H1, 0)) == MOVE_NONE, "e1h1 without castling rights is illegal");

    set_fen("1n5k/P7/8/8/8/8/8/7K w - - 0 1");
    static const PieceType Promotions[] = {KNIGHT, BISHOP, ROOK, QUEEN};
    for (int i = 0; i < 4; i++) {
        Move push = make_promotion(A7, A8, Promotions[i]), take = make_promotion(A7, B8, Promotions[i]);
        CHECK_EACH(book_encode_move(push) == code_of(A7, A8, i + 1), "promotion %d encodes with code %d", i, i + 1);
        CHECK_EACH(book_decode_move(&Pos, code_of(A7, A8, i + 1)) == push, "a7a8 promotion code %d", i + 1);
        CHECK_EACH(book_decode_move(&Pos, code_of(A7, B8, i + 1)) == take, "a7b8 promotion code %d", i + 1);
    }
    CHECK(book_decode_move(&Pos, code_of(A7, A8, 0)) == MOVE_NONE, "a pawn reaching a8 must promote");

    set_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    CHECK(book_decode_move(&Pos, code_of(E5, F6, 0)) == make_special(E5, F6, MOVE_EN_PASSANT),
          "e5f6 is en passant");
    CHECK(book_decode_move(&Pos, code_of(E5, D6, 0)) == MOVE_NONE, "e5d6 is not en passant here");

    char text[8];
    book_code_to_text(code_of(E1, H1, 0), text);
    CHECK(strcmp(text, "e1h1") == 0, "code text %s", text);
    book_code_to_text(code_of(A7, B8, 3), text);
    CHECK(strcmp(text, "a7b8r") == 0, "code text %s", text);
}

/* A book entry as 16 big-endian bytes. */
static void pack_entry(unsigned char *p, Key key, uint16_t move, uint16_t weight, uint32_t learn) {
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(key >> (56 - 8 * i));
    p[8] = (unsigned char)(move >> 8), p[9] = (unsigned char)move;
    p[10] = (unsigned char)(weight >> 8), p[11] = (unsigned char)weight;
    for (int i = 0; i < 4; i++)
        p[12 + i] = (unsigned char)(learn >> (24 - 8 * i));
}

/* Writing merges and sorts; probing lists legal moves by weight; picking follows the weights. */
static void test_write_probe_pick(void) {
    const Key start = 0x463b96181691fc9cULL, afterE4 = 0x823c9b50fd114196ULL;
    BookEntry entries[] = {
        {afterE4, code_of(C7, C5, 0), 7, 0},
        {start, code_of(D2, D4, 0), 5, 0},
        {start, code_of(E2, E4, 0), 10, 0},
        {start, code_of(E2, E5, 0), 100, 0}, /* illegal: must never be played */
        {start, code_of(G1, F3, 0), 0, 0},   /* weight 0: listed, never picked */
        {0x0123456789abcdefULL, code_of(A2, A3, 0), 1, 0},
        {start, code_of(E2, E4, 0), 2, 0},   /* duplicate: merged to 12 */
        {0xfedcba9876543210ULL, code_of(H2, H3, 0), 1, 0},
    };
    const char *path = tmp_path("written.bin");
    char err[512];
    bool ok = book_write_entries(path, entries, sizeof entries / sizeof entries[0], err, sizeof err);
    CHECK(ok, "book_write_entries: %s", err);

    unsigned char bytes[7 * 16];
    FILE *f = fopen(path, "rb");
    size_t size = f ? fread(bytes, 1, sizeof bytes + 1, f) : 0;
    if (f) fclose(f);
    CHECK(size == 7 * 16, "7 entries after merging, file has %zu bytes", size);
    unsigned char expect[16];
    pack_entry(expect, 0x0123456789abcdefULL, code_of(A2, A3, 0), 1, 0);
    CHECK(memcmp(bytes, expect, 16) == 0, "first entry: lowest key, big-endian");
    pack_entry(expect, start, code_of(E2, E5, 0), 100, 0);
    CHECK(size == 7 * 16 && memcmp(bytes + 16, expect, 16) == 0, "within a key, highest weight first");
    pack_entry(expect, start, code_of(E2, E4, 0), 12, 0);
    CHECK(size == 7 * 16 && memcmp(bytes + 32, expect, 16) == 0, "duplicates merged");

    Book book = {0};
    ok = book_open(&book, path, err, sizeof err);
    CHECK(ok && book.count == 7, "book_open: %s", ok ? "" : err);
    pos_set_startpos(&Pos, false);
    BookMove moves[MAX_MOVES];
    int n = book_probe(&book, &Pos, moves, MAX_MOVES);
    CHECK(n == 3, "3 legal book moves at the start, got %d", n);
    CHECK(n == 3 && moves[0].move == make_move(E2, E4) && moves[0].weight == 12, "e2e4 first, weight 12");
    CHECK(n == 3 && moves[1].move == make_move(D2, D4) && moves[1].weight == 5, "d2d4 second, weight 5");
    CHECK(n == 3 && moves[2].move == make_move(G1, F3) && moves[2].weight == 0, "g1f3 last, weight 0");
    CHECK(book_probe(&book, &Pos, moves, 1) == 1 && moves[0].move == make_move(E2, E4), "max limits the list");
    const BookEntry *first;
    CHECK(book_entries_for_key(&book, start, &first) == 4 && first[0].key == start && first[0].weight == 100,
          "4 raw entries for the start key, the illegal one first");
    CHECK(book_entries_for_key(&book, 0x0123456789abcdeeULL, &first) == 0, "no raw entries for an absent key");
    CHECK(book_entries_for_key(&book, 0xffffffffffffffffULL, &first) == 0, "no raw entries past the last key");

    uint64_t rng = 12345;
    CHECK(book_pick(&book, &Pos, true, &rng) == make_move(E2, E4), "best pick is e2e4");
    int e4 = 0, d4 = 0, other = 0;
    const int Picks = 3400;
    for (int i = 0; i < Picks; i++) {
        Move m = book_pick(&book, &Pos, false, &rng);
        e4 += m == make_move(E2, E4);
        d4 += m == make_move(D2, D4);
        other += m != make_move(E2, E4) && m != make_move(D2, D4);
    }
    CHECK(other == 0, "only weighted legal moves are picked (%d others)", other);
    CHECK(e4 > Picks * 12 / 17 - 150 && e4 < Picks * 12 / 17 + 150, "e2e4 picked %d of %d times, expected ~%d", e4,
          Picks, Picks * 12 / 17);
    CHECK(d4 > 0, "d2d4 picked too");

    uint64_t a = 99, b = 99;
    bool same = true;
    for (int i = 0; i < 50; i++)
        same &= book_pick(&book, &Pos, false, &a) == book_pick(&book, &Pos, false, &b);
    CHECK(same, "the same seed gives the same choices");

    play_uci(&Pos, "e2e4");
    CHECK(book_pick(&book, &Pos, true, &rng) == make_move(C7, C5), "1.e4 c5 from the book");
    play_uci(&Pos, "d2d4");
    CHECK(book_pick(&book, &Pos, false, &rng) == MOVE_NONE, "out of book after 1.d4");
    CHECK(book_probe(&book, &Pos, moves, MAX_MOVES) == 0, "no moves out of book");
    book_close(&book);
    CHECK(book.count == 0 && book.entries == NULL, "closed book is empty");
    pos_set_startpos(&Pos, false);
    CHECK(book_pick(&book, &Pos, false, &rng) == MOVE_NONE, "a closed book has no moves");
}

/* Expects book_open to fail on path with a message containing words (each check one over every bad file). */
static void expect_rejected(const char *path, const char *words, const char *what) {
    Book book = {0};
    char err[512] = "";
    bool ok = book_open(&book, path, err, sizeof err);
    CHECK_EACH(!ok, "%s: book accepted", what);
    CHECK_EACH(strstr(err, words) != NULL, "%s: message '%s' lacks '%s'", what, err, words);
    CHECK_EACH(book.count == 0, "%s: rejected book is empty", what);
    uint64_t rng = 1;
    pos_set_startpos(&Pos, false);
    CHECK_EACH(book_pick(&book, &Pos, false, &rng) == MOVE_NONE, "%s: rejected book gives no move", what);
    book_close(&book);
}

/* Missing, empty, truncated, unsorted and garbage files are refused with a clear message. */
static void test_validation(void) {
    expect_rejected(tmp_path("no-such-book.bin"), "cannot open", "missing file");
    expect_rejected(TmpDir, "is a directory", "directory");
    /* A FIFO is refused, never opened for a read that would wait for a writer (issue #38). */
    if (mkfifo(tmp_path("fifo.bin"), 0600) == 0) expect_rejected(tmp_path("fifo.bin"), "not a regular file (a FIFO)", "FIFO");
    write_file(tmp_path("empty.bin"), "", 0);
    expect_rejected(tmp_path("empty.bin"), "empty", "empty file");

    unsigned char data[4096];
    pack_entry(data, 0x463b96181691fc9cULL, 0x031c, 1, 0);
    pack_entry(data + 16, 0x823c9b50fd114196ULL, code_of(C7, C5, 0), 1, 0);
    write_file(tmp_path("truncated.bin"), data, 17);
    expect_rejected(tmp_path("truncated.bin"), "multiple of 16", "truncated file");

    unsigned char swapped[32];
    memcpy(swapped, data + 16, 16);
    memcpy(swapped + 16, data, 16);
    write_file(tmp_path("unsorted.bin"), swapped, 32);
    expect_rejected(tmp_path("unsorted.bin"), "not sorted", "unsorted file");

    pack_entry(data + 16, 0x823c9b50fd114196ULL, 0x7000 | code_of(C7, C5, 0), 1, 0);
    write_file(tmp_path("badmove.bin"), data, 32);
    expect_rejected(tmp_path("badmove.bin"), "impossible move", "bad move code");

    uint64_t rng = 2024;
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (unsigned char)book_random(&rng);
    write_file(tmp_path("garbage.bin"), data, sizeof data);
    expect_rejected(tmp_path("garbage.bin"), "not a valid Polyglot book", "random bytes");

    static const char Text[] = "[Event \"this is a PGN file, not a book\"]\n[Site \"x\"]\n\n1. e4 e5 2. Nf3 1-0\n\n";
    write_file(tmp_path("text.bin"), Text, 64);
    expect_rejected(tmp_path("text.bin"), "not a valid Polyglot book", "text file");

    /* A failed open replaces a good book: the engine then plays without one. */
    Book book = {0};
    char err[512];
    pack_entry(data, 0x463b96181691fc9cULL, 0x031c, 1, 0);
    write_file(tmp_path("good.bin"), data, 16);
    CHECK(book_open(&book, tmp_path("good.bin"), err, sizeof err) && book.count == 1, "good book opens");
    CHECK(!book_open(&book, tmp_path("truncated.bin"), err, sizeof err) && book.count == 0,
          "failed reopen leaves the book empty");
    book_close(&book);
}

/* The builder follows Polyglot's make-book: 2*wins+draws, min games, sides, halving at 16384. */
static void test_builder(void) {
    const Key start = 0x463b96181691fc9cULL, afterE4 = 0x823c9b50fd114196ULL;
    BookBuilder *b = book_builder_new();
    CHECK(b != NULL, "builder");
    if (!b) return;
    Move e4 = make_move(E2, E4), d4 = make_move(D2, D4), c4 = make_move(C2, C4), c5 = make_move(C7, C5);
    book_builder_add(b, start, e4, WHITE, 2);
    book_builder_add(b, start, e4, WHITE, 1);
    book_builder_add(b, start, e4, WHITE, 0);
    book_builder_add(b, start, d4, WHITE, 0); /* only lost: score 0, dropped */
    book_builder_add(b, start, d4, WHITE, 0);
    book_builder_add(b, start, d4, WHITE, 0);
    book_builder_add(b, start, c4, WHITE, 2); /* one game: dropped by min games 3 */
    book_builder_add(b, afterE4, c5, BLACK, 1);
    CHECK(book_builder_size(b) == 4, "4 distinct pairs, got %zu", book_builder_size(b));

    Book book = {0};
    char err[512];
    BookFilter filter = book_filter_default();
    CHECK(filter.minGames == 3, "Polyglot's default minimum is 3 games");
    long n = book_builder_write(b, &filter, tmp_path("built.bin"), err, sizeof err);
    CHECK(n == 1, "min games 3 keeps only e2e4, wrote %ld", n);
    filter.minGames = 1;
    n = book_builder_write(b, &filter, tmp_path("built.bin"), err, sizeof err);
    CHECK(n == 3, "min games 1 keeps e2e4, c2c4, c7c5, wrote %ld", n);
    book_open(&book, tmp_path("built.bin"), err, sizeof err);
    pos_set_startpos(&Pos, false);
    BookMove moves[MAX_MOVES];
    int count = book_probe(&book, &Pos, moves, MAX_MOVES);
    CHECK(count == 2 && moves[0].move == e4 && moves[0].weight == 3, "e2e4 weight 2+1+0 = 3");
    CHECK(count == 2 && moves[1].move == c4 && moves[1].weight == 2, "c2c4 weight 2");
    filter.onlyBlack = true;
    n = book_builder_write(b, &filter, tmp_path("built.bin"), err, sizeof err);
    CHECK(n == 1, "only black keeps c7c5, wrote %ld", n);
    filter.onlyBlack = false, filter.onlyWhite = true;
    n = book_builder_write(b, &filter, tmp_path("built.bin"), err, sizeof err);
    CHECK(n == 2, "only white keeps 2, wrote %ld", n);
    CHECK(book_builder_write(b, &filter, tmp_path("no-such-dir/x.bin"), err, sizeof err) == -1 && err[0],
          "unwritable path reported");

    /* Halving: when a move reaches 16384 games, every move of that position is halved, rounding up. */
    for (int i = 0; i < 16384 - 3 - 1; i++)
        book_builder_add(b, start, e4, WHITE, 1);
    filter = book_filter_default();
    filter.minGames = 1;
    book_builder_write(b, &filter, tmp_path("built.bin"), err, sizeof err);
    book_open(&book, tmp_path("built.bin"), err, sizeof err);
    count = book_probe(&book, &Pos, moves, MAX_MOVES);
    CHECK(count == 2 && moves[0].weight == 3 + 16380, "before halving e2e4 has %d", count ? moves[0].weight : -1);
    book_builder_add(b, start, e4, WHITE, 1); /* the 16384th game */
    book_builder_write(b, &filter, tmp_path("built.bin"), err, sizeof err);
    book_open(&book, tmp_path("built.bin"), err, sizeof err);
    count = book_probe(&book, &Pos, moves, MAX_MOVES);
    CHECK(count == 2 && moves[0].move == e4 && moves[0].weight == (3 + 16381 + 1) / 2,
          "halved e2e4 weight %d", count ? moves[0].weight : -1);
    CHECK(count == 2 && moves[1].move == c4 && moves[1].weight == 1, "halved c2c4 weight (2+1)/2 = 1");
    book_close(&book);
    book_builder_free(b);
}

/* Reads every game of a text; returns the number of games, counting bad ones in *bad. */
static int read_all(const char *text, int *bad) {
    PgnReader *r = pgn_open_buffer(text, strlen(text), "buffer");
    PgnGame g = {0};
    int games = 0;
    *bad = 0;
    PgnStatus s;
    while ((s = pgn_next_game(r, &g)) != PGN_EOF && games < 10000) {
        games++;
        *bad += s == PGN_BAD_GAME;
    }
    pgn_game_free(&g);
    pgn_close(r);
    return games;
}

/* Tags, comments, escapes, variations, NAGs, numbering, annotations and results are all accepted. */
static void test_pgn_tolerance(void) {
    static const char Text[] =
        "\xEF\xBB\xBF; a comment line before the first game\r\n"
        "% an escape line\r\n"
        "[Event \"Tolerance \\\"test\\\"\"]\r\n"
        "[Site \"?\"]  [Round \"1\"]\r\n"
        "[Result \"1-0\"]\r\n"
        "\r\n"
        "1.e4 {Best by test} e5 2. Nf3 $1 Nc6!? 3. Bb5 (3. Bc4 Bc5 (3... Nf6 4. Ng5) 4. c3) 3... a6 $14\r\n"
        "4.Ba4 Nf6 5. 0-0 Be7 ; the closed Ruy Lopez\r\n"
        "%escape inside the moves\r\n"
        "6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8!! 10. d4 Nbd7 11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4\r\n"
        "15. Nb1 h6 16. Bh4 c5 17. dxe5 Nxe4 18. Bxe7 Qxe7 19. exd6 Qf6 20. Nbd2 Nxd6 21. Nc4 Nxc4 22. Bxc4\r\n"
        "Nb6 23. Ne5 Rae8 24. Bxf7+ Rxf7 25. Nxf7 Rxe1+ 26. Qxe1 Kxf7 27. Qe3 Qg5 28. Qxg5 hxg5 29. b3 Ke6\r\n"
        "30. a3 Kd6 31. axb4 cxb4 32. Ra5 Nd5 33. f3 Bc8 34. Kf2 Bf5 35. Ra7 g6 36. Ra6+ Kc5 37. Ke1 Nf4\r\n"
        "38. g3 Nxh3 39. Kd2 Kb5 40. Rd6 Kc5 41. Ra6 Nf2 42. g4 Bd3 43. Re6 1-0\r\n"
        "\r\n"
        "[Event \"second\"]\n"
        "[SetUp \"1\"]\n"
        "[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n"
        "\n"
        "1... c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 *\n"
        "\n"
        "1. d4 d5 2. c4 e6 1/2-1/2\n"
        "1. c4 e5 {no tags, no result}\n"
        "[Event \"after a missing result\"]\n"
        "1. Nf3 d5 2. g3 0-1\n";
    PgnReader *r = pgn_open_buffer(Text, strlen(Text), "tolerance.pgn");
    PgnGame g = {0};
    PgnStatus s = pgn_next_game(r, &g);
    CHECK(s == PGN_OK, "game 1 reads: %s", g.error);
    CHECK(g.moveCount == 85, "game 1 has 85 plies, got %d", g.moveCount);
    CHECK(g.result == PGN_WHITE_WINS, "game 1 result 1-0");
    CHECK(g.number == 1 && g.line == 3, "game 1 number %d line %d", g.number, g.line);
    const char *event = pgn_tag(&g, "Event");
    CHECK(event && strcmp(event, "Tolerance \"test\"") == 0, "escaped tag value: %s", event ? event : "(none)");
    CHECK(pgn_tag(&g, "Round") && strcmp(pgn_tag(&g, "Round"), "1") == 0, "two tags on one line");
    CHECK(g.tagCount == 4, "4 tags, got %d", g.tagCount);
    if (g.moveCount >= 9) {
        CHECK(g.moves[8] == make_special(E1, H1, MOVE_CASTLING), "0-0 is castling");
        CHECK(g.moves[2] == make_move(G1, F3) && g.moves[4] == make_move(F1, B5), "variations are skipped");
    }
    pgn_game_position(&g, g.moveCount, &Pos);
    char fen[128];
    pos_get_fen(&Pos, fen);
    CHECK(strcmp(fen, "8/8/4R1p1/2k3p1/1p4P1/1P1b1P2/3K1n2/8 b - - 2 43") == 0, "final position %s", fen);

    s = pgn_next_game(r, &g);
    CHECK(s == PGN_OK, "game 2 reads: %s", g.error);
    CHECK(g.moveCount == 9 && g.result == PGN_RESULT_UNKNOWN, "game 2: 9 plies from a FEN, result *");
    CHECK(strncmp(g.fen, "rnbqkbnr/pppppppp/8/8/4P3", 25) == 0, "game 2 starts from its FEN");
    pgn_game_position(&g, 1, &Pos);
    CHECK(pos_side_to_move(&Pos) == WHITE && pos_piece_on(&Pos, C5) == B_PAWN, "replay of game 2 after 1...c5");

    s = pgn_next_game(r, &g);
    CHECK(s == PGN_OK && g.moveCount == 4 && g.result == PGN_DRAW && g.tagCount == 0,
          "game 3: no tags, result from the termination marker");
    s = pgn_next_game(r, &g);
    CHECK(s == PGN_OK && g.moveCount == 2 && g.result == PGN_RESULT_UNKNOWN, "game 4 ends at the next tags");
    s = pgn_next_game(r, &g);
    CHECK(s == PGN_OK && g.moveCount == 3 && g.result == PGN_BLACK_WINS, "game 5 after a missing result");
    CHECK(pgn_next_game(r, &g) == PGN_EOF, "then the end");
    CHECK(pgn_next_game(r, &g) == PGN_EOF, "and the end again");
    pgn_game_free(&g);
    pgn_close(r);
}

/* Faulty games are reported with their line and skipped; the following games still read. */
static void test_pgn_errors(void) {
    static const struct {
        const char *text, *words;
    } Bad[] = {
        {"1. e4 e5 2. Ke3 Nc6 *", "illegal or ambiguous move 'Ke3' at 2."},
        {"1. e4 e5 2. Nf3 Nc6 3. Nd5 *", "'Nd5' at 3."},
        {"[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1\"]\n[SetUp \"1\"]\n1. e4 *",
         "bad FEN"},
        {"[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n1. e4 *", "bad FEN"},
        {"[Event \"unterminated]\n1. e4 *", "not closed"},
        {"[Event]\n1. e4 *", "malformed tag"},
        {"1. e4 ) e5 *", "')' without"},
        {"1. e4 (1. d4 d5 *", "never closed"},
        {"1. e4 {never closed", "never closed"},
        {"1. e4 -- 2. d4 *", "null move"},
        {"1. e4 $ e5 *", "NAG"},
        {"1. e4 e5 2. Nf3 Nc6xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx *", "too long"},
        {"1. e4 \"e5\" *", "unexpected"},
        {"1. ♘f3 *", "illegal"},
    };
    for (size_t i = 0; i < sizeof Bad / sizeof Bad[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "%s\n\n[Event \"next\"]\n1. d4 Nf6 2. c4 g6 1/2-1/2\n", Bad[i].text);
        PgnReader *r = pgn_open_buffer(text, strlen(text), "bad.pgn");
        PgnGame g = {0};
        PgnStatus s = pgn_next_game(r, &g);
        const char *words = Bad[i].words;
        CHECK_EACH(s == PGN_BAD_GAME, "case %zu (%s) is rejected", i, Bad[i].text);
        CHECK_EACH(strstr(g.error, words) != NULL, "case %zu: message '%s' lacks '%s'", i, g.error, words);
        CHECK_EACH(strncmp(g.error, "bad.pgn:", 8) == 0, "case %zu: message names the file: %s", i, g.error);
        s = pgn_next_game(r, &g);
        bool unclosed = strstr(Bad[i].text, "{never") != NULL;
        if (unclosed)
            CHECK_EACH(s == PGN_EOF, "case %zu: an unclosed comment ends the input", i);
        else
            CHECK_EACH(s == PGN_OK && g.moveCount == 4 && g.number == 2, "case %zu: the next game reads (%d, %s)", i, s,
                       g.error);
        pgn_game_free(&g);
        pgn_close(r);
    }

    PgnReader *r = pgn_open_buffer("1. e4 e5\n2. Nf3 Nc6 3. Bb5 Nf7 *", 33, "line.pgn");
    PgnGame g = {0};
    pgn_next_game(r, &g);
    CHECK(strstr(g.error, "line.pgn:2: game 1:") != NULL, "error names the line: %s", g.error);
    CHECK(g.moveCount == 5, "moves before the fault are kept, got %d", g.moveCount);
    pgn_game_free(&g);
    pgn_close(r);

    char err[256] = "";
    CHECK(pgn_open(tmp_path("missing.pgn"), err, sizeof err) == NULL && strstr(err, "cannot open"),
          "missing PGN file: %s", err);

    /* Binary garbage ends, reporting only bad games. */
    static char junk[20000];
    uint64_t rng = 7;
    for (size_t i = 0; i + 1 < sizeof junk; i++) {
        junk[i] = (char)(book_random(&rng) & 0xFF);
        if (junk[i] == 0) junk[i] = ' ';
    }
    int bad, games = read_all(junk, &bad);
    CHECK(games < 10000 && bad == games, "garbage: %d games, %d bad", games, bad);

    /* Streams work too. */
    FILE *f = tmpfile();
    CHECK(f != NULL, "tmpfile");
    if (f) {
        fputs("1. e4 e5 2. Nf3 *\n1. d4 *\n", f);
        rewind(f);
        r = pgn_open_stream(f, "stream");
        PgnGame sg = {0};
        CHECK(pgn_next_game(r, &sg) == PGN_OK && sg.moveCount == 3, "stream game 1");
        CHECK(pgn_next_game(r, &sg) == PGN_OK && sg.moveCount == 1, "stream game 2");
        CHECK(pgn_next_game(r, &sg) == PGN_EOF, "stream end");
        pgn_game_free(&sg);
        pgn_close(r);
        fclose(f);
    }
}

/* bookmaker_make weights moves by results from each mover's side and skips bad games. */
static void test_bookmaker(void) {
    static const char Text[] = "[Result \"1-0\"]\n1. e4 e5 2. Nf3 1-0\n"
                               "[Result \"0-1\"]\n1. e4 c5 0-1\n"
                               "[Result \"1/2-1/2\"]\n1. d4 d5 1/2-1/2\n"
                               "1. e4 Nf6 2. Ke2 *\n" /* counted as a draw */
                               "1. e4 e5 2. Ke3 *\n";  /* illegal: skipped */
    char pgn[256];
    snprintf(pgn, sizeof pgn, "%s", tmp_path("maker.pgn"));
    write_file(pgn, Text, sizeof Text - 1);
    BookMakeOptions options = bookmaker_options_default();
    CHECK(options.maxPly == 1024 && options.filter.minGames == 3, "Polyglot defaults");
    options.filter.minGames = 1;
    options.quiet = true;
    BookMakeStats stats;
    char err[512];
    const char *files[] = {pgn};
    bool ok = bookmaker_make(files, 1, tmp_path("maker.bin"), &options, &stats, NULL, err, sizeof err);
    CHECK(ok, "bookmaker_make: %s", err);
    CHECK(stats.games == 5 && stats.skipped == 1, "5 games, 1 skipped: %ld %ld", stats.games, stats.skipped);
    Book book = {0};
    book_open(&book, tmp_path("maker.bin"), err, sizeof err);
    pos_set_startpos(&Pos, false);
    BookMove moves[MAX_MOVES];
    int n = book_probe(&book, &Pos, moves, MAX_MOVES);
    CHECK(n == 2 && moves[0].move == make_move(E2, E4) && moves[0].weight == 2 + 0 + 1,
          "e2e4: win 2 + loss 0 + draw 1");
    CHECK(n == 2 && moves[1].move == make_move(D2, D4) && moves[1].weight == 1, "d2d4: draw 1");
    play_uci(&Pos, "e2e4");
    n = book_probe(&book, &Pos, moves, MAX_MOVES);
    CHECK(n == 2 && moves[0].move == make_move(C7, C5) && moves[0].weight == 2, "c7c5 won for black");
    CHECK(n == 2 && moves[1].move == make_move(G8, F6) && moves[1].weight == 1, "g8f6 drew");

    options.maxPly = 1;
    bookmaker_make(files, 1, tmp_path("maker.bin"), &options, &stats, NULL, err, sizeof err);
    CHECK(stats.written == 2, "max ply 1 keeps the first moves only, wrote %ld", stats.written);
    options.strict = true;
    ok = bookmaker_make(files, 1, tmp_path("strict.bin"), &options, &stats, NULL, err, sizeof err);
    CHECK(!ok && strstr(err, "Ke3") && access(tmp_path("strict.bin"), F_OK) != 0, "strict mode refuses: %s", err);
    book_close(&book);
}

/* Gizum's own book: the PGN reads cleanly and the built book holds every line. */
static void test_own_book(void) {
    char err[512];
    PgnReader *r = pgn_open("books/gizum-lines.pgn", err, sizeof err);
    CHECK(r != NULL, "%s", err);
    Book book = {0};
    bool ok = book_open(&book, "books/gizum.bin", err, sizeof err);
    CHECK(ok, "%s", err);
    if (!r || !ok) {
        pgn_close(r);
        return;
    }
    PgnGame g = {0};
    PgnStatus s;
    int games = 0, bad = 0, shortLines = 0, longLines = 0, missing = 0;
    while ((s = pgn_next_game(r, &g)) != PGN_EOF) {
        games++;
        if (s == PGN_BAD_GAME) {
            bad++;
            fprintf(stderr, "%s\n", g.error);
            continue;
        }
        shortLines += g.moveCount < 10;
        longLines += g.moveCount > 18;
        pgn_game_position(&g, 0, &Pos);
        for (int i = 0; i < g.moveCount; i++) {
            BookMove moves[MAX_MOVES];
            int n = book_probe(&book, &Pos, moves, MAX_MOVES);
            bool found = false;
            for (int j = 0; j < n; j++)
                found |= moves[j].move == g.moves[i] && moves[j].weight > 0;
            if (!found && missing++ < 5) fprintf(stderr, "line at %d: ply %d not in books/gizum.bin\n", g.line, i);
            pos_do_game_move(&Pos, g.moves[i]);
        }
    }
    CHECK(bad == 0, "%d of %d lines are unreadable", bad, games);
    CHECK(games >= 300, "%d lines (want a few hundred)", games);
    CHECK(shortLines == 0 && longLines == 0, "line lengths 10-18 plies: %d short, %d long", shortLines, longLines);
    CHECK(missing == 0, "%d line moves missing from books/gizum.bin: rebuild it with make book", missing);

    static const char *const FirstMoves[] = {"e2e4", "d2d4", "c2c4", "g1f3"};
    pos_set_startpos(&Pos, false);
    BookMove moves[MAX_MOVES];
    int n = book_probe(&book, &Pos, moves, MAX_MOVES);
    for (int i = 0; i < 4; i++) {
        bool found = false;
        for (int j = 0; j < n; j++)
            found |= moves[j].move == move_from_uci(&Pos, FirstMoves[i]);
        CHECK_EACH(found, "own book has 1.%s", FirstMoves[i]);
    }
    pgn_game_free(&g);
    pgn_close(r);
    book_close(&book);
}

/* Regressions found by fuzzing: a NUL byte in movetext, probing an empty book. */
static void test_fuzz_regressions(void) {
    static const char WithNul[] = "1. e4 \0 e5 *\n";
    PgnReader *r = pgn_open_buffer(WithNul, sizeof WithNul - 1, "nul.pgn");
    PgnGame g = {0};
    int games = 0;
    while (pgn_next_game(r, &g) != PGN_EOF && games < 100) games++;
    CHECK(games >= 1 && games < 100, "a NUL byte in movetext must not stall the reader (%d games)", games);
    pgn_game_free(&g);
    pgn_close(r);

    static Position pos;
    Book empty = {0};
    const BookEntry *first = NULL;
    BookMove moves[4];
    pos_set_startpos(&pos, false);
    CHECK(book_entries_for_key(&empty, pos_key(&pos), &first) == 0 && first == NULL, "empty book has no entries");
    CHECK(book_probe(&empty, &pos, moves, 4) == 0, "empty book probes as out of book");

    /* Asked for fewer moves than the book has, the heaviest come back, not the first stored. */
    BookEntry entries[3];
    Move light = move_from_uci(&pos, "a2a3"), heavy = move_from_uci(&pos, "e2e4"), middle = move_from_uci(&pos, "d2d4");
    Move order[3] = {light, heavy, middle};
    int weights[3] = {1, 30, 20};
    for (int i = 0; i < 3; i++) entries[i] = (BookEntry){pos_key(&pos), book_encode_move(order[i]), (uint16_t)weights[i], 0};
    Book small = {entries, 3, NULL};
    CHECK(book_probe(&small, &pos, moves, 2) == 2 && moves[0].move == heavy && moves[1].move == middle,
          "book_probe(max 2) must return the two heaviest moves");
}

int main(void) {
    board_init();
    if (!mkdtemp(TmpDir)) {
        perror("mkdtemp");
        return 1;
    }
    test_polyglot_keys();
    test_move_codes();
    test_write_probe_pick();
    test_validation();
    test_builder();
    test_pgn_tolerance();
    test_pgn_errors();
    test_bookmaker();
    test_own_book();
    test_fuzz_regressions();
    static const char *const Files[] = {"written.bin", "empty.bin", "truncated.bin", "unsorted.bin", "badmove.bin",
                                        "garbage.bin", "text.bin",  "good.bin",      "built.bin",    "maker.pgn",
                                        "maker.bin",   "strict.bin.tmp"};
    for (size_t i = 0; i < sizeof Files / sizeof Files[0]; i++)
        remove(tmp_path(Files[i]));
    rmdir(TmpDir);
    return test_report();
}
