/*
 * The textbook promise of alpha-beta: on every bench position, plain
 * fixed-depth alpha-beta (no TT, no pruning, cutting at v >= beta) returns
 * exactly the minimax value and move, in both fail-hard and fail-soft form,
 * while evaluating fewer leaves. Leaves are static evaluations (or mates and
 * stalemates) from eval_evaluate, the engine's own evaluator.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "fen.h"
#include "eval.h"
#include "init.h"
#include "movegen.h"
#include "notation.h"
#include "test.h"

typedef struct {
    Position pos;
    uint64_t leaves;
} Tree;

/* Value of a node with no moves to search: mate, stalemate, or the static evaluation. */
static Value leaf(Tree *t, int ply) {
    t->leaves++;
    if (count_legal(&t->pos) == 0) return pos_in_check(&t->pos) ? mated_in(ply) : VALUE_DRAW;
    return eval_evaluate(&t->pos, NULL);
}

/* Plain negamax over every legal move; the first move with the highest value is the best. */
static Value minimax(Tree *t, int depth, int ply, Move *best) {
    if (depth == 0) return leaf(t, ply);
    MoveList list;
    gen_legal(&t->pos, &list);
    if (list.count == 0) return leaf(t, ply);
    Value bestValue = -VALUE_INFINITE;
    for (int i = 0; i < list.count; i++) {
        pos_do_move(&t->pos, list.moves[i]);
        Value v = -minimax(t, depth - 1, ply + 1, NULL);
        pos_undo_move(&t->pos);
        if (v > bestValue) {
            bestValue = v;
            if (best) *best = list.moves[i];
        }
    }
    return bestValue;
}

/* Alpha-beta in the same move order; failSoft returns the best value seen, otherwise the bound. */
static Value alphabeta(Tree *t, int depth, int ply, Value alpha, Value beta, bool failSoft, Move *best) {
    if (depth == 0) return leaf(t, ply);
    MoveList list;
    gen_legal(&t->pos, &list);
    if (list.count == 0) return leaf(t, ply);
    Value bestValue = -VALUE_INFINITE;
    for (int i = 0; i < list.count; i++) {
        pos_do_move(&t->pos, list.moves[i]);
        Value v = -alphabeta(t, depth - 1, ply + 1, -beta, -alpha, failSoft, NULL);
        pos_undo_move(&t->pos);
        if (v > bestValue) {
            bestValue = v;
            if (v > alpha) {
                alpha = v;
                if (best) *best = list.moves[i];
            }
        }
        if (v >= beta) return failSoft ? bestValue : beta; /* cut also on equality */
    }
    return failSoft ? bestValue : alpha;
}

static Tree T;

int main(void) {
    engine_init();
    /* Depth 4 minimax is expensive: only on positions whose depth-3 tree is small. */
    enum { DEPTH4_MAX_LEAVES3 = 40000, DEPTH4_MAX_POSITIONS = 25 };
    uint64_t totalMinimax[5] = {0}, totalHard[5] = {0}, totalSoft[5] = {0};
    int positions[5] = {0}, depth4 = 0;
    CHECK(BenchPositionCount >= 50, "only %d bench positions", BenchPositionCount);

    printf("%-3s %-5s %12s %12s %12s\n", "pos", "depth", "minimax", "ab-hard", "ab-soft");
    for (int p = 0; p < BenchPositionCount; p++) {
        char err[128];
        if (!pos_set_fen(&T.pos, BenchPositions[p], false, err, sizeof err)) {
            CHECK(false, "bench position %d: %s", p + 1, err);
            continue;
        }
        uint64_t leaves3 = 0;
        for (int depth = 1; depth <= 4; depth++) {
            if (depth == 4 && (leaves3 > DEPTH4_MAX_LEAVES3 || depth4 >= DEPTH4_MAX_POSITIONS)) break;
            Move mmMove = MOVE_NONE, hardMove = MOVE_NONE, softMove = MOVE_NONE;
            T.leaves = 0;
            Value mm = minimax(&T, depth, 0, &mmMove);
            uint64_t mmLeaves = T.leaves;
            T.leaves = 0;
            Value hard = alphabeta(&T, depth, 0, -VALUE_INFINITE, VALUE_INFINITE, false, &hardMove);
            uint64_t hardLeaves = T.leaves;
            T.leaves = 0;
            Value soft = alphabeta(&T, depth, 0, -VALUE_INFINITE, VALUE_INFINITE, true, &softMove);
            uint64_t softLeaves = T.leaves;
            if (depth == 3) leaves3 = mmLeaves;
            if (depth == 4) depth4++;

            char m1[8], m2[8], m3[8];
            move_to_uci(mmMove, false, m1);
            move_to_uci(hardMove, false, m2);
            move_to_uci(softMove, false, m3);
            CHECK(hard == mm && soft == mm, "position %d depth %d: minimax %d, fail-hard %d, fail-soft %d", p + 1, depth,
                  mm, hard, soft);
            CHECK(hardMove == mmMove && softMove == mmMove, "position %d depth %d: moves %s / %s / %s", p + 1, depth, m1,
                  m2, m3);
            CHECK(hardLeaves <= mmLeaves && softLeaves <= mmLeaves, "position %d depth %d: more leaves than minimax",
                  p + 1, depth);
            totalMinimax[depth] += mmLeaves;
            totalHard[depth] += hardLeaves;
            totalSoft[depth] += softLeaves;
            positions[depth]++;
            printf("%-3d %-5d %12llu %12llu %12llu  %s\n", p + 1, depth, (unsigned long long)mmLeaves,
                   (unsigned long long)hardLeaves, (unsigned long long)softLeaves, m1);
        }
    }
    printf("\nleaf totals (positions, minimax, fail-hard, fail-soft, fail-hard/minimax):\n");
    for (int d = 1; d <= 4; d++)
        printf("depth %d: %3d positions %12llu %12llu %12llu  %5.1f%%\n", d, positions[d],
               (unsigned long long)totalMinimax[d], (unsigned long long)totalHard[d], (unsigned long long)totalSoft[d],
               totalMinimax[d] ? 100.0 * (double)totalHard[d] / (double)totalMinimax[d] : 0.0);
    for (int d = 2; d <= 4; d++)
        CHECK(totalHard[d] < totalMinimax[d] && totalSoft[d] < totalMinimax[d], "depth %d: alpha-beta saved no leaves", d);
    CHECK(positions[1] >= 50 && positions[2] >= 50 && positions[3] >= 50, "fewer than 50 positions at depths 1-3");
    CHECK(positions[4] >= 8, "only %d positions at depth 4", positions[4]);
    return test_report();
}
