/*
 * Time management: how long to think about one move.
 *
 * `optimum` is the soft limit: no new iteration starts after it (scaled by
 * how settled the search is, see tm_soft_limit). `maximum` is the hard limit
 * the search never passes. Both already leave `Move Overhead` for the GUI
 * and the communication, and are measured on a monotonic clock from the
 * moment `go` (or `ponderhit`) arrived.
 */
#ifndef GIZUM_TIMEMAN_H
#define GIZUM_TIMEMAN_H

#include <stdint.h>

#include "searchlimits.h"

typedef struct {
    bool active;      /* a clock or movetime was given */
    int64_t optimum;  /* ms */
    int64_t maximum;  /* ms */
    int64_t reserve;  /* ms the hard limit leaves on the clock (tm_reserve), 0 without a clock */
} TimeManager;

/* Milliseconds on the monotonic clock (never jumps with the wall clock). */
int64_t tm_now(void);
/* Microseconds on the same clock. */
int64_t tm_now_us(void);

/*
 * The clock (ms) a move must leave for the game's later moves, never planned
 * to be spent: a safety margin that grows with Move Overhead, the increment
 * and `stallMs`, the longest the machine recently kept the search from
 * running (see tm_note_stall), plus the overhead that the increment does not
 * pay back, for each of `moves` moves (movestogo; without one, ReserveMoves).
 * The hard limit keeps it; a move under it spends only part of its increment.
 */
int64_t tm_reserve(int64_t overhead, int64_t inc, int64_t stallMs, int moves);

/*
 * Allocates the time for a move by `us` with `legalMoves` legal moves at the
 * root; stallMs as for tm_reserve (0 on an idle machine).
 */
void tm_init(TimeManager *tm, const SearchLimits *limits, Color us, int legalMoves, int64_t stallMs);

/*
 * The machine's recent stall after a search whose main thread went at most
 * longestGapMs between two clock reads: that gap, or the previous stall
 * decayed by StallDecayPercent, whichever is longer.
 */
int64_t tm_note_stall(int64_t previousMs, int64_t longestGapMs);

/*
 * The soft limit for the next iteration: longer when the best move keeps
 * changing (stability = completed iterations it has stayed the same) or the
 * score drops (scoreDrop in cp, positive = worse), shorter when the best move
 * takes most of the nodes (bestNodesPermille of the root's nodes).
 */
int64_t tm_soft_limit(const TimeManager *tm, int stability, int scoreDrop, int bestNodesPermille);

#endif
