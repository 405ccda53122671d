/*
 * Playing strength limits: UCI_LimitStrength + UCI_Elo, and Skill Level.
 *
 * A weaker Gizum still plays chess: it searches shallower and fewer nodes,
 * looks at several root lines (MultiPV), and then picks among the lines
 * close to the best one, each line's score raised by a random bonus. The
 * choice never goes further below the best line than a margin that grows
 * as the level drops, and never into a line that gets mated when another
 * does not. Every number comes from one calibration table (strength.c),
 * interpolated between Elo anchors.
 */
#ifndef GIZUM_STRENGTH_H
#define GIZUM_STRENGTH_H

#include <stdint.h>

#include "types.h"

enum {
    /* UCI_Elo range: the same lower end as Stockfish 15.1, whose levels it is calibrated against. */
    STRENGTH_ELO_MIN = 1350,
    /* The top of the range is full strength (no limit): it is about where full-strength
     * Gizum measures on Stockfish's UCI_Elo scale (docs/results.md, "Strength"). */
    STRENGTH_ELO_MAX = 2450,
    SKILL_LEVEL_MAX = 20,            /* Skill Level 20 = full strength */
    STRENGTH_LINES_MAX = 8           /* most root lines a level ever compares */
};

/* What one level does to a search. enabled == false: full strength, nothing limited. */
typedef struct {
    bool enabled;
    int elo;             /* the level as an Elo rating (also for Skill Level) */
    int depth;           /* deepest iteration */
    uint64_t nodes;      /* node budget per move */
    int lines;           /* root lines searched and compared */
    int marginCp;        /* never a move more than this below the best line */
    int noiseCp;         /* each line's score gets a random bonus in 0..noiseCp */
} StrengthLevel;

/* The level for UCI_Elo; elo >= STRENGTH_ELO_MAX gives full strength. */
void strength_from_elo(int elo, StrengthLevel *out);
/* The level for Skill Level 0..20: Elo spread evenly over the range; 20 is full strength. */
void strength_from_skill(int skill, StrengthLevel *out);
/* Full strength (the default). */
void strength_disable(StrengthLevel *out);

/*
 * Chooses among the root lines of the last completed iteration (moves and
 * scores, best first) with the level's margin and noise; seed makes the
 * choice reproducible. Returns moves[0] when the level is disabled.
 */
Move strength_pick(const StrengthLevel *level, const Move *moves, const Value *scores, int count, uint64_t seed);

#endif
