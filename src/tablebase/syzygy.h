/*
 * Syzygy endgame tablebases: Gizum's own prober for the .rtbw (WDL) and
 * .rtbz (DTZ) files of up to seven pieces.
 *
 * tb_init() scans folders, checks every table's header and registers the
 * good ones; the files are memory-mapped on their first probe (safe from
 * many threads at once). tb_init() and tb_free() must not run while any
 * thread probes. Every probe is thread-safe and leaves the position as it
 * was; a position with castling rights, more pieces than the largest table
 * or material without a table is not probed (the functions return false).
 *
 * Results are from the side to move's point of view. DTZ is the distance
 * in plies to the next zeroing move (capture or pawn move; mate counts) on
 * the best path under the fifty-move rule, as the format defines it: 1..100
 * for wins, above 100 for cursed wins (the 100 added), negative for the
 * losing side, 0 for draws. Stored values can be rounded: a stored n can
 * mean n or n + 1 plies (never in a phase that starts exactly on the
 * fifty-move edge), so with a counter c a win is certain only when
 * n + c <= 99; tb_wdl_with_counter calls n + c = 100 a win (as fathom does)
 * and tb_rank_root_moves keeps the one ply spare.
 */
#ifndef GIZUM_SYZYGY_H
#define GIZUM_SYZYGY_H

#include <stddef.h>

#include "position.h"

typedef enum {
    TB_LOSS = -2,
    TB_BLESSED_LOSS = -1, /* lost, but the fifty-move rule saves it */
    TB_DRAW = 0,
    TB_CURSED_WIN = 1,    /* won, but not within the fifty-move rule */
    TB_WIN = 2
} TbWdl;

/* Receives each problem found (a folder that cannot be read, a damaged file ...), one line without newline. */
typedef void (*TbMessageFn)(void *ctx, const char *message);

typedef struct {
    int wdlTables;  /* usable .rtbw files (one per material) */
    int dtzTables;  /* of those, how many have their .rtbz */
    int maxPieces;  /* largest usable table, kings included; 0 when none */
    int problems;   /* messages passed to the callback */
} TbSummary;

/*
 * Drops the current tables and registers those in paths: folders separated
 * by ':' (';' on Windows; "" or "<empty>" = none). Problems go to onMessage
 * (may be NULL) as "file: reason"; a bad file is skipped. The UCI line is "info string found
 * <wdlTables + dtzTables> tablebases (up to <maxPieces> pieces)".
 */
TbSummary tb_init(const char *paths, TbMessageFn onMessage, void *ctx);
/* Unmaps and forgets every table. */
void tb_free(void);
/* Largest probe-able piece count (0 when no tables); check it before probing in the search. */
int tb_max_pieces(void);
/* Name of the i-th registered table ("KRPvKR"), NULL past the end. */
const char *tb_table_name(int i);
/*
 * A table that became unreadable after tb_init (its file changed or
 * vanished) is dropped at its first probe; this passes those messages on
 * once each (call it when no search runs, e.g. after a search ends).
 */
void tb_take_messages(TbMessageFn onMessage, void *ctx);

/*
 * Compares every mapped table file's size and time with those it was
 * mapped with, and drops each that changed (its probes fail from then on),
 * saying so through onMessage; returns how many were dropped. Flipped bytes
 * inside a table's data are not seen by any cheap check: this catches a
 * file rewritten or truncated under a running engine before its wrong
 * values are used. Call it only while no thread probes (a new game, an
 * idle isready).
 */
int tb_check_files(TbMessageFn onMessage, void *ctx);

/* WDL of the position (ignoring its fifty-move counter: as if it were 0). */
bool tb_probe_wdl(const Position *pos, TbWdl *wdl);
/* DTZ of the position as the format defines it (above); needs the .rtbz files of its material. */
bool tb_probe_dtz(const Position *pos, int *dtz);

/* The position's result under its own fifty-move counter: the DTZ against the plies left. */
TbWdl tb_wdl_with_counter(int dtz, int rule50);

typedef struct {
    Move move;
    TbWdl wdl;   /* result of the move with the root's fifty-move counter (rule50 off: cursed = win, blessed = loss) */
    int dtz;     /* plies to zeroing counting this move (signed as for the side to move at the root); 0 = draw;
                    in a WDL-only ranking: -2..2 as the WDL of the move */
    int rank;    /* higher is better; moves of equal rank keep the same result */
    Value score; /* suggested search score for the move (see tb_wdl_value) */
} TbRootMove;

typedef struct {
    TbRootMove moves[MAX_MOVES];
    int count;     /* every legal move, best rank first */
    int keep;      /* moves[0..keep) preserve the best result: the search should choose among them */
    bool byDtz;    /* ranked with DTZ; false: only WDL tables were available */
    TbWdl wdl;     /* the position's result with its counter (rule50 off: cursed = win, blessed = loss) */
    int dtz;       /* the position's DTZ (byDtz only) */
} TbRootMoves;

/*
 * Ranks the legal moves of a root position so that a search restricted to
 * the first keep moves converts wins within the fifty-move rule (shortest
 * DTZ once the margin is tight or a position has repeated), never gives up
 * a draw, and lasts longest when losing. rule50 = the Syzygy50MoveRule
 * option: off, cursed wins count as wins and blessed losses as losses in
 * wdl and score. Uses DTZ if every needed .rtbz exists, WDL otherwise.
 * False (out untouched) if the position cannot be probed.
 */
bool tb_rank_root_moves(const Position *pos, bool rule50, TbRootMoves *out);

/*
 * Scores for tablebase results found at distance ply from the root: wins
 * and losses just inside the mate range's edge (TB_VALUE_WIN - ply), cursed
 * wins and blessed losses +-2 when the fifty-move rule is honoured.
 */
enum { TB_VALUE_WIN = VALUE_TB_WIN };
Value tb_wdl_value(TbWdl wdl, int ply, bool rule50);

/* "win", "cursed win", "draw", "blessed loss", "loss". */
const char *tb_wdl_name(TbWdl wdl);

#endif
