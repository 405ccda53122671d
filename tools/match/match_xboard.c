/*
 * gizum-match: the xboard / CECP version 2 side of the engine interface.
 *
 * The engine is kept in force mode while a game is set up and the opening
 * moves are fed; "go" makes it play the side to move, after which each
 * opponent move (preceded by "time"/"otim") starts its next search.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "match_protocol.h"

/* Seconds an engine without "feature done=0" gets to finish announcing features (CECP 2). */
static const double FEATURE_WAIT = 2.0;
/* xboard mate scores are reported as +-(MATE_BASE + moves) by most engines. */
static const int MATE_BASE = 100000;

/* Copies one feature value (quoted or bare) into out; returns the rest of the line. */
static const char *feature_value(const char *p, char *out, size_t len) {
    size_t n = 0;
    if (*p == '"') {
        p++;
        while (*p && *p != '"') {
            if (n + 1 < len) out[n++] = *p;
            p++;
        }
        if (*p == '"') p++;
    } else {
        while (*p && *p != ' ' && *p != '\t') {
            if (n + 1 < len) out[n++] = *p;
            p++;
        }
    }
    out[n] = '\0';
    return p;
}

/* Adds the name of an option="Name -type ..." feature to the declared list. */
static void note_option(Engine *e, const char *value) {
    const char *dash = strstr(value, " -");
    size_t n = dash ? (size_t)(dash - value) : strlen(value);
    size_t old = strlen(e->xb.options);
    if (old + n + 2 > sizeof e->xb.options) return;
    memcpy(e->xb.options + old, value, n);
    e->xb.options[old + n] = '\n';
    e->xb.options[old + n + 1] = '\0';
}

/* Handles one "feature a=1 b="x y" ..." line, answering accepted/rejected for each. */
static void parse_features(Engine *e, const char *line) {
    const char *p = line + 7;
    char key[64], value[512];
    for (;;) {
        p = proto_skip_blanks(p);
        if (!*p) break;
        size_t n = 0;
        while (*p && *p != '=' && *p != ' ') {
            if (n + 1 < sizeof key) key[n++] = *p;
            p++;
        }
        key[n] = '\0';
        if (*p != '=') break;
        p = feature_value(p + 1, value, sizeof value);
        bool on = strcmp(value, "1") == 0;
        bool known = true;
        if (strcmp(key, "setboard") == 0) e->xb.setboard = on;
        else if (strcmp(key, "usermove") == 0) e->xb.usermove = on;
        else if (strcmp(key, "ping") == 0) e->xb.ping = on;
        else if (strcmp(key, "san") == 0) e->xb.san = on;
        else if (strcmp(key, "memory") == 0) e->xb.memory = on;
        else if (strcmp(key, "smp") == 0) e->xb.smp = on;
        else if (strcmp(key, "reuse") == 0) e->xb.reuse = on;
        else if (strcmp(key, "done") == 0) e->xb.done = on;
        else if (strcmp(key, "myname") == 0) snprintf(e->xb.myname, sizeof e->xb.myname, "%.127s", value);
        else if (strcmp(key, "variants") == 0) snprintf(e->xb.variants, sizeof e->xb.variants, "%.255s", value);
        else if (strcmp(key, "option") == 0) note_option(e, value);
        else if (strcmp(key, "sigint") == 0 || strcmp(key, "sigterm") == 0 || strcmp(key, "time") == 0 ||
                 strcmp(key, "draw") == 0 || strcmp(key, "colors") == 0 || strcmp(key, "analyze") == 0 ||
                 strcmp(key, "playother") == 0 || strcmp(key, "name") == 0 || strcmp(key, "debug") == 0 ||
                 strcmp(key, "ics") == 0 || strcmp(key, "pause") == 0 || strcmp(key, "nps") == 0 ||
                 strcmp(key, "egt") == 0 || strcmp(key, "exclude") == 0 || strcmp(key, "setscore") == 0 ||
                 strcmp(key, "highlight") == 0)
            known = true; /* understood; nothing for a match runner to do */
        else known = false;
        if (strcmp(key, "done") != 0) proto_send(e, "%s %s", known ? "accepted" : "rejected", key);
    }
}

static bool is_pong(Engine *e, const char *line, int n) {
    (void)e;
    return strncmp(line, "pong", 4) == 0 && atoi(line + 4) == n;
}

/* Sends ping N and waits for pong N (drains stale output); true when ping is unsupported. */
static bool xboard_sync(Engine *e, double timeout, char *err, size_t errlen) {
    if (!e->xb.ping) return true;
    int n = ++e->pingCounter;
    char ping[32];
    snprintf(ping, sizeof ping, "ping %d", n);
    return proto_handshake(e, ping, is_pong, n, "ping", timeout, err, errlen);
}

/* Sends the option.X=Y settings in the forms xboard knows (memory, cores, option): the ones set once
   at start-up (rotating false) or before every game (rotating true). */
static void send_options(Engine *e, bool rotating) {
    char value[1024];
    for (int i = 0; i < e->cfg->optionCount; i++) {
        const EngineOption *o = &e->cfg->options[i];
        if (o->rotate != rotating) continue;
        engine_option_value(o, e->newGames, value, sizeof value);
        const char *v = strcasecmp(value, "true") == 0 ? "1" : strcasecmp(value, "false") == 0 ? "0" : value;
        if (strcasecmp(o->name, "Hash") == 0 && e->xb.memory) proto_send(e, "memory %s", v);
        else if ((strcasecmp(o->name, "Threads") == 0 || strcasecmp(o->name, "Cores") == 0) && e->xb.smp)
            proto_send(e, "cores %s", v);
        else if (proto_list_has(e->xb.options, o->name)) proto_send(e, "option %s=%s", o->name, v);
        else if (!e->warned)
            fprintf(stderr, "Warning: xboard engine %s has no option '%s' (not sent)\n", e->name, o->name);
    }
}

bool xboard_start(Engine *e, char *err, size_t errlen) {
    if (!proto_send(e, "xboard") || !proto_send(e, "protover 2")) {
        snprintf(err, errlen, "cannot write to engine");
        return false;
    }
    char *line = malloc(PROC_LINE_MAX);
    if (!line) return false;
    double start = clock_now();
    bool waitDone = false, ok = true;
    for (;;) {
        double deadline = start + (waitDone ? e->initTimeout : FEATURE_WAIT);
        ReadResult r = proto_read(e, line, deadline);
        if (r == READ_TIMEOUT && !waitDone) break; /* protocol 1 engine or no done=1: go on */
        if (r != READ_LINE) {
            char why[160];
            proto_describe_failure(e, r, waitDone ? e->initTimeout : FEATURE_WAIT, why, sizeof why);
            snprintf(err, errlen, "no feature done=1: %s", why);
            ok = false;
            break;
        }
        if (strncmp(line, "feature ", 8) == 0) {
            if (strstr(line, "done=0")) waitDone = true;
            parse_features(e, line);
            if (e->xb.done) break;
        }
    }
    free(line);
    if (!ok) return false;
    snprintf(e->idName, sizeof e->idName, "%s", e->xb.myname);
    send_options(e, false);
    return xboard_sync(e, e->initTimeout, err, errlen);
}

/* Sets a non-standard position with the old edit protocol (engines without setboard). */
static void send_edit(Engine *e, const char *fen) {
    bool blackToMove = strstr(fen, " b ") != NULL;
    if (blackToMove) proto_send(e, "a2a3"); /* the classic trick to hand the move to black */
    proto_send(e, "edit");
    proto_send(e, "#");
    bool black = false;
    int rank = 7, file = 0;
    for (const char *p = fen; *p && *p != ' '; p++) {
        if (*p == '/') {
            rank--;
            file = 0;
        } else if (isdigit((unsigned char)*p)) {
            file += *p - '0';
        } else {
            bool isBlack = islower((unsigned char)*p);
            if (isBlack != black) {
                proto_send(e, "c");
                black = isBlack;
            }
            proto_send(e, "%c%c%d", toupper((unsigned char)*p), 'a' + file, rank + 1);
            file++;
        }
    }
    proto_send(e, ".");
}

/* Minutes for "level": "5", or "0:02" for sub-minute parts. */
static void level_time(double seconds, char *out, size_t len) {
    long s = lround(seconds);
    if (s % 60 == 0) snprintf(out, len, "%ld", s / 60);
    else snprintf(out, len, "%ld:%02ld", s / 60, s % 60);
}

bool xboard_new_game(Engine *e, const GameStart *start, char *err, size_t errlen) {
    const TimeControl *tc = &e->cfg->tc;
    send_options(e, true);
    if (!proto_send(e, "new")) {
        snprintf(err, errlen, "cannot write to engine (it has exited)");
        return false;
    }
    if (start->chess960) {
        if (!e->variantWarned && !strstr(e->xb.variants, "fischerandom"))
            fprintf(stderr, "Warning: xboard engine %s does not list variant fischerandom\n", e->name);
        e->variantWarned = true;
        proto_send(e, "variant fischerandom");
    }
    proto_send(e, "force");
    proto_send(e, e->cfg->ponder ? "hard" : "easy");
    proto_send(e, "post");
    if (!start->standard) {
        if (e->xb.setboard) proto_send(e, "setboard %s", start->fen);
        else send_edit(e, start->fen);
    }
    if (tc->moveTime > 0) {
        proto_send(e, "st %ld", (long)ceil(tc->moveTime));
    } else if (tc->hasClock) {
        char base[32];
        level_time(tc->base, base, sizeof base);
        proto_send(e, "level %d %s %g", tc->moves, base, tc->inc);
    }
    if (tc->depth > 0) proto_send(e, "sd %d", tc->depth);
    return xboard_sync(e, e->initTimeout, err, errlen);
}

/* Sends one game move in the engine's notation. */
static bool send_move(Engine *e, const MoveText *m) {
    const char *text = e->xb.san ? m->san : m->uci;
    return e->xb.usermove ? proto_send(e, "usermove %s", text) : proto_send(e, "%s", text);
}

/* Parses a thinking line "depth score time nodes pv..." (time in centiseconds). */
static void parse_thinking(const char *line, EngineReply *reply) {
    int depth, score;
    long long cs, nodes;
    if (sscanf(line, "%d %d %lld %lld", &depth, &score, &cs, &nodes) != 4) return;
    reply->depth = depth;
    reply->nodes = nodes;
    reply->hasScore = true;
    reply->isMate = abs(score) >= MATE_BASE;
    reply->score = reply->isMate ? (score > 0 ? score - MATE_BASE : -(-score - MATE_BASE)) : score;
}

/* Sends clocks and pending moves, and starts the engine thinking. */
static bool start_thinking(Engine *e, const GoRequest *req) {
    bool clocks = e->cfg->tc.hasClock && e->cfg->tc.moveTime <= 0;
    long own = lround(fmax(req->ownTime, 0.01) * 100), opp = lround(fmax(req->oppTime, 0.01) * 100);
    int pending = req->moveCount - e->xbKnown;
    if (e->xbThinking && pending == 1) {
        if (clocks && (!proto_send(e, "time %ld", own) || !proto_send(e, "otim %ld", opp))) return false;
        if (!send_move(e, &req->moves[req->moveCount - 1])) return false;
    } else {
        if (e->xbThinking) proto_send(e, "force");
        for (int i = e->xbKnown; i < req->moveCount; i++)
            if (!send_move(e, &req->moves[i])) return false;
        if (clocks && (!proto_send(e, "time %ld", own) || !proto_send(e, "otim %ld", opp))) return false;
        if (!proto_send(e, "go")) return false;
        e->xbThinking = true;
    }
    e->xbKnown = req->moveCount;
    return true;
}

/* After a forfeit: take the engine out of its search, or drop it when it cannot be resynced. */
static void xboard_resync(Engine *e) {
    char err[64];
    proto_send(e, "force");
    e->xbThinking = false;
    if (!e->xb.ping || !xboard_sync(e, PROTO_RESYNC_TIMEOUT, err, sizeof err)) engine_stop(e, 0.1);
}

/* Classifies one line read while the engine thinks; true when it ends the wait. */
static bool handle_line(const char *line, EngineReply *reply) {
    const char *p = proto_skip_blanks(line);
    if (strncmp(p, "move ", 5) == 0) {
        reply->kind = REPLY_MOVE;
        if (!proto_token(p + 5, reply->move, sizeof reply->move)) reply->move[0] = '\0';
        return true;
    }
    if (strncmp(p, "resign", 6) == 0) {
        reply->kind = REPLY_RESIGN;
        return true;
    }
    if (strncmp(p, "1-0", 3) == 0 || strncmp(p, "0-1", 3) == 0 || strncmp(p, "1/2-1/2", 7) == 0) {
        reply->kind = REPLY_CLAIM;
        snprintf(reply->detail, sizeof reply->detail, "%s", p);
        return true;
    }
    if (strncasecmp(p, "Illegal move", 12) == 0 || strncmp(p, "Error", 5) == 0) {
        reply->kind = REPLY_PROTOCOL;
        snprintf(reply->detail, sizeof reply->detail, "engine said \"%.200s\"", p);
        return true;
    }
    if (isdigit((unsigned char)*p)) parse_thinking(p, reply);
    return false;
}

void xboard_go(Engine *e, const GoRequest *req, EngineReply *reply) {
    char *line = malloc(PROC_LINE_MAX);
    if (!line || !start_thinking(e, req)) {
        reply->kind = REPLY_DISCONNECT;
        snprintf(reply->detail, sizeof reply->detail, "cannot write to engine (it has exited)");
        free(line);
        return;
    }
    double start = clock_now();
    for (;;) {
        ReadResult r = proto_read(e, line, start + req->allowance);
        reply->elapsed = clock_now() - start;
        if (r == READ_LINE) {
            if (handle_line(line, reply)) break;
            continue;
        }
        proto_describe_failure(e, r, req->allowance, reply->detail, sizeof reply->detail);
        reply->kind = r == READ_EOF ? REPLY_DISCONNECT : r == READ_STOPPED ? REPLY_STOPPED : REPLY_TIMEOUT;
        if (r == READ_TIMEOUT) xboard_resync(e);
        break;
    }
    if (reply->kind == REPLY_MOVE) e->xbKnown = req->moveCount + 1; /* it knows its own move */
    else e->xbThinking = false;
    free(line);
}

void xboard_game_over(Engine *e, const char *result, const char *reason) {
    proto_send(e, "result %s {%s}", result, reason);
    proto_send(e, "force");
    e->xbThinking = false;
}
