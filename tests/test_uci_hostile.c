/*
 * Hostile UCI input against the real binary (env GIZUM), table-driven. Each
 * row is raw input (one or more lines) and the reaction it must cause: a
 * substring of some output line (usually an "info string"), or no info
 * string at all. After EVERY row the engine must answer isready and play a
 * legal move from a fresh position. Covers unknown and truncated commands,
 * every option (read from the engine's own `uci` list) with bad values, bad
 * `go` numbers, FEN faults of every kind, huge lines, binary bytes, CR/LF
 * variants, commands during a search, quit at any moment and end of input.
 * Each check is one property over all the rows it runs on (CHECK_EACH,
 * tests/test.h); its message names the first row that breaks it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "init.h"
#include "fen.h"
#include "movegen.h"
#include "notation.h"
#include "position.h"
#include "uci.h"
#include "uci_test.h"

/* A reaction nobody prints: the row must produce no info string at all. */
#define NO_REACTION NULL

typedef struct {
    const char *input;   /* raw bytes; a final newline is added if missing */
    const char *expect;  /* substring of some output line, or NO_REACTION */
    int searches;        /* bestmove lines the row causes (each go that searches) */
    int readies;         /* readyok lines the row itself causes */
} Row;

static Position Local;
static int RowsRun;

static bool any_line_contains(const Session *s, const char *text) {
    for (int i = 0; i < s->count; i++)
        if (strstr(s->lines[i], text)) return true;
    return false;
}

/* Waits until n lines starting with prefix have been read (counting those already kept). */
static bool wait_count(Session *s, const char *prefix, int n, int timeoutMs) {
    long long deadline = session_now_ms() + timeoutMs;
    while (session_count(s, prefix) < n) {
        long long left = deadline - session_now_ms();
        if (left <= 0 || !session_read(s, (int)left)) return session_count(s, prefix) >= n;
    }
    return true;
}

/* The positions the probe after each row searches, three in turn. */
static const struct {
    const char *fen, *moves;
} Probes[] = {
    {NULL, "e2e4"},
    {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", NULL},
    {"8/2P5/8/8/8/k7/8/K7 w - - 0 1", "c7c8n"},
};

/* The probe positions are valid (checked once, not once per row). */
static void check_probes(void) {
    for (size_t i = 0; i < sizeof Probes / sizeof Probes[0]; i++)
        CHECK_EACH(set_game(&Local, Probes[i].fen, Probes[i].moves, false), "probe position %zu is invalid", i);
}

/* A legal move from a fresh position, three positions in turn. */
static void probe_legal_move(Session *s, const char *what) {
    int i = RowsRun % 3;
    set_game(&Local, Probes[i].fen, Probes[i].moves, false);
    session_forget(s);
    session_send(s, "position %s%s%s%s", Probes[i].fen ? "fen " : "startpos", Probes[i].fen ? Probes[i].fen : "",
                 Probes[i].moves ? " moves " : "", Probes[i].moves ? Probes[i].moves : "");
    session_send(s, "go depth 3");
    const char *bm = session_expect(s, "bestmove", SLOW);
    CHECK_EACH(bm != NULL, "%s: no bestmove afterwards", what);
    CHECK_EACH(!bm || bestmove_legal(&Local, bm), "%s: illegal bestmove afterwards: %s", what, bm);
    /* No bad option slipped through: MultiPV is still 1. */
    CHECK_EACH(!any_line_contains(s, " multipv 2 "), "%s: MultiPV changed", what);
}

/* Sends raw bytes, adding a final newline if missing. */
static void send_raw(Session *s, const char *input, size_t len) {
    session_write(s, input, len);
    if (len == 0 || input[len - 1] != '\n') session_write(s, "\n", 1);
}

/*
 * Runs one row: input, then stop (a no-op when idle) and isready. Checks
 * readyok, the number of bestmoves, the reaction, and then a legal move.
 */
static void run_row_bytes2(Session *s, const char *input, size_t len, const char *expect, const char *expect2,
                           int searches, int readies, const char *what) {
    session_forget(s);
    send_raw(s, input, len);
    session_send(s, "stop");
    session_send(s, "isready");
    bool ready = wait_count(s, "readyok", readies + 1, SLOW);
    CHECK_EACH(ready, "'%s': no readyok", what);
    if (!ready) return;
    /* readyok does not wait for a search that is stopping: its bestmove may follow.
     * A late extra one would be taken by the probe below and fail there or in the next row. */
    if (searches > 0) wait_count(s, "bestmove", searches, SLOW);
    CHECK_EACH(session_count(s, "bestmove") == searches, "'%s': %d bestmoves, expected %d", what,
               session_count(s, "bestmove"), searches);
    if (expect == NO_REACTION) {
        const char *l = session_last(s, "info string");
        CHECK_EACH(l == NULL, "'%s': expected no reaction, got '%s'", what, l ? l : "");
    } else {
        CHECK_EACH(any_line_contains(s, expect), "'%s': expected '%s'%s%s", what, expect,
                   session_last(s, "info string") ? ", got " : "",
                   session_last(s, "info string") ? session_last(s, "info string") : "");
    }
    if (expect2) CHECK_EACH(any_line_contains(s, expect2), "'%s': expected '%s' too", what, expect2);
    RowsRun++;
    probe_legal_move(s, what);
}

static void run_row_bytes(Session *s, const char *input, size_t len, const char *expect, int searches, int readies,
                          const char *what) {
    run_row_bytes2(s, input, len, expect, NULL, searches, readies, what);
}

static void run_row(Session *s, const Row *r) {
    char what[96];
    snprintf(what, sizeof what, "%.90s", r->input);
    for (char *p = what; *p; p++)
        if ((unsigned char)*p < 32 || (unsigned char)*p >= 127) *p = '?';
    run_row_bytes(s, r->input, strlen(r->input), r->expect, r->searches, r->readies, what);
}

static void run_rows(Session *s, const Row *rows, size_t n) {
    for (size_t i = 0; i < n; i++) run_row(s, &rows[i]);
}


/* ------------------------------------------------------------------ tables */

/* Unknown commands, truncated commands, wrong arguments. */
static const Row CommandRows[] = {
    {"xyzzy", "info string unknown command 'xyzzy'", 0, 0},
    {"GO", "info string unknown command 'GO'", 0, 0},
    {"Isready", "info string unknown command", 0, 0},
    {"QUIT", "info string unknown command", 0, 0},
    {"uci2", "info string unknown command", 0, 0},
    {"go_depth 3", "info string unknown command", 0, 0},
    {"positionstartpos", "info string unknown command", 0, 0},
    {"#comment", "info string unknown command", 0, 0},
    {"-", "info string unknown command", 0, 0},
    {"", NO_REACTION, 0, 0},
    {"   ", NO_REACTION, 0, 0},
    {"\t \t", NO_REACTION, 0, 0},
    {"\f\v", NO_REACTION, 0, 0},
    {"   isready   ", NO_REACTION, 0, 1},
    {"isready now please", NO_REACTION, 0, 1},
    {"register", NO_REACTION, 0, 0},
    {"register later", NO_REACTION, 0, 0},
    {"stop", NO_REACTION, 0, 0},
    {"stop stop stop", NO_REACTION, 0, 0},
    {"ponderhit", NO_REACTION, 0, 0},
    {"ponderhit e2e4", NO_REACTION, 0, 0},
    {"ucinewgame", NO_REACTION, 0, 0},
    {"ucinewgame now", NO_REACTION, 0, 0},
    {"uci", "uciok", 0, 0},
    {"uci uci", "uciok", 0, 0},
    {"debug", "info string debug: expected 'on' or 'off'", 0, 0},
    {"debug maybe", "info string debug: expected 'on' or 'off'", 0, 0},
    {"debug ON", "info string debug: expected 'on' or 'off'", 0, 0},
    {"debug on\ndebug off", NO_REACTION, 0, 0},
    {"d", "Fen: ", 0, 0},
    {"d d d", "Fen: ", 0, 0},
    {"eval", "Total", 0, 0},
    {"bench x", "info string bench: depth must be an integer", 0, 0},
    {"bench 0", "info string bench: depth must be an integer", 0, 0},
    {"bench -1", "info string bench: depth must be an integer", 0, 0},
    {"bench 99999999999999999999", "info string bench: depth must be an integer", 0, 0},
    {"bench 1.5", "info string bench: depth must be an integer", 0, 0},
    /* position, whole and truncated */
    {"position", "info string position rejected: expected 'startpos' or 'fen'", 0, 0},
    {"position fen", "info string position rejected: 'fen' needs a FEN", 0, 0},
    {"position fen moves e2e4", "info string position rejected: 'fen' needs a FEN", 0, 0},
    {"position startpos moves", NO_REACTION, 0, 0},
    {"position startpos moves e2e4 e7", "info string position rejected: move 2 'e7'", 0, 0},
    {"position startpos moves e2", "info string position rejected: move 1", 0, 0},
    {"position startpos move e2e4", "info string position rejected: expected 'moves'", 0, 0},
    {"position startpos e2e4", "info string position rejected: expected 'moves'", 0, 0},
    {"position startpos startpos", "info string position rejected: expected 'moves'", 0, 0},
    {"position moves e2e4", "info string position rejected: expected 'startpos' or 'fen'", 0, 0},
    {"position Startpos", "info string position rejected: expected 'startpos' or 'fen'", 0, 0},
    {"position FEN 4k3/8/8/8/8/8/8/4K3 w - - 0 1", "info string position rejected", 0, 0},
    {"position startpos moves e2e4 e2e4", "info string position rejected: move 2 'e2e4'", 0, 0},
    {"position startpos moves e2e5", "info string position rejected: move 1 'e2e5'", 0, 0},
    {"position startpos moves e1g1", "info string position rejected: move 1", 0, 0},
    {"position startpos moves e7e5", "info string position rejected: move 1", 0, 0},
    {"position startpos moves 0000", "info string position rejected: move 1", 0, 0},
    {"position startpos moves e2e4q", "info string position rejected: move 1", 0, 0},
    {"position startpos moves e2e4e7e5", "info string position rejected: move 1", 0, 0},
    {"position startpos moves a0a1", "info string position rejected: move 1", 0, 0},
    {"position startpos moves i2i4", "info string position rejected: move 1", 0, 0},
    {"position startpos moves Nf3", "info string position rejected: move 1 'Nf3'", 0, 0},
    {"position startpos moves E2E4", NO_REACTION, 0, 0},
    {"position startpos moves e2e4 moves e7e5", "info string position rejected: move 2 'moves'", 0, 0},
    {"position fen 8/8/8/8/8/8/8/8 w - - 0 1 moves", "info string position rejected", 0, 0},
    {"position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves e1e2 e8e7 e2e3 e7e6 e3e4 e6e5 e4e5",
     "info string position rejected: move 6 'e6e5'", 0, 0},
    /* setoption, whole and truncated */
    {"setoption", "info string setoption: expected 'setoption name <id> [value <x>]'", 0, 0},
    {"setoption name", "info string No such option", 0, 0},
    {"setoption name value 3", "info string No such option", 0, 0},
    {"setoption value 3", "info string setoption: expected", 0, 0},
    {"setoption Hash 3", "info string setoption: expected", 0, 0},
    {"setoption nam Hash value 3", "info string setoption: expected", 0, 0},
    {"setoption name Hash value", "info string Hash: value must be an integer", 0, 0},
    {"setoption name Hash", "info string Hash: value must be an integer", 0, 0},
    {"setoption name Hash 16", "info string No such option: Hash 16", 0, 0},
    {"setoption name Hash value 16 MB", "info string Hash: value must be an integer", 0, 0},
    {"setoption name NoSuchThing value 3", "info string No such option: NoSuchThing", 0, 0},
    {"setoption name Hash Size value 3", "info string No such option", 0, 0},
    {"setoption name Hashx value 3", "info string No such option", 0, 0},
    {"setoption name  Hash  value  16", NO_REACTION, 0, 0},
    {"setoption name Hash value 16\r", NO_REACTION, 0, 0},
    {"setoption NAME hash VALUE 16", NO_REACTION, 0, 0},
    {"setoption name HASH value 16", NO_REACTION, 0, 0},
    {"setoption name multipv value 1", NO_REACTION, 0, 0},
    {"setoption name clear hash", NO_REACTION, 0, 0},
    {"setoption name Clear Hash value 12", NO_REACTION, 0, 0},
    {"setoption name Ponder value TRUE\nsetoption name Ponder value False", NO_REACTION, 0, 0},
    {"setoption name BookFile value <empty>", NO_REACTION, 0, 0},
    {"setoption name OwnBook value true\nsetoption name BookFile value /nonexistent/book.bin\n"
     "setoption name OwnBook value false",
     "info string BookFile: ", 0, 0},
};

/* go: every numeric parameter with bad numbers; a go left without a bound searches depth 1 (the row's stop is a no-op then). */
static const char *const GoNumberKeys[] = {"wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "movetime", "mate"};
static const char *const BadGoNumbers[] = {"",   "x",    "1e3",  "0x10", "12abc", "1.5", "--5", "+",
                                           "99999999999999999999", "-99999999999999999999",
                                           "9223372036854775808", "-9223372036854775809"};

static const Row GoRows[] = {
    {"go", NO_REACTION, 1, 0},
    {"go infinite", NO_REACTION, 1, 0},
    {"go infinite infinite depth 2", NO_REACTION, 1, 0},
    {"go ponder", NO_REACTION, 1, 0},
    /* 0 is the least search; an unreadable limit that leaves no bound searches depth 1 (issue #38). */
    {"go depth 0", NO_REACTION, 1, 0},
    {"go depth -1", "info string go: 'depth' needs an integer from 0", 1, 0},
    {"go nodes 0", NO_REACTION, 1, 0},
    {"go nodes -5", "info string go: no limit left; searching depth 1", 1, 0},
    {"go movetime 0", NO_REACTION, 1, 0},
    {"go movetime -1", "info string go: 'movetime' needs an integer from 0", 1, 0},
    {"go movestogo 0 wtime 100", "info string go: 'movestogo' needs an integer from 1", 1, 0},
    {"go movestogo -3 wtime 100", "info string go: 'movestogo' needs an integer from 1", 1, 0},
    {"go mate 0", "info string go: 'mate' needs an integer from 1", 1, 0},
    {"go mate -2", "info string go: 'mate' needs an integer from 1", 1, 0},
    /* Accepted extremes: a negative or zero clock means "move at once". */
    {"go wtime -5 btime -5", NO_REACTION, 1, 0},
    {"go wtime 0 btime 0", NO_REACTION, 1, 0},
    {"go wtime -2305843009213693952 btime -1 winc -1000 binc -1000", NO_REACTION, 1, 0},
    {"go wtime 1 btime 1 winc 0 binc 0 movestogo 1", NO_REACTION, 1, 0},
    {"go wtime 2305843009213693951 btime 2305843009213693951 winc 2305843009213693951 binc 2305843009213693951 "
     "movestogo 1000000",
     NO_REACTION, 1, 0},
    {"go wtime 2305843009213693951 btime 5 winc 2305843009213693951 movestogo 1", NO_REACTION, 1, 0},
    {"go movetime 2305843009213693951", NO_REACTION, 1, 0},
    {"go movetime 1", NO_REACTION, 1, 0},
    {"go depth 1000000", NO_REACTION, 1, 0},
    {"go depth 1000001", "info string go: 'depth' needs an integer", 1, 0},
    {"go nodes 9223372036854775807", NO_REACTION, 1, 0},
    {"go nodes 1", NO_REACTION, 1, 0},
    {"go mate 1000000", NO_REACTION, 1, 0},
    {"go depth 1 depth 2 depth 1", NO_REACTION, 1, 0},
    {"go depth 1 nodes 1 movetime 1 mate 1 wtime 1 btime 1", NO_REACTION, 1, 0},
    {"go depth", "info string go: 'depth' needs an integer", 1, 0},
    {"go depth nodes 50", "info string go: 'depth' needs an integer", 1, 0},
    {"go wtime btime 100", "info string go: 'wtime' needs an integer", 1, 0},
    {"go fast", "info string go: unknown parameter 'fast'", 1, 0},
    {"go depth 2 please", "info string go: unknown parameter 'please'", 1, 0},
    {"go DEPTH 2", "info string go: unknown parameter 'DEPTH'", 1, 0},
    {"go 5", "info string go: unknown parameter '5'", 1, 0},
    /* searchmoves: garbage and illegal moves are named and skipped */
    {"go searchmoves", NO_REACTION, 1, 0},
    {"go searchmoves depth 2", NO_REACTION, 1, 0},
    {"position startpos\ngo searchmoves zz depth 2", "info string go searchmoves: 'zz' is not a legal move", 1, 0},
    {"position startpos\ngo searchmoves e7e5 depth 2", "info string go searchmoves: 'e7e5' is not a legal move", 1, 0},
    {"position startpos\ngo searchmoves e2e5 a1a1 0000 e2e4q depth 2", "info string go searchmoves: 'e2e5'", 1, 0},
    {"position startpos\ngo searchmoves e2e4 e2e4 e2e4 depth 2", NO_REACTION, 1, 0},
    {"position startpos\ngo searchmoves E2E4 d2d4 depth 2", NO_REACTION, 1, 0},
    {"go depth 2 searchmoves", NO_REACTION, 1, 0},
    /* perft: bad depths start nothing */
    {"go perft", "info string go: 'perft' needs an integer", 0, 0},
    {"go perft 0", "info string go: 'perft' needs an integer", 0, 0},
    {"go perft -1", "info string go: 'perft' needs an integer", 0, 0},
    {"go perft 21", "info string go: 'perft' needs an integer", 0, 0},
    {"go perft x", "info string go: 'perft' needs an integer", 0, 0},
    {"position startpos\ngo perft 1", "Nodes searched: 20", 0, 0},
};

/* FEN faults of every kind: each is refused and the previous position kept. */
static const char *const BadFens[] = {
    /* field count */
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 2 3 4",
    "w KQkq - 0 1",
    /* board: letters, rank lengths, rank counts */
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNx w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN* w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1R w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
    "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/0/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1",
    "rnbqkbnr//pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "/////// w - - 0 1",
    "8 w - - 0 1",
    /* kings */
    "8/8/8/8/8/8/8/8 w - - 0 1",
    "8/8/8/8/8/8/8/K7 w - - 0 1",
    "k7/8/8/8/8/8/8/8 w - - 0 1",
    "kk6/8/8/8/8/8/8/K7 w - - 0 1",
    "k7/8/8/8/8/8/8/KK6 w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w KQkq - 0 1",
    "8/8/8/8/8/8/k7/K7 w - - 0 1",
    "kK6/8/8/8/8/8/8/8 b - - 0 1",
    /* pawns and material */
    "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNp w KQkq - 0 1",
    "k6P/8/8/8/8/8/8/K7 w - - 0 1",
    "k7/8/8/8/8/8/8/K6p b - - 0 1",
    "k7/pppppppp/pppppppp/8/8/8/8/K7 w - - 0 1",
    "k7/8/8/8/8/P7/PPPPPPPP/K7 w - - 0 1",
    "1nQQQQBk/PQ4R1/Q5QN/Q5Q1/Q2Q3Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1", /* 257 legal moves: overflowed move lists */
    "QQQQQQQk/QQQQQQQQ/Q7/8/8/8/8/K7 b - - 0 1",
    /* side to move */
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR white KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR - KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR wb KQkq - 0 1",
    /* the side not to move in check */
    "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/4r3/4K3 b - - 0 1",
    "4k3/8/8/8/8/8/3p4/4K3 b - - 0 1",
    "4k3/8/8/8/8/5n2/8/4K3 b - - 0 1",
    /* castling rights */
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq1 - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w kqKQz - 0 1",
    "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w Q - 0 1",
    "4k3/8/8/8/8/8/8/R3K3 w K - 0 1",
    "r3k3/8/8/8/8/8/8/4K3 w k - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w K - 0 1",
    "4k3/8/8/8/8/8/4K3/R6R w KQ - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w Z - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w B - 0 1",
    /* en passant */
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6 0 1",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e9 0 1",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq z3 0 1",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3e 0 1",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq E3 0 1",
    "k7/8/8/4P3/8/8/8/K7 w - d6 0 1",
    "k7/8/3p4/3pP3/8/8/8/K7 w - d6 0 1",
    "k7/8/8/3pP3/8/8/8/K7 w - d3 0 1",
    /* counters */
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 y",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 5x 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1.5 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999999999999 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999999999999999999",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2147483648 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2147483648",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -0x1 1",
};

/* Odd but meaningful FENs: accepted, and the engine plays from them. */
static const char *const OddGoodFens[] = {
    "  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w   KQkq   -   0   1  ",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\tw\tKQkq\t-\t0\t1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 150 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 10000 100000",
    "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/71/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/11111111/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w qkQK - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
    "k7/8/8/4P3/8/8/8/K7 w - - 0 1",
    "k7/8/8/8/3pP3/8/8/K7 b - e3 0 1",   /* ep square recorded: d4xe3 is legal */
    "k7/8/8/8/4P3/8/8/K7 b - e3 0 1",    /* no pawn can take: accepted, the square dropped */
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",    /* stalemate: bestmove 0000 */
    "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",    /* checkmate: bestmove 0000 */
    "k7/8/8/8/8/8/8/K7 w - - 0 1",
    "k7/8/8/8/8/8/8/KQQQQQQ1 w - - 0 1",
    "QQQQQQQk/QQQQQQQQ/8/8/8/8/8/K7 b - - 0 1",  /* 16 pieces: possible count, black is mated */
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBK1BNR w KQ - 0 1",   /* non-classical rights: Chess960-style castling */
};

/* CR/LF variants and blank-ish lines: CR counts as a blank. */
static const Row LineEndRows[] = {
    {"isready\r\n", NO_REACTION, 0, 1},
    {"isready\r\r\r\n", NO_REACTION, 0, 1},
    {"\r\n", NO_REACTION, 0, 0},
    {"\r\r\n\r\n\n\n", NO_REACTION, 0, 0},
    {"isready\risready\r\n", NO_REACTION, 0, 1}, /* one line: "isready isready" */
    {"position startpos moves e2e4\r\nd\r\n", "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", 0, 0},
    {"go depth 1\r\n", NO_REACTION, 1, 0},
    {"setoption name Move Overhead value 10\r\n", NO_REACTION, 0, 0},
    {"\n\n\n\n\n\n\n\n\n\n", NO_REACTION, 0, 0},
    {"position startpos moves e2e4\n\rd", "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b", 0, 0},
};

/* ------------------------------------------------------------------ sections */

/* Every option from the engine's own `uci` list, with bad and borderline values. */
typedef struct {
    char name[64];
    char type[16];
    long long min, max;
} OptionInfo;

static int read_options(Session *s, OptionInfo *out, int cap) {
    session_forget(s);
    session_send(s, "uci");
    CHECK(session_expect(s, "uciok", FAST) != NULL, "uci: no uciok");
    int n = 0;
    for (int i = 0; i < s->count && n < cap; i++) {
        const char *l = s->lines[i];
        if (!starts_with(l, "option name ")) continue;
        const char *t = strstr(l, " type ");
        if (!t) continue;
        OptionInfo *o = &out[n++];
        size_t len = (size_t)(t - (l + 12));
        snprintf(o->name, sizeof o->name, "%.*s", (int)(len < sizeof o->name ? len : sizeof o->name - 1), l + 12);
        sscanf(t, " type %15s", o->type);
        o->min = info_int(l, "min", 0);
        const char *mx = strstr(l, " max ");
        o->max = mx ? atoll(mx + 5) : 0;
    }
    return n;
}

static void test_options(Session *s) {
    OptionInfo opts[64];
    int n = read_options(s, opts, 64);
    CHECK(n >= 10, "uci lists only %d options", n);
    char line[2048], expect[160], big[1400];
    memset(big, '7', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    int spins = 0, checks = 0;
    for (int i = 0; i < n; i++) {
        const OptionInfo *o = &opts[i];
        if (strcmp(o->type, "spin") == 0) {
            spins++;
            snprintf(expect, sizeof expect, "info string %.63s: value must be an integer from %lld to %lld", o->name,
                     o->min, o->max);
            char low[32], high[32];
            snprintf(low, sizeof low, "%lld", o->min - 1);
            snprintf(high, sizeof high, "%lld", o->max + 1);
            const char *bad[] = {low, high, "", "x", "ten", "1.0", "1e2", "0x10", "7abc", "--1", "-", "+",
                                 "99999999999999999999", "-99999999999999999999", "2147483648", "-2147483649",
                                 "9223372036854775807", "-9223372036854775808", "1 2", "true"};
            for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
                snprintf(line, sizeof line, "setoption name %.63s value %s", o->name, bad[b]);
                run_row_bytes(s, line, strlen(line), expect, 0, 0, line);
            }
            /* Without 'value', and with the name in another case. */
            snprintf(line, sizeof line, "setoption name %.63s", o->name);
            run_row_bytes(s, line, strlen(line), expect, 0, 0, line);
            snprintf(line, sizeof line, "setoption name %.63s value -1", o->name);
            if (o->min >= 0) run_row_bytes(s, line, strlen(line), expect, 0, 0, line);
        } else if (strcmp(o->type, "check") == 0) {
            checks++;
            snprintf(expect, sizeof expect, "info string %.63s: value must be true or false", o->name);
            const char *bad[] = {"", "1", "0", "yes", "no", "on", "off", "truee", "t", "-1", "99999999999999999999",
                                 "true false"};
            for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
                snprintf(line, sizeof line, "setoption name %.63s value %s", o->name, bad[b]);
                run_row_bytes(s, line, strlen(line), expect, 0, 0, line);
            }
            snprintf(line, sizeof line, "setoption name %.63s", o->name);
            run_row_bytes(s, line, strlen(line), expect, 0, 0, line);
        } else if (strcmp(o->type, "string") == 0) {
            /* An overlong value is refused whole; the option keeps its value. */
            snprintf(line, sizeof line, "setoption name %.63s value %s", o->name, big);
            run_row_bytes(s, line, strlen(line), "info string setoption: option value too long", 0, 0,
                          "string option: overlong value");
        } else if (strcmp(o->type, "button") == 0) {
            /* A button ignores any value. */
            snprintf(line, sizeof line, "setoption name %.63s value garbage 99999999999999999999", o->name);
            run_row_bytes(s, line, strlen(line), NO_REACTION, 0, 0, line);
        }
        /* Mixed-case name: found; wrong type for spins and checks. */
        char lower[64];
        snprintf(lower, sizeof lower, "%.63s", o->name);
        for (char *p = lower; *p; p++)
            if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
        snprintf(line, sizeof line, "setoption name %s value ~", lower);
        if (strcmp(o->type, "spin") == 0 || strcmp(o->type, "check") == 0)
            run_row_bytes(s, line, strlen(line), "info string ", 0, 0, line);
        /* A name with a trailing word is another option. */
        snprintf(line, sizeof line, "setoption name %.63s x value 1", o->name);
        run_row_bytes(s, line, strlen(line), "info string No such option", 0, 0, line);
    }
    CHECK(spins >= 6 && checks >= 4, "uci lists %d spin and %d check options", spins, checks);

    /* An overlong name; a valid Hash larger than this machine's memory. */
    char longName[600];
    memset(longName, 'N', sizeof longName - 1);
    longName[sizeof longName - 1] = '\0';
    snprintf(line, sizeof line, "setoption name %s value 1", longName);
    run_row_bytes(s, line, strlen(line), "info string setoption: option name too long", 0, 0, "overlong option name");
    long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
    if (pages > 0 && pageSize > 0 && (unsigned long long)pages * (unsigned long long)pageSize < (65536ULL << 20))
        run_row_bytes(s, "setoption name Hash value 65536", 31, "info string Hash: could not allocate 65536 MB", 0, 0,
                      "Hash 65536 on a smaller machine");
}

static void test_go_numbers(Session *s) {
    char line[256], expect[96];
    for (size_t k = 0; k < sizeof GoNumberKeys / sizeof GoNumberKeys[0]; k++)
        for (size_t v = 0; v < sizeof BadGoNumbers / sizeof BadGoNumbers[0]; v++) {
            snprintf(line, sizeof line, "go %s %s", GoNumberKeys[k], BadGoNumbers[v]);
            snprintf(expect, sizeof expect, "info string go: '%s' needs an integer", GoNumberKeys[k]);
            run_row_bytes(s, line, strlen(line), expect, 1, 0, line);
        }
    run_rows(s, GoRows, sizeof GoRows / sizeof GoRows[0]);

    /* searchmoves limits the choice to the legal moves listed. */
    set_game(&Local, NULL, NULL, false);
    session_forget(s);
    session_send(s, "position startpos");
    session_send(s, "go searchmoves zz a2a3 e7e5 h2h4 depth 3");
    const char *bm = session_expect(s, "bestmove", SLOW);
    CHECK(bm && (starts_with(bm, "bestmove a2a3") || starts_with(bm, "bestmove h2h4")),
          "searchmoves with garbage: bestmove '%s' not among a2a3 h2h4", bm ? bm : "(none)");
}

static void test_fens(Session *s) {
    char line[512];
    for (size_t i = 0; i < sizeof BadFens / sizeof BadFens[0]; i++) {
        /* The rejected FEN leaves the position set just before. */
        snprintf(line, sizeof line, "position startpos moves d2d4\nposition fen %s\nd", BadFens[i]);
        char what[160];
        snprintf(what, sizeof what, "bad FEN '%s'", BadFens[i]);
        run_row_bytes2(s, line, strlen(line), "info string position rejected",
                       "Fen: rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1", 0, 0, what);
    }
    /* Re-check one row in detail: the message names the fault, the position is unchanged. */
    session_forget(s);
    session_send(s, "position startpos moves d2d4");
    session_send(s, "position fen 4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1");
    session_send(s, "d");
    session_send(s, "isready");
    session_expect(s, "readyok", SLOW);
    const char *fen = session_last(s, "Fen: ");
    CHECK(fen && strcmp(fen, "Fen: rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1") == 0,
          "a rejected FEN changed the position: %s", fen ? fen : "(none)");
    CHECK(any_line_contains(s, "castling right 'K' but no rook"), "castling fault not named");

    for (size_t i = 0; i < sizeof OddGoodFens / sizeof OddGoodFens[0]; i++) {
        char err[256];
        bool ok = pos_set_fen(&Local, OddGoodFens[i], false, err, sizeof err);
        CHECK_EACH(ok, "library refuses odd FEN '%s': %s", OddGoodFens[i], err);
        if (!ok) continue;
        session_forget(s);
        session_send(s, "position fen %s", OddGoodFens[i]);
        session_send(s, "go depth 4");
        const char *bm = session_expect(s, "bestmove", SLOW);
        CHECK_EACH(session_count(s, "info string position rejected") == 0, "odd FEN refused: '%s'", OddGoodFens[i]);
        CHECK_EACH(bm && bestmove_legal(&Local, bm), "odd FEN '%s': bestmove '%s'", OddGoodFens[i], bm ? bm : "(none)");
        RowsRun++;
    }
    /* The ep row: the pawn capture en passant is a legal answer the engine knows. */
    session_forget(s);
    session_send(s, "position fen k7/8/8/8/3pP3/8/8/K7 b - e3 0 1 moves d4e3");
    session_send(s, "d");
    session_send(s, "isready");
    session_expect(s, "readyok", SLOW);
    CHECK(session_count(s, "info string") == 0, "en passant from a FEN refused");
}

/* 1 MB lines, lines at the length limit, binary bytes, NULs. */
static void test_big_and_binary(Session *s) {
    size_t big = 1 << 20;
    char *line = malloc(big + 2);
    /* 1 MB of one letter, and a 1 MB position command: both ignored whole. */
    memset(line, 'a', big);
    run_row_bytes(s, line, big, "info string line ignored: longer than", 0, 0, "1 MB of 'a'");
    memcpy(line, "position startpos moves ", 24);
    for (size_t i = 24; i + 20 < big; i += 20) memcpy(line + i, "g1f3 g8f6 f3g1 f6g8 ", 20);
    run_row_bytes(s, line, big - 1, "info string line ignored: longer than", 0, 0, "1 MB position line");
    /* 1 MB of spaces and of newlines-free binary junk. */
    memset(line, ' ', big);
    run_row_bytes(s, line, big, "info string line ignored", 0, 0, "1 MB of spaces");
    for (size_t i = 0; i < big; i++) {
        unsigned char c = (unsigned char)(1 + (i * 7919) % 255); /* every byte but NUL ... */
        line[i] = (char)(c == '\n' ? 'x' : c);                    /* ... and newline */
    }
    run_row_bytes(s, line, big, "info string line ignored", 0, 0, "1 MB of binary bytes");

    /* Exactly UCI_LINE_MAX bytes is accepted; one more is not. */
    memset(line, ' ', UCI_LINE_MAX + 1);
    memcpy(line, "go depth 1", 10);
    run_row_bytes(s, line, UCI_LINE_MAX, NO_REACTION, 1, 0, "go depth 1 padded to UCI_LINE_MAX");
    run_row_bytes(s, line, UCI_LINE_MAX + 1, "info string line ignored: longer than", 0, 0,
                  "go depth 1 padded to UCI_LINE_MAX + 1");
    /* The most words a line can hold. */
    for (size_t i = 0; i < UCI_LINE_MAX; i += 2) line[i] = 'w', line[i + 1] = ' ';
    memcpy(line, "d ", 2);
    run_row_bytes(s, line, UCI_LINE_MAX, "Fen: ", 0, 0, "d with 65535 words");
    memcpy(line, "ucinewgame ", 11);
    run_row_bytes(s, line, UCI_LINE_MAX, NO_REACTION, 0, 0, "ucinewgame with 65530 words");
    memcpy(line, "position startpos ", 18);
    run_row_bytes(s, line, UCI_LINE_MAX, "info string position rejected: expected 'moves'", 0, 0,
                  "position with 65530 words");
    memcpy(line, "setoption name Hash value ", 26);
    run_row_bytes(s, line, UCI_LINE_MAX, "info string setoption: option value too long", 0, 0, "setoption with 65535 words");
    free(line);

    static const struct {
        const char *bytes;
        size_t len;
        const char *expect;
        int searches;
    } Binary[] = {
        {"\0", 1, "info string line ignored: it contains a NUL byte", 0},
        {"isready\0", 8, "info string line ignored: it contains a NUL byte", 0},
        {"go\0depth 3", 10, "info string line ignored: it contains a NUL byte", 0},
        {"\xff\xfe\xfd", 3, "info string unknown command '?\?\?'", 0},
        {"\xef\xbb\xbfisready", 10, "info string unknown command '?\?\?isready'", 0},
        {"\x1b[2J\x1b[H", 7, "info string unknown command", 0},
        {"\x80\x81\x82 \x83", 5, "info string unknown command", 0},
        {"go \xc3\xa9", 5, "info string go: unknown parameter '?\?'", 1},
        {"position startpos moves e2e4 \xe2\x99\x9e", 32, "info string position rejected: move 2 '?\?\?'", 0},
        {"setoption name Hash value 1\x7f", 28, "info string Hash: value must be an integer", 0},
        {"\x04\x03\x1a", 3, "info string unknown command", 0},
    };
    for (size_t i = 0; i < sizeof Binary / sizeof Binary[0]; i++) {
        char what[48];
        snprintf(what, sizeof what, "binary row %zu", i);
        run_row_bytes(s, Binary[i].bytes, Binary[i].len, Binary[i].expect, Binary[i].searches, 0, what);
    }
}

/*
 * Commands during `go infinite` (the behaviour documented in uci.h):
 * answered at once, accepted for the next go, or refused with an info
 * string; never a second bestmove, never a change to the running search.
 */
static const Row DuringSearchRows[] = {
    {"go infinite\nisready", NO_REACTION, 1, 1},
    {"go infinite\nuci", "uciok", 1, 0},
    {"go infinite\nd", "Fen: ", 1, 0},
    {"go infinite\neval", "Total", 1, 0},
    {"go infinite\ndebug on\ndebug off", NO_REACTION, 1, 0},
    {"go infinite\nponderhit", NO_REACTION, 1, 0},
    {"go infinite\nregister later", NO_REACTION, 1, 0},
    {"go infinite\nposition startpos moves e2e4", NO_REACTION, 1, 0},
    {"go infinite\nposition fen 8/8/8 w - - 0 1", "info string position rejected", 1, 0},
    {"go infinite\nsetoption name Hash value 32", "info string Hash ignored: a search is running", 1, 0},
    {"go infinite\nsetoption name Threads value 2", "info string Threads ignored: a search is running", 1, 0},
    {"go infinite\nsetoption name Clear Hash", "info string Clear Hash ignored: a search is running", 1, 0},
    {"go infinite\nsetoption name Hash value x", "info string Hash: value must be an integer", 1, 0},
    {"go infinite\nsetoption name MultiPV value 1", NO_REACTION, 1, 0},
    {"go infinite\nucinewgame", "info string ucinewgame ignored: a search is running", 1, 0},
    {"go infinite\nbench 1", "info string bench ignored: a search is running", 1, 0},
    {"go infinite\ngo perft 2", "info string go perft ignored: a search is running", 1, 0},
    {"go infinite\nxyzzy", "info string unknown command", 1, 0},
    {"go infinite\ngo depth 2", NO_REACTION, 2, 0},
    {"go infinite\ngo infinite\ngo infinite", NO_REACTION, 3, 0},
    {"go infinite\nstop\nstop\nstop", NO_REACTION, 1, 0},
    {"go ponder\nisready", NO_REACTION, 1, 1},
    {"go ponder\nposition startpos\nucinewgame", "info string ucinewgame ignored", 1, 0},
    {"go ponder\nponderhit\nponderhit", NO_REACTION, 1, 0},
    /* A search already told to stop is waited for: the command then applies. */
    {"go infinite\nstop\nsetoption name Hash value 16\nucinewgame", NO_REACTION, 1, 0},
    {"go infinite\nstop\ngo perft 1", "Nodes searched: ", 1, 0},
};

/* The position sent during a search is the one the next go searches, and the running search is unharmed. */
static void test_position_during_search(Session *s) {
    session_forget(s);
    session_send(s, "position startpos moves g1f3");
    session_send(s, "go infinite");
    session_send(s, "position startpos moves e2e4 e7e5");
    session_send(s, "setoption name MultiPV value 2");
    session_send(s, "isready");
    CHECK(session_expect(s, "readyok", FAST) != NULL, "position during search: no readyok");
    CHECK(session_quiet(s, "bestmove", 200), "position during search ended the search");
    session_send(s, "stop");
    const char *bm = session_expect(s, "bestmove", FAST);
    set_game(&Local, NULL, "g1f3", false);
    CHECK(bm && bestmove_legal(&Local, bm), "the running search changed its position: %s", bm ? bm : "(none)");
    CHECK(!any_line_contains(s, " multipv 2 "), "MultiPV changed the running search");
    session_forget(s);
    session_send(s, "go depth 4");
    bm = session_expect(s, "bestmove", SLOW);
    set_game(&Local, NULL, "e2e4 e7e5", false);
    CHECK(bm && bestmove_legal(&Local, bm), "next go ignores the position sent during the search: %s", bm ? bm : "(none)");
    CHECK(any_line_contains(s, " multipv 2 "), "MultiPV set during the search is not used by the next go");
    session_send(s, "setoption name MultiPV value 1");
}

/* quit and end of input at any moment: a prompt exit with status 0, and every search's bestmove. */
static void test_quit_and_eof(void) {
    static const struct {
        const char *input;
        bool closeOnly;   /* end of input instead of quit */
        int bestmoves;    /* -1: not checked (0 or 1 depending on timing) */
    } Cases[] = {
        {"quit", false, 0},
        {"quit now", false, 0},
        {"uci\nquit\ngo depth 5", false, 0},
        {"go infinite\nquit", false, 1},
        {"go ponder\nquit", false, 1},
        {"setoption name Ponder value true\ngo ponder wtime 60000 btime 60000\nquit", false, 1},
        {"go depth 60\nquit", false, 1},
        {"go movetime 60000\nquit", false, 1},
        {"setoption name Threads value 2\ngo infinite\nquit", false, 1},
        {"go infinite\nstop\nquit", false, 1},
        {"go infinite\nisready\nquit", false, 1},
        {"go perft 4\nquit", false, 0},
        {"bench 1\nquit", false, 0},
        {"", true, 0},
        {"uci", true, 0},
        {"isready", true, 0},
        {"go infinite", true, 1},
        {"go ponder", true, 1},
        {"setoption name Threads value 2\ngo infinite", true, 1},
        {"go depth 60", true, 1},
        {"go depth 2", true, 1},
        {"go infinite\nstop", true, 1},
        {"position startpos moves e2e4 e7", true, 0},
        {"go depth 1\x0b", true, 1},
    };
    for (size_t i = 0; i < sizeof Cases / sizeof Cases[0]; i++) {
        Session s;
        char what[96];
        snprintf(what, sizeof what, "%s '%.60s'", Cases[i].closeOnly ? "EOF after" : "quit in", Cases[i].input);
        for (char *p = what; *p; p++)
            if (*p == '\n' || (unsigned char)*p < 32) *p = '|';
        if (!open_session(&s, what)) return;
        session_write(&s, Cases[i].input, strlen(Cases[i].input));
        if (Cases[i].input[0]) session_write(&s, "\n", 1);
        /* Let a search get going, so that quit lands in the middle of it. */
        if (strstr(Cases[i].input, "go ")) session_quiet(&s, "bestmove", 150);
        /* bench runs in the command loop, so quit waits for it: time the quit alone, since the bench's
         * own time is the build's and the machine's (ThreadSanitizer beside a match: over 3 s). */
        if (starts_with(Cases[i].input, "bench")) session_expect(&s, "Total time", SLOW);
        long long t0 = session_now_ms();
        int status = session_close(&s, FAST);
        long long ms = session_now_ms() - t0;
        CHECK_EACH(status == 0, "%s: exit status %d", what, status);
        CHECK_EACH(ms < FAST, "%s: exit took %lld ms", what, ms);
        if (Cases[i].bestmoves >= 0)
            CHECK_EACH(s.closeBestmoves == Cases[i].bestmoves, "%s: %d bestmoves, expected %d", what, s.closeBestmoves,
                       Cases[i].bestmoves);
    }

    /* End of input in the middle of a line: the partial line is still a command. */
    Session s;
    if (!open_session(&s, "partial line")) return;
    session_write(&s, "go depth 2", 10);
    int status = session_close(&s, FAST);
    CHECK(status == 0 && s.closeBestmoves == 1, "EOF after a partial 'go depth 2': status %d, %d bestmoves", status,
          s.closeBestmoves);
    /* ... and a partial 1 MB line is ignored. */
    if (!open_session(&s, "partial 1 MB line")) return;
    char *big = malloc(1 << 20);
    memset(big, 'q', 1 << 20);
    session_write(&s, big, 1 << 20);
    free(big);
    status = session_close(&s, FAST);
    CHECK(status == 0, "EOF after a partial 1 MB line: status %d", status);
}

int main(void) {
    engine_init();
    long long t0 = session_now_ms();
    Session s;
    check_probes();
    if (!open_session(&s, "hostile input")) return test_report();
    test_options(&s);
    run_rows(&s, CommandRows, sizeof CommandRows / sizeof CommandRows[0]);
    test_go_numbers(&s);
    test_fens(&s);
    run_rows(&s, LineEndRows, sizeof LineEndRows / sizeof LineEndRows[0]);
    test_big_and_binary(&s);
    run_rows(&s, DuringSearchRows, sizeof DuringSearchRows / sizeof DuringSearchRows[0]);
    test_position_during_search(&s);
    session_send(&s, "quit");
    CHECK(session_close(&s, FAST) == 0, "hostile session: no clean exit");
    test_quit_and_eof();
    printf("%d hostile rows, each followed by isready and a legal move (%lld ms)\n", RowsRun, session_now_ms() - t0);
    return test_report();
}
