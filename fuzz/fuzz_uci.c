/*
 * Fuzz target: the UCI command line (src/protocol/uci.c) and `position ... moves`.
 *
 * Input: text, one UCI command per line.
 *
 * 1. Every `position` line is also replayed through the board layers the
 *    way the protocol does it (FEN, then move_from_uci + pos_do_game_move
 *    per move), checking after every move that the position stays valid
 *    (keys, check state, generators) and at the end that it round-trips
 *    through its FEN. This reaches games of thousands of plies.
 * 2. The session is then played to the real protocol code: uci_loop()
 *    runs for the whole fuzzing process in its own thread, reading a pipe
 *    as stdin and writing a pipe as stdout (uci.h offers no entry point for
 *    one line, and a fresh engine per input would cost a 16 MB table and a
 *    thread pool each time). What would make a run slow or huge is filtered
 *    first: `bench` and `quit` lines, `go perft` deeper than 3, Hash/Threads
 *    values above 2, and more than MAX_GOS searches are dropped, and every
 *    other `go` gets GO_LIMITS appended (the protocol takes the later
 *    limits, so each search ends quickly). After the session the options
 *    are reset, and an unknown-command marker must come back: the engine
 *    answered everything without crashing, hanging (libFuzzer's -timeout)
 *    or tripping a sanitizer, in the protocol thread or a search thread.
 *    A crash found this way may depend on earlier inputs: replay the
 *    saved input alone first (it usually suffices, as state is reset).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "fen.h"
#include "shell.h"
#include "uci.h"

/* Appended to every go: the later limits win, so each search is short. */
#define GO_LIMITS " depth 4 nodes 2000"

enum { MAX_GOS = 3, GO_PERFT_MAX = 3, OPTION_VALUE_MAX = 2, POSITION_PLIES_MAX = 5000 };

/* Sent after every session: any search stopped, and the state it may have changed reset. */
static const char ResetAlways[] = "stop\ndebug off\nposition startpos\n";
static const char ResetOptions[] = "setoption name Threads value 1\nsetoption name Hash value 1\n"
                                   "setoption name MultiPV value 1\nsetoption name Ponder value false\n"
                                   "setoption name Move Overhead value 10\nsetoption name UCI_Chess960 value false\n";
static const char ResetTables[] = "ucinewgame\n";

static Position *Pos, *Scratch;
static int ToEngine = -1;
static int FromEngine = -1;
static bool Echo; /* FUZZ_UCI_ECHO set: the engine's output is copied to stderr */
static unsigned long long Nonce;

/* The protocol thread: the engine's own loop, on the pipes. */
static void *engine_main(void *arg) {
    (void)arg;
    int status = uci_loop(shell_uci_extra);
    fprintf(stderr, "fuzz_uci: uci_loop ended (status %d) although stdin is still open\n", status);
    abort();
}

/* Writes all of text to the engine. */
static void send_text(const char *text, size_t len) {
    for (size_t done = 0; done < len;) {
        ssize_t n = write(ToEngine, text + done, len - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) abort();
        done += (size_t)n;
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    engine_init();
    Pos = fuzz_new_position();
    Scratch = fuzz_new_position();
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) abort();
    /* Large pipes: a whole session fits, so writing it never waits for the engine. */
    fcntl(in[1], F_SETPIPE_SZ, 1 << 20);
    fcntl(out[1], F_SETPIPE_SZ, 1 << 20);
    stdin = fdopen(in[0], "r");
    if (!stdin || dup2(out[1], STDOUT_FILENO) < 0) abort();
    close(out[1]);
    ToEngine = in[1];
    FromEngine = out[0];
    Echo = getenv("FUZZ_UCI_ECHO") != NULL;
    Nonce = ((unsigned long long)getpid() << 32) ^ (unsigned long long)time(NULL);
    /* libFuzzer's timer signals must not interrupt the engine's reads (that would look like end of input). */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    pthread_t thread;
    if (pthread_create(&thread, NULL, engine_main, NULL) != 0) abort();
    pthread_detach(thread);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    /* A small table: option resets and ucinewgame stay cheap. */
    send_text(ResetOptions, strlen(ResetOptions));
    return 0;
}

/* Blanks as the protocol splits words. */
static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* Splits line (modified in place) into at most max words; returns the count. */
static int split_words(char *line, char **words, int max) {
    int n = 0;
    char *s = line;
    while (n < max) {
        while (*s && is_blank(*s)) s++;
        if (!*s) break;
        words[n++] = s;
        while (*s && !is_blank(*s)) s++;
        if (*s) *s++ = '\0';
    }
    return n;
}

/* Replays `position startpos|fen F [moves ...]` through the board layers, checking every step. */
static void replay_position(char **w, int n) {
    char fen[512] = "", err[256];
    int i = 1;
    if (i < n && strcmp(w[i], "startpos") == 0) {
        pos_set_startpos(Pos, false);
        i++;
    } else if (i < n && strcmp(w[i], "fen") == 0) {
        int fields = 0;
        for (i++; i < n && strcmp(w[i], "moves") != 0; i++) {
            if (++fields > 6 || strlen(fen) + strlen(w[i]) + 2 > sizeof fen) return;
            if (fen[0]) strcat(fen, " ");
            strcat(fen, w[i]);
        }
        if (!pos_set_fen(Pos, fen, false, err, sizeof err)) return;
    } else {
        return;
    }
    fuzz_check_state(Pos, "position command");
    if (i < n && strcmp(w[i], "moves") != 0) return;
    int plies = 0;
    for (i++; i < n && plies < POSITION_PLIES_MAX; i++, plies++) {
        Move m = move_from_uci(Pos, w[i]);
        fuzz_check_parsed_move(Pos, m, "move_from_uci", w[i]);
        if (m == MOVE_NONE) return;
        pos_do_game_move(Pos, m);
        FUZZ_CHECK(Pos->st >= Pos->states && Pos->st < Pos->states + MAX_STATES, "state stack overflow after %d plies",
                   plies + 1);
        fuzz_check_state(Pos, "position ... moves");
        (void)pos_is_threefold(Pos);
        (void)pos_is_repetition(Pos, 1);
    }
    MoveList legal;
    fuzz_check_generators(Pos, &legal, "position ... moves");
    fuzz_check_fen_roundtrip(Pos, Scratch, "position ... moves");
}

/* Largest number written in text (digit runs), saturated. */
static long long largest_number(const char *text) {
    long long best = 0;
    for (const char *p = text; *p;) {
        if (!isdigit((unsigned char)*p)) {
            p++;
            continue;
        }
        long long v = 0;
        for (; isdigit((unsigned char)*p); p++) v = v > 1000000 ? v : v * 10 + (*p - '0');
        if (v > best) best = v;
    }
    return best;
}

/* Does the line contain word w (blank-separated, exact)? */
static bool has_word(char **words, int n, const char *w) {
    for (int i = 0; i < n; i++)
        if (strcmp(words[i], w) == 0) return true;
    return false;
}

/*
 * Appends the line to out as the engine should get it (possibly changed,
 * possibly dropped, see the header comment); replays position lines.
 */
static void filter_line(const char *line, size_t len, char *out, size_t *outLen, int *gos, bool *options) {
    char *raw = malloc(len + 1), *copy = malloc(len + 1);
    char **words = malloc((len / 2 + 2) * sizeof *words);
    if (!raw || !copy || !words) abort();
    memcpy(raw, line, len);
    raw[len] = '\0';
    memcpy(copy, raw, len + 1);
    int n = split_words(copy, words, (int)(len / 2 + 2));
    const char *extra = "";
    bool keep = true;
    /* A line with a NUL byte is refused whole by the engine: nothing to filter. */
    if (n > 0 && strlen(raw) == len) {
        if (strcmp(words[0], "position") == 0) replay_position(words, n);
        if (strcmp(words[0], "bench") == 0 || strcmp(words[0], "quit") == 0) keep = false;
        if (strcmp(words[0], "go") == 0) {
            if (has_word(words, n, "perft"))
                keep = largest_number(raw) <= GO_PERFT_MAX;
            else
                extra = GO_LIMITS;
            if (keep && ++*gos > MAX_GOS) keep = false;
        }
        if (strcmp(words[0], "setoption") == 0) {
            *options = true;
            for (char *p = raw; *p; p++) *p = (char)tolower((unsigned char)*p);
            if ((strstr(raw, "hash") || strstr(raw, "thread")) && largest_number(raw) > OPTION_VALUE_MAX) keep = false;
        }
    }
    if (keep) {
        memcpy(out + *outLen, line, len);
        *outLen += len;
        memcpy(out + *outLen, extra, strlen(extra));
        *outLen += strlen(extra);
        out[(*outLen)++] = '\n';
    }
    free(words);
    free(copy);
    free(raw);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* Room for every line plus its suffix and newline (at most size + 1 lines). */
    char *session = malloc(size + (size + 1) * (strlen(GO_LIMITS) + 1) + 1);
    if (!session) abort();
    size_t len = 0;
    int gos = 0;
    bool options = false;
    const char *text = (const char *)data;
    for (size_t start = 0; start <= size;) {
        const char *nl = memchr(text + start, '\n', size - start);
        size_t end = nl ? (size_t)(nl - text) : size;
        if (end > start || nl) filter_line(text + start, end - start, session, &len, &gos, &options);
        start = end + 1;
    }
    send_text(session, len);
    free(session);

    /* State back to defaults, then a marker the engine can only echo once it has read everything. */
    static unsigned long long count;
    char marker[64], expect[80];
    snprintf(marker, sizeof marker, "fuzzsync%llx%llu", Nonce, ++count);
    snprintf(expect, sizeof expect, "'%s'", marker);
    send_text(ResetAlways, strlen(ResetAlways));
    if (options) send_text(ResetOptions, strlen(ResetOptions));
    if (gos > 0) send_text(ResetTables, strlen(ResetTables));
    send_text("isready\n", strlen("isready\n"));
    send_text(marker, strlen(marker));
    send_text("\n", 1);
    /* Raw reads (a timer signal may interrupt any of them); the tail is kept so a split marker is still seen. */
    char buf[8192 + 128];
    size_t kept = 0;
    for (;;) {
        ssize_t n = read(FromEngine, buf + kept, sizeof buf - 1 - kept);
        if (n < 0 && errno == EINTR) continue;
        FUZZ_CHECK(n > 0, "the engine closed its output");
        if (Echo) fwrite(buf + kept, 1, (size_t)n, stderr);
        kept += (size_t)n;
        buf[kept] = '\0';
        if (strstr(buf, expect)) break;
        size_t tail = kept < 100 ? kept : 100;
        memmove(buf, buf + kept - tail, tail);
        kept = tail;
    }
    return 0;
}
