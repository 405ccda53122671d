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

void search_limits_apply_strength(SearchLimits *limits) {
    const StrengthLevel *level = &limits->strength;
    if (!level->enabled) return;
    if (limits->multiPV < level->lines) limits->multiPV = level->lines;
    if (limits->depth == 0 || limits->depth > level->depth) limits->depth = level->depth;
    if (limits->nodes == 0 || limits->nodes > level->nodes) limits->nodes = level->nodes;
}
