/*
 * Training data: score comments and move comments in PGN, PGN games to
 * records, EPD start positions, the shared opening walk and check, genfens
 * (legal, distinct, reproducible), and datagen's self-play output (parses
 * back, follows its filters, the same file for the same seed with any
 * number of threads).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "openings.h"
#include "pgn.h"
#include "datagen.h"
#include "dataset.h"
#include "fen.h"
#include "genfens.h"
#include "init.h"
#include "movegen.h"
#include "notation.h"
#include "position.h"
#include "searcher.h"
#include "test.h"

static Position Pos;
static char TmpDir[] = "/tmp/gizum-test-datagen-XXXXXX";

static const char *tmp_path(const char *name) {
    static char path[4][256];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", TmpDir, name);
    return p;
}

static bool write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (!f) return false;
    bool ok = fputs(text, f) != EOF;
    return fclose(f) == 0 && ok;
}

/* The whole file as a string (NULL if unreadable); the caller frees it. */
static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    if (text && fread(text, 1, (size_t)size, f) != (size_t)size) {
        free(text);
        text = NULL;
    }
    if (text) text[size] = '\0';
    fclose(f);
    return text;
}

/* ------------------------------------------------------------ comments */

static void test_score_comments(void) {
    static const struct {
        const char *text;
        bool ok, mate;
        int cp;
    } Cases[] = {
        {"+0.35/12 0.48s", true, false, 35},           /* cutechess */
        {"-1.20/9 0.101s, n=5120, sd=14", true, false, -120}, /* fastchess with extras */
        {"0.00/0 0s", true, false, 0},
        {"+12.5/20", true, false, 1250},
        {"-0.005/3", true, false, -1},                 /* rounded half up in magnitude */
        {"+M5/20 0.5s", true, true, DATASET_SCORE_MAX},
        {"-M3/18", true, true, -DATASET_SCORE_MAX},
        {"book", false, false, 0},
        {"?/12 0.5s", false, false, 0},                /* gizum-match without a score */
        {"White mates", false, false, 0},
        {"0.35 12", false, false, 0},                  /* no depth: not an engine comment */
        {"+.5/3", false, false, 0},
        {"12345.00/3", false, false, 0},
    };
    int good = 0;
    for (size_t i = 0; i < sizeof Cases / sizeof Cases[0]; i++) {
        int cp = 7;
        bool mate = false;
        bool ok = dataset_parse_score_comment(Cases[i].text, &cp, &mate);
        bool right = ok == Cases[i].ok && (!ok || (cp == Cases[i].cp && mate == Cases[i].mate));
        if (!right) fprintf(stderr, "comment '%s': ok %d cp %d mate %d\n", Cases[i].text, ok, cp, mate);
        good += right;
    }
    CHECK(good == (int)(sizeof Cases / sizeof Cases[0]), "score comments: %d of %zu read right", good,
          sizeof Cases / sizeof Cases[0]);
}

static void test_pgn_move_comments(void) {
    static const char Text[] =
        "[Result \"1-0\"]\n\n"
        "{game comment} 1. e4 {+0.30/10\n 0.1s} e5 $1 {after a NAG} 2. Nf3 {first} {second}\n"
        "(2. f4 {in a variation}) Nc6 3. Bb5 1-0\n";
    PgnReader *r = pgn_open_buffer(Text, strlen(Text), "comments.pgn");
    PgnGame g = {0};
    CHECK(pgn_next_game(r, &g) == PGN_OK && g.moveCount == 5, "comment game read: %s", g.error);
    const char *c0 = pgn_move_comment(&g, 0), *c1 = pgn_move_comment(&g, 1), *c2 = pgn_move_comment(&g, 2);
    CHECK(c0 && strcmp(c0, "+0.30/10 0.1s") == 0, "comment of move 1, line break as a space: '%s'", c0 ? c0 : "(none)");
    CHECK(c1 && strcmp(c1, "after a NAG") == 0, "comment after a NAG belongs to its move");
    CHECK(c2 && strcmp(c2, "first") == 0, "the first of two comments is kept");
    CHECK(!pgn_move_comment(&g, 3) && !pgn_move_comment(&g, 4) && !pgn_move_comment(&g, 5),
          "no comment where none follows (and none from the variation, none out of range)");
    CHECK(pgn_next_game(r, &g) == PGN_EOF, "one game only");
    pgn_game_free(&g);
    pgn_close(r);
}

/* ------------------------------------------------------------ PGN to records */

typedef struct {
    DataRecord recs[64];
    int count;
} Collected;

static bool collect(const DataRecord *rec, void *ctx) {
    Collected *c = ctx;
    if (c->count < 64) c->recs[c->count++] = *rec;
    return true;
}

static void test_read_pgn(void) {
    const char *path = tmp_path("games.pgn");
    write_file(path,
               "[Event \"cutechess-style\"]\n[Result \"0-1\"]\n\n"
               "1. e4 {book} e5 {book} 2. Nf3 {+0.35/12 0.48s} Nc6 {-0.20/11 0.30s}\n"
               "3. Bb5 {+0.41/13 0.5s} a6 {-M5/20 1s} 4. Bxc6 {+1.00/10} dxc6 {no score}\n"
               "5. O-O {+0.50/9 0.1s} Bg4 {-0.10/9} 6. h3 0-1\n\n"
               "[Event \"broken\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n\n"
               "[Event \"unfinished\"]\n\n1. d4 {+0.10/5} d5 *\n");
    Collected c = {.count = 0};
    DatasetPgnStats stats = {0};
    char err[256] = "";
    bool ok = dataset_read_pgn(path, NULL, collect, &c, &stats, err, sizeof err);
    CHECK(ok && stats.games == 1 && stats.skippedGames == 2, "games read %ld, skipped %ld (%s)", stats.games,
          stats.skippedGames, err);
    /* Kept: before Nf3, Nc6, Bb5, O-O, Bg4 (scored), before dxc6 is a capture; before h3 unscored. */
    CHECK(c.count == 6 && stats.records == 6, "%d records from the game", c.count);
    CHECK(c.count >= 2 && c.recs[0].hasScore && c.recs[0].score == 35 && c.recs[1].score == 20,
          "scores are White's view (black's -0.20 is +20)");
    int unscored = 0, wrongResult = 0, inCheck = 0;
    for (int i = 0; i < c.count; i++) {
        unscored += !c.recs[i].hasScore;
        wrongResult += c.recs[i].result != 0.0;
        inCheck += pos_set_fen(&Pos, c.recs[i].fen, false, NULL, 0) && pos_in_check(&Pos);
    }
    CHECK(unscored == 1 && wrongResult == 0 && inCheck == 0, "one unscored record, all 0-1, none in check");

    Collected scoredOnly = {.count = 0};
    DatasetPgnOptions options = {4, true, NULL};
    DatasetPgnStats stats2 = {0};
    dataset_read_pgn(path, &options, collect, &scoredOnly, &stats2, err, sizeof err);
    CHECK(scoredOnly.count == 3, "skip 4 plies and require a score: %d records", scoredOnly.count);

    CHECK(!dataset_read_pgn(tmp_path("missing.pgn"), NULL, collect, &c, &stats, err, sizeof err)
              && strstr(err, "cannot open"),
          "a missing PGN file is reported: '%s'", err);
}

/* ------------------------------------------------------------ EPD and openings */

static void test_epd(void) {
    char fen[128];
    CHECK(fen_from_epd("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 0; fmvn 1; id \"x\";", fen,
                       sizeof fen)
              && strcmp(fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1") == 0,
          "EPD with hmvc/fmvn: %s", fen);
    CHECK(fen_from_epd("8/8/8/4k3/8/8/4P3/4K3 w - - 3 40", fen, sizeof fen)
              && strcmp(fen, "8/8/8/4k3/8/8/4P3/4K3 w - - 3 40") == 0,
          "a FEN saved as EPD keeps its counters");
    CHECK(fen_from_epd("8/8/8/4k3/8/8/4P3/4K3 w - - bm Kd2;", fen, sizeof fen)
              && strcmp(fen, "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1") == 0,
          "EPD without counters gets 0 1");
    CHECK(!fen_from_epd("8/8/8 w -", fen, sizeof fen), "fewer than four fields is not EPD");

    const char *path = tmp_path("starts.epd");
    write_file(path, "# comment\n\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\nnot a position\n"
                     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1\n"
                     "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\n");
    char err[256] = "";
    OpeningList list;
    bool ok = openings_load_epd(path, &list, NULL, NULL, err, sizeof err);
    CHECK(ok && list.count == 2, "two valid positions of four lines: %d", ok ? list.count : -1);
    openings_free_list(&list);
    CHECK(!openings_load_epd(tmp_path("none.epd"), &list, NULL, NULL, err, sizeof err) && strstr(err, "cannot open"),
          "a missing EPD file is reported");
    write_file(tmp_path("empty.epd"), "# nothing\nfoo bar\n");
    CHECK(!openings_load_epd(tmp_path("empty.epd"), &list, NULL, NULL, err, sizeof err)
              && strstr(err, "no valid position"),
          "an EPD file without positions is reported: %s", err);
}

/* Collects warnings into a buffer. */
static void keep_warning(void *ctx, const char *message) {
    char *buf = ctx;
    size_t n = strlen(buf);
    snprintf(buf + n, 2048 - n, "%s\n", message);
}

static void test_epd_warnings(void) {
    const char *path = tmp_path("warn.epd");
    write_file(path, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nxyz\n"
                     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
                     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1\n");
    static char warnings[2048];
    char err[256], expect1[300], expect2[300];
    OpeningList list;
    bool ok = openings_load_epd(path, &list, keep_warning, warnings, err, sizeof err);
    snprintf(expect1, sizeof expect1, "%s:2: ", path);
    snprintf(expect2, sizeof expect2, "%s:4: bad position", path);
    CHECK(ok && list.count == 2 && strstr(warnings, expect1) && strstr(warnings, expect2),
          "bad EPD lines are named file:line and skipped:\n%s", warnings);
    if (ok) openings_free_list(&list);
}

static void test_walk_and_check(void) {
    Searcher *s = searcher_create(4);
    OpeningSource none;
    char err[64];
    CHECK(s && openings_open_source(&none, "None", NULL, NULL, err, sizeof err), "searcher and source");
    if (!s) return;
    OpeningRecipe recipe;
    openings_default_recipe(&recipe, &none);
    static Position a, b;
    uint64_t rngA = 99, rngB = 99;
    bool madeA = openings_make(&recipe, s, &rngA, &a, 100), madeB = openings_make(&recipe, s, &rngB, &b, 100);
    CHECK(madeA && madeB && pos_key(&a) == pos_key(&b) && rngA == rngB, "the same seed makes the same opening");
    CHECK(madeA && a.gamePly >= 8 && a.gamePly <= 9, "8-9 random plies from the start: %d", a.gamePly);
    SearcherResult r;
    searcher_new_game(s);
    searcher_search(s, &a, recipe.depth, 0, &r);
    CHECK(r.best != MOVE_NONE && r.score >= -recipe.margin && r.score <= recipe.margin,
          "the opening is balanced: %d cp", r.score);
    pos_set_fen(&b, "4k3/8/8/8/8/8/8/QQQ1K3 w - - 0 1", false, NULL, 0);
    CHECK(!openings_balanced(&recipe, s, &b), "a lost position fails the check");
    pos_set_fen(&b, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", false, NULL, 0);
    CHECK(!openings_balanced(&recipe, s, &b), "a stalemate fails the check");
    openings_close_source(&none);
    searcher_destroy(s);
}

/* ------------------------------------------------------------ genfens */

typedef struct {
    char lines[64][160];
    int count;
    char messages[1024];
} Printed;

static void print_line(void *ctx, const char *line) {
    Printed *p = ctx;
    if (strncmp(line, "genfens ", 8) == 0 && p->count < 64) snprintf(p->lines[p->count++], 160, "%s", line + 8);
    else snprintf(p->messages + strlen(p->messages), sizeof p->messages - strlen(p->messages), "%s\n", line);
}

static int genfens_words(const char *command, Printed *out) {
    char buf[512];
    const char *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", command);
    for (char *w = strtok(buf, " "); w && argc < 32; w = strtok(NULL, " ")) argv[argc++] = w;
    memset(out, 0, sizeof *out);
    return genfens_run(argc, argv, print_line, out);
}

static void test_genfens(void) {
    static Printed a, b, c;
    int n = genfens_words("12 seed 7 book None", &a);
    CHECK(n == 12 && a.count == 12, "genfens 12 printed %d positions", a.count);
    int legal = 0, sixFields = 0, distinct = 0;
    for (int i = 0; i < a.count; i++) {
        legal += pos_set_fen(&Pos, a.lines[i], false, NULL, 0) && count_legal(&Pos) > 0;
        int spaces = 0;
        for (const char *p = a.lines[i]; *p; p++) spaces += *p == ' ';
        sixFields += spaces == 5;
        bool again = false;
        for (int j = 0; j < i; j++) again |= strcmp(a.lines[i], a.lines[j]) == 0;
        distinct += !again;
    }
    CHECK(legal == a.count, "every genfens position is legal with legal moves");
    CHECK(sixFields == a.count, "every genfens FEN has six fields (OpenBench reads the counters)");
    CHECK(distinct == a.count, "genfens positions are distinct");
    genfens_words("12 seed 7 book None", &b);
    CHECK(memcmp(a.lines, b.lines, sizeof a.lines) == 0, "the same seed gives the same positions");
    genfens_words("12 seed 8 book None", &c);
    CHECK(memcmp(a.lines, c.lines, sizeof a.lines) != 0, "another seed gives other positions");
    genfens_words("12 seed 4294967303 book None", &c); /* 7 + 2^32: the upper half of the seed counts */
    CHECK(memcmp(a.lines, c.lines, sizeof a.lines) != 0, "all 64 bits of the seed are used");

    CHECK(genfens_words("3 seed 1 book None plies 2-2 depth 4 margin 300 whatever", &c) == 3 && c.count == 3
              && strstr(c.messages, "ignoring extra word 'whatever'"),
          "extras are applied and unknown ones named: %s", c.messages);
    int twoPlies = 0;
    for (int i = 0; i < c.count; i++)
        twoPlies += pos_set_fen(&Pos, c.lines[i], false, NULL, 0) && Pos.gamePly == 2;
    CHECK(twoPlies == 3, "plies 2-2 gives positions two plies deep");
    CHECK(genfens_words("3 seed 1", &c) == -1 && strstr(c.messages, "expected 'genfens N seed S book"),
          "missing words are reported");
    CHECK(genfens_words("x seed 1 book None", &c) == -1 && strstr(c.messages, "N must be"), "a bad count is reported");
    CHECK(genfens_words("2 seed -1 book None", &c) == -1 && strstr(c.messages, "unsigned 64-bit"),
          "a bad seed is reported");
    CHECK(genfens_words("2 seed 1 book /nonexistent.epd", &c) == -1 && strstr(c.messages, "cannot open"),
          "a missing book is reported");
    CHECK(genfens_words("2 seed 1 book None depth x", &c) == -1 && strstr(c.messages, "'depth' needs a number"),
          "a bad extra value is reported");
}

/* ------------------------------------------------------------ self-play */

static int run_datagen(const char *options, const char *out) {
    char buf[512];
    char *argv[48];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s --out %s", options, out);
    for (char *w = strtok(buf, " "); w && argc < 48; w = strtok(NULL, " ")) argv[argc++] = w;
    return datagen_command(argc, argv);
}

static void test_self_play(void) {
    const char *one = tmp_path("one.txt"), *two = tmp_path("two.txt");
    const char *options = "--games 6 --nodes 1500 --seed 11 --skip-plies 4 --report 60";
    char withThreads[256];
    snprintf(withThreads, sizeof withThreads, "%s --threads 2", options);
    CHECK(run_datagen(options, one) == 0, "datagen runs");
    CHECK(run_datagen(withThreads, two) == 0, "datagen runs on two threads");
    char *a = read_file(one), *b = read_file(two);
    CHECK(a && b && strcmp(a, b) == 0, "the same seed gives the same file on one and on two threads");

    int lines = 0, parsed = 0, legal = 0, inCheck = 0, results = 0, scored = 0;
    char *save = NULL;
    for (char *line = a ? strtok_r(a, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
        DataRecord rec;
        char err[128];
        lines++;
        if (dataset_parse_line(line, &rec, err, sizeof err) != DATASET_RECORD) continue;
        parsed++;
        scored += rec.hasScore && rec.score > -VALUE_MATE_IN_MAX_PLY && rec.score < VALUE_MATE_IN_MAX_PLY;
        results += rec.result == 0.0 || rec.result == 0.5 || rec.result == 1.0;
        if (!pos_set_fen(&Pos, rec.fen, false, err, sizeof err)) continue;
        legal++;
        inCheck += pos_in_check(&Pos);
    }
    CHECK(lines > 100, "six games wrote %d positions", lines);
    CHECK(parsed == lines && legal == lines, "every line parses (%d) and sets up (%d)", parsed, legal);
    CHECK(scored == lines && results == lines, "every line has a non-mate score and a result");
    CHECK(inCheck == 0, "no position in check is written (%d)", inCheck);
    free(a);
    free(b);

    /* Appending: a second run grows the file; --first-game continues the same run exactly. */
    const char *whole = tmp_path("whole.txt"), *parts = tmp_path("parts.txt");
    run_datagen("--games 3 --nodes 800 --seed 5", whole);
    run_datagen("--games 2 --nodes 800 --seed 5", parts);
    run_datagen("--games 1 --nodes 800 --seed 5 --first-game 2", parts);
    a = read_file(whole);
    b = read_file(parts);
    CHECK(a && b && strcmp(a, b) == 0, "games 0-1 then game 2 appended equal games 0-2 in one run");
    free(a);
    free(b);

    const char *limited = tmp_path("limited.txt"), *limited2 = tmp_path("limited2.txt");
    run_datagen("--positions 150 --nodes 800 --seed 3", limited);
    run_datagen("--positions 150 --nodes 800 --seed 3 --threads 2", limited2);
    a = read_file(limited);
    b = read_file(limited2);
    int count = 0;
    for (const char *p = a; p && *p; p++) count += *p == '\n';
    CHECK(a && b && strcmp(a, b) == 0 && count >= 150, "--positions stops at the same game on any thread count");
    free(a);
    free(b);

    CHECK(run_datagen("--games 1", "/nonexistent-dir/x.txt") == 2, "an unwritable output is refused");
    CHECK(run_datagen("--games x", tmp_path("x.txt")) == 2, "a bad number is refused");
    CHECK(run_datagen("--nodes 100", tmp_path("x.txt")) == 2, "a run without --games or --positions is refused");
    CHECK(run_datagen("--games 1 --book /nonexistent.epd", tmp_path("x.txt")) == 2, "a missing book is refused");
}

int main(void) {
    engine_init();
    if (!mkdtemp(TmpDir)) {
        perror("mkdtemp");
        return 1;
    }
    test_score_comments();
    test_pgn_move_comments();
    test_read_pgn();
    test_epd();
    test_epd_warnings();
    test_walk_and_check();
    test_genfens();
    test_self_play();
    char command[300];
    snprintf(command, sizeof command, "rm -rf '%s'", TmpDir);
    if (system(command) != 0) fprintf(stderr, "could not remove %s\n", TmpDir);
    return test_report();
}
