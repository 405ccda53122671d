/*
 * bench: a fixed-depth search of a fixed list of positions from a fresh
 * engine state (one thread, 16 MB hash, tables cleared per position). The
 * node count is the engine's signature: any change to the search or the
 * evaluation changes it, and it is identical on every run and build.
 */
#ifndef GIZUM_BENCH_H
#define GIZUM_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "search.h"

enum { BENCH_DEPTH_DEFAULT = 14, BENCH_DEPTH_MAX = 64 };

/* The bench positions (FEN), also used by tests. */
extern const char *const BenchPositions[];
extern const int BenchPositionCount;

/*
 * Searches every position to depth; prints one line per position and ends
 * with "<nodes> nodes <nps> nps". withStats (statistics build only) adds
 * the search statistics per iteration and in total before that line.
 * Returns 0, or 1 if memory ran out.
 */
int bench_run(int depth, bool withStats, FILE *out);

/* One line of the main statistics (node types, first-move cutoffs, TT), for bench and UCI debug. */
void bench_stats_summary(const SearchStats *stats, char *out, size_t size);

#endif
