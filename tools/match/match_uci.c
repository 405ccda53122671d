/*
 * gizum-match: the UCI side of the engine interface.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "match_protocol.h"

/*
 * Remembers an "option name X type ..." declaration. The name ends at the
 * first " type " after " name " (names may hold blanks); a line without one,
 * or with an empty name ("option name type spin", which once made the
 * length negative and crashed the tool), declares nothing.
 */
static void note_option(Engine *e, const char *line) {
    const char *p = strstr(line, " name ");
    if (!p) return;
    p += 6;
    const char *t = strstr(p, " type ");
    if (!t || t == p) return;
    size_t n = (size_t)(t - p);
    size_t old = e->declared ? strlen(e->declared) : 0;
    char *grown = realloc(e->declared, old + n + 2);
    if (!grown) return;
    e->declared = grown;
    memcpy(e->declared + old, p, n);
    e->declared[old + n] = '\n';
    e->declared[old + n + 1] = '\0';
}

/*
 * Waits for readyok; on the first start, what the engine says before it
 * (an info string refusing a setoption: "Hash: value must be an integer")
 * is shown on stderr, not only in the -log.
 */
static bool is_readyok(Engine *e, const char *line, int unused) {
    (void)unused;
    if (!e->warned && strncmp(line, "info string ", 12) == 0)
        fprintf(stderr, "Warning: engine %s answers its options: %s\n", e->name, line + 12);
    return strcmp(line, "readyok") == 0;
}

/* Sends isready and waits for readyok; false (err) when the engine stalls or dies. */
static bool uci_sync(Engine *e, double timeout, char *err, size_t errlen) {
    return proto_handshake(e, "isready", is_readyok, 0, "isready", timeout, err, errlen);
}

/* Sends one option (the value of the engine's current game, for a rotating one). */
static void send_option(Engine *e, const EngineOption *o) {
    char value[1024];
    if (!e->warned && !proto_list_has(e->declared, o->name))
        fprintf(stderr, "Warning: engine %s does not declare option '%s' (sent anyway)\n", e->name, o->name);
    engine_option_value(o, e->newGames, value, sizeof value);
    if (value[0]) proto_send(e, "setoption name %s value %s", o->name, value);
    else proto_send(e, "setoption name %s", o->name);
}

/* Sends the options set once at start-up (rotating false) or before every game (rotating true). */
static void send_options(Engine *e, bool rotating) {
    for (int i = 0; i < e->cfg->optionCount; i++)
        if (e->cfg->options[i].rotate == rotating) send_option(e, &e->cfg->options[i]);
    if (rotating)
        for (int i = 0; i < e->gameOptionCount; i++) send_option(e, &e->gameOptions[i]);
}

bool uci_start(Engine *e, char *err, size_t errlen) {
    if (!proto_send(e, "uci")) {
        snprintf(err, errlen, "cannot write to engine");
        return false;
    }
    char *line = malloc(PROC_LINE_MAX);
    if (!line) return false;
    double start = clock_now();
    bool ok = false;
    for (;;) {
        ReadResult r = proto_read(e, line, start + e->initTimeout);
        if (r != READ_LINE) {
            char why[160];
            proto_describe_failure(e, r, e->initTimeout, why, sizeof why);
            snprintf(err, errlen, "no uciok: %s", why);
            break;
        }
        if (strcmp(line, "uciok") == 0) {
            ok = true;
            break;
        }
        if (strncmp(line, "id name ", 8) == 0) snprintf(e->idName, sizeof e->idName, "%s", line + 8);
        else if (strncmp(line, "option ", 7) == 0) note_option(e, line);
    }
    free(line);
    if (!ok) return false;
    if (e->cfg->ponder) {
        if (!e->warned && !proto_list_has(e->declared, "Ponder"))
            fprintf(stderr, "Warning: engine %s does not declare option 'Ponder' (sent anyway)\n", e->name);
        proto_send(e, "setoption name Ponder value true");
    }
    if (e->cfg->timePlan) proto_send(e, "debug on");
    send_options(e, false);
    return uci_sync(e, e->initTimeout, err, errlen);
}

bool uci_new_game(Engine *e, const GameStart *start, char *err, size_t errlen) {
    (void)start;
    send_options(e, true);
    if (!proto_send(e, "ucinewgame")) {
        snprintf(err, errlen, "cannot write to engine (it has exited)");
        return false;
    }
    return uci_sync(e, e->initTimeout, err, errlen);
}

/* The number after an info keyword, or -1. */
static long long info_number(const char **p) {
    char tok[64];
    const char *next = proto_token(*p, tok, sizeof tok);
    *p = next ? next : "";
    if (!next) return -1;
    char *end;
    long long v = strtoll(tok, &end, 10);
    return *end || end == tok || v < 0 ? -1 : v;
}

/* Copies the pv of an info line (the rest of the line), bounded, cut at a whole move. */
static void copy_pv(const char *p, char *out, size_t size) {
    while (*p == ' ' || *p == '\t') p++;
    size_t n = strlen(p);
    if (n >= size) {
        n = size - 1;
        while (n > 0 && p[n] != ' ') n--;
    }
    memcpy(out, p, n);
    out[n] = '\0';
}

/*
 * -overrun: reads the time plan from a debug line "info string time: optimum O ms,
 * maximum M ms, ...[, used U ms, waited W ms, gap G ms]" (Gizum's; the words count, not the punctuation).
 */
static void parse_time_plan(const char *p, EngineReply *reply) {
    char tok[64];
    if (!(p = proto_token(p, tok, sizeof tok)) || strncmp(tok, "time", 4) != 0) return;
    while ((p = proto_token(p, tok, sizeof tok)) != NULL) {
        long long *field = strcmp(tok, "maximum") == 0  ? &reply->planMaxMs
                           : strcmp(tok, "used") == 0   ? &reply->planUsedMs
                           : strcmp(tok, "waited") == 0 ? &reply->planWaitedMs
                           : strcmp(tok, "gap") == 0    ? &reply->planGapMs : NULL;
        if (field) *field = info_number(&p);
    }
}

/* True when an info line belongs to a MultiPV line other than the first ("multipv N", N > 1). */
static bool secondary_pv_line(const char *p) {
    char tok[64];
    while ((p = proto_token(p, tok, sizeof tok)) != NULL) {
        if (strcmp(tok, "string") == 0 || strcmp(tok, "pv") == 0) return false;
        if (strcmp(tok, "multipv") == 0) return info_number(&p) > 1;
    }
    return false;
}

/*
 * Reads depth / score / nodes (and seldepth, nps, hashfull, tbhits, time, pv) from an info line.
 * With MultiPV only the first line is the engine's opinion: the others are ignored, as
 * cutechess-cli does, so adjudication and the PGN's scores follow the best line.
 */
static void parse_info(const Engine *e, const char *line, EngineReply *reply) {
    char tok[64];
    const char *p = line + 4;
    if (secondary_pv_line(p)) return;
    bool sawScore = false, bound = false, mate = false;
    int score = 0, depth = -1;
    long long nodes = -1, num;
    while ((p = proto_token(p, tok, sizeof tok)) != NULL) {
        if (strcmp(tok, "string") == 0) {
            if (e->cfg->timePlan) parse_time_plan(p, reply);
            return;
        }
        if (strcmp(tok, "pv") == 0) {
            copy_pv(p, reply->pv, sizeof reply->pv);
            break;
        }
        if (strcmp(tok, "seldepth") == 0) {
            if ((num = info_number(&p)) >= 0) reply->seldepth = (int)num;
        } else if (strcmp(tok, "nps") == 0) {
            if ((num = info_number(&p)) >= 0) reply->nps = num;
        } else if (strcmp(tok, "hashfull") == 0) {
            if ((num = info_number(&p)) >= 0) reply->hashfull = (int)num;
        } else if (strcmp(tok, "tbhits") == 0) {
            if ((num = info_number(&p)) >= 0) reply->tbhits = num;
        } else if (strcmp(tok, "time") == 0) {
            if ((num = info_number(&p)) >= 0) reply->timeMs = num;
        } else if (strcmp(tok, "depth") == 0) {
            if ((p = proto_token(p, tok, sizeof tok)) == NULL) break;
            depth = atoi(tok);
        } else if (strcmp(tok, "nodes") == 0) {
            if ((p = proto_token(p, tok, sizeof tok)) == NULL) break;
            nodes = atoll(tok);
        } else if (strcmp(tok, "score") == 0) {
            if ((p = proto_token(p, tok, sizeof tok)) == NULL) break;
            mate = strcmp(tok, "mate") == 0;
            if (!mate && strcmp(tok, "cp") != 0) continue;
            if ((p = proto_token(p, tok, sizeof tok)) == NULL) break;
            char *end;
            long v = strtol(tok, &end, 10);
            if (*end || end == tok) continue;
            score = (int)v;
            sawScore = true;
        } else if (strcmp(tok, "lowerbound") == 0 || strcmp(tok, "upperbound") == 0) {
            bound = true;
        }
    }
    if (depth >= 0) reply->depth = depth;
    if (nodes >= 0) reply->nodes = nodes;
    /* A bound is not the engine's opinion yet; keep the last exact score unless we have none. */
    if (sawScore && (!bound || !reply->hasScore)) {
        reply->hasScore = true;
        reply->isMate = mate;
        reply->score = score;
    }
}

/* Builds "position ... moves ..." into a heap string, with extra (a ponder move) appended unless NULL. */
static char *position_command(const GoRequest *req, const char *extra) {
    size_t cap = 64 + strlen(req->start->fen) + (size_t)req->moveCount * 6 + (extra ? strlen(extra) + 8 : 0);
    char *cmd = malloc(cap);
    if (!cmd) return NULL;
    size_t n = req->start->standard ? (size_t)snprintf(cmd, cap, "position startpos")
                                    : (size_t)snprintf(cmd, cap, "position fen %s", req->start->fen);
    if (req->moveCount > 0 || extra) n += (size_t)snprintf(cmd + n, cap - n, " moves");
    for (int i = 0; i < req->moveCount; i++) n += (size_t)snprintf(cmd + n, cap - n, " %s", req->moves[i].uci);
    if (extra) snprintf(cmd + n, cap - n, " %s", extra);
    return cmd;
}

/* Builds the go command ("go ponder" when ponder) for this engine's limits. */
static void go_command(const Engine *e, const GoRequest *req, bool ponder, char *out, size_t len) {
    const TimeControl *tc = &e->cfg->tc;
    size_t n = (size_t)snprintf(out, len, ponder ? "go ponder" : "go");
    if (tc->moveTime > 0) {
        n += (size_t)snprintf(out + n, len - n, " movetime %lld", (long long)(tc->moveTime * 1000 + 0.5));
    } else if (tc->hasClock) {
        double wt = req->whiteToMove ? req->ownTime : req->oppTime;
        double bt = req->whiteToMove ? req->oppTime : req->ownTime;
        double wi = req->whiteToMove ? req->ownInc : req->oppInc;
        double bi = req->whiteToMove ? req->oppInc : req->ownInc;
        long long wms = (long long)(wt * 1000), bms = (long long)(bt * 1000);
        n += (size_t)snprintf(out + n, len - n, " wtime %lld btime %lld winc %lld binc %lld",
                              wms > 0 ? wms : 1, bms > 0 ? bms : 1, (long long)(wi * 1000 + 0.5),
                              (long long)(bi * 1000 + 0.5));
        if (req->movesToGo > 0) n += (size_t)snprintf(out + n, len - n, " movestogo %d", req->movesToGo);
    }
    if (tc->nodes > 0) n += (size_t)snprintf(out + n, len - n, " nodes %lld", tc->nodes);
    if (tc->depth > 0) snprintf(out + n, len - n, " depth %d", tc->depth);
}

/* After a forfeit: stop the search and wait for its bestmove, or drop the engine. */
static void uci_resync(Engine *e, char *line) {
    if (!proto_send(e, "stop")) {
        engine_stop(e, 0.1);
        return;
    }
    double deadline = clock_now() + PROTO_RESYNC_TIMEOUT;
    for (;;) {
        ReadResult r = proto_read(e, line, deadline);
        if (r != READ_LINE) {
            engine_stop(e, 0.1);
            return;
        }
        if (strncmp(line, "bestmove", 8) == 0) return;
    }
}

/* Sends the position and go; false when the engine cannot be written to. */
static bool send_search(Engine *e, const GoRequest *req, const char *ponderMove) {
    char go[256];
    char *pos = position_command(req, ponderMove);
    go_command(e, req, ponderMove != NULL, go, sizeof go);
    bool ok = pos && proto_send(e, "%s", pos) && proto_send(e, "%s", go);
    free(pos);
    return ok;
}

void uci_ponder(Engine *e, const GoRequest *req, const char *ponderMove) {
    snprintf(e->ponderMove, sizeof e->ponderMove, "%s", ponderMove);
    e->ponderBase = req->moveCount;
    e->pondering = send_search(e, req, ponderMove);
}

bool uci_end_ponder(Engine *e) {
    char *line = malloc(PROC_LINE_MAX);
    e->pondering = false;
    if (line) uci_resync(e, line);
    else engine_stop(e, 0.1);
    free(line);
    return e->running;
}

/* True when the opponent played the move the running ponder search expected. */
static bool ponder_hit(const Engine *e, const GoRequest *req) {
    return req->moveCount == e->ponderBase + 1 && strcmp(req->moves[req->moveCount - 1].uci, e->ponderMove) == 0;
}

/* Starts the search for this move: ponderhit on a correct guess, else (after ending a missed ponder search) position + go. */
static bool begin_search(Engine *e, const GoRequest *req, EngineReply *reply) {
    bool hit = e->pondering && ponder_hit(e, req);
    if (e->pondering && !hit && !uci_end_ponder(e)) {
        reply->kind = REPLY_PROTOCOL;
        snprintf(reply->detail, sizeof reply->detail, "no bestmove within %.1f s of stop (ponder search)",
                 PROTO_RESYNC_TIMEOUT);
        return false;
    }
    e->pondering = false;
    if (hit ? proto_send(e, "ponderhit") : send_search(e, req, NULL)) return true;
    reply->kind = REPLY_DISCONNECT;
    snprintf(reply->detail, sizeof reply->detail, "cannot write to engine (it has exited)");
    return false;
}

/* Reads "bestmove X [ponder Y]" into reply. */
static void parse_bestmove(const Engine *e, const char *line, EngineReply *reply) {
    reply->kind = REPLY_MOVE;
    const char *rest = proto_token(line + 8, reply->move, sizeof reply->move);
    if (!rest) reply->move[0] = '\0';
    char tok[16];
    if (rest && e->cfg->ponder && (rest = proto_token(rest, tok, sizeof tok)) && strcmp(tok, "ponder") == 0)
        proto_token(rest, reply->ponder, sizeof reply->ponder);
}

void uci_go(Engine *e, const GoRequest *req, EngineReply *reply) {
    char *line = malloc(PROC_LINE_MAX);
    if (!line) {
        reply->kind = REPLY_PROTOCOL;
        snprintf(reply->detail, sizeof reply->detail, "out of memory");
        return;
    }
    if (!begin_search(e, req, reply)) {
        free(line);
        return;
    }
    double start = clock_now();
    for (;;) {
        ReadResult r = proto_read(e, line, start + req->allowance);
        reply->elapsed = clock_now() - start;
        if (r == READ_LINE) {
            if (strncmp(line, "info", 4) == 0 && (line[4] == ' ' || line[4] == '\0')) {
                parse_info(e, line, reply);
            } else if (strncmp(line, "bestmove", 8) == 0 && (line[8] == ' ' || line[8] == '\0')) {
                parse_bestmove(e, line, reply);
                break;
            }
            continue;
        }
        proto_describe_failure(e, r, req->allowance, reply->detail, sizeof reply->detail);
        reply->kind = r == READ_EOF ? REPLY_DISCONNECT : r == READ_STOPPED ? REPLY_STOPPED : REPLY_TIMEOUT;
        if (r == READ_TIMEOUT) uci_resync(e, line);
        break;
    }
    free(line);
}
