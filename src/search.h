/*
 * The search: iterative deepening with aspiration windows over a fail-soft
 * principal variation search, quiescence search, and the main thread's
 * duties (time checks, info output, choosing and printing the best move).
 *
 * Every function works on one SearchThread (thread.h); the only state the
 * threads share is the transposition table and the ThreadPool's control
 * block (atomic stop/ponder flags, read-only limits).
 */
#ifndef GIZUM_SEARCH_H
#define GIZUM_SEARCH_H

#include <stdint.h>

#include "history.h"
#include "strength.h"
#include "types.h"

typedef struct SearchThread SearchThread;

/* What a `go` asks for. Zero/false fields mean "not given". */
typedef struct {
    int64_t time[COLOR_NB];   /* ms on the clock; negative when not given */
    int64_t inc[COLOR_NB];
    int movesToGo;
    int depth;
    uint64_t nodes;
    int mate;                 /* stop once a mate in this many moves is proven */
    int64_t moveTime;
    bool infinite;
    bool ponder;
    Move searchMoves[MAX_MOVES];
    int searchMovesCount;
    /* Engine settings copied in at `go`. */
    int multiPV;
    int moveOverhead;         /* ms */
    bool silent;              /* no info/bestmove output (bench, tests) */
    bool debug;               /* UCI debug mode: extra info strings */
    StrengthLevel strength;   /* UCI_LimitStrength / Skill Level; disabled = full strength */
    uint64_t strengthSeed;    /* the level's random choice: per game, mixed with the position key */
} SearchLimits;

/* Starts every limit as "not given" and the settings at their defaults. */
void search_limits_init(SearchLimits *limits);

/* A root move with its latest score and principal variation. */
typedef struct {
    Move move;
    Value score;        /* latest score, -VALUE_INFINITE if it failed low this iteration */
    Value prevScore;    /* score after the previous iteration */
    Value averageScore;
    int scoreBound;     /* BOUND_EXACT, or LOWER/UPPER after an aspiration fail */
    int selDepth;
    uint64_t nodes;     /* nodes spent below this move, for time management */
    int pvLength;
    Move pv[MAX_PLY + 1];
} RootMove;

/* One ply of the search stack; the stack is offset so ss - STACK_OFFSET is valid. */
typedef struct {
    int ply;
    Move move;                    /* move played from this node (MOVE_NULL for null move) */
    Piece movedPiece;
    const PieceToHistory *cont;   /* continuation table of that move, NULL if none */
    PieceToHistory *contWrite;    /* the same table, for updates */
    Value staticEval;
    Move killers[2];
} SearchStack;

enum { STACK_OFFSET = 6 };

/* Builds the reduction table; called once by engine_init(). */
void search_init(void);

/*
 * One thread's share of a search: iterative deepening until stopped. On the
 * main thread (index 0) it also watches the clock, prints info lines, waits
 * for stop/ponderhit when required, stops the helpers, picks the best move
 * and prints `bestmove`.
 */
void search_thread_run(SearchThread *t);

/* The value in UCI form: "cp N" or "mate N". Buffer >= 16. */
void search_value_to_uci(Value v, char *out);

#endif
