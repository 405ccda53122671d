/*
 * gizum-match: engine objects, the protocol-independent part.
 */
#include "match_engine.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "match_protocol.h"

/* Mate scores for adjudication: beyond any centipawn score an engine reports. */
static const int MATE_CP = 100000;

void engine_init(Engine *e, const EngineConfig *cfg, const char *name, EngineLog *log,
                 const atomic_bool *stop, double initTimeout) {
    memset(e, 0, sizeof *e);
    e->cfg = cfg;
    e->name = name;
    e->log = log;
    e->stop = stop;
    e->initTimeout = initTimeout;
    e->proc.toChild = e->proc.fromChild = -1;
}

/* Writes one line of traffic to the shared log. */
static void log_line(Engine *e, char dir, const char *line) {
    if (!e->log || !e->log->file) return;
    pthread_mutex_lock(&e->log->lock);
    fprintf(e->log->file, "%9.3f %s(%d) %c %s\n", clock_now() - e->log->t0, e->name, (int)e->proc.pid,
            dir, line);
    fflush(e->log->file);
    pthread_mutex_unlock(&e->log->lock);
}

bool proto_send(Engine *e, const char *fmt, ...) {
    char line[8192];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    char *big = NULL;
    if (n >= (int)sizeof line) { /* very long position commands */
        big = malloc((size_t)n + 1);
        if (!big) return false;
        va_start(ap, fmt);
        vsnprintf(big, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    log_line(e, '>', big ? big : line);
    bool ok = proc_write_line(&e->proc, big ? big : line, PROTO_WRITE_TIMEOUT);
    free(big);
    return ok;
}

ReadResult proto_read(Engine *e, char *line, double deadline) {
    ReadResult r = proc_read_line(&e->proc, line, deadline, e->stop);
    if (r == READ_LINE) {
        log_line(e, '<', line);
        snprintf(e->lastLine, sizeof e->lastLine, "%s", line);
    }
    return r;
}

void proto_describe_failure(Engine *e, ReadResult r, double waited, char *out, size_t len) {
    if (r == READ_EOF) {
        char how[96];
        proc_terminate(&e->proc, 0.2);
        proc_describe_exit(&e->proc, how, sizeof how);
        snprintf(out, len, "engine exited (%s)", how);
    } else if (r == READ_STOPPED) {
        snprintf(out, len, "interrupted");
    } else {
        snprintf(out, len, "no answer within %.1f s", waited);
    }
}

bool proto_handshake(Engine *e, const char *command, bool (*accept)(const char *line, int arg), int arg,
                     const char *what, double timeout, char *err, size_t errlen) {
    if (!proto_send(e, "%s", command)) {
        snprintf(err, errlen, "cannot write to engine (it has exited)");
        return false;
    }
    char *line = malloc(PROC_LINE_MAX);
    if (!line) return false;
    double start = clock_now();
    bool ok = false;
    for (;;) {
        ReadResult r = proto_read(e, line, start + timeout);
        if (r == READ_LINE) {
            if (accept(line, arg)) {
                ok = true;
                break;
            }
            continue;
        }
        char why[160];
        proto_describe_failure(e, r, timeout, why, sizeof why);
        snprintf(err, errlen, "stalled at %s: %s", what, why);
        break;
    }
    free(line);
    return ok;
}

bool proto_list_has(const char *list, const char *name) {
    size_t n = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len == n && strncasecmp(p, name, n) == 0) return true;
        p = nl ? nl + 1 : NULL;
    }
    return false;
}

const char *proto_skip_blanks(const char *s) {
    while (*s == ' ' || *s == '\t') s++;
    return s;
}

const char *proto_token(const char *s, char *tok, size_t len) {
    s = proto_skip_blanks(s);
    size_t n = 0;
    while (*s && *s != ' ' && *s != '\t') {
        if (n + 1 < len) tok[n++] = *s;
        s++;
    }
    tok[n] = '\0';
    return n ? s : NULL;
}

bool engine_start(Engine *e, char *err, size_t errlen) {
    if (e->running) return true;
    free(e->declared);
    e->declared = NULL;
    memset(&e->xb, 0, sizeof e->xb);
    e->xb.reuse = true;
    e->idName[0] = '\0';
    if (!proc_spawn(&e->proc, e->cfg->argv, e->cfg->dir, e->cfg->stderrPath, err, errlen)) return false;
    bool ok = e->cfg->proto == PROTO_UCI ? uci_start(e, err, errlen) : xboard_start(e, err, errlen);
    if (!ok) {
        proc_terminate(&e->proc, 0.1);
        return false;
    }
    e->running = true;
    e->warned = true;
    e->failed = false;
    e->starts++;
    return true;
}

bool engine_new_game(Engine *e, const GameStart *start, char *err, size_t errlen) {
    e->xbThinking = false;
    e->xbKnown = 0;
    e->pondering = false;
    bool ok = e->cfg->proto == PROTO_UCI ? uci_new_game(e, start, err, errlen)
                                         : xboard_new_game(e, start, err, errlen);
    e->newGames++;
    if (!ok) {
        engine_stop(e, 0.1);
        e->failed = true;
    }
    return ok;
}

void engine_go(Engine *e, const GoRequest *req, EngineReply *reply) {
    memset(reply, 0, sizeof *reply);
    reply->nps = reply->tbhits = reply->timeMs = -1;
    if (e->cfg->proto == PROTO_UCI) uci_go(e, req, reply);
    else xboard_go(e, req, reply);
    if (reply->kind == REPLY_DISCONNECT) {
        e->running = false;
        proc_terminate(&e->proc, 0.2);
    }
    if (!e->running) e->failed = true; /* disconnected, or dropped after a hung search */
}

void engine_ponder(Engine *e, const GoRequest *req, const char *ponderMove) {
    if (!e->running || !e->cfg->ponder || !ponderMove[0] || e->cfg->proto != PROTO_UCI) return;
    uci_ponder(e, req, ponderMove);
}

void engine_option_value(const EngineOption *o, int game, char *out, size_t len) {
    const char *p = o->value;
    if (o->rotate) {
        int count = 1;
        for (const char *c = p; *c; c++) count += *c == ',';
        for (int skip = game % count; skip > 0; skip--) p = strchr(p, ',') + 1;
    }
    size_t n = o->rotate && strchr(p, ',') ? (size_t)(strchr(p, ',') - p) : strlen(p);
    snprintf(out, len, "%.*s", (int)n, p);
}

void engine_game_over(Engine *e, const char *result, const char *reason) {
    if (!e->running) return;
    if (e->pondering) uci_end_ponder(e);
    if (e->cfg->proto == PROTO_XBOARD) {
        xboard_game_over(e, result, reason);
        if (!e->xb.reuse) engine_stop(e, 1.0);
    }
}

void engine_stop(Engine *e, double grace) {
    if (e->proc.pid > 0 && !e->proc.reaped) {
        if (e->proc.toChild >= 0) proto_send(e, "quit");
        proc_terminate(&e->proc, grace);
    }
    e->running = false;
}

bool engine_alive(Engine *e) {
    return e->running && proc_alive(&e->proc);
}

void engine_free(Engine *e) {
    engine_stop(e, 0.5);
    free(e->declared);
    e->declared = NULL;
}

int engine_reply_cp(const EngineReply *r) {
    if (!r->isMate) return r->score;
    return r->score > 0 ? MATE_CP - r->score : -MATE_CP - r->score;
}
