/*
 * The UCI protocol: reads commands on the main thread, searches on the
 * search threads, writes every answer as whole lines through uci_print.
 *
 * Commands during a search:
 *   isready, stop, ponderhit, quit, d, eval, debug  answered at once;
 *   position   accepted; it only sets the position for the next `go`
 *              (each search thread works on its own copy);
 *   go         the running search is stopped (it prints its bestmove)
 *              and the new one starts, so every go gets one bestmove;
 *   setoption  MultiPV, Ponder, Move Overhead, UCI_Chess960, UCI_ShowWDL: accepted,
 *              used from the next go; Hash, Threads, Clear Hash:
 *   ucinewgame, bench, go perft:
 *              waited for if the search is already stopping, otherwise
 *              refused with an info string (send stop first).
 */
#ifndef GIZUM_UCI_H
#define GIZUM_UCI_H

#include <stdbool.h>

/* Longest accepted input line in bytes; longer lines are rejected whole. */
enum { UCI_LINE_MAX = 1 << 17 };

/* Runs the protocol on stdin/stdout until `quit` or end of input; returns the exit status. */
int uci_loop(void);

/*
 * Runs the arguments, joined with spaces, as one UCI command, waits for a
 * search it starts to finish, and returns (Stockfish's `./engine "go depth 5"`).
 */
int uci_run_command(int argc, char **argv);

/*
 * Runs each string as one UCI command on one engine, in order (a search is
 * finished before the next command) until `quit`, as OpenBench calls
 * engines: ./gizum "genfens 10 seed 1 book None" quit. 0 if every command
 * was known, 2 otherwise.
 */
int uci_run_commands(int count, char **commands);
/* True when name is a command the UCI loop knows (so `./gizum NAME ...` runs it). */
bool uci_is_command(const char *name);

#endif
