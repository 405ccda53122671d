#include "genfens.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "openings.h"
#include "fen.h"
#include "numparse.h"
#include "platform.h"
#include "searcher.h"

enum {
    GENFENS_HASH_MB = 16,
    /* Consecutive failed walks after which the recipe is judged hopeless. */
    GENFENS_TRIES_PER_POSITION = 2000
};

typedef struct {
    GenfensPrintFn print;
    void *ctx;
} Printer;

static void say(const Printer *p, const char *fmt, ...) PRINTF_FORMAT(2, 3);
static void say(const Printer *p, const char *fmt, ...) {
    char text[640];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    p->print(p->ctx, text);
}

/* The source's complaints (bad EPD lines, skipped book entries); ctx is the GenfensJob. */
static void warn_line(void *ctx, const char *message) {
    const GenfensJob *job = ctx;
    Printer p = {job->print, job->ctx};
    say(&p, "genfens: %s", message);
}

static bool parse_int(const char *text, int min, int max, int *out) {
    uint64_t v;
    if (!parse_unsigned(text, &v) || v < (uint64_t)min || v > (uint64_t)max) return false;
    *out = (int)v;
    return true;
}

/* Applies the optional "key value" words after the book; false on a bad value. */
static bool parse_extras(const Printer *p, int argc, const char *const *argv, OpeningRecipe *r) {
    for (int i = 0; i < argc; i++) {
        const char *key = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        bool known = true, ok = value != NULL;
        if (strcmp(key, "plies") == 0) ok = ok && openings_parse_plies(value, &r->randomMinPlies, &r->randomMaxPlies);
        else if (strcmp(key, "depth") == 0) ok = ok && parse_int(value, 1, 30, &r->depth);
        else if (strcmp(key, "margin") == 0) ok = ok && parse_int(value, 0, 10000, &r->margin);
        else known = false;
        if (!known) {
            say(p, "genfens: ignoring extra word '%.40s'", key);
            continue;
        }
        if (!ok) {
            say(p, "genfens: '%s' needs %s, got '%.40s'", key,
                strcmp(key, "plies") == 0 ? "a ply range A-B" : "a number", value ? value : "");
            return false;
        }
        i++;
    }
    return true;
}

/* Open addressing over position keys (0 marks a free slot, so key 0 is stored as 1); kept at most half full. */
typedef struct {
    Key *slots;
    size_t mask, used;
} KeySet;

static bool keyset_insert(KeySet *set, Key key) {
    for (size_t i = (size_t)key & set->mask;; i = (i + 1) & set->mask) {
        if (set->slots[i] == key) return false;
        if (set->slots[i] == 0) {
            set->slots[i] = key;
            set->used++;
            return true;
        }
    }
}

static bool keyset_grow(KeySet *set) {
    size_t size = set->slots ? (set->mask + 1) * 2 : 1024;
    KeySet bigger = {calloc(size, sizeof *bigger.slots), size - 1, 0};
    if (!bigger.slots) return false;
    for (size_t i = 0; set->slots && i <= set->mask; i++)
        if (set->slots[i]) keyset_insert(&bigger, set->slots[i]);
    free(set->slots);
    *set = bigger;
    return true;
}

/* Adds key; false if it was there already (or memory ran out, which ends the search for positions). */
static bool keyset_add(KeySet *set, Key key, bool *oom) {
    if ((!set->slots || 2 * (set->used + 1) > set->mask + 1) && !keyset_grow(set)) {
        *oom = true;
        return false;
    }
    return keyset_insert(set, key ? key : 1);
}

static int generate(const Printer *p, int count, uint64_t seed, const OpeningRecipe *recipe) {
    Position *pos = malloc(sizeof *pos);
    Searcher *searcher = searcher_create(GENFENS_HASH_MB);
    KeySet seen = {0};
    bool oom = !pos || !searcher || !keyset_grow(&seen);
    if (oom) {
        say(p, "genfens: out of memory");
        searcher_destroy(searcher);
        free(seen.slots);
        free(pos);
        return 0;
    }
    uint64_t rng = seed;
    int found = 0, failures = 0;
    char fen[128];
    while (found < count && failures < GENFENS_TRIES_PER_POSITION && !oom) {
        if (!openings_walk(recipe, &rng, pos) || !keyset_add(&seen, pos_key(pos), &oom)
            || !openings_balanced(recipe, searcher, pos)) {
            failures++;
            continue;
        }
        pos_get_fen(pos, fen);
        say(p, "genfens %s", fen);
        found++;
        failures = 0;
    }
    if (oom) say(p, "genfens: out of memory");
    else if (found < count)
        say(p, "genfens: only %d of %d positions found (%d walks in a row failed the check)", found, count, failures);
    free(seen.slots);
    free(pos);
    searcher_destroy(searcher);
    return found;
}

bool genfens_parse(int argc, const char *const *argv, GenfensPrintFn print, void *ctx, GenfensJob *job) {
    memset(job, 0, sizeof *job);
    job->print = print;
    job->ctx = ctx;
    Printer p = {print, ctx};
    if (argc < 5 || strcmp(argv[1], "seed") != 0 || strcmp(argv[3], "book") != 0) {
        say(&p, "genfens: expected 'genfens N seed S book <None|FILE.epd|FILE.bin> [plies A-B] [depth D] [margin CP]'");
        return false;
    }
    if (!parse_int(argv[0], 1, GENFENS_COUNT_MAX, &job->count)) {
        say(&p, "genfens: N must be an integer from 1 to %d, got '%.40s'", GENFENS_COUNT_MAX, argv[0]);
        return false;
    }
    if (!parse_unsigned(argv[2], &job->seed)) {
        say(&p, "genfens: the seed must be an unsigned 64-bit integer, got '%.40s'", argv[2]);
        return false;
    }
    char err[512];
    if (!openings_open_source(&job->source, argv[4], warn_line, job, err, sizeof err)) {
        say(&p, "genfens: %s", err);
        return false;
    }
    openings_default_recipe(&job->recipe, &job->source);
    if (!parse_extras(&p, argc - 5, argv + 5, &job->recipe)) {
        genfens_close(job);
        return false;
    }
    return true;
}

int genfens_generate(const GenfensJob *job) {
    Printer p = {job->print, job->ctx};
    return generate(&p, job->count, job->seed, &job->recipe);
}

void genfens_close(GenfensJob *job) {
    openings_close_source(&job->source);
}

int genfens_run(int argc, const char *const *argv, GenfensPrintFn print, void *ctx) {
    GenfensJob job;
    if (!genfens_parse(argc, argv, print, ctx, &job)) return -1;
    int found = genfens_generate(&job);
    genfens_close(&job);
    return found;
}
