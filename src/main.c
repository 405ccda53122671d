/*
 * Entry point. With no arguments Gizum is a UCI engine; with arguments it
 * runs one shell command (perft, bench, eval, d, book, openings, datagen ...)
 * or UCI commands (genfens, go ...) and exits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "datagen.h"
#include "fen.h"
#include "book/bookmaker.h"
#include "eval.h"
#include "init.h"
#include "book/openings.h"
#include "perft.h"
#include "position.h"
#include "searchparams.h"
#include "uci.h"

/* SPSA learning-rate end value, OpenBench's usual default. */
static const double SPSA_R_END = 0.002;

/* ./gizum perft DEPTH [FEN] */
static int command_perft(int argc, char **argv) {
    if (argc < 1) {
        fprintf(stderr, "usage: gizum perft DEPTH [FEN]\n");
        return 2;
    }
    char *end;
    long depth = strtol(argv[0], &end, 10);
    if (*end != '\0' || depth < 1 || depth > 20) {
        fprintf(stderr, "perft: depth must be an integer from 1 to 20, got '%s'\n", argv[0]);
        return 2;
    }
    static Position pos;
    char err[256];
    if (argc >= 2) {
        char fen[1024] = "";
        for (int i = 1; i < argc; i++) {
            if (strlen(fen) + strlen(argv[i]) + 2 > sizeof fen) {
                fprintf(stderr, "perft: FEN too long\n");
                return 2;
            }
            if (i > 1) strcat(fen, " ");
            strcat(fen, argv[i]);
        }
        bool chess960 = getenv("GIZUM_CHESS960") != NULL;
        if (!pos_set_fen(&pos, fen, chess960, err, sizeof err)) {
            fprintf(stderr, "perft: bad FEN: %s\n", err);
            return 2;
        }
    } else {
        pos_set_startpos(&pos, false);
    }
    perft_divide(&pos, (int)depth, stdout);
    return 0;
}

/* Joins argv into one FEN and sets it up (startpos when there are no arguments). */
static bool position_from_args(Position *pos, int argc, char **argv, const char *command) {
    if (argc == 0) {
        pos_set_startpos(pos, false);
        return true;
    }
    char fen[1024] = "", err[256];
    for (int i = 0; i < argc; i++) {
        if (strlen(fen) + strlen(argv[i]) + 2 > sizeof fen) {
            fprintf(stderr, "%s: FEN too long\n", command);
            return false;
        }
        if (i > 0) strcat(fen, " ");
        strcat(fen, argv[i]);
    }
    if (!pos_set_fen(pos, fen, getenv("GIZUM_CHESS960") != NULL, err, sizeof err)) {
        fprintf(stderr, "%s: bad FEN: %s\n", command, err);
        return false;
    }
    return true;
}

/* ./gizum bench [DEPTH] [--stats] */
static int command_bench(int argc, char **argv) {
    long depth = BENCH_DEPTH_DEFAULT;
    bool stats = false, haveDepth = false;
    for (int i = 0; i < argc; i++) {
        char *end;
        if (strcmp(argv[i], "--stats") == 0) {
            stats = true;
            continue;
        }
        depth = strtol(argv[i], &end, 10);
        if (haveDepth || *end != '\0' || depth < 1 || depth > BENCH_DEPTH_MAX) {
            fprintf(stderr, "bench: depth must be one integer from 1 to %d, got '%s'\n"
                            "usage: gizum bench [DEPTH] [--stats]\n", BENCH_DEPTH_MAX, argv[i]);
            return 2;
        }
        haveDepth = true;
    }
    if (stats && !SEARCH_STATS_BUILT) {
        fprintf(stderr, "bench: --stats needs the statistics build: make STATS=1, then ./gizum-stats bench --stats\n");
        return 2;
    }
    if (bench_run((int)depth, stats, stdout) != 0) {
        fprintf(stderr, "bench: out of memory\n");
        return 1;
    }
    return 0;
}

/* ./gizum eval [FEN] */
static int command_eval(int argc, char **argv) {
    static Position pos;
    if (!position_from_args(&pos, argc, argv, "eval")) return 2;
    eval_trace(&pos, stdout);
    return 0;
}

/* ./gizum d [FEN] */
static int command_d(int argc, char **argv) {
    static Position pos;
    if (!position_from_args(&pos, argc, argv, "d")) return 2;
    pos_print(&pos, stdout);
    return 0;
}

/* ./gizum spsa: the search parameters as OpenBench's SPSA tuner takes them (name, int, default, min, max, c_end, r_end). */
static int command_spsa(int argc, char **argv) {
    (void)argv;
    if (argc > 0) {
        fprintf(stderr, "usage: gizum spsa\n");
        return 2;
    }
    for (int i = 0; i < SearchParamCount; i++) {
        const SearchParam *p = &SearchParams[i];
        printf("%s, int, %d, %d, %d, %d, %.3f\n", p->name, p->def, p->min, p->max, p->step, SPSA_R_END);
    }
    return 0;
}

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
} ShellCommand;

static const ShellCommand Commands[] = {
    {"perft", command_perft},
    {"book", bookmaker_command},
    {"openings", openings_command},
    {"bench", command_bench},
    {"eval", command_eval},
    {"d", command_d},
    {"spsa", command_spsa},
    {"datagen", datagen_command},
};

/*
 * UCI commands from the shell. Arguments that hold blanks are one command
 * each, run in order on one engine up to "quit", as OpenBench calls
 * engines: ./gizum "setoption name Hash value 64" "genfens 10 seed 1 book
 * None" quit. Otherwise all arguments form one command, as in Stockfish:
 * ./gizum go depth 10.
 */
static int run_uci_arguments(int argc, char **argv) {
    for (int i = 0; i < argc; i++)
        if (strpbrk(argv[i], " \t")) return uci_run_commands(argc, argv);
    return uci_run_command(argc, argv);
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    engine_init();
    if (argc < 2) return uci_loop();
    for (size_t i = 0; i < sizeof Commands / sizeof Commands[0]; i++)
        if (strcmp(argv[1], Commands[i].name) == 0)
            return Commands[i].run(argc - 2, argv + 2);
    return run_uci_arguments(argc - 1, argv + 1);
}
