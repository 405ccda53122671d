/*
 * Strength levels: the calibration table, its interpolation, and the
 * randomised choice among near-best root moves.
 */
#include "strength.h"

#include <math.h>

/*
 * The calibration table: one row per Elo anchor, each set so that Gizum at
 * that UCI_Elo scores about even against Stockfish 15.1 at the same
 * UCI_Elo (measure/calibrate_strength.sh measures a row; the figures and
 * how the rows came to be are in docs/strength.md and docs/results.md).
 * Levels in between are interpolated (nodes geometrically, the rest
 * linearly). UCI_Elo at STRENGTH_ELO_MAX or above is full strength; the
 * last row is what a level just below it plays like.
 */
typedef struct {
    int elo;
    int depth;       /* deepest iteration */
    int nodes;       /* node budget per move */
    int lines;       /* root lines compared */
    int marginCp;    /* largest loss accepted against the best line */
    int noiseCp;     /* random bonus per line, 0..noise */
} StrengthAnchor;

static const StrengthAnchor Anchors[] = {
    /* elo   depth  nodes     lines margin noise */
    {1350,   3,     3000,     4,    130,   110},
    {1700,   6,     10000,    3,    60,    40},
    {2000,   9,     40000,    2,    25,    20},
    {2200,   12,    300000,   1,    0,     0},
    {2350,   15,    800000,   1,    0,     0},
    {STRENGTH_ELO_MAX, 24, 8000000, 1, 0, 0},
};
enum { ANCHOR_COUNT = sizeof Anchors / sizeof Anchors[0] };

static int lerp(int a, int b, int num, int den) { return a + (b - a) * num / den; }

void strength_disable(StrengthLevel *out) {
    *out = (StrengthLevel){.enabled = false, .elo = STRENGTH_ELO_MAX, .depth = MAX_PLY - 1, .lines = 1};
}

void strength_from_elo(int elo, StrengthLevel *out) {
    if (elo >= STRENGTH_ELO_MAX) {
        strength_disable(out);
        return;
    }
    if (elo < STRENGTH_ELO_MIN) elo = STRENGTH_ELO_MIN;
    int i = 0;
    while (i + 2 < ANCHOR_COUNT && elo >= Anchors[i + 1].elo) i++;
    const StrengthAnchor *lo = &Anchors[i], *hi = &Anchors[i + 1];
    int num = elo - lo->elo, den = hi->elo - lo->elo;
    double frac = (double)num / den;
    *out = (StrengthLevel){.enabled = true, .elo = elo};
    out->depth = lerp(lo->depth, hi->depth, num, den);
    out->nodes = (uint64_t)llround(exp(log(lo->nodes) + frac * (log(hi->nodes) - log(lo->nodes))));
    out->lines = lerp(lo->lines, hi->lines, num, den);
    out->marginCp = lerp(lo->marginCp, hi->marginCp, num, den);
    out->noiseCp = lerp(lo->noiseCp, hi->noiseCp, num, den);
    if (out->lines > STRENGTH_LINES_MAX) out->lines = STRENGTH_LINES_MAX;
}

void strength_from_skill(int skill, StrengthLevel *out) {
    if (skill >= SKILL_LEVEL_MAX) {
        strength_disable(out);
        return;
    }
    if (skill < 0) skill = 0;
    strength_from_elo(STRENGTH_ELO_MIN + (STRENGTH_ELO_MAX - STRENGTH_ELO_MIN) * skill / SKILL_LEVEL_MAX, out);
}

/* SplitMix64: a well-mixed stream from any seed. */
static uint64_t splitmix(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

Move strength_pick(const StrengthLevel *level, const Move *moves, const Value *scores, int count, uint64_t seed) {
    if (count <= 0) return MOVE_NONE;
    if (!level->enabled || count == 1) return moves[0];
    Value best = scores[0];
    uint64_t state = seed;
    int chosen = 0;
    int64_t chosenKey = INT64_MIN;
    for (int i = 0; i < count && i < STRENGTH_LINES_MAX; i++) {
        Value s = scores[i];
        if (s == -VALUE_INFINITE || s == VALUE_NONE) continue;
        /* Never into a mate that the best line avoids, nor beyond the margin. */
        if (s <= VALUE_MATED_IN_MAX_PLY && best > VALUE_MATED_IN_MAX_PLY) continue;
        if ((int64_t)best - s > level->marginCp) continue;
        int64_t key = (int64_t)s + (int64_t)(splitmix(&state) % (uint64_t)(level->noiseCp + 1));
        if (key > chosenKey) {
            chosenKey = key;
            chosen = i;
        }
    }
    return moves[chosen];
}
