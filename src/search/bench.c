/*
 * bench: fixed positions, fixed depth, fresh state, deterministic node count.
 */
#include "bench.h"
#include "fen.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "notation.h"
#include "progress.h"
#include "search.h"
#include "thread.h"
#include "timeman.h"
#include "tt.h"

/* Openings, middlegames from our own self-play, endgames, and tactics. */
const char *const BenchPositions[] = {
    /* openings */
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4",
    "rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6",
    "rnbqkb1r/ppp2ppp/4pn2/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 2 4",
    "rnbq1rk1/ppp1ppbp/3p1np1/8/2PPP3/2N2N2/PP3PPP/R1BQKB1R w KQ - 1 6",
    "rnbqk1nr/ppp2ppp/4p3/3p4/1b1PP3/2N5/PPP2PPP/R1BQKBNR w KQkq - 2 4",
    "rn1qkbnr/pp2pppp/2p5/5b2/3PN3/8/PPP2PPP/R1BQKBNR w KQkq - 1 5",
    "rnbqkb1r/ppppp1pp/5n2/5p2/2PP4/6P1/PP2PP1P/RNBQKBNR b KQkq - 0 3",
    /* middlegames */
    "r3k1nr/1p2bpp1/pqn1p3/3pP1p1/3P1B2/1PP4P/2QNBPP1/R4RK1 w kq - 0 17",
    "r2q3k/1bpnn1br/pp1p3p/5p2/P2P4/3BB2Q/1PPN2PP/4RRK1 w - - 5 17",
    "r2q1r1k/p2nbp2/1p2b2p/3pP3/2pP3P/2PB1NQ1/P1P3P1/1R3R1K w - - 0 17",
    "2r2rk1/1pq1b1pp/p1n1p3/3pPp1b/PP3Pn1/2PB1N2/2N3PP/R1B1QR1K w - - 2 17",
    "5rk1/1pqb1pbp/5np1/3P4/8/2N2N2/rP3PPP/2BQ1RK1 w - - 0 17",
    "r1bqk1r1/5ppp/np1p1n2/p1pPpP2/P1P1P3/2NBQ1RP/1P2N1P1/R5K1 w q - 6 17",
    "r1b2rk1/1p1nqpb1/2n3pp/p3p3/8/P1N1PN1P/1P1QBPPB/R4RK1 w - - 1 17",
    "r2q1rk1/3b3p/1p2pb2/nP1p1p2/P3np2/2PBPN2/1B1NQ1PP/R1R3K1 w - - 0 19",
    "r3nrk1/1q3pbp/bn1p4/2pPpNP1/1p2P2P/2P5/1P3PB1/R1BQK2R w KQ - 1 19",
    "r1b2rk1/pp2qnpp/n1p5/5p2/2PNp3/4Q1P1/PB2PPBP/1R3RK1 w - - 8 19",
    "4rrk1/1p1q2pp/p1nbp1p1/P1p5/2Pp2P1/1Q1P3P/1P1BPPB1/R3K2R w KQ - 0 19",
    "r5kr/pp4b1/2p1N1pp/8/2n2Bb1/2N5/PPP3PP/2K1R2R b - - 1 19",
    "2kr4/p1prnppp/1pn1p3/8/1PP5/3qPNP1/P4PBP/2R1QRK1 b - - 0 19",
    "3r1rk1/1b2qpp1/2n1p2p/p1pnP3/Pp2N3/1P1B1N1P/2PQ1PP1/R3R1K1 b - - 0 19",
    "r2r2k1/3n1pp1/p3p2p/P1qn4/1pN5/3B3P/1PP2PP1/R2RQ1K1 b - - 2 19",
    "3q1nk1/3rb1p1/1p2p2p/pN2p3/2PpP1Q1/PP1P1N1P/6P1/1R4K1 b - - 3 26",
    "2rq1Rk1/p1nn3p/1p4pP/2p1P1N1/2Pp4/P3P3/2QP3N/1R4K1 b - - 0 26",
    "2k1r1B1/pp1b4/1bp4p/4qpp1/1P1N4/4P3/P2Q2PP/R4RK1 b - - 0 26",
    /* endgames */
    "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
    "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1",
    "4k3/8/3K4/3P4/8/8/8/r6R b - - 0 1",
    "8/8/8/2k5/8/8/3r4/K2Q4 w - - 0 1",
    "8/5pk1/6p1/8/R7/6P1/r4PK1/8 w - - 0 1",
    "8/4k3/2p1p3/1pPpPp2/1P1P1P2/3BK3/8/6n1 w - - 0 1",
    "8/5k2/3b4/1p1P4/1P2B3/4K3/8/8 w - - 0 1",
    "8/8/3k4/r7/3KP3/8/8/7R w - - 0 1",
    "8/3k4/2n2p2/p4P2/P1N5/4K3/8/8 b - - 0 1",
    "8/pp3k2/2p3p1/5p1p/PP3P1P/2P3P1/5K2/8 w - - 0 1",
    "r7/1p3pkp/2p2np1/N7/1PP1p1B1/4P3/2K2PPP/3R4 b - - 0 26",
    "6k1/p1p4p/2p2p2/8/4p1b1/1P2P3/PBPr2PP/R5K1 w - - 2 19",
    /* tactics, mates, special moves */
    "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10",
    "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 12",
    "2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 30",
    "2k5/8/8/8/8/4K3/8/7Q w - - 0 1",
    "8/2P5/8/3pP3/8/8/5k2/K7 w - d6 0 1",
    "r1bq1rk1/pppn1ppp/4p3/3pP3/1b1P4/2NB1N2/PPP2PPP/R2QK2R w KQ - 0 8",
    "8/8/p1p5/1p5p/1P5p/8/PPP2K1p/4R1rk w - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
};
const int BenchPositionCount = sizeof BenchPositions / sizeof BenchPositions[0];

enum { BENCH_HASH_MB = 16 };

static uint64_t stat(const SearchStats *s, int i) { return s->count[i]; }

static uint64_t stats_nodes(const SearchStats *s) {
    return stat(s, STAT_NODES_PV) + stat(s, STAT_NODES_CUT) + stat(s, STAT_NODES_ALL) + stat(s, STAT_NODES_QS);
}

static double percent(uint64_t part, uint64_t whole) {
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

void bench_stats_summary(const SearchStats *s, char *out, size_t size) {
    uint64_t nodes = stats_nodes(s);
    snprintf(out, size,
             "nodes %" PRIu64 " (pv %.1f%% cut %.1f%% all %.1f%% qs %.1f%%) first-move cutoffs %.1f%% "
             "tt hits %.1f%% tt cutoffs %.1f%%",
             nodes, percent(stat(s, STAT_NODES_PV), nodes), percent(stat(s, STAT_NODES_CUT), nodes),
             percent(stat(s, STAT_NODES_ALL), nodes), percent(stat(s, STAT_NODES_QS), nodes),
             percent(stat(s, STAT_FAIL_HIGH_FIRST), stat(s, STAT_FAIL_HIGH)),
             percent(stat(s, STAT_TT_HIT), stat(s, STAT_TT_PROBE)), percent(stat(s, STAT_TT_CUTOFF), stat(s, STAT_TT_PROBE)));
}

static void add_stats(SearchStats *sum, const SearchStats *s) {
    for (int i = 0; i < STAT_NB; i++) sum->count[i] += s->count[i];
}

/* Per iteration (the work of that iteration alone) and in total, over all bench positions. */
static void print_stats(const SearchStats *atDepth, int depth, const SearchStats *total, FILE *out) {
    fprintf(out, "\nsearch statistics (all positions; per iteration: the work of that iteration)\n");
    fprintf(out, "%5s %12s %6s %9s %7s %7s %7s %7s %7s\n", "depth", "nodes", "EBF", "1st-cut%", "pv%", "cut%",
            "all%", "qs%", "tthit%");
    uint64_t previous = 0;
    for (int d = 1; d <= depth; d++) {
        SearchStats iter = atDepth[d];
        if (d > 1)
            for (int i = 0; i < STAT_NB; i++) iter.count[i] -= atDepth[d - 1].count[i];
        uint64_t n = stats_nodes(&iter);
        char ebf[16] = "-";
        if (previous) snprintf(ebf, sizeof ebf, "%.2f", (double)n / (double)previous);
        fprintf(out, "%5d %12" PRIu64 " %6s %9.1f %7.1f %7.1f %7.1f %7.1f %7.1f\n", d, n, ebf,
                percent(stat(&iter, STAT_FAIL_HIGH_FIRST), stat(&iter, STAT_FAIL_HIGH)),
                percent(stat(&iter, STAT_NODES_PV), n), percent(stat(&iter, STAT_NODES_CUT), n),
                percent(stat(&iter, STAT_NODES_ALL), n), percent(stat(&iter, STAT_NODES_QS), n),
                percent(stat(&iter, STAT_TT_HIT), stat(&iter, STAT_TT_PROBE)));
        previous = n;
    }
    char line[512];
    bench_stats_summary(total, line, sizeof line);
    fprintf(out, "total: %s\n", line);
    fprintf(out, "%-18s %12s %9s\n", "event", "count", "per 1k nodes");
    uint64_t nodes = stats_nodes(total);
    for (int i = 0; i < STAT_NB; i++)
        fprintf(out, "%-18s %12" PRIu64 " %9.2f\n", SearchStatNames[i], stat(total, i),
                nodes ? 1000.0 * (double)stat(total, i) / (double)nodes : 0.0);
}

int bench_run(int depth, bool withStats, FILE *out) {
    static Position pos;
    static SearchStats atDepth[MAX_PLY + 1];
    SearchStats total = {0};
    memset(atDepth, 0, sizeof atDepth);
    TTable tt = {0};
    if (!tt_resize(&tt, BENCH_HASH_MB, 1)) return 1;
    ThreadPool *pool = threads_create(1, &tt);
    if (!pool) {
        tt_free(&tt);
        return 1;
    }
    SearchLimits limits;
    search_limits_init(&limits);
    limits.depth = depth;

    uint64_t totalNodes = 0;
    int64_t start = tm_now();
    Progress progress;
    progress_init(&progress);
    for (int i = 0; i < BenchPositionCount; i++) {
        char err[128], best[8];
        progress_show(&progress, true, "bench depth %d: position %d/%d, %" PRIu64 " nodes so far", depth, i + 1,
                      BenchPositionCount, totalNodes);
        if (!pos_set_fen(&pos, BenchPositions[i], false, err, sizeof err)) {
            fprintf(out, "bench position %d is invalid: %s\n", i + 1, err);
            continue;
        }
        tt_clear(&tt, 1);
        threads_clear(pool);
        SearchResult result = threads_search(pool, &pos, &limits);
        uint64_t nodes = threads_nodes(pool);
        totalNodes += nodes;
        progress_clear(&progress);
        move_to_uci(result.bestMove, false, best);
        fprintf(out, "position %2d/%d  bestmove %-5s  nodes %" PRIu64 "\n", i + 1, BenchPositionCount, best, nodes);
        SearchStats s;
        for (int d = 0; withStats && d <= depth && threads_stats(pool, d, &s); d++) {
            if (d == 0) add_stats(&total, &s);
            else add_stats(&atDepth[d], &s);
        }
    }
    int64_t ms = tm_now() - start;
    uint64_t nps = totalNodes * 1000 / (uint64_t)(ms > 0 ? ms : 1);
    if (withStats) print_stats(atDepth, depth, &total, out);
    fprintf(out, "\nTotal time (ms) : %" PRId64 "\n", ms);
    fprintf(out, "%" PRIu64 " nodes %" PRIu64 " nps\n", totalNodes, nps);
    threads_destroy(pool);
    tt_free(&tt);
    return 0;
}
