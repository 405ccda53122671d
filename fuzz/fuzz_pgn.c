/*
 * Fuzz target: the PGN reader (src/board/pgn.h), and the book builder fed with
 * what it reads.
 *
 * Input: arbitrary bytes as a PGN file. Every game returned must be sane:
 * bounded, NUL-terminated tags and messages, PGN_BAD_GAME always with a
 * message and PGN_OK never, moves that are legal when replayed from the
 * game's FEN, and pgn_game_position agreeing with that replay. Reading the
 * same bytes from a stream must give exactly the same games as reading them
 * from memory. The games read are then made into a Polyglot book (every
 * move kept), which must load back and offer every move of every game.
 */
#include <unistd.h>

#include "book.h"
#include "fen.h"
#include "fuzz_common.h"
#include "pgn.h"

enum { BOOK_PROBE_MAX = 64 };

static Position *Pos, *Replay;
static char BookDir[64], BookPath[96];

/* Removes the book file and its directory at exit. */
static void remove_book_dir(void) {
    unlink(BookPath);
    rmdir(BookDir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    engine_init();
    Pos = fuzz_new_position();
    Replay = fuzz_new_position();
    snprintf(BookDir, sizeof BookDir, "/tmp/gizum-fuzz-pgn-XXXXXX");
    if (!mkdtemp(BookDir)) abort();
    snprintf(BookPath, sizeof BookPath, "%s/book.bin", BookDir);
    atexit(remove_book_dir);
    return 0;
}

/* FNV-1a over bytes, to compare the games of two readers. */
static uint64_t hash_bytes(uint64_t h, const void *data, size_t n) {
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001B3ULL;
    return h;
}

/* Everything a reader reports about one game, as one number. */
static uint64_t game_digest(PgnStatus st, const PgnGame *g) {
    uint64_t h = 0xCBF29CE484222325ULL;
    h = hash_bytes(h, &st, sizeof st);
    h = hash_bytes(h, &g->tagCount, sizeof g->tagCount);
    for (int i = 0; i < g->tagCount; i++) {
        h = hash_bytes(h, g->tags[i].name, strlen(g->tags[i].name) + 1);
        h = hash_bytes(h, g->tags[i].value, strlen(g->tags[i].value) + 1);
    }
    h = hash_bytes(h, g->fen, strlen(g->fen) + 1);
    h = hash_bytes(h, &g->chess960, sizeof g->chess960);
    h = hash_bytes(h, &g->moveCount, sizeof g->moveCount);
    if (g->moveCount > 0) h = hash_bytes(h, g->moves, (size_t)g->moveCount * sizeof *g->moves);
    h = hash_bytes(h, &g->result, sizeof g->result);
    h = hash_bytes(h, &g->number, sizeof g->number);
    h = hash_bytes(h, &g->line, sizeof g->line);
    return hash_bytes(h, g->error, strlen(g->error) + 1);
}

/* Bounds, strings and status of one game. */
static void check_fields(PgnStatus st, const PgnGame *g, int number) {
    FUZZ_CHECK(st == PGN_OK || st == PGN_BAD_GAME, "pgn_next_game returned status %d", (int)st);
    FUZZ_CHECK(g->number == number, "game number %d, expected %d", g->number, number);
    FUZZ_CHECK(g->tagCount >= 0 && g->tagCount <= PGN_MAX_TAGS, "game %d: tagCount %d", number, g->tagCount);
    for (int i = 0; i < g->tagCount; i++) {
        FUZZ_CHECK(strnlen(g->tags[i].name, PGN_TAG_NAME_SIZE) < PGN_TAG_NAME_SIZE, "game %d: tag name unterminated", number);
        FUZZ_CHECK(strnlen(g->tags[i].value, PGN_TAG_VALUE_SIZE) < PGN_TAG_VALUE_SIZE, "game %d: tag value unterminated",
                   number);
    }
    FUZZ_CHECK(strnlen(g->fen, sizeof g->fen) < sizeof g->fen, "game %d: fen unterminated", number);
    FUZZ_CHECK(strnlen(g->error, sizeof g->error) < sizeof g->error, "game %d: error unterminated", number);
    FUZZ_CHECK((st == PGN_BAD_GAME) == (g->error[0] != '\0'), "game %d: status %d with error '%s'", number, (int)st,
               g->error);
    FUZZ_CHECK(g->moveCount >= 0 && g->moveCount <= g->moveCapacity && (g->moveCount == 0 || g->moves),
               "game %d: moveCount %d, capacity %d", number, g->moveCount, g->moveCapacity);
    FUZZ_CHECK(g->result >= PGN_RESULT_UNKNOWN && g->result <= PGN_DRAW, "game %d: result %d", number, (int)g->result);
    FUZZ_CHECK(pgn_result_text(g->result) != NULL, "game %d: no result text", number);
    FUZZ_CHECK(g->line >= 1, "game %d: starts on line %d", number, g->line);
}

/* The moves replay legally from the game's FEN, and pgn_game_position agrees with the replay. */
static void check_moves(PgnStatus st, const PgnGame *g) {
    char err[256];
    if (!pos_set_fen(Replay, g->fen, g->chess960, err, sizeof err)) {
        FUZZ_CHECK(st == PGN_BAD_GAME, "game %d is OK but its FEN '%s' is rejected: %s", g->number, g->fen, err);
        FUZZ_CHECK(g->moveCount == 0, "game %d: bad FEN '%s' but %d moves recorded", g->number, g->fen, g->moveCount);
        return;
    }
    int half = g->moveCount / 2;
    Key halfKey = pos_key(Replay);
    for (int i = 0; i < g->moveCount; i++) {
        char fen[128];
        MoveList legal;
        gen_legal(Replay, &legal);
        pos_get_fen(Replay, fen);
        FUZZ_CHECK(movelist_contains(&legal, g->moves[i]), "game %d: move %d (%04x) is illegal in %s", g->number, i + 1,
                   g->moves[i], fen);
        pos_do_game_move(Replay, g->moves[i]);
        if (i + 1 == half) halfKey = pos_key(Replay);
    }
    fuzz_check_state(Replay, "end of a PGN game");
    FUZZ_CHECK(pgn_game_position(g, half, Pos) && pos_key(Pos) == halfKey, "game %d: pgn_game_position(%d) differs",
               g->number, half);
    FUZZ_CHECK(pgn_game_position(g, g->moveCount + 5, Pos) && pos_key(Pos) == pos_key(Replay),
               "game %d: pgn_game_position(past the end) differs from the replay", g->number);
}

/* Digests of all games read; the count is bounded by the input size (every game consumes input). */
typedef struct {
    uint64_t *digest;
    int count;
} GameLog;

/* Reads every game, checking each; records digests; feeds good games to builder (may be NULL). */
static void read_all(PgnReader *r, size_t size, GameLog *log, BookBuilder *builder) {
    PgnGame g;
    memset(&g, 0, sizeof g);
    PgnStatus st;
    while ((st = pgn_next_game(r, &g)) != PGN_EOF) {
        FUZZ_CHECK((size_t)log->count < size, "more games (%d) than input bytes (%zu)", log->count + 1, size);
        check_fields(st, &g, log->count + 1);
        check_moves(st, &g);
        uint64_t *grown = realloc(log->digest, (size_t)(log->count + 1) * sizeof *grown);
        if (!grown) abort();
        log->digest = grown;
        log->digest[log->count++] = game_digest(st, &g);
        if (builder && st == PGN_OK && pgn_game_position(&g, 0, Pos))
            for (int i = 0; i < g.moveCount; i++) {
                if (!book_builder_add(builder, pos_key(Pos), g.moves[i], pos_side_to_move(Pos), 1)) abort();
                pos_do_game_move(Pos, g.moves[i]);
            }
    }
    pgn_game_free(&g);
}

/* The book made from the good games offers each of their moves, and only legal moves. */
static void check_book(const uint8_t *data, size_t size, const BookBuilder *builder) {
    char err[256];
    BookFilter filter = book_filter_default();
    filter.minGames = 1;
    long written = book_builder_write(builder, &filter, BookPath, err, sizeof err);
    FUZZ_CHECK(written == (long)book_builder_size(builder), "book of %zu pairs wrote %ld entries: %s",
               book_builder_size(builder), written, written < 0 ? err : "");
    Book book = {0};
    FUZZ_CHECK(book_open(&book, BookPath, err, sizeof err), "book made from the games does not load: %s", err);
    PgnReader *r = pgn_open_buffer((const char *)data, size, "fuzz");
    if (!r) abort();
    PgnGame g;
    memset(&g, 0, sizeof g);
    PgnStatus st;
    while ((st = pgn_next_game(r, &g)) != PGN_EOF) {
        if (st != PGN_OK || !pgn_game_position(&g, 0, Pos)) continue;
        for (int i = 0; i < g.moveCount; i++) {
            BookMove moves[BOOK_PROBE_MAX];
            int n = book_probe(&book, Pos, moves, BOOK_PROBE_MAX);
            bool found = false;
            for (int k = 0; k < n; k++) {
                fuzz_check_parsed_move(Pos, moves[k].move, "book_probe", "book made from PGN");
                found |= moves[k].move == g.moves[i];
                FUZZ_CHECK(k == 0 || moves[k - 1].weight >= moves[k].weight, "book_probe not sorted by weight");
            }
            FUZZ_CHECK(found || n == BOOK_PROBE_MAX, "game %d: move %d missing from the book made from it", g.number, i + 1);
            uint64_t rng = (uint64_t)i;
            fuzz_check_parsed_move(Pos, book_pick(&book, Pos, true, &rng), "book_pick(best)", "book made from PGN");
            fuzz_check_parsed_move(Pos, book_pick(&book, Pos, false, &rng), "book_pick(random)", "book made from PGN");
            pos_do_game_move(Pos, g.moves[i]);
        }
    }
    pgn_game_free(&g);
    pgn_close(r);
    book_close(&book);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    GameLog fromBuffer = {0}, fromStream = {0};
    BookBuilder *builder = book_builder_new();
    if (!builder) abort();
    PgnReader *r = pgn_open_buffer((const char *)data, size, "fuzz");
    FUZZ_CHECK(r != NULL, "pgn_open_buffer failed");
    FUZZ_CHECK(strcmp(pgn_name(r), "fuzz") == 0, "pgn_name changed");
    read_all(r, size, &fromBuffer, builder);
    pgn_close(r);

    if (size > 0) {
        FILE *f = fmemopen((void *)data, size, "r");
        if (!f) abort();
        r = pgn_open_stream(f, "fuzz");
        FUZZ_CHECK(r != NULL, "pgn_open_stream failed");
        read_all(r, size, &fromStream, NULL);
        pgn_close(r);
        fclose(f);
        FUZZ_CHECK(fromStream.count == fromBuffer.count, "stream reader found %d games, buffer reader %d",
                   fromStream.count, fromBuffer.count);
        for (int i = 0; i < fromBuffer.count; i++)
            FUZZ_CHECK(fromStream.digest[i] == fromBuffer.digest[i], "game %d differs between stream and buffer reader",
                       i + 1);
    }
    if (book_builder_size(builder) > 0) check_book(data, size, builder);
    book_builder_free(builder);
    free(fromBuffer.digest);
    free(fromStream.digest);
    return 0;
}
