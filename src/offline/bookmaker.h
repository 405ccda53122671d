/*
 * The `book` shell command: make a Polyglot book from PGN files, probe a
 * position, dump a book as text.
 */
#ifndef GIZUM_BOOKMAKER_H
#define GIZUM_BOOKMAKER_H

#include <stdio.h>

#include "book.h"

/* Options of `book make`; bookmaker_options_default gives Polyglot make-book's defaults. */
typedef struct {
    int maxPly;         /* only the first maxPly plies of each game (Polyglot: 1024) */
    BookFilter filter;  /* min games, side */
    bool strict;        /* any unreadable game is fatal instead of skipped */
    bool quiet;         /* no per-game messages */
} BookMakeOptions;

typedef struct {
    long games;    /* games read, skipped included */
    long skipped;  /* games rejected by the PGN reader */
    size_t pairs;  /* distinct (position, move) pairs seen */
    long written;  /* entries in the book, -1 if it was not written */
} BookMakeStats;

BookMakeOptions bookmaker_options_default(void);
/*
 * Builds a book at out from the games of the PGN files, weighting each move
 * by its game results exactly as Polyglot's make-book does. Messages about
 * skipped games go to log (may be NULL). Returns false with err on failure.
 */
bool bookmaker_make(const char *const *pgnFiles, int fileCount, const char *out, const BookMakeOptions *options,
                    BookMakeStats *stats, FILE *log, char *err, size_t errlen);

/* ./gizum book make|probe|dump ...; returns the process exit status. */
int bookmaker_command(int argc, char **argv);
/* The synopsis of `gizum book` (its three subcommands). */
void bookmaker_usage(FILE *out);

#endif
