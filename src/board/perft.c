#include "perft.h"

#include <time.h>

#include "movegen.h"
#include "notation.h"
#include "progress.h"

uint64_t perft(Position *pos, int depth) {
    if (depth <= 0) return 1;
    if (depth == 1) return (uint64_t)count_legal(pos);
    MoveList list;
    gen_legal(pos, &list);
    uint64_t nodes = 0;
    for (int i = 0; i < list.count; i++) {
        pos_do_move(pos, list.moves[i]);
        nodes += perft(pos, depth - 1);
        pos_undo_move(pos);
    }
    return nodes;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

uint64_t perft_divide(Position *pos, int depth, FILE *out) {
    return perft_divide_report(pos, depth, out, NULL);
}

uint64_t perft_divide_report(Position *pos, int depth, FILE *out, Progress *progress) {
    double start = now_seconds();
    MoveList list;
    gen_legal(pos, &list);
    uint64_t total = 0;
    char text[8];
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        if (progress) {
            move_to_uci(m, pos->chess960, text);
            progress_show(progress, true, "perft %d: root move %d/%d (%s), %llu nodes so far", depth, i + 1,
                          list.count, text, (unsigned long long)total);
        }
        pos_do_move(pos, m);
        uint64_t nodes = perft(pos, depth - 1);
        pos_undo_move(pos);
        total += nodes;
        if (progress) progress_clear(progress);
        move_to_uci(m, pos->chess960, text);
        fprintf(out, "%s: %llu\n", text, (unsigned long long)nodes);
    }
    double elapsed = now_seconds() - start;
    fprintf(out, "\nNodes searched: %llu\n", (unsigned long long)total);
    fprintf(out, "Time: %.0f ms\n", elapsed * 1000.0);
    fprintf(out, "Nodes/second: %.0f\n", elapsed > 0 ? (double)total / elapsed : 0.0);
    fflush(out);
    return total;
}
