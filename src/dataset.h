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

/* Writes rec as one line (with '\n'); out needs DATASET_LINE_SIZE bytes. */
void dataset_format_line(const DataRecord *rec, char *out, size_t outlen);

#endif
