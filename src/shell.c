/*
 * The program's commands, in one table: what ./gizum does with arguments
 * (the shell: perft, bench, eval, d, book, epd, datagen ...) and what it
 * adds to the UCI protocol (d, eval, bench, genfens), each row saying which
 * of the two it serves. With no arguments Gizum is a UCI engine; with
 * arguments it runs one shell command or UCI commands (`./gizum go depth
 * 10`, `./gizum "genfens 10 seed 1 book None" quit`) and exits. Anything
 * else gets the usage on stderr and exit status 2.
 */
#include "shell.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bookmaker.h"
#include "openings.h"
#include "datagen.h"
#include "epdsuite.h"
#include "eval.h"
#include "fen.h"
#include "genfens.h"
#include "init.h"
#include "numparse.h"
#include "perft.h"
#include "position.h"
#include "progress.h"
#include "searchparams.h"
#include "syzygy.h"
#include "version.h"

/* SPSA learning-rate end value, OpenBench's usual default. */
static const double SPSA_R_END = 0.002;

static void print_usage_of(const char *name, FILE *out);

/* ./gizum perft DEPTH [FEN] */
static int command_perft(int argc, char **argv) {
    if (argc < 1) {
        print_usage_of("perft", stderr);
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
    Progress progress;
    progress_init(&progress);
    perft_divide_report(&pos, (int)depth, stdout, &progress);
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
            fprintf(stderr, "bench: depth must be one integer from 1 to %d, got '%s'\n", BENCH_DEPTH_MAX, argv[i]);
            print_usage_of("bench", stderr);
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

/* The `d` board, then the position's tablebase result when the tables hold it. */
static void show_board(const Position *pos, FILE *out) {
    pos_print(pos, out);
    TbWdl wdl;
    int dtz;
    if (!tb_max_pieces() || !tb_probe_wdl(pos, &wdl)) return;
    if (tb_probe_dtz(pos, &dtz))
        fprintf(out, "Tablebases: %s (WDL %d), DTZ %d\n", tb_wdl_name(wdl), (int)wdl, dtz);
    else
        fprintf(out, "Tablebases: %s (WDL %d), no DTZ table\n", tb_wdl_name(wdl), (int)wdl);
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
    show_board(&pos, stdout);
    return 0;
}

/* ./gizum spsa: the search parameters as OpenBench's SPSA tuner takes them (name, int, default, min, max, c_end, r_end). */
static int command_spsa(int argc, char **argv) {
    (void)argv;
    if (argc > 0) {
        print_usage_of("spsa", stderr);
        return 2;
    }
    for (int i = 0; i < SearchParamCount; i++) {
        const SearchParam *p = &SearchParams[i];
        printf("%s, int, %d, %d, %d, %d, %.3f\n", p->name, p->def, p->min, p->max, p->step, SPSA_R_END);
    }
    return 0;
}

/* ------------------------------------------------------------ in UCI mode */

/* Prints a multi-line text with stdout held, so that search output cannot interleave. */
static void print_held(void (*printer)(const Position *pos, FILE *out), const Position *pos) {
    flockfile(stdout);
    printer(pos, stdout);
    fflush(stdout);
    funlockfile(stdout);
}

/* d: the current position; answered at once, even during a search. */
static void uci_d(const UciCall *call) { print_held(show_board, call->pos); }

/* eval: the current position's evaluation; answered at once, even during a search. */
static void uci_eval(const UciCall *call) { print_held(eval_trace, call->pos); }

/* bench [DEPTH]: the bench in UCI mode, on its own tables (the engine's are left alone). */
static void uci_bench(const UciCall *call) {
    int64_t depth = BENCH_DEPTH_DEFAULT;
    if (call->argc > 0 && !parse_integer(call->argv[0], 1, BENCH_DEPTH_MAX, &depth)) {
        char shown[64], text[160];
        snprintf(text, sizeof text, "bench: depth must be an integer from 1 to %d, got '%s'", BENCH_DEPTH_MAX,
                 uci_shown(call->argv[0], shown, sizeof shown));
        call->say(text);
        return;
    }
    if (!call->idle(call->session, "bench")) return;
    flockfile(stdout);
    bench_run((int)depth, false, stdout);
    fflush(stdout);
    funlockfile(stdout);
}

static void say_line(void *ctx, const char *line) { ((const UciCall *)ctx)->say(line); }

/* genfens N seed S book <None|FILE> [extra]: OpenBench's opening generator (genfens.h), on its own searcher. */
static void uci_genfens(const UciCall *call) {
    if (!call->idle(call->session, "genfens")) return;
    genfens_run(call->argc, call->argv, say_line, (void *)call);
}

/* ------------------------------------------------------------ the table */

static int command_help(int argc, char **argv);
static void print_usage(FILE *out);
static int command_version(int argc, char **argv);

/*
 * One command of the program: its name, its shell arguments and one line on
 * what it does (the usage is printed from these), how the shell runs it and
 * how UCI mode runs it (NULL where it is not one of that mode's commands),
 * and who prints its full synopsis for `gizum COMMAND --help` (NULL: the
 * line built from name and args is all of it).
 */
typedef struct {
    const char *name;
    const char *args;
    const char *summary;
    int (*shell)(int argc, char **argv);
    UciExtraFn uci;
    void (*usage)(FILE *out);
} Command;

static const Command Commands[] = {
    {"bench", "[DEPTH] [--stats]", "search the bench positions; ends with the node count and speed", command_bench,
     uci_bench, NULL},
    {"perft", "DEPTH [FEN]", "count the leaf nodes of the legal move tree, per root move", command_perft, NULL, NULL},
    {"eval", "[FEN]", "show the evaluation term by term (default: start position)", command_eval, uci_eval, NULL},
    {"d", "[FEN]", "show the board, FEN, key and checkers", command_d, uci_d, NULL},
    {"epd", "FILE [--movetime MS|--depth D|--nodes N] [--threads N] [--hash MB]",
     "run an EPD test suite (bm/am moves, c0 points)", epdsuite_command, NULL, epdsuite_usage},
    {"book", "make|probe|dump ...", "build a Polyglot book from PGN, probe or dump one", bookmaker_command, NULL,
     bookmaker_usage},
    {"openings", "[--book F] [--count N] [--depth D] ...", "print balanced match openings from a book",
     openings_command, NULL, openings_usage},
    {"datagen", "--out FILE [--positions N] [--nodes N] [--threads N] [--seed S] ... | --pgn FILE...",
     "self-play training data, or training data from PGN games (--help lists the options)", datagen_command, NULL,
     datagen_usage},
    {"genfens", "N seed S book None|FILE [extra]", "OpenBench's opening generator (UCI mode)", NULL, uci_genfens, NULL},
    {"spsa", "", "the search parameters in OpenBench's SPSA form", command_spsa, NULL, NULL},
    {"help", "", "this text (also --help, -h)", command_help, NULL, print_usage},
    {"version", "", "name, version and build (also --version, -v)", command_version, NULL, NULL},
};
enum { COMMAND_COUNT = sizeof Commands / sizeof Commands[0] };

UciExtraFn shell_uci_extra(const char *name) {
    for (int i = 0; i < COMMAND_COUNT; i++)
        if (Commands[i].uci && strcmp(name, Commands[i].name) == 0) return Commands[i].uci;
    return NULL;
}

static const Command *shell_command(const char *name) {
    for (int i = 0; i < COMMAND_COUNT; i++)
        if (Commands[i].shell && strcmp(name, Commands[i].name) == 0) return &Commands[i];
    return NULL;
}

/* Spellings of help and version that GNU tools and engine users try first. */
static const char *shell_alias(const char *word) {
    if (strcmp(word, "--help") == 0 || strcmp(word, "-h") == 0 || strcmp(word, "-help") == 0) return "help";
    if (strcmp(word, "--version") == 0 || strcmp(word, "-v") == 0 || strcmp(word, "-version") == 0) return "version";
    return word;
}

static void print_usage(FILE *out) {
    fprintf(out, "%s %s, a UCI chess engine.\n\n", ENGINE_NAME, ENGINE_VERSION);
    fprintf(out, "usage: gizum                   speak UCI on standard input and output (what a GUI runs)\n"
                 "       gizum COMMAND [ARGS]    run one shell command and exit\n"
                 "       gizum UCI-COMMAND ...   run one UCI command and exit, e.g. gizum go depth 12\n"
                 "                               (a go with no depth, nodes, movetime or clock: depth %d)\n\n"
                 "Shell commands:\n", UCI_SHELL_GO_DEPTH);
    for (int i = 0; i < COMMAND_COUNT; i++) {
        if (!Commands[i].shell) continue;
        char head[128];
        snprintf(head, sizeof head, "%s %s", Commands[i].name, Commands[i].args);
        if (strlen(head) > 30) fprintf(out, "  %s\n  %-30s  %s\n", head, "", Commands[i].summary);
        else fprintf(out, "  %-30s  %s\n", head, Commands[i].summary);
    }
    fprintf(out, "\nEach command's own usage: gizum COMMAND --help.\n"
                 "UCI mode: run gizum without arguments and send 'uci' for the options; every UCI command\n"
                 "(uci, setoption, position, go, ...) and the extras d, eval and bench work there.\n"
                 "Documentation: man gizum, or README.md in the source.\n");
}

/* A command's synopsis: its module's, or the line built from its row. */
static void print_command_usage(const Command *command, FILE *out) {
    if (command->usage) command->usage(out);
    else fprintf(out, "usage: gizum %s%s%s\n       %s\n", command->name, command->args[0] ? " " : "", command->args,
                 command->summary);
}

/* The synopsis of the shell command called name (the commands above print it with their errors). */
static void print_usage_of(const char *name, FILE *out) {
    print_command_usage(shell_command(name), out);
}

/* ./gizum help */
static int command_help(int argc, char **argv) {
    (void)argc;
    (void)argv;
    print_usage(stdout);
    return 0;
}

/* ./gizum --version */
static int command_version(int argc, char **argv) {
    (void)argc;
    (void)argv;
    version_print(stdout);
    return 0;
}

/* The first blank-separated word of arg (./gizum "go depth 10" is the UCI command go). */
static void first_word(const char *arg, char *out, size_t size) {
    while (*arg == ' ' || *arg == '\t') arg++;
    size_t n = 0;
    while (arg[n] && arg[n] != ' ' && arg[n] != '\t' && n + 1 < size) {
        out[n] = arg[n];
        n++;
    }
    out[n] = '\0';
}

/*
 * UCI commands from the shell. Arguments that hold blanks are one command
 * each, run in order on one engine up to "quit", as OpenBench calls
 * engines: ./gizum "setoption name Hash value 64" "genfens 10 seed 1 book
 * None" quit. Otherwise all arguments form one command, as in Stockfish:
 * ./gizum go depth 10.
 */
static int run_uci_arguments(int argc, char **argv) {
    for (int i = 0; i < argc; i++)
        if (strpbrk(argv[i], " \t")) return uci_run_commands(shell_uci_extra, argc, argv);
    return uci_run_command(shell_uci_extra, argc, argv);
}

int shell_main(int argc, char **argv) {
    if (argc < 2) {
        engine_init();
        return uci_loop(shell_uci_extra);
    }
    const Command *command = shell_command(shell_alias(argv[1]));
    if (command) {
        /* ./gizum COMMAND --help: the synopsis on stdout, as it was asked for. */
        if (argc >= 3 && strcmp(shell_alias(argv[2]), "help") == 0) {
            print_command_usage(command, stdout);
            return 0;
        }
        engine_init();
        return command->shell(argc - 2, argv + 2);
    }
    /* Anything else is one UCI command, as in Stockfish: ./gizum "go depth 10" or ./gizum go depth 10. */
    char word[64];
    first_word(argv[1], word, sizeof word);
    if (uci_is_command(word) || shell_uci_extra(word)) {
        engine_init();
        return run_uci_arguments(argc - 1, argv + 1);
    }
    fprintf(stderr, "gizum: unknown command '%.60s'\n\n", argv[1]);
    print_usage(stderr);
    return 2;
}
