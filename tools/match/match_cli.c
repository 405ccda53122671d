/*
 * gizum-match: the command line.
 */
#include "match_cli.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "files.h"
#include "numparse.h"

/* Defaults (documented in cli_usage). */
static const int DEFAULT_GAMES = 2;
static const double DEFAULT_TIME_MARGIN_MS = 50;
static const double DEFAULT_INIT_TIMEOUT = 10;
static const double DEFAULT_HANG_LIMIT = 60;
static const int DEFAULT_RATING_INTERVAL = 10;
static const double DEFAULT_SPRT_ERROR = 0.05;
/* Concurrency cap: more games than this at once would starve engines on any machine we target. */
static const int MAX_CONCURRENCY = 256;

void cli_usage(FILE *out) {
    fputs(
        "usage: gizum-match -engine cmd=PATH [key=value ...] -engine ... [options]\n"
        "Command lines of cutechess-cli and of fastchess both work; a key or option not listed\n"
        "here is refused with a message naming it.\n"
        "\n"
        "Engines (-engine per engine; -each applies to every engine, -engine overrides):\n"
        "  cmd=PATH            engine program (searched in PATH without a '/')\n"
        "  args=\"A B\"          arguments (split at blanks; quotes group); arg=A adds one (cutechess)\n"
        "  name=NAME           name for output and PGN (default: program file name)\n"
        "  proto=uci|xboard    protocol (default uci)\n"
        "  dir=DIR             working directory; stderr=FILE: engine stderr (default /dev/null)\n"
        "  tc=[MOVES/]TIME[+INC]  clock, e.g. 10+0.1, 40/60, 1:30+1, inf\n"
        "  st=SECONDS          fixed time per move; nodes=N, depth=N (plies=N): search limits\n"
        "  timemargin=MS       this engine's tolerance before its flag falls (default -timemargin)\n"
        "  option.NAME=VALUE   engine option (UCI setoption; xboard option/memory/cores)\n"
        "  rotate.NAME=V1,V2,...  option set before every game, to the next value in turn\n"
        "  ponder=on|off, ponder   think on the opponent's time (UCI Ponder + go ponder; xboard hard)\n"
        "  restart=on|off|auto a fresh process for every game (on); trust: accepted, claims never count\n"
        "\n"
        "Tournament:\n"
        "  -tournament round-robin|roundrobin|gauntlet   (gauntlet: first engine vs each other; -seeds 1)\n"
        "  -rounds N           rounds (default 1); every pairing plays -games games per round\n"
        "  -games N            games per pairing and round, colours alternate on the same opening (default 2)\n"
        "  -repeat [2]         same as -games 2;  -noswap: no colour change;  -reverse: other colours first\n"
        "  -concurrency N      games played at the same time (default 1); -wait MS between games\n"
        "  -openings file=F [format=epd|pgn|book] [order=sequential|random] [plies=N] [start=K] [seed=S]\n"
        "                      (format from the file name when not given)\n"
        "  -srand S            seed for order=random (default: from the clock, printed)\n"
        "  -variant standard|fischerandom\n"
        "  -recover            accepted: crashed engines are always restarted\n"
        "  -config [file=F] [outname=F] [discard=B] [stats=B]   save the state after every game\n"
        "                      (-autosaveinterval N) and resume a saved tournament from file=F\n"
        "\n"
        "Referee and adjudication:\n"
        "  -timemargin MS      tolerance before a flag falls (default 50)\n"
        "  -inittimeout S      seconds for uciok / feature done / readyok / pong (default 10;\n"
        "                      fastchess -startup-ms, -ucinewgame-ms, -ping-ms MS raise it)\n"
        "  -movetimeout S      seconds per move when no clock limits an engine (default 60)\n"
        "  -draw movenumber=M movecount=N score=S   draw when, after M full moves, both engines\n"
        "                      report |score| <= S cp for N consecutive moves each\n"
        "  -resign movecount=N score=S [twosided=true|false]   loss when both engines agree for N\n"
        "                      moves each that one side is down S cp (twosided=false: the loser's engine alone)\n"
        "  -maxmoves N         draw after N full moves\n"
        "\n"
        "Output:\n"
        "  -pgnout FILE [min] [fi]   or   -pgnout file=F [notation=san|lan|uci] [append=B] [min=B]\n"
        "                      [nodes=B] [seldepth=B] [nps=B] [hashfull=B] [tbhits=B] [pv=B] [timeleft=B] [latency=B]\n"
        "  -epdout FILE        or   -epdout file=F [append=B]: final position of every game\n"
        "  -event NAME, -site NAME   PGN Event and Site tags\n"
        "  -ratinginterval N   summary every N games (default 10; 0 = at the end only)\n"
        "  -report penta=B     the pentanomial line (default true)\n"
        "  -log FILE  or  -log file=F [level=L] [append=B] ...   all engine communication; -debug: on stdout\n"
        "  -overrun            UCI engines get \"debug on\"; the time plan one reports (Gizum: \"info string\n"
        "                      time: ... maximum M ms, used U ms\") goes into the move comments (max=, used=)\n"
        "                      and each engine's worst overrun of its own maximum is printed at the end\n"
        "  -sprt elo0=E0 elo1=E1 alpha=A beta=B model=normalized|logistic\n"
        "                      stop when the GSPRT on pentanomial pairs accepts H0 or H1\n"
        "                      (default model normalized, as fishtest; alpha = beta = 0.05)\n"
        "\n"
        "SPSA tuning (one engine against itself, one game pair an iteration, as OpenBench tunes):\n"
        "  -spsa file=PARAMS iterations=N [state=F] [a-ratio=0.1] [alpha=0.602] [gamma=0.101] [seed=S]\n"
        "                      PARAMS: lines name, int|float, value, min, max, c_end, r_end (./gizum-spsa spsa);\n"
        "                      the tune is saved to state=F (default PARAMS.state) after every pair and\n"
        "                      resumed from it; give one -engine (a make SPSA=1 build), no -rounds\n"
        "  -help, -version\n"
        "Accepted and ignored: -force-concurrency -testEnv -show-latency -scoreinterval -bookmode\n"
        "-output format=cutechess|fastchess (the output is cutechess-style) -check-mate-pvs -use-affinity.\n"
        "Refused: -tb/-tbpieces/-tbignore50/-tbadjudicate, -quick, -engines, -sprt model=bayesian.\n",
        out);
}

/* Splits "key=value"; false when there is no '='. */
static bool split_kv(const char *tok, char *key, size_t klen, const char **value) {
    const char *eq = strchr(tok, '=');
    if (!eq || eq == tok || (size_t)(eq - tok) >= klen) return false;
    memcpy(key, tok, (size_t)(eq - tok));
    key[eq - tok] = '\0';
    *value = eq + 1;
    return true;
}

/* Parses a finite number. */
static bool parse_double(const char *text, double *out) {
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end || v != v) return false;
    *out = v;
    return true;
}

/* Replaces a heap string field. */
static bool set_string(char **field, const char *value) {
    char *copy = strdup(value);
    if (!copy) return false;
    free(*field);
    *field = copy;
    return true;
}

/* Splits args at blanks, honouring '...' and "..." groups, into argv[1..]. */
static bool set_args(EngineConfig *e, const char *text) {
    for (int i = 1; i < e->argc; i++) free(e->argv[i]);
    e->argc = 1;
    size_t cap = strlen(text) + 3;
    char **argv = realloc(e->argv, cap * sizeof *argv);
    if (!argv) return false;
    e->argv = argv;
    const char *p = text;
    for (;;) {
        while (isspace((unsigned char)*p)) p++;
        if (!*p) break;
        char *word = malloc(strlen(p) + 1);
        if (!word) return false;
        size_t n = 0;
        char quote = 0;
        for (; *p && (quote || !isspace((unsigned char)*p)); p++) {
            if (quote && *p == quote) quote = 0;
            else if (!quote && (*p == '"' || *p == '\'')) quote = *p;
            else word[n++] = *p;
        }
        word[n] = '\0';
        e->argv[e->argc++] = word;
    }
    e->argv[e->argc] = NULL;
    return true;
}

/* Adds or replaces option NAME (rotate: a comma-separated list, one value per game in turn). */
static bool set_option(EngineConfig *e, const char *name, const char *value, bool rotate) {
    for (int i = 0; i < e->optionCount; i++)
        if (strcmp(e->options[i].name, name) == 0) {
            e->options[i].rotate = rotate;
            return set_string(&e->options[i].value, value);
        }
    EngineOption *grown = realloc(e->options, (size_t)(e->optionCount + 1) * sizeof *grown);
    if (!grown) return false;
    e->options = grown;
    EngineOption *o = &e->options[e->optionCount];
    o->name = strdup(name);
    o->value = strdup(value);
    o->rotate = rotate;
    if (!o->name || !o->value) return false;
    e->optionCount++;
    return true;
}

/* Sets option NAME unless the user already gave it. */
static bool set_default_option(EngineConfig *e, const char *name, const char *value) {
    for (int i = 0; i < e->optionCount; i++)
        if (strcasecmp(e->options[i].name, name) == 0) return true;
    return set_option(e, name, value, false);
}

/* Applies one engine key=value. */
static bool engine_key(EngineConfig *e, const char *key, const char *value, char *err, size_t errlen) {
    int64_t n;
    double d;
    if (strcmp(key, "cmd") == 0) {
        if (!set_string(&e->cmd, value)) return false;
        free(e->argv[0]);
        e->argv[0] = strdup(value);
        return e->argv[0] != NULL;
    }
    if (strcmp(key, "args") == 0) return set_args(e, value);
    if (strcmp(key, "name") == 0) return set_string(&e->name, value);
    if (strcmp(key, "dir") == 0) return set_string(&e->dir, value);
    if (strcmp(key, "stderr") == 0) return set_string(&e->stderrPath, value);
    if (strcmp(key, "proto") == 0) {
        if (strcmp(value, "uci") == 0) e->proto = PROTO_UCI;
        else if (strcmp(value, "xboard") == 0 || strcmp(value, "cecp") == 0) e->proto = PROTO_XBOARD;
        else {
            snprintf(err, errlen, "unknown protocol '%s' (uci or xboard)", value);
            return false;
        }
        return true;
    }
    if (strcmp(key, "tc") == 0) return tc_parse_clock(&e->tc, value, err, errlen);
    if (strcmp(key, "st") == 0) {
        if (!tc_parse_seconds(value, &d) || d <= 0) {
            snprintf(err, errlen, "bad st=%s (seconds per move)", value);
            return false;
        }
        if (!tc_is_whole_ms(d)) {
            snprintf(err, errlen, "st=%s is not in whole milliseconds (engines are told milliseconds)", value);
            return false;
        }
        e->tc.moveTime = d;
        return true;
    }
    if (strcmp(key, "nodes") == 0 || strcmp(key, "depth") == 0 || strcmp(key, "plies") == 0) {
        if (!parse_integer(value, 1, 1L << 62, &n) || (key[0] != 'n' && n > 1000)) {
            snprintf(err, errlen, "bad %s=%s", key, value);
            return false;
        }
        if (key[0] == 'n') e->tc.nodes = n;
        else e->tc.depth = (int)n;
        return true;
    }
    if (strncmp(key, "option.", 7) == 0 && key[7]) return set_option(e, key + 7, value, false);
    if (strncmp(key, "rotate.", 7) == 0 && key[7]) return set_option(e, key + 7, value, true);
    if (strcmp(key, "ponder") == 0) {
        if (strcmp(value, "on") != 0 && strcmp(value, "off") != 0) {
            snprintf(err, errlen, "bad ponder=%s (on or off)", value);
            return false;
        }
        e->ponder = strcmp(value, "on") == 0;
        return true;
    }
    if (strcmp(key, "timemargin") == 0) {
        if (!parse_double(value, &d) || d < 0) {
            snprintf(err, errlen, "bad timemargin=%s (milliseconds)", value);
            return false;
        }
        e->timeMargin = d / 1000;
        return true;
    }
    if (strcmp(key, "arg") == 0) { /* cutechess: one argument per arg= */
        char **argv = realloc(e->argv, (size_t)(e->argc + 2) * sizeof *argv);
        if (!argv) return false;
        e->argv = argv;
        if (!(e->argv[e->argc] = strdup(value))) return false;
        e->argv[++e->argc] = NULL;
        return true;
    }
    if (strcmp(key, "restart") == 0) {
        if (strcmp(value, "on") != 0 && strcmp(value, "off") != 0 && strcmp(value, "auto") != 0) {
            snprintf(err, errlen, "bad restart=%s (on, off or auto)", value);
            return false;
        }
        e->restart = strcmp(value, "on") == 0;
        return true;
    }
    snprintf(err, errlen, "unknown engine setting '%s' (accepted: cmd name args arg dir stderr proto tc st "
                          "timemargin nodes depth plies option.NAME rotate.NAME ponder restart trust)", key);
    return false;
}

/* The bare words of cutechess's engine settings: ponder and trust. */
static bool engine_word(EngineConfig *e, const char *word, char *err, size_t errlen) {
    if (strcmp(word, "ponder") == 0) e->ponder = true;
    else if (strcmp(word, "trust") != 0) { /* trust: claims never decide a game here; the referee does */
        snprintf(err, errlen, "expected key=value, ponder or trust in engine settings, got '%s'", word);
        return false;
    }
    return true;
}

/* Fresh engine config with argv[0] slot. */
static bool engine_config_init(EngineConfig *e) {
    memset(e, 0, sizeof *e);
    e->argv = calloc(2, sizeof *e->argv);
    e->argc = 1;
    e->timeMargin = -1;
    return e->argv != NULL;
}

/* An executable regular file (a folder is "executable" to access() too). */
static bool is_program(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* Is the program runnable (directly or through PATH)? */
static bool command_exists(const char *cmd, const char *dir) {
    if (!cmd[0]) return false;
    if (strchr(cmd, '/')) {
        if (cmd[0] == '/' || !dir) return is_program(cmd);
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, cmd);
        return is_program(path);
    }
    const char *env = getenv("PATH");
    if (!env) return false;
    char path[4096];
    for (const char *p = env; *p;) {
        const char *colon = strchr(p, ':');
        size_t n = colon ? (size_t)(colon - p) : strlen(p);
        snprintf(path, sizeof path, "%.*s/%s", (int)n, p, cmd);
        if (is_program(path)) return true;
        if (!colon) break;
        p = colon + 1;
    }
    return false;
}

/* ------------------------------------------------------------ key=value lists */

/* What the option parsers share: the config, whether -srand or seed= was given, the error buffer. */
typedef struct {
    MatchConfig *cfg;
    bool seedGiven;
    bool roundsGiven;       /* -spsa sets the rounds itself */
    char *err;
    size_t errlen;
} CliParser;

/* A true/false value (fastchess) or on/off. */
static bool parse_bool(const char *v, bool *out) {
    if (strcmp(v, "true") == 0 || strcmp(v, "on") == 0 || strcmp(v, "1") == 0) *out = true;
    else if (strcmp(v, "false") == 0 || strcmp(v, "off") == 0 || strcmp(v, "0") == 0) *out = false;
    else return false;
    return true;
}

/* "unknown -pgnout key 'x' (accepted: ...)": the message for any key an option does not know. */
static bool unknown_key(CliParser *p, const char *opt, const char *tok, const char *accepted) {
    snprintf(p->err, p->errlen, "%s: unknown or bad setting '%s' (accepted: %s)", opt, tok, accepted);
    return false;
}

/* A note on stderr for an option that is accepted but changes nothing here. */
static void note_ignored(const char *opt, const char *why) {
    fprintf(stderr, "gizum-match: note: %s %s\n", opt, why);
}

/* The format an opening file's name implies (cutechess and fastchess want format=; gizum-match guesses). */
static OpeningFormat format_from_name(const char *file) {
    const char *dot = strrchr(file, '.');
    if (dot && strcasecmp(dot, ".pgn") == 0) return OPENINGS_PGN;
    if (dot && strcasecmp(dot, ".bin") == 0) return OPENINGS_BOOK;
    return OPENINGS_EPD;
}

static const char OpeningsKeys[] = "file=F format=epd|pgn|book order=sequential|random plies=N start=N seed=S policy=P";

/* -openings file=F format=epd|pgn|book order=sequential|random plies=N start=N seed=S (cutechess, fastchess) */
static bool opt_openings(CliParser *p, const char *opt, char **toks, int n) {
    char key[64];
    const char *v;
    int64_t x = 0;
    bool formatGiven = false;
    OpeningConfig *o = &p->cfg->openings;
    for (int i = 0; i < n; i++) {
        bool ok = split_kv(toks[i], key, sizeof key, &v);
        if (!ok) return unknown_key(p, opt, toks[i], OpeningsKeys);
        if (strcmp(key, "file") == 0) {
            if (!set_string(&o->file, v)) return false;
        } else if (strcmp(key, "format") == 0) {
            formatGiven = true;
            if (strcmp(v, "epd") == 0) o->format = OPENINGS_EPD;
            else if (strcmp(v, "pgn") == 0) o->format = OPENINGS_PGN;
            else if (strcmp(v, "book") == 0 || strcmp(v, "polyglot") == 0 || strcmp(v, "bin") == 0)
                o->format = OPENINGS_BOOK;
            else ok = false;
        } else if (strcmp(key, "order") == 0) {
            if (strcmp(v, "sequential") == 0) o->random = false;
            else if (strcmp(v, "random") == 0) o->random = true;
            else ok = false;
        } else if (strcmp(key, "plies") == 0) {
            ok = parse_integer(v, 0, 1000, &x);
            o->plies = (int)x;
        } else if (strcmp(key, "seed") == 0) {
            ok = parse_integer(v, 0, 0x7fffffffffffffffL, &x);
            o->seed = (uint64_t)x;
            p->seedGiven = p->seedGiven || ok;
        } else if (strcmp(key, "start") == 0) {
            ok = parse_integer(v, 1, 0x7fffffffL, &x);
            o->start = x;
        } else if (strcmp(key, "policy") != 0) {
            ok = false;
        }
        if (!ok) return unknown_key(p, opt, toks[i], OpeningsKeys);
    }
    if (!o->file) {
        snprintf(p->err, p->errlen, "-openings needs file=PATH (%s)", OpeningsKeys);
        return false;
    }
    if (!formatGiven) o->format = format_from_name(o->file);
    return true;
}

/* -draw movenumber=M movecount=N score=S (fastchess defaults: 0, 1, 0) */
static bool opt_draw(CliParser *p, const char *opt, char **toks, int n) {
    static const char keys[] = "movenumber=N movecount=N score=CP";
    AdjudicationConfig *a = &p->cfg->adjudication;
    a->drawMoveNumber = 0;
    a->drawMoveCount = 1;
    a->drawScore = 0;
    char key[64];
    const char *v;
    double d;
    for (int i = 0; i < n; i++) {
        if (!split_kv(toks[i], key, sizeof key, &v) || !parse_double(v, &d) || d < 0 || d > 1e6)
            return unknown_key(p, opt, toks[i], keys);
        if (strcmp(key, "movenumber") == 0) a->drawMoveNumber = (int)d;
        else if (strcmp(key, "movecount") == 0 && d >= 1) a->drawMoveCount = (int)d;
        else if (strcmp(key, "score") == 0) a->drawScore = (int)d;
        else return unknown_key(p, opt, toks[i], keys);
    }
    a->drawEnabled = true;
    return true;
}

/*
 * -resign movecount=N score=S [twosided=true|false]. Without twosided (or
 * with twosided=true) both engines must agree, as gizum-match always did;
 * twosided=false lets the losing engine's own score decide, as cutechess-cli
 * and fastchess do by default.
 */
static bool opt_resign(CliParser *p, const char *opt, char **toks, int n) {
    static const char keys[] = "movecount=N score=CP twosided=true|false";
    AdjudicationConfig *a = &p->cfg->adjudication;
    a->resignMoveCount = 1;
    a->resignScore = 0;
    char key[64];
    const char *v;
    double d;
    for (int i = 0; i < n; i++) {
        if (!split_kv(toks[i], key, sizeof key, &v)) return unknown_key(p, opt, toks[i], keys);
        if (strcmp(key, "twosided") == 0) {
            bool two;
            if (!parse_bool(v, &two)) return unknown_key(p, opt, toks[i], keys);
            a->resignOneSided = !two;
            continue;
        }
        if (!parse_double(v, &d) || d < 0 || d > 1e6) return unknown_key(p, opt, toks[i], keys);
        if (strcmp(key, "movecount") == 0 && d >= 1) a->resignMoveCount = (int)d;
        else if (strcmp(key, "score") == 0) a->resignScore = (int)d;
        else return unknown_key(p, opt, toks[i], keys);
    }
    a->resignEnabled = true;
    return true;
}

/* -sprt elo0=A elo1=B [alpha=0.05] [beta=0.05] [model=normalized|logistic] */
static bool opt_sprt(CliParser *p, const char *opt, char **toks, int n) {
    static const char keys[] = "elo0=E elo1=E alpha=A beta=B model=normalized|logistic";
    SprtConfig *s = &p->cfg->sprt;
    bool e0 = false, e1 = false;
    char key[64];
    const char *v;
    double d;
    for (int i = 0; i < n; i++) {
        if (!split_kv(toks[i], key, sizeof key, &v)) return unknown_key(p, opt, toks[i], keys);
        if (strcmp(key, "model") == 0) {
            if (strcmp(v, "normalized") == 0) s->model = SPRT_NORMALIZED;
            else if (strcmp(v, "logistic") == 0) s->model = SPRT_LOGISTIC;
            else if (strcmp(v, "bayesian") == 0) {
                snprintf(p->err, p->errlen, "-sprt model=bayesian (BayesElo) is not supported (accepted: model=normalized|logistic)");
                return false;
            } else return unknown_key(p, opt, toks[i], keys);
            continue;
        }
        if (!parse_double(v, &d)) return unknown_key(p, opt, toks[i], keys);
        if (strcmp(key, "elo0") == 0) s->elo0 = d, e0 = true;
        else if (strcmp(key, "elo1") == 0) s->elo1 = d, e1 = true;
        else if (strcmp(key, "alpha") == 0 && d > 0 && d < 0.5) s->alpha = d;
        else if (strcmp(key, "beta") == 0 && d > 0 && d < 0.5) s->beta = d;
        else return unknown_key(p, opt, toks[i], keys);
    }
    if (!e0 || !e1 || s->elo1 <= s->elo0) {
        snprintf(p->err, p->errlen, "-sprt needs elo0 and elo1 with elo0 < elo1");
        return false;
    }
    s->enabled = true;
    return true;
}

/* -spsa file=PARAMS iterations=N [state=F] [a-ratio=R] [alpha=A] [gamma=G] [seed=S] */
static bool opt_spsa(CliParser *p, const char *opt, char **toks, int n) {
    static const char keys[] = "file=PARAMS iterations=N state=F a-ratio=R alpha=A gamma=G seed=S";
    SpsaConfig *s = &p->cfg->spsa;
    char key[64];
    const char *v;
    for (int i = 0; i < n; i++) {
        int64_t x = 0;
        double d = 0;
        bool ok = split_kv(toks[i], key, sizeof key, &v);
        if (!ok) return unknown_key(p, opt, toks[i], keys);
        if (strcmp(key, "file") == 0) ok = set_string(&s->file, v);
        else if (strcmp(key, "state") == 0) ok = set_string(&s->state, v);
        else if (strcmp(key, "iterations") == 0) ok = parse_integer(v, 1, 10000000, &x), s->iterations = (long)x;
        else if (strcmp(key, "a-ratio") == 0) ok = parse_double(v, &d) && d >= 0 && d <= 10, s->aRatio = d;
        else if (strcmp(key, "alpha") == 0) ok = parse_double(v, &d) && d > 0 && d <= 2, s->alpha = d;
        else if (strcmp(key, "gamma") == 0) ok = parse_double(v, &d) && d >= 0 && d <= 2, s->gamma = d;
        else if (strcmp(key, "seed") == 0) ok = parse_unsigned(v, &s->seed), s->seedGiven = true;
        else ok = false;
        if (!ok) return unknown_key(p, opt, toks[i], keys);
    }
    if (!s->file || s->iterations <= 0) {
        snprintf(p->err, p->errlen, "-spsa needs file=PARAMS and iterations=N (%s)", keys);
        return false;
    }
    s->enabled = true;
    return true;
}

static const char PgnoutForms[] =
    "-pgnout FILE [min] [fi] (cutechess) or -pgnout file=F [notation=san|lan|uci] [append=true|false] "
    "[min=B] [nodes=B] [seldepth=B] [nps=B] [hashfull=B] [tbhits=B] [pv=B] [timeleft=B] [latency=B] (fastchess)";

/* -pgnout in either dialect. */
static bool opt_pgnout(CliParser *p, const char *opt, char **toks, int n) {
    MatchConfig *c = p->cfg;
    PgnOptions *o = &c->pgn;
    for (int i = 0; i < n; i++) {
        char key[64];
        const char *v;
        if (!split_kv(toks[i], key, sizeof key, &v)) {
            /* cutechess: the file name first, then the words min and fi. */
            if (i == 0) {
                if (!set_string(&c->pgnOut, toks[i])) return false;
            } else if (strcmp(toks[i], "min") == 0) {
                o->min = true;
            } else if (strcmp(toks[i], "fi") != 0) { /* fi: only finished games, which is all gizum-match writes */
                return unknown_key(p, opt, toks[i], PgnoutForms);
            }
            continue;
        }
        bool ok = true, *flag = NULL;
        if (strcmp(key, "file") == 0) ok = set_string(&c->pgnOut, v);
        else if (strcmp(key, "notation") == 0) {
            if (strcmp(v, "san") == 0) o->notation = PGN_SAN;
            else if (strcmp(v, "lan") == 0) o->notation = PGN_LAN;
            else if (strcmp(v, "uci") == 0) o->notation = PGN_UCI;
            else ok = false;
        } else if (strcmp(key, "append") == 0) flag = &c->pgnAppend;
        else if (strcmp(key, "min") == 0) flag = &o->min;
        else if (strcmp(key, "nodes") == 0) flag = &o->nodes;
        else if (strcmp(key, "seldepth") == 0) flag = &o->seldepth;
        else if (strcmp(key, "nps") == 0) flag = &o->nps;
        else if (strcmp(key, "hashfull") == 0) flag = &o->hashfull;
        else if (strcmp(key, "tbhits") == 0) flag = &o->tbhits;
        else if (strcmp(key, "pv") == 0) flag = &o->pv;
        else if (strcmp(key, "timeleft") == 0) flag = &o->timeleft;
        else if (strcmp(key, "latency") == 0) flag = &o->latency;
        else if (strcmp(key, "match_line") == 0) note_ignored("-pgnout match_line=", "is not supported (ignored)");
        else ok = false;
        if (flag) ok = parse_bool(v, flag);
        if (!ok) return unknown_key(p, opt, toks[i], PgnoutForms);
    }
    if (!c->pgnOut) {
        snprintf(p->err, p->errlen, "-pgnout needs a file (%s)", PgnoutForms);
        return false;
    }
    return true;
}

/* -epdout FILE (cutechess) or -epdout file=F [append=true|false] (fastchess): the last position of every game. */
static bool opt_epdout(CliParser *p, const char *opt, char **toks, int n) {
    static const char forms[] = "-epdout FILE or -epdout file=F [append=true|false]";
    MatchConfig *c = p->cfg;
    for (int i = 0; i < n; i++) {
        char key[64];
        const char *v;
        bool ok;
        if (!split_kv(toks[i], key, sizeof key, &v)) ok = i == 0 && set_string(&c->epdOut, toks[i]);
        else if (strcmp(key, "file") == 0) ok = set_string(&c->epdOut, v);
        else if (strcmp(key, "append") == 0) ok = parse_bool(v, &c->epdAppend);
        else ok = false;
        if (!ok) return unknown_key(p, opt, toks[i], forms);
    }
    if (!c->epdOut) return unknown_key(p, opt, "", forms);
    return true;
}

/* -log FILE or -log file=F [level=L] [append=B] [compress=B] [realtime=B] [engine=B] (fastchess). */
static bool opt_log(CliParser *p, const char *opt, char **toks, int n) {
    static const char forms[] = "-log FILE or -log file=F [level=trace|info|warn|err|fatal] [append=B] "
                                "[compress=B] [realtime=B] [engine=B]";
    MatchConfig *c = p->cfg;
    for (int i = 0; i < n; i++) {
        char key[64];
        const char *v;
        bool ok = true, b;
        if (!split_kv(toks[i], key, sizeof key, &v)) ok = i == 0 && set_string(&c->logFile, toks[i]);
        else if (strcmp(key, "file") == 0) ok = set_string(&c->logFile, v);
        else if (strcmp(key, "append") == 0) ok = parse_bool(v, &c->logAppend);
        else if (strcmp(key, "level") == 0)
            ok = strcmp(v, "trace") == 0 || strcmp(v, "info") == 0 || strcmp(v, "warn") == 0 ||
                 strcmp(v, "err") == 0 || strcmp(v, "fatal") == 0;
        else if (strcmp(key, "compress") == 0) {
            ok = parse_bool(v, &b);
            if (ok && b) note_ignored("-log compress=true:", "the log is written uncompressed");
        } else if (strcmp(key, "realtime") == 0 || strcmp(key, "engine") == 0) ok = parse_bool(v, &b);
        else ok = false;
        if (!ok) return unknown_key(p, opt, toks[i], forms);
    }
    return true; /* -log engine=false alone (no file) logs nothing */
}

/* -report penta=true|false */
static bool opt_report(CliParser *p, const char *opt, char **toks, int n) {
    for (int i = 0; i < n; i++) {
        char key[64];
        const char *v;
        if (!split_kv(toks[i], key, sizeof key, &v) || strcmp(key, "penta") != 0 || !parse_bool(v, &p->cfg->reportPenta))
            return unknown_key(p, opt, toks[i], "penta=true|false");
    }
    return true;
}

/* -output format=cutechess|fastchess: gizum-match's output is cutechess-cli's either way (OpenBench reads it). */
static bool opt_output(CliParser *p, const char *opt, char **toks, int n) {
    for (int i = 0; i < n; i++) {
        char key[64];
        const char *v;
        if (!split_kv(toks[i], key, sizeof key, &v) || strcmp(key, "format") != 0 ||
            (strcmp(v, "cutechess") != 0 && strcmp(v, "fastchess") != 0))
            return unknown_key(p, opt, toks[i], "format=cutechess|fastchess");
        if (strcmp(v, "fastchess") == 0) note_ignored("-output format=fastchess:", "the output stays cutechess-style");
    }
    return true;
}

/*
 * -config [file=F] [outname=F] [discard=true|false] [stats=true|false]:
 * fastchess's saved tournament state. gizum-match writes its own state file
 * (outname=, or file=) after every game and resumes from file= unless
 * discard=true; stats=false resumes the settings but plays every game again.
 */
static bool opt_config(CliParser *p, const char *opt, char **toks, int n) {
    static const char keys[] = "file=F outname=F discard=true|false stats=true|false";
    MatchConfig *c = p->cfg;
    bool discard = false;
    char *file = NULL;
    for (int i = 0; i < n; i++) {
        char key[64];
        const char *v;
        bool ok;
        if (!split_kv(toks[i], key, sizeof key, &v)) ok = false;
        else if (strcmp(key, "file") == 0) ok = set_string(&file, v);
        else if (strcmp(key, "outname") == 0) ok = set_string(&c->stateOut, v);
        else if (strcmp(key, "discard") == 0) ok = parse_bool(v, &discard);
        else if (strcmp(key, "stats") == 0) ok = parse_bool(v, &c->stateStats);
        else ok = false;
        if (!ok) {
            free(file);
            return unknown_key(p, opt, toks[i], keys);
        }
    }
    if (file && !c->stateOut && !set_string(&c->stateOut, file)) {
        free(file);
        return false;
    }
    if (file && !discard && access(file, F_OK) == 0) {
        free(c->stateIn);
        c->stateIn = file;
    } else {
        free(file);
    }
    return true;
}

/* -tb, -quick, ...: fastchess or cutechess features gizum-match does not have, refused by name. */
static bool opt_unsupported(CliParser *p, const char *opt, char **toks, int n) {
    (void)toks;
    (void)n;
    const char *why = strncmp(opt, "-tb", 3) == 0 ? "tablebase adjudication is not supported; drop -tb/-tbpieces/-tbignore50/-tbadjudicate"
                      : strcmp(opt, "-engines") == 0 ? "there is no engines.json; give each engine with -engine cmd=..."
                      : strcmp(opt, "-quick") == 0 ? "write it out: -engine cmd=A -engine cmd=B -each tc=... -openings file=..."
                                                   : "not supported";
    snprintf(p->err, p->errlen, "%s: %s", opt, why);
    return false;
}

/* Flags and settings accepted for compatibility that change nothing here (a note says so when it matters). */
static bool opt_accepted(CliParser *p, const char *opt, char **toks, int n) {
    (void)p;
    (void)toks;
    (void)n;
    if (strcmp(opt, "-check-mate-pvs") == 0) note_ignored(opt, "is not checked by gizum-match (ignored)");
    else if (strcmp(opt, "-use-affinity") == 0) note_ignored(opt, "is not supported (engines are not pinned)");
    else if (strcmp(opt, "-crc32") == 0) note_ignored(opt, "is not supported (ignored)");
    return true;
}

/* Single-value options; false with a message for a bad value. */
static bool opt_single(CliParser *p, const char *opt, char **toks, int n) {
    MatchConfig *cfg = p->cfg;
    if (n != 1) {
        snprintf(p->err, p->errlen, "%s needs exactly one value", opt);
        return false;
    }
    const char *v = toks[0];
    int64_t x = 0;
    double d = 0;
    bool ok = true;
    if (strcmp(opt, "-rounds") == 0) ok = parse_integer(v, 1, 100000000, &x), cfg->rounds = (int)x, p->roundsGiven = true;
    else if (strcmp(opt, "-games") == 0) ok = parse_integer(v, 1, 1000, &x), cfg->games = (int)x;
    else if (strcmp(opt, "-concurrency") == 0) ok = parse_integer(v, 1, MAX_CONCURRENCY, &x), cfg->concurrency = (int)x;
    else if (strcmp(opt, "-ratinginterval") == 0) ok = parse_integer(v, 0, 100000000, &x), cfg->ratingInterval = (int)x;
    else if (strcmp(opt, "-scoreinterval") == 0) ok = parse_integer(v, 0, 100000000, &x);
    else if (strcmp(opt, "-autosaveinterval") == 0) ok = parse_integer(v, 0, 100000000, &x), cfg->autosaveInterval = (int)x;
    else if (strcmp(opt, "-maxmoves") == 0) ok = parse_integer(v, 1, 100000, &x), cfg->adjudication.maxMoves = (int)x;
    else if (strcmp(opt, "-wait") == 0) ok = parse_integer(v, 0, 3600000, &x), cfg->waitMs = (int)x;
    else if (strcmp(opt, "-seeds") == 0) {
        ok = parse_integer(v, 1, 1, &x);
        if (!ok) {
            snprintf(p->err, p->errlen, "-seeds: only 1 (the first engine plays the gauntlet) is supported, got '%s'", v);
            return false;
        }
    } else if (strcmp(opt, "-timemargin") == 0) ok = parse_double(v, &d) && d >= 0, cfg->timeMargin = d / 1000;
    else if (strcmp(opt, "-inittimeout") == 0) ok = parse_double(v, &d) && d > 0, cfg->initTimeout = d;
    else if (strcmp(opt, "-movetimeout") == 0) ok = parse_double(v, &d) && d > 0, cfg->hangLimit = d;
    else if (strcmp(opt, "-startup-ms") == 0 || strcmp(opt, "-ucinewgame-ms") == 0 || strcmp(opt, "-ping-ms") == 0) {
        ok = parse_double(v, &d) && d > 0;
        if (ok && d / 1000 > cfg->initTimeout) cfg->initTimeout = d / 1000;
    } else if (strcmp(opt, "-srand") == 0) {
        ok = parse_integer(v, 0, 0x7fffffffffffffffL, &x);
        cfg->openings.seed = (uint64_t)x;
        p->seedGiven = true;
    } else if (strcmp(opt, "-event") == 0) return set_string(&cfg->event, v);
    else if (strcmp(opt, "-site") == 0) return set_string(&cfg->site, v);
    else if (strcmp(opt, "-bookmode") == 0) ok = strcmp(v, "ram") == 0 || strcmp(v, "disk") == 0;
    else if (strcmp(opt, "-tournament") == 0) {
        if (strcmp(v, "round-robin") == 0 || strcmp(v, "roundrobin") == 0) cfg->type = TOURNAMENT_ROUND_ROBIN;
        else if (strcmp(v, "gauntlet") == 0) cfg->type = TOURNAMENT_GAUNTLET;
        else {
            snprintf(p->err, p->errlen, "-tournament: unknown type '%s' (accepted: round-robin, roundrobin, gauntlet)", v);
            return false;
        }
    } else if (strcmp(opt, "-variant") == 0) {
        if (strcmp(v, "standard") == 0) cfg->chess960 = false;
        else if (strcmp(v, "fischerandom") == 0 || strcmp(v, "chess960") == 0) cfg->chess960 = true;
        else {
            snprintf(p->err, p->errlen, "-variant: unknown variant '%s' (accepted: standard, fischerandom)", v);
            return false;
        }
    }
    if (!ok) snprintf(p->err, p->errlen, "bad value '%s' for %s", v, opt);
    return ok;
}

/* Flags without values (some take an optional one, as cutechess's -repeat [N]). */
static bool opt_flag(CliParser *p, const char *opt, char **toks, int n) {
    MatchConfig *cfg = p->cfg;
    int64_t x = 2;
    if (strcmp(opt, "-repeat") == 0) {
        if (n > 1 || (n == 1 && (!parse_integer(toks[0], 2, 2, &x)))) {
            snprintf(p->err, p->errlen, "-repeat [2]: each opening is played twice, colours reversed (got '%s')",
                     n ? toks[0] : "");
            return false;
        }
        cfg->games = 2;
        return true;
    }
    if (n > 0 && strcmp(opt, "-use-affinity") != 0) {
        snprintf(p->err, p->errlen, "%s takes no value (got '%s')", opt, toks[0]);
        return false;
    }
    if (strcmp(opt, "-noswap") == 0) cfg->noSwap = true;
    else if (strcmp(opt, "-reverse") == 0) cfg->reverse = true;
    else if (strcmp(opt, "-debug") == 0) return set_string(&cfg->logFile, "-");
    else if (strcmp(opt, "-overrun") == 0) cfg->overrun = cfg->pgn.plan = true;
    else if (strcmp(opt, "-help") == 0 || strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) cfg->help = true;
    else if (strcmp(opt, "-version") == 0 || strcmp(opt, "--version") == 0) cfg->version = true;
    /* -recover (crashed engines are always restarted), -force-concurrency, -testEnv, -show-latency */
    return opt_accepted(p, opt, toks, n);
}

typedef bool (*CliHandler)(CliParser *p, const char *opt, char **toks, int n);

typedef struct {
    const char *name;
    CliHandler run;
} CliOption;

/* Every top-level option of either dialect that gizum-match knows. */
static const CliOption Options[] = {
    {"-engine", NULL}, {"-each", NULL},
    {"-tournament", opt_single}, {"-seeds", opt_single}, {"-rounds", opt_single}, {"-games", opt_single},
    {"-repeat", opt_flag}, {"-noswap", opt_flag}, {"-reverse", opt_flag}, {"-concurrency", opt_single},
    {"-force-concurrency", opt_flag}, {"-wait", opt_single}, {"-openings", opt_openings}, {"-srand", opt_single},
    {"-bookmode", opt_single}, {"-variant", opt_single}, {"-timemargin", opt_single}, {"-inittimeout", opt_single},
    {"-movetimeout", opt_single}, {"-startup-ms", opt_single}, {"-ucinewgame-ms", opt_single},
    {"-ping-ms", opt_single}, {"-draw", opt_draw}, {"-resign", opt_resign}, {"-maxmoves", opt_single},
    {"-sprt", opt_sprt}, {"-spsa", opt_spsa}, {"-pgnout", opt_pgnout}, {"-epdout", opt_epdout}, {"-event", opt_single},
    {"-site", opt_single}, {"-ratinginterval", opt_single}, {"-scoreinterval", opt_single},
    {"-report", opt_report}, {"-output", opt_output}, {"-log", opt_log}, {"-debug", opt_flag}, {"-overrun", opt_flag},
    {"-recover", opt_flag}, {"-config", opt_config}, {"-autosaveinterval", opt_single},
    {"-testEnv", opt_flag}, {"-show-latency", opt_flag}, {"-check-mate-pvs", opt_flag},
    {"-use-affinity", opt_flag}, {"-crc32", opt_accepted}, {"-help", opt_flag}, {"--help", opt_flag},
    {"-h", opt_flag}, {"-version", opt_flag}, {"--version", opt_flag},
    {"-tb", opt_unsupported}, {"-tbpieces", opt_unsupported}, {"-tbignore50", opt_unsupported},
    {"-tbadjudicate", opt_unsupported}, {"-quick", opt_unsupported}, {"-engines", opt_unsupported},
};
enum { OPTION_COUNT = sizeof Options / sizeof Options[0] };

/* "unknown option -x (known: ...)" */
static void unknown_option(const char *opt, char *err, size_t errlen) {
    size_t n = (size_t)snprintf(err, errlen, "unknown option %s (known:", opt);
    for (int i = 0; i < OPTION_COUNT && n < errlen; i++)
        if (strncmp(Options[i].name, "--", 2) != 0)
            n += (size_t)snprintf(err + n, errlen - n, " %s", Options[i].name);
    if (n < errlen) snprintf(err + n, errlen - n, ")");
}

/* Is name the name of one of the first count engines? */
static bool name_taken(const MatchConfig *cfg, int count, const char *name) {
    for (int j = 0; j < count; j++)
        if (strcmp(cfg->engines[j].name, name) == 0) return true;
    return false;
}

/* Checks and completes engine configs after parsing. */
static bool finish_engines(MatchConfig *cfg, char *err, size_t errlen) {
    if (cfg->engineCount < 2) {
        snprintf(err, errlen, "at least two -engine are needed");
        return false;
    }
    for (int i = 0; i < cfg->engineCount; i++) {
        EngineConfig *e = &cfg->engines[i];
        if (!e->cmd) {
            snprintf(err, errlen, "engine %d has no cmd=", i + 1);
            return false;
        }
        if (e->name && !e->name[0]) {
            snprintf(err, errlen, "engine %d has an empty name= (give a name or leave name= out)", i + 1);
            return false;
        }
        if (!command_exists(e->cmd, e->dir)) {
            snprintf(err, errlen, "engine program '%s' not found or not executable", e->cmd);
            return false;
        }
        if (tc_is_unlimited(&e->tc)) {
            snprintf(err, errlen, "engine '%s' has no time control (give tc=, st=, nodes= or depth=)", e->cmd);
            return false;
        }
        if (cfg->chess960 && e->proto == PROTO_UCI && !set_default_option(e, "UCI_Chess960", "true")) return false;
        e->timePlan = cfg->overrun && e->proto == PROTO_UCI;
        if (e->proto == PROTO_XBOARD && e->tc.moveTime > 0 && e->tc.moveTime != floor(e->tc.moveTime)) {
            snprintf(err, errlen, "xboard engines take st= in whole seconds (got %g for '%s')", e->tc.moveTime, e->cmd);
            return false;
        }
        if (e->proto == PROTO_XBOARD && e->tc.nodes > 0)
            fprintf(stderr, "Warning: xboard has no node limit; nodes= ignored for '%s'\n", e->cmd);
        if (!e->name) {
            const char *base = strrchr(e->cmd, '/');
            if (!set_string(&e->name, base ? base + 1 : e->cmd)) return false;
        }
    }
    /*
     * Duplicate names get a number so results stay apart: the first free
     * NAME-2, NAME-3, ... (free among the engines before, so three "sh" are
     * sh, sh-2 and sh-3, and a given name-2 is not taken twice).
     */
    for (int i = 1; i < cfg->engineCount; i++) {
        if (!name_taken(cfg, i, cfg->engines[i].name)) continue;
        char name[256];
        for (int k = 2;; k++) {
            snprintf(name, sizeof name, "%.200s-%d", cfg->engines[i].name, k);
            if (!name_taken(cfg, i, name)) break;
        }
        if (!set_string(&cfg->engines[i].name, name)) return false;
    }
    if (cfg->sprt.enabled && cfg->engineCount != 2) {
        snprintf(err, errlen, "-sprt needs exactly two engines");
        return false;
    }
    return true;
}

/* A deep copy of src into dst (fresh); false when out of memory. */
static bool engine_config_copy(EngineConfig *dst, const EngineConfig *src) {
    *dst = *src;
    dst->name = dst->cmd = dst->dir = dst->stderrPath = NULL;
    dst->argv = NULL;
    dst->options = NULL;
    dst->argc = dst->optionCount = 0;
    if ((src->name && !set_string(&dst->name, src->name)) || !set_string(&dst->cmd, src->cmd) ||
        (src->dir && !set_string(&dst->dir, src->dir)) ||
        (src->stderrPath && !set_string(&dst->stderrPath, src->stderrPath)))
        return false;
    if (!(dst->argv = calloc((size_t)src->argc + 1, sizeof *dst->argv))) return false;
    for (; dst->argc < src->argc; dst->argc++)
        if (!(dst->argv[dst->argc] = strdup(src->argv[dst->argc]))) return false;
    for (int i = 0; i < src->optionCount; i++)
        if (!set_option(dst, src->options[i].name, src->options[i].value, src->options[i].rotate)) return false;
    return true;
}

/*
 * -spsa: checks what a tune cannot combine with, names the state file, seeds
 * the directions, and makes the one engine two: NAME+ and NAME- play each pair.
 */
static bool prepare_spsa(CliParser *p) {
    MatchConfig *c = p->cfg;
    SpsaConfig *s = &c->spsa;
    const char *clash = c->engineCount != 1 ? "one -engine (the tune plays it against itself)"
                        : !c->engines[0].cmd ? "a program to tune (engine 1 has no cmd=)"
                        : c->engines[0].proto != PROTO_UCI ? "a UCI engine"
                        : c->sprt.enabled ? "no -sprt"
                        : c->stateOut ? "no -config (the tune resumes from its state=)"
                        : p->roundsGiven ? "no -rounds (iterations= is the number of pairs)"
                        : c->games != 2 || c->noSwap ? "both colours of each opening (-games 2, no -noswap)"
                                                      : NULL;
    if (clash) {
        snprintf(p->err, p->errlen, "-spsa needs %s", clash);
        return false;
    }
    if (!s->state) {
        size_t len = strlen(s->file) + sizeof ".state";
        if (!(s->state = malloc(len))) return false;
        snprintf(s->state, len, "%s.state", s->file);
    }
    if (!s->seedGiven) {
        s->seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
        printf("SPSA directions seeded with %llu (repeat with -spsa seed=S)\n", (unsigned long long)s->seed);
    }
    EngineConfig *grown = realloc(c->engines, 2 * sizeof *grown);
    if (!grown) return false;
    c->engines = grown;
    c->engineCount = 2;
    memset(&c->engines[1], 0, sizeof c->engines[1]);
    return engine_config_copy(&c->engines[1], &c->engines[0]);
}

/* The tuned engine's two sides: NAME+ plays value + flip c, NAME- value - flip c (flip = +-1 per parameter). */
static bool name_spsa_engines(MatchConfig *c) {
    char name[256];
    snprintf(name, sizeof name, "%.200s-", c->engines[0].name);
    if (!set_string(&c->engines[1].name, name)) return false;
    snprintf(name, sizeof name, "%.200s+", c->engines[0].name);
    return set_string(&c->engines[0].name, name);
}

/* The key=value tokens following argv[i], up to the next option. */
static int value_count(int argc, char **argv, int i) {
    int n = 0;
    while (i + 1 + n < argc && argv[i + 1 + n][0] != '-') n++;
    return n;
}

/* Applies the -each settings, then each engine's own (own settings win). */
static bool build_engines(MatchConfig *cfg, int argc, char **argv, char *err, size_t errlen) {
    char key[256];
    const char *v;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-engine") != 0) continue;
        EngineConfig *grown = realloc(cfg->engines, (size_t)(cfg->engineCount + 1) * sizeof *grown);
        if (!grown) return false;
        cfg->engines = grown;
        EngineConfig *e = &cfg->engines[cfg->engineCount++];
        if (!engine_config_init(e)) return false;
        for (int pass = 0; pass < 2; pass++) {
            for (int j = 1; j < argc; j++) {
                bool mine = pass == 0 ? strcmp(argv[j], "-each") == 0 : j == i;
                if (!mine) continue;
                int n = value_count(argc, argv, j);
                for (int k = 1; k <= n; k++) {
                    if (!split_kv(argv[j + k], key, sizeof key, &v)) {
                        if (!engine_word(e, argv[j + k], err, errlen)) return false;
                        continue;
                    }
                    if (!engine_key(e, key, v, err, errlen)) return false;
                }
            }
        }
    }
    return true;
}

bool cli_parse(int argc, char **argv, MatchConfig *cfg, char *err, size_t errlen) {
    memset(cfg, 0, sizeof *cfg);
    cfg->rounds = 1;
    cfg->games = DEFAULT_GAMES;
    cfg->concurrency = 1;
    cfg->timeMargin = DEFAULT_TIME_MARGIN_MS / 1000;
    cfg->initTimeout = DEFAULT_INIT_TIMEOUT;
    cfg->hangLimit = DEFAULT_HANG_LIMIT;
    cfg->ratingInterval = DEFAULT_RATING_INTERVAL;
    cfg->sprt.alpha = cfg->sprt.beta = DEFAULT_SPRT_ERROR;
    cfg->spsa.aRatio = SPSA_DEFAULT_A_RATIO;
    cfg->spsa.alpha = SPSA_DEFAULT_ALPHA;
    cfg->spsa.gamma = SPSA_DEFAULT_GAMMA;
    cfg->pgnAppend = cfg->epdAppend = cfg->logAppend = true;
    cfg->reportPenta = true;
    cfg->stateStats = true;
    cfg->autosaveInterval = 1;
    CliParser p = {cfg, false, false, err, errlen};
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        int n = value_count(argc, argv, i);
        if (opt[0] != '-') {
            snprintf(err, errlen, "unexpected argument '%s'", opt);
            return false;
        }
        const CliOption *o = NULL;
        for (int k = 0; k < OPTION_COUNT && !o; k++)
            if (strcmp(opt, Options[k].name) == 0) o = &Options[k];
        if (!o) {
            unknown_option(opt, err, errlen);
            return false;
        }
        if (o->run && !o->run(&p, opt, argv + i + 1, n)) return false;
        if (cfg->help || cfg->version) return true;
        i += n;
    }
    /* Resuming (-config file=F): the engines and settings come from the state file. */
    if (cfg->stateIn) return true;
    if (cfg->openings.random && !p.seedGiven) {
        cfg->openings.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
        cfg->openings.seed &= 0x7fffffffffffffffULL;
        printf("Openings shuffled with seed %llu (repeat with -srand)\n", (unsigned long long)cfg->openings.seed);
    }
    if (!cfg->event && !set_string(&cfg->event, "gizum-match")) return false;
    if (!cfg->site) {
        char host[256] = "?";
        if (gethostname(host, sizeof host - 1) != 0) strcpy(host, "?");
        host[sizeof host - 1] = '\0';
        if (!set_string(&cfg->site, host)) return false;
    }
    if (!build_engines(cfg, argc, argv, err, errlen)) return false;
    if (cfg->spsa.enabled && !prepare_spsa(&p)) return false;
    if (!finish_engines(cfg, err, errlen)) return false;
    return !cfg->spsa.enabled || name_spsa_engines(cfg);
}

void cli_free(MatchConfig *cfg) {
    for (int i = 0; i < cfg->engineCount; i++) {
        EngineConfig *e = &cfg->engines[i];
        free(e->name);
        free(e->cmd);
        for (int k = 0; k < e->argc; k++) free(e->argv[k]);
        free(e->argv);
        free(e->dir);
        free(e->stderrPath);
        for (int k = 0; k < e->optionCount; k++) {
            free(e->options[k].name);
            free(e->options[k].value);
        }
        free(e->options);
    }
    free(cfg->engines);
    free(cfg->openings.file);
    free(cfg->pgnOut);
    free(cfg->event);
    free(cfg->site);
    free(cfg->logFile);
    free(cfg->epdOut);
    free(cfg->stateIn);
    free(cfg->stateOut);
    free(cfg->spsa.file);
    free(cfg->spsa.state);
    memset(cfg, 0, sizeof *cfg);
}

void cli_free_args(int argc, char **argv) {
    for (int i = 0; i < argc; i++) free(argv[i]);
    free(argv);
}

/* Undoes the state file's escaping of one argument (\\ and \n). */
static void unescape(char *s) {
    char *out = s;
    for (; *s; s++) {
        if (*s == '\\' && s[1] == 'n') *out++ = '\n', s++;
        else if (*s == '\\' && s[1] == '\\') *out++ = '\\', s++;
        else *out++ = *s;
    }
    *out = '\0';
}

bool cli_read_state(const char *path, int *argc, char ***argv, double **points, long *count, char *err, size_t errlen) {
    *argc = 0;
    *argv = NULL;
    *points = NULL;
    *count = 0;
    char why[512];
    FILE *f = file_open_read(path, NULL, why, sizeof why);
    if (!f) {
        snprintf(err, errlen, "-config: %s", why);
        return false;
    }
    char line[8192];
    bool ok = fgets(line, sizeof line, f) && strcmp(line, "gizum-match state 1\n") == 0;
    if (!ok) snprintf(err, errlen, "-config: '%s' is not a gizum-match state file (fastchess's JSON cannot be resumed here)", path);
    for (int number = 2; ok && fgets(line, sizeof line, f); number++) {
        line[strcspn(line, "\n")] = '\0';
        long index, games;
        double pts;
        if (strncmp(line, "arg ", 4) == 0) {
            char **grown = realloc(*argv, (size_t)(*argc + 2) * sizeof *grown);
            ok = grown != NULL;
            if (ok) {
                *argv = grown;
                unescape(line + 4);
                ok = ((*argv)[(*argc)++] = strdup(line + 4)) != NULL;
                (*argv)[*argc] = NULL;
            }
        } else if (sscanf(line, "games %ld", &games) == 1 && games > 0 && games < 100000000 && !*points) {
            *points = malloc((size_t)games * sizeof **points);
            ok = *points != NULL;
            for (long i = 0; ok && i < games; i++) (*points)[i] = -1;
            *count = games;
        } else if (sscanf(line, "game %ld %lf", &index, &pts) == 2 && *points && index >= 0 && index < *count &&
                   (pts == 0 || pts == 0.5 || pts == 1)) {
            (*points)[index] = pts;
        } else {
            snprintf(err, errlen, "%s:%d: not a state line: '%.60s'", path, number, line);
            ok = false;
        }
    }
    fclose(f);
    if (ok && (*argc < 2 || !*points)) {
        snprintf(err, errlen, "-config: state file '%s' is incomplete", path);
        ok = false;
    }
    if (!ok) {
        cli_free_args(*argc, *argv);
        free(*points);
        *argc = 0, *argv = NULL, *points = NULL;
    }
    return ok;
}
