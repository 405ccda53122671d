/*
 * Time allocation per move and its adjustment during the search.
 */
#include "timeman.h"

#include <time.h>

#include "searchparams.h"

static const int64_t MinimumThinkMs = 1;

int64_t tm_now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t tm_now(void) {
    return tm_now_us() / 1000;
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

int64_t tm_reserve(int64_t overhead, int64_t inc, int64_t stallMs, int moves) {
    /* Against a late reply (a loaded machine, a slow GUI): overheads, increments or the machine's recent
     * stalls, whichever is more. */
    int64_t safety = max64(max64(overhead * ReserveOverheads, inc * ReserveIncrementPercent / 100),
                           stallMs * StallReservePercent / 100);
    /* Every later move costs the overhead; the part its increment does not pay back is kept now. */
    return safety + max64(0, overhead - inc) * (moves - 1);
}

int64_t tm_note_stall(int64_t previousMs, int64_t longestGapMs) {
    return max64(longestGapMs, previousMs * StallDecayPercent / 100);
}

void tm_init(TimeManager *tm, const SearchLimits *limits, Color us, int legalMoves, int64_t stallMs) {
    int64_t overhead = limits->settings.moveOverhead;
    tm->active = false;
    tm->optimum = tm->maximum = tm->reserve = 0;

    if (limits->moveTime > 0) {
        tm->active = true;
        tm->optimum = tm->maximum = max64(MinimumThinkMs, limits->moveTime - overhead);
        return;
    }
    if (limits->time[us] < 0) return;  /* no clock: depth, nodes, mate, infinite or nothing */

    tm->active = true;
    int64_t time = limits->time[us];
    int64_t inc = max64(0, limits->inc[us]);
    int movesToGo = limits->movesToGo < MovesToGoCap ? limits->movesToGo : MovesToGoCap;
    int mtg = limits->movesToGo > 0 ? movesToGo : MovesToGoDefault;
    /* Usable time: the clock minus this move's overhead. */
    int64_t usable = max64(0, time - overhead);
    int64_t reserve = tm_reserve(overhead, inc, stallMs, limits->movesToGo > 0 ? movesToGo : ReserveMoves);
    tm->reserve = reserve;
    /* The base: what is left after the overhead of the moves planned for (and the reserve), shared among them. */
    int64_t budget = max64(0, usable - max64(overhead * (mtg - 1), reserve)) / mtg;
    int64_t optimum = budget + inc * IncrementUsePercent / 100;
    int percent = limits->movesToGo == 1 ? MaximumClockPercentLastMove : MaximumClockPercent;
    int64_t cap = usable * percent / 100;
    /* The hard limit leaves the reserve on the clock; under it, a move spends part of the increment. */
    int64_t refill = max64(0, inc - overhead) * RefillIncrementPercent / 100;
    int64_t spendable = max64(usable - reserve, refill);
    tm->maximum = max64(MinimumThinkMs, min64(min64(optimum * MaximumRatio, cap), spendable));
    tm->optimum = max64(MinimumThinkMs, min64(optimum, tm->maximum));
    if (legalMoves == 1) tm->optimum = min64(tm->optimum, SingleMoveOptimumMs);
}

int64_t tm_soft_limit(const TimeManager *tm, int stability, int scoreDrop, int bestNodesPermille) {
    /* Percent factors, multiplied: less time as the best move stays stable, more as the score drops,
     * less as the best move takes a larger share of the nodes (their ranges follow from SEARCH_PARAMS). */
    int stable = stability < TmStabilityMax ? stability : TmStabilityMax;
    int64_t stabilityFactor = TmStabilityBase - TmStabilityStep * stable;
    int drop = scoreDrop < -TmScoreRiseMax ? -TmScoreRiseMax : scoreDrop > TmScoreDropMax ? TmScoreDropMax : scoreDrop;
    int64_t scoreFactor = 100 + drop / TmScoreDropDivisor;
    int64_t nodeFactor = TmNodeBase - TmNodeScale * (int64_t)bestNodesPermille / 1000;
    int64_t soft = tm->optimum * stabilityFactor / 100 * scoreFactor / 100 * nodeFactor / 100;
    return min64(max64(soft, MinimumThinkMs), tm->maximum);
}
