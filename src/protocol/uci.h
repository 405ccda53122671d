/*
 * The UCI protocol: reads commands on the main thread, searches on the
 * search threads, writes every answer as whole lines.
 *
 * Commands during a search:
 *   isready, stop, ponderhit, quit, debug  answered at once;
 *   position   accepted; it only sets the position for the next `go`
 *              (each search thread works on its own copy);
 *   go         the running search is stopped (it prints its bestmove)
 *              and the new one starts, so every go gets one bestmove;
 *   setoption  MultiPV, Ponder, Move Overhead, UCI_Chess960, UCI_ShowWDL: accepted,
 *              used from the next go; Hash, Threads, Clear Hash:
 *   ucinewgame, go perft:
 *              waited for if the search is already stopping, otherwise
 *              refused with an info string (send stop first).
 *
 * The protocol knows only its own commands. The program lends it more
 * (d, eval, bench, genfens: src/shell.c's table) through a UciExtraFinder.
 */
#ifndef GIZUM_UCI_H
#define GIZUM_UCI_H

#include <stdbool.h>
#include <stddef.h>

#include "position.h"

/* Longest accepted input line in bytes; longer lines are rejected whole. */
enum { UCI_LINE_MAX = 1 << 17 };

/* A go from the shell with no depth, nodes, movetime or clock searches this deep (nobody sends stop there). */
enum { UCI_SHELL_GO_DEPTH = 12 };

/* One command beyond the protocol, as UCI mode runs it. */
typedef struct {
    const Position *pos;          /* the position the next `go` would search */
    int argc;                     /* the words after the command's name */
    const char *const *argv;
    void *session;                /* the protocol's state, for idle() */
    /* Prints one "info string <text>" line. */
    void (*say)(const char *text);
    /*
     * True once no search runs: a stopping search is waited for; a running
     * one is left alone, said so, and false returned. Call it before
     * printing: the search prints its bestmove while it ends.
     */
    bool (*idle)(void *session, const char *what);
} UciCall;

typedef void (*UciExtraFn)(const UciCall *call);
/* The program's command called name, or NULL when it has none of that name. */
typedef UciExtraFn (*UciExtraFinder)(const char *name);

/* Runs the protocol on stdin/stdout until `quit` or end of input; returns the exit status. */
int uci_loop(UciExtraFinder extras);

/*
 * Runs the arguments, joined with spaces, as one UCI command, waits for a
 * search it starts to finish, and returns (Stockfish's `./engine "go depth 5"`).
 */
int uci_run_command(UciExtraFinder extras, int argc, char **argv);

/*
 * Runs each string as one UCI command on one engine, in order (a search is
 * finished before the next command) until `quit`, as OpenBench calls
 * engines: ./gizum "genfens 10 seed 1 book None" quit. Every search ends by
 * itself: a go without a bound searches UCI_SHELL_GO_DEPTH, and a go with a
 * word it cannot use is not run (its usage on stderr). A position it cannot
 * set ends the run (the reason on stderr). 0 if every command was known,
 * every go well-formed and every position set, 2 otherwise.
 */
int uci_run_commands(UciExtraFinder extras, int count, char **commands);
/* True when name is a command of the protocol itself. */
bool uci_is_command(const char *name);

/* A printable, bounded copy of user input for messages (control and non-ASCII bytes become '?'). */
const char *uci_shown(const char *in, char *out, size_t size);

#endif
