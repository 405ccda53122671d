/*
 * gizum-match: one game between two engines, refereed by the tool.
 */
#ifndef MATCH_GAME_H
#define MATCH_GAME_H

#include <stdbool.h>
#include <time.h>

#include "match_engine.h"
#include "match_referee.h"

/* One half-move as played, with what the engine said about it. */
typedef struct {
    Move move;
    bool book;          /* from the opening, not chosen by an engine */
    bool hasScore;
    bool isMate;
    int score;          /* mover's view: centipawns, or moves to mate */
    int depth;
    double seconds;     /* thinking time measured by the tool */
    /* What else the engine reported with the move (for -pgnout nodes=true ... of fastchess). */
    long long nodes, nps, tbhits;   /* -1 when not reported */
    int seldepth, hashfull;
    double timeLeft;    /* the mover's clock after the move, seconds; < 0 without a clock */
    double latency;     /* measured minus reported thinking time, seconds; NAN when not reported */
    double planMax, planUsed, planWaited;   /* -overrun: the engine's own maximum, time used and time
                                             * kept waiting by the machine, seconds; NAN when not reported */
    double planGap;     /* -overrun: the most processor time between two of its clock reads, seconds; NAN: not said */
    char pv[160];
} PlyRecord;

typedef struct {
    char startFen[128];
    bool standard;
    bool chess960;
    PlyRecord *plies;
    MoveText *texts;    /* parallel to plies */
    int count, cap;
    GameOutcome outcome;
    time_t started;     /* wall-clock start (for the PGN Date tag) */
    int failedSide;     /* whose engine could not start, stalled, died or sent no move in time; -1: none */
    char failure[256];  /* what happened to it */
} GameRecord;

/* Receives warnings (crashes, illegal moves, restarts) as they happen. */
typedef void (*GameLogFn)(void *ctx, const char *message);

typedef struct {
    const char *fen;            /* start position, NULL = standard */
    const Move *opening;        /* opening moves played from fen */
    int openingCount;
    bool chess960;
    double timeMargin;          /* seconds of tolerance before a flag falls */
    double hangLimit;           /* seconds per move when no clock limits the engine */
    const AdjudicationConfig *adjudication;
    GameLogFn log;
    void *logCtx;
} GameSettings;

void game_record_init(GameRecord *rec);
void game_record_free(GameRecord *rec);

/*
 * Plays a game (starting or restarting the engines as needed). Returns false
 * if it was interrupted before a result (the record is then not a game).
 */
bool game_play(const GameSettings *s, Engine *white, Engine *black, GameRecord *rec);

#endif
