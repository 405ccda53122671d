/*
 * gizum-match: time controls and the tool's own chess clock.
 *
 * Time is always measured by the tool with CLOCK_MONOTONIC; what an engine
 * reports about its own thinking time is never trusted.
 */
#ifndef MATCH_CLOCK_H
#define MATCH_CLOCK_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    bool hasClock;      /* base+inc (and moves per period) is in force */
    double base;        /* seconds per period (or per game) */
    double inc;         /* seconds added after each move */
    int moves;          /* moves per period, 0 = the whole game */
    double moveTime;    /* st=: fixed seconds per move, 0 = none */
    long long nodes;    /* nodes= limit per move, 0 = none */
    int depth;          /* depth= limit per move, 0 = none */
} TimeControl;

typedef struct {
    double remaining;   /* seconds left in the current period (may dip below 0 within the margin) */
    int movesPlayed;    /* moves this side has made in the game */
} Clock;

/* Seconds since an arbitrary fixed point (CLOCK_MONOTONIC). */
double clock_now(void);

/*
 * Parses a cutechess-style clock "[moves/]time[+inc]" (time in seconds or
 * m:ss) or "inf" into tc (other fields untouched). False and a message on error.
 */
bool tc_parse_clock(TimeControl *tc, const char *text, char *err, size_t errlen);
/*
 * The longest time a clock, an increment or st= may give: about 31 years.
 * Longer ones are refused, so that every time converts to the integer
 * milliseconds (go wtime ...) and centiseconds (xboard time) it is sent as.
 */
#define TC_SECONDS_MAX 1e9

/* Parses a number of seconds from 0 to TC_SECONDS_MAX ("0.05", "2"). */
bool tc_parse_seconds(const char *text, double *out);
/*
 * True when seconds is a whole number of milliseconds. Engines are told the
 * clock, the increment and st= in milliseconds (UCI wtime, winc, movetime),
 * so a finer time is refused: it would be sent rounded, maybe as 0.
 */
bool tc_is_whole_ms(double seconds);
/* True when no limit at all is set (the engine would think forever). */
bool tc_is_unlimited(const TimeControl *tc);
/* PGN TimeControl tag value ("40/60+0", "10+0.1", "0.05/move", "-"). */
void tc_format_pgn(const TimeControl *tc, char *out, size_t len);
/* Human text for the banner ("10+0.1", "st=0.05", "nodes=1000 depth=5"). */
void tc_describe(const TimeControl *tc, char *out, size_t len);

/* Sets a clock to the start of a game. */
void clock_reset(Clock *c, const TimeControl *tc);
/* Moves left in the current period for "movestogo" (0 when the period is the game). */
int clock_moves_to_go(const Clock *c, const TimeControl *tc);
/*
 * Seconds the side may think on this move before it has lost on time or
 * is considered hung: clock time or st plus the margin, else hangLimit.
 */
double clock_allowance(const Clock *c, const TimeControl *tc, double margin, double hangLimit);
/* Charges a finished move; false means the flag fell (elapsed beyond time + margin). */
bool clock_charge(Clock *c, const TimeControl *tc, double elapsed, double margin);

#endif
