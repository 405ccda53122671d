/*
 * gizum-match: the tournament. Schedules the games of a match, gauntlet or
 * round robin over worker threads (each owns its engine processes), records
 * results, prints progress and summaries, writes the PGN and runs the SPRT.
 */
#ifndef MATCH_TOURNAMENT_H
#define MATCH_TOURNAMENT_H

#include <stdatomic.h>
#include <stdbool.h>

#include "match_cli.h"

typedef struct Tournament Tournament;

/* Prepares a tournament (opens openings, PGN and log files); NULL with a message in err. */
Tournament *tournament_new(const MatchConfig *cfg, char *err, size_t errlen);
/* Counts the games of a state file (points of the first engine per game, < 0 unplayed) as already played. */
bool tournament_restore(Tournament *t, const double *points, long count, char *err, size_t errlen);
/*
 * Plays until every game is done, the SPRT decides or a stop is requested; prints the final
 * summary. False when nothing could be played (-spsa: the engine lacks a tuned option) or the
 * run was aborted because an engine failed before its first move (the reason on stderr).
 */
bool tournament_run(Tournament *t);
/* Asks a running tournament to stop as soon as possible (async-signal-safe). */
void tournament_request_stop(Tournament *t);
/* True when the run ended by a stop request rather than normally. */
bool tournament_interrupted(const Tournament *t);
void tournament_free(Tournament *t);

#endif
