#include "searchlimits.h"

#include <string.h>

const SearchSettings SearchSettingsDefault = {
    .multiPV = MULTIPV_DEFAULT,
    .moveOverhead = MOVE_OVERHEAD_DEFAULT,
    .tbProbeDepth = TB_PROBE_DEPTH_DEFAULT,
    .tbProbeLimit = TB_PROBE_LIMIT_MAX,
    .tbRule50 = TB_RULE50_DEFAULT,
};

void search_limits_init(SearchLimits *limits) {
    memset(limits, 0, sizeof *limits);
    limits->time[WHITE] = limits->time[BLACK] = -1;
    limits->settings = SearchSettingsDefault;
    strength_disable(&limits->strength);
}

void search_limits_apply_strength(SearchLimits *limits) {
    const StrengthLevel *level = &limits->strength;
    if (!level->enabled) return;
    if (limits->settings.multiPV < level->lines) limits->settings.multiPV = level->lines;
    if (limits->depth == 0 || limits->depth > level->depth) limits->depth = level->depth;
    if (limits->nodes == 0 || limits->nodes > level->nodes) limits->nodes = level->nodes;
}
