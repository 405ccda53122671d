/*
 * Limits of the real binary (env GIZUM): games of thousands of plies (in one
 * command and built up move by move), memory that stays within Hash plus a
 * fixed overhead whatever the input (read from /proc/<pid>/status), and
 * searches at the ply limit (go depth 250 / 1000) that must end in a legal
 * move without overflowing anything.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "init.h"
#include "fen.h"
#include "movegen.h"
#include "notation.h"
#include "position.h"
#include "uci.h"
#include "uci_test.h"

/*
 * Fixed memory the engine may use beyond the hash table (MB): code, buffers,
 * thread stacks and tables, and `bench`, which searches with its own 16 MB table.
 */
enum { OVERHEAD_BOUND_MB = 48 };

static Position Local;

/* Appends the knight shuffle g1f3 g8f6 f3g1 f6g8 until the move list has `plies` moves. */
static char *shuffle_game(int plies, size_t *lenOut) {
    static const char *const Cycle[4] = {"g1f3", "g8f6", "f3g1", "f6g8"};
    char *buf = malloc((size_t)plies * 5 + 64);
    size_t len = 0;
    for (int i = 0; i < plies; i++) len += (size_t)sprintf(buf + len, "%s%s", i ? " " : "", Cycle[i % 4]);
    buf[len] = '\0';
    if (lenOut) *lenOut = len;
    return buf;
}

/* "d", and the FEN it shows. */
static void expect_fen(Session *s, const char *fen, const char *what) {
    session_forget(s);
    session_send(s, "d");
    sync_engine(s, what);
    const char *l = session_last(s, "Fen: ");
    CHECK(l && strcmp(l + 5, fen) == 0, "%s: d shows '%s', expected '%s'", what, l ? l + 5 : "(none)", fen);
}

static void go_legal(Session *s, const char *go, const char *what) {
    session_forget(s);
    session_send(s, "%s", go);
    const char *bm = session_expect(s, "bestmove", SLOW);
    CHECK(bm && bestmove_legal(&Local, bm), "%s: bestmove '%s' after %s", what, bm ? bm : "(none)", go);
    CHECK(session_count(s, "info string") == 0, "%s: %s", what, session_last(s, "info string"));
}

/* ------------------------------------------------------------------ long games */

static void test_long_games(void) {
    Session s;
    if (!open_session(&s, "long games")) return;

    /* 6000 plies in one command: the position is right and the engine plays. */
    enum { PLIES = 6000 };
    char *moves = shuffle_game(PLIES, NULL);
    session_send(&s, "position startpos moves %s", moves);
    expect_fen(&s, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 6000 3001", "6000 plies");
    CHECK(set_game(&Local, NULL, moves, false), "6000 plies: local replay");
    go_legal(&s, "go depth 5", "after 6000 plies");
    free(moves);

    /* Then irreversible moves on top (the history is cut there), and more shuffles. */
    char *more = shuffle_game(2000, NULL);
    size_t cap = 2 * strlen(more) + 256;
    char *line = malloc(cap);
    snprintf(line, cap, "e2e4 e7e5 %s d2d4 e5d4 %s", more, more);
    session_send(&s, "position startpos moves %s", line);
    CHECK(set_game(&Local, NULL, line, false), "4004 plies with captures: local replay");
    char fen[128];
    pos_get_fen(&Local, fen);
    CHECK(strstr(fen, " 2000 2003") != NULL, "4004 plies: unexpected local FEN %s", fen);
    expect_fen(&s, fen, "4004 plies with captures");
    go_legal(&s, "go depth 5", "after 4004 plies with captures");
    free(line);
    free(more);

    /* The longest game a line can hold (~26000 plies). */
    int longest = (UCI_LINE_MAX - 40) / 5;
    longest -= longest % 4;
    size_t len;
    moves = shuffle_game(longest, &len); /* len + 24 <= UCI_LINE_MAX by the choice of longest */
    char *cmd = malloc(len + 32);
    int n = sprintf(cmd, "position startpos moves %s\n", moves);
    session_write(&s, cmd, (size_t)n);
    snprintf(fen, sizeof fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - %d %d", longest, 1 + longest / 2);
    expect_fen(&s, fen, "longest line");
    CHECK(set_game(&Local, NULL, moves, false), "longest line: local replay");
    go_legal(&s, "go depth 5", "after the longest line");
    printf("one-line games of 6000, 4004 and %d plies\n", longest);
    free(cmd);
    free(moves);

    /* A game built up move by move as a GUI sends it, searched now and then. */
    enum { GROWN = 3000, STEP = 4 };
    moves = shuffle_game(GROWN, NULL);
    long long t0 = session_now_ms();
    Property grownLegal = {0};
    set_game(&Local, NULL, NULL, false); /* whole knight cycles: the start position again */
    for (int plies = STEP; plies <= GROWN; plies += STEP) {
        size_t cut = (size_t)plies * 5 - 1;
        session_send(&s, "position startpos moves %.*s", (int)cut, moves);
        if (plies % 500 == 0) {
            session_forget(&s);
            session_send(&s, "go nodes 2000");
            const char *bm = session_expect(&s, "bestmove", SLOW);
            EXPECT(&grownLegal, bm && bestmove_legal(&Local, bm), "grown game at %d plies: bestmove '%s'", plies,
                   bm ? bm : "(none)");
        }
    }
    CHECK_PROPERTY(&grownLegal);
    snprintf(fen, sizeof fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - %d %d", GROWN, 1 + GROWN / 2);
    expect_fen(&s, fen, "grown game");
    printf("game grown move by move to %d plies in %lld ms\n", GROWN, session_now_ms() - t0);
    free(moves);
    session_send(&s, "quit");
    CHECK(session_close(&s, FAST) == 0, "long games: no clean exit");
}

/* ------------------------------------------------------------------ memory */

/* A "VmRSS:"-style field of /proc/<pid>/status in kB, or -1. */
static long proc_status_kb(pid_t pid, const char *field) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    long kb = -1;
    size_t n = strlen(field);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, field, n) == 0 && line[n] == ':') {
            kb = atol(line + n + 1);
            break;
        }
    fclose(f);
    return kb;
}

/* Resets VmHWM to the current RSS (Linux clear_refs 5); false if not allowed. */
static bool reset_peak(pid_t pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/clear_refs", (int)pid);
    FILE *f = fopen(path, "w");
    if (!f) return false;
    bool ok = fputs("5", f) >= 0;
    return fclose(f) == 0 && ok;
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif
#ifndef UNDER_SANITIZER
#define UNDER_SANITIZER 0
#endif

/*
 * Sanitizer builds carry shadow memory and a quarantine of freed blocks: their
 * figures are not the engine's. The tests are built like the engine (make
 * sanitize), and clang links its runtime statically, so the test's own build
 * counts as well as a sanitizer library in the engine's maps.
 */
static bool sanitized(pid_t pid) {
    if (UNDER_SANITIZER) return true;
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return false;
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) found = strstr(line, "libasan") || strstr(line, "libtsan");
    fclose(f);
    return found;
}

/* Reads until every command sent has been answered and every search has ended; returns
 * whether the engine refused a Threads change meanwhile. */
static bool drain_refused_threads(Session *s) {
    sync_engine(s, "barrage");
    /* Searches end with their bestmove, even after readyok. */
    while (session_read(s, 300)) {}
    bool refused = session_count(s, "info string Threads") > 0;
    session_forget(s);
    return refused;
}

/* One round of everything that could make memory grow; false if a Threads change was refused. */
static bool barrage(Session *s, char *big, size_t bigLen, const char *longGame) {
    for (int i = 0; i < 4; i++) session_write(s, big, bigLen);
    session_send(s, "position startpos moves %s", longGame);
    session_send(s, "go depth 4");
    for (int i = 0; i < 20; i++) {
        session_send(s, "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 moves e1g1");
        session_send(s, "go nodes 3000");
        session_send(s, "position fen 8/8/8/8/8/8/8/8 w - - 0 1");
        session_send(s, "setoption name Hash value lots");
        session_send(s, "go infinite");
        session_send(s, "stop");
        session_send(s, "ucinewgame");
    }
    session_send(s, "setoption name MultiPV value 4");
    session_send(s, "go depth 6");
    session_send(s, "setoption name MultiPV value 1");
    session_send(s, "go ponder");
    session_send(s, "ponderhit");
    session_send(s, "stop");
    session_send(s, "eval");
    session_send(s, "go perft 3");
    session_send(s, "bench 2");
    session_send(s, "setoption name Threads value 2");
    bool refused = drain_refused_threads(s);
    /* Threads changes on an idle engine only: the helper must be gone when memory is read. */
    session_send(s, "go depth 8");
    session_expect(s, "bestmove", SLOW);
    session_send(s, "setoption name Threads value 1");
    return !drain_refused_threads(s) && !refused;
}

static void test_memory(void) {
    Session s;
    if (!open_session(&s, "memory")) return;
    const int hashMB = 16;
    session_send(&s, "setoption name Hash value %d", hashMB);
    sync_engine(&s, "Hash 16");
    session_send(&s, "go depth 6");
    session_expect(&s, "bestmove", SLOW);
    sync_engine(&s, "baseline");
    bool san = sanitized(s.pid);
    long base = proc_status_kb(s.pid, "VmRSS");
    long startPeak = proc_status_kb(s.pid, "VmHWM");
    bool peakReset = reset_peak(s.pid);
    CHECK(base > 0, "cannot read VmRSS of the engine");
    if (base <= 0) {
        session_close(&s, FAST);
        return;
    }

    size_t bigLen = (1 << 20) + 1;
    char *big = malloc(bigLen);
    memset(big, 'z', bigLen - 1);
    big[bigLen - 1] = '\n';
    char *longGame = shuffle_game(20000, NULL);
    enum { ROUNDS = 10 };
    long afterRound[ROUNDS];
    bool threadsChanged = true;
    for (int round = 0; round < ROUNDS; round++) {
        threadsChanged &= barrage(&s, big, bigLen, longGame);
        afterRound[round] = proc_status_kb(s.pid, "VmRSS");
        printf("  round %d: VmRSS %ld kB\n", round, afterRound[round]);
    }
    CHECK(threadsChanged, "memory: a Threads change was refused, so rounds differ in their thread count");
    long peak = proc_status_kb(s.pid, "VmHWM");
    long first = afterRound[0], highest = 0;
    for (int i = 0; i < ROUNDS; i++) highest = afterRound[i] > highest ? afterRound[i] : highest;
    printf("memory (%s build): VmRSS %ld kB with Hash %d MB at start, %ld kB after the first barrage, at most %ld kB "
           "after %d; VmHWM %ld kB%s (start-up peak %ld kB)\n",
           san ? "sanitizer" : "plain", base, hashMB, first, highest, ROUNDS, peak,
           peakReset ? " since the baseline" : " since start-up", startPeak);
    if (san) {
        /* Sanitizer builds carry shadow memory and hold freed memory in quarantine: their
         * figures say nothing about the engine's, so the bounds are skipped, not passed. */
        printf("SKIP: the 4 memory bounds (sanitizer build: figures above only)\n");
    } else {
        /* Every barrage ends in the same state (one thread, no search), and the big tables
         * of a worker that is gone have gone back to the kernel (pages.c), so after the
         * first barrage nothing accumulates: resident memory stays within 1 MB of its
         * figure then (a leak of 120 kB per barrage would exceed it). */
        CHECK(highest - first <= 1024, "VmRSS rose %ld kB above its figure after the first barrage (%ld kB)",
              highest - first, first);
        /* The peak stays within the hash table plus a fixed overhead. */
        CHECK(peak - base <= (OVERHEAD_BOUND_MB - 8) * 1024, "VmHWM %ld kB is %ld kB above the baseline %ld kB", peak,
              peak - base, base);
        CHECK(base <= (long)(hashMB + OVERHEAD_BOUND_MB) * 1024, "baseline VmRSS %ld kB > Hash + %d MB", base,
              OVERHEAD_BOUND_MB);
        CHECK(peak <= (long)(hashMB + OVERHEAD_BOUND_MB) * 1024, "VmHWM %ld kB > Hash %d MB + %d MB", peak, hashMB,
              OVERHEAD_BOUND_MB);
    }
    free(big);
    free(longGame);
    session_send(&s, "quit");
    CHECK(session_close(&s, FAST) == 0, "memory: no clean exit");
}

/* ------------------------------------------------------------------ deep searches */

/* The deepest seldepth of the kept info lines. */
static int max_seldepth(const Session *s) {
    int best = 0;
    for (int i = 0; i < s->count; i++)
        if (starts_with(s->lines[i], "info depth ")) {
            int d = (int)info_int(s->lines[i], "seldepth", 0);
            if (d > best) best = d;
        }
    return best;
}

static void test_deep_searches(void) {
    Session s;
    if (!open_session(&s, "deep")) return;
    /* Positions that finish the full depth quickly: the ply limit is reached everywhere. */
    static const struct {
        const char *fen, *moves, *go;
    } Finishing[] = {
        {"8/8/8/8/8/8/k7/2K5 w - - 0 1", NULL, "go depth 250"},
        {"8/8/8/8/8/8/k7/2K5 w - - 0 1", NULL, "go depth 1000"},
        {"8/8/8/8/8/4k3/4P3/4K3 w - - 0 1", NULL, "go depth 1000"},
        {"8/8/8/8/8/8/k7/2K4R w - - 0 1", NULL, "go depth 250"},
        {"7k/8/6K1/8/8/8/8/R7 w - - 0 1", NULL, "go depth 1000"},
        {"8/8/8/8/8/1k6/8/K7 w - - 0 1", NULL, "go depth 1000 mate 1000000"},
        {"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", NULL, "go depth 1000"},
        /* KPK on top of a thousand reversible plies of history: states used to the last slot. */
        {"8/8/8/8/8/4k3/4P3/4K3 w - - 0 1",
         "e1d1 e3e4 d1e1 e4e3 e1d1 e3e4 d1e1 e4e3 e1d1 e3e4 d1e1 e4e3 e1d1 e3e4 d1e1 e4e3", "go depth 1000"},
    };
    int deepest = 0;
    for (size_t i = 0; i < sizeof Finishing / sizeof Finishing[0]; i++) {
        char *moves = NULL;
        if (Finishing[i].moves) {
            /* Repeat the cycle to 1100 plies, past the point where old history is dropped. */
            size_t unit = strlen(Finishing[i].moves);
            moves = malloc(unit * 70 + 2);
            moves[0] = '\0';
            for (int r = 0; r < 69; r++) strcat(strcat(moves, r ? " " : ""), Finishing[i].moves);
        }
        CHECK_EACH(set_game(&Local, Finishing[i].fen, moves, false), "deep %zu: local position", i);
        session_forget(&s);
        session_send(&s, "ucinewgame");
        session_send(&s, "position fen %s%s%s", Finishing[i].fen, moves ? " moves " : "", moves ? moves : "");
        session_send(&s, "%s", Finishing[i].go);
        const char *bm = session_expect(&s, "bestmove", SLOW);
        if (!bm) {
            /* Too slow on this machine: stop it; the move must still be legal. */
            session_send(&s, "stop");
            bm = session_expect(&s, "bestmove", FAST);
        }
        CHECK_EACH(bm && bestmove_legal(&Local, bm), "deep %zu (%s): bestmove '%s'", i, Finishing[i].go,
                   bm ? bm : "(none)");
        CHECK_EACH(session_count(&s, "info string") == 0, "deep %zu: %s", i, session_last(&s, "info string"));
        int sd = max_seldepth(&s);
        if (sd > deepest) deepest = sd;
        CHECK_EACH(sd <= MAX_PLY, "deep %zu: seldepth %d beyond MAX_PLY %d", i, sd, MAX_PLY);
        free(moves);
    }
    CHECK(deepest >= MAX_PLY - 1, "no search reached the ply limit (deepest seldepth %d)", deepest);

    /* Long checking sequences and busy positions: go depth 250, stopped after a while. */
    static const char *const Busy[] = {
        "6k1/5ppp/8/8/8/8/q4PPP/1Q4K1 w - - 0 1",
        "7k/8/6Q1/8/8/8/6q1/7K w - - 0 1",
        "r1b1k2r/ppppqppp/2n2n2/2b5/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 0 1",
        "8/8/1k6/8/8/8/6K1/4Q2q w - - 0 1",
    };
    for (size_t i = 0; i < sizeof Busy / sizeof Busy[0]; i++) {
        CHECK_EACH(set_game(&Local, Busy[i], NULL, false), "busy %zu: local position", i);
        session_forget(&s);
        session_send(&s, "position fen %s", Busy[i]);
        session_send(&s, "go depth 250");
        session_quiet(&s, "bestmove", 1500);
        session_send(&s, "stop");
        const char *bm = session_last(&s, "bestmove");
        if (!bm) bm = session_expect(&s, "bestmove", FAST);
        CHECK_EACH(bm && bestmove_legal(&Local, bm), "busy %zu: bestmove '%s'", i, bm ? bm : "(none)");
        int sd = max_seldepth(&s);
        if (sd > deepest) deepest = sd;
        CHECK_EACH(sd <= MAX_PLY, "busy %zu: seldepth %d beyond MAX_PLY", i, sd);
    }
    printf("deep searches: deepest seldepth %d (MAX_PLY %d)\n", deepest, MAX_PLY);
    sync_engine(&s, "after deep searches");
    session_send(&s, "quit");
    CHECK(session_close(&s, FAST) == 0, "deep: no clean exit");
}

int main(void) {
    engine_init();
    long long t0 = session_now_ms();
    test_long_games();
    printf("long games done: %lld ms\n", session_now_ms() - t0);
    test_memory();
    printf("memory done: %lld ms\n", session_now_ms() - t0);
    test_deep_searches();
    printf("limits: %lld ms\n", session_now_ms() - t0);
    return test_report();
}
