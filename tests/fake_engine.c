/*
 * A tiny configurable engine for testing gizum-match: a legal random mover
 * that misbehaves on purpose. Usage:
 *
 *   fake_engine MODE [after=N] [score=CP] [delay=MS] [seed=S]
 *
 * MODE: random (behaves), illegal (plays an illegal move), garbage (writes
 * binary junk and a malformed bestmove), timeout (never answers go),
 * crash (dies with SIGSEGV on go), flood (megabytes of output, then a legal
 * move), nouciok (never says uciok), noreadyok (never says readyok after the
 * handshake), xboard (a well-behaved CECP v2 engine), ponder (plays the first
 * legal move with "ponder <first legal reply>" and checks the tool's ponder
 * protocol: go ponder, then exactly one of ponderhit or stop before anything
 * else; a violation is answered with the illegal move a1a1), babble (a legal
 * mover that surrounds everything it says with malformed id, option and info
 * lines, binary junk, NUL bytes and a 20 kB line), exit (exits with status 0
 * instead of answering go), hang (never answers go, ignores stop, quit and
 * SIGTERM), endless (answers go with info lines forever, never a bestmove),
 * multipv (a legal mover that reports two lines a move, "multipv 1 score cp
 * 0" and after it "multipv 2 score cp -5000": the tool must judge by line 1).
 * after=N: play N legal
 * moves per game before misbehaving; score=CP: the score reported with
 * every move (engine's point of view); delay=MS: think this long per move.
 * The UCI option After sets after= too, so a tune can learn it: in illegal
 * mode the side with the smaller After plays the illegal move first and loses.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "position.h"
#include "fen.h"
#include "movegen.h"
#include "notation.h"
#include "position.h"

/* Bytes written by flood mode before it moves. */
enum { FLOOD_BYTES = 8 << 20, FLOOD_LONG_LINE = 300000 };

typedef struct {
    const char *mode;
    int after;          /* legal moves per game before misbehaving */
    int score;
    int delayMs;
    unsigned long long rng;
    int movesThisGame;
    bool ponderOption;  /* the tool set "Ponder value true" */
    bool pondering;     /* a go ponder search runs */
    bool violated;      /* the tool broke the ponder protocol */
    Position pos;
} Fake;

static unsigned long long next_random(Fake *f) {
    f->rng ^= f->rng << 13;
    f->rng ^= f->rng >> 7;
    f->rng ^= f->rng << 17;
    return f->rng;
}

/* Sleeps delayMs milliseconds. */
static void think(const Fake *f) {
    if (f->delayMs <= 0) return;
    struct timespec ts = { f->delayMs / 1000, (long)(f->delayMs % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* A random legal move in UCI notation ("0000" when there is none). */
static void random_move(Fake *f, char *out) {
    MoveList list;
    gen_legal(&f->pos, &list);
    if (list.count == 0) {
        strcpy(out, "0000");
        return;
    }
    move_to_uci(list.moves[next_random(f) % (unsigned)list.count], false, out);
}

/* The first legal move in generator order, in UCI notation ("0000" when there is none). */
static void first_move(const Position *pos, char *out) {
    MoveList list;
    gen_legal(pos, &list);
    if (list.count == 0) strcpy(out, "0000");
    else move_to_uci(list.moves[0], false, out);
}

/* Ponder mode's answer: the first legal move and the first legal reply to it (a1a1 after a violation). */
static void ponder_mode_reply(Fake *f) {
    char move[8], reply[8] = "";
    first_move(&f->pos, move);
    Move m = move_from_uci(&f->pos, move);
    if (m != MOVE_NONE) {
        static Position after;
        pos_copy(&after, &f->pos);
        pos_do_game_move(&after, m);
        first_move(&after, reply);
    }
    if (f->violated) strcpy(move, "a1a1");
    printf("info depth 1 score cp %d nodes 1\nbestmove %s%s%s\n", f->score, move,
           reply[0] && strcmp(reply, "0000") != 0 ? " ponder " : "", strcmp(reply, "0000") != 0 ? reply : "");
}

/* Ponder mode: handles one command; false when the command is not about pondering. */
static bool ponder_mode_command(Fake *f, const char *line) {
    if (strcmp(line, "setoption name Ponder value true") == 0) {
        f->ponderOption = true;
        return true;
    }
    if (strncmp(line, "go ponder", 9) == 0) {
        if (f->pondering || !f->ponderOption) f->violated = true;
        f->pondering = true;
        return true;
    }
    if (strcmp(line, "ponderhit") == 0 || strcmp(line, "stop") == 0) {
        if (!f->pondering) f->violated = strcmp(line, "ponderhit") == 0 || f->violated;
        else ponder_mode_reply(f);
        f->pondering = false;
        return true;
    }
    /* Anything else while pondering means the tool forgot to end the ponder search. */
    if (f->pondering && strcmp(line, "isready") != 0 && strcmp(line, "quit") != 0) f->violated = true;
    if (strncmp(line, "go", 2) == 0) {
        ponder_mode_reply(f);
        return true;
    }
    return false;
}

/* Handles "position startpos|fen F [moves ...]". */
static void set_position(Fake *f, char *args) {
    char *moves = strstr(args, " moves");
    if (moves) *moves = '\0';
    if (strncmp(args, "startpos", 8) == 0) pos_set_startpos(&f->pos, false);
    else if (strncmp(args, "fen ", 4) == 0) pos_set_fen(&f->pos, args + 4, false, NULL, 0);
    if (!moves) return;
    for (char *tok = strtok(moves + 6, " \n"); tok; tok = strtok(NULL, " \n")) {
        Move m = move_from_uci(&f->pos, tok);
        if (m == MOVE_NONE) return;
        pos_do_game_move(&f->pos, m);
    }
}

/* Babble mode: lines a careless or hostile engine might write, none of which may upset the tool. */
static void babble(Fake *f, const char *when) {
    static const char *const Lines[] = {
        "option name type spin", "option name", "option type check name Odd", "option name  type  button",
        "option name Hash", "id name", "id", "readyokx", "uciok x", "info", "info string", "info depth",
        "info depth x score cp y nodes z seldepth -1 nps x hashfull tbhits time", "info score mate", "info score cp",
        "info depth 99999999999999999999 nodes 99999999999999999999999 score cp 99999999999 time -5",
        "info score lowerbound cp 5 upperbound", "bestmovee2e4", "infox", "\r", "",
    };
    printf("info string babble %s\n", when);
    for (size_t i = 0; i < sizeof Lines / sizeof Lines[0]; i++) printf("%s\n", Lines[i]);
    for (int i = 0; i < 200; i++) putchar((int)(next_random(f) % 255) + 1); /* binary junk, a few lines of it */
    printf("\n");
    static const char Nul[] = "info string a NUL \0 inside\n";
    fwrite(Nul, 1, sizeof Nul - 1, stdout);
    printf("info pv");
    for (int i = 0; i < 4000; i++) printf(" e2e4");
    printf("\n");
}

/* Answers a UCI go according to the mode. */
static void uci_go(Fake *f) {
    bool misbehave = f->movesThisGame >= f->after;
    f->movesThisGame++;
    char move[8];
    if (strcmp(f->mode, "babble") == 0) babble(f, "go");
    if (misbehave && strcmp(f->mode, "timeout") == 0) return;
    if (misbehave && strcmp(f->mode, "hang") == 0) {
        fflush(stdout);
        for (;;) pause(); /* a search stuck for good: deaf to stop and quit, SIGTERM ignored */
    }
    if (misbehave && strcmp(f->mode, "exit") == 0) {
        fflush(stdout);
        exit(0);
    }
    if (misbehave && strcmp(f->mode, "endless") == 0) {
        for (unsigned long n = 0;; n++) printf("info depth %lu score cp 0 nodes %lu pv e2e4\n", n % 100, n);
    }
    if (misbehave && strcmp(f->mode, "crash") == 0) {
        fflush(stdout);
        raise(SIGSEGV);
    }
    if (misbehave && strcmp(f->mode, "illegal") == 0) {
        printf("info depth 1 score cp %d\nbestmove a1a1\n", f->score);
        return;
    }
    if (misbehave && strcmp(f->mode, "garbage") == 0) {
        for (int i = 0; i < 2000; i++) putchar((int)(next_random(f) % 255) + 1);
        printf("\n\x01\x02 bestmove\nbestmove !!zz9\n");
        return;
    }
    if (misbehave && strcmp(f->mode, "flood") == 0) {
        for (long n = 0; n < FLOOD_BYTES; n += 60) printf("info depth 1 score cp 0 nodes 1 pv e2e4 flood flood\n");
        for (long n = 0; n < FLOOD_LONG_LINE; n++) putchar('x');
        putchar('\n');
    }
    think(f);
    random_move(f, move);
    if (strcmp(f->mode, "multipv") == 0) {
        printf("info depth 1 multipv 1 score cp 0 nodes 1 pv %s\n", move);
        printf("info depth 1 multipv 2 score cp -5000 nodes 2 pv 0000\nbestmove %s\n", move);
        return;
    }
    printf("info depth 1 score cp %d nodes 1\nbestmove %s\n", f->score, move);
}

/* The UCI loop. */
static void uci_loop(Fake *f) {
    char line[65536];
    bool handshakeDone = false;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strcmp(f->mode, "ponder") == 0 && ponder_mode_command(f, line)) {
            fflush(stdout);
            continue;
        }
        if (strcmp(f->mode, "babble") == 0 && (strcmp(line, "uci") == 0 || strcmp(line, "isready") == 0)) babble(f, line);
        if (strcmp(line, "uci") == 0) {
            printf("id name Fake %s\nid author test\noption name Hash type spin default 1 min 1 max 16\n"
                   "option name Ponder type check default false\n"
                   "option name After type spin default 0 min 0 max 100000\n", f->mode);
            if (strcmp(f->mode, "nouciok") != 0) printf("uciok\n");
        } else if (strcmp(line, "isready") == 0) {
            if (!(handshakeDone && strcmp(f->mode, "noreadyok") == 0)) printf("readyok\n");
            handshakeDone = true;
        } else if (strncmp(line, "setoption name After value ", 27) == 0) {
            f->after = atoi(line + 27); /* what after= sets, as an option (SPSA tests tune it) */
        } else if (strcmp(line, "ucinewgame") == 0) {
            f->movesThisGame = 0;
        } else if (strncmp(line, "position ", 9) == 0) {
            set_position(f, line + 9);
        } else if (strncmp(line, "go", 2) == 0) {
            uci_go(f);
        } else if (strcmp(line, "quit") == 0) {
            break;
        }
        fflush(stdout);
    }
}

/* The xboard loop: force mode, setboard, usermove, ping, go; moves with "move". */
static void xboard_loop(Fake *f) {
    char line[65536], move[8];
    bool force = true;
    pos_set_startpos(&f->pos, false);
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        bool reply = false;
        if (strncmp(line, "protover", 8) == 0) {
            printf("feature done=0\nfeature myname=\"Fake xboard\" setboard=1 usermove=1 ping=1 sigint=0 "
                   "option=\"Depth -spin 1 1 9\"\nfeature done=1\n");
        } else if (strcmp(line, "new") == 0) {
            pos_set_startpos(&f->pos, false);
            force = false;
        } else if (strcmp(line, "force") == 0) {
            force = true;
        } else if (strncmp(line, "setboard ", 9) == 0) {
            pos_set_fen(&f->pos, line + 9, false, NULL, 0);
        } else if (strncmp(line, "ping ", 5) == 0) {
            printf("pong %s\n", line + 5);
        } else if (strncmp(line, "usermove ", 9) == 0) {
            Move m = move_from_uci(&f->pos, line + 9);
            if (m == MOVE_NONE) printf("Illegal move: %s\n", line + 9);
            else pos_do_game_move(&f->pos, m);
            reply = m != MOVE_NONE && !force;
        } else if (strcmp(line, "go") == 0) {
            force = false;
            reply = true;
        } else if (strcmp(line, "quit") == 0) {
            break;
        }
        if (reply) {
            think(f);
            random_move(f, move);
            Move m = move_from_uci(&f->pos, move);
            if (m != MOVE_NONE) pos_do_game_move(&f->pos, m);
            printf("1 %d 0 1 %s\nmove %s\n", f->score, move, move);
        }
        fflush(stdout);
    }
}

int main(int argc, char **argv) {
    static Fake f;
    board_init();
    f.mode = argc > 1 ? argv[1] : "random";
    f.rng = (unsigned long long)getpid() * 2654435761ULL + 1;
    for (int i = 2; i < argc; i++) {
        if (strncmp(argv[i], "after=", 6) == 0) f.after = atoi(argv[i] + 6);
        else if (strncmp(argv[i], "score=", 6) == 0) f.score = atoi(argv[i] + 6);
        else if (strncmp(argv[i], "delay=", 6) == 0) f.delayMs = atoi(argv[i] + 6);
        else if (strncmp(argv[i], "seed=", 5) == 0) f.rng = strtoull(argv[i] + 5, NULL, 10) | 1;
    }
    pos_set_startpos(&f.pos, false);
    if (strcmp(f.mode, "hang") == 0) signal(SIGTERM, SIG_IGN); /* only SIGKILL ends it */
    if (strcmp(f.mode, "xboard") == 0) xboard_loop(&f);
    else uci_loop(&f);
    return 0;
}
