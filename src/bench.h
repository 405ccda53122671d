/*
 * bench: a fixed-depth search of a fixed list of positions from a fresh
 * engine state (one thread, 16 MB hash, tables cleared per position). The
 * node count is the engine's signature: any change to the search or the
 * evaluation changes it, and it is identical on every run and build.
 */
#ifndef GIZUM_BENCH_H
#define GIZUM_BENCH_H

#include <stdio.h>

enum { BENCH_DEPTH_DEFAULT = 14, BENCH_DEPTH_MAX = 64 };

/* The bench positions (FEN), also used by tests. */
extern const char *const BenchPositions[];
extern const int BenchPositionCount;

/*
 * Searches every position to depth; prints one line per position and ends
 * with "<nodes> nodes <nps> nps". Returns 0, or 1 if memory ran out.
 */
int bench_run(int depth, FILE *out);

#endif
