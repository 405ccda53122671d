/*
 * Opening positions for engine matches and self-play: a walk from a start
 * (a Polyglot book by weight, a position of an EPD file, or the standard
 * start) followed by uniformly random legal moves, kept when a short
 * search scores it within a margin of equality. The walk and the check are
 * shared by `openings` (match books), `genfens` (OpenBench) and `datagen`.
 */
#ifndef GIZUM_OPENINGS_H
#define GIZUM_OPENINGS_H

#include <stdint.h>
#include <stdio.h>

#include "book.h"
#include "position.h"
#include "searcher.h"

enum { OPENINGS_FEN_SIZE = 128 };

/* Start positions read from an EPD file, as FENs. */
typedef struct {
    char (*fens)[OPENINGS_FEN_SIZE];
    int count;
} OpeningList;

/* Receives one complaint, e.g. "book.epd:12: bad FEN: ...". */
typedef void (*OpeningsWarnFn)(void *ctx, const char *message);

/*
 * Reads every valid position of an EPD file (blank and '#' lines are
 * skipped; a bad line is reported through warn as "path:line: reason" and
 * skipped). False with a message in err when the file cannot be read or
 * holds no valid position.
 */
bool openings_load_epd(const char *path, OpeningList *list, OpeningsWarnFn warn, void *ctx, char *err, size_t errlen);
void openings_free_list(OpeningList *list);

/* How an opening is made. */
typedef struct {
    const Book *book;                   /* walk bookMinPlies..bookMaxPlies moves of this book ... */
    int bookMinPlies, bookMaxPlies;
    const OpeningList *starts;          /* ... or start from a random one of these (neither: the start position) */
    int randomMinPlies, randomMaxPlies; /* then this many uniformly random legal moves */
    int depth;                          /* the check: a search of this depth ... */
    int margin;                         /* ... scores the position within +-margin cp */
} OpeningRecipe;

/* Makes a walk into pos with the generator *rng; false when it failed (out of book, no legal move). */
bool openings_walk(const OpeningRecipe *recipe, uint64_t *rng, Position *pos);
/*
 * Is pos a fair start: legal moves, and a score within the margin from a
 * fresh search (the searcher forgets everything first)? A check is allowed.
 */
bool openings_balanced(const OpeningRecipe *recipe, Searcher *searcher, const Position *pos);
/* Walks and checks until a balanced opening is found (true) or maxTries walks failed. */
bool openings_make(const OpeningRecipe *recipe, Searcher *searcher, uint64_t *rng, Position *pos, int maxTries);

/* Where openings start from: the start position, a Polyglot book or an EPD file. */
typedef struct {
    Book book;
    OpeningList starts;
    const char *path;       /* as opened, with the warn function and its context, for the closing report */
    OpeningsWarnFn warn;
    void *ctx;
} OpeningSource;

/*
 * Opens a source: NULL or "None" (any case) is the start position, a name
 * ending in ".bin" a Polyglot book, anything else an EPD file (bad lines
 * reported through warn). False with a message in err. path, warn and ctx
 * must last until the source is closed.
 */
bool openings_open_source(OpeningSource *source, const char *path, OpeningsWarnFn warn, void *ctx, char *err,
                          size_t errlen);
/* Closes a source, first naming through warn the book entries the walks skipped as illegal (book.h). */
void openings_close_source(OpeningSource *source);

enum { OPENINGS_CHECK_DEPTH = 8, OPENINGS_CHECK_MARGIN = 100 };

/*
 * The recipe datagen and genfens use: 8-9 random moves from the start
 * position, or 6-8 book moves or an EPD position followed by 2-3 random
 * moves; checked at depth OPENINGS_CHECK_DEPTH within OPENINGS_CHECK_MARGIN.
 */
void openings_default_recipe(OpeningRecipe *recipe, const OpeningSource *source);
/* Parses "A-B" or "A" (0 <= A <= B <= 100) as a ply range. */
bool openings_parse_plies(const char *text, int *min, int *max);

/* ./gizum openings [--book F] [--count N] [--min-plies A] [--max-plies B] [--depth D] [--margin CP] [--seed S] */
int openings_command(int argc, char **argv);
/* The synopsis of `gizum openings`. */
void openings_usage(FILE *out);

#endif
