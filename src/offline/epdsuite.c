#include "epdsuite.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "files.h"
#include "notation.h"
#include "numparse.h"
#include "platform.h" /* getline on Windows */
#include "position.h"
#include "progress.h"
#include "search.h"
#include "thread.h"
#include "timeman.h"
#include "tt.h"

enum { EPD_LINE_MAX = 4096, EPD_OPERANDS_MAX = 64, EPD_DEFAULT_MOVETIME_MS = 1000, EPD_THREADS_MAX = 256 };

/* ------------------------------------------------------------ parsing */

/* One operation of a record: the opcode and its operands (quotes removed). */
typedef struct {
    char opcode[16];
    char *operand[EPD_OPERANDS_MAX];
    int count;
} EpdOperation;

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* Copies the next blank-separated word of *s into out; false at the end of the text. */
static bool next_word(const char **s, char *out, size_t size) {
    const char *p = *s;
    while (is_blank(*p)) p++;
    if (!*p) return false;
    size_t n = 0;
    while (*p && !is_blank(*p)) {
        if (n + 1 < size) out[n++] = *p;
        p++;
    }
    out[n] = '\0';
    *s = p;
    return true;
}

static bool all_digits(const char *s) {
    if (!*s) return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s)) return false;
    return true;
}

/*
 * Reads the next operation from *s into op, splitting its operands in the
 * writable buffer buf (quoted operands may hold blanks and semicolons).
 * Returns false at the end of the record; err is set for a malformed one.
 */
static bool next_operation(const char **s, EpdOperation *op, char *buf, char *err, size_t errlen) {
    const char *p = *s;
    while (is_blank(*p) || *p == ';') p++;
    if (!*p) return false;
    size_t n = 0;
    while (*p && !is_blank(*p) && *p != ';' && n + 1 < sizeof op->opcode) op->opcode[n++] = *p++;
    op->opcode[n] = '\0';
    op->count = 0;
    char *out = buf;
    for (;;) {
        while (is_blank(*p)) p++;
        if (!*p || *p == ';') break;
        if (op->count == EPD_OPERANDS_MAX) {
            snprintf(err, errlen, "operation '%s' has more than %d operands", op->opcode, EPD_OPERANDS_MAX);
            return false;
        }
        op->operand[op->count++] = out;
        if (*p == '"') {
            for (p++; *p && *p != '"'; p++) *out++ = *p;
            if (*p != '"') {
                snprintf(err, errlen, "operation '%s': unterminated string", op->opcode);
                return false;
            }
            p++;
        } else {
            while (*p && !is_blank(*p) && *p != ';') *out++ = *p++;
        }
        *out++ = '\0';
    }
    if (*p == ';') p++;
    *s = p;
    return true;
}

/* A move in SAN or UCI, legal in pos; a message in err otherwise. */
static bool parse_move(const Position *pos, const char *opcode, const char *text, Move *out, char *err,
                       size_t errlen) {
    *out = move_from_san(pos, text);
    if (*out == MOVE_NONE) snprintf(err, errlen, "%s: '%.32s' is not a legal move here", opcode, text);
    return *out != MOVE_NONE;
}

static bool add_move(Move *list, int *count, Move m, const char *opcode, char *err, size_t errlen) {
    if (*count == EPD_MOVES_MAX) {
        snprintf(err, errlen, "%s: more than %d moves", opcode, EPD_MOVES_MAX);
        return false;
    }
    list[(*count)++] = m;
    return true;
}

static bool parse_points_value(const char *text, int *out) {
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    while (is_blank(*end)) end++;
    if (end == text || *end || errno == ERANGE || v < -1000000 || v > 1000000) return false;
    *out = (int)v;
    return true;
}

/* Whether text up to end could be a move in SAN or UCI: short, and only the letters and signs moves use. */
static bool looks_like_move(const char *text, const char *end) {
    while (text < end && is_blank(*text)) text++;
    while (end > text && is_blank(end[-1])) end--;
    if (end == text || end - text > 8) return false;
    for (; text < end; text++)
        if (!strchr("abcdefghqrnKQRBNOx12345678+#=-", *text)) return false;
    return true;
}

/* Whether a c0 holds points: its first item is a move, '=' (its last one: "e8=Q=10"), something. */
static bool is_point_scheme(const char *text) {
    const char *end = strchr(text, ',');
    if (!end) end = text + strlen(text);
    const char *eq = NULL;
    for (const char *p = text; p < end; p++)
        if (*p == '=') eq = p;
    return eq && looks_like_move(text, eq);
}

/*
 * c0 "Qd2=10, Qe1=5, f4=3": the point scheme of the Strategic Test Suite.
 * Any other c0 is an ordinary comment and ignored, even with an '=' in it
 * (a URL's query, say).
 */
static bool parse_c0_points(const Position *pos, EpdRecord *rec, const char *text, char *err, size_t errlen) {
    if (!is_point_scheme(text)) return true;
    char copy[EPD_LINE_MAX];
    snprintf(copy, sizeof copy, "%s", text);
    for (char *save = NULL, *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        while (is_blank(*item)) item++;
        char *eq = strrchr(item, '=');
        if (!*item) continue;
        int value;
        if (!eq || !parse_points_value(eq + 1, &value)) {
            snprintf(err, errlen, "c0: '%.32s' is not MOVE=POINTS", item);
            return false;
        }
        *eq = '\0';
        for (char *end = eq; end > item && is_blank(end[-1]); end--) end[-1] = '\0';
        Move m;
        if (!parse_move(pos, "c0", item, &m, err, errlen)) return false;
        if (rec->pointCount == EPD_MOVES_MAX) {
            snprintf(err, errlen, "c0: more than %d moves", EPD_MOVES_MAX);
            return false;
        }
        rec->pointMoves[rec->pointCount] = m;
        rec->points[rec->pointCount++] = value;
    }
    return true;
}

/* c7/c9 (moves in SAN or UCI) with c8 (their points), when there is no c0 scheme. */
static bool parse_parallel_points(const Position *pos, EpdRecord *rec, const char *moves, const char *points,
                                  char *err, size_t errlen) {
    char moveCopy[EPD_LINE_MAX], pointCopy[EPD_LINE_MAX];
    snprintf(moveCopy, sizeof moveCopy, "%s", moves);
    snprintf(pointCopy, sizeof pointCopy, "%s", points);
    char *saveM = NULL, *saveP = NULL;
    char *m = strtok_r(moveCopy, " \t", &saveM), *p = strtok_r(pointCopy, " \t", &saveP);
    for (; m && p; m = strtok_r(NULL, " \t", &saveM), p = strtok_r(NULL, " \t", &saveP)) {
        Move move;
        int value;
        if (!parse_points_value(p, &value)) {
            snprintf(err, errlen, "c8: '%.32s' is not a number", p);
            return false;
        }
        if (!parse_move(pos, "c7/c9", m, &move, err, errlen)) return false;
        if (rec->pointCount == EPD_MOVES_MAX) break;
        rec->pointMoves[rec->pointCount] = move;
        rec->points[rec->pointCount++] = value;
    }
    if (m || p) {
        snprintf(err, errlen, "c8 and c7/c9 list different numbers of moves");
        return false;
    }
    return true;
}

/* The position of the record: four FEN fields, optional counters, hmvc/fmvn operations. */
static bool parse_position(const char **s, Position *pos, EpdRecord *rec, char *err, size_t errlen) {
    char field[4][96], extra[2][32];
    for (int i = 0; i < 4; i++)
        if (!next_word(s, field[i], sizeof field[i])) {
            snprintf(err, errlen, "a position needs four FEN fields, found %d", i);
            return false;
        }
    long halfmove = 0, fullmove = 1;
    const char *after = *s;
    if (next_word(&after, extra[0], sizeof extra[0]) && all_digits(extra[0]) &&
        next_word(&after, extra[1], sizeof extra[1]) && all_digits(extra[1])) {
        halfmove = atol(extra[0]);
        fullmove = atol(extra[1]);
        *s = after;
    }
    /* hmvc and fmvn, if present, give the counters. */
    char buf[EPD_LINE_MAX];
    EpdOperation op;
    const char *scan = *s;
    char ignored[8];
    while (next_operation(&scan, &op, buf, ignored, sizeof ignored))
        if (op.count == 1 && all_digits(op.operand[0])) {
            if (strcmp(op.opcode, "hmvc") == 0) halfmove = atol(op.operand[0]);
            if (strcmp(op.opcode, "fmvn") == 0) fullmove = atol(op.operand[0]);
        }
    char fen[512];
    snprintf(fen, sizeof fen, "%s %s %s %s %ld %ld", field[0], field[1], field[2], field[3],
             halfmove > 10000 ? 10000 : halfmove, fullmove < 1 ? 1 : fullmove > 100000 ? 100000 : fullmove);
    if (strlen(fen) >= sizeof rec->fen) {
        snprintf(err, errlen, "bad position: FEN longer than %d bytes", EPD_FEN_MAX - 1);
        return false;
    }
    memcpy(rec->fen, fen, strlen(fen) + 1);
    char detail[160];
    if (!pos_set_fen(pos, rec->fen, false, detail, sizeof detail)) {
        snprintf(err, errlen, "bad position: %s", detail);
        return false;
    }
    return true;
}

bool epd_parse_record(const char *line, EpdRecord *rec, char *err, size_t errlen) {
    static _Thread_local Position pos;
    memset(rec, 0, sizeof *rec);
    err[0] = '\0';
    const char *s = line;
    while (is_blank(*s)) s++;
    if (!*s || *s == '#') return false;
    if (strlen(s) >= EPD_LINE_MAX) {
        snprintf(err, errlen, "record longer than %d bytes", EPD_LINE_MAX - 1);
        return false;
    }
    if (!parse_position(&s, &pos, rec, err, errlen)) return false;

    char buf[EPD_LINE_MAX], c7[EPD_LINE_MAX] = "", c8[EPD_LINE_MAX] = "", c9[EPD_LINE_MAX] = "";
    EpdOperation op;
    while (next_operation(&s, &op, buf, err, errlen)) {
        bool best = strcmp(op.opcode, "bm") == 0, avoid = strcmp(op.opcode, "am") == 0;
        if (best || avoid) {
            if (op.count == 0) {
                snprintf(err, errlen, "%s without a move", op.opcode);
                return false;
            }
            for (int i = 0; i < op.count; i++) {
                Move m;
                if (!parse_move(&pos, op.opcode, op.operand[i], &m, err, errlen)) return false;
                if (!add_move(best ? rec->best : rec->avoid, best ? &rec->bestCount : &rec->avoidCount, m,
                              op.opcode, err, errlen))
                    return false;
            }
        } else if (strcmp(op.opcode, "id") == 0 && op.count >= 1) {
            snprintf(rec->id, sizeof rec->id, "%s", op.operand[0]);
        } else if (strcmp(op.opcode, "c0") == 0 && op.count >= 1) {
            if (!parse_c0_points(&pos, rec, op.operand[0], err, errlen)) return false;
        } else if (op.count >= 1 && (strcmp(op.opcode, "c7") == 0 || strcmp(op.opcode, "c8") == 0 ||
                                     strcmp(op.opcode, "c9") == 0)) {
            char *dst = op.opcode[1] == '7' ? c7 : op.opcode[1] == '8' ? c8 : c9;
            snprintf(dst, EPD_LINE_MAX, "%s", op.operand[0]);
        }
    }
    if (err[0]) return false;
    if (rec->pointCount == 0 && c8[0] && (c9[0] || c7[0]) &&
        !parse_parallel_points(&pos, rec, c9[0] ? c9 : c7, c8, err, errlen))
        return false;
    if (rec->bestCount == 0 && rec->avoidCount == 0 && rec->pointCount == 0) {
        snprintf(err, errlen, "nothing to test: no bm, am or c0 points");
        return false;
    }
    return true;
}

int epd_points_for(const EpdRecord *rec, Move move) {
    for (int i = 0; i < rec->pointCount; i++)
        if (rec->pointMoves[i] == move) return rec->points[i];
    return 0;
}

int epd_points_max(const EpdRecord *rec) {
    int best = 0;
    for (int i = 0; i < rec->pointCount; i++)
        if (rec->points[i] > best) best = rec->points[i];
    return best;
}

static bool in_list(const Move *list, int count, Move m) {
    for (int i = 0; i < count; i++)
        if (list[i] == m) return true;
    return false;
}

bool epd_is_solved(const EpdRecord *rec, Move move) {
    if (move == MOVE_NONE || in_list(rec->avoid, rec->avoidCount, move)) return false;
    if (rec->bestCount) return in_list(rec->best, rec->bestCount, move);
    if (rec->avoidCount) return true;
    return epd_points_for(rec, move) == epd_points_max(rec);
}

/* ------------------------------------------------------------ the suite */

typedef struct {
    const char *file;
    int64_t moveTime;   /* ms; 0 when depth or nodes limit the search */
    int depth;
    uint64_t nodes;
    int threads;
    int hashMB;
} EpdConfig;

typedef struct {
    Move move;
    Value score;
    int depth;
    uint64_t nodes;
    int64_t ms;
} EpdResult;

typedef struct {
    const EpdRecords *suite;
    Progress progress;
    int solved;
    long points, pointsMax;
    bool anyPoints;
    uint64_t nodes;
} EpdTally;

typedef void (*EpdReport)(void *ctx, int index, const EpdResult *result);

/*
 * Every call into the search lives here: one pool and one table for the
 * whole suite, each position searched from a fresh state (table and
 * histories cleared), so a record's result never depends on the ones
 * before it. Returns false when memory runs out.
 */
static bool search_positions(const EpdConfig *cfg, const EpdRecords *suite, EpdReport report, void *ctx) {
    static Position pos;
    TTable tt = {0};
    if (!tt_resize(&tt, (size_t)cfg->hashMB, 1)) return false;
    ThreadPool *pool = threads_create(cfg->threads, &tt);
    if (!pool) {
        tt_free(&tt);
        return false;
    }
    SearchLimits limits;
    search_limits_init(&limits);
    limits.moveTime = cfg->moveTime;
    limits.depth = cfg->depth;
    limits.nodes = cfg->nodes;
    for (int i = 0; i < suite->count; i++) {
        pos_set_fen(&pos, suite->records[i].fen, false, NULL, 0);
        tt_clear(&tt, TT_CLEAR_ALL_CORES);
        threads_clear(pool);
        int64_t start = tm_now();
        SearchResult found = threads_search(pool, &pos, &limits);
        EpdResult r = {found.bestMove, found.score, found.depth, threads_nodes(pool), tm_now() - start};
        report(ctx, i, &r);
    }
    threads_destroy(pool);
    tt_free(&tt);
    return true;
}

void epd_records_free(EpdRecords *s) {
    free(s->records);
    free(s->lines);
}

bool epd_records_load(EpdRecords *s, const char *path) {
    memset(s, 0, sizeof *s);
    char reason[512];
    FILE *f = file_open_read(path, NULL, reason, sizeof reason);
    if (!f) {
        fprintf(stderr, "epd: %s\n", reason);
        return false;
    }
    /* Whole lines, however long (epd_parse_record refuses the long ones), so line numbers stay true. */
    char *line = NULL;
    size_t size = 0;
    ssize_t len;
    bool ok = true;
    for (int number = 1; ok && (len = getline(&line, &size, f)) >= 0; number++) {
        if (memchr(line, '\0', (size_t)len)) {
            fprintf(stderr, "%s:%d: NUL byte in the line (skipped)\n", path, number);
            s->skipped++;
            continue;
        }
        if (s->count == s->cap) {
            int cap = s->cap ? 2 * s->cap : 64;
            EpdRecord *records = realloc(s->records, (size_t)cap * sizeof *records);
            int *lines = records ? realloc(s->lines, (size_t)cap * sizeof *lines) : NULL;
            if (records) s->records = records;
            if (lines) s->lines = lines;
            if (!records || !lines) {
                fprintf(stderr, "epd: out of memory\n");
                ok = false;
                break;
            }
            s->cap = cap;
        }
        char err[256];
        if (epd_parse_record(line, &s->records[s->count], err, sizeof err)) {
            s->lines[s->count++] = number;
        } else if (err[0]) {
            fprintf(stderr, "%s:%d: %s (skipped)\n", path, number, err);
            s->skipped++;
        }
    }
    free(line);
    fclose(f);
    return ok;
}

/* "+1.25", "-0.30", "+M3", "-M2" from the side to move's view. */
static void format_score(Value v, char *out, size_t size) {
    char uci[32];
    value_to_uci(v, uci);
    if (strncmp(uci, "mate ", 5) == 0) {
        int n = atoi(uci + 5);
        snprintf(out, size, "%sM%d", n > 0 ? "+" : "-", abs(n));
    } else {
        snprintf(out, size, "%+.2f", atoi(uci + 3) / 100.0);
    }
}

/* The expected moves in SAN: "bm Qg6", "am Nf3", "bm Qd2 am Qe1" or the top point move. */
static void format_expected(Position *pos, const EpdRecord *rec, char *out, size_t size) {
    size_t n = 0;
    char san[16];
    out[0] = '\0';
    const Move *lists[2] = {rec->best, rec->avoid};
    const int counts[2] = {rec->bestCount, rec->avoidCount};
    for (int l = 0; l < 2; l++) {
        if (!counts[l]) continue;
        n += (size_t)snprintf(out + n, n < size ? size - n : 0, "%s%s", n ? " " : "", l ? "am" : "bm");
        for (int i = 0; i < counts[l] && n < size; i++) {
            move_to_san(pos, lists[l][i], san);
            n += (size_t)snprintf(out + n, size - n, " %s", san);
        }
    }
    if (!n && rec->pointCount) {
        for (int i = 0; i < rec->pointCount; i++)
            if (rec->points[i] == epd_points_max(rec)) {
                move_to_san(pos, rec->pointMoves[i], san);
                snprintf(out, size, "best %s", san);
                break;
            }
    }
}

/* Prints one result line and adds it to the tally. */
static void report_result(void *ctx, int index, const EpdResult *r) {
    EpdTally *t = ctx;
    const EpdRecord *rec = &t->suite->records[index];
    static Position pos;
    pos_set_fen(&pos, rec->fen, false, NULL, 0);
    char played[16] = "none", expected[128], score[16], points[32] = "", id[EPD_ID_MAX];
    if (r->move != MOVE_NONE) move_to_san(&pos, r->move, played);
    format_expected(&pos, rec, expected, sizeof expected);
    format_score(r->score, score, sizeof score);
    bool solved = epd_is_solved(rec, r->move);
    t->solved += solved;
    t->nodes += r->nodes;
    if (rec->pointCount) {
        int got = epd_points_for(rec, r->move), max = epd_points_max(rec);
        t->points += got;
        t->pointsMax += max;
        t->anyPoints = true;
        snprintf(points, sizeof points, "  points %d/%d", got, max);
    }
    snprintf(id, sizeof id, "%s", rec->id[0] ? rec->id : "-");
    progress_clear(&t->progress);
    printf("%4d/%d %-16s %-20s played %-7s %6s depth %2d %6.2f s  %s%s\n", index + 1, t->suite->count, id,
           expected, played, score, r->depth, (double)r->ms / 1000.0, solved ? "solved" : "FAILED", points);
    progress_show(&t->progress, true, "epd: %d/%d done, %d solved", index + 1, t->suite->count, t->solved);
}

void epdsuite_usage(FILE *out) {
    fprintf(out, "usage: gizum epd FILE [--movetime MS | --depth D | --nodes N] [--threads N] [--hash MB]\n"
                 "       (default --movetime %d, one thread, %d MB hash)\n",
            EPD_DEFAULT_MOVETIME_MS, TT_MB_DEFAULT);
}

static bool parse_args(int argc, char **argv, EpdConfig *cfg) {
    int limits = 0;
    for (int i = 0; i < argc; i++) {
        const char *flag = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        int64_t v = 0;
        bool ok;
        if (strncmp(flag, "--", 2) != 0) {
            if (cfg->file) {
                fprintf(stderr, "epd: one FILE only (got '%s' and '%s')\n", cfg->file, flag);
                return false;
            }
            cfg->file = flag;
            continue;
        }
        if (strcmp(flag, "--movetime") == 0) ok = parse_integer(value, 1, INT64_MAX / 4, &v), cfg->moveTime = v, limits++;
        else if (strcmp(flag, "--depth") == 0) ok = parse_integer(value, 1, MAX_PLY - 1, &v), cfg->depth = (int)v, limits++;
        else if (strcmp(flag, "--nodes") == 0) ok = parse_integer(value, 1, INT64_MAX, &v), cfg->nodes = (uint64_t)v, limits++;
        else if (strcmp(flag, "--threads") == 0) ok = parse_integer(value, 1, EPD_THREADS_MAX, &v), cfg->threads = (int)v;
        else if (strcmp(flag, "--hash") == 0) ok = parse_integer(value, TT_MB_MIN, TT_MB_MAX, &v), cfg->hashMB = (int)v;
        else {
            fprintf(stderr, "epd: unknown option '%s'\n", flag);
            return false;
        }
        if (!ok) {
            fprintf(stderr, "epd: %s needs a number in range, got '%s'\n", flag, value ? value : "");
            return false;
        }
        i++;
    }
    if (!cfg->file) {
        fprintf(stderr, "epd: no FILE given\n");
        return false;
    }
    if (limits > 1) {
        fprintf(stderr, "epd: give only one of --movetime, --depth and --nodes\n");
        return false;
    }
    if (limits == 0) cfg->moveTime = EPD_DEFAULT_MOVETIME_MS;
    return true;
}

int epdsuite_command(int argc, char **argv) {
    EpdConfig cfg = {.threads = 1, .hashMB = TT_MB_DEFAULT};
    if (!parse_args(argc, argv, &cfg)) {
        epdsuite_usage(stderr);
        return 2;
    }
    EpdRecords suite;
    if (!epd_records_load(&suite, cfg.file)) {
        epd_records_free(&suite);
        return 2;
    }
    if (suite.count == 0) {
        fprintf(stderr, "epd: %s: no usable record\n", cfg.file);
        epd_records_free(&suite);
        return 2;
    }
    char limit[64];
    if (cfg.depth) snprintf(limit, sizeof limit, "depth %d", cfg.depth);
    else if (cfg.nodes) snprintf(limit, sizeof limit, "%" PRIu64 " nodes", cfg.nodes);
    else snprintf(limit, sizeof limit, "%" PRId64 " ms", cfg.moveTime);
    printf("epd %s: %d positions, %s per position, %d thread%s, %d MB hash\n", cfg.file, suite.count, limit,
           cfg.threads, cfg.threads == 1 ? "" : "s", cfg.hashMB);
    EpdTally tally = {.suite = &suite};
    progress_init(&tally.progress);
    int64_t start = tm_now();
    if (!search_positions(&cfg, &suite, report_result, &tally)) {
        fprintf(stderr, "epd: out of memory for %d MB hash and %d threads\n", cfg.hashMB, cfg.threads);
        epd_records_free(&suite);
        return 1;
    }
    progress_clear(&tally.progress);
    double seconds = (double)(tm_now() - start) / 1000.0;
    printf("\nsolved %d/%d (%.1f %%) in %.1f s, %" PRIu64 " nodes", tally.solved, suite.count,
           100.0 * tally.solved / suite.count, seconds, tally.nodes);
    if (suite.skipped) printf(", %d bad record%s skipped", suite.skipped, suite.skipped == 1 ? "" : "s");
    printf("\n");
    if (tally.anyPoints)
        printf("points %ld/%ld (%.1f %%)\n", tally.points, tally.pointsMax,
               tally.pointsMax ? 100.0 * (double)tally.points / (double)tally.pointsMax : 0.0);
    epd_records_free(&suite);
    return 0;
}
