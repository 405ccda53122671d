/*
 * Fuzz target: every reader of EPD files.
 *
 * Input: arbitrary bytes as a file (an in-memory file named via /proc), read
 *
 * 1. by the match tool's opening reader (tools/match/match_openings.h), as
 *    EPD and as PGN, for standard chess and Chess960, in file order and
 *    shuffled. A failed load leaves a message and an empty suite. A loaded
 *    suite is a non-empty set of openings whose FENs parse and print back
 *    unchanged, whose moves are legal from them, and whose play order is a
 *    permutation; openings_get hands out exact copies;
 * 2. by `./gizum epd`'s suite reader (epdsuite.h): every line alone through
 *    epd_parse_record (an accepted record has a legal position, legal bm/am
 *    and point moves within their bounds, and epd_is_solved agrees with
 *    them; a refused one says why unless it is blank or a comment), and the
 *    file through epd_records_load, whose records must be exactly the
 *    accepted text lines, each with its own line number;
 * 3. by the start-position reader of genfens, datagen and openings
 *    (openings_load_epd), whose positions must be exactly those of the
 *    lines whose four FEN fields (and counters) make a legal position.
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "fuzz_memfile.h"
#include "epdsuite.h"
#include "fen.h"
#include "match_openings.h"
#include "openings.h"

enum { GET_CHECKS = 40, LINE_CHECK_MAX = 4000 };

static Position *Pos, *Scratch;
static int FileFd = -1;
static FILE *Quiet; /* /dev/null, standing in for stderr while the loader warns */
static char FilePath[64];

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    engine_init();
    Pos = fuzz_new_position();
    Scratch = fuzz_new_position();
    FileFd = fuzz_memfile_create("fuzz-openings", FilePath, sizeof FilePath);
    Quiet = fopen("/dev/null", "w");
    if (!Quiet) abort();
    return 0;
}

/* One opening: its FEN (if any) parses (and reprints unchanged when canonical); its moves are legal from it. */
static void check_opening(const Opening *o, bool chess960, bool canonical, const char *what) {
    char err[256], fen[128];
    if (o->fen) {
        FUZZ_CHECK(pos_set_fen(Pos, o->fen, chess960, err, sizeof err), "%s: stored FEN '%s' is rejected: %s", what,
                   o->fen, err);
        pos_get_fen(Pos, fen);
        FUZZ_CHECK(!canonical || strcmp(fen, o->fen) == 0, "%s: stored FEN '%s' reprints as '%s'", what, o->fen, fen);
        fuzz_check_state(Pos, what);
        fuzz_check_fen_roundtrip(Pos, Scratch, what);
    } else {
        pos_set_startpos(Pos, chess960);
    }
    FUZZ_CHECK(o->moveCount >= 0 && (o->moveCount == 0 || o->moves), "%s: %d moves", what, o->moveCount);
    for (int i = 0; i < o->moveCount; i++) {
        MoveList legal;
        gen_legal(Pos, &legal);
        pos_get_fen(Pos, fen);
        FUZZ_CHECK(movelist_contains(&legal, o->moves[i]), "%s: move %d (%04x) illegal in %s", what, i + 1, o->moves[i],
                   fen);
        pos_do_game_move(Pos, o->moves[i]);
    }
}

/* Two openings are the same FEN and moves. */
static bool same_opening(const Opening *a, const Opening *b) {
    if ((a->fen == NULL) != (b->fen == NULL) || (a->fen && strcmp(a->fen, b->fen) != 0)) return false;
    return a->moveCount == b->moveCount &&
           (a->moveCount == 0 || memcmp(a->moves, b->moves, (size_t)a->moveCount * sizeof *a->moves) == 0);
}

/* Loads the file one way and checks the suite. */
static void check_load(OpeningFormat format, bool chess960, bool random, long start, uint64_t seed) {
    OpeningConfig cfg = {.file = FilePath, .format = format, .random = random, .plies = (int)(seed % 12), .seed = seed,
                         .start = start};
    OpeningSuite s;
    char err[256];
    memset(err, 'X', sizeof err);
    /*
     * The loader warns about bad lines on stderr: swapping the stdio stream
     * (not the descriptor) keeps fuzzing logs readable while libFuzzer and
     * sanitizer reports still reach the real stderr.
     */
    FILE *realStderr = stderr;
    stderr = Quiet;
    bool ok = openings_load(&s, &cfg, chess960, err, sizeof err);
    stderr = realStderr;
    if (!ok) {
        FUZZ_CHECK(strnlen(err, sizeof err) < sizeof err && err[0], "openings_load failed without a message");
        FUZZ_CHECK(s.count == 0 && s.items == NULL && s.order == NULL, "failed openings_load left %ld openings", s.count);
        openings_free(&s);
        return;
    }
    FUZZ_CHECK(s.count > 0 && s.items && s.order, "openings_load succeeded with %ld openings", s.count);
    bool *seen = calloc((size_t)s.count, sizeof *seen);
    if (!seen) abort();
    for (long i = 0; i < s.count; i++) {
        FUZZ_CHECK(s.order[i] >= 0 && s.order[i] < s.count && !seen[s.order[i]], "play order is not a permutation");
        seen[s.order[i]] = true;
        /* EPD openings are stored as Gizum prints them; PGN ones as the FEN tag was written. */
        check_opening(&s.items[i], chess960, format == OPENINGS_EPD, format == OPENINGS_EPD ? "EPD opening" : "PGN opening");
        if (format == OPENINGS_EPD)
            FUZZ_CHECK(s.items[i].fen && s.items[i].moveCount == 0, "EPD opening without a FEN or with moves");
        if (format == OPENINGS_PGN && cfg.plies > 0)
            FUZZ_CHECK(s.items[i].moveCount <= cfg.plies, "PGN opening longer than plies=%d", cfg.plies);
    }
    free(seen);
    for (long n = 0; n < GET_CHECKS && n < 2 * s.count + 1; n++) {
        Opening o;
        FUZZ_CHECK(openings_get(&s, n, &o), "openings_get(%ld) failed", n);
        long index = n + (cfg.start > 0 ? cfg.start - 1 : 0);
        FUZZ_CHECK(same_opening(&o, &s.items[s.order[index % s.count]]), "openings_get(%ld) is not a copy", n);
        opening_free(&o);
    }
    openings_free(&s);
}

/* ------------------------------------------------------------ lines of the input */

/* The input's lines as a file reader sees them: split at '\n' (a last line may lack it). */
typedef struct {
    const char *text;   /* NUL-terminated copy of the line, without its '\n' */
    size_t len;         /* its length in the file (NUL bytes included, '\n' not) */
    bool hasNul;
    bool hasNewline;
} Line;

typedef struct {
    Line *lines;
    int count;
    char *storage;
} Lines;

static void split_lines(const uint8_t *data, size_t size, Lines *out) {
    out->count = 0;
    out->lines = malloc((size + 1) * sizeof *out->lines);
    out->storage = malloc(size + 1);
    if (!out->lines || !out->storage) abort();
    memcpy(out->storage, data, size);
    out->storage[size] = '\0';
    for (size_t start = 0; start < size;) {
        const uint8_t *nl = memchr(data + start, '\n', size - start);
        size_t end = nl ? (size_t)(nl - data) : size;
        Line *l = &out->lines[out->count++];
        out->storage[end] = '\0';
        l->text = out->storage + start;
        l->len = end - start;
        l->hasNul = memchr(data + start, '\0', end - start) != NULL;
        l->hasNewline = nl != NULL;
        start = end + 1;
    }
}

static void free_lines(Lines *l) {
    free(l->lines);
    free(l->storage);
}

/* Blank or a '#' comment, as the EPD readers skip them (blanks: space, tab, CR, LF). */
static bool is_blank_or_comment(const char *s) {
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') s++;
    return *s == '\0' || *s == '#';
}

/* ------------------------------------------------------------ ./gizum epd */

static bool in_moves(const Move *list, int count, Move m) {
    for (int i = 0; i < count; i++)
        if (list[i] == m) return true;
    return false;
}

/* An accepted record: a legal position, legal moves within their bounds, and a consistent verdict. */
static void check_record(const EpdRecord *r, const char *line) {
    char err[256];
    FUZZ_CHECK(memchr(r->fen, '\0', sizeof r->fen) && memchr(r->id, '\0', sizeof r->id), "unterminated FEN or id");
    FUZZ_CHECK(pos_set_fen(Pos, r->fen, false, err, sizeof err), "epd record FEN '%s' is rejected: %s (line '%.80s')",
               r->fen, err, line);
    fuzz_check_state(Pos, "epd record");
    fuzz_check_fen_roundtrip(Pos, Scratch, "epd record");
    FUZZ_CHECK(r->bestCount >= 0 && r->bestCount <= EPD_MOVES_MAX && r->avoidCount >= 0 &&
                   r->avoidCount <= EPD_MOVES_MAX && r->pointCount >= 0 && r->pointCount <= EPD_MOVES_MAX,
               "epd record move counts %d %d %d", r->bestCount, r->avoidCount, r->pointCount);
    FUZZ_CHECK(r->bestCount + r->avoidCount + r->pointCount > 0, "epd record with nothing to test: '%.80s'", line);
    MoveList legal;
    gen_legal(Pos, &legal);
    for (int i = 0; i < r->bestCount; i++)
        FUZZ_CHECK(movelist_contains(&legal, r->best[i]), "bm move %04x illegal in %s", r->best[i], r->fen);
    for (int i = 0; i < r->avoidCount; i++)
        FUZZ_CHECK(movelist_contains(&legal, r->avoid[i]), "am move %04x illegal in %s", r->avoid[i], r->fen);
    int max = epd_points_max(r);
    FUZZ_CHECK(max >= 0, "negative points maximum %d", max);
    for (int i = 0; i < r->pointCount; i++) {
        FUZZ_CHECK(movelist_contains(&legal, r->pointMoves[i]), "point move %04x illegal in %s", r->pointMoves[i],
                   r->fen);
        FUZZ_CHECK(r->points[i] <= max, "points %d above the maximum %d", r->points[i], max);
    }
    FUZZ_CHECK(!epd_is_solved(r, MOVE_NONE), "no move solves a record");
    for (int i = 0; i < legal.count; i++) {
        Move m = legal.moves[i];
        bool want = !in_moves(r->avoid, r->avoidCount, m) &&
                    (r->bestCount ? in_moves(r->best, r->bestCount, m)
                                  : r->avoidCount ? true : epd_points_for(r, m) == max);
        FUZZ_CHECK(epd_is_solved(r, m) == want, "epd_is_solved(%04x) is %d in '%.80s'", m, !want, line);
    }
}

/* Each line alone, then the file: the loaded records are exactly the accepted text lines. */
static void check_epd_suite(const Lines *lines) {
    EpdRecord *accepted = malloc((size_t)(lines->count + 1) * sizeof *accepted);
    bool *ok = calloc((size_t)lines->count + 1, sizeof *ok);
    if (!accepted || !ok) abort();
    for (int i = 0; i < lines->count; i++) {
        const Line *l = &lines->lines[i];
        char err[256];
        memset(err, 'X', sizeof err);
        ok[i] = epd_parse_record(l->text, &accepted[i], err, sizeof err);
        FUZZ_CHECK(memchr(err, '\0', sizeof err), "epd_parse_record left err unterminated");
        if (ok[i]) check_record(&accepted[i], l->text);
        else if (is_blank_or_comment(l->text)) FUZZ_CHECK(err[0] == '\0', "blank or comment line refused: %s", err);
        else FUZZ_CHECK(err[0] != '\0', "record refused without a reason: '%.80s'", l->text);
    }

    EpdRecords suite;
    FILE *realStderr = stderr;
    stderr = Quiet;
    bool loaded = epd_records_load(&suite, FilePath);
    stderr = realStderr;
    FUZZ_CHECK(loaded, "epd_records_load failed on a readable file");
    int next = 0;
    for (int k = 0; k < suite.count; k++) {
        int line = suite.lines[k];
        FUZZ_CHECK(line > next && line <= lines->count, "record %d at line %d (previous %d, %d lines)", k, line, next,
                   lines->count);
        /* Every line in between that holds a whole, plain record was not left out. */
        for (int i = next; i < line - 1; i++)
            FUZZ_CHECK(!ok[i] || lines->lines[i].hasNul || lines->lines[i].len > LINE_CHECK_MAX,
                       "line %d holds a record and was not loaded", i + 1);
        const Line *l = &lines->lines[line - 1];
        FUZZ_CHECK(!l->hasNul, "line %d has a NUL byte, yet a record was loaded from it", line);
        FUZZ_CHECK(ok[line - 1] && memcmp(&suite.records[k], &accepted[line - 1], sizeof accepted[0]) == 0,
                   "the record loaded for line %d is not the line's record", line);
        next = line;
    }
    for (int i = next; i < lines->count; i++)
        FUZZ_CHECK(!ok[i] || lines->lines[i].hasNul || lines->lines[i].len > LINE_CHECK_MAX,
                   "line %d holds a record and was not loaded", i + 1);
    epd_records_free(&suite);
    free(ok);
    free(accepted);
}

/* ------------------------------------------------------------ start positions (genfens, datagen) */

typedef struct {
    int count;
    int lines;
} Warnings;

/* Each complaint is "path:N: reason" with N a line of the file. */
static void note_warning(void *ctx, const char *message) {
    Warnings *w = ctx;
    size_t n = strlen(FilePath);
    FUZZ_CHECK(strncmp(message, FilePath, n) == 0 && message[n] == ':', "warning without the path: %s", message);
    long line = strtol(message + n + 1, NULL, 10);
    FUZZ_CHECK(line >= 1 && line <= w->lines, "warning for line %ld of %d: %s", line, w->lines, message);
    w->count++;
}

/* openings_load_epd: exactly the positions of the lines that hold a legal one, in order. */
static void check_start_positions(const Lines *lines) {
    OpeningList list;
    Warnings w = {0, lines->count};
    char err[512];
    memset(err, 'X', sizeof err);
    bool ok = openings_load_epd(FilePath, &list, note_warning, &w, err, sizeof err);
    int k = 0;
    for (int i = 0; i < lines->count; i++) {
        const Line *l = &lines->lines[i];
        char fen[OPENINGS_FEN_SIZE], why[256];
        const char *p = l->text;
        while (*p == ' ' || *p == '\t') p++;
        if (!l->hasNul && (*p == '\0' || *p == '\r' || *p == '#')) continue;
        if (l->hasNul || l->len + l->hasNewline > 4096 || !fen_from_epd(p, fen, sizeof fen) ||
            !pos_set_fen(Pos, fen, false, why, sizeof why))
            continue;
        FUZZ_CHECK(ok && k < list.count && strcmp(list.fens[k], fen) == 0,
                   "line %d ('%.80s') should give start position %d '%s'", i + 1, l->text, k + 1, fen);
        fuzz_check_state(Pos, "EPD start position");
        k++;
    }
    if (ok) {
        FUZZ_CHECK(k == list.count && k > 0, "openings_load_epd gave %d positions, the lines hold %d", list.count, k);
    } else {
        FUZZ_CHECK(k == 0 && list.count == 0 && list.fens == NULL, "failed openings_load_epd left %d positions",
                   list.count);
        FUZZ_CHECK(memchr(err, '\0', sizeof err) && err[0], "openings_load_epd failed without a message");
    }
    openings_free_list(&list);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_memfile_write(FileFd, data, size);
    uint64_t seed = size ? data[size - 1] : 0;
    check_load(OPENINGS_EPD, false, false, 0, seed);
    check_load(OPENINGS_EPD, true, true, (long)(seed % 7), seed);
    check_load(OPENINGS_PGN, false, seed & 1, (long)(seed % 3), seed);
    check_load(OPENINGS_PGN, true, false, 1, seed);
    Lines lines;
    split_lines(data, size, &lines);
    check_epd_suite(&lines);
    check_start_positions(&lines);
    free_lines(&lines);
    return 0;
}
