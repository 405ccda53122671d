/*
 * gizum-match: engine objects, the protocol-independent part.
 */
#include "match_engine.h"

#include <stdlib.h>
#include <string.h>

/* Mate scores for adjudication: beyond any centipawn score an engine reports. */
static const int MATE_CP = 100000;

void engine_prepare(Engine *e, const EngineConfig *cfg, const char *name, EngineLog *log,
                    const atomic_bool *stop, double initTimeout) {
    memset(e, 0, sizeof *e);
    e->cfg = cfg;
    e->name = name;
    e->log = log;
    e->stop = stop;
    e->initTimeout = initTimeout;
    e->proc.toChild = e->proc.fromChild = -1;
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
    reply->nps = reply->tbhits = reply->timeMs = reply->planMaxMs = reply->planUsedMs = reply->planWaitedMs = reply->planGapMs = -1;
    if (e->cfg->proto == PROTO_UCI) uci_go(e, req, reply);
    else xboard_go(e, req, reply);
    if (reply->kind == REPLY_MOVE && e->moved) atomic_store(e->moved, true);
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

void engine_game_over(Engine *e, const char *result, const char *reason) {
    if (!e->running) return;
    if (e->pondering) uci_end_ponder(e);
    if (e->cfg->proto == PROTO_XBOARD) {
        xboard_game_over(e, result, reason);
        if (!e->xb.reuse) engine_stop(e, 1.0);
    }
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
