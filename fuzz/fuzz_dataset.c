/*
 * Fuzz target: the training-data readers (src/offline/dataset.h).
 *
 * Input: arbitrary bytes as a data file (an in-memory file named via /proc).
 *
 * 1. Every line alone through dataset_parse_line: blank and '#' lines are
 *    skipped, a refused line says why, and an accepted record has a
 *    trimmed FEN field without '|', a result of 1, 0.5 or 0 and a score
 *    within +-DATASET_SCORE_MAX, and prints (dataset_format_line) as a line
 *    that parses back to the same record. A FEN that sets up is a valid
 *    position that round-trips. Each line is also a PGN move comment for
 *    dataset_parse_score_comment: a score it reads is in bounds.
 * 2. The file through dataset_read_lines (as gizum-tune reads it): every
 *    line is skipped, bad or a record, records are exactly the lines with
 *    a newline, no NUL byte, at most DATASET_LINE_MAX bytes that parse, in
 *    order; when the callback stops the reading, nothing comes after.
 * 3. The file as PGN through dataset_read_pgn (as `gizum datagen --pgn`
 *    and gizum-tune read games): every record is a legal position, not in
 *    check, with a result and a bounded score; the counts agree.
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "fuzz_memfile.h"
#include "dataset.h"
#include "fen.h"

static Position *Pos, *Scratch;
static int FileFd = -1;
static char FilePath[64];

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    engine_init();
    Pos = fuzz_new_position();
    Scratch = fuzz_new_position();
    FileFd = fuzz_memfile_create("fuzz-dataset", FilePath, sizeof FilePath);
    return 0;
}

static bool same_record(const DataRecord *a, const DataRecord *b) {
    return strcmp(a->fen, b->fen) == 0 && a->hasScore == b->hasScore && (!a->hasScore || a->score == b->score) &&
           a->result == b->result;
}

/* A record's fields are in their bounds; a FEN that sets up is a valid position. */
static void check_record_fields(const DataRecord *r, const char *where) {
    FUZZ_CHECK(memchr(r->fen, '\0', sizeof r->fen), "%s: unterminated FEN field", where);
    size_t n = strlen(r->fen);
    FUZZ_CHECK(n > 0 && !strchr(r->fen, '|'), "%s: FEN field '%s' empty or holds '|'", where, r->fen);
    FUZZ_CHECK(r->fen[0] != ' ' && r->fen[0] != '\t' && r->fen[n - 1] != ' ' && r->fen[n - 1] != '\t' &&
                   r->fen[n - 1] != '\r' && r->fen[n - 1] != '\n',
               "%s: FEN field '%s' not trimmed", where, r->fen);
    FUZZ_CHECK(r->result == 0.0 || r->result == 0.5 || r->result == 1.0, "%s: result %g", where, r->result);
    FUZZ_CHECK(!r->hasScore || (r->score >= -DATASET_SCORE_MAX && r->score <= DATASET_SCORE_MAX), "%s: score %d",
               where, r->score);
    if (pos_set_fen(Pos, r->fen, false, NULL, 0)) {
        fuzz_check_state(Pos, where);
        fuzz_check_fen_roundtrip(Pos, Scratch, where);
    }
}

/* What dataset_parse_line says of one line, with its invariants checked. */
static DatasetLineKind check_line(const char *line, DataRecord *rec) {
    char err[160], again[DATASET_LINE_SIZE + 8];
    memset(err, 'X', sizeof err);
    DatasetLineKind kind = dataset_parse_line(line, rec, err, sizeof err);
    const char *p = line;
    while (*p == ' ' || *p == '\t') p++;
    bool skip = *p == '\0' || *p == '\n' || *p == '\r' || *p == '#';
    FUZZ_CHECK((kind == DATASET_SKIP) == skip, "line '%.80s': kind %d", line, kind);
    if (kind == DATASET_BAD) FUZZ_CHECK(memchr(err, '\0', sizeof err) && err[0], "line refused without a reason");
    if (kind != DATASET_RECORD) return kind;
    check_record_fields(rec, "dataset line");
    dataset_format_line(rec, again, sizeof again);
    size_t n = strlen(again);
    FUZZ_CHECK(n < DATASET_LINE_SIZE && n > 0 && again[n - 1] == '\n', "formatted line '%s' too long or cut", again);
    DataRecord back;
    FUZZ_CHECK(dataset_parse_line(again, &back, err, sizeof err) == DATASET_RECORD && same_record(rec, &back),
               "record of '%.80s' prints as '%s', which reads back differently", line, again);
    return kind;
}

/* ------------------------------------------------------------ dataset_read_lines */

typedef struct {
    size_t lastLine;       /* every callback's line number is above the previous one */
    size_t records;
    size_t bad;
    size_t stopAfter;      /* the record callback returns false at this record (0: never) */
    DataRecord *expected;  /* per line: the record it must give (by line number - 1) */
    bool *isRecord;
    size_t lineCount;
} ReadState;

static bool on_record(void *ctx, size_t line, const DataRecord *rec) {
    ReadState *s = ctx;
    FUZZ_CHECK(line > s->lastLine && line <= s->lineCount, "record at line %zu after %zu (%zu lines)", line,
               s->lastLine, s->lineCount);
    FUZZ_CHECK(s->isRecord[line - 1], "line %zu handed over as a record", line);
    FUZZ_CHECK(same_record(rec, &s->expected[line - 1]), "line %zu: another record than the line holds", line);
    for (size_t i = s->lastLine; i + 1 < line; i++)
        FUZZ_CHECK(!s->isRecord[i], "line %zu holds a record and was passed over", i + 1);
    s->lastLine = line;
    s->records++;
    return s->stopAfter == 0 || s->records < s->stopAfter;
}

static void on_bad(void *ctx, size_t line, const char *reason) {
    ReadState *s = ctx;
    FUZZ_CHECK(line > s->lastLine && line <= s->lineCount, "bad line %zu after %zu", line, s->lastLine);
    FUZZ_CHECK(!s->isRecord[line - 1], "line %zu holds a record but was called bad: %s", line, reason);
    FUZZ_CHECK(reason && reason[0], "bad line %zu without a reason", line);
    for (size_t i = s->lastLine; i + 1 < line; i++)
        FUZZ_CHECK(!s->isRecord[i], "line %zu holds a record and was passed over", i + 1);
    s->lastLine = line;
    s->bad++;
}

/* Splits the input into lines as getline does, checks each alone, then reads the file. */
static void check_lines(const uint8_t *data, size_t size) {
    size_t cap = size + 1;
    DataRecord *expected = calloc(cap, sizeof *expected);
    bool *isRecord = calloc(cap, sizeof *isRecord);
    char *text = malloc(size + 2);
    if (!expected || !isRecord || !text) abort();
    size_t lines = 0, skipped = 0;
    for (size_t start = 0; start < size; lines++) {
        const uint8_t *nl = memchr(data + start, '\n', size - start);
        size_t end = nl ? (size_t)(nl - data) + 1 : size;
        size_t len = end - start;
        memcpy(text, data + start, len);
        text[len] = '\0';
        bool nul = strlen(text) != len;
        DatasetLineKind kind = check_line(text, &expected[lines]);
        int cp;
        bool mate;
        if (dataset_parse_score_comment(text, &cp, &mate))
            FUZZ_CHECK(cp >= -DATASET_SCORE_MAX && cp <= DATASET_SCORE_MAX && (!mate || abs(cp) == DATASET_SCORE_MAX) &&
                           strchr(text, '/'),
                       "score comment '%.40s' read as %d (mate %d)", text, cp, mate);
        /* The reader: too long or NUL first, then skip, then a missing newline, then the parse. */
        bool tooLong = len > DATASET_LINE_MAX;
        isRecord[lines] = !tooLong && !nul && kind == DATASET_RECORD && nl;
        skipped += !tooLong && !nul && kind == DATASET_SKIP;
        start = end;
    }

    FILE *f = fopen(FilePath, "r");
    if (!f) abort();
    ReadState s = {.expected = expected, .isRecord = isRecord, .lineCount = lines,
                   .stopAfter = size ? data[0] % 8 : 0};
    size_t read = 0;
    FUZZ_CHECK(dataset_read_lines(f, on_record, on_bad, &s, &read), "dataset_read_lines: read error");
    fclose(f);
    if (s.stopAfter && s.records == s.stopAfter) {
        FUZZ_CHECK(read == s.lastLine, "reading stopped at record line %zu but %zu lines were read", s.lastLine, read);
    } else {
        FUZZ_CHECK(read == lines, "%zu lines read of %zu", read, lines);
        for (size_t i = s.lastLine; i < lines; i++)
            FUZZ_CHECK(!isRecord[i], "line %zu holds a record and was passed over", i + 1);
        FUZZ_CHECK(s.records + s.bad + skipped == lines, "%zu records + %zu bad + %zu skipped != %zu lines", s.records,
                   s.bad, skipped, lines);
    }
    free(text);
    free(isRecord);
    free(expected);
}

/* ------------------------------------------------------------ dataset_read_pgn */

typedef struct {
    long records;
    long stopAfter;
} PgnState;

static bool on_pgn_record(const DataRecord *rec, void *ctx) {
    PgnState *s = ctx;
    char err[256];
    check_record_fields(rec, "PGN record");
    FUZZ_CHECK(pos_set_fen(Pos, rec->fen, false, err, sizeof err) || pos_set_fen(Pos, rec->fen, true, err, sizeof err),
               "PGN record FEN '%s' does not set up: %s", rec->fen, err);
    FUZZ_CHECK(!pos_in_check(Pos), "PGN record in check: %s", rec->fen);
    FUZZ_CHECK(!rec->hasScore || abs(rec->score) <= DATASET_SCORE_MAX, "PGN record with score %d", rec->score);
    s->records++;
    return s->stopAfter == 0 || s->records < s->stopAfter;
}

static void check_pgn(const uint8_t *data, size_t size) {
    uint8_t knobs = size ? data[size - 1] : 0;
    DatasetPgnOptions options = {.skipPlies = knobs % 5, .requireScore = knobs & 8, .warnings = NULL};
    PgnState s = {0, (knobs >> 4) % 4};
    DatasetPgnStats stats = {0};
    char err[256];
    memset(err, 'X', sizeof err);
    bool ok = dataset_read_pgn(FilePath, &options, on_pgn_record, &s, &stats, err, sizeof err);
    FUZZ_CHECK(ok, "dataset_read_pgn failed on a readable file: %.100s", memchr(err, '\0', sizeof err) ? err : "?");
    FUZZ_CHECK(stats.records == s.records, "%ld records counted, %ld handed over", stats.records, s.records);
    FUZZ_CHECK(stats.games >= 0 && stats.skippedGames >= 0, "negative game counts");
    FUZZ_CHECK(s.stopAfter == 0 || s.records <= s.stopAfter, "records handed over after the stop");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_memfile_write(FileFd, data, size);
    check_lines(data, size);
    check_pgn(data, size);
    return 0;
}
