/*
 * The search: iterative deepening with aspiration windows over a fail-soft
 * principal variation search, quiescence search, and the choice of the
 * move to play.
 *
 * The search owns its state: a SearchWorker per thread (position, stack,
 * PV, root moves, histories) and one SearchShared per search (limits, the
 * time plan, stop/ponder flags, the transposition table, the reporter and
 * the result). It knows nothing of threads or of the protocol: the thread
 * pool (thread.c) runs workers on threads, and whoever starts a search
 * hears of its progress through a SearchReporter (the UCI layer prints
 * `info` and `bestmove` lines; bench, datagen and tests plug in their own
 * or none).
 *
 * Three files implement it: deepening.c (iterative deepening, the workers),
 * alphabeta.c (the tree) and root.c (the root, the reports, the move played).
 */
#ifndef GIZUM_SEARCH_H
#define GIZUM_SEARCH_H

#include <stdatomic.h>
#include <stdint.h>

#include "eval.h"
#include "history.h"
#include "searchlimits.h"
#include "position.h"
#include "strength.h"
#include "timeman.h"
#include "tt.h"
#include "types.h"

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
    Move excludedMove;            /* a singular-extension search leaves this move out */
    int doubleExtensions;         /* double extensions on the line from the root to here */
    int moveCount;                /* the number of the move being searched from this node */
    int cutoffCount;              /* fail highs at this ply since the grandparent started */
    Bitboard threats;             /* squares the enemy attacks, for the butterfly history */
} SearchStack;

enum { STACK_OFFSET = 6 };

/* One line of search progress (a UCI `info ... pv` line). */
typedef struct {
    int depth, selDepth;
    int multiPV;                  /* 1-based line number */
    Value score;
    int bound;                    /* BOUND_EXACT, BOUND_LOWER or BOUND_UPPER */
    uint64_t nodes;               /* all threads */
    uint64_t tbHits;              /* tablebase probes that gave a result, all threads */
    int64_t timeMs;
    int hashfull;                 /* permille */
    const Move *pv;               /* legal from the root, pvLength moves */
    int pvLength;
    bool chess960;
} SearchLine;

/*
 * Who hears of a search's progress. Callbacks run on the main search
 * thread; any of them may be NULL. A NULL reporter is a silent search.
 */
typedef struct {
    void *context;
    void (*line)(void *context, const SearchLine *line);
    void (*currmove)(void *context, int depth, Move move, int moveNumber, bool chess960);
    /* The root has no legal move: mated (inCheck) or stalemated. */
    void (*no_moves)(void *context, bool inCheck);
    void (*bestmove)(void *context, Move best, Move ponder, bool chess960);
} SearchReporter;

/* What a finished search decided. */
typedef struct {
    Move bestMove, ponderMove;    /* MOVE_NONE when the root has no legal move */
    Value score;                  /* VALUE_NONE when nothing was searched */
    int depth;                    /* the last iteration completed by the worker whose move is played */
} SearchResult;

/*
 * Search statistics (`make STATS=1`, `./gizum bench --stats`): how often
 * each kind of node, cutoff, pruning and reduction happens. Counted per
 * worker only in the statistics build; the normal build has no counters.
 */
#define SEARCH_STATS(X) \
    X(NODES_PV) X(NODES_CUT) X(NODES_ALL) X(NODES_QS) \
    X(FAIL_HIGH) X(FAIL_HIGH_FIRST) \
    X(TT_PROBE) X(TT_HIT) X(TT_CUTOFF) X(QS_TT_CUTOFF) \
    X(RFP) X(NMP_TRY) X(NMP_CUTOFF) X(IIR) \
    X(LMP) X(HISTORY_PRUNE) X(FUTILITY) X(SEE_QUIET) X(CAPTURE_FUTILITY) X(SEE_NOISY) \
    X(LMR) X(LMR_RESEARCH) X(LMR_DEEPER) X(LMR_SHALLOWER) X(PVS_RESEARCH) X(CHECK_EXTENSION) \
    X(SINGULAR_TRY) X(SINGULAR_EXTENSION) X(DOUBLE_EXTENSION) X(NEGATIVE_EXTENSION) X(MULTI_CUT) \
    X(PROBCUT_TRY) X(PROBCUT_CUTOFF) \
    X(ASPIRATION_FAIL) X(QS_DELTA) X(QS_FUTILITY) X(QS_SEE)

#define SEARCH_STAT_ENUM(name) STAT_##name,
enum { SEARCH_STATS(SEARCH_STAT_ENUM) STAT_NB };
#undef SEARCH_STAT_ENUM

typedef struct {
    uint64_t count[STAT_NB];
} SearchStats;

#ifdef GIZUM_STATS
enum { SEARCH_STATS_BUILT = 1 };
#else
enum { SEARCH_STATS_BUILT = 0 };
#endif

/* The counters' names, indexed by STAT_*. */
extern const char *const SearchStatNames[STAT_NB];

typedef struct SearchShared SearchShared;

/* One thread's share of a search. */
typedef struct {
    int index;                    /* 0 = the main worker */
    SearchShared *shared;
    Position *pos;
    EvalCache *evalCache;
    Histories *hist;
    _Atomic uint64_t nodes;       /* written by this worker only; read by the main worker */
    _Atomic uint64_t tbHits;      /* likewise */

    int rootDepth, completedDepth, seldepth, pvIndex;
    int rootCount;
    RootMove rootMoves[MAX_MOVES];

    /* Main worker: time management and reporting. */
    Move lastBestMove;
    int lastBestMoveDepth;
    Value iterationScores[MAX_PLY + 1];  /* the root score after each completed depth */
    Value lastMoveScore;          /* the root score the previous search ended with (VALUE_NONE: none) */
    int checkCountdown;           /* main thread: nodes until the limits are checked again */
    int checkInterval;            /* main thread: nodes between checks, fewer while nodes are slow */
    int64_t lastCheckUs;          /* main thread: when they were last checked (tm_now_us) */
    int64_t longestGapUs;         /* main thread: the longest time between two checks in this search */
    int64_t clockStartMs;         /* main thread: when the clock started (go or ponderhit), as it last saw it */
    int64_t cpuStartUs;           /* main thread: its processor time when the clock started */
    int64_t waitedUs;             /* main thread: the time the search took less its processor time */
    int64_t lastCheckCpuUs;       /* main thread: its processor time at the last check */
    int64_t unseenStallUs;        /* main thread: since the clock started, the processor time charged
                                   * between two clock reads (and to the finish) in gaps of over 5 check
                                   * periods, less a period each, summed: above zero only when the machine
                                   * took the core without the thread seeing it (a virtual machine's host) */
    Move lastReportedMove;

    /* Strength levels: the root lines of the last completed iteration, best first. */
    int choiceCount;
    Move choiceMoves[STRENGTH_LINES_MAX];
    Value choiceScores[STRENGTH_LINES_MAX];

    SearchStack stack[MAX_PLY + STACK_OFFSET + 4];
    int pvLength[MAX_PLY + 2];
    Move pv[MAX_PLY + 2][MAX_PLY + 2];

#ifdef GIZUM_STATS
    SearchStats stats;                      /* this search so far */
    SearchStats statsAtDepth[MAX_PLY + 1];  /* the totals when each iteration ended */
#endif
} SearchWorker;

/* State shared by the workers of one search. */
struct SearchShared {
    atomic_bool stop;             /* every worker unwinds as soon as it sees this */
    atomic_bool ponder;           /* pondering: no time limits, no bestmove yet */
    _Atomic int64_t startTime;    /* ms (monotonic) the clock started: go, or ponderhit */
    int64_t stallMs;              /* the machine's recent stall (tm_note_stall), main search thread only */
    SearchLimits limits;          /* read-only while the search runs */
    TimeManager tm;               /* read-only while the search runs */
    TTable *tt;
    SearchReporter reporter;      /* all NULL: silent */
    int tbPieces;                 /* probe tablebases at nodes with at most this many pieces (0: none) */
    bool tbRoot;                  /* the root moves were filtered by the tablebases */
    uint64_t tbRootHits;          /* the root's probes (one per legal move) */
    Value tbRootValue;            /* the root's tablebase score, shown instead of a heuristic one */
    SearchWorker **workers;       /* workers[0] is the main worker; set only while idle */
    int workerCount;
    SearchResult result;          /* written by search_finish */
};

/* Builds the reduction table; called once by engine_init(). */
void search_init(void);

/* A worker with its own position, histories and evaluation cache; NULL without memory. */
SearchWorker *search_worker_create(SearchShared *shared, int index);
void search_worker_destroy(SearchWorker *w);
/* Forgets what a worker learnt: histories, evaluation cache (ucinewgame, bench). */
void search_worker_clear(SearchWorker *w);

/*
 * Prepares every worker for a search of pos (root moves, time plan, limits
 * after strength levels); reporter may be NULL. Call while no worker runs.
 */
void search_prepare(SearchShared *shared, const Position *pos, const SearchLimits *limits,
                    const SearchReporter *reporter, int64_t startTime);

/* One worker's iterative deepening until it is stopped or reaches its limits. */
void search_worker_run(SearchWorker *w);

/*
 * After the main worker's run, once every helper has stopped: picks the
 * move to play (Lazy SMP vote, strength levels), reports the last line and
 * `bestmove`, and stores the result.
 */
void search_finish(SearchShared *shared);

/* Should the main worker's thread wait before finishing (ponder or infinite, not yet stopped)? */
bool search_must_wait(const SearchShared *shared);
/* Main thread: a ponderhit restarts the clock; the processor time the waits are counted against restarts with it. */
void search_follow_clock_start(SearchWorker *w);
/* Main thread, at each clock read (wallGapUs since the last one, cpuUs its processor time now):
 * counts a stall it could not see into unseenStallUs. */
void search_note_unseen_stall(SearchWorker *w, int64_t wallGapUs, int64_t cpuUs);

/*
 * The main worker's statistics: the totals when iteration depth ended
 * (depth 0: the whole search). False in a build without statistics.
 */
bool search_stats(const SearchShared *shared, int depth, SearchStats *out);

/* Nodes searched by all workers in the current or last search. */
uint64_t search_nodes(const SearchShared *shared);
/* Tablebase hits of all workers in the current or last search. */
uint64_t search_tb_hits(const SearchShared *shared);

#endif
