/*
 * Fuzz target: gizum-match's command line (tools/match/match_cli.h).
 *
 * Input: the arguments after the program name, one per line (a NUL byte
 * also ends one), then optionally a form feed and the bytes of a state file
 * (-config file=F) for cli_read_state. No engine is started, no file is
 * opened by name.
 *
 * cli_parse must refuse a command line with a message, or give a complete
 * configuration: two engines or more, each with a program, a name distinct
 * from the others', a NULL-terminated argument vector starting with the
 * program, a limit (clock, st, nodes or depth) whose PGN form reads back as
 * the same clock, rotating option values that come from their list; the
 * numbers within the ranges the usage gives; -sprt and -spsa consistent.
 * A state file is refused with a message or gives a command line and
 * points of 0, 0.5, 1 or -1 (not played); that command line is parsed as a
 * resumed tournament parses it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "fuzz_memfile.h"
#include "match_cli.h"

enum { MAX_ARGS = 128 };

static int FileFd = -1;
static char FilePath[64];
static FILE *Quiet; /* /dev/null, standing in for stderr while the parser writes notes */

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    board_init();
    FileFd = fuzz_memfile_create("fuzz-matchcli", FilePath, sizeof FilePath);
    Quiet = fopen("/dev/null", "w");
    if (!Quiet) abort();
    /* The parser prints the seeds it draws on stdout: keep the fuzzer's output readable. */
    int null = open("/dev/null", O_WRONLY);
    if (null < 0 || dup2(null, STDOUT_FILENO) < 0) abort();
    close(null);
    return 0;
}

static bool near(double a, double b, double tolerance) { return a - b <= tolerance && b - a <= tolerance; }

/* A limit that the PGN tag and the banner can show, and that reads back from the tag. */
static void check_time_control(const TimeControl *tc, const char *who) {
    char pgn[64], text[256], err[256];
    FUZZ_CHECK(!tc_is_unlimited(tc), "engine %s has no limit", who);
    FUZZ_CHECK(tc->nodes >= 0 && tc->depth >= 0 && tc->depth <= 1000 && tc->moveTime >= 0, "engine %s: limits", who);
    tc_format_pgn(tc, pgn, sizeof pgn);
    tc_describe(tc, text, sizeof text);
    FUZZ_CHECK(pgn[0] && text[0], "engine %s: empty time control text", who);
    if (!tc->hasClock) return;
    FUZZ_CHECK(tc->base >= 0 && tc->inc >= 0 && (tc->base > 0 || tc->inc > 0) && tc->moves >= 0, "engine %s: clock",
               who);
    /* The tag keeps milliseconds: a clock of whole milliseconds (or none) reads back the same. */
    bool representable = (tc->base == 0 || tc->base >= 0.001) && (tc->inc == 0 || tc->inc >= 0.001);
    if (!representable) return;
    TimeControl back = {0};
    FUZZ_CHECK(tc_parse_clock(&back, pgn, err, sizeof err), "engine %s: PGN time control '%s' does not read back: %s",
               who, pgn, err);
    FUZZ_CHECK(back.moves == tc->moves && near(back.base, tc->base, 0.0005 + tc->base * 1e-12) &&
                   near(back.inc, tc->inc, 0.0005 + tc->inc * 1e-12),
               "engine %s: clock %d/%g+%g is written '%s'", who, tc->moves, tc->base, tc->inc, pgn);
}

/* A rotating option gives, game after game, the values of its list in turn. */
static void check_option(const EngineOption *o, const char *who) {
    FUZZ_CHECK(o->name && o->name[0] && o->value, "engine %s: option without a name or value", who);
    char value[1024];
    for (int game = 0; game < 5; game++) {
        engine_option_value(o, game, value, sizeof value);
        FUZZ_CHECK(memchr(value, '\0', sizeof value), "unterminated option value");
        if (!o->rotate) {
            FUZZ_CHECK(strncmp(value, o->value, sizeof value - 1) == 0, "engine %s: option %s is '%s', not '%s'", who,
                       o->name, value, o->value);
            continue;
        }
        /* The value is one whole item of the comma-separated list. */
        size_t n = strlen(value);
        bool found = false;
        for (const char *p = o->value; p && !found; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
            found = strncmp(p, value, n) == 0 && (p[n] == ',' || p[n] == '\0');
        FUZZ_CHECK(found || n == sizeof value - 1, "engine %s: rotated value '%s' is not in '%s'", who, value,
                   o->value);
    }
}

/* A configuration cli_parse accepted. */
static void check_config(const MatchConfig *c) {
    if (c->help || c->version || c->stateIn) return;
    FUZZ_CHECK(c->engineCount >= 2 && c->engines, "%d engines", c->engineCount);
    for (int i = 0; i < c->engineCount; i++) {
        const EngineConfig *e = &c->engines[i];
        FUZZ_CHECK(e->cmd && e->name && e->name[0], "engine %d without a program or name", i + 1);
        FUZZ_CHECK(e->argc >= 1 && e->argv && e->argv[e->argc] == NULL && strcmp(e->argv[0], e->cmd) == 0,
                   "engine %s: argument vector", e->name);
        for (int k = 0; k < e->argc; k++) FUZZ_CHECK(e->argv[k], "engine %s: NULL argument %d", e->name, k);
        FUZZ_CHECK(e->proto == PROTO_UCI || e->proto == PROTO_XBOARD, "engine %s: protocol", e->name);
        check_time_control(&e->tc, e->name);
        for (int k = 0; k < e->optionCount; k++) check_option(&e->options[k], e->name);
        for (int j = 0; j < i; j++)
            FUZZ_CHECK(strcmp(e->name, c->engines[j].name) != 0, "engines %d and %d are both named '%s'", j + 1, i + 1,
                       e->name);
    }
    FUZZ_CHECK(c->rounds >= 1 && c->games >= 1 && c->games <= 1000 && c->concurrency >= 1 && c->concurrency <= 256,
               "rounds %d games %d concurrency %d", c->rounds, c->games, c->concurrency);
    FUZZ_CHECK(c->timeMargin >= 0 && c->initTimeout > 0 && c->hangLimit > 0 && c->ratingInterval >= 0 &&
                   c->waitMs >= 0 && c->autosaveInterval >= 0,
               "times and intervals");
    const AdjudicationConfig *a = &c->adjudication;
    FUZZ_CHECK(a->maxMoves >= 0 && (!a->drawEnabled || (a->drawMoveCount >= 1 && a->drawScore >= 0)) &&
                   (!a->resignEnabled || (a->resignMoveCount >= 1 && a->resignScore >= 0)),
               "adjudication");
    if (c->sprt.enabled)
        FUZZ_CHECK(c->engineCount == 2 && c->sprt.elo0 < c->sprt.elo1 && c->sprt.alpha > 0 && c->sprt.alpha < 0.5 &&
                       c->sprt.beta > 0 && c->sprt.beta < 0.5,
                   "sprt elo0 %g elo1 %g alpha %g beta %g", c->sprt.elo0, c->sprt.elo1, c->sprt.alpha, c->sprt.beta);
    if (c->spsa.enabled) {
        FUZZ_CHECK(c->engineCount == 2 && c->spsa.file && c->spsa.state && c->spsa.iterations > 0 && !c->sprt.enabled,
                   "spsa");
        size_t n0 = strlen(c->engines[0].name), n1 = strlen(c->engines[1].name);
        FUZZ_CHECK(c->engines[0].name[n0 - 1] == '+' && c->engines[1].name[n1 - 1] == '-', "spsa engine names");
    }
    if (c->openings.file) FUZZ_CHECK(c->openings.start >= 0 && c->openings.plies >= 0, "openings start/plies");
}

/* Parses argv, checks what comes out, frees it. */
static void parse_and_check(int argc, char **argv) {
    MatchConfig cfg;
    char err[2048];
    memset(err, 'X', sizeof err);
    FILE *realStderr = stderr;
    stderr = Quiet;
    bool ok = cli_parse(argc, argv, &cfg, err, sizeof err);
    stderr = realStderr;
    if (ok) check_config(&cfg);
    else FUZZ_CHECK(memchr(err, '\0', sizeof err) && err[0], "cli_parse refused without a message");
    cli_free(&cfg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const uint8_t *ff = memchr(data, '\f', size);
    size_t argBytes = ff ? (size_t)(ff - data) : size;

    char *text = malloc(argBytes + 1);
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    if (!text) abort();
    memcpy(text, data, argBytes);
    text[argBytes] = '\0';
    argv[argc++] = "gizum-match";
    for (size_t start = 0; start < argBytes && argc <= MAX_ARGS;) {
        size_t end = start;
        while (end < argBytes && text[end] != '\n' && text[end] != '\0') end++;
        text[end] = '\0';
        argv[argc++] = text + start;
        start = end + 1;
    }
    argv[argc] = NULL;
    parse_and_check(argc, argv);
    free(text);

    if (!ff) return 0;
    fuzz_memfile_write(FileFd, ff + 1, size - argBytes - 1);
    int stateArgc;
    char **stateArgv;
    double *points;
    long count;
    char err[1024];
    memset(err, 'X', sizeof err);
    if (!cli_read_state(FilePath, &stateArgc, &stateArgv, &points, &count, err, sizeof err)) {
        FUZZ_CHECK(memchr(err, '\0', sizeof err) && err[0], "cli_read_state refused without a message");
        FUZZ_CHECK(stateArgc == 0 && !stateArgv && !points, "refused state left a command line or points");
        return 0;
    }
    FUZZ_CHECK(stateArgc >= 2 && stateArgv && stateArgv[stateArgc] == NULL && points && count > 0,
               "state: %d arguments, %ld games", stateArgc, count);
    for (long i = 0; i < count; i++)
        FUZZ_CHECK(points[i] == -1 || points[i] == 0 || points[i] == 0.5 || points[i] == 1, "state: game %ld has %g",
                   i, points[i]);
    parse_and_check(stateArgc, stateArgv);
    cli_free_args(stateArgc, stateArgv);
    free(points);
    return 0;
}
