/*
 * Checks shared by the tests that drive the real engine over UCI
 * (uci_session.h): starting it, syncing with isready, and replaying a game
 * locally to judge the legality of its bestmove.
 */
#ifndef GIZUM_TEST_UCI_TEST_H
#define GIZUM_TEST_UCI_TEST_H

#include <string.h>

#include "movegen.h"
#include "fen.h"
#include "notation.h"
#include "position.h"
#include "test.h"
#include "uci_session.h"

/* Generous limits (ms): the suite may share a loaded 2-core machine. */
enum { FAST = 3000, SLOW = 30000 };

/* Starts the engine (path in env GIZUM), as a check: one over every session a test opens. */
static inline bool open_session(Session *s, const char *what) {
    bool ok = session_open(s);
    CHECK_EACH(ok, "%s: cannot start the engine (GIZUM=%s)", what, getenv("GIZUM") ? getenv("GIZUM") : "unset");
    return ok;
}

/* isready answered: the engine is alive and has processed everything before (one check over every sync). */
static inline bool sync_engine(Session *s, const char *what) {
    session_send(s, "isready");
    bool ok = session_expect(s, "readyok", SLOW) != NULL;
    CHECK_EACH(ok, "%s: no readyok", what);
    return ok;
}

/* Sets pos to a FEN (NULL: the start position) followed by space-separated UCI moves (any number); false if anything is invalid. */
static inline bool set_game(Position *pos, const char *fen, const char *moves, bool chess960) {
    char err[256], tok[8];
    if (!fen) pos_set_startpos(pos, chess960);
    else if (!pos_set_fen(pos, fen, chess960, err, sizeof err)) return false;
    for (const char *p = moves; p && *p;) {
        p += strspn(p, " ");
        size_t n = strcspn(p, " ");
        if (n == 0) break;
        if (n >= sizeof tok) return false;
        memcpy(tok, p, n);
        tok[n] = '\0';
        p += n;
        Move m = move_from_uci(pos, tok);
        if (m == MOVE_NONE) return false;
        pos_do_game_move(pos, m);
    }
    return true;
}

/* Is the move of a "bestmove" line legal in pos (0000 only when there is none)? */
static inline bool bestmove_legal(const Position *pos, const char *line) {
    char best[16] = "";
    if (!line || sscanf(line, "bestmove %15s", best) != 1) return false;
    MoveList legal;
    gen_legal(pos, &legal);
    if (legal.count == 0) return strcmp(best, "0000") == 0;
    return move_from_uci(pos, best) != MOVE_NONE;
}

#endif
