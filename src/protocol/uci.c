/*
 * UCI protocol front end: command parsing, options, and the engine state
 * the protocol owns (current position, transposition table, thread pool).
 */
#include "uci.h"
#include "fen.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "bench.h"
#include "book.h"
#include "movegen.h"
#include "notation.h"
#include "numparse.h"
#include "perft.h"
#include "platform.h"
#include "position.h"
#include "search.h"
#include "searchparams.h"
#include "syzygy.h"
#include "strength.h"
#include "thread.h"
#include "timeman.h"
#include "tt.h"
#include "version.h"
#include "wdl.h"

enum { MULTIPV_MAX = 256, MOVE_OVERHEAD_MAX = 5000, TB_PROBE_DEPTH_MAX = 100, PERFT_DEPTH_MAX = 20 };
/* Longer clocks (ms, about 31 years) are accepted but counted as this, so time arithmetic cannot overflow. */
static const int64_t GoTimeClampMs = 1000000000000;
/* Book moves are played up to this full-move number by default. */
enum { BOOK_DEPTH_DEFAULT = 20, BOOK_DEPTH_MAX = 1000 };
/* setoption's longest name and value, with the terminating NUL; string options are kept in as much. */
enum { OPTION_NAME_MAX = 256, OPTION_VALUE_MAX = 1024 };

/* What the reporter needs besides the search's own data; written only while no search runs. */
typedef struct {
    ThreadPool *pool;
    bool debug;          /* debug mode when the search started */
    bool showWDL;        /* UCI_ShowWDL: scores carry "wdl W D L" */
    int material;        /* the root position's, for the WDL model */
} ReportContext;

/* Everything the protocol keeps between commands. */
typedef struct {
    Position *pos;       /* position for the next go */
    Position *scratch;   /* a `position` command is built here, then swapped in */
    TTable tt;
    ThreadPool *pool;
    bool debug;
    bool quit;
    bool oneShot;        /* commands from the shell (uci_run_commands): each search must end by itself */
    bool usageError;     /* one of them was malformed: the shell's exit status is 2 */
    bool positionRejected; /* from the shell: the commands after it would act on another position */
    uint64_t seedRng;    /* draws a new seed for every game */
    uint64_t gameSeed;   /* the strength levels' random choices in this game */
    char **words;        /* word pointers for one command line */
    Book book;           /* loaded when OwnBook is on */
    bool bookIllegalSaid; /* its entries with illegal moves were named (once per load) */
    uint64_t bookRng;
    char bookDefault[OPTION_VALUE_MAX]; /* Gizum's own book, if found at start-up */
    ReportContext report; /* the UCI reporter's context for the running search */
    UciExtraFinder extras; /* the program's commands beyond the protocol */

    /* The options' values: the option table (Options) says which option sets which field. */
    SearchSettings settings; /* MultiPV, Move Overhead, Syzygy*: what every go searches with */
    int threads;
    int hashMB;
    bool ponder;
    bool chess960;
    bool limitStrength;  /* UCI_LimitStrength: play at UCI_Elo */
    int elo;             /* UCI_Elo */
    int skill;           /* Skill Level; used when UCI_LimitStrength is off */
    bool showWDL;        /* UCI_ShowWDL */
    bool ownBook;
    bool bookBest;
    int bookDepth;       /* in full moves from the start of the game */
    char bookFile[OPTION_VALUE_MAX];
} UciState;

/* ------------------------------------------------------------ output */

/* Prints one line to stdout as a unit (the search thread reports while this thread answers) and flushes. */
static void uci_print(const char *fmt, ...) PRINTF_FORMAT(1, 2);
static void uci_print(const char *fmt, ...) {
    char line[8192];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    /* stdio's own lock keeps lines from different threads whole. */
    flockfile(stdout);
    fputs(line, stdout);
    fputc('\n', stdout);
    fflush(stdout);
    funlockfile(stdout);
}

/* ------------------------------------------------------------ search reports */

/* " wdl W D L" after the score when UCI_ShowWDL is on, else nothing. Buffer >= 24. */
static void format_wdl(const ReportContext *rc, Wdl wdl, char *out) {
    out[0] = '\0';
    if (rc && rc->showWDL) sprintf(out, " wdl %d %d %d", wdl.win, wdl.draw, wdl.loss);
}

static void report_line(void *context, const SearchLine *l) {
    const ReportContext *rc = context;
    char score[24], wdl[24], pv[MAX_PLY * 6 + 8];
    value_to_uci(l->score, score);
    format_wdl(rc, wdl_from_value(l->score, rc ? rc->material : 0), wdl);
    size_t len = 0;
    pv[0] = '\0';
    for (int i = 0; i < l->pvLength; i++) {
        char text[8];
        move_to_uci(l->pv[i], l->chess960, text);
        if (len + strlen(text) + 2 >= sizeof pv) break;
        len += (size_t)sprintf(pv + len, "%s%s", i ? " " : "", text);
    }
    uint64_t nps = l->timeMs > 0 ? l->nodes * 1000 / (uint64_t)l->timeMs : l->nodes;
    uci_print("info depth %d seldepth %d multipv %d score %s%s%s nodes %" PRIu64 " nps %" PRIu64
              " hashfull %d tbhits %" PRIu64 " time %" PRId64 " pv %s",
              l->depth, l->selDepth, l->multiPV, score, wdl,
              l->bound == BOUND_LOWER ? " lowerbound" : l->bound == BOUND_UPPER ? " upperbound" : "",
              l->nodes, nps, l->hashfull, l->tbHits, l->timeMs, pv);
}

static void report_currmove(void *context, int depth, Move move, int moveNumber, bool chess960) {
    (void)context;
    char text[8];
    move_to_uci(move, chess960, text);
    uci_print("info depth %d currmove %s currmovenumber %d", depth, text, moveNumber);
}

static void report_no_moves(void *context, bool inCheck) {
    char wdl[24];
    /* The game is over: checkmate is lost, stalemate drawn, whatever the model would say. */
    format_wdl(context, inCheck ? (Wdl){0, 0, 1000} : (Wdl){0, 1000, 0}, wdl);
    uci_print("info depth 0 score %s%s", inCheck ? "mate 0" : "cp 0", wdl);
}

/* "info string ..." */
static void info(const char *fmt, ...) PRINTF_FORMAT(1, 2);
static void info(const char *fmt, ...) {
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    uci_print("info string %s", text);
}

static void tb_message(void *context, const char *message) {
    (void)context;
    info("SyzygyPath: %s", message);
}

static void report_bestmove(void *context, Move best, Move ponder, bool chess960) {
    const ReportContext *rc = context;
    /* Tables that turned out broken when first probed in this search (they are ignored from now on). */
    tb_take_messages(tb_message, NULL);
    SearchStats stats;
    if (rc && rc->debug && threads_stats(rc->pool, 0, &stats)) {
        char line[512];
        bench_stats_summary(&stats, line, sizeof line);
        uci_print("info string stats %s", line);
    }
    /* Debug mode: the time plan and what the search took of it, from go (or ponderhit) to this
     * bestmove, so that a tournament runner can measure how far the engine overruns its own maximum,
     * how long the machine kept the search from running (its wall time less its processor time), and
     * the processor time charged between two reads of the clock beyond the ~1 ms of work between them,
     * summed (gap: stalls the thread did not see, e.g. a virtual machine's host freezing the core). */
    const TimeManager *tm = rc && rc->debug ? threads_time_plan(rc->pool) : NULL;
    if (tm && tm->active)
        uci_print("info string time: optimum %" PRId64 " ms, maximum %" PRId64 " ms, reserve %" PRId64
                  " ms, used %" PRId64 " ms, waited %" PRId64 " ms, gap %" PRId64 " ms",
                  tm->optimum, tm->maximum, tm->reserve, threads_elapsed(rc->pool), threads_waited(rc->pool),
                  threads_unseen_stalls(rc->pool));
    char bestText[8], ponderText[8];
    move_to_uci(best, chess960, bestText);
    if (ponder != MOVE_NONE) {
        move_to_uci(ponder, chess960, ponderText);
        uci_print("bestmove %s ponder %s", bestText, ponderText);
    } else {
        uci_print("bestmove %s", bestText);
    }
}

static const SearchReporter UciReporter = {
    .line = report_line,
    .currmove = report_currmove,
    .no_moves = report_no_moves,
    .bestmove = report_bestmove,
};

const char *uci_shown(const char *in, char *out, size_t size) {
    enum { SHOWN_MAX = 40 };
    size_t n = 0;
    for (; in[n] && n < SHOWN_MAX && n + 4 < size; n++)
        out[n] = (unsigned char)in[n] >= 32 && (unsigned char)in[n] < 127 ? in[n] : '?';
    if (in[n] && n + 4 < size) {
        strcpy(out + n, "...");
        return out;
    }
    out[n] = '\0';
    return out;
}

/* ------------------------------------------------------------ tokens */

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* The blank-separated words of one command line, consumed from the front. */
typedef struct {
    char **word;
    int count, next;
} Args;

/* Splits line in place into words (capacity: one per two bytes of line, enough for any line). */
static void args_split(Args *a, char *line) {
    a->count = a->next = 0;
    char *s = line;
    for (;;) {
        while (*s && is_blank(*s)) s++;
        if (!*s) break;
        a->word[a->count++] = s;
        while (*s && !is_blank(*s)) s++;
        if (*s) *s++ = '\0';
    }
}

static const char *args_next(Args *a) { return a->next < a->count ? a->word[a->next++] : NULL; }
static const char *args_peek(const Args *a) { return a->next < a->count ? a->word[a->next] : NULL; }

/* ------------------------------------------------------------ engine state */

/*
 * Commands that change what the search threads share need an idle engine.
 * A search already told to stop ends within milliseconds and is waited for;
 * a running one is left alone and the command refused.
 */
static bool ensure_idle(UciState *s, const char *what) {
    if (!threads_busy(s->pool)) return true;
    if (threads_stopping(s->pool)) {
        threads_wait(s->pool);
        return true;
    }
    info("%s ignored: a search is running (send stop first)", what);
    return false;
}

/* xorshift64*: the engine's own seed stream (strength levels draw one seed per game). */
static uint64_t next_seed(UciState *s) {
    s->seedRng ^= s->seedRng >> 12;
    s->seedRng ^= s->seedRng << 25;
    s->seedRng ^= s->seedRng >> 27;
    return s->seedRng * 0x2545F4914F6CDD1DULL;
}

/* The level to play at: UCI_LimitStrength with UCI_Elo first, else Skill Level (20 = full strength). */
static void strength_for_go(const UciState *s, SearchLimits *limits) {
    if (s->limitStrength) strength_from_elo(s->elo, &limits->strength);
    else strength_from_skill(s->skill, &limits->strength);
    limits->strengthSeed = s->gameSeed;
}

/* ------------------------------------------------------------ options */

typedef enum { OPTION_SPIN, OPTION_CHECK, OPTION_BUTTON, OPTION_STRING } OptionType;

/* Marks an option whose value is kept in no field (buttons, and options whose act keeps it). */
#define NO_FIELD SIZE_MAX

/*
 * One UCI option: everything about it is declared here once. A spin keeps
 * its value in an int field of UciState, a check in a bool field (field is
 * offsetof); the value is stored once it is valid, then act() runs, for the
 * options that do more than store.
 */
typedef struct {
    const char *name;
    OptionType type;
    int def, min, max;          /* spin; check uses def as 0/1 */
    bool needsIdle;             /* changes state the search threads share */
    size_t field;
    /* Acts on a valid value (number for spin/check/button, text for string). */
    void (*act)(UciState *s, int number, const char *text);
} UciOption;

/* Threads and Hash keep their value only when the change succeeds, so they store it themselves. */
static void set_threads(UciState *s, int n, const char *text) {
    (void)text;
    if (threads_set_count(s->pool, n)) s->threads = n;
    else info("Threads: could not start %d threads, keeping %d", n, s->threads);
}

/* The table is cleared by one thread per core (tt.c), however many search threads there are. */
static void set_hash(UciState *s, int mb, const char *text) {
    (void)text;
    char why[160];
    if (tt_resize_report(&s->tt, (size_t)mb, TT_CLEAR_ALL_CORES, why, sizeof why)) s->hashMB = mb;
    else info("Hash: could not allocate %d MB (%s), keeping the %d MB table", mb, why, s->hashMB);
}

static void clear_hash(UciState *s, int n, const char *text) {
    (void)n;
    (void)text;
    tt_clear(&s->tt, TT_CLEAR_ALL_CORES);
}

static void set_chess960(UciState *s, int on, const char *text) {
    (void)text;
    s->pos->chess960 = on;
}

/* (Re)loads BookFile when OwnBook is on; a bad book is reported and play goes on without it. */
static void load_book(UciState *s, int number, const char *text) {
    (void)number;
    (void)text;
    char err[512];
    s->bookIllegalSaid = false;
    if (!s->ownBook) {
        book_close(&s->book);
    } else if (!s->bookFile[0]) {
        book_close(&s->book);
        info("OwnBook: no BookFile set, playing without a book");
    } else if (!book_open(&s->book, s->bookFile, err, sizeof err)) {
        info("BookFile: %s; playing without a book", err);
    } else {
        info("book %s: %zu entries", s->bookFile, s->book.count);
    }
}

static void set_book_file(UciState *s, int n, const char *text) {
    /* "<empty>" is how GUIs send the empty string back. */
    if (strcmp(text, "<empty>") == 0) text = "";
    strcpy(s->bookFile, text);
    load_book(s, n, text);
}

static void set_syzygy_path(UciState *s, int n, const char *text) {
    (void)s;
    (void)n;
    if (strcmp(text, "<empty>") == 0) text = "";
    TbSummary found = tb_init(text, tb_message, NULL);
    if (text[0]) info("found %d tablebases (up to %d pieces)", found.wdlTables + found.dtzTables, found.maxPieces);
}

#define FIELD(name) offsetof(UciState, name)

/* Every option, in the order `uci` lists them. */
static const UciOption Options[] = {
    {"Threads", OPTION_SPIN, 1, 1, THREADS_MAX, true, NO_FIELD, set_threads},
    {"Hash", OPTION_SPIN, TT_MB_DEFAULT, TT_MB_MIN, TT_MB_MAX, true, NO_FIELD, set_hash},
    {"Clear Hash", OPTION_BUTTON, 0, 0, 0, true, NO_FIELD, clear_hash},
    {"Ponder", OPTION_CHECK, 0, 0, 1, false, FIELD(ponder), NULL},
    {"MultiPV", OPTION_SPIN, MULTIPV_DEFAULT, 1, MULTIPV_MAX, false, FIELD(settings.multiPV), NULL},
    {"Move Overhead", OPTION_SPIN, MOVE_OVERHEAD_DEFAULT, 0, MOVE_OVERHEAD_MAX, false, FIELD(settings.moveOverhead),
     NULL},
    {"UCI_Chess960", OPTION_CHECK, 0, 0, 1, false, FIELD(chess960), set_chess960},
    {"Skill Level", OPTION_SPIN, SKILL_LEVEL_MAX, 0, SKILL_LEVEL_MAX, false, FIELD(skill), NULL},
    {"UCI_LimitStrength", OPTION_CHECK, 0, 0, 1, false, FIELD(limitStrength), NULL},
    {"UCI_Elo", OPTION_SPIN, STRENGTH_ELO_MAX, STRENGTH_ELO_MIN, STRENGTH_ELO_MAX, false, FIELD(elo), NULL},
    {"UCI_ShowWDL", OPTION_CHECK, 0, 0, 1, false, FIELD(showWDL), NULL},
    {"OwnBook", OPTION_CHECK, 0, 0, 1, false, FIELD(ownBook), load_book},
    {"BookFile", OPTION_STRING, 0, 0, 0, false, NO_FIELD, set_book_file},
    {"BookBestMove", OPTION_CHECK, 0, 0, 1, false, FIELD(bookBest), NULL},
    {"BookDepth", OPTION_SPIN, BOOK_DEPTH_DEFAULT, 1, BOOK_DEPTH_MAX, false, FIELD(bookDepth), NULL},
    {"SyzygyPath", OPTION_STRING, 0, 0, 0, true, NO_FIELD, set_syzygy_path},
    {"SyzygyProbeDepth", OPTION_SPIN, TB_PROBE_DEPTH_DEFAULT, 1, TB_PROBE_DEPTH_MAX, false,
     FIELD(settings.tbProbeDepth), NULL},
    {"Syzygy50MoveRule", OPTION_CHECK, TB_RULE50_DEFAULT, 0, 1, false, FIELD(settings.tbRule50), NULL},
    {"SyzygyProbeLimit", OPTION_SPIN, TB_PROBE_LIMIT_MAX, 0, TB_PROBE_LIMIT_MAX, false, FIELD(settings.tbProbeLimit),
     NULL},
};
enum { OPTION_COUNT = sizeof Options / sizeof Options[0] };

/* Stores a valid value in the option's field, if it has one. */
static void store_option(UciState *s, const UciOption *o, int number) {
    if (o->field == NO_FIELD) return;
    char *field = (char *)s + o->field;
    if (o->type == OPTION_CHECK) *(bool *)field = number != 0;
    else *(int *)field = number;
}

/* The option called name (any case), or NULL. */
static const UciOption *option_named(const char *name) {
    for (int i = 0; i < OPTION_COUNT; i++)
        if (strcasecmp(Options[i].name, name) == 0) return &Options[i];
    return NULL;
}

/* Every option at its default without acting: the state the engine starts in. */
static void default_options(UciState *s) {
    for (int i = 0; i < OPTION_COUNT; i++) store_option(s, &Options[i], Options[i].def);
    s->threads = option_named("Threads")->def;
    s->hashMB = option_named("Hash")->def;
    strcpy(s->bookFile, s->bookDefault);
}

static void print_options(const UciState *s) {
    for (int i = 0; i < OPTION_COUNT; i++) {
        const UciOption *o = &Options[i];
        switch (o->type) {
        case OPTION_SPIN:
            uci_print("option name %s type spin default %d min %d max %d", o->name, o->def, o->min, o->max);
            break;
        case OPTION_CHECK:
            uci_print("option name %s type check default %s", o->name, o->def ? "true" : "false");
            break;
        case OPTION_BUTTON:
            uci_print("option name %s type button", o->name);
            break;
        case OPTION_STRING:
            /* BookFile's default is Gizum's own book when it was found at start-up. */
            uci_print("option name %s type string default %s", o->name,
                      o->act == set_book_file && s->bookDefault[0] ? s->bookDefault : "<empty>");
            break;
        }
    }
#ifdef GIZUM_SPSA
    for (int i = 0; i < SearchParamCount; i++) {
        const SearchParam *p = &SearchParams[i];
        uci_print("option name %s type spin default %d min %d max %d", p->name, *p->value, p->min, p->max);
    }
#endif
}

#ifdef GIZUM_SPSA
/* The tuning build's search parameters (searchparams.h); true if name is one. */
static bool set_search_param(UciState *s, const char *name, const char *valueText) {
    const SearchParam *p = NULL;
    for (int i = 0; i < SearchParamCount && !p; i++)
        if (strcasecmp(SearchParams[i].name, name) == 0) p = &SearchParams[i];
    if (!p) return false;
    char shownBuf[64];
    int64_t v;
    if (!parse_integer(valueText, p->min, p->max, &v)) {
        info("%s: value must be an integer from %d to %d, got '%s'", p->name, p->min, p->max,
             uci_shown(valueText, shownBuf, sizeof shownBuf));
        return true;
    }
    if (!ensure_idle(s, p->name)) return true;
    search_param_set(p->name, (int)v);
    search_init(); /* the reduction table depends on the LMR parameters */
    return true;
}
#endif

/* setoption name <id> [value <x>]: names may contain spaces; the value is the remaining words. */
static void cmd_setoption(UciState *s, Args *args) {
    char shownBuf[64];
    const char *tok = args_next(args);
    if (!tok || strcasecmp(tok, "name") != 0) {
        info("setoption: expected 'setoption name <id> [value <x>]'");
        return;
    }
    char name[OPTION_NAME_MAX] = "", valueText[OPTION_VALUE_MAX] = "";
    bool hasValue = false;
    while ((tok = args_next(args)) != NULL) {
        if (!hasValue && strcasecmp(tok, "value") == 0) {
            hasValue = true;
            continue;
        }
        char *dst = hasValue ? valueText : name;
        size_t cap = hasValue ? sizeof valueText : sizeof name;
        if (strlen(dst) + strlen(tok) + 2 > cap) {
            info("setoption: option %s too long", hasValue ? "value" : "name");
            return;
        }
        if (dst[0]) strcat(dst, " ");
        strcat(dst, tok);
    }
    const UciOption *o = option_named(name);
#ifdef GIZUM_SPSA
    if (!o && set_search_param(s, name, valueText)) return;
#endif
    if (!o) {
        info("No such option: %s", uci_shown(name, shownBuf, sizeof shownBuf));
        return;
    }
    int number = 0;
    if (o->type == OPTION_SPIN) {
        int64_t v;
        if (!hasValue || !parse_integer(valueText, o->min, o->max, &v)) {
            info("%s: value must be an integer from %d to %d, got '%s'", o->name, o->min, o->max,
                 uci_shown(valueText, shownBuf, sizeof shownBuf));
            return;
        }
        number = (int)v;
    } else if (o->type == OPTION_CHECK) {
        if (strcasecmp(valueText, "true") == 0) number = 1;
        else if (strcasecmp(valueText, "false") == 0) number = 0;
        else {
            info("%s: value must be true or false, got '%s'", o->name, uci_shown(valueText, shownBuf, sizeof shownBuf));
            return;
        }
    }
    if (o->needsIdle && !ensure_idle(s, o->name)) return;
    store_option(s, o, number);
    if (o->act) o->act(s, number, valueText);
}

/* ------------------------------------------------------------ commands */

static void cmd_uci(UciState *s, Args *args) {
    (void)args;
    uci_print("id name %s %s", ENGINE_NAME, ENGINE_VERSION);
    uci_print("id author %s", ENGINE_AUTHOR);
    uci_print("info string %s is free software under the %s, without warranty: see LICENSE", ENGINE_NAME,
              ENGINE_LICENCE);
    print_options(s);
    uci_print("uciok");
}

/*
 * Tables whose files changed on disk since they were mapped are dropped
 * with an info string (issue #38): cheap (one stat per mapped file), and
 * only while no search probes them.
 */
static void check_tablebase_files(UciState *s) {
    if (!threads_busy(s->pool)) tb_check_files(tb_message, NULL);
}

static void cmd_isready(UciState *s, Args *args) {
    (void)args;
    check_tablebase_files(s);
    uci_print("readyok");
}

static void cmd_debug(UciState *s, Args *args) {
    char buf[64];
    const char *tok = args_next(args);
    if (tok && strcmp(tok, "on") == 0) s->debug = true;
    else if (tok && strcmp(tok, "off") == 0) s->debug = false;
    else info("debug: expected 'on' or 'off', got '%s'", tok ? uci_shown(tok, buf, sizeof buf) : "");
}

static void cmd_register(UciState *s, Args *args) {
    (void)s;
    (void)args; /* Gizum needs no registration. */
}

static void cmd_ucinewgame(UciState *s, Args *args) {
    (void)args;
    if (!ensure_idle(s, "ucinewgame")) return;
    check_tablebase_files(s);
    tt_clear(&s->tt, TT_CLEAR_ALL_CORES);
    threads_clear(s->pool);
    s->gameSeed = next_seed(s);
}

/*
 * A position that cannot be set: an info string in UCI mode (the GUI's
 * next position replaces it); from the shell, a usage error on stderr, and
 * the commands after it are not run: they would act on another position.
 */
static void position_rejected(UciState *s, const char *fmt, ...) PRINTF_FORMAT(2, 3);
static void position_rejected(UciState *s, const char *fmt, ...) {
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (!s->oneShot) {
        info("position rejected: %s", text);
        return;
    }
    fprintf(stderr, "gizum: position rejected: %s\n", text);
    s->usageError = true;
    s->positionRejected = true;
}

/* position startpos|fen <fen> [moves <m1> ...]: built on a scratch board, swapped in only if all of it is valid. */
static void cmd_position(UciState *s, Args *args) {
    char err[256], buf[64];
    const char *tok = args_next(args);
    Position *p = s->scratch;
    if (tok && strcmp(tok, "startpos") == 0) {
        pos_set_startpos(p, s->chess960);
    } else if (tok && strcmp(tok, "fen") == 0) {
        char fen[512] = "";
        int fields = 0;
        while ((tok = args_peek(args)) != NULL && strcmp(tok, "moves") != 0) {
            args_next(args);
            if (++fields > 6 || strlen(fen) + strlen(tok) + 2 > sizeof fen) {
                position_rejected(s, "too many FEN fields (at '%s')", uci_shown(tok, buf, sizeof buf));
                return;
            }
            if (fen[0]) strcat(fen, " ");
            strcat(fen, tok);
        }
        if (!fields) {
            position_rejected(s, "'fen' needs a FEN");
            return;
        }
        if (!pos_set_fen(p, fen, s->chess960, err, sizeof err)) {
            position_rejected(s, "bad FEN '%s': %s", uci_shown(fen, buf, sizeof buf), err);
            return;
        }
    } else {
        position_rejected(s, "expected 'startpos' or 'fen', got '%s'", tok ? uci_shown(tok, buf, sizeof buf) : "");
        return;
    }
    tok = args_next(args);
    if (tok && strcmp(tok, "moves") != 0) {
        position_rejected(s, "expected 'moves', got '%s'", uci_shown(tok, buf, sizeof buf));
        return;
    }
    for (int ply = 1; (tok = args_next(args)) != NULL; ply++) {
        Move m = move_from_uci(p, tok);
        if (m == MOVE_NONE) {
            position_rejected(s, "move %d '%s' is illegal or unparsable", ply, uci_shown(tok, buf, sizeof buf));
            return;
        }
        pos_do_game_move(p, m);
    }
    Position *old = s->pos;
    s->pos = p;
    s->scratch = old;
}

static bool is_go_keyword(const char *t) {
    static const char *const Keywords[] = {"searchmoves", "ponder", "wtime", "btime", "winc", "binc", "movestogo",
                                           "depth", "nodes", "mate", "movetime", "infinite", "perft"};
    for (size_t i = 0; i < sizeof Keywords / sizeof Keywords[0]; i++)
        if (strcmp(t, Keywords[i]) == 0) return true;
    return false;
}

/*
 * A word of a go that cannot be used: an info string in UCI mode (the rest
 * of the go still applies); on stderr from the shell, where it is a usage
 * error. Counted in *rejected.
 */
static void go_complaint(const UciState *s, int *rejected, const char *fmt, ...) PRINTF_FORMAT(3, 4);
static void go_complaint(const UciState *s, int *rejected, const char *fmt, ...) {
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    (*rejected)++;
    if (s->oneShot) fprintf(stderr, "gizum: go: %s\n", text);
    else info("go: %s (ignored)", text);
}

/* Reads the number after a go keyword, within min..max; a complaint and false otherwise. */
static bool go_number(const UciState *s, Args *args, const char *key, int64_t min, int64_t max, int64_t *out,
                      int *rejected) {
    char buf[64];
    const char *tok = args_peek(args);
    int64_t v;
    if (!tok || !parse_integer(tok, min, max, &v)) {
        go_complaint(s, rejected, "'%s' needs an integer from %" PRId64 " to %" PRId64 ", got '%s'", key, min, max,
                     tok ? uci_shown(tok, buf, sizeof buf) : "");
        /* A keyword is left for the caller; any other bad word is consumed. */
        if (tok && !is_go_keyword(tok)) args_next(args);
        return false;
    }
    args_next(args);
    *out = v;
    return true;
}

static void run_perft(UciState *s, int depth) {
    if (!ensure_idle(s, "go perft")) return;
    pos_copy(s->scratch, s->pos);
    flockfile(stdout);
    perft_divide(s->scratch, depth, stdout);
    fflush(stdout);
    funlockfile(stdout);
}

/* A go clock value as the time manager takes it: negative (flag fallen in some GUIs) is 0, at most GoTimeClampMs. */
static int64_t clock_ms(int64_t v) {
    return v < 0 ? 0 : v < GoTimeClampMs ? v : GoTimeClampMs;
}

/* 0 for depth, nodes or movetime asks for the least search there is: the same as 1. */
static int64_t at_least_one(int64_t v) { return v < 1 ? 1 : v; }

/*
 * Parses the go parameters into limits, counting the words it cannot use in
 * *rejected; false for `go perft` (handled here).
 */
static bool parse_go(UciState *s, Args *args, SearchLimits *limits, int *rejected) {
    const int64_t timeMax = INT64_MAX / 4, timeMin = INT64_MIN / 4, countMax = 1000000;
    char buf[64];
    const char *tok;
    int64_t v;
    while ((tok = args_next(args)) != NULL) {
        if (strcmp(tok, "searchmoves") == 0) {
            while ((tok = args_peek(args)) != NULL && !is_go_keyword(tok)) {
                args_next(args);
                Move m = move_from_uci(s->pos, tok);
                if (m == MOVE_NONE)
                    info("go searchmoves: '%s' is not a legal move (ignored)", uci_shown(tok, buf, sizeof buf));
                else if (limits->searchMovesCount < MAX_MOVES)
                    limits->searchMoves[limits->searchMovesCount++] = m;
            }
        } else if (strcmp(tok, "ponder") == 0) {
            limits->ponder = true;
        } else if (strcmp(tok, "infinite") == 0) {
            limits->infinite = true;
        } else if (strcmp(tok, "wtime") == 0 || strcmp(tok, "btime") == 0) {
            if (go_number(s, args, tok, timeMin, timeMax, &v, rejected))
                limits->time[tok[0] == 'w' ? WHITE : BLACK] = clock_ms(v);
        } else if (strcmp(tok, "winc") == 0 || strcmp(tok, "binc") == 0) {
            if (go_number(s, args, tok, timeMin, timeMax, &v, rejected))
                limits->inc[tok[0] == 'w' ? WHITE : BLACK] = clock_ms(v);
        } else if (strcmp(tok, "movestogo") == 0) {
            if (go_number(s, args, tok, 1, countMax, &v, rejected)) limits->movesToGo = (int)v;
        } else if (strcmp(tok, "depth") == 0) {
            if (go_number(s, args, tok, 0, countMax, &v, rejected))
                limits->depth = v > MAX_PLY - 1 ? MAX_PLY - 1 : (int)at_least_one(v);
        } else if (strcmp(tok, "nodes") == 0) {
            if (go_number(s, args, tok, 0, INT64_MAX, &v, rejected)) limits->nodes = (uint64_t)at_least_one(v);
        } else if (strcmp(tok, "mate") == 0) {
            if (go_number(s, args, tok, 1, countMax, &v, rejected)) limits->mate = v > MAX_PLY ? MAX_PLY : (int)v;
        } else if (strcmp(tok, "movetime") == 0) {
            if (go_number(s, args, tok, 0, timeMax, &v, rejected)) limits->moveTime = clock_ms(at_least_one(v));
        } else if (strcmp(tok, "perft") == 0) {
            if (go_number(s, args, tok, 1, PERFT_DEPTH_MAX, &v, rejected)) run_perft(s, (int)v);
            return false;
        } else {
            go_complaint(s, rejected, "unknown parameter '%s'", uci_shown(tok, buf, sizeof buf));
        }
    }
    return true;
}

/* From the shell, a go with words it cannot use is not run: the usage on stderr, exit status 2. */
static bool shell_usage_error(UciState *s, int rejected) {
    if (!s->oneShot || !rejected) return false;
    fprintf(stderr, "usage: gizum go [depth D] [nodes N] [movetime MS] [mate M] [wtime MS] [btime MS] [winc MS]\n"
                    "                [binc MS] [movestogo N] [searchmoves MOVE...] [infinite] [perft D]\n"
                    "       (no depth, nodes, movetime or clock: depth %d; 0 is the least search)\n",
            UCI_SHELL_GO_DEPTH);
    s->usageError = true;
    return true;
}

/* A go that ends by itself: a depth, node or time limit, or a clock for the side to move. */
static bool go_is_bounded(const SearchLimits *limits, Color us) {
    return limits->depth || limits->nodes || limits->moveTime || limits->time[us] >= 0;
}

/*
 * Makes every go end unless it asked not to (infinite, ponder: a GUI stops
 * those). From the shell, where nobody sends stop, a go with a word it
 * cannot use is a usage error and one without a bound searches the default
 * depth. In UCI mode a go left without a bound by its unreadable limits
 * (`go depth x`) searches depth 1 rather than until a stop that the GUI,
 * waiting for its bestmove, never sends. False when nothing is searched.
 */
static bool bound_go(UciState *s, SearchLimits *limits, int rejected) {
    Color us = pos_side_to_move(s->pos);
    if (shell_usage_error(s, rejected)) return false;
    if (s->oneShot) {
        if (!go_is_bounded(limits, us)) limits->depth = UCI_SHELL_GO_DEPTH;
    } else if (rejected && !limits->infinite && !limits->ponder && !go_is_bounded(limits, us)) {
        info("go: no limit left; searching depth 1");
        limits->depth = 1;
    }
    return true;
}

/*
 * Answers go at once with a book move when OwnBook is on and the book knows
 * the position. Never while pondering or analysing (those wait for the GUI),
 * nor for searchmoves or go mate, which ask for a search.
 */
static bool play_book_move(UciState *s, const SearchLimits *limits) {
    char text[8];
    if (!s->ownBook || !s->book.count || limits->ponder || limits->infinite || limits->mate
        || limits->searchMovesCount || s->pos->gamePly >= 2 * s->bookDepth)
        return false;
    Move m = book_pick(&s->book, s->pos, s->bookBest, &s->bookRng);
    char why[600];
    if (!s->bookIllegalSaid && book_illegal_text(&s->book, s->bookFile, why, sizeof why)) {
        info("BookFile: %s", why); /* once per book: the count so far and the first one */
        s->bookIllegalSaid = true;
    }
    if (m == MOVE_NONE) return false;
    move_to_uci(m, s->chess960, text);
    info("book move %s", text);
    uci_print("bestmove %s", text);
    return true;
}

static void cmd_go(UciState *s, Args *args) {
    int64_t start = tm_now();
    SearchLimits limits;
    search_limits_init(&limits);
    limits.settings = s->settings;
    strength_for_go(s, &limits);
    int rejected = 0;
    if (!parse_go(s, args, &limits, &rejected)) { /* go perft, done */
        shell_usage_error(s, rejected);
        return;
    }
    if (!bound_go(s, &limits, rejected)) return;

    /* A running search ends first (it prints its own bestmove): one bestmove per go. */
    if (threads_busy(s->pool)) {
        threads_stop(s->pool);
        threads_wait(s->pool);
    }
    s->pos->chess960 = s->chess960;
    if (play_book_move(s, &limits)) return;
    s->report = (ReportContext){s->pool, s->debug, s->showWDL, wdl_material(s->pos)};
    SearchReporter reporter = UciReporter;
    reporter.context = &s->report;
    threads_start(s->pool, s->pos, &limits, &reporter, start);
    if (s->debug) {
        const TimeManager *tm = threads_time_plan(s->pool);
        info("time: optimum %" PRId64 " ms, maximum %" PRId64 " ms, reserve %" PRId64 " ms%s", tm->optimum,
             tm->maximum, tm->reserve, tm->active ? "" : " (no time limit)");
        const StrengthLevel *l = &limits.strength;
        if (l->enabled)
            info("strength: elo %d, depth %d, nodes %" PRIu64 ", lines %d, margin %d cp, noise %d cp", l->elo,
                 l->depth, l->nodes, l->lines, l->marginCp, l->noiseCp);
    }
}

static void cmd_stop(UciState *s, Args *args) {
    (void)args;
    threads_stop(s->pool);
}

static void cmd_ponderhit(UciState *s, Args *args) {
    (void)args;
    threads_ponderhit(s->pool);
}

static void cmd_quit(UciState *s, Args *args) {
    (void)args;
    s->quit = true;
}

typedef struct {
    const char *name;
    void (*run)(UciState *s, Args *args);
} UciCommand;

static const UciCommand Commands[] = {
    {"uci", cmd_uci},
    {"isready", cmd_isready},
    {"debug", cmd_debug},
    {"setoption", cmd_setoption},
    {"register", cmd_register},
    {"ucinewgame", cmd_ucinewgame},
    {"position", cmd_position},
    {"go", cmd_go},
    {"stop", cmd_stop},
    {"ponderhit", cmd_ponderhit},
    {"quit", cmd_quit},
};

static void say(const char *text) { info("%s", text); }

static bool idle(void *session, const char *what) { return ensure_idle(session, what); }

/* Executes one input line; false if the command is unknown. */
static bool execute(UciState *s, char *line) {
    char buf[64];
    Args args = {.word = s->words};
    args_split(&args, line);
    const char *name = args_next(&args);
    if (!name) return true;
    for (size_t i = 0; i < sizeof Commands / sizeof Commands[0]; i++)
        if (strcmp(name, Commands[i].name) == 0) {
            Commands[i].run(s, &args);
            return true;
        }
    UciExtraFn extra = s->extras ? s->extras(name) : NULL;
    if (extra) {
        UciCall call = {s->pos, args.count - args.next, (const char *const *)args.word + args.next, s, say, idle};
        extra(&call);
        return true;
    }
    info("unknown command '%s'", uci_shown(name, buf, sizeof buf));
    return false;
}

bool uci_is_command(const char *name) {
    for (size_t i = 0; i < sizeof Commands / sizeof Commands[0]; i++)
        if (strcmp(name, Commands[i].name) == 0) return true;
    return false;
}

/* ------------------------------------------------------------ set-up */

/*
 * Gizum's own book: books/gizum.bin beside the executable (or gizum.bin in
 * its folder), else where `make install` put it (DATADIR), else
 * books/gizum.bin under the working directory.
 */
static void find_default_book(char *out, size_t size) {
    char exe[OPTION_VALUE_MAX - sizeof "books/gizum.bin"];
    out[0] = '\0';
    if (platform_exe_dir(exe, sizeof exe)) {
        const char *candidates[] = {"books/gizum.bin", "gizum.bin"};
        for (int i = 0; i < 2; i++) {
            snprintf(out, size, "%s%s", exe, candidates[i]);
            if (access(out, R_OK) == 0) return;
        }
    }
    snprintf(out, size, "%s/gizum.bin", version_data_dir());
    if (access(out, R_OK) == 0) return;
    snprintf(out, size, "%s", access("books/gizum.bin", R_OK) == 0 ? "books/gizum.bin" : "");
}

static bool state_init(UciState *s, UciExtraFinder extras) {
    memset(s, 0, sizeof *s);
    s->extras = extras;
    s->bookRng = (uint64_t)tm_now() ^ ((uint64_t)getpid() << 32);
    s->seedRng = s->bookRng | 1;
    s->gameSeed = next_seed(s);
    find_default_book(s->bookDefault, sizeof s->bookDefault);
    default_options(s);
    s->pos = malloc(sizeof *s->pos);
    s->scratch = malloc(sizeof *s->scratch);
    s->words = malloc((UCI_LINE_MAX / 2 + 2) * sizeof *s->words);
    if (!s->pos || !s->scratch || !s->words || !tt_resize(&s->tt, (size_t)s->hashMB, 1)) return false;
    pos_set_startpos(s->pos, s->chess960);
    s->pool = threads_create(s->threads, &s->tt);
    return s->pool != NULL;
}

static void state_free(UciState *s) {
    if (s->pool) {
        threads_stop(s->pool);
        threads_destroy(s->pool);
    }
    tt_free(&s->tt);
    book_close(&s->book);
    tb_free();
    free(s->pos);
    free(s->scratch);
    free(s->words);
}

/*
 * Reads one line into buf (without the newline). Returns false at end of
 * input with nothing read. Lines longer than size - 1 bytes are consumed
 * whole and flagged; NUL bytes are flagged.
 */
static bool read_line(char *buf, size_t size, bool *tooLong, bool *hasNul) {
    size_t n = 0;
    int c;
    *tooLong = *hasNul = false;
    bool any = false;
    while ((c = getc_unlocked(stdin)) != EOF) {
        any = true;
        if (c == '\n') break;
        if (c == '\0') *hasNul = true;
        if (n + 1 < size) buf[n++] = (char)c;
        else *tooLong = true;
    }
    buf[n] = '\0';
    return any;
}

/* The protocol's state, one per process; NULL (said on stderr) when memory runs out at start-up. */
static UciState *state_open(UciExtraFinder extras) {
    static UciState state;
    if (state_init(&state, extras)) return &state;
    fprintf(stderr, "gizum: out of memory at start-up\n");
    state_free(&state);
    return NULL;
}

int uci_loop(UciExtraFinder extras) {
    UciState *s = state_open(extras);
    if (!s) return 1;
    char *line = malloc(UCI_LINE_MAX + 1);
    if (!line) {
        state_free(s);
        return 1;
    }
    bool tooLong, hasNul;
    while (!s->quit && read_line(line, UCI_LINE_MAX + 1, &tooLong, &hasNul)) {
        if (tooLong) info("line ignored: longer than %d bytes", UCI_LINE_MAX);
        else if (hasNul) info("line ignored: it contains a NUL byte");
        else execute(s, line);
    }
    /* quit and end of input alike: stop, let the search print its bestmove, exit. */
    free(line);
    state_free(s);
    return 0;
}

/* Waits for a search started from the shell; an endless one (infinite, ponder) is stopped. */
static void finish_shell_search(UciState *s) {
    if (threads_busy(s->pool) && (threads_limits(s->pool)->infinite || threads_limits(s->pool)->ponder))
        threads_stop(s->pool);
    threads_wait(s->pool);
}

int uci_run_commands(UciExtraFinder extras, int count, char **commands) {
    UciState *s = state_open(extras);
    if (!s) return 1;
    s->oneShot = true;
    bool allKnown = true;
    for (int i = 0; i < count && !s->quit && !s->positionRejected; i++) {
        if (strlen(commands[i]) >= UCI_LINE_MAX) {
            fprintf(stderr, "gizum: command longer than %d bytes\n", UCI_LINE_MAX);
            allKnown = false;
            break;
        }
        /* execute() tokenises in place: give it a copy. */
        char *line = strdup(commands[i]);
        if (!line) break;
        allKnown &= execute(s, line);
        free(line);
        finish_shell_search(s);
    }
    bool usageError = s->usageError;
    state_free(s);
    return allKnown && !usageError ? 0 : 2;
}

int uci_run_command(UciExtraFinder extras, int argc, char **argv) {
    size_t len = 1;
    for (int i = 0; i < argc; i++) len += strlen(argv[i]) + 1;
    if (len > UCI_LINE_MAX) {
        fprintf(stderr, "gizum: command longer than %d bytes\n", UCI_LINE_MAX);
        return 2;
    }
    char *line = calloc(len, 1);
    if (!line) return 1;
    for (int i = 0; i < argc; i++) {
        if (i) strcat(line, " ");
        strcat(line, argv[i]);
    }
    int status = uci_run_commands(extras, 1, &line);
    free(line);
    return status;
}
