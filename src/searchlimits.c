#include "searchlimits.h"

#include <string.h>

void search_limits_init(SearchLimits *limits) {
    memset(limits, 0, sizeof *limits);
    limits->time[WHITE] = limits->time[BLACK] = -1;
    limits->multiPV = 1;
    limits->moveOverhead = MOVE_OVERHEAD_DEFAULT;
    strength_disable(&limits->strength);
    limits->tbProbeDepth = TB_PROBE_DEPTH_DEFAULT;
    limits->tbProbeLimit = TB_PROBE_LIMIT_MAX;
    limits->tbRule50 = true;
}
