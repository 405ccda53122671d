/*
 * gizum-match: the command line (cutechess-cli / fastchess style).
 */
#ifndef MATCH_CLI_H
#define MATCH_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "match_engine.h"
#include "match_openings.h"
#include "match_referee.h"
#include "match_stats.h"

typedef enum { TOURNAMENT_ROUND_ROBIN, TOURNAMENT_GAUNTLET } TournamentType;

typedef struct {
    EngineConfig *engines;
    int engineCount;
    TournamentType type;
    int rounds;
    int games;                  /* games per encounter; pairs of games share an opening, colours reversed */
    int concurrency;
    OpeningConfig openings;
    bool chess960;
    AdjudicationConfig adjudication;
    SprtConfig sprt;
    double timeMargin;          /* seconds */
    double initTimeout;         /* seconds for uciok / done=1 / readyok / pong */
    double hangLimit;           /* seconds per move when no clock limits an engine */
    int ratingInterval;         /* summary every N games, 0 = only at the end */
    char *pgnOut;
    char *event;
    char *site;
    char *logFile;
    bool help;
} MatchConfig;

/* Parses the command line into cfg; false with a message in err. */
bool cli_parse(int argc, char **argv, MatchConfig *cfg, char *err, size_t errlen);
void cli_usage(FILE *out);
void cli_free(MatchConfig *cfg);

#endif
