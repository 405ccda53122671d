/*
 * Protocol stress over pipes: thousands of randomised (fixed seed) go, stop,
 * ponderhit, isready, setoption Threads/Hash/MultiPV/strength, ucinewgame
 * and position commands, sent without waiting for the searches. Checks that
 * nothing deadlocks (every isready answered within a generous limit), that
 * every go gets exactly one bestmove, legal in the position it was given,
 * and that the engine exits cleanly at the end of input (under
 * ThreadSanitizer, a race makes the exit status non-zero).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "init.h"
#include "fen.h"
#include "movegen.h"
#include "notation.h"
#include "position.h"
#include "test.h"
#include "uci_session.h"

/* No isready may take this long, however loaded the machine: longer is a deadlock. */
enum { READY_TIMEOUT_MS = 20000 };
/* The whole run stays well under a minute; past this it stops sending (never fails for being slow). */
enum { BUDGET_MS = 45000 };

static uint64_t Rng = 0x5DEECE66DULL;
static unsigned rnd(unsigned n) {
    Rng ^= Rng << 13;
    Rng ^= Rng >> 7;
    Rng ^= Rng << 17;
    return (unsigned)(Rng % n);
}

/* Positions the commands switch between: after moves, tactics, one legal move, mated, stalemated. */
static const char *const Positions[] = {
    "startpos",
    "startpos moves e2e4 e7e5 g1f3 b8c6 f1b5",
    "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1 moves b4c4",
    "fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "fen 7k/8/8/8/8/8/6q1/7K w - - 0 1 moves h1g2",
    "fen k7/8/1Q6/8/8/8/8/7K b - - 0 1",
    "fen 3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1",
};
enum { POSITION_COUNT = sizeof Positions / sizeof Positions[0] };
static Position Boards[POSITION_COUNT];

/* Builds the test's own copy of each position (the engine must agree on legality). */
static bool build_boards(void) {
    for (int i = 0; i < POSITION_COUNT; i++) {
        char buf[256], err[128];
        snprintf(buf, sizeof buf, "%s", Positions[i]);
        char *moves = strstr(buf, " moves ");
        if (moves) *moves = '\0';
        if (strncmp(buf, "startpos", 8) == 0) pos_set_startpos(&Boards[i], false);
        else if (!pos_set_fen(&Boards[i], buf + 4, false, err, sizeof err)) return false;
        if (!moves) continue;
        for (char *tok = strtok(moves + 7, " "); tok; tok = strtok(NULL, " ")) {
            Move m = move_from_uci(&Boards[i], tok);
            if (m == MOVE_NONE) return false;
            pos_do_game_move(&Boards[i], m);
        }
    }
    return true;
}

typedef struct {
    Session s;
    int gos, bestmoves, readies, readyoks, illegal;
    int current;               /* index into Positions of the engine's position */
    int goPosition[1 << 14];   /* position of each go, in order (bestmoves come in the same order) */
} Stress;

/* Tallies one engine line. */
static void tally(Stress *st, const char *line) {
    if (starts_with(line, "readyok")) {
        st->readyoks++;
    } else if (starts_with(line, "bestmove ")) {
        int k = st->bestmoves++;
        char best[8] = "";
        sscanf(line, "bestmove %7s", best);
        if (k >= st->gos) return;
        const Position *p = &Boards[st->goPosition[k]];
        MoveList legal;
        gen_legal(p, &legal);
        bool ok = legal.count == 0 ? strcmp(best, "0000") == 0 : move_from_uci(p, best) != MOVE_NONE;
        if (!ok && st->illegal++ < 5)
            fprintf(stderr, "illegal bestmove '%s' in %s\n", line, Positions[st->goPosition[k]]);
    }
}

/* Reads whatever is there (or waits up to ms), tallying and forgetting lines so memory stays flat. */
static void drain(Stress *st, int ms) {
    const char *line;
    while ((line = session_read(&st->s, ms)) != NULL) {
        tally(st, line);
        ms = 0;
    }
    session_forget(&st->s);
}

/* isready, then wait for every readyok so far: a missing one within the limit is a deadlock. */
static bool sync_ready(Stress *st) {
    session_send(&st->s, "isready");
    st->readies++;
    long long deadline = session_now_ms() + READY_TIMEOUT_MS;
    while (st->readyoks < st->readies && session_now_ms() < deadline) {
        const char *line = session_read(&st->s, 100);
        if (line) tally(st, line);
        if (st->s.eof) break;
    }
    session_forget(&st->s);
    return st->readyoks == st->readies;
}

static void send_go(Stress *st) {
    if (st->gos >= (int)(sizeof st->goPosition / sizeof st->goPosition[0])) return;
    st->goPosition[st->gos++] = st->current;
    switch (rnd(9)) {
    case 0: session_send(&st->s, "go depth %u", 1 + rnd(5)); break;
    case 1: session_send(&st->s, "go nodes %u", 1 + rnd(20000)); break;
    case 2: session_send(&st->s, "go movetime %u", 1 + rnd(10)); break;
    case 3: session_send(&st->s, "go infinite"); break;
    case 4: session_send(&st->s, "go ponder wtime %u btime 300 winc 10", 50 + rnd(300)); break;
    case 5: session_send(&st->s, "go wtime %u btime %u winc 5 binc 5", rnd(400), rnd(400)); break;
    case 6: session_send(&st->s, "go mate %u", 1 + rnd(3)); break;
    case 7: session_send(&st->s, "go depth 3 searchmoves e2e4 d2d4 a1b1"); break;
    default: session_send(&st->s, "go"); break;
    }
}

/* One random command. */
static void random_command(Stress *st) {
    unsigned r = rnd(100);
    if (r < 30) {
        send_go(st);
    } else if (r < 45) {
        session_send(&st->s, "stop");
    } else if (r < 50) {
        session_send(&st->s, "ponderhit");
    } else if (r < 58) {
        session_send(&st->s, "isready");
        st->readies++;
    } else if (r < 70) {
        session_send(&st->s, "setoption name Threads value %u", 1 + rnd(2));
    } else if (r < 74) {
        session_send(&st->s, "setoption name Hash value %u", 1 + rnd(8));
    } else if (r < 76) {
        session_send(&st->s, "setoption name Clear Hash");
    } else if (r < 79) {
        session_send(&st->s, "setoption name MultiPV value %u", 1 + rnd(3));
    } else if (r < 82) {
        static const char *const Strength[] = {
            "UCI_LimitStrength value true", "UCI_LimitStrength value false", "UCI_Elo value 1350",
            "UCI_Elo value 2100", "Skill Level value 3", "Skill Level value 20",
        };
        session_send(&st->s, "setoption name %s", Strength[rnd(sizeof Strength / sizeof Strength[0])]);
    } else if (r < 86) {
        session_send(&st->s, "ucinewgame");
    } else {
        st->current = (int)rnd(POSITION_COUNT);
        session_send(&st->s, "position %s", Positions[st->current]);
    }
}

int main(void) {
    engine_init();
    if (!build_boards()) {
        CHECK(false, "a test position is invalid");
        return test_report();
    }
    static Stress st;
    bool ok = session_open(&st.s);
    CHECK(ok, "cannot start the engine (GIZUM=%s)", getenv("GIZUM") ? getenv("GIZUM") : "unset");
    if (!ok) return test_report();
    const char *quick = getenv("GIZUM_TEST_QUICK");
    const int commands = quick && *quick && strcmp(quick, "0") != 0 ? 2500 : 5000;
    long long start = session_now_ms();
    int sent = 0, deadlocks = 0;
    session_send(&st.s, "position %s", Positions[0]);
    for (; sent < commands; sent++) {
        random_command(&st);
        drain(&st, 0);
        if (sent % 50 == 49 && !sync_ready(&st)) {
            deadlocks++;
            fprintf(stderr, "no readyok within %d ms after command %d\n", READY_TIMEOUT_MS, sent);
            break;
        }
        if (session_now_ms() - start > BUDGET_MS) {
            fprintf(stderr, "note: time budget reached after %d commands\n", sent + 1);
            sent++;
            break;
        }
    }
    CHECK(deadlocks == 0, "deadlock: isready unanswered");
    /* End of input: the engine stops, prints the last bestmove and exits. */
    int status = -1;
    if (!deadlocks) {
        if (st.s.toEngine >= 0) close(st.s.toEngine);
        st.s.toEngine = -1;
        long long deadline = session_now_ms() + READY_TIMEOUT_MS;
        while (!st.s.eof && session_now_ms() < deadline) drain(&st, 100);
        CHECK(st.s.eof, "engine still running %d ms after end of input", READY_TIMEOUT_MS);
    }
    status = session_close(&st.s, READY_TIMEOUT_MS);
    CHECK(status == 0, "engine exit status %d (sanitizer report or crash?)", status);
    CHECK(st.readyoks == st.readies, "%d readyok for %d isready", st.readyoks, st.readies);
    CHECK(st.bestmoves == st.gos, "%d bestmoves for %d go commands", st.bestmoves, st.gos);
    CHECK(st.illegal == 0, "%d illegal bestmoves", st.illegal);
    printf("stress: %d commands, %d go, %d isready, %.1f s\n", sent, st.gos, st.readies,
           (double)(session_now_ms() - start) / 1000);
    return test_report();
}
