/*
 * Transposition table: allocation, lockless probe and store, aging.
 */
#include "tt.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pages.h"
#include "platform.h"
#include "searchparams.h"

/*
 * Layout of the data word:
 *   bits  0-15 move, 16-31 value (int16), 32-47 static eval (int16),
 *   48-55 depth + TT_DEPTH_OFFSET (0 = empty), 56-57 bound, 58 pv flag,
 *   59-63 generation.
 */
enum {
    GEN_BITS = 5,
    GEN_CYCLE = 1 << GEN_BITS,
    GEN_MASK = GEN_CYCLE - 1,
    HASHFULL_SAMPLE_BUCKETS = 250,
    /* Tables at least this big are cleared by several threads. */
    PARALLEL_CLEAR_BYTES = 64 << 20
};

static inline uint64_t pack(Move move, Value value, Value eval, int depth, int bound, bool pv, int gen) {
    return (uint64_t)move
         | (uint64_t)(uint16_t)(int16_t)value << 16
         | (uint64_t)(uint16_t)(int16_t)eval << 32
         | (uint64_t)(uint8_t)(depth + TT_DEPTH_OFFSET) << 48
         | (uint64_t)(bound & 3) << 56
         | (uint64_t)(pv ? 1 : 0) << 58
         | (uint64_t)(gen & GEN_MASK) << 59;
}

static inline int data_depth8(uint64_t d) { return (int)((d >> 48) & 0xFF); }
static inline int data_generation(uint64_t d) { return (int)(d >> 59); }

static inline void unpack(uint64_t d, TTData *out) {
    out->move = (Move)(d & 0xFFFF);
    out->value = (int16_t)(uint16_t)(d >> 16);
    out->eval = (int16_t)(uint16_t)(d >> 32);
    out->depth = data_depth8(d) - TT_DEPTH_OFFSET;
    out->bound = (int)((d >> 56) & 3);
    out->pv = (d >> 58) & 1;
}

typedef struct {
    unsigned char *start;
    size_t length;
} ClearJob;

static void *clear_slice(void *arg) {
    ClearJob *job = arg;
    memset(job->start, 0, job->length);
    return NULL;
}

/* Zeroes a block with up to `threads` threads (first-touch also spreads the pages). */
static void parallel_zero(void *mem, size_t bytes, int threads) {
    enum { MAX_CLEAR_THREADS = 64 };
    /* Online cores when the caller leaves the choice to us. */
    if (threads < 1) threads = platform_cpu_count();
    int n = threads > MAX_CLEAR_THREADS ? MAX_CLEAR_THREADS : threads;
    if (bytes < PARALLEL_CLEAR_BYTES) n = 1;
    pthread_t handles[MAX_CLEAR_THREADS];
    bool started[MAX_CLEAR_THREADS] = {false};
    ClearJob jobs[MAX_CLEAR_THREADS];
    /* Slices on huge-page boundaries, so no page is faulted in by two threads. */
    size_t slice = bytes / (size_t)n / HUGE_PAGE_BYTES * HUGE_PAGE_BYTES;
    if (slice == 0) {
        slice = bytes;
        n = 1;
    }
    for (int i = 0; i < n; i++) {
        jobs[i].start = (unsigned char *)mem + slice * (size_t)i;
        jobs[i].length = i == n - 1 ? bytes - slice * (size_t)i : slice;
        /* Slice 0 runs here; a thread that cannot start is done here too. */
        if (i > 0) started[i] = pthread_create(&handles[i], NULL, clear_slice, &jobs[i]) == 0;
    }
    for (int i = 0; i < n; i++)
        if (!started[i]) clear_slice(&jobs[i]);
    for (int i = 1; i < n; i++)
        if (started[i]) pthread_join(handles[i], NULL);
}

bool tt_resize_report(TTable *tt, size_t mb, int threads, char *why, size_t size) {
    char dummy[160];
    if (!why || !size) {
        why = dummy;
        size = sizeof dummy;
    }
    why[0] = '\0';
    if (mb < TT_MB_MIN || mb > TT_MB_MAX) {
        snprintf(why, size, "size must be %d to %d MB", TT_MB_MIN, TT_MB_MAX);
        return false;
    }
    size_t bytes = mb << 20;
    /* A table bigger than the memory we may fill would only swap, or be killed while being cleared. */
    uint64_t usable = platform_memory_bytes();
    if (bytes > usable) {
        snprintf(why, size, "more than the %llu MB of memory available", (unsigned long long)(usable >> 20));
        return false;
    }
    void *mem = pages_alloc(bytes, true);
    if (!mem) {
        snprintf(why, size, "%s", strerror(errno));
        return false;
    }
    parallel_zero(mem, bytes, threads);
    tt_free(tt);
    tt->buckets = mem;
    tt->bytes = bytes;
    tt->bucketCount = bytes / sizeof(TTBucket);
    tt->generation = 0;
    return true;
}

bool tt_resize(TTable *tt, size_t mb, int threads) {
    return tt_resize_report(tt, mb, threads, NULL, 0);
}

void tt_free(TTable *tt) {
    pages_free(tt->buckets, tt->bytes);
    tt->buckets = NULL;
    tt->bucketCount = 0;
    tt->bytes = 0;
}

void tt_clear(TTable *tt, int threads) {
    if (tt->buckets) parallel_zero(tt->buckets, tt->bytes, threads);
    tt->generation = 0;
}

void tt_new_search(TTable *tt) {
    tt->generation = (uint8_t)((tt->generation + 1) & GEN_MASK);
}

bool tt_probe(const TTable *tt, Key key, TTData *out) {
    TTBucket *b = tt_bucket_of(tt, key);
    for (int i = 0; i < TT_BUCKET_ENTRIES; i++) {
        uint64_t data = atomic_load_explicit(&b->entries[i].data, memory_order_relaxed);
        uint64_t check = atomic_load_explicit(&b->entries[i].keyXorData, memory_order_relaxed);
        if ((check ^ data) == key && data_depth8(data) != 0) {
            unpack(data, out);
            return true;
        }
    }
    return false;
}

/* How replaceable an entry is: shallow and old entries go first. */
static inline int entry_worth(uint64_t data, int generation) {
    int age = (GEN_CYCLE + generation - data_generation(data)) & GEN_MASK;
    return data_depth8(data) - TtAgeWeight * age;
}

void tt_store(TTable *tt, Key key, Move move, Value value, Value eval, int depth, int bound, bool pv) {
    TTBucket *b = tt_bucket_of(tt, key);
    int gen = tt->generation;
    TTEntry *victim = NULL;
    uint64_t victimData = 0;
    int victimWorth = 1 << 30;
    for (int i = 0; i < TT_BUCKET_ENTRIES; i++) {
        TTEntry *e = &b->entries[i];
        uint64_t data = atomic_load_explicit(&e->data, memory_order_relaxed);
        uint64_t check = atomic_load_explicit(&e->keyXorData, memory_order_relaxed);
        if ((check ^ data) == key || data_depth8(data) == 0) {
            victim = e;
            victimData = (check ^ data) == key ? data : 0;
            break;
        }
        int worth = entry_worth(data, gen);
        if (worth < victimWorth) {
            victimWorth = worth;
            victim = e;
        }
    }
    if (victimData) {
        /* Same position: keep a deeper result of this search unless the new one is exact. */
        TTData old;
        unpack(victimData, &old);
        if (move == MOVE_NONE) move = old.move;
        if (bound != BOUND_EXACT && data_generation(victimData) == gen
            && depth + TtSameKeyDepthMargin <= old.depth) {
            if (move != old.move) {
                uint64_t d = (victimData & ~(uint64_t)0xFFFF) | move;
                atomic_store_explicit(&victim->data, d, memory_order_relaxed);
                atomic_store_explicit(&victim->keyXorData, key ^ d, memory_order_relaxed);
            }
            return;
        }
    }
    uint64_t d = pack(move, value, eval, depth, bound, pv, gen);
    atomic_store_explicit(&victim->data, d, memory_order_relaxed);
    atomic_store_explicit(&victim->keyXorData, key ^ d, memory_order_relaxed);
}

int tt_hashfull(const TTable *tt) {
    size_t buckets = tt->bucketCount < HASHFULL_SAMPLE_BUCKETS ? tt->bucketCount : HASHFULL_SAMPLE_BUCKETS;
    int used = 0;
    for (size_t i = 0; i < buckets; i++)
        for (int j = 0; j < TT_BUCKET_ENTRIES; j++) {
            uint64_t data = atomic_load_explicit(&tt->buckets[i].entries[j].data, memory_order_relaxed);
            if (data_depth8(data) != 0 && data_generation(data) == tt->generation) used++;
        }
    return buckets ? (int)(used * 1000 / (buckets * TT_BUCKET_ENTRIES)) : 0;
}
