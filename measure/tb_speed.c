/*
 * Syzygy probe speed (built and run by measure/tb_speed.sh).
 *
 *   tb_speed PATH [POSITIONS] [PASSES] [SEED]
 *
 * Draws POSITIONS random legal positions spread evenly over every table in
 * PATH and times tb_probe_wdl over them: cold (the first pass after
 * tb_init, which maps each table on its first probe and touches its pages
 * for the first time in this process) and warm (PASSES more passes), plus
 * the first probe of each table alone, tb_init itself and warm DTZ probes.
 * Setting up each position from its FEN is timed separately and taken off.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fen.h"
#include "init.h"
#include "movegen.h"
#include "syzygy.h"

static Position Pos;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t next_random(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static bool random_fen(const char *name, uint64_t *rng, char *fen) {
    char board[64] = {0};
    bool swap = next_random(rng) & 1;
    Color side = WHITE;
    for (const char *c = name; *c; c++) {
        if (*c == 'v') {
            side = BLACK;
            continue;
        }
        char piece = ((side == WHITE) != swap) ? *c : (char)(*c - 'A' + 'a');
        for (;;) {
            int s = (int)(next_random(rng) % 64);
            if (board[s] || (*c == 'P' && (s < 8 || s >= 56))) continue;
            board[s] = piece;
            break;
        }
    }
    fen_placement(board, fen);
    char *p = fen + strlen(fen);
    sprintf(p, " %c - - 0 1", (next_random(rng) & 1) ? 'b' : 'w');
    return pos_set_fen(&Pos, fen, false, NULL, 0);
}

static void set(const char *fen) {
    if (!pos_set_fen(&Pos, fen, false, NULL, 0)) abort();
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: tb_speed PATH [POSITIONS] [PASSES] [SEED]\n");
        return 2;
    }
    const char *path = argv[1];
    int count = argc > 2 ? atoi(argv[2]) : 100000, passes = argc > 3 ? atoi(argv[3]) : 5;
    uint64_t rng = argc > 4 ? strtoull(argv[4], NULL, 10) | 1 : 88172645463325252ULL;
    engine_init();

    TbSummary s = tb_init(path, NULL, NULL);
    if (s.wdlTables == 0 || count < s.wdlTables) {
        fprintf(stderr, "tb_speed: no tables in %s (or fewer positions than tables)\n", path);
        return 1;
    }
    int tables = s.wdlTables;
    char (*fens)[96] = malloc((size_t)count * sizeof *fens);
    int *tableOf = malloc((size_t)count * sizeof *tableOf);
    if (!fens || !tableOf) return 1;
    for (int i = 0; i < count; i++) {
        tableOf[i] = i % tables;
        while (!random_fen(tb_table_name(tableOf[i]), &rng, fens[i])) {}
    }
    /* Shuffle so that tables are touched in random order. */
    for (int i = count - 1; i > 0; i--) {
        int j = (int)(next_random(&rng) % (uint64_t)(i + 1));
        char tmp[96];
        memcpy(tmp, fens[i], 96), memcpy(fens[i], fens[j], 96), memcpy(fens[j], tmp, 96);
        int t = tableOf[i];
        tableOf[i] = tableOf[j], tableOf[j] = t;
    }

    double t0 = now();
    for (int i = 0; i < count; i++) set(fens[i]);
    double setup = now() - t0;

    tb_free();
    t0 = now();
    tb_init(path, NULL, NULL);
    double init = now() - t0;

    /* Cold pass, with the first probe of each table timed on its own. */
    bool *touched = calloc((size_t)tables, 1);
    double firstTotal = 0, cold = 0;
    long failed = 0, sum = 0;
    t0 = now();
    for (int i = 0; i < count; i++) {
        set(fens[i]);
        TbWdl w;
        double a = touched[tableOf[i]] ? 0 : now();
        if (!tb_probe_wdl(&Pos, &w)) failed++;
        else sum += w;
        if (!touched[tableOf[i]]) {
            firstTotal += now() - a;
            touched[tableOf[i]] = true;
        }
    }
    cold = now() - t0 - setup;

    t0 = now();
    for (int p = 0; p < passes; p++)
        for (int i = 0; i < count; i++) {
            set(fens[i]);
            TbWdl w;
            if (tb_probe_wdl(&Pos, &w)) sum += w;
        }
    double warm = now() - t0 - passes * setup;

    t0 = now();
    int dtzCount = 0;
    for (int i = 0; i < count; i++) {
        set(fens[i]);
        int d;
        if (tb_probe_dtz(&Pos, &d)) sum += d;
        dtzCount++;
    }
    double dtzWarm = now() - t0 - setup;
    /* The DTZ pass above mapped the DTZ files; this one is warm. */
    t0 = now();
    for (int i = 0; i < count; i++) {
        set(fens[i]);
        int d;
        if (tb_probe_dtz(&Pos, &d)) sum += d;
    }
    double dtzHot = now() - t0 - setup;

    printf("tb_speed: %d positions over %d tables (%d WDL probes failed), checksum %ld\n", count, tables, (int)failed, sum);
    printf("tb_init: %.1f ms (scan and check %d files)\n", init * 1e3, s.wdlTables + s.dtzTables);
    printf("first probe of a table (map, parse, first page-ins): %.1f us on average\n", firstTotal / tables * 1e6);
    printf("WDL cold (first pass): %.0f probes/s (%.2f us/probe)\n", count / cold, cold / count * 1e6);
    printf("WDL warm (%d passes): %.0f probes/s (%.2f us/probe)\n", passes, (double)count * passes / warm,
           warm / ((double)count * passes) * 1e6);
    printf("DTZ first pass: %.0f probes/s; warm: %.0f probes/s (%.2f us/probe)\n", dtzCount / dtzWarm, count / dtzHot,
           dtzHot / count * 1e6);
    tb_free();
    free(fens);
    free(tableOf);
    free(touched);
    return 0;
}
