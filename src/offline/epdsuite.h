/*
 * `./gizum epd FILE ...`: runs a test suite of EPD records (WAC, ECM, STS
 * and the like) and reports which positions Gizum solves.
 *
 * A record is a position (four FEN fields, optionally the two counters)
 * followed by operations `opcode operand...;`. Understood: `bm` (best
 * moves) and `am` (moves to avoid) in SAN or UCI, `id`, `hmvc`/`fmvn`, and
 * the Strategic Test Suite point scheme: `c0 "Qd2=10, Qe1=5"` (or the
 * parallel lists `c7`/`c9` moves and `c8` points). Other operations are
 * ignored. A record is solved when the move played is one of its `bm`
 * moves and none of its `am` moves (with points only: the move with the
 * most points); it scores the points of the move played.
 */
#ifndef GIZUM_EPDSUITE_H
#define GIZUM_EPDSUITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "types.h"

enum { EPD_MOVES_MAX = 32, EPD_ID_MAX = 64, EPD_FEN_MAX = 128 };

typedef struct {
    char fen[EPD_FEN_MAX];      /* full FEN, counters included */
    char id[EPD_ID_MAX];        /* "" when the record has none */
    Move best[EPD_MOVES_MAX];
    int bestCount;
    Move avoid[EPD_MOVES_MAX];
    int avoidCount;
    Move pointMoves[EPD_MOVES_MAX];
    int points[EPD_MOVES_MAX];
    int pointCount;
} EpdRecord;

/*
 * Parses one EPD line. Returns false with the reason in err for a record
 * that cannot be run (bad position, illegal or ambiguous move, nothing to
 * test); blank lines and '#' comments are not records (false, err "").
 */
bool epd_parse_record(const char *line, EpdRecord *rec, char *err, size_t errlen);

/* The points the record gives move (0 when it has no point for it). */
int epd_points_for(const EpdRecord *rec, Move move);
/* The most points any move of the record earns (0 without a point scheme). */
int epd_points_max(const EpdRecord *rec);
/* Whether playing move solves the record. */
bool epd_is_solved(const EpdRecord *rec, Move move);

/* The records of a suite file, with their line numbers. */
typedef struct {
    EpdRecord *records;
    int *lines;
    int count, cap, skipped;    /* skipped: bad records, reported */
} EpdRecords;

/*
 * Reads every record of the file at path; bad ones are reported on stderr as
 * "path:line: reason (skipped)" and counted. False (with a message) when the
 * file cannot be read or memory runs out. Free with epd_records_free either way.
 */
bool epd_records_load(EpdRecords *s, const char *path);
void epd_records_free(EpdRecords *s);

/* The shell command; returns the exit status (2 for bad arguments or an unreadable file). */
int epdsuite_command(int argc, char **argv);
/* The synopsis of `gizum epd`. */
void epdsuite_usage(FILE *out);

#endif
