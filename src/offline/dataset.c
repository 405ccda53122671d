#include "dataset.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgn.h"
#include "fen.h"
#include "numparse.h"
#include "platform.h" /* getline on Windows */

static DatasetLineKind bad(char *err, size_t errlen, const char *reason) {
    if (err && errlen) snprintf(err, errlen, "%s", reason);
    return DATASET_BAD;
}

/* Copies [begin, end) without surrounding blanks into out; false if it does not fit or is empty. */
static bool copy_trimmed(const char *begin, const char *end, char *out, size_t outlen) {
    while (begin < end && (*begin == ' ' || *begin == '\t')) begin++;
    while (end > begin && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n')) end--;
    size_t len = (size_t)(end - begin);
    if (len == 0 || len >= outlen) return false;
    memcpy(out, begin, len);
    out[len] = '\0';
    return true;
}

static bool parse_result(const char *text, double *result) {
    if (!strcmp(text, "1.0") || !strcmp(text, "1") || !strcmp(text, "1-0")) *result = 1.0;
    else if (!strcmp(text, "0.5") || !strcmp(text, "1/2-1/2")) *result = 0.5;
    else if (!strcmp(text, "0.0") || !strcmp(text, "0") || !strcmp(text, "0-1")) *result = 0.0;
    else return false;
    return true;
}

static bool parse_score(const char *text, int *score) {
    int64_t v;
    if (!parse_integer(text, -DATASET_SCORE_MAX, DATASET_SCORE_MAX, &v)) return false;
    *score = (int)v;
    return true;
}

DatasetLineKind dataset_parse_line(const char *line, DataRecord *rec, char *err, size_t errlen) {
    const char *p = line;
    while (*p == ' ' || *p == '\t') p++;
    if (*p == '\0' || *p == '\n' || *p == '\r' || *p == '#') return DATASET_SKIP;

    const char *bar1 = strchr(p, '|');
    if (!bar1) return bad(err, errlen, "expected '<FEN> | <score> | <result>'");
    const char *bar2 = strchr(bar1 + 1, '|');
    if (bar2 && strchr(bar2 + 1, '|')) return bad(err, errlen, "more than three '|'-separated fields");

    memset(rec, 0, sizeof *rec);
    if (!copy_trimmed(p, bar1, rec->fen, sizeof rec->fen)) return bad(err, errlen, "empty or too long FEN field");

    char field[32];
    const char *resultBegin = bar2 ? bar2 + 1 : bar1 + 1;
    if (bar2) {
        if (!copy_trimmed(bar1 + 1, bar2, field, sizeof field) || !parse_score(field, &rec->score))
            return bad(err, errlen, "score must be an integer within +-32000 centipawns");
        rec->hasScore = true;
    }
    if (!copy_trimmed(resultBegin, resultBegin + strlen(resultBegin), field, sizeof field)
        || !parse_result(field, &rec->result))
        return bad(err, errlen, "result must be 1.0, 0.5 or 0.0");
    return DATASET_RECORD;
}

void dataset_format_line(const DataRecord *rec, char *out, size_t outlen) {
    const char *result = rec->result > 0.75 ? "1.0" : rec->result < 0.25 ? "0.0" : "0.5";
    if (rec->hasScore)
        snprintf(out, outlen, "%s | %d | %s\n", rec->fen, rec->score, result);
    else
        snprintf(out, outlen, "%s | %s\n", rec->fen, result);
}

/* ------------------------------------------------------------ PGN games */

bool dataset_parse_score_comment(const char *comment, int *cp, bool *mate) {
    const char *p = comment;
    while (*p == ' ') p++;
    int sign = *p == '-' ? -1 : 1;
    if (*p == '+' || *p == '-') p++;
    if (*p == 'M') {
        p++;
        if (!isdigit((unsigned char)*p)) return false;
        while (isdigit((unsigned char)*p)) p++;
        if (*p != '/') return false;
        *cp = sign * DATASET_SCORE_MAX;
        *mate = true;
        return true;
    }
    /* Pawns with any number of decimals, read exactly: no locale, no floating point. */
    long pawns = 0, hundredths = 0;
    int intDigits = 0, fracDigits = 0;
    bool roundUp = false;
    for (; isdigit((unsigned char)*p); p++)
        if (++intDigits <= 4) pawns = pawns * 10 + (*p - '0');
    if (intDigits == 0 || intDigits > 4) return false;
    if (*p == '.') {
        for (p++; isdigit((unsigned char)*p); p++, fracDigits++) {
            if (fracDigits < 2) hundredths = hundredths * 10 + (*p - '0');
            else if (fracDigits == 2) roundUp = *p >= '5';
        }
        if (fracDigits == 0) return false;
        if (fracDigits == 1) hundredths *= 10;
    }
    if (*p != '/') return false;
    long value = pawns * 100 + hundredths + roundUp;
    if (value > DATASET_SCORE_MAX) value = DATASET_SCORE_MAX;
    *cp = sign * (int)value;
    *mate = false;
    return true;
}

static double result_value(PgnResult result) {
    return result == PGN_WHITE_WINS ? 1.0 : result == PGN_BLACK_WINS ? 0.0 : 0.5;
}

/* Hands the records of one game to fn; false when fn asked to stop. */
static bool convert_game(const PgnGame *g, const DatasetPgnOptions *o, Position *pos, DatasetRecordFn fn, void *ctx,
                         DatasetPgnStats *stats) {
    if (!pos_set_fen(pos, g->fen, g->chess960, NULL, 0)) return true;
    DataRecord rec;
    memset(&rec, 0, sizeof rec);
    rec.result = result_value(g->result);
    for (int ply = 0; ply < g->moveCount; ply++) {
        Move m = g->moves[ply];
        const char *comment = pgn_move_comment(g, ply);
        int cp = 0;
        bool mate = false, scored = comment && dataset_parse_score_comment(comment, &cp, &mate);
        bool book = comment && strncmp(comment, "book", 4) == 0;
        bool wanted = ply >= o->skipPlies && !book && !mate && (scored || !o->requireScore) && !pos_in_check(pos)
                      && !pos_is_capture_or_promotion(pos, m);
        if (wanted) {
            pos_get_fen(pos, rec.fen);
            rec.hasScore = scored;
            rec.score = pos_side_to_move(pos) == WHITE ? cp : -cp;
            stats->records++;
            if (!fn(&rec, ctx)) return false;
        }
        pos_do_game_move(pos, m);
    }
    return true;
}

bool dataset_read_pgn(const char *path, const DatasetPgnOptions *options, DatasetRecordFn fn, void *ctx,
                      DatasetPgnStats *stats, char *err, size_t errlen) {
    static const DatasetPgnOptions Defaults = {0, false, NULL};
    const DatasetPgnOptions *o = options ? options : &Defaults;
    PgnReader *reader = pgn_open(path, err, errlen);
    if (!reader) return false;
    Position *pos = malloc(sizeof *pos);
    if (!pos) {
        pgn_close(reader);
        snprintf(err, errlen, "out of memory");
        return false;
    }
    PgnGame game = {0};
    PgnStatus status;
    bool more = true;
    while (more && (status = pgn_next_game(reader, &game)) != PGN_EOF) {
        if (status == PGN_BAD_GAME) {
            stats->skippedGames++;
            if (o->warnings) fprintf(o->warnings, "%s (game skipped)\n", game.error);
            continue;
        }
        if (game.result == PGN_RESULT_UNKNOWN) {
            stats->skippedGames++;
            stats->noResultGames++;
            if (o->warnings) fprintf(o->warnings, "%s:%d: game %d: no result (game skipped)\n", path, game.line, game.number);
            continue;
        }
        stats->games++;
        more = convert_game(&game, o, pos, fn, ctx, stats);
    }
    pgn_game_free(&game);
    free(pos);
    pgn_close(reader);
    return true;
}

bool dataset_read_lines(FILE *f, DatasetLineFn onRecord, DatasetBadLineFn onBad, void *ctx, size_t *lines) {
    char *line = NULL;
    size_t size = 0, number = 0;
    ssize_t length;
    bool going = true;
    while (going && (length = getline(&line, &size, f)) >= 0) {
        number++;
        char err[160];
        if (length > DATASET_LINE_MAX) {
            snprintf(err, sizeof err, "line too long (over %d bytes)", DATASET_LINE_MAX);
            onBad(ctx, number, err);
            continue;
        }
        if (strlen(line) != (size_t)length) {
            onBad(ctx, number, "NUL byte in line");
            continue;
        }
        DataRecord rec;
        DatasetLineKind kind = dataset_parse_line(line, &rec, err, sizeof err);
        if (kind == DATASET_SKIP) continue;
        if (line[length - 1] != '\n') onBad(ctx, number, "truncated line (no newline at end of file)");
        else if (kind == DATASET_BAD) onBad(ctx, number, err);
        else going = onRecord(ctx, number, &rec);
    }
    free(line);
    *lines = number;
    return !ferror(f);
}
