/*
 * Fuzz target: what gizum-match makes of its engines' replies: the UCI and
 * xboard protocols (match_uci.c, match_xboard.c: uciok, id, option,
 * readyok, info, bestmove, feature, pong, move, resign, claims, thinking
 * lines), the game loop and the referee's check of every move (match_game.c,
 * match_referee.c), adjudication and the clocks.
 *
 * Input: the first line is a gizum-match command line (as after the
 * program name, words split at blanks): its first two engines, their
 * protocols, limits, ponder and options, and -draw, -resign, -maxmoves,
 * -variant play here. A line that does not parse to two engines gives two
 * UCI engines at 1000+1. The rest is the engines' output: one transcript
 * read in the order the tool reads it, whichever engine asks (so a game is
 * written as it goes: "id name A", "uciok", "readyok", ..., "bestmove e2e4",
 * "bestmove e7e5", ...). Three control bytes at the start of a line stand for
 * what an engine does without words:
 *
 *   \x01  nothing comes before the deadline (a stall: the move is a time
 *         forfeit, or the handshake fails)
 *   \x02  the engine exits (its pipe closes; the tool must restart it for
 *         the next game)
 *   \x03  the tool is told to stop (Ctrl-C): the game is abandoned
 *
 * and the transcript's end is the end of every engine. Up to four games are
 * played, colours alternating, engines kept (and restarted) between games
 * as the tournament does.
 *
 * The engine processes are this file's: it defines every proc_* function
 * of match_process.h (so the archive's real ones are never linked in), and
 * nothing waits for real time. Checked:
 *  - every line the tool writes is one line; every "position" command it
 *    sends holds only legal moves, and every go's numbers are integers;
 *  - a game that is not interrupted ends with a result, a termination and a
 *    reason; its moves replay legally from its start and their UCI and SAN
 *    texts are the replay's; a result by the rules is the referee's verdict
 *    on the final position; an engine that failed loses;
 *  - no crash, sanitizer report, leak or hang (libFuzzer's -timeout).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "fen.h"
#include "match_cli.h"
#include "match_engine.h"
#include "match_game.h"
#include "match_process.h"

enum { GAMES = 4, MAX_ARGS = 128, READ_TIMEOUT_BYTE = 1, READ_EXIT_BYTE = 2, READ_STOP_BYTE = 3 };

static const char Chess960Fen[] = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";

static Position *Pos;
static FILE *Quiet;          /* /dev/null: stands in for stderr while the tool warns */
static atomic_bool Stop;

/* The transcript being read, and what the harness knows of the game. */
static const uint8_t *Text;
static size_t TextSize, TextAt;
static bool Chess960;
static int NextPid = 1000;
static bool Echo; /* FUZZ_MATCHREPLY_ECHO set: the traffic and each game's end go to stderr */

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    board_init();
    Pos = fuzz_new_position();
    Quiet = fopen("/dev/null", "w");
    int null = open("/dev/null", O_WRONLY);
    /* cli_parse may print a drawn seed on stdout. */
    if (!Quiet || null < 0 || dup2(null, STDOUT_FILENO) < 0) abort();
    close(null);
    Echo = getenv("FUZZ_MATCHREPLY_ECHO") != NULL;
    return 0;
}

/* ------------------------------------------------------------ the engines: match_process.h on the transcript */

bool proc_spawn(Process *p, char *const argv[], const char *dir, const char *stderrPath, char *err, size_t errlen) {
    (void)argv;
    (void)dir;
    (void)stderrPath;
    memset(p, 0, sizeof *p);
    if (errlen) err[0] = '\0';
    p->pid = NextPid++;
    /* Descriptors that are never used: every proc_* function is here. */
    p->toChild = 1000;
    p->fromChild = 1001;
    return true;
}

/* The moves of a UCI position command must be legal. */
static void check_position_command(const char *text) {
    char *copy = strdup(text), *save = NULL, err[256];
    if (!copy) abort();
    char *word = strtok_r(copy + strlen("position"), " ", &save);
    if (word && strcmp(word, "startpos") == 0) {
        pos_set_startpos(Pos, Chess960);
        word = strtok_r(NULL, " ", &save);
    } else {
        FUZZ_CHECK(word && strcmp(word, "fen") == 0, "position command '%.200s'", text);
        char fen[256] = "";
        for (int i = 0; i < 6 && (word = strtok_r(NULL, " ", &save)) && strcmp(word, "moves") != 0; i++)
            snprintf(fen + strlen(fen), sizeof fen - strlen(fen), "%s%s", i ? " " : "", word);
        FUZZ_CHECK(pos_set_fen(Pos, fen, Chess960, err, sizeof err), "position fen '%s': %s", fen, err);
        if (word && strcmp(word, "moves") != 0) word = strtok_r(NULL, " ", &save);
    }
    if (word) {
        FUZZ_CHECK(strcmp(word, "moves") == 0, "position command '%.200s'", text);
        while ((word = strtok_r(NULL, " ", &save))) {
            Move m = move_from_uci(Pos, word);
            char fen[128];
            pos_get_fen(Pos, fen);
            FUZZ_CHECK(m != MOVE_NONE, "the tool sent the illegal move '%s' in %s", word, fen);
            pos_do_game_move(Pos, m);
        }
    }
    free(copy);
}

/* A go command's numbers are integers in range. */
static void check_go_command(const char *text) {
    const char *p = text + 2;
    while (*p) {
        while (*p == ' ') p++;
        if (isdigit((unsigned char)*p) || *p == '-') {
            char *end;
            errno = 0;
            long long v = strtoll(p, &end, 10);
            FUZZ_CHECK(errno == 0 && v >= 0 && (*end == ' ' || *end == '\0'), "go command '%s'", text);
            p = end;
        } else {
            while (*p && *p != ' ') p++;
        }
    }
}

bool proc_write_line(Process *p, const char *text, double timeout) {
    (void)timeout;
    if (p->toChild < 0 || p->eof) return false; /* the engine is gone: EPIPE */
    if (Echo) dprintf(STDERR_FILENO, "%d > %s\n", (int)p->pid, text);
    FUZZ_CHECK(!strchr(text, '\n'), "the tool wrote a line with a newline inside: '%.200s'", text);
    if (strncmp(text, "position ", 9) == 0) check_position_command(text);
    if (strncmp(text, "go", 2) == 0 && (text[2] == ' ' || text[2] == '\0')) check_go_command(text);
    return true;
}

ReadResult proc_read_line(Process *p, char *line, double deadline, const atomic_bool *stop) {
    (void)deadline;
    if (p->fromChild < 0 || p->eof) return READ_EOF;
    if (stop && atomic_load(stop)) return READ_STOPPED;
    if (TextAt >= TextSize) {
        p->eof = true; /* the end of the transcript is the end of every engine */
        return READ_EOF;
    }
    const uint8_t *begin = Text + TextAt, *nl = memchr(begin, '\n', TextSize - TextAt);
    size_t n = nl ? (size_t)(nl - begin) : TextSize - TextAt;
    TextAt += n + (nl != NULL);
    if (n > 0 && begin[0] == READ_TIMEOUT_BYTE) return READ_TIMEOUT;
    if (n > 0 && begin[0] == READ_EXIT_BYTE) {
        p->eof = true;
        return READ_EOF;
    }
    if (n > 0 && begin[0] == READ_STOP_BYTE) {
        atomic_store(&Stop, true);
        return READ_STOPPED;
    }
    /* As the real reader: an over-long line is cut, a CR before the newline dropped, NUL bytes kept. */
    if (n > PROC_LINE_MAX - 1) n = PROC_LINE_MAX - 1;
    memcpy(line, begin, n);
    line[n] = '\0';
    if (n > 0 && line[n - 1] == '\r') line[n - 1] = '\0';
    if (Echo) dprintf(STDERR_FILENO, "%d < %s\n", (int)p->pid, line);
    return READ_LINE;
}

bool proc_alive(Process *p) {
    if (p->pid <= 0 || p->reaped) return false;
    if (p->eof) {
        p->reaped = true;
        p->status = 0;
        return false;
    }
    return true;
}

void proc_terminate(Process *p, double grace) {
    (void)grace;
    p->toChild = p->fromChild = -1;
    if (p->pid > 0 && !p->reaped) {
        p->reaped = true;
        p->status = 9; /* as if killed */
    }
    p->eof = true;
}

void proc_describe_exit(const Process *p, char *out, size_t len) {
    if (!p->reaped) snprintf(out, len, "still running");
    else if (WIFEXITED(p->status)) snprintf(out, len, "exit status %d", WEXITSTATUS(p->status));
    else snprintf(out, len, "killed by signal %d", WTERMSIG(p->status));
}

/* ------------------------------------------------------------ the games */

typedef struct {
    int warnings;
} Log;

static void on_warning(void *ctx, const char *message) {
    Log *l = ctx;
    FUZZ_CHECK(message[0] && !strchr(message, '\n'), "warning '%.200s'", message);
    l->warnings++;
}

/* A finished game: a verdict, legal moves whose texts are right, and a result the rules or a failure explain. */
static void check_game(const GameRecord *rec, const AdjudicationConfig *adj) {
    const GameOutcome *o = &rec->outcome;
    FUZZ_CHECK(o->result == RESULT_WHITE_WINS || o->result == RESULT_BLACK_WINS || o->result == RESULT_DRAW,
               "game ended without a result (%s)", o->reason);
    FUZZ_CHECK(o->termination != TERM_NONE && o->termination != TERM_UNTERMINATED && o->reason[0],
               "game without a termination or reason");
    char err[256], uci[16], san[32];
    FUZZ_CHECK(pos_set_fen(Pos, rec->startFen, rec->chess960, err, sizeof err), "start FEN '%s': %s", rec->startFen,
               err);
    for (int i = 0; i < rec->count; i++) {
        Move m = rec->plies[i].move;
        MoveList legal;
        gen_legal(Pos, &legal);
        FUZZ_CHECK(movelist_contains(&legal, m), "ply %d (%04x) is illegal", i + 1, m);
        move_to_uci(m, rec->chess960, uci);
        move_to_san(Pos, m, san);
        FUZZ_CHECK(strcmp(uci, rec->texts[i].uci) == 0 && strcmp(san, rec->texts[i].san) == 0,
                   "ply %d written %s/%s, is %s/%s", i + 1, rec->texts[i].uci, rec->texts[i].san, uci, san);
        FUZZ_CHECK(!rec->plies[i].isMate || rec->plies[i].hasScore, "ply %d: a mate score without a score", i + 1);
        pos_do_game_move(Pos, m);
    }
    fuzz_check_state(Pos, "final position");
    GameOutcome rules;
    bool over = referee_check(Pos, &rules);
    if (o->termination == TERM_NORMAL && !strstr(o->reason, "resigns"))
        FUZZ_CHECK(over && rules.result == o->result && strcmp(rules.reason, o->reason) == 0,
                   "'%s' but the rules say %s", o->reason, over ? rules.reason : "the game goes on");
    if (strcmp(o->reason, "Draw by maximum moves") == 0)
        FUZZ_CHECK(adj->maxMoves > 0 && Pos->gamePly / 2 >= adj->maxMoves, "maximum moves %d after %d plies",
                   adj->maxMoves, Pos->gamePly);
    if (rec->failedSide >= 0)
        FUZZ_CHECK(o->result == (rec->failedSide == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS),
                   "the side whose engine failed does not lose (%s)", o->reason);
    FUZZ_CHECK(rec->failedSide < 0 || rec->failure[0], "an engine failure without a description");
}

/* Two engines from the command line, or two UCI engines at 1000+1. */
static bool parse_config(const uint8_t *data, size_t size, MatchConfig *cfg, char **text) {
    const uint8_t *nl = memchr(data, '\n', size);
    size_t n = nl ? (size_t)(nl - data) : size;
    *text = malloc(n + 1);
    if (!*text) abort();
    memcpy(*text, data, n);
    (*text)[n] = '\0';
    char *argv[MAX_ARGS + 2], *save = NULL;
    int argc = 0;
    argv[argc++] = "gizum-match";
    for (char *w = strtok_r(*text, " ", &save); w && argc <= MAX_ARGS; w = strtok_r(NULL, " ", &save)) argv[argc++] = w;
    argv[argc] = NULL;
    char err[2048];
    FILE *realStderr = stderr;
    stderr = Quiet;
    bool ok = cli_parse(argc, argv, cfg, err, sizeof err);
    stderr = realStderr;
    if (ok && cfg->engineCount >= 2 && !cfg->stateIn && !cfg->help && !cfg->version) return true;
    cli_free(cfg);
    char *fallback[] = {"gizum-match", "-engine", "cmd=/bin/sh", "name=A", "-engine", "cmd=/bin/sh", "name=B",
                        "-each", "tc=1000+1", NULL};
    if (!cli_parse(9, fallback, cfg, err, sizeof err)) abort();
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    MatchConfig cfg;
    char *cmdline;
    parse_config(data, size, &cfg, &cmdline);
    const uint8_t *nl = memchr(data, '\n', size);
    Text = nl ? nl + 1 : data + size;
    TextSize = nl ? size - (size_t)(nl + 1 - data) : 0;
    TextAt = 0;
    Chess960 = cfg.chess960;
    atomic_store(&Stop, false);

    EngineLog log = {.file = Quiet, .t0 = clock_now()};
    pthread_mutex_init(&log.lock, NULL);
    Engine engines[2];
    for (int i = 0; i < 2; i++) engine_prepare(&engines[i], &cfg.engines[i], cfg.engines[i].name, &log, &Stop, 1.0);
    Log warnings = {0};
    GameSettings s = {.fen = cfg.chess960 ? Chess960Fen : NULL, .chess960 = cfg.chess960, .timeMargin = cfg.timeMargin,
                      .hangLimit = cfg.hangLimit, .adjudication = &cfg.adjudication, .log = on_warning,
                      .logCtx = &warnings};
    FILE *realStderr = stderr;
    stderr = Quiet;
    for (int g = 0; g < GAMES && TextAt < TextSize; g++) {
        GameRecord rec;
        game_record_init(&rec);
        bool done = game_play(&s, &engines[g % 2], &engines[1 - g % 2], &rec);
        stderr = realStderr;
        if (Echo)
            dprintf(STDERR_FILENO, "game %d: %s {%s} after %d plies%s\n", g + 1, result_text(rec.outcome.result),
                    rec.outcome.reason, rec.count, done ? "" : " (interrupted)");
        if (done) check_game(&rec, &cfg.adjudication);
        else FUZZ_CHECK(atomic_load(&Stop), "game_play gave up without being stopped");
        stderr = Quiet;
        game_record_free(&rec);
        if (!done) break;
    }
    for (int i = 0; i < 2; i++) engine_free(&engines[i]);
    stderr = realStderr;
    pthread_mutex_destroy(&log.lock);
    cli_free(&cfg);
    free(cmdline);
    return 0;
}
