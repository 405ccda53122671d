/*
 * gizum-match: the command line.
 */
#include "match_cli.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

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
        "\n"
        "Engines (-engine per engine; -each applies to every engine, -engine overrides):\n"
        "  cmd=PATH            engine program (searched in PATH without a '/')\n"
        "  args=\"A B\"          arguments (split at blanks; quotes group)\n"
        "  name=NAME           name for output and PGN (default: program file name)\n"
        "  proto=uci|xboard    protocol (default uci)\n"
        "  dir=DIR             working directory; stderr=FILE: engine stderr (default /dev/null)\n"
        "  tc=[MOVES/]TIME[+INC]  clock, e.g. 10+0.1, 40/60, 1:30+1, inf\n"
        "  st=SECONDS          fixed time per move; nodes=N, depth=N: search limits\n"
        "  option.NAME=VALUE   engine option (UCI setoption; xboard option/memory/cores)\n"
        "  rotate.NAME=V1,V2,...  option set before every game, to the next value in turn\n"
        "  ponder=on|off       think on the opponent's time (UCI Ponder + go ponder; xboard hard)\n"
        "\n"
        "Tournament:\n"
        "  -tournament round-robin|gauntlet   (default round-robin; gauntlet: first engine vs each other)\n"
        "  -rounds N           rounds (default 1); every pairing plays -games games per round\n"
        "  -games N            games per pairing and round, colours alternate on the same opening (default 2)\n"
        "  -repeat             same as -games 2\n"
        "  -concurrency N      games played at the same time (default 1)\n"
        "  -openings file=F format=epd|pgn|book order=sequential|random plies=N seed=S start=K\n"
        "  -srand S            seed for order=random (default: from the clock, printed)\n"
        "  -variant standard|fischerandom\n"
        "\n"
        "Referee and adjudication:\n"
        "  -timemargin MS      tolerance before a flag falls (default 50)\n"
        "  -inittimeout S      seconds for uciok / feature done / readyok / pong (default 10)\n"
        "  -movetimeout S      seconds per move when no clock limits an engine (default 60)\n"
        "  -draw movenumber=M movecount=N score=S   draw when, after M full moves, both engines\n"
        "                      report |score| <= S cp for N consecutive moves each\n"
        "  -resign movecount=N score=S   loss when both engines agree for N consecutive moves each\n"
        "                      that one side is down by at least S cp\n"
        "  -maxmoves N         draw after N full moves\n"
        "\n"
        "Output:\n"
        "  -pgnout FILE        append every finished game to FILE\n"
        "  -event NAME, -site NAME   PGN Event and Site tags\n"
        "  -ratinginterval N   summary every N games (default 10; 0 = at the end only)\n"
        "  -log FILE           log all engine communication\n"
        "  -sprt elo0=E0 elo1=E1 alpha=A beta=B model=normalized|logistic\n"
        "                      stop when the GSPRT on pentanomial pairs accepts H0 or H1\n"
        "                      (default model normalized, as fishtest; alpha = beta = 0.05)\n"
        "  -help               this text\n",
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

/* Parses an integer in [lo, hi]. */
static bool parse_int(const char *text, long lo, long hi, long *out) {
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end || v < lo || v > hi) return false;
    *out = v;
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
    long n;
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
        e->tc.moveTime = d;
        return true;
    }
    if (strcmp(key, "nodes") == 0 || strcmp(key, "depth") == 0) {
        if (!parse_int(value, 1, 1L << 62, &n) || (key[0] == 'd' && n > 1000)) {
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
    snprintf(err, errlen, "unknown engine setting '%s'", key);
    return false;
}

/* Fresh engine config with argv[0] slot. */
static bool engine_config_init(EngineConfig *e) {
    memset(e, 0, sizeof *e);
    e->argv = calloc(2, sizeof *e->argv);
    e->argc = 1;
    return e->argv != NULL;
}

/* Is the program runnable (directly or through PATH)? */
static bool command_exists(const char *cmd, const char *dir) {
    if (strchr(cmd, '/')) {
        if (cmd[0] == '/' || !dir) return access(cmd, X_OK) == 0;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, cmd);
        return access(path, X_OK) == 0;
    }
    const char *env = getenv("PATH");
    if (!env) return false;
    char path[4096];
    for (const char *p = env; *p;) {
        const char *colon = strchr(p, ':');
        size_t n = colon ? (size_t)(colon - p) : strlen(p);
        snprintf(path, sizeof path, "%.*s/%s", (int)n, p, cmd);
        if (access(path, X_OK) == 0) return true;
        if (!colon) break;
        p = colon + 1;
    }
    return false;
}

/* Parses the key=value list of -openings. */
static bool parse_openings(MatchConfig *cfg, char **toks, int n, bool *seedGiven, char *err, size_t errlen) {
    char key[64];
    const char *v;
    long x;
    OpeningConfig *o = &cfg->openings;
    for (int i = 0; i < n; i++) {
        if (!split_kv(toks[i], key, sizeof key, &v)) goto bad;
        if (strcmp(key, "file") == 0) {
            if (!set_string(&o->file, v)) return false;
        } else if (strcmp(key, "format") == 0) {
            if (strcmp(v, "epd") == 0) o->format = OPENINGS_EPD;
            else if (strcmp(v, "pgn") == 0) o->format = OPENINGS_PGN;
            else if (strcmp(v, "book") == 0 || strcmp(v, "polyglot") == 0 || strcmp(v, "bin") == 0)
                o->format = OPENINGS_BOOK;
            else goto bad;
        } else if (strcmp(key, "order") == 0) {
            if (strcmp(v, "sequential") == 0) o->random = false;
            else if (strcmp(v, "random") == 0) o->random = true;
            else goto bad;
        } else if (strcmp(key, "plies") == 0) {
            if (!parse_int(v, 0, 1000, &x)) goto bad;
            o->plies = (int)x;
        } else if (strcmp(key, "seed") == 0) {
            if (!parse_int(v, 0, 0x7fffffffffffffffL, &x)) goto bad;
            o->seed = (uint64_t)x;
            *seedGiven = true;
        } else if (strcmp(key, "start") == 0) {
            if (!parse_int(v, 1, 0x7fffffffL, &x)) goto bad;
            o->start = x;
        } else if (strcmp(key, "policy") != 0) {
            goto bad;
        }
        continue;
    bad:
        snprintf(err, errlen, "bad -openings setting '%s'", toks[i]);
        return false;
    }
    if (!o->file) {
        snprintf(err, errlen, "-openings needs file=PATH");
        return false;
    }
    return true;
}

/* Parses -draw / -resign / -sprt key=value lists. */
static bool parse_rule(MatchConfig *cfg, const char *opt, char **toks, int n, char *err, size_t errlen) {
    char key[64];
    const char *v;
    double d;
    bool count = false, score = false, e0 = false, e1 = false;
    AdjudicationConfig *a = &cfg->adjudication;
    SprtConfig *s = &cfg->sprt;
    for (int i = 0; i < n; i++) {
        if (!split_kv(toks[i], key, sizeof key, &v)) goto bad;
        bool isNum = parse_double(v, &d);
        if (strcmp(opt, "-sprt") == 0) {
            if (strcmp(key, "model") == 0) {
                if (strcmp(v, "normalized") == 0) s->model = SPRT_NORMALIZED;
                else if (strcmp(v, "logistic") == 0) s->model = SPRT_LOGISTIC;
                else goto bad;
            } else if (!isNum) goto bad;
            else if (strcmp(key, "elo0") == 0) s->elo0 = d, e0 = true;
            else if (strcmp(key, "elo1") == 0) s->elo1 = d, e1 = true;
            else if (strcmp(key, "alpha") == 0 && d > 0 && d < 0.5) s->alpha = d;
            else if (strcmp(key, "beta") == 0 && d > 0 && d < 0.5) s->beta = d;
            else goto bad;
            continue;
        }
        if (!isNum || d < 0 || d > 1e6) goto bad;
        bool draw = strcmp(opt, "-draw") == 0;
        if (strcmp(key, "movenumber") == 0 && draw) a->drawMoveNumber = (int)d;
        else if (strcmp(key, "movecount") == 0 && d >= 1) {
            *(draw ? &a->drawMoveCount : &a->resignMoveCount) = (int)d;
            count = true;
        } else if (strcmp(key, "score") == 0) {
            *(draw ? &a->drawScore : &a->resignScore) = (int)d;
            score = true;
        } else if (strcmp(key, "twosided") != 0) goto bad;
        continue;
    bad:
        snprintf(err, errlen, "bad %s setting '%s'", opt, toks[i]);
        return false;
    }
    if (strcmp(opt, "-sprt") == 0) {
        if (!e0 || !e1 || s->elo1 <= s->elo0) {
            snprintf(err, errlen, "-sprt needs elo0 and elo1 with elo0 < elo1");
            return false;
        }
        s->enabled = true;
        return true;
    }
    if (!count || !score) {
        snprintf(err, errlen, "%s needs movecount=N and score=CP", opt);
        return false;
    }
    if (strcmp(opt, "-draw") == 0) a->drawEnabled = true;
    else a->resignEnabled = true;
    return true;
}

/* Parses a single-value option (-rounds 4 ...). */
static bool parse_single(MatchConfig *cfg, const char *opt, const char *v, char *err, size_t errlen) {
    long n;
    double d;
    if (strcmp(opt, "-rounds") == 0 && parse_int(v, 1, 100000000, &n)) cfg->rounds = (int)n;
    else if (strcmp(opt, "-games") == 0 && parse_int(v, 1, 1000, &n)) cfg->games = (int)n;
    else if (strcmp(opt, "-concurrency") == 0 && parse_int(v, 1, MAX_CONCURRENCY, &n)) cfg->concurrency = (int)n;
    else if (strcmp(opt, "-ratinginterval") == 0 && parse_int(v, 0, 100000000, &n)) cfg->ratingInterval = (int)n;
    else if (strcmp(opt, "-maxmoves") == 0 && parse_int(v, 1, 100000, &n)) cfg->adjudication.maxMoves = (int)n;
    else if (strcmp(opt, "-timemargin") == 0 && parse_double(v, &d) && d >= 0) cfg->timeMargin = d / 1000;
    else if (strcmp(opt, "-inittimeout") == 0 && parse_double(v, &d) && d > 0) cfg->initTimeout = d;
    else if (strcmp(opt, "-movetimeout") == 0 && parse_double(v, &d) && d > 0) cfg->hangLimit = d;
    else if (strcmp(opt, "-srand") == 0 && parse_int(v, 0, 0x7fffffffffffffffL, &n)) cfg->openings.seed = (uint64_t)n;
    else if (strcmp(opt, "-pgnout") == 0) return set_string(&cfg->pgnOut, v);
    else if (strcmp(opt, "-event") == 0) return set_string(&cfg->event, v);
    else if (strcmp(opt, "-site") == 0) return set_string(&cfg->site, v);
    else if (strcmp(opt, "-log") == 0) return set_string(&cfg->logFile, v);
    else if (strcmp(opt, "-tournament") == 0 && strcmp(v, "round-robin") == 0) cfg->type = TOURNAMENT_ROUND_ROBIN;
    else if (strcmp(opt, "-tournament") == 0 && strcmp(v, "gauntlet") == 0) cfg->type = TOURNAMENT_GAUNTLET;
    else if (strcmp(opt, "-variant") == 0 && strcmp(v, "standard") == 0) cfg->chess960 = false;
    else if (strcmp(opt, "-variant") == 0 && (strcmp(v, "fischerandom") == 0 || strcmp(v, "chess960") == 0))
        cfg->chess960 = true;
    else {
        static const char *const known[] = { "-rounds", "-games", "-concurrency", "-ratinginterval", "-maxmoves",
                                             "-timemargin", "-inittimeout", "-movetimeout", "-srand",
                                             "-tournament", "-variant" };
        for (size_t i = 0; i < sizeof known / sizeof *known; i++)
            if (strcmp(opt, known[i]) == 0) {
                snprintf(err, errlen, "bad value '%s' for %s", v, opt);
                return false;
            }
        snprintf(err, errlen, "unknown option %s", opt);
        return false;
    }
    return true;
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
        if (!command_exists(e->cmd, e->dir)) {
            snprintf(err, errlen, "engine program '%s' not found or not executable", e->cmd);
            return false;
        }
        if (tc_is_unlimited(&e->tc)) {
            snprintf(err, errlen, "engine '%s' has no time control (give tc=, st=, nodes= or depth=)", e->cmd);
            return false;
        }
        if (cfg->chess960 && e->proto == PROTO_UCI && !set_default_option(e, "UCI_Chess960", "true")) return false;
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
    /* Duplicate names get a number so results stay apart. */
    for (int i = 1; i < cfg->engineCount; i++) {
        int same = 1;
        for (int j = 0; j < i; j++)
            if (strcmp(cfg->engines[i].name, cfg->engines[j].name) == 0) same++;
        if (same > 1) {
            char name[256];
            snprintf(name, sizeof name, "%.200s-%d", cfg->engines[i].name, same);
            if (!set_string(&cfg->engines[i].name, name)) return false;
        }
    }
    if (cfg->sprt.enabled && cfg->engineCount != 2) {
        snprintf(err, errlen, "-sprt needs exactly two engines");
        return false;
    }
    return true;
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
                        snprintf(err, errlen, "expected key=value after %s, got '%s'", argv[j], argv[j + k]);
                        return false;
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
    bool seedGiven = false;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        int n = value_count(argc, argv, i);
        if (opt[0] != '-') {
            snprintf(err, errlen, "unexpected argument '%s'", opt);
            return false;
        }
        if (strcmp(opt, "-help") == 0 || strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            cfg->help = true;
            return true;
        }
        if (strcmp(opt, "-engine") == 0 || strcmp(opt, "-each") == 0) {
            /* handled by build_engines */
        } else if (strcmp(opt, "-repeat") == 0 || strcmp(opt, "-recover") == 0) {
            if (strcmp(opt, "-repeat") == 0) cfg->games = 2; /* -recover: restarting is always on */
        } else if (strcmp(opt, "-openings") == 0) {
            if (!parse_openings(cfg, argv + i + 1, n, &seedGiven, err, errlen)) return false;
        } else if (strcmp(opt, "-draw") == 0 || strcmp(opt, "-resign") == 0 || strcmp(opt, "-sprt") == 0) {
            if (!parse_rule(cfg, opt, argv + i + 1, n, err, errlen)) return false;
        } else {
            if (n != 1) {
                snprintf(err, errlen, "%s needs exactly one value, or is unknown (see -help)", opt);
                return false;
            }
            if (!parse_single(cfg, opt, argv[i + 1], err, errlen)) return false;
            if (strcmp(opt, "-srand") == 0) seedGiven = true;
        }
        i += n;
    }
    if (cfg->openings.random && !seedGiven) {
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
    return finish_engines(cfg, err, errlen);
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
    memset(cfg, 0, sizeof *cfg);
}
