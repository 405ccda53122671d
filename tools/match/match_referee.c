/*
 * gizum-match: the referee.
 */
#include "match_referee.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"

const char *result_text(GameResult r) {
    switch (r) {
    case RESULT_WHITE_WINS: return "1-0";
    case RESULT_BLACK_WINS: return "0-1";
    case RESULT_DRAW: return "1/2-1/2";
    default: return "*";
    }
}

const char *termination_text(Termination t) {
    switch (t) {
    case TERM_NORMAL: return "normal";
    case TERM_ADJUDICATION: return "adjudication";
    case TERM_TIME_FORFEIT: return "time forfeit";
    case TERM_RULES_INFRACTION: return "rules infraction";
    case TERM_ABANDONED: return "abandoned";
    default: return "unterminated";
    }
}

const char *color_name(Color c) {
    return c == WHITE ? "White" : "Black";
}

/* Fills an outcome. */
static void set_outcome(GameOutcome *out, GameResult r, Termination t, const char *reason) {
    out->result = r;
    out->termination = t;
    snprintf(out->reason, sizeof out->reason, "%s", reason);
}

void referee_loss(GameOutcome *out, Color loser, Termination t, const char *reason) {
    set_outcome(out, loser == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS, t, reason);
}

bool referee_check(Position *pos, GameOutcome *out) {
    MoveList list;
    gen_legal(pos, &list);
    if (list.count == 0) {
        if (pos_in_check(pos)) {
            Color winner = color_flip(pos_side_to_move(pos));
            char reason[32];
            snprintf(reason, sizeof reason, "%s mates", color_name(winner));
            set_outcome(out, winner == WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS, TERM_NORMAL, reason);
        } else {
            set_outcome(out, RESULT_DRAW, TERM_NORMAL, "Draw by stalemate");
        }
        return true;
    }
    if (pos_is_threefold(pos)) {
        set_outcome(out, RESULT_DRAW, TERM_NORMAL, "Draw by 3-fold repetition");
        return true;
    }
    if (pos_rule50(pos) >= 100) {
        set_outcome(out, RESULT_DRAW, TERM_NORMAL, "Draw by fifty moves rule");
        return true;
    }
    if (pos_insufficient_material(pos)) {
        set_outcome(out, RESULT_DRAW, TERM_NORMAL, "Draw by insufficient mating material");
        return true;
    }
    return false;
}

void adjudicator_reset(Adjudicator *a) {
    memset(a, 0, sizeof *a);
}

bool adjudicator_update(Adjudicator *a, const AdjudicationConfig *cfg, const Position *pos, Color mover,
                        bool hasScore, int score, GameOutcome *out) {
    int fullMovesPlayed = pos->gamePly / 2;
    if (cfg->maxMoves > 0 && fullMovesPlayed >= cfg->maxMoves) {
        set_outcome(out, RESULT_DRAW, TERM_ADJUDICATION, "Draw by maximum moves");
        return true;
    }
    if (!hasScore) {
        adjudicator_reset(a);
        return false;
    }
    int white = mover == WHITE ? score : -score;
    a->drawPlies = abs(score) <= cfg->drawScore ? a->drawPlies + 1 : 0;
    if (cfg->drawEnabled && fullMovesPlayed >= cfg->drawMoveNumber && a->drawPlies >= 2 * cfg->drawMoveCount) {
        set_outcome(out, RESULT_DRAW, TERM_ADJUDICATION, "Draw by adjudication");
        return true;
    }
    if (cfg->resignOneSided) {
        /* Only the mover's own view of itself counts: N consecutive moves at -score or worse. */
        int *own = mover == WHITE ? &a->whiteLostPlies : &a->blackLostPlies;
        *own = score <= -cfg->resignScore ? *own + 1 : 0;
        if (cfg->resignEnabled && *own >= cfg->resignMoveCount) {
            set_outcome(out, mover == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS, TERM_ADJUDICATION,
                        mover == WHITE ? "Black wins by adjudication" : "White wins by adjudication");
            return true;
        }
        return false;
    }
    a->whiteLostPlies = white <= -cfg->resignScore ? a->whiteLostPlies + 1 : 0;
    a->blackLostPlies = white >= cfg->resignScore ? a->blackLostPlies + 1 : 0;
    if (cfg->resignEnabled && a->whiteLostPlies >= 2 * cfg->resignMoveCount) {
        set_outcome(out, RESULT_BLACK_WINS, TERM_ADJUDICATION, "Black wins by adjudication");
        return true;
    }
    if (cfg->resignEnabled && a->blackLostPlies >= 2 * cfg->resignMoveCount) {
        set_outcome(out, RESULT_WHITE_WINS, TERM_ADJUDICATION, "White wins by adjudication");
        return true;
    }
    return false;
}
