/*
 * Entry point. With no arguments Gizum is a UCI engine; with arguments it
 * runs one shell command (perft, bench, eval, d, book ...) and exits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "init.h"
#include "perft.h"
#include "position.h"

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

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
} ShellCommand;

static const ShellCommand Commands[] = {
    {"perft", command_perft},
};

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    gizum_init();
    if (argc < 2) {
        fprintf(stderr, "UCI mode is not built yet\n");
        return 1;
    }
    for (size_t i = 0; i < sizeof Commands / sizeof Commands[0]; i++)
        if (strcmp(argv[1], Commands[i].name) == 0)
            return Commands[i].run(argc - 2, argv + 2);
    fprintf(stderr, "unknown command '%s'\n", argv[1]);
    return 2;
}
