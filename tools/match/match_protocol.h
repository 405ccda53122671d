/*
 * gizum-match: an engine process and the lines it reads and writes. The
 * engine object and what it is asked and answers (types shared by the
 * dispatcher match_engine.c and the two protocols, match_uci.c and
 * match_xboard.c), the line I/O both protocols speak through, logged and
 * with deadlines, and the protocols' entry points.
 */
#ifndef MATCH_PROTOCOL_H
#define MATCH_PROTOCOL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

#include "match_clock.h"
#include "match_process.h"

typedef enum { PROTO_UCI, PROTO_XBOARD } Protocol;

typedef struct {
    char *name;
    char *value;        /* with rotate: comma-separated values, one per game in turn */
    bool rotate;        /* set before every game (cycling through the values), not once at start */
} EngineOption;

/* Everything the command line says about one engine (immutable while games run). */
typedef struct {
    char *name;             /* display name; NULL until known */
    char *cmd;
    char **argv;            /* argv[0] = cmd, NULL-terminated */
    int argc;
    char *dir;              /* working directory, NULL = current */
    char *stderrPath;       /* where the engine's stderr goes, NULL = /dev/null */
    Protocol proto;
    TimeControl tc;
    EngineOption *options;
    int optionCount;
    bool ponder;            /* think on the opponent's time (UCI go ponder / xboard hard) */
    double timeMargin;      /* seconds over the clock tolerated (timemargin=), < 0 = the tournament's */
    bool restart;           /* restart=on: a fresh process for every game */
    bool timePlan;          /* -overrun: UCI "debug on" is sent and the time plan the engine reports is read */
} EngineConfig;

/* The optional communication log shared by all engines (-log FILE). */
typedef struct {
    FILE *file;
    pthread_mutex_t lock;
    double t0;
} EngineLog;

/* Moves as the engines need them. */
typedef struct {
    char uci[8];
    char san[16];
} MoveText;

/* How a game starts. */
typedef struct {
    const char *fen;        /* full FEN of the start position */
    bool standard;          /* the normal initial position */
    bool chess960;
} GameStart;

/* Everything an engine needs to choose one move. */
typedef struct {
    const GameStart *start;
    const MoveText *moves;  /* every move of the game so far */
    int moveCount;
    bool whiteToMove;
    double ownTime, oppTime;        /* clock seconds (with a clock) */
    double ownInc, oppInc;
    int movesToGo;                  /* 0 = not a moves/period control */
    double allowance;               /* seconds before the move is a time forfeit / hang */
} GoRequest;

typedef enum {
    REPLY_MOVE,         /* move holds the engine's move text (not yet checked) */
    REPLY_TIMEOUT,      /* no move within the allowance */
    REPLY_DISCONNECT,   /* the engine exited or closed its pipes */
    REPLY_STOPPED,      /* the tool is shutting down */
    REPLY_RESIGN,       /* xboard "resign" */
    REPLY_CLAIM,        /* xboard result claim; detail holds the claim */
    REPLY_PROTOCOL      /* protocol failure (e.g. engine rejected a legal move); detail says what */
} ReplyKind;

typedef struct {
    ReplyKind kind;
    char move[64];
    bool hasScore;
    bool isMate;
    int score;          /* centipawns, or moves to mate (negative: being mated), engine's point of view */
    int depth;
    long long nodes;
    int seldepth, hashfull;
    long long nps, tbhits;  /* -1 when the engine did not say */
    long long timeMs;       /* the engine's own "time" of its last info line, -1 if none */
    char pv[160];           /* the principal variation of its last info line (UCI moves), "" if none */
    char ponder[16];    /* the reply the engine expects ("bestmove X ponder Y"), empty if none */
    double elapsed;     /* seconds measured by the tool */
    /* -overrun: the engine's own hard limit, the time it says it used, how long the machine kept
     * it waiting and the most processor time between two of its clock reads, from its debug line
     * "info string time: ... maximum M ms, used U ms, waited W ms, gap G ms"; -1 when it did not say */
    long long planMaxMs, planUsedMs, planWaitedMs, planGapMs;
    char detail[256];
} EngineReply;

/* xboard features announced by the engine. */
typedef struct {
    bool setboard, usermove, ping, san, memory, smp, reuse, done;
    char variants[256];
    char myname[128];
    char options[2048];     /* declared option names, '\n'-separated */
} XboardFeatures;

typedef struct {
    const EngineConfig *cfg;
    const char *name;           /* display name used in messages */
    EngineLog *log;
    const atomic_bool *stop;    /* set when the tool shuts down */
    double initTimeout;         /* seconds allowed for uciok / feature done / readyok / pong */
    Process proc;
    bool running;               /* process alive and handshake done */
    int starts;                 /* successful starts so far */
    atomic_bool *moved;         /* shared by every process of this engine's config: set at its first move (may be NULL) */
    bool failed;                /* stopped because it crashed, stalled or hung (restart is logged) */
    char idName[128];           /* "id name" or myname */
    char *declared;             /* UCI option names, '\n'-separated (heap) */
    XboardFeatures xb;
    bool xbThinking;            /* xboard: left force mode, plays its colour */
    int xbKnown;                /* xboard: game moves the engine already has */
    int pingCounter;
    bool warned;                /* option warnings printed once */
    bool variantWarned;         /* xboard variant warning printed once */
    char lastLine[160];         /* last line read, for error messages */
    int newGames;               /* games begun, selects the value of rotating options */
    const EngineOption *gameOptions;    /* UCI: sent before the next game only (SPSA's values), owned by the caller */
    int gameOptionCount;
    bool pondering;             /* a "go ponder" search runs */
    int ponderBase;             /* moves in the game when the ponder search began */
    char ponderMove[16];        /* the opponent move it ponders on */
} Engine;

/* Seconds a command may take to be written into the engine's pipe. */
#define PROTO_WRITE_TIMEOUT 2.0
/* Seconds granted after a forfeit for the engine to answer stop / ping before it is restarted. */
#define PROTO_RESYNC_TIMEOUT 1.0

/* Sends one line (logged); false if the engine is gone. */
bool proto_send(Engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Reads one line (logged) before deadline. */
ReadResult proto_read(Engine *e, char *line, double deadline);
/* Describes why a read failed, for messages ("exited: signal 11", "no answer within 3.0 s"). */
void proto_describe_failure(Engine *e, ReadResult r, double waited, char *out, size_t len);
/*
 * Sends command, then reads lines until accept(line, arg) holds; on a dead,
 * silent or stalled engine writes "stalled at <what>: <why>" to err.
 */
bool proto_handshake(Engine *e, const char *command, bool (*accept)(Engine *e, const char *line, int arg), int arg,
                     const char *what, double timeout, char *err, size_t errlen);
/* True if name is in a '\n'-separated list (case-insensitive). */
bool proto_list_has(const char *list, const char *name);
/* Skips leading blanks. */
const char *proto_skip_blanks(const char *s);
/* The next blank-separated token of s copied into tok; returns the rest (NULL at end). */
const char *proto_token(const char *s, char *tok, size_t len);

/* Sends quit, waits up to grace seconds, then kills; always reaps. */
void engine_stop(Engine *e, double grace);

/* The value of option o for the engine's current game (the game-th entry of a rotating list). */
void engine_option_value(const EngineOption *o, int game, char *out, size_t len);

/* The two protocols (match_uci.c, match_xboard.c), which match_engine.c dispatches to. */
bool uci_start(Engine *e, char *err, size_t errlen);
bool uci_new_game(Engine *e, const GameStart *start, char *err, size_t errlen);
void uci_go(Engine *e, const GoRequest *req, EngineReply *reply);
void uci_ponder(Engine *e, const GoRequest *req, const char *ponderMove);
/* Stops a ponder search and drops its bestmove; false (engine dropped) when it does not answer. */
bool uci_end_ponder(Engine *e);

bool xboard_start(Engine *e, char *err, size_t errlen);
bool xboard_new_game(Engine *e, const GameStart *start, char *err, size_t errlen);
void xboard_go(Engine *e, const GoRequest *req, EngineReply *reply);
void xboard_game_over(Engine *e, const char *result, const char *reason);

#endif
