/*
 * Transposition table shared by every search thread, without locks.
 *
 * An entry is two 64-bit words: the packed data and the key XOR the data
 * (Hyatt's lockless hashing). A reader accepts an entry only if the two
 * words XOR back to the full 64-bit key it looks for, so an entry torn by
 * two threads writing at once is seen as a miss, never as wrong data. The
 * words are relaxed atomics: plain loads and stores on x86, and race-free
 * for the C memory model and ThreadSanitizer.
 *
 * Four entries form a 64-byte bucket (one cache line); replacement prefers
 * the shallowest and oldest entry. Mate scores are stored relative to the
 * node (tt_value_to_tt / tt_value_from_tt) so they stay correct at any ply.
 */
#ifndef GIZUM_TT_H
#define GIZUM_TT_H

#include <stdatomic.h>
#include <stddef.h>

#include "types.h"

enum { BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT };

enum {
    TT_MB_MIN = 1,
    TT_MB_MAX = 65536,
    TT_MB_DEFAULT = 16,
    TT_BUCKET_ENTRIES = 4,
    /* Stored depths are offset so that an empty entry (all zero) has depth byte 0. */
    TT_DEPTH_OFFSET = 8,
    TT_DEPTH_QS = -1,     /* depth stored by quiescence search */
    TT_DEPTH_NONE = -TT_DEPTH_OFFSET
};

typedef struct {
    _Atomic uint64_t keyXorData;
    _Atomic uint64_t data;
} TTEntry;

typedef struct {
    TTEntry entries[TT_BUCKET_ENTRIES];
} TTBucket;

/* What a probe found, decoded. */
typedef struct {
    Move move;
    Value value;     /* still relative to the node: convert with tt_value_from_tt */
    Value eval;
    int depth;
    int bound;
    bool pv;         /* the entry was stored by a PV node */
} TTData;

typedef struct {
    TTBucket *buckets;
    size_t bucketCount;
    size_t bytes;
    uint8_t generation;  /* changed by tt_new_search; only written while no search runs */
} TTable;

/* Clearing threads: TT_CLEAR_ALL_CORES (or any value < 1) uses one per online core. */
enum { TT_CLEAR_ALL_CORES = 0 };

/*
 * (Re)allocates the table to mb megabytes (fresh anonymous memory, huge
 * pages asked for with madvise where the system has them) and clears it
 * with `threads` threads. On failure keeps the previous table and returns
 * false; tt_resize_report also says why in why[size].
 */
bool tt_resize(TTable *tt, size_t mb, int threads);
bool tt_resize_report(TTable *tt, size_t mb, int threads, char *why, size_t size);
void tt_free(TTable *tt);
/* Empties every entry (parallel memset over `threads` threads). */
void tt_clear(TTable *tt, int threads);
/* Starts a new search generation (ages every stored entry by one). */
void tt_new_search(TTable *tt);

/* Looks key up; on a hit fills *out and returns true. */
bool tt_probe(const TTable *tt, Key key, TTData *out);
/* Stores a result; value must already be converted with tt_value_to_tt. */
void tt_store(TTable *tt, Key key, Move move, Value value, Value eval, int depth, int bound, bool pv);
/* Permille of a sample of entries written in the current generation (UCI hashfull). */
int tt_hashfull(const TTable *tt);

/* The bucket of key: the key's high bits scaled to the table size (no modulo, any size). */
static inline TTBucket *tt_bucket_of(const TTable *tt, Key key) {
    return &tt->buckets[(size_t)(((unsigned __int128)key * tt->bucketCount) >> 64)];
}

/* Brings the bucket of key into the cache ahead of the probe. */
static inline void tt_prefetch(const TTable *tt, Key key) {
    __builtin_prefetch(tt_bucket_of(tt, key));
}

/* Mate and tablebase scores become distances from this node before storing... */
static inline Value tt_value_to_tt(Value v, int ply) {
    if (v >= VALUE_TB_WIN_IN_MAX_PLY) return v + ply;
    if (v <= -VALUE_TB_WIN_IN_MAX_PLY) return v - ply;
    return v;
}
/* ...and distances from the root again after probing. */
static inline Value tt_value_from_tt(Value v, int ply) {
    if (v == VALUE_NONE) return VALUE_NONE;
    if (v >= VALUE_TB_WIN_IN_MAX_PLY) return v - ply;
    if (v <= -VALUE_TB_WIN_IN_MAX_PLY) return v + ply;
    return v;
}

#endif
