/*
 * The engine's own search against minimax. With every selective step off
 * (SearchLimits.mode: no pruning, reductions, extensions, aspiration or
 * quiescence; leaves are static evaluations) the search in src/search/alphabeta.c is
 * plain fail-soft PVS alpha-beta, and at a fixed depth it must return
 * exactly the minimax value, play a move whose minimax value is that value,
 * and visit fewer nodes than minimax does. Checked with and without the
 * transposition table's cutoffs, on every bench position at depths 1-3
 * and on the smaller trees at depth 4.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "epd.h"
#include "fen.h"
#include "eval.h"
#include "init.h"
#include "movegen.h"
#include "notation.h"
#include "test.h"
#include "thread.h"
#include "tt.h"

typedef struct {
    Position pos;
    uint64_t nodes;
} Tree;

/* The engine's draw rules inside the tree (is_draw in search.c). */
static bool is_draw(const Position *pos, int ply) {
    if (pos_rule50(pos) >= 100) return !pos_in_check(pos) || count_legal(pos) > 0;
    return pos_is_repetition(pos, ply) || pos_insufficient_material(pos);
}

/* Plain negamax over every legal move: the reference value. */
static Value minimax(Tree *t, int depth, int ply) {
    t->nodes++;
    if (ply > 0 && is_draw(&t->pos, ply)) return VALUE_DRAW;
    MoveList list;
    gen_legal(&t->pos, &list);
    if (list.count == 0) return pos_in_check(&t->pos) ? mated_in(ply) : VALUE_DRAW;
    if (depth == 0) return eval_evaluate(&t->pos, NULL);
    Value best = -VALUE_INFINITE;
    for (int i = 0; i < list.count; i++) {
        pos_do_move(&t->pos, list.moves[i]);
        Value v = -minimax(t, depth - 1, ply + 1);
        pos_undo_move(&t->pos);
        if (v > best) best = v;
    }
    return best;
}

/* The minimax value of playing m at the root. */
static Value minimax_after(Tree *t, Move m, int depth) {
    pos_do_move(&t->pos, m);
    Value v = -minimax(t, depth - 1, 1);
    pos_undo_move(&t->pos);
    return v;
}

static Tree T;

int main(void) {
    engine_init();
    TTable tt = {0};
    ThreadPool *pool = tt_resize(&tt, 16, 1) ? threads_create(1, &tt) : NULL;
    CHECK(pool != NULL, "no memory for the search");
    if (!pool) return test_report();

    /* Depth 4 minimax is expensive: only on positions whose depth-3 tree is small (and on
     * fewer of them in the sanitizer runs, where the minimax dominates the time). */
    enum { DEPTH4_MAX_NODES3 = 40000, DEPTH4_POSITIONS = 25, DEPTH4_MIN_POSITIONS = 8 };
    const int depth4MaxPositions = test_quick() ? DEPTH4_MIN_POSITIONS : DEPTH4_POSITIONS;
    static const SearchMode Modes[2] = {SEARCH_PLAIN_NO_TT, SEARCH_PLAIN};
    static const char *const ModeNames[2] = {"no TT", "TT"};
    uint64_t totalMinimax[5] = {0}, totalSearch[2][5] = {{0}};
    int positions[5] = {0}, depth4 = 0;
    CHECK(BenchPositionCount >= 50, "only %d bench positions", BenchPositionCount);

    printf("%-3s %-5s %12s %12s %12s\n", "pos", "depth", "minimax", "plain", "plain+TT");
    for (int p = 0; p < BenchPositionCount; p++) {
        char err[128];
        if (!pos_set_fen(&T.pos, BenchPositions[p], false, err, sizeof err)) {
            CHECK(false, "bench position %d: %s", p + 1, err);
            continue;
        }
        if (count_legal(&T.pos) == 0) continue;
        uint64_t nodes3 = 0;
        for (int depth = 1; depth <= 4; depth++) {
            if (depth == 4 && (nodes3 > DEPTH4_MAX_NODES3 || depth4 >= depth4MaxPositions)) break;
            T.nodes = 0;
            Value mm = minimax(&T, depth, 0);
            uint64_t mmNodes = T.nodes;
            if (depth == 3) nodes3 = mmNodes;
            if (depth == 4) depth4++;
            uint64_t searched[2];
            for (int m = 0; m < 2; m++) {
                SearchLimits limits;
                search_limits_init(&limits);
                limits.depth = depth;
                limits.mode = Modes[m];
                tt_clear(&tt, 1);
                threads_clear(pool);
                SearchResult r = threads_search(pool, &T.pos, &limits);
                /* Iterative deepening searches depths 1..depth: count only the last iteration's share. */
                searched[m] = threads_nodes(pool);
                char text[8];
                move_to_uci(r.bestMove, false, text);
                CHECK(r.score == mm, "position %d depth %d (%s): search %d, minimax %d", p + 1, depth,
                      ModeNames[m], r.score, mm);
                Value played = pos_is_legal(&T.pos, r.bestMove) ? minimax_after(&T, r.bestMove, depth) : -VALUE_INFINITE;
                CHECK(played == mm, "position %d depth %d (%s): %s has minimax value %d, the best is %d", p + 1,
                      depth, ModeNames[m], text, played, mm);
                totalSearch[m][depth] += searched[m];
            }
            totalMinimax[depth] += mmNodes;
            positions[depth]++;
            printf("%-3d %-5d %12llu %12llu %12llu\n", p + 1, depth, (unsigned long long)mmNodes,
                   (unsigned long long)searched[0], (unsigned long long)searched[1]);
        }
    }
    printf("\nnode totals (positions, minimax, plain search incl. earlier iterations, with TT):\n");
    for (int d = 1; d <= 4; d++)
        printf("depth %d: %3d positions %12llu %12llu %12llu  %5.1f%%\n", d, positions[d],
               (unsigned long long)totalMinimax[d], (unsigned long long)totalSearch[0][d],
               (unsigned long long)totalSearch[1][d],
               totalMinimax[d] ? 100.0 * (double)totalSearch[0][d] / (double)totalMinimax[d] : 0.0);
    /* Alpha-beta's saving: even counting every iteration, far fewer nodes than minimax's one tree. */
    for (int d = 3; d <= 4; d++)
        for (int m = 0; m < 2; m++)
            CHECK(totalSearch[m][d] * 2 < totalMinimax[d], "depth %d (%s): %llu nodes, minimax %llu", d,
                  ModeNames[m], (unsigned long long)totalSearch[m][d], (unsigned long long)totalMinimax[d]);
    CHECK(positions[1] >= 45 && positions[2] >= 45 && positions[3] >= 45, "fewer than 45 positions at depths 1-3");
    CHECK(positions[4] >= DEPTH4_MIN_POSITIONS, "only %d positions at depth 4", positions[4]);
    threads_destroy(pool);
    tt_free(&tt);
    return test_report();
}
