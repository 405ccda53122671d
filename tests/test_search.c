/*
 * In-process tests of the search machinery: the staged move picker returns
 * every move exactly once, the lockless TT (round trips, mate scores, torn
 * writes, replacement, hashfull, resizing), time allocation bounds, and
 * searches through the thread pool (determinism, mates, stalemate, node
 * limits, searchmoves, several threads).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "fen.h"
#include "init.h"
#include "movegen.h"
#include "movepick.h"
#include "notation.h"
#include "search.h"
#include "test.h"
#include "thread.h"
#include "timeman.h"
#include "tt.h"

static Position Pos;
static Histories Hist;

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint64_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* A random candidate for a TT/killer/counter move: legal, junk, or none. */
static Move random_candidate(const MoveList *legal) {
    switch (rng() % 4) {
    case 0: return MOVE_NONE;
    case 1: return (Move)rng();
    default: return legal->count ? legal->moves[rng() % (unsigned)legal->count] : MOVE_NONE;
    }
}

/* Drains a picker; it must return exactly the expected set, each move once. */
static void check_picker(MovePicker *mp, const MoveList *expected, const char *what, Property *prop) {
    int seen[MAX_MOVES] = {0}, extra = 0, total = 0;
    Move m;
    while ((m = movepick_next(mp)) != MOVE_NONE && total < 2 * MAX_MOVES) {
        total++;
        int found = -1;
        for (int i = 0; i < expected->count; i++)
            if (expected->moves[i] == m) found = i;
        if (found < 0) extra++;
        else seen[found]++;
    }
    int missing = 0, doubled = 0;
    for (int i = 0; i < expected->count; i++) {
        missing += seen[i] == 0;
        doubled += seen[i] > 1;
    }
    EXPECT(prop, !extra && !missing && !doubled, "%s: %d unexpected, %d missing, %d repeated moves", what, extra,
           missing, doubled);
}

/* Fills the histories with noise so that ordering is exercised. */
static void randomize_histories(void) {
    int16_t *raw = (int16_t *)&Hist.butterfly;
    for (size_t i = 0; i < sizeof Hist.butterfly / 2; i++) raw[i] = (int16_t)(rng() % 2001) - 1000;
    raw = (int16_t *)&Hist.capture;
    for (size_t i = 0; i < sizeof Hist.capture / 2; i++) raw[i] = (int16_t)(rng() % 2001) - 1000;
}

static void test_movepicker(void) {
    randomize_histories();
    int positions = 0;
    /* One check per picker over every position and four random sets of TT/killer/counter moves each. */
    Property mainPicker = {0}, qsPicker = {0};
    for (int p = 0; p < BenchPositionCount; p++) {
        char err[128];
        if (!pos_set_fen(&Pos, BenchPositions[p], false, err, sizeof err)) continue;
        /* A short random walk from each bench position visits checks, promotions, en passant... */
        for (int step = 0; step < 24; step++) {
            MoveList legal, noisy;
            gen_legal(&Pos, &legal);
            if (legal.count == 0) break;
            if (pos_in_check(&Pos)) noisy = legal;
            else gen_noisy(&Pos, &noisy);
            char fen[128];
            pos_get_fen(&Pos, fen);
            for (int trial = 0; trial < 4; trial++) {
                MovePicker mp;
                Move killers[2] = {random_candidate(&legal), random_candidate(&legal)};
                const PieceToHistory *table = &Hist.continuation[rng() % PIECE_NB][rng() % SQUARE_NB];
                const PieceToHistory *cont[CONT_PLIES];
                for (int k = 0; k < CONT_PLIES; k++) cont[k] = k == 0 || (trial >> (k - 1) & 1) ? table : NULL;
                movepick_init(&mp, &Pos, &Hist, random_candidate(&legal), killers, random_candidate(&legal), cont,
                              pos_threats(&Pos));
                check_picker(&mp, &legal, fen, &mainPicker);
                movepick_init_qsearch(&mp, &Pos, &Hist, random_candidate(&legal), cont);
                check_picker(&mp, &noisy, fen, &qsPicker);
            }
            /* skipQuiets from the start: noisy moves and quiet checks only. */
            MovePicker mp;
            Move none[2] = {MOVE_NONE, MOVE_NONE};
            movepick_init(&mp, &Pos, &Hist, MOVE_NONE, none, MOVE_NONE, NULL, 0);
            mp.skipQuiets = true;
            Move m;
            int quiets = 0;
            while ((m = movepick_next(&mp)) != MOVE_NONE)
                quiets += !pos_is_capture_or_promotion(&Pos, m) && !pos_gives_check(&Pos, m);
            if (!pos_in_check(&Pos))
                CHECK_EACH(quiets == 0, "skipQuiets: %d quiet non-checking moves returned at %s", quiets, fen);
            pos_do_move(&Pos, legal.moves[rng() % (unsigned)legal.count]);
            positions++;
        }
    }
    CHECK_PROPERTY(&mainPicker);
    CHECK_PROPERTY(&qsPicker);
    CHECK(positions > 500, "move picker: only %d positions", positions);
}

static void test_tt(void) {
    TTable tt = {0};
    CHECK(tt_resize(&tt, 1, 1), "tt_resize 1 MB");
    CHECK(tt.bucketCount == (1u << 20) / sizeof(TTBucket), "bucket count %zu", tt.bucketCount);
    CHECK(sizeof(TTBucket) == 64, "bucket is %zu bytes", sizeof(TTBucket));
    CHECK(!tt_resize(&tt, 0, 1) && !tt_resize(&tt, TT_MB_MAX + 1, 1), "out-of-range sizes accepted");
    CHECK(tt.buckets != NULL && tt.bytes == 1u << 20, "failed resize lost the table");

    tt_new_search(&tt);
    Key key = 0x123456789ABCDEF0ULL;
    TTData d;
    CHECK(!tt_probe(&tt, key, &d), "probe hit in an empty table");
    Move m = make_move(E2, E4);
    tt_store(&tt, key, m, 57, -12, 9, BOUND_LOWER, true);
    CHECK(tt_probe(&tt, key, &d) && d.move == m && d.value == 57 && d.eval == -12 && d.depth == 9
              && d.bound == BOUND_LOWER && d.pv,
          "round trip: move %d value %d eval %d depth %d bound %d", d.move, d.value, d.eval, d.depth, d.bound);
    CHECK(!tt_probe(&tt, key ^ 1, &d), "a different key hit");
    tt_store(&tt, key, MOVE_NONE, -3, VALUE_NONE, TT_DEPTH_QS, BOUND_UPPER, false);
    CHECK(tt_probe(&tt, key, &d) && d.depth == 9 && d.value == 57, "a shallow result overwrote a deep one of the same search");
    tt_store(&tt, key, MOVE_NONE, 11, VALUE_NONE, 10, BOUND_EXACT, false);
    CHECK(tt_probe(&tt, key, &d) && d.move == m && d.value == 11 && d.eval == VALUE_NONE, "the old move must survive a move-less store");

    /* Mate scores are stored relative to the node and come back relative to the root. */
    Value mate = mate_in(7);
    tt_store(&tt, key + 1, MOVE_NONE, tt_value_to_tt(mate, 3), 0, 5, BOUND_EXACT, false);
    CHECK(tt_probe(&tt, key + 1, &d) && tt_value_from_tt(d.value, 3) == mate && tt_value_from_tt(d.value, 5) == mate_in(9),
          "mate score adjustment");
    CHECK(tt_value_from_tt(tt_value_to_tt(mated_in(10), 4), 4) == mated_in(10), "mated score round trip");

    /* A torn entry (one word from another write) is a miss, never wrong data. */
    size_t index = (size_t)(((unsigned __int128)key * tt.bucketCount) >> 64);
    TTBucket *b = &tt.buckets[index];
    int slot = -1;
    for (int i = 0; i < TT_BUCKET_ENTRIES; i++)
        if ((atomic_load(&b->entries[i].keyXorData) ^ atomic_load(&b->entries[i].data)) == key) slot = i;
    CHECK(slot >= 0, "stored entry not found in its bucket");
    if (slot >= 0) {
        atomic_store(&b->entries[slot].data, atomic_load(&b->entries[slot].data) ^ (1ULL << 20));
        CHECK(!tt_probe(&tt, key, &d), "torn entry accepted");
    }

    /* Replacement: a full bucket keeps its deepest entries and drops the shallowest. */
    tt_clear(&tt, 1);
    tt_new_search(&tt);
    Key base = 0xF00DULL << 40;
    Key same[TT_BUCKET_ENTRIES + 2];
    int n = 0;
    for (Key k = base; n < TT_BUCKET_ENTRIES + 2; k++)
        if ((size_t)(((unsigned __int128)k * tt.bucketCount) >> 64) == (size_t)(((unsigned __int128)base * tt.bucketCount) >> 64))
            same[n++] = k;
    for (int i = 0; i < TT_BUCKET_ENTRIES; i++) tt_store(&tt, same[i], MOVE_NONE, 0, 0, 10 + i, BOUND_EXACT, false);
    tt_store(&tt, same[TT_BUCKET_ENTRIES], MOVE_NONE, 0, 0, 30, BOUND_EXACT, false);
    CHECK(!tt_probe(&tt, same[0], &d), "the shallowest entry survived replacement");
    CHECK(tt_probe(&tt, same[TT_BUCKET_ENTRIES], &d) && tt_probe(&tt, same[3], &d), "replacement lost a deep entry");
    /* Old generations are replaced first: three searches later a fresh entry of depth 1
     * outlives the old ones of depth 11-30 (by depth alone it would go first). */
    for (int g = 0; g < 3; g++) tt_new_search(&tt);
    tt_store(&tt, same[0], MOVE_NONE, 0, 0, 1, BOUND_EXACT, false);
    tt_store(&tt, same[TT_BUCKET_ENTRIES + 1], MOVE_NONE, 0, 0, 2, BOUND_EXACT, false);
    CHECK(tt_probe(&tt, same[0], &d) && tt_probe(&tt, same[TT_BUCKET_ENTRIES + 1], &d),
          "an aged bucket evicted a fresh entry before its old ones");
    int old = 0;
    for (int i = 1; i <= TT_BUCKET_ENTRIES; i++) old += tt_probe(&tt, same[i], &d);
    CHECK(old == TT_BUCKET_ENTRIES - 2, "%d old entries left in a bucket with two fresh ones", old);

    /* hashfull counts the current generation only. */
    tt_clear(&tt, 2);
    tt_new_search(&tt);
    CHECK(tt_hashfull(&tt) == 0, "hashfull of an empty table: %d", tt_hashfull(&tt));
    for (uint64_t i = 0; i < tt.bucketCount * TT_BUCKET_ENTRIES; i++)
        tt_store(&tt, rng(), MOVE_NONE, 0, 0, 5, BOUND_EXACT, false);
    int full = tt_hashfull(&tt);
    CHECK(full > 500 && full <= 1000, "hashfull after filling: %d", full);
    tt_new_search(&tt);
    CHECK(tt_hashfull(&tt) == 0, "hashfull counts old entries: %d", tt_hashfull(&tt));
    CHECK(tt_resize(&tt, 3, 2) && tt.bytes == 3u << 20, "resize to 3 MB");
    tt_free(&tt);
}

static void test_timeman(void) {
    SearchLimits limits;
    TimeManager tm;
    static const int64_t Clocks[] = {0, 1, 20, 50, 100, 500, 1000, 3000, 10000, 60000, 600000, 10800000};
    static const int64_t Incs[] = {0, 10, 100, 1000, 5000};
    static const int Mtgs[] = {0, 1, 2, 5, 40, 100};
    static const int Overheads[] = {0, 10, 100};
    /* A grid of clock settings: each bound is one check over the whole grid, naming the first breach. */
    Property ordered = {0}, hardLimit = {0}, suddenDeath = {0}, softLimit = {0};
    for (size_t a = 0; a < sizeof Clocks / sizeof Clocks[0]; a++)
        for (size_t b = 0; b < sizeof Incs / sizeof Incs[0]; b++)
            for (size_t c = 0; c < sizeof Mtgs / sizeof Mtgs[0]; c++)
                for (size_t o = 0; o < sizeof Overheads / sizeof Overheads[0]; o++) {
                    search_limits_init(&limits);
                    limits.time[BLACK] = Clocks[a];
                    limits.inc[BLACK] = Incs[b];
                    limits.movesToGo = Mtgs[c];
                    limits.settings.moveOverhead = Overheads[o];
                    tm_init(&tm, &limits, BLACK, 30, 0);
                    int64_t usable = Clocks[a] - Overheads[o];
                    EXPECT(&ordered, tm.active && tm.optimum >= 1 && tm.optimum <= tm.maximum,
                           "clock %lld: optimum %lld maximum %lld", (long long)Clocks[a], (long long)tm.optimum,
                           (long long)tm.maximum);
                    /* The hard limit never eats the clock (1 ms floor when nothing is left). */
                    EXPECT(&hardLimit, tm.maximum <= (usable > 1 ? usable : 1),
                           "clock %lld inc %lld mtg %d overhead %d: maximum %lld", (long long)Clocks[a],
                           (long long)Incs[b], Mtgs[c], Overheads[o], (long long)tm.maximum);
                    if (Mtgs[c] != 1 && usable > 0)
                        EXPECT(&suddenDeath, tm.maximum <= usable / 2 + 1, "sudden death: maximum %lld of %lld",
                               (long long)tm.maximum, (long long)usable);
                    for (int st = 0; st <= 10; st += 5)
                        for (int drop = -100; drop <= 200; drop += 150)
                            for (int share = 0; share <= 1000; share += 500) {
                                int64_t soft = tm_soft_limit(&tm, st, drop, share);
                                EXPECT(&softLimit, soft >= 1 && soft <= tm.maximum,
                                       "clock %lld: soft limit %lld outside 1..%lld", (long long)Clocks[a],
                                       (long long)soft, (long long)tm.maximum);
                            }
                }
    CHECK_PROPERTY(&ordered);
    CHECK_PROPERTY(&hardLimit);
    CHECK_PROPERTY(&suddenDeath);
    CHECK_PROPERTY(&softLimit);
    /* More time when unstable or losing ground; less when settled. */
    search_limits_init(&limits);
    limits.time[WHITE] = 60000;
    tm_init(&tm, &limits, WHITE, 30, 0);
    CHECK(tm_soft_limit(&tm, 0, 50, 300) > tm_soft_limit(&tm, 8, 0, 300), "instability must earn time");
    CHECK(tm_soft_limit(&tm, 3, 80, 500) > tm_soft_limit(&tm, 3, 0, 500), "a score drop must earn time");
    CHECK(tm_soft_limit(&tm, 3, 0, 950) < tm_soft_limit(&tm, 3, 0, 300), "a clear best move must save time");
    /* movetime and no clock. */
    search_limits_init(&limits);
    limits.moveTime = 500;
    tm_init(&tm, &limits, WHITE, 30, 0);
    CHECK(tm.active && tm.maximum == 490 && tm.optimum == 490, "movetime 500: %lld/%lld", (long long)tm.optimum,
          (long long)tm.maximum);
    search_limits_init(&limits);
    limits.depth = 5;
    tm_init(&tm, &limits, WHITE, 30, 0);
    CHECK(!tm.active, "depth limit turned the clock on");
    int64_t t0 = tm_now();
    CHECK(t0 > 0 && tm_now() >= t0, "monotonic clock");
}

/*
 * Issue #38: games on a simulated clock at Move Overhead 10, pessimistic by
 * design: every move takes its whole hard limit (or, in long sudden-death
 * games, its optimum), the reply comes `latency` ms after that, and every
 * tenth reply is `late` ms later still (a loaded machine). The clock must
 * never run out. The time manager before the reserve (3113d53) lost each of
 * the first seven, at moves 10, 10, 20, 125, 56, 90 and 40; the last needs
 * the reserve to grow with the stalls the searches have seen.
 */
static void test_clock_games(void) {
    typedef struct {
        const char *name;
        int64_t base, inc;      /* ms */
        int period;             /* moves per period, 0 = the whole game */
        bool optimum;           /* each move takes its optimum, not its maximum */
        int64_t latency, late;  /* ms after the limit; ms more every tenth move */
        int moves;
        bool seen;              /* the searches see the machine stall as long as `late` (tm_note_stall) */
    } ClockGame;
    static const ClockGame Games[] = {
        {"10s+0.1s, maximum, +10 ms, every tenth +150 ms", 10000, 100, 0, false, 10, 150, 300, false},
        {"3s+0.03s, maximum, +10 ms, every tenth +50 ms", 3000, 30, 0, false, 10, 50, 300, false},
        {"1s+0.01s, maximum, +5 ms, every tenth +40 ms", 1000, 10, 0, false, 5, 40, 300, false},
        {"10s sudden death, optimum, +5 ms, 150 moves", 10000, 0, 0, true, 5, 0, 150, false},
        {"10s sudden death, maximum, +5 ms, 100 moves", 10000, 0, 0, false, 5, 0, 100, false},
        {"1s sudden death, optimum, +2 ms, every tenth +20 ms, 120 moves", 1000, 0, 0, true, 2, 20, 120, false},
        {"40 moves in 10s, maximum, +5 ms, every tenth +40 ms", 10000, 0, 40, false, 5, 40, 200, false},
        {"10s+0.1s, maximum, +10 ms, every tenth +400 ms, stalls seen", 10000, 100, 0, false, 10, 400, 300, true},
    };
    for (size_t g = 0; g < sizeof Games / sizeof Games[0]; g++) {
        const ClockGame *c = &Games[g];
        int64_t clock = c->base, lowest = c->base, stall = 0;
        int lost = 0;
        for (int move = 0; move < c->moves && !lost; move++) {
            SearchLimits limits;
            TimeManager tm;
            search_limits_init(&limits);
            limits.time[WHITE] = clock;
            limits.inc[WHITE] = c->inc;
            limits.movesToGo = c->period ? c->period - move % c->period : 0;
            tm_init(&tm, &limits, WHITE, 30, stall);
            if (c->seen) stall = tm_note_stall(stall, c->late);
            clock -= (c->optimum ? tm.optimum : tm.maximum) + c->latency + (move % 10 == 9 ? c->late : 0);
            if (clock < lowest) lowest = clock;
            if (clock < 0) lost = move + 1;
            clock += c->inc + (c->period && (move + 1) % c->period == 0 ? c->base : 0);
        }
        CHECK(!lost, "%s: lost on time at move %d", c->name, lost);
        if (!lost) printf("clock game %s: lowest clock at a move %lld ms\n", c->name, (long long)lowest);
    }
}

static void test_value_text(void) {
    char buf[32];
    value_to_uci(37, buf);
    CHECK(!strcmp(buf, "cp 37"), "%s", buf);
    value_to_uci(mate_in(1), buf);
    CHECK(!strcmp(buf, "mate 1"), "%s", buf);
    value_to_uci(mate_in(5), buf);
    CHECK(!strcmp(buf, "mate 3"), "%s", buf);
    value_to_uci(mated_in(0), buf);
    CHECK(!strcmp(buf, "mate 0"), "%s", buf);
    value_to_uci(mated_in(4), buf);
    CHECK(!strcmp(buf, "mate -2"), "%s", buf);
}

/* Runs one silent search and returns the pool's result. */
static Move run_search(ThreadPool *pool, const char *fen, SearchLimits *limits, uint64_t *nodes, Value *score) {
    char err[128];
    if (!pos_set_fen(&Pos, fen, false, err, sizeof err)) {
        CHECK(false, "bad test FEN %s: %s", fen, err);
        return MOVE_NONE;
    }
    SearchResult result = threads_search(pool, &Pos, limits);
    if (nodes) *nodes = threads_nodes(pool);
    if (score) *score = result.score;
    return result.bestMove;
}

static void test_searches(void) {
    TTable tt = {0};
    CHECK(tt_resize(&tt, 8, 1), "tt 8 MB");
    ThreadPool *pool = threads_create(1, &tt);
    CHECK(pool != NULL, "thread pool");
    if (!pool) return;
    SearchLimits limits;
    const char *kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    /* Determinism: same state, same search. */
    uint64_t n1, n2;
    Move m1, m2;
    for (int rep = 0; rep < 2; rep++) {
        tt_clear(&tt, 1);
        threads_clear(pool);
        search_limits_init(&limits);
        limits.depth = 9;
        Move m = run_search(pool, kiwi, &limits, rep ? &n2 : &n1, NULL);
        if (rep) m2 = m;
        else m1 = m;
    }
    CHECK(n1 == n2 && m1 == m2 && n1 > 0, "depth 9 twice: %llu vs %llu nodes", (unsigned long long)n1, (unsigned long long)n2);

    /* Node limit with one thread: exactly that many nodes. */
    search_limits_init(&limits);
    limits.nodes = 12345;
    run_search(pool, kiwi, &limits, &n1, NULL);
    CHECK(n1 == 12345, "go nodes 12345 searched %llu", (unsigned long long)n1);

    /* Mate in 2 and being mated. */
    Value score;
    search_limits_init(&limits);
    limits.depth = 6;
    Move m = run_search(pool, "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 12", &limits, NULL, &score);
    CHECK(m == make_move(D5, D8) && score == mate_in(3), "mate in 2: move %d score %d", m, score);

    /* Stalemate and checkmate at the root: no move. */
    search_limits_init(&limits);
    limits.depth = 3;
    m = run_search(pool, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", &limits, NULL, NULL);
    CHECK(m == MOVE_NONE, "stalemate: a move was returned");
    m = run_search(pool, "3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1", &limits, NULL, NULL);
    CHECK(m == MOVE_NONE, "checkmate: a move was returned");

    /* searchmoves. */
    search_limits_init(&limits);
    limits.depth = 6;
    limits.searchMoves[0] = make_move(A2, A3);
    limits.searchMovesCount = 1;
    m = run_search(pool, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &limits, NULL, NULL);
    CHECK(m == make_move(A2, A3), "searchmoves a2a3: got %d", m);

    /* Deep searches stay within MAX_PLY (a long forced line: bare kings and a pawn race). */
    search_limits_init(&limits);
    limits.depth = MAX_PLY - 1;
    limits.nodes = 400000;
    m = run_search(pool, "8/8/8/3k4/8/8/8/3K4 w - - 0 1", &limits, NULL, &score);
    CHECK(m != MOVE_NONE && score == 0, "bare kings: score %d", score);
    search_limits_init(&limits);
    limits.depth = MAX_PLY - 1;
    limits.nodes = 300000;
    m = run_search(pool, "k7/p1p5/P1P5/8/8/8/8/K7 w - - 0 1", &limits, NULL, &score);
    CHECK(m != MOVE_NONE, "locked pawns at depth %d: no move", MAX_PLY - 1);

    /* Several threads: a legal move, and resizing the pool while idle. */
    CHECK(threads_set_count(pool, 3), "3 threads");
    search_limits_init(&limits);
    limits.depth = 8;
    m = run_search(pool, kiwi, &limits, &n1, NULL);
    MoveList legal;
    gen_legal(&Pos, &legal);
    CHECK(movelist_contains(&legal, m), "3 threads: illegal move %d", m);
    for (int i = 0; i < pool->count; i++)
        CHECK_EACH(atomic_load(&pool->threads[i]->worker->nodes) > 0 && pool->threads[i]->worker->completedDepth > 0,
                   "3 threads: thread %d did not search", i);
    for (int i = 0; i < 20; i++) {
        search_limits_init(&limits);
        limits.depth = 1 + i % 4;
        m = run_search(pool, BenchPositions[i], &limits, NULL, NULL);
        gen_legal(&Pos, &legal);
        CHECK_EACH(legal.count == 0 ? m == MOVE_NONE : movelist_contains(&legal, m), "3 threads, bench %d: bad move",
                   i + 1);
        CHECK_EACH(threads_set_count(pool, 1 + (i * 7) % 5), "resize pool to %d", 1 + (i * 7) % 5);
    }
    CHECK(!threads_set_count(pool, 0) && !threads_set_count(pool, THREADS_MAX + 1), "bad thread counts accepted");
    threads_destroy(pool);
    tt_free(&tt);
}

int main(void) {
    engine_init();
    test_value_text();
    test_movepicker();
    test_tt();
    test_timeman();
    test_clock_games();
    test_searches();
    return test_report();
}
