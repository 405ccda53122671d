/*
 * What a `go` asks of the search, and the engine's settings it searches
 * with. Its own header because the time manager, the search and the
 * protocol layer all read it, and none of them should need another's
 * header for it.
 */
#ifndef GIZUM_SEARCHLIMITS_H
#define GIZUM_SEARCHLIMITS_H

#include <stdint.h>

#include "strength.h"
#include "types.h"

/*
 * The plain modes are for testing the search itself: every selective step
 * off (pruning, reductions, extensions, aspiration windows, quiescence:
 * leaves are static evaluations), so the value at a fixed depth must equal
 * minimax; SEARCH_PLAIN keeps the transposition table's cutoffs,
 * SEARCH_PLAIN_NO_TT drops them too.
 */
typedef enum { SEARCH_NORMAL, SEARCH_PLAIN, SEARCH_PLAIN_NO_TT } SearchMode;

/*
 * The engine's settings a search reads, set by UCI options (the protocol's
 * option table points at these fields) and handed to each `go` whole.
 */
typedef struct {
    int multiPV;              /* MultiPV */
    int moveOverhead;         /* Move Overhead, ms */
    int tbProbeDepth;         /* SyzygyProbeDepth: probe WDL at nodes of at least this depth... */
    int tbProbeLimit;         /* SyzygyProbeLimit: ...with at most this many pieces (0: never) */
    bool tbRule50;            /* Syzygy50MoveRule: cursed wins and blessed losses are draws */
} SearchSettings;

/* The settings' defaults, also the UCI options' (the largest probe limit is the default). */
enum { MULTIPV_DEFAULT = 1, MOVE_OVERHEAD_DEFAULT = 10, TB_PROBE_DEPTH_DEFAULT = 1, TB_PROBE_LIMIT_MAX = 7,
       TB_RULE50_DEFAULT = true };
extern const SearchSettings SearchSettingsDefault;

/* Zero/false fields mean "not given". */
typedef struct SearchLimits {
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
    SearchSettings settings;  /* the engine's, at this `go` */
    StrengthLevel strength;   /* UCI_LimitStrength / Skill Level; disabled = full strength */
    uint64_t strengthSeed;    /* the level's random choice: per game, mixed with the position key */
    SearchMode mode;          /* SEARCH_NORMAL except in tests */
} SearchLimits;

/* Starts every limit as "not given" and the settings at their defaults. */
void search_limits_init(SearchLimits *limits);
/* A limited strength level searches at least its lines, no deeper and no longer than it allows. */
void search_limits_apply_strength(SearchLimits *limits);

#endif
