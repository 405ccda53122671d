/*
 * Training data: one position per line, as the datagen writes it and the
 * tuner reads it. The text format is the one marlinflow and bullet read:
 *
 *     <FEN> | <score> | <result>
 *
 * score: the search's score in centipawns from White's point of view
 * (an integer; mate scores are clamped to +-DATASET_SCORE_MAX); result: the
 * game's result from White's point of view, 1.0, 0.5 or 0.0. A line may
 * leave the score out ("<FEN> | <result>", e.g. positions from PGN games
 * without engine comments). Blank lines and lines starting with '#' are
 * ignored.
 */
#ifndef GIZUM_DATASET_H
#define GIZUM_DATASET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum { DATASET_FEN_SIZE = 128, DATASET_LINE_SIZE = 192, DATASET_SCORE_MAX = 32000 };

typedef struct {
    char fen[DATASET_FEN_SIZE];
    int score;        /* cp, White's view; meaningful only when hasScore */
    bool hasScore;
    double result;    /* 1.0 white won, 0.5 draw, 0.0 black won */
} DataRecord;

typedef enum { DATASET_SKIP, DATASET_RECORD, DATASET_BAD } DatasetLineKind;

/*
 * Parses one line. DATASET_SKIP for blank and comment lines, DATASET_BAD
 * with a reason in err (the FEN itself is not checked here: set it up with
 * pos_set_fen, which names its faults), DATASET_RECORD otherwise.
 */
DatasetLineKind dataset_parse_line(const char *line, DataRecord *rec, char *err, size_t errlen);

/* The longest dataset line readers accept (a FEN and two numbers need far less). */
enum { DATASET_LINE_MAX = 4096 };

/* A line dataset_read_lines could not take: its number and the reason. */
typedef void (*DatasetBadLineFn)(void *ctx, size_t line, const char *reason);
/* One well-formed record and its line number; returns false to stop reading. */
typedef bool (*DatasetLineFn)(void *ctx, size_t line, const DataRecord *rec);

/*
 * Reads dataset lines from f until its end or until onRecord returns false.
 * Blank and comment lines are skipped; lines that are too long, contain a
 * NUL byte, are malformed or lack their newline at the end of the file (it
 * may have been cut anywhere, even into a number that still parses) go to
 * onBad. Returns false on a read error; *lines is the number of lines read.
 */
bool dataset_read_lines(FILE *f, DatasetLineFn onRecord, DatasetBadLineFn onBad, void *ctx, size_t *lines);

/* Writes rec as one line (with '\n'); out needs DATASET_LINE_SIZE bytes. */
void dataset_format_line(const DataRecord *rec, char *out, size_t outlen);

/*
 * An engine's score in a PGN move comment, as cutechess-cli, fastchess and
 * gizum-match write it: "+0.35/12 0.48s", "-1.20/9", "+M5/20 ...", "-M3/..."
 * (pawns or mate in moves, then '/' and the depth; the mover's point of
 * view). Sets *cp (mates as +-DATASET_SCORE_MAX) and *mate; false for any
 * other comment ("book", "?/0", free text).
 */
bool dataset_parse_score_comment(const char *comment, int *cp, bool *mate);

/* Which positions of PGN games become records. */
typedef struct {
    int skipPlies;        /* leave out each game's first plies (counted from its start position) */
    bool requireScore;    /* only positions whose move has a score comment (else the score is left out) */
    FILE *warnings;       /* unreadable games are reported here as "file:line: game N: reason"; NULL: quiet */
} DatasetPgnOptions;

/* What dataset_read_pgn found, added to the caller's totals. */
typedef struct {
    long games;           /* games converted */
    long skippedGames;    /* unreadable games and games without a result */
    long records;         /* records handed to the callback */
    long noResultGames;   /* of skippedGames, those without a result (the tuner counts them apart) */
} DatasetPgnStats;

/* Receives one record; returns false to stop reading. */
typedef bool (*DatasetRecordFn)(const DataRecord *rec, void *ctx);

/*
 * Converts the games of a PGN file: every position before a move becomes a
 * record with the game's result and the score of the move's comment, except
 * positions in check, before a capture or promotion, before a {book} move,
 * with a mate score, or among the first skipPlies. options may be NULL
 * (defaults: all plies, score optional, quiet). Returns false with a message
 * in err when the file cannot be opened or memory runs out; bad games are
 * skipped and counted.
 */
bool dataset_read_pgn(const char *path, const DatasetPgnOptions *options, DatasetRecordFn fn, void *ctx,
                      DatasetPgnStats *stats, char *err, size_t errlen);

#endif
