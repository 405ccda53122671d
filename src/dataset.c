#include "dataset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || v < -DATASET_SCORE_MAX || v > DATASET_SCORE_MAX) return false;
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
