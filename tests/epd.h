/*
 * Shared helpers for the board tests: the perft EPD suites in tests/data,
 * a seeded random number generator, random playouts, and the quick mode
 * switch (GIZUM_TEST_QUICK=1 lowers depths and counts for sanitizer runs).
 * Everything is static inline so each test program takes only what it uses.
 */
#ifndef GIZUM_TEST_EPD_H
#define GIZUM_TEST_EPD_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "movegen.h"
#include "fen.h"
#include "position.h"

enum { EPD_MAX_DEPTH = 16, EPD_MAX_ENTRIES = 256, EPD_FEN_LEN = 128 };

/* In quick mode a perft runs at the deepest listed depth within this many leaves. */
#define QUICK_NODE_LIMIT 5000000ULL

typedef struct {
    char fen[EPD_FEN_LEN];
    int maxDepth;                       /* deepest depth with a count */
    uint64_t count[EPD_MAX_DEPTH + 1];  /* count[d] for d = 1..maxDepth */
    int line;
} EpdEntry;

typedef struct {
    EpdEntry entries[EPD_MAX_ENTRIES];
    int size;
} EpdSuite;

/* True when GIZUM_TEST_QUICK asks for the short (sanitizer) run. */
static inline bool test_quick(void) {
    const char *q = getenv("GIZUM_TEST_QUICK");
    return q && *q && strcmp(q, "0") != 0;
}

/* Directory of the data files: $GIZUM_TEST_DATA or tests/data (run from the repo root). */
static inline const char *test_data_dir(void) {
    const char *d = getenv("GIZUM_TEST_DATA");
    return d && *d ? d : "tests/data";
}

/* Reads "FEN ;D1 n ;D2 n ..." lines ('#' comments, blank lines skipped). Returns false if unreadable. */
static inline bool epd_load(const char *name, EpdSuite *suite) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", test_data_dir(), name);
    FILE *f = fopen(path, "r");
    suite->size = 0;
    if (!f) {
        fprintf(stderr, "cannot open %s (run from the repository root or set GIZUM_TEST_DATA)\n", path);
        return false;
    }
    char line[1024];
    int lineNo = 0;
    while (fgets(line, sizeof line, f) && suite->size < EPD_MAX_ENTRIES) {
        lineNo++;
        if (line[0] == '#' || line[0] == '\n' || line[0] == '\0') continue;
        EpdEntry *e = &suite->entries[suite->size];
        memset(e, 0, sizeof *e);
        e->line = lineNo;
        char *semi = strchr(line, ';');
        size_t len = semi ? (size_t)(semi - line) : strcspn(line, "\r\n");
        while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t')) len--;
        if (len >= EPD_FEN_LEN) len = EPD_FEN_LEN - 1;
        memcpy(e->fen, line, len);
        e->fen[len] = '\0';
        for (char *p = semi; p; p = strchr(p + 1, ';')) {
            int d;
            unsigned long long n;
            if (sscanf(p, ";D%d %llu", &d, &n) == 2 && d >= 1 && d <= EPD_MAX_DEPTH) {
                e->count[d] = n;
                if (d > e->maxDepth) e->maxDepth = d;
            }
        }
        suite->size++;
    }
    fclose(f);
    return true;
}

/* The depth a test runs for this entry: the deepest, or in quick mode the deepest within the node limit. */
static inline int epd_test_depth(const EpdEntry *e) {
    int d = e->maxDepth;
    if (test_quick())
        while (d > 1 && e->count[d] > QUICK_NODE_LIMIT) d--;
    return d;
}

/* xorshift64*: small, seeded, reproducible on every platform. */
typedef struct {
    uint64_t s;
} Rng;

static inline uint64_t rng_next(Rng *r) {
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545F4914F6CDD1DULL;
}

static inline unsigned rng_below(Rng *r, unsigned n) { return (unsigned)(rng_next(r) % n); }

/* Seconds of CPU time, for the per-suite summary lines (never asserted on). */
static inline double cpu_seconds(void) { return (double)clock() / CLOCKS_PER_SEC; }

/* Plays up to plies random legal moves from the current position; returns how many were played. */
static inline int random_walk(Position *pos, Rng *rng, int plies) {
    MoveList list;
    int played = 0;
    for (; played < plies; played++) {
        gen_legal(pos, &list);
        if (list.count == 0) break;
        pos_do_move(pos, list.moves[rng_below(rng, (unsigned)list.count)]);
    }
    return played;
}

/* FEN of a position into a caller buffer (>= 128). */
static inline const char *fen_of(const Position *pos, char *buf) {
    pos_get_fen(pos, buf);
    return buf;
}

#endif
