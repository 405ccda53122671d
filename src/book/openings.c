#include "openings.h"
#include "fen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book.h"
#include "search.h"
#include "thread.h"
#include "timeman.h"
#include "tt.h"

typedef struct {
    const char *book;
    int count, minPlies, maxPlies, depth, margin;
    uint64_t seed;
} OpeningsConfig;

enum { OPENINGS_HASH_MB = 16, OPENINGS_TRIES_PER_POSITION = 50, OPENINGS_COUNT_MAX = 10000 };

static bool parse_int_arg(const char *text, int min, int max, int *out) {
    char *end;
    long v = strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || v < min || v > max) return false;
    *out = (int)v;
    return true;
}

static bool parse_args(int argc, char **argv, OpeningsConfig *cfg) {
    for (int i = 0; i < argc; i += 2) {
        const char *flag = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        int seed = 0;
        bool ok = value != NULL;
        if (ok && strcmp(flag, "--book") == 0) cfg->book = value;
        else if (ok && strcmp(flag, "--count") == 0) ok = parse_int_arg(value, 1, OPENINGS_COUNT_MAX, &cfg->count);
        else if (ok && strcmp(flag, "--min-plies") == 0) ok = parse_int_arg(value, 0, 100, &cfg->minPlies);
        else if (ok && strcmp(flag, "--max-plies") == 0) ok = parse_int_arg(value, 0, 100, &cfg->maxPlies);
        else if (ok && strcmp(flag, "--depth") == 0) ok = parse_int_arg(value, 1, 40, &cfg->depth);
        else if (ok && strcmp(flag, "--margin") == 0) ok = parse_int_arg(value, 0, 10000, &cfg->margin);
        else if (ok && strcmp(flag, "--seed") == 0) ok = parse_int_arg(value, 0, 1 << 30, &seed), cfg->seed = (uint64_t)seed;
        else ok = false;
        if (!ok) {
            fprintf(stderr, "openings: bad or incomplete option '%s'\n", flag);
            return false;
        }
    }
    if (cfg->minPlies > cfg->maxPlies) {
        fprintf(stderr, "openings: --min-plies must not exceed --max-plies\n");
        return false;
    }
    return true;
}

/* Walks plies book moves from the start position; false if the book runs out first. */
static bool book_walk(const Book *book, Position *pos, int plies, uint64_t *rng) {
    pos_set_startpos(pos, false);
    for (int i = 0; i < plies; i++) {
        Move m = book_pick(book, pos, false, rng);
        if (m == MOVE_NONE) return false;
        pos_do_game_move(pos, m);
    }
    return true;
}

/* Remembers every position tried, so none is searched or printed twice. */
static bool seen_before(Key *keys, int *count, Key key) {
    for (int i = 0; i < *count; i++)
        if (keys[i] == key) return true;
    keys[(*count)++] = key;
    return false;
}

/* Writes the four EPD fields of the position (no move counters). */
static void print_epd(const Position *pos) {
    char fen[128];
    pos_get_fen(pos, fen);
    char *end = fen;
    for (int spaces = 0; *end && spaces < 4; end++) spaces += *end == ' ';
    if (*end) end[-1] = '\0';
    printf("%s\n", fen);
}

static int generate(const OpeningsConfig *cfg, const Book *book) {
    static Position pos;
    TTable tt = {0};
    ThreadPool *pool = tt_resize(&tt, OPENINGS_HASH_MB, 1) ? threads_create(1, &tt) : NULL;
    int maxTries = cfg->count * OPENINGS_TRIES_PER_POSITION;
    Key *keys = malloc((size_t)maxTries * sizeof *keys);
    if (!pool || !keys) {
        fprintf(stderr, "openings: out of memory\n");
        free(keys);
        if (pool) threads_destroy(pool);
        tt_free(&tt);
        return 1;
    }
    SearchLimits limits;
    search_limits_init(&limits);
    limits.depth = cfg->depth;

    uint64_t rng = cfg->seed;
    int found = 0, tried = 0, span = cfg->maxPlies - cfg->minPlies + 1;
    for (int walk = 0; found < cfg->count && walk < maxTries; walk++) {
        int plies = cfg->minPlies + (int)(book_random(&rng) % (uint64_t)span);
        if (!book_walk(book, &pos, plies, &rng) || seen_before(keys, &tried, pos_key(&pos))) continue;
        tt_clear(&tt, 1);
        threads_clear(pool);
        Value score = threads_search(pool, &pos, &limits).score;
        if (score < -cfg->margin || score > cfg->margin) continue;
        print_epd(&pos);
        found++;
    }
    if (found < cfg->count)
        fprintf(stderr, "openings: only %d balanced positions found (the book is too small for %d)\n", found, cfg->count);
    free(keys);
    threads_destroy(pool);
    tt_free(&tt);
    return found < cfg->count;
}

int openings_command(int argc, char **argv) {
    OpeningsConfig cfg = {"books/gizum.bin", 300, 6, 8, 10, 50, 1};
    if (!parse_args(argc, argv, &cfg)) {
        fprintf(stderr, "usage: gizum openings [--book FILE] [--count N] [--min-plies A] [--max-plies B]"
                        " [--depth D] [--margin CP] [--seed S]\n");
        return 2;
    }
    Book book = {0};
    char err[256];
    if (!book_open(&book, cfg.book, err, sizeof err)) {
        fprintf(stderr, "openings: %s\n", err);
        return 2;
    }
    int status = generate(&cfg, &book);
    book_close(&book);
    return status;
}
