/*
 * gizum-match: one game between two engines, refereed by the tool.
 */
#include "match_game.h"

#include <math.h>
#include "fen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "notation.h"

void game_record_init(GameRecord *rec) {
    memset(rec, 0, sizeof *rec);
    rec->failedSide = -1;
}

/* Notes that side's engine failed (not a move lost on the board), for the tournament to judge. */
static void note_failure(GameRecord *rec, Color side, const char *what) {
    rec->failedSide = (int)side;
    snprintf(rec->failure, sizeof rec->failure, "%s", what);
}

void game_record_free(GameRecord *rec) {
    free(rec->plies);
    free(rec->texts);
    memset(rec, 0, sizeof *rec);
}

/* Appends a legal move (SAN from pos before the move), then plays it on pos. */
static bool record_move(GameRecord *rec, Position *pos, Move m, const PlyRecord *info) {
    if (rec->count == rec->cap) {
        int cap = rec->cap ? rec->cap * 2 : 128;
        PlyRecord *p = realloc(rec->plies, (size_t)cap * sizeof *p);
        if (p) rec->plies = p;
        MoveText *t = realloc(rec->texts, (size_t)cap * sizeof *t);
        if (t) rec->texts = t;
        if (!p || !t) return false;
        rec->cap = cap;
    }
    rec->plies[rec->count] = *info;
    rec->plies[rec->count].move = m;
    MoveText *text = &rec->texts[rec->count];
    move_to_uci(m, rec->chess960, text->uci);
    move_to_san(pos, m, text->san);
    rec->count++;
    pos_do_game_move(pos, m);
    return true;
}

/* Reports a warning through the settings' log callback. */
static void game_log(const GameSettings *s, const char *fmt, const char *a, const char *b, const char *c) {
    if (!s->log) return;
    char msg[1024];
    snprintf(msg, sizeof msg, fmt, a, b, c);
    s->log(s->logCtx, msg);
}

/* Starts (or restarts) an engine and prepares it for the game; false with a loss reason when it cannot. */
static bool prepare_engine(const GameSettings *s, Engine *e, const GameStart *start, char *why, size_t len) {
    char err[256] = "";
    if (e->running && !engine_alive(e)) {
        char how[96];
        proc_describe_exit(&e->proc, how, sizeof how);
        game_log(s, "Warning: engine %s has exited (%s) between games%s", e->name, how, "");
        engine_stop(e, 0.1);
        e->failed = true;
    }
    if (!e->running) {
        if (e->failed) game_log(s, "Warning: restarting engine %s after its failure%s%s", e->name, "", "");
        if (!engine_start(e, err, sizeof err)) {
            snprintf(why, len, "%s", err);
            game_log(s, "Warning: engine %s failed to start: %s%s", e->name, err, "");
            return false;
        }
    }
    if (!engine_new_game(e, start, err, sizeof err)) {
        snprintf(why, len, "%s", err);
        game_log(s, "Warning: engine %s %s; it will be restarted%s", e->name, err, "");
        return false;
    }
    return true;
}

/* Turns a non-move reply into the mover's loss; returns false when the tool is stopping. */
static bool judge_failure(const GameSettings *s, Engine *e, const EngineReply *r, Color side,
                          const TimeControl *tc, GameRecord *rec) {
    GameOutcome *out = &rec->outcome;
    char reason[256];
    const char *who = color_name(side);
    switch (r->kind) {
    case REPLY_STOPPED:
        return false;
    case REPLY_TIMEOUT: {
        bool timed = tc->hasClock || tc->moveTime > 0;
        if (timed) {
            snprintf(reason, sizeof reason, "%s loses on time", who);
            referee_loss(out, side, TERM_TIME_FORFEIT, reason);
        } else {
            snprintf(reason, sizeof reason, "%s's connection stalls", who);
            referee_loss(out, side, TERM_ABANDONED, reason);
        }
        /* Not a move lost on the board: from an engine that never moved, a sign that it never will. */
        char what[sizeof rec->failure];
        snprintf(what, sizeof what, "%s without moving (%.200s)", timed ? "lost on time" : "stalled", r->detail);
        note_failure(rec, side, what);
        break;
    }
    case REPLY_DISCONNECT:
        snprintf(reason, sizeof reason, "%s disconnects", who);
        referee_loss(out, side, TERM_ABANDONED, reason);
        note_failure(rec, side, r->detail[0] ? r->detail : "disconnected");
        game_log(s, "Warning: engine %s crashed or disconnected (%s); it will be restarted%s", e->name,
                 r->detail, "");
        break;
    case REPLY_RESIGN:
        snprintf(reason, sizeof reason, "%s resigns", who);
        referee_loss(out, side, TERM_NORMAL, reason);
        break;
    case REPLY_CLAIM: {
        bool ownLoss = (side == WHITE && strncmp(r->detail, "0-1", 3) == 0) ||
                       (side == BLACK && strncmp(r->detail, "1-0", 3) == 0);
        if (ownLoss) {
            snprintf(reason, sizeof reason, "%s resigns", who);
            referee_loss(out, side, TERM_NORMAL, reason);
        } else {
            snprintf(reason, sizeof reason, "%s makes a false claim: %.200s", who, r->detail);
            referee_loss(out, side, TERM_RULES_INFRACTION, reason);
        }
        break;
    }
    default:
        snprintf(reason, sizeof reason, "%s's engine fails: %.200s", who, r->detail);
        referee_loss(out, side, TERM_ABANDONED, reason);
        note_failure(rec, side, r->detail);
        game_log(s, "Warning: engine %s: %s%s", e->name, r->detail, "");
        break;
    }
    return true;
}

/* Parses an engine's move text: UCI for UCI engines; xboard engines may also use SAN. */
static Move parse_move(const Engine *e, const Position *pos, const char *text) {
    if (!text[0]) return MOVE_NONE;
    Move m = move_from_uci(pos, text);
    if (m == MOVE_NONE && e->cfg->proto == PROTO_XBOARD) m = move_from_san(pos, text);
    return m;
}

/* Sets up the start position and the opening moves; false if they are not legal. */
static bool setup_position(const GameSettings *s, Position *pos, GameRecord *rec, char *err, size_t len) {
    rec->chess960 = s->chess960;
    if (s->fen) {
        if (!pos_set_fen(pos, s->fen, s->chess960, err, len)) return false;
    } else {
        pos_set_startpos(pos, s->chess960);
    }
    pos_get_fen(pos, rec->startFen);
    rec->standard = !s->chess960 && strcmp(rec->startFen, StartFEN) == 0;
    PlyRecord book = { .book = true };
    for (int i = 0; i < s->openingCount; i++) {
        if (!pos_is_legal(pos, s->opening[i])) {
            snprintf(err, len, "opening move %d is illegal", i + 1);
            return false;
        }
        if (!record_move(rec, pos, s->opening[i], &book)) return false;
    }
    return true;
}

/* Lets the engine that just moved (side) think on the opponent's time about its expected reply. */
static void start_pondering(const GameSettings *s, Engine *engines[2], const Position *pos, const GameRecord *rec,
                            const Clock clocks[2], Color side, const char *ponderMove) {
    Engine *e = engines[side];
    if (!e->cfg->ponder || !ponderMove[0]) return;
    if (move_from_uci(pos, ponderMove) == MOVE_NONE) {
        game_log(s, "Warning: engine %s gave an illegal ponder move \"%s\" (not pondering)%s", e->name, ponderMove, "");
        return;
    }
    const TimeControl *tc = &e->cfg->tc;
    GameStart start = { rec->startFen, rec->standard, rec->chess960 };
    GoRequest req = {
        .start = &start, .moves = rec->texts, .moveCount = rec->count, .whiteToMove = side == WHITE,
        .ownTime = clocks[side].remaining, .oppTime = clocks[!side].remaining,
        .ownInc = tc->inc, .oppInc = engines[!side]->cfg->tc.inc, .movesToGo = clock_moves_to_go(&clocks[side], tc),
    };
    engine_ponder(e, &req, ponderMove);
}

/* Asks the side to move for its move and applies it; true when the game goes on. */
static bool play_one_move(const GameSettings *s, Position *pos, GameRecord *rec, Engine *engines[2],
                          Clock clocks[2], Adjudicator *adj, bool *interrupted) {
    Color side = pos_side_to_move(pos);
    Engine *e = engines[side];
    const TimeControl *tc = &e->cfg->tc, *otc = &engines[!side]->cfg->tc;
    /* An engine's own timemargin= (cutechess, fastchess) overrides -timemargin. */
    double margin = e->cfg->timeMargin >= 0 ? e->cfg->timeMargin : s->timeMargin;
    GameStart start = { rec->startFen, rec->standard, rec->chess960 };
    GoRequest req = {
        .start = &start, .moves = rec->texts, .moveCount = rec->count, .whiteToMove = side == WHITE,
        .ownTime = clocks[side].remaining, .oppTime = clocks[!side].remaining,
        .ownInc = tc->inc, .oppInc = otc->inc, .movesToGo = clock_moves_to_go(&clocks[side], tc),
        .allowance = clock_allowance(&clocks[side], tc, margin, s->hangLimit),
    };
    EngineReply r;
    engine_go(e, &req, &r);
    GameOutcome *out = &rec->outcome;
    if (r.kind != REPLY_MOVE) {
        *interrupted = !judge_failure(s, e, &r, side, tc, rec);
        return false;
    }
    char reason[256], fen[128];
    if (!clock_charge(&clocks[side], tc, r.elapsed, margin)) {
        snprintf(reason, sizeof reason, "%s loses on time", color_name(side));
        referee_loss(out, side, TERM_TIME_FORFEIT, reason);
        return false;
    }
    Move m = parse_move(e, pos, r.move);
    if (m == MOVE_NONE) {
        pos_get_fen(pos, fen);
        snprintf(reason, sizeof reason, "%s makes an illegal move: %.60s", color_name(side), r.move);
        referee_loss(out, side, TERM_RULES_INFRACTION, reason);
        game_log(s, "Warning: illegal move \"%s\" from %s in position %s", r.move, e->name, fen);
        return false;
    }
    PlyRecord info = { .hasScore = r.hasScore, .isMate = r.isMate, .score = r.score, .depth = r.depth,
                       .seconds = r.elapsed, .nodes = r.nodes > 0 ? r.nodes : -1, .nps = r.nps, .tbhits = r.tbhits,
                       .seldepth = r.seldepth, .hashfull = r.hashfull,
                       .timeLeft = tc->hasClock ? clocks[side].remaining : -1,
                       .latency = r.timeMs >= 0 ? r.elapsed - (double)r.timeMs / 1000.0 : NAN,
                       .planMax = r.planMaxMs >= 0 ? (double)r.planMaxMs / 1000.0 : NAN,
                       .planUsed = r.planUsedMs >= 0 ? (double)r.planUsedMs / 1000.0 : NAN,
                       .planWaited = r.planWaitedMs >= 0 ? (double)r.planWaitedMs / 1000.0 : NAN,
                       .planGap = r.planGapMs >= 0 ? (double)r.planGapMs / 1000.0 : NAN };
    snprintf(info.pv, sizeof info.pv, "%s", r.pv);
    if (!record_move(rec, pos, m, &info)) {
        referee_loss(out, side, TERM_ABANDONED, "out of memory");
        return false;
    }
    if (referee_check(pos, out)) return false;
    if (adjudicator_update(adj, s->adjudication, pos, side, r.hasScore, engine_reply_cp(&r), out)) return false;
    start_pondering(s, engines, pos, rec, clocks, side, r.ponder);
    return true;
}

bool game_play(const GameSettings *s, Engine *white, Engine *black, GameRecord *rec) {
    Position *pos = malloc(sizeof *pos);
    if (!pos) return false;
    rec->started = time(NULL);
    rec->outcome.result = RESULT_NONE;
    char err[256];
    if (!setup_position(s, pos, rec, err, sizeof err)) {
        game_log(s, "Warning: bad opening: %s%s%s", err, "", "");
        free(pos);
        return false;
    }
    Engine *engines[2] = { white, black };
    GameStart start = { rec->startFen, rec->standard, rec->chess960 };
    bool interrupted = false;
    char why[256], reason[400];
    for (int c = WHITE; c <= BLACK; c++) {
        if (!prepare_engine(s, engines[c], &start, why, sizeof why)) {
            if (engines[c]->stop && atomic_load(engines[c]->stop)) interrupted = true;
            snprintf(reason, sizeof reason, "%s's engine fails: %s", color_name((Color)c), why);
            referee_loss(&rec->outcome, (Color)c, TERM_ABANDONED, reason);
            note_failure(rec, (Color)c, why);
            break;
        }
    }
    if (rec->outcome.result == RESULT_NONE && !referee_check(pos, &rec->outcome)) {
        Clock clocks[2];
        clock_reset(&clocks[WHITE], &white->cfg->tc);
        clock_reset(&clocks[BLACK], &black->cfg->tc);
        Adjudicator adj;
        adjudicator_reset(&adj);
        while (play_one_move(s, pos, rec, engines, clocks, &adj, &interrupted)) {}
    }
    if (!interrupted)
        for (int c = WHITE; c <= BLACK; c++) engine_game_over(engines[c], result_text(rec->outcome.result),
                                                              rec->outcome.reason);
    free(pos);
    return !interrupted;
}
