/*
 * gizum-match: the referee. The tool, not the engines, decides when a game
 * is over: by the rules of chess, or by adjudication on the engines' own scores.
 */
#ifndef MATCH_REFEREE_H
#define MATCH_REFEREE_H

#include <stdbool.h>

#include "position.h"

typedef enum { RESULT_NONE, RESULT_WHITE_WINS, RESULT_BLACK_WINS, RESULT_DRAW } GameResult;

/* PGN Termination tag values. */
typedef enum {
    TERM_NONE,
    TERM_NORMAL,
    TERM_ADJUDICATION,
    TERM_TIME_FORFEIT,
    TERM_RULES_INFRACTION,
    TERM_ABANDONED,
    TERM_UNTERMINATED
} Termination;

typedef struct {
    GameResult result;
    Termination termination;
    char reason[256];   /* "White mates", "Black loses on time", ... */
} GameOutcome;

typedef struct {
    bool drawEnabled;
    int drawMoveNumber;     /* full moves that must have been played */
    int drawMoveCount;      /* consecutive moves by each side */
    int drawScore;          /* |score| bound in centipawns */
    bool resignEnabled;
    int resignMoveCount;    /* consecutive moves by each side */
    int resignScore;        /* centipawns */
    bool resignOneSided;    /* twosided=false: the losing side's engine alone decides (else both must agree) */
    int maxMoves;           /* draw after this many full moves, 0 = none */
} AdjudicationConfig;

/* Running counts of consecutive plies that satisfy each adjudication rule. */
typedef struct {
    int drawPlies;
    int whiteLostPlies;     /* both engines agree White is lost */
    int blackLostPlies;
} Adjudicator;

/* "1-0", "0-1", "1/2-1/2", "*". */
const char *result_text(GameResult r);
/* "normal", "time forfeit", ... */
const char *termination_text(Termination t);
/* "White" / "Black". */
const char *color_name(Color c);

/* Fills out and returns true when the rules end the game in this position. */
bool referee_check(Position *pos, GameOutcome *out);
/* Sets a loss for side, with termination and reason. */
void referee_loss(GameOutcome *out, Color loser, Termination t, const char *reason);

void adjudicator_reset(Adjudicator *a);
/*
 * Records the score (centipawns, from the mover's view; hasScore false when
 * none was reported) given with the move just played by mover; pos is the
 * position after it. Returns true (and fills out) when the game is adjudicated.
 */
bool adjudicator_update(Adjudicator *a, const AdjudicationConfig *cfg, const Position *pos, Color mover,
                        bool hasScore, int score, GameOutcome *out);

#endif
