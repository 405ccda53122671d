/*
 * The engine's own search against minimax. With every selective step off
 * (SearchLimits.mode: no pruning, reductions, extensions, aspiration or
 * quiescence; leaves are static evaluations) the search in src/search/alphabeta.c is
 * plain fail-soft PVS alpha-beta, and at a fixed depth it must return
 * exactly the minimax value, play a move whose minimax value is that value,
 * and visit fewer nodes than minimax does. Checked with and without the
 * transposition table's cutoffs, on every bench position at depths 1-3,
 * on the smaller trees at depth 4, and on positions where the draw rules
 * decide. Kind of check: oracle (minimax, below, with the draw rules
 * written here), and one property (fewer nodes than minimax).
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

/*
 * The oracle: a plain negamax written here, with the draw rules written
 * here from the laws of chess and the search's documented convention, not
 * with the engine's is_draw (alphabeta.c) or the position's repetition and
 * material helpers. It keeps its own path of positions (board, side to move,
 * castling rights, en passant square: what makes two positions the same)
 * and its own halfmove clock.
 */
enum { MAX_TREE_DEPTH = 8 };

typedef struct {
    Piece board[SQUARE_NB];
    Color side;
    int castling;
    Square ep;
} Snapshot;

typedef struct {
    Position pos;
    uint64_t nodes;
    Snapshot path[MAX_TREE_DEPTH + 1]; /* the positions from the root (ply 0) to the current one */
    int clock[MAX_TREE_DEPTH + 1];     /* their halfmove clocks */
    long fifty, dead, repeated;        /* how often each draw rule decided a node */
} Tree;

static void snapshot(const Position *pos, Snapshot *s) {
    memset(s, 0, sizeof *s); /* compared with memcmp: no stray padding bytes */
    memcpy(s->board, pos->board, sizeof s->board);
    s->side = pos->sideToMove;
    s->castling = pos->st->castling;
    s->ep = pos->st->epSquare;
}

/*
 * No mate is possible by any sequence of moves (a dead position), by the
 * usual sufficient rule: no pawn, rook or queen, and at most one knight or
 * bishop, or only bishops, all on squares of one colour. Read off the board.
 */
static bool dead_position(const Position *pos) {
    int minors = 0, knights = 0, onColour[2] = {0, 0};
    for (Square s = A1; s <= H8; s++) {
        if (pos->board[s] == NO_PIECE) continue;
        PieceType pt = piece_type(pos->board[s]);
        if (pt == PAWN || pt == ROOK || pt == QUEEN) return false;
        if (pt == KNIGHT) knights++, minors++;
        if (pt == BISHOP) minors++, onColour[(file_of(s) + rank_of(s)) % 2]++;
    }
    return minors <= 1 || (!knights && (!onColour[0] || !onColour[1]));
}

/*
 * Is the node at ply a draw? The fifty-move rule: 100 plies without a
 * capture or pawn move, unless the side to move is checkmated. Then a dead
 * position, and repetition as the search counts it (Stockfish's convention,
 * src/board/position.c): the position occurred before since the last
 * irreversible move, once strictly after the root, or twice at or before it.
 */
static bool oracle_draw(Tree *t, int ply) {
    MoveList list;
    if (t->clock[ply] >= 100) {
        gen_legal(&t->pos, &list);
        bool mated = list.count == 0 && pos_in_check(&t->pos);
        t->fifty += !mated;
        return !mated;
    }
    if (dead_position(&t->pos)) return ++t->dead, true;
    int before = 0;
    for (int i = 4; i <= t->clock[ply] && i <= ply; i += 2) {
        if (memcmp(&t->path[ply - i], &t->path[ply], sizeof t->path[ply]) != 0) continue;
        if (ply - i > 0 || ++before == 2) return ++t->repeated, true;
    }
    return false;
}

/* Plays m from the node at ply: the child's snapshot and halfmove clock (castling is no capture). */
static void play(Tree *t, Move m, int ply) {
    Piece mover = t->pos.board[move_from(m)], target = t->pos.board[move_to(m)];
    bool irreversible = piece_type(mover) == PAWN || (target != NO_PIECE && move_kind(m) != MOVE_CASTLING);
    pos_do_move(&t->pos, m);
    t->clock[ply + 1] = irreversible ? 0 : t->clock[ply] + 1;
    snapshot(&t->pos, &t->path[ply + 1]);
}

/* Sets the root: its snapshot and its clock from the FEN. */
static void set_root(Tree *t) {
    snapshot(&t->pos, &t->path[0]);
    t->clock[0] = pos_rule50(&t->pos);
}

/* Plain negamax over every legal move: the reference value. */
static Value minimax(Tree *t, int depth, int ply) {
    t->nodes++;
    if (ply > 0 && oracle_draw(t, ply)) return VALUE_DRAW;
    MoveList list;
    gen_legal(&t->pos, &list);
    if (list.count == 0) return pos_in_check(&t->pos) ? mated_in(ply) : VALUE_DRAW;
    if (depth == 0) return eval_evaluate(&t->pos, NULL);
    Value best = -VALUE_INFINITE;
    for (int i = 0; i < list.count; i++) {
        play(t, list.moves[i], ply);
        Value v = -minimax(t, depth - 1, ply + 1);
        pos_undo_move(&t->pos);
        if (v > best) best = v;
    }
    return best;
}

/* The minimax value of playing m at the root. */
static Value minimax_after(Tree *t, Move m, int depth) {
    play(t, m, 0);
    Value v = -minimax(t, depth - 1, 1);
    pos_undo_move(&t->pos);
    return v;
}

static Tree T;
static TTable TT;
static ThreadPool *Pool;
static const SearchMode Modes[2] = {SEARCH_PLAIN_NO_TT, SEARCH_PLAIN};
static const char *const ModeNames[2] = {"no TT", "TT"};

/*
 * The search at T's root to depth, in both modes, against the oracle's
 * value; the nodes each visited go to searched[mode]. Returns minimax's
 * node count.
 */
static uint64_t compare(const char *name, int depth, uint64_t searched[2]) {
    set_root(&T);
    T.nodes = 0;
    Value mm = minimax(&T, depth, 0);
    uint64_t mmNodes = T.nodes;
    for (int m = 0; m < 2; m++) {
        SearchLimits limits;
        search_limits_init(&limits);
        limits.depth = depth;
        limits.mode = Modes[m];
        tt_clear(&TT, 1);
        threads_clear(Pool);
        SearchResult r = threads_search(Pool, &T.pos, &limits);
        /* Iterative deepening searches depths 1..depth: all of them are counted. */
        searched[m] = threads_nodes(Pool);
        char text[8];
        move_to_uci(r.bestMove, false, text);
        /* Oracle (minimax): the search's value, and the value of the move it plays. */
        CHECK_EACH(r.score == mm, "%s depth %d (%s): search %d, minimax %d", name, depth, ModeNames[m], r.score, mm);
        Value played = pos_is_legal(&T.pos, r.bestMove) ? minimax_after(&T, r.bestMove, depth) : -VALUE_INFINITE;
        CHECK_EACH(played == mm, "%s depth %d (%s): %s has minimax value %d, the best is %d", name, depth, ModeNames[m],
                   text, played, mm);
    }
    return mmNodes;
}

/*
 * Positions where the draw rules decide (the bench positions seldom reach
 * them within depth 4): the fifty-move rule against a mate on the hundredth
 * ply, a capture into a dead position, kings shuffling into repetitions, and
 * a perpetual check that only the repetition strictly after the root sees
 * at depth 5 (Qe8+ Kh7 Qh5+ Kg8 Qe8+ repeats ply 1 at ply 5: a draw for the
 * side a rook down; about 10 M minimax nodes, left out in the quick runs).
 */
static const struct {
    const char *fen;
    int depth;
    bool slow; /* left out in the quick runs */
} DrawPositions[] = {
    {"6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80", 3, false},    /* Ra8# on ply 100; every other move draws */
    {"6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 98 80", 4, false}, /* quiet replies run into the rule or Ra8# */
    {"8/8/8/4k3/8/8/3r4/3NK3 w - - 0 1", 4, false},       /* Kxd2 leaves king and knight against king */
    {"8/8/8/3bk3/8/8/8/2B1K3 b - - 0 1", 3, false},       /* bishops on one colour of square: dead */
    {"k7/p7/P7/8/8/8/8/K7 w - - 0 1", 6, false},          /* Kb1 Kb8 Ka1 Ka8 Kb1 repeats ply 1 */
    {"6k1/6p1/8/7Q/8/r7/1q4PP/7K w - - 0 1", 5, true},    /* perpetual check (also in test_uci) */
};

int main(void) {
    engine_init();
    Pool = tt_resize(&TT, 16, 1) ? threads_create(1, &TT) : NULL;
    CHECK(Pool != NULL, "no memory for the search");
    if (!Pool) return test_report();

    /* Depth 4 minimax is expensive: only on positions whose depth-3 tree is small (and on
     * fewer of them in the sanitizer runs, where the minimax dominates the time). */
    enum { DEPTH4_MAX_NODES3 = 40000, DEPTH4_POSITIONS = 25, DEPTH4_MIN_POSITIONS = 8 };
    const int depth4MaxPositions = test_quick() ? DEPTH4_MIN_POSITIONS : DEPTH4_POSITIONS;
    uint64_t totalMinimax[5] = {0}, totalSearch[2][5] = {{0}};
    int positions[5] = {0}, depth4 = 0;
    CHECK(BenchPositionCount >= 50, "only %d bench positions", BenchPositionCount);

    printf("%-3s %-5s %12s %12s %12s\n", "pos", "depth", "minimax", "plain", "plain+TT");
    for (int p = 0; p < BenchPositionCount; p++) {
        char err[128], name[32];
        if (!pos_set_fen(&T.pos, BenchPositions[p], false, err, sizeof err)) {
            CHECK(false, "bench position %d: %s", p + 1, err);
            continue;
        }
        if (count_legal(&T.pos) == 0) continue;
        snprintf(name, sizeof name, "bench position %d", p + 1);
        uint64_t nodes3 = 0;
        for (int depth = 1; depth <= 4; depth++) {
            if (depth == 4 && (nodes3 > DEPTH4_MAX_NODES3 || depth4 >= depth4MaxPositions)) break;
            uint64_t searched[2];
            uint64_t mmNodes = compare(name, depth, searched);
            if (depth == 3) nodes3 = mmNodes;
            if (depth == 4) depth4++;
            for (int m = 0; m < 2; m++) totalSearch[m][depth] += searched[m];
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
            CHECK_EACH(totalSearch[m][d] * 2 < totalMinimax[d], "depth %d (%s): %llu nodes, minimax %llu", d,
                       ModeNames[m], (unsigned long long)totalSearch[m][d], (unsigned long long)totalMinimax[d]);
    CHECK(positions[1] >= 45 && positions[2] >= 45 && positions[3] >= 45, "fewer than 45 positions at depths 1-3");
    CHECK(positions[4] >= DEPTH4_MIN_POSITIONS, "only %d positions at depth 4", positions[4]);

    /* The draw rules, each of which must have decided some node of the oracle's trees. */
    T.fifty = T.dead = T.repeated = 0;
    for (size_t i = 0; i < sizeof DrawPositions / sizeof DrawPositions[0]; i++) {
        char err[128], name[96];
        if (!pos_set_fen(&T.pos, DrawPositions[i].fen, false, err, sizeof err)) {
            CHECK(false, "draw position %s: %s", DrawPositions[i].fen, err);
            continue;
        }
        snprintf(name, sizeof name, "%s", DrawPositions[i].fen);
        uint64_t searched[2];
        if (DrawPositions[i].slow && test_quick()) continue;
        for (int depth = 1; depth <= DrawPositions[i].depth; depth++) compare(name, depth, searched);
    }
    printf("draw rules in the oracle's trees: fifty-move %ld, dead position %ld, repetition %ld\n", T.fifty, T.dead,
           T.repeated);
    CHECK(T.fifty > 0 && T.dead > 0 && T.repeated > 0,
          "a draw rule never decided: fifty-move %ld, dead position %ld, repetition %ld", T.fifty, T.dead, T.repeated);
    threads_destroy(Pool);
    tt_free(&TT);
    return test_report();
}
