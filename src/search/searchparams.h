/*
 * Every number the search, the move picker, the TT replacement and the time manager are tuned
 * by, as data: name, default, minimum, maximum, and the SPSA step (c_end).
 *
 * The normal build compiles them as constants (enum), so they cost nothing.
 * `make SPSA=1` (GIZUM_SPSA) makes each a variable that the UCI layer
 * exposes as a spin option, and `./gizum spsa` prints the list in the form
 * OpenBench's SPSA tuner takes.
 */
#ifndef GIZUM_SEARCHPARAMS_H
#define GIZUM_SEARCHPARAMS_H

#include <stdbool.h>

#define SEARCH_PARAMS(X) \
    /* Aspiration windows: first half-width (cp) and growth per fail (percent). */ \
    X(AspirationMinDepth, 4, 2, 8, 1) \
    X(AspirationDelta, 15, 5, 40, 2) \
    X(AspirationGrowthPercent, 150, 110, 300, 10) \
    /* Reverse futility pruning: stand-pat this far (cp per ply) above beta. */ \
    X(RfpMaxDepth, 8, 4, 12, 1) \
    X(RfpMargin, 75, 30, 150, 5) \
    /* Null-move pruning: R = base + depth / divisor + min((eval - beta) / evalDivisor, evalMax). */ \
    X(NmpMinDepth, 3, 2, 6, 1) \
    X(NmpBaseReduction, 4, 2, 6, 1) \
    X(NmpDepthDivisor, 5, 3, 8, 1) \
    X(NmpEvalDivisor, 200, 100, 400, 20) \
    X(NmpEvalMaxReduction, 3, 1, 6, 1) \
    /* ProbCut: a capture that beats beta + margin (less when improving) in a shallow search, \
     * unless a TT entry this close to the depth says the node fails low. */ \
    X(ProbCutMinDepth, 5, 3, 8, 1) \
    X(ProbCutMargin, 200, 100, 350, 10) \
    X(ProbCutImprovingMargin, 50, 0, 120, 10) \
    X(ProbCutReduction, 4, 3, 5, 1) \
    X(ProbCutTtDepthMargin, 3, 1, 5, 1) \
    /* Singular extensions: the TT move alone beats ttValue - margin * depth / 64 (at half depth). */ \
    X(SingularMinDepth, 7, 4, 10, 1) \
    X(SingularTtDepthMargin, 3, 1, 5, 1) \
    X(SingularBetaMargin, 80, 32, 160, 8) \
    X(DoubleExtensionMargin, 20, 5, 50, 5) \
    X(DoubleExtensionMax, 6, 2, 12, 1) \
    /* Internal iterative reduction without a TT move. */ \
    X(IirMinDepth, 4, 2, 8, 1) \
    /* Late move pruning: quiets after (base + depth^2) / (divisor - improving) moves. */ \
    X(LmpMaxDepth, 8, 4, 12, 1) \
    X(LmpBase, 3, 1, 8, 1) \
    X(LmpImprovingDivisor, 2, 2, 4, 1) \
    /* Futility pruning of quiets by reduced depth: eval + base + perDepth * depth <= alpha. */ \
    X(FutilityMaxDepth, 8, 4, 12, 1) \
    X(FutilityBase, 80, 20, 200, 10) \
    X(FutilityPerDepth, 90, 30, 200, 10) \
    /* SEE pruning: quiets below -margin * depth^2, noisy moves below -margin * depth. */ \
    X(SeeQuietMargin, 30, 10, 80, 5) \
    X(SeeNoisyMargin, 100, 40, 200, 10) \
    X(SeeMaxDepth, 8, 4, 12, 1) \
    /* Late move reductions: base + ln(depth) ln(moves) / divisor (hundredths), less for good history. */ \
    X(LmrMinDepth, 3, 2, 5, 1) \
    X(LmrBaseHundredths, 25, 0, 150, 5) \
    X(LmrDivisorHundredths, 170, 120, 350, 10) \
    X(LmrHistoryDivisor, 8192, 2048, 16384, 512) \
    /* A reduced search that beats the best move by base + perPly * reduction is searched a ply deeper. */ \
    X(LmrDeeperBase, 40, 10, 100, 5) \
    X(LmrDeeperPerPly, 5, 0, 20, 1) \
    /* Captures are reduced too (from the second move on), less for a good capture history. */ \
    X(LmrCaptureHistoryDivisor, 4096, 1024, 16384, 512) \
    /* ... and one ply more when the replies have failed high more than this often (no TT move counts twice). */ \
    X(LmrChildCutoffs, 3, 1, 8, 1) \
    /* A TT cutoff punishes the opponent's quiet move that led here if it was among its first this many. */ \
    X(TtCutoffPriorMaxMove, 2, 1, 6, 1) \
    /* Capture futility: eval + base + per-depth * lmrDepth + victim + history / divisor below alpha. */ \
    X(CaptureFutilityMaxDepth, 6, 2, 10, 1) \
    X(CaptureFutilityBase, 150, 50, 400, 20) \
    X(CaptureFutilityPerDepth, 120, 40, 300, 10) \
    X(CaptureFutilityHistoryDivisor, 32, 8, 128, 4) \
    /* History bonus after a cutoff: min(quad * depth^2 + linear * depth, cap). */ \
    X(HistoryBonusQuad, 16, 4, 32, 2) \
    X(HistoryBonusLinear, 128, 32, 256, 16) \
    X(HistoryBonusCap, 2000, 1000, 4000, 100) \
    /* History pruning: quiets with a history below -margin * depth at lmrDepth up to max. */ \
    X(HistoryPruneMaxDepth, 4, 1, 8, 1) \
    X(HistoryPruneMargin, 3000, 1000, 8000, 250) \
    /* Correction history: each table's share of the static evaluation's correction (percent). */ \
    X(CorrectionPawnWeight, 50, 0, 150, 5) \
    X(CorrectionNonPawnWeight, 25, 0, 100, 5) \
    X(CorrectionContinuationWeight, 25, 0, 100, 5) \
    X(CorrectionMaxWeight, 16, 4, 32, 1) \
    /* Quiescence delta pruning margin (cp). */ \
    X(QsDeltaMargin, 150, 50, 300, 10) \
    /* Move ordering: victim value weight against capture history / divisor. */ \
    X(MvvWeight, 16, 4, 32, 2) \
    X(CaptureHistoryDivisor, 16, 4, 64, 4) \
    /* TT replacement: a generation of age weighs this many plies; a same-key entry survives when this much deeper. */ \
    X(TtAgeWeight, 8, 2, 16, 1) \
    X(TtSameKeyDepthMargin, 4, 0, 8, 1) \
    /* Lazy SMP: helpers skip depths in groups of 1..sizes, two threads per pattern; vote base. */ \
    X(HelperSkipSizes, 3, 1, 6, 1) \
    X(HelperSkipPairing, 2, 1, 4, 1) \
    X(VoteBase, 14, 1, 40, 2) \
    /* Main thread: clock checks every this many nodes, down to CheckIntervalMin while they are more than */ \
    /* CheckPeriodUs (microseconds) apart; currmove lines after this long (ms). */ \
    X(CheckInterval, 1024, 256, 4096, 256) \
    X(CheckIntervalMin, 16, 1, 256, 16) \
    X(CheckPeriodUs, 1000, 250, 4000, 250) \
    X(CurrmoveDelayMs, 3000, 1000, 10000, 500) \
    /* Time: the next iteration is assumed to take this many percent of the last one. */ \
    X(NextIterationPercent, 201, 100, 300, 10) \
    /* Time: moves to plan for, hard limit as a multiple of the optimum and share of the clock. */ \
    X(MovesToGoDefault, 20, 15, 50, 2) \
    X(MovesToGoCap, 50, 20, 80, 5) \
    X(MaximumRatio, 5, 2, 8, 1) \
    X(MaximumClockPercent, 50, 30, 70, 5) \
    X(MaximumClockPercentLastMove, 85, 60, 95, 5) \
    X(IncrementUsePercent, 82, 50, 100, 5) \
    X(SingleMoveOptimumMs, 50, 10, 500, 10) \
    /* Time: the clock kept in reserve, never planned to be spent: this many Move Overheads or percent of */ \
    /* the increment, whichever is more, plus the overhead the increment does not cover for as many moves */ \
    /* (movestogo, or ReserveMoves without one); under it a move takes at most this percent of (increment */ \
    /* minus overhead), so the clock climbs back. */ \
    X(ReserveOverheads, 5, 0, 20, 1) \
    X(ReserveIncrementPercent, 200, 0, 500, 25) \
    X(ReserveMoves, 50, 20, 100, 5) \
    X(RefillIncrementPercent, 50, 0, 90, 10) \
    /* Time: the reserve is at least this percent of the machine's recent stall (the longest the main thread */ \
    /* went without reading the clock), which keeps this percent of itself from one search to the next. */ \
    X(StallReservePercent, 200, 0, 400, 25) \
    X(StallDecayPercent, 94, 50, 99, 2) \
    /* Time: soft limit factors (percent): best-move stability, score drop, best move's node share. */ \
    X(TmStabilityBase, 135, 100, 160, 5) \
    X(TmStabilityStep, 5, 2, 12, 1) \
    X(TmStabilityMax, 8, 4, 12, 1) \
    X(TmScoreRiseMax, 20, 0, 50, 5) \
    X(TmScoreDropMax, 115, 50, 200, 10) \
    X(TmScoreDropDivisor, 2, 1, 4, 1) \
    /* The score drop is measured against this many iterations back and, this many times as much, */ \
    /* against the score the previous move's search ended with. */ \
    X(TmTrendIterations, 3, 1, 6, 1) \
    X(TmTrendMoveWeight, 2, 0, 4, 1) \
    X(TmNodeBase, 177, 120, 220, 5) \
    X(TmNodeScale, 120, 60, 180, 5)

typedef struct {
    const char *name;
    int def, min, max, step;
#ifdef GIZUM_SPSA
    int *value;
#endif
} SearchParam;

/* The list above as a table, in order. */
extern const SearchParam SearchParams[];
extern const int SearchParamCount;

#ifdef GIZUM_SPSA
#define SEARCH_PARAM_DECLARE(name, def, min, max, step) extern int name;
SEARCH_PARAMS(SEARCH_PARAM_DECLARE)
#undef SEARCH_PARAM_DECLARE
/* Sets a parameter by name (clamped to its range); false if there is none. */
bool search_param_set(const char *name, int value);
#else
#define SEARCH_PARAM_CONSTANT(name, def, min, max, step) name = def,
enum { SEARCH_PARAMS(SEARCH_PARAM_CONSTANT) };
#undef SEARCH_PARAM_CONSTANT
#endif

#endif
