/*
 * perft against known leaf counts: the six classic positions, the tricky
 * suite (ep pins, promotions, castling rights and checks) and at least 40
 * Chess960 positions, all from the EPD files in tests/data. Also checks the divide
 * printout (Stockfish's format) and that perft leaves the position as it was.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "epd.h"
#include "fen.h"
#include "position.h"
#include "movegen.h"
#include "notation.h"
#include "perft.h"
#include "position.h"
#include "test.h"

static Position Pos;
static EpdSuite Suite;

/*
 * Runs one suite file; returns the number of positions checked. Its known
 * counts are one check, count_legal another, each over every position and
 * depth of the suite (the message names the first failure's line).
 */
static int run_suite(const char *file, bool chess960, int minPositions) {
    CHECK(epd_load(file, &Suite), "cannot load %s", file);
    CHECK(Suite.size >= minPositions, "%s has %d positions, expected at least %d", file, Suite.size, minPositions);
    double start = cpu_seconds();
    uint64_t total = 0;
    Property counts = {0}, legal = {0};
    for (int i = 0; i < Suite.size; i++) {
        const EpdEntry *e = &Suite.entries[i];
        char err[256] = "";
        if (!pos_set_fen(&Pos, e->fen, chess960, err, sizeof err)) {
            CHECK(false, "%s:%d: FEN refused: %s (%s)", file, e->line, e->fen, err);
            continue;
        }
        EXPECT(&counts, e->maxDepth >= 1, "%s:%d: no counts", file, e->line);
        if (e->maxDepth < 1) continue;
        /* Every listed depth up to the test depth: the first failure is the smallest case. */
        int depth = epd_test_depth(e);
        for (int d = 1; d <= depth; d++) {
            if (!e->count[d]) continue;
            uint64_t n = perft(&Pos, d);
            total += n;
            EXPECT(&counts, n == e->count[d],
                   "%s:%d: perft %d of %s: expected %" PRIu64 ", got %" PRIu64
                   " (divide against Stockfish: tests/perft_oracle.sh)",
                   file, e->line, d, e->fen, e->count[d], n);
        }
        EXPECT(&legal, (uint64_t)count_legal(&Pos) == e->count[1], "%s:%d: count_legal %d, expected %" PRIu64, file,
               e->line, count_legal(&Pos), e->count[1]);
    }
    CHECK_PROPERTY(&counts);
    CHECK_PROPERTY(&legal);
    printf("%s: %d positions, %" PRIu64 " leaves, %.2f s\n", file, Suite.size, total, cpu_seconds() - start);
    return Suite.size;
}

/* Parses a divide printout and checks it against the position and perft(): each check one over every call. */
static void check_divide(const char *fen, bool chess960, int depth) {
    char err[256] = "", before[128], after[128];
    CHECK_EACH(pos_set_fen(&Pos, fen, chess960, err, sizeof err), "FEN refused: %s (%s)", fen, err);
    pos_get_fen(&Pos, before);
    Key keyBefore = pos_key(&Pos);
    uint64_t expected = perft(&Pos, depth);

    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    CHECK_EACH(out != NULL, "open_memstream failed");
    if (!out) return;
    uint64_t returned = perft_divide(&Pos, depth, out);
    fclose(out);

    MoveList seen = {.count = 0};
    uint64_t sum = 0, reported = 0;
    bool nodesSeen = false, formatOk = true;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char mv[16];
        unsigned long long n;
        if (!nodesSeen && sscanf(line, "%15[a-h1-8qrbn]: %llu", mv, &n) == 2 && strlen(mv) >= 4) {
            Move m = move_from_uci(&Pos, mv);
            CHECK_EACH(m != MOVE_NONE, "divide of %s: '%s' is not a legal move", fen, mv);
            CHECK_EACH(!movelist_contains(&seen, m), "divide of %s: '%s' printed twice", fen, mv);
            if (seen.count < MAX_MOVES) seen.moves[seen.count++] = m;
            sum += n;
        } else if (strncmp(line, "Nodes searched: ", 16) == 0) {
            nodesSeen = true;
            reported = strtoull(line + 16, NULL, 10);
        } else if (!nodesSeen) {
            formatOk = false;
            fprintf(stderr, "divide of %s: unexpected line '%s'\n", fen, line);
        }
    }
    CHECK_EACH(formatOk, "divide of %s: lines must be 'move: count'", fen);
    CHECK_EACH(nodesSeen, "divide of %s: no 'Nodes searched: N' line", fen);
    CHECK_EACH(seen.count == count_legal(&Pos), "divide of %s: %d move lines for %d legal moves", fen, seen.count,
               count_legal(&Pos));
    CHECK_EACH(sum == expected && returned == expected && reported == expected,
               "divide of %s depth %d: sum %" PRIu64 ", returned %" PRIu64 ", printed %" PRIu64 ", perft %" PRIu64, fen,
               depth, sum, returned, reported, expected);
    pos_get_fen(&Pos, after);
    CHECK_EACH(strcmp(before, after) == 0 && pos_key(&Pos) == keyBefore, "divide of %s changed the position to %s", fen,
               after);
    free(text);
}

/* The raw printout must have a blank line right before "Nodes searched". */
static void check_divide_blank_line(void) {
    pos_set_startpos(&Pos, false);
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (!out) return;
    perft_divide(&Pos, 2, out);
    fclose(out);
    CHECK(strstr(text, "e2e4: 20\n") != NULL, "divide of the start position lacks 'e2e4: 20'");
    CHECK(strstr(text, "\n\nNodes searched: 400\n") != NULL, "divide must end its move lines with a blank line "
                                                               "then 'Nodes searched: 400', got:\n%s", text);
    free(text);
}

/* perft must leave the position exactly as it found it, also on a copy. */
static void check_perft_keeps_position(void) {
    static Position copy;
    pos_set_startpos(&Pos, false);
    MoveList list;
    gen_legal(&Pos, &list);
    pos_do_move(&Pos, list.moves[3]);
    char before[128], after[128];
    pos_get_fen(&Pos, before);
    Key key = pos_key(&Pos);
    uint64_t n = perft(&Pos, 4);
    pos_get_fen(&Pos, after);
    CHECK(strcmp(before, after) == 0 && key == pos_key(&Pos), "perft changed %s into %s", before, after);
    pos_copy(&copy, &Pos);
    CHECK(perft(&copy, 4) == n, "perft on a pos_copy differs from the original");
    pos_undo_move(&copy);
    pos_get_fen(&copy, after);
    CHECK(strcmp(after, StartFEN) == 0, "undo on a copy gives %s, expected the start position", after);
}

int main(void) {
    board_init();
    double start = cpu_seconds();
    run_suite("perft_classic.epd", false, 6);
    run_suite("perft_tricky.epd", false, 20);
    run_suite("chess960.epd", true, 40);

    check_divide(StartFEN, false, 3);
    check_divide("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false, 3);
    check_divide("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", false, 2);
    check_divide("rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", true, 2);
    check_divide("8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1", false, 1);
    check_divide_blank_line();
    check_perft_keeps_position();
    printf("perft tests%s: %.1f s\n", test_quick() ? " (quick)" : "", cpu_seconds() - start);
    return test_report();
}
