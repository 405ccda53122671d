/*
 * gizum-match: opening positions from an EPD file, a PGN file (first N
 * plies of each game) or a Polyglot book (a random walk by weight), played
 * in file order or shuffled with a seed.
 */
#ifndef MATCH_OPENINGS_H
#define MATCH_OPENINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "book.h"
#include "types.h"

typedef enum { OPENINGS_EPD, OPENINGS_PGN, OPENINGS_BOOK } OpeningFormat;

typedef struct {
    char *file;             /* NULL = every game from the standard start position */
    OpeningFormat format;
    bool random;            /* order=random */
    int plies;              /* PGN: plies taken from each game (0 = all); book: walk depth */
    uint64_t seed;
    long start;             /* 1-based index of the first opening used */
} OpeningConfig;

typedef struct {
    char *fen;              /* NULL = standard start position */
    Move *moves;            /* played from fen */
    int moveCount;
} Opening;

typedef struct {
    OpeningConfig cfg;
    bool chess960;
    Opening *items;
    long count;
    long *order;            /* play order (a permutation of 0..count-1) */
    Book book;
} OpeningSuite;

/* Loads the suite; false with a message in err (an unreadable file, no usable opening). */
bool openings_load(OpeningSuite *s, const OpeningConfig *cfg, bool chess960, char *err, size_t errlen);
/* The n-th opening of the play sequence (wraps around), as a copy to release with opening_free. */
bool openings_get(const OpeningSuite *s, long n, Opening *out);
void opening_free(Opening *o);
void openings_free(OpeningSuite *s);

#endif
