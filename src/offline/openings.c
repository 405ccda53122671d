#include "openings.h"
#include "fen.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "files.h"
#include "movegen.h"
#include "platform.h" /* getline on Windows */

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

/* ------------------------------------------------------------ EPD start positions */

static void warn_at(OpeningsWarnFn warn, void *ctx, const char *path, long line, const char *reason) {
    char msg[512];
    snprintf(msg, sizeof msg, "%s:%ld: %s", path, line, reason);
    if (warn) warn(ctx, msg);
}

/* Appends a FEN to the list; false when out of memory. */
static bool list_append(OpeningList *list, int *capacity, const char *fen) {
    if (list->count == *capacity) {
        int grown = *capacity ? *capacity * 2 : 256;
        void *p = realloc(list->fens, (size_t)grown * sizeof list->fens[0]);
        if (!p) return false;
        list->fens = p;
        *capacity = grown;
    }
    snprintf(list->fens[list->count++], OPENINGS_FEN_SIZE, "%s", fen);
    return true;
}

bool openings_load_epd(const char *path, OpeningList *list, OpeningsWarnFn warn, void *ctx, char *err, size_t errlen) {
    enum { LINE_MAX_BYTES = 4096 };
    list->fens = NULL;
    list->count = 0;
    FILE *f = file_open_read(path, NULL, err, errlen);
    if (!f) return false;
    Position *pos = malloc(sizeof *pos);
    char *line = NULL, fen[OPENINGS_FEN_SIZE], why[256], reason[320];
    size_t size = 0;
    int capacity = 0;
    long number = 0;
    bool ok = pos != NULL;
    ssize_t len;
    while (ok && (len = getline(&line, &size, f)) >= 0) {
        number++;
        const char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '\0' || *p == '\n' || *p == '\r' || *p == '#') continue;
        if (len > LINE_MAX_BYTES || memchr(line, '\0', (size_t)len)) {
            warn_at(warn, ctx, path, number, "line too long or not text (skipped)");
        } else if (!fen_from_epd(p, fen, sizeof fen)) {
            warn_at(warn, ctx, path, number, "expected an EPD position (four FEN fields) (skipped)");
        } else if (!pos_set_fen(pos, fen, false, why, sizeof why)) {
            snprintf(reason, sizeof reason, "bad position: %s (skipped)", why);
            warn_at(warn, ctx, path, number, reason);
        } else {
            ok = list_append(list, &capacity, fen);
        }
    }
    bool readError = ferror(f);
    free(line);
    free(pos);
    fclose(f);
    if (!ok) snprintf(err, errlen, "%s: out of memory", path);
    else if (readError) snprintf(err, errlen, "%s: read error", path);
    else if (list->count == 0) snprintf(err, errlen, "%s: no valid position", path);
    if (!ok || readError || list->count == 0) {
        openings_free_list(list);
        return false;
    }
    return true;
}

void openings_free_list(OpeningList *list) {
    free(list->fens);
    list->fens = NULL;
    list->count = 0;
}

/* ------------------------------------------------------------ walks and the check */

/* A number in [min, max] from the generator. */
static int random_in(uint64_t *rng, int min, int max) {
    return min + (int)(book_random(rng) % (uint64_t)(max - min + 1));
}

bool openings_walk(const OpeningRecipe *recipe, uint64_t *rng, Position *pos) {
    pos_set_startpos(pos, false);
    if (recipe->book) {
        int plies = random_in(rng, recipe->bookMinPlies, recipe->bookMaxPlies);
        for (int i = 0; i < plies; i++) {
            Move m = book_pick(recipe->book, pos, false, rng);
            if (m == MOVE_NONE) return false;
            pos_do_game_move(pos, m);
        }
    } else if (recipe->starts && recipe->starts->count > 0) {
        int i = (int)(book_random(rng) % (uint64_t)recipe->starts->count);
        if (!pos_set_fen(pos, recipe->starts->fens[i], false, NULL, 0)) return false;
    }
    /* No draw at all without random moves, so book walks stay as they always were. */
    int plies = recipe->randomMaxPlies > 0 ? random_in(rng, recipe->randomMinPlies, recipe->randomMaxPlies) : 0;
    for (int i = 0; i < plies; i++) {
        MoveList list;
        gen_legal(pos, &list);
        if (list.count == 0) return false;
        pos_do_game_move(pos, list.moves[book_random(rng) % (uint64_t)list.count]);
    }
    return true;
}

bool openings_balanced(const OpeningRecipe *recipe, Searcher *searcher, const Position *pos) {
    MoveList list;
    gen_legal(pos, &list);
    if (list.count == 0) return false;
    SearcherResult result;
    searcher_new_game(searcher);
    searcher_search(searcher, pos, recipe->depth, 0, &result);
    return result.best != MOVE_NONE && result.score >= -recipe->margin && result.score <= recipe->margin;
}

bool openings_make(const OpeningRecipe *recipe, Searcher *searcher, uint64_t *rng, Position *pos, int maxTries) {
    for (int i = 0; i < maxTries; i++)
        if (openings_walk(recipe, rng, pos) && openings_balanced(recipe, searcher, pos)) return true;
    return false;
}

/* ------------------------------------------------------------ sources and recipes */

static bool ends_with(const char *text, const char *suffix) {
    size_t n = strlen(text), k = strlen(suffix);
    return n >= k && strcmp(text + n - k, suffix) == 0;
}

bool openings_open_source(OpeningSource *source, const char *path, OpeningsWarnFn warn, void *ctx, char *err,
                          size_t errlen) {
    *source = (OpeningSource){.path = path, .warn = warn, .ctx = ctx};
    if (!path || strcasecmp(path, "none") == 0) return true;
    if (ends_with(path, ".bin")) return book_open(&source->book, path, err, errlen);
    return openings_load_epd(path, &source->starts, warn, ctx, err, errlen);
}

void openings_close_source(OpeningSource *source) {
    char text[600];
    if (source->warn && book_illegal_text(&source->book, source->path, text, sizeof text)) source->warn(source->ctx, text);
    book_close(&source->book);
    openings_free_list(&source->starts);
}

void openings_default_recipe(OpeningRecipe *recipe, const OpeningSource *source) {
    memset(recipe, 0, sizeof *recipe);
    bool fromStart = source->book.count == 0 && source->starts.count == 0;
    recipe->book = source->book.count ? &source->book : NULL;
    recipe->bookMinPlies = 6;
    recipe->bookMaxPlies = 8;
    recipe->starts = source->starts.count ? &source->starts : NULL;
    /* An odd and an even count: either side may be to move. */
    recipe->randomMinPlies = fromStart ? 8 : 2;
    recipe->randomMaxPlies = fromStart ? 9 : 3;
    recipe->depth = OPENINGS_CHECK_DEPTH;
    recipe->margin = OPENINGS_CHECK_MARGIN;
}

bool openings_parse_plies(const char *text, int *min, int *max) {
    char *end;
    long a = strtol(text, &end, 10), b = a;
    if (end == text || a < 0) return false;
    if (*end == '-') {
        const char *second = end + 1;
        b = strtol(second, &end, 10);
        if (end == second) return false;
    }
    if (*end != '\0' || b < a || b > 100) return false;
    *min = (int)a;
    *max = (int)b;
    return true;
}

/* ------------------------------------------------------------ ./gizum openings */

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
    Searcher *searcher = searcher_create(OPENINGS_HASH_MB);
    int maxTries = cfg->count * OPENINGS_TRIES_PER_POSITION;
    Key *keys = malloc((size_t)maxTries * sizeof *keys);
    if (!searcher || !keys) {
        fprintf(stderr, "openings: out of memory\n");
        free(keys);
        searcher_destroy(searcher);
        return 1;
    }
    OpeningRecipe recipe = {.book = book, .bookMinPlies = cfg->minPlies, .bookMaxPlies = cfg->maxPlies,
                            .depth = cfg->depth, .margin = cfg->margin};
    uint64_t rng = cfg->seed;
    int found = 0, tried = 0;
    for (int walk = 0; found < cfg->count && walk < maxTries; walk++) {
        if (!openings_walk(&recipe, &rng, &pos) || seen_before(keys, &tried, pos_key(&pos))) continue;
        if (!openings_balanced(&recipe, searcher, &pos)) continue;
        print_epd(&pos);
        found++;
    }
    char text[600];
    if (book_illegal_text(book, cfg->book, text, sizeof text)) fprintf(stderr, "openings: %s\n", text);
    if (found < cfg->count)
        fprintf(stderr, "openings: only %d balanced positions found (the book is too small for %d)\n", found, cfg->count);
    free(keys);
    searcher_destroy(searcher);
    return found < cfg->count;
}

void openings_usage(FILE *out) {
    fprintf(out, "usage: gizum openings [--book FILE] [--count N] [--min-plies A] [--max-plies B]"
                 " [--depth D] [--margin CP] [--seed S]\n");
}

int openings_command(int argc, char **argv) {
    OpeningsConfig cfg = {"books/gizum.bin", 300, 6, 8, 10, 50, 1};
    if (!parse_args(argc, argv, &cfg)) {
        openings_usage(stderr);
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
