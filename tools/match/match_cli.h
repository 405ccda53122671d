/*
 * gizum-match: the command line (cutechess-cli / fastchess style).
 */
#ifndef MATCH_CLI_H
#define MATCH_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "match_engine.h"
#include "match_openings.h"
#include "match_pgn.h"
#include "match_referee.h"
#include "match_spsa.h"
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
    SpsaConfig spsa;            /* -spsa: one engine tuned against itself, the schedule follows the tune */
    double timeMargin;          /* seconds */
    double initTimeout;         /* seconds for uciok / done=1 / readyok / pong */
    double hangLimit;           /* seconds per move when no clock limits an engine */
    int ratingInterval;         /* summary every N games, 0 = only at the end */
    char *pgnOut;
    bool pgnAppend;             /* append=false truncates the file first */
    PgnOptions pgn;
    char *epdOut;               /* final position of every game */
    bool epdAppend;
    char *event;
    char *site;
    char *logFile;              /* "-" with -debug: engine traffic on stdout */
    bool logAppend;
    bool reportPenta;           /* -report penta=false hides the pentanomial line */
    bool overrun;               /* -overrun: UCI engines in debug mode, their time plans recorded and judged */
    bool noSwap, reverse;       /* colours: never swapped / the first game with colours reversed */
    int waitMs;                 /* pause between the games of a worker */
    char *stateIn;              /* -config file=F: resume from this state */
    char *stateOut;             /* -config outname=F (or file=F): where the state is saved */
    bool stateStats;            /* -config stats=false: resume the settings but not the results */
    int autosaveInterval;       /* state saved every N games (and at the end) */
    bool help;
    bool version;
    int argc;                   /* the command line, saved in the state file (not owned) */
    char **argv;
} MatchConfig;

/* Parses the command line into cfg; false with a message in err. */
bool cli_parse(int argc, char **argv, MatchConfig *cfg, char *err, size_t errlen);
void cli_usage(FILE *out);
void cli_free(MatchConfig *cfg);

/*
 * Reads a state file written by a tournament (-config): the command line it
 * ran with (argc/argv, heap, free with cli_free_args) and the points of the
 * first engine in every finished game (points[i] < 0: not played).
 */
bool cli_read_state(const char *path, int *argc, char ***argv, double **points, long *count, char *err, size_t errlen);
void cli_free_args(int argc, char **argv);

#endif
