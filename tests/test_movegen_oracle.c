/*
 * The move generator against an independent oracle: Stockfish's `go perft`
 * (one long-lived process over pipes), on random positions weighted
 * towards checks, double and discovered checks, pins, en passant, castling
 * through attacked squares, Chess960 and sparse endgames
 * (tests/random_positions.h). Each position is compared divide by divide:
 * the legal move lists must be equal and every move's subtree count at
 * depths 2 and 3 must match. One check per class of position, with the
 * first failing FEN and the differing moves in its message, and one check
 * that every class was really seen.
 *
 * On the same positions, the functions that judge moves without the
 * generator are compared with it (tests/move_checks.h): pos_is_legal,
 * pos_gives_check, SEE, SAN both ways and the UCI move parser the match
 * referee uses.
 *
 *   test_movegen_oracle [--positions N] [--depth D] [--seed S] [--fens]
 *
 * Without options: the make test run (GIZUM_TEST_QUICK=1: a tenth of it).
 * --depth D > 3 compares the divide at depth D instead of 3, for the long
 * run in measure/perft_oracle_deep.sh. --fens prints the positions (FEN, then
 * "chess960" or "standard") instead of testing them. STOCKFISH names the
 * oracle (default /usr/games/stockfish); without it the comparison is
 * skipped with a SKIP line (a failure when CI=true) and only the
 * generator-based checks run.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "epd.h"
#include "fen.h"
#include "move_checks.h"
#include "movegen.h"
#include "notation.h"
#include "position.h"
#include "random_positions.h"
#include "test.h"
#include "uci_session.h"

/*
 * The exhaustive scans (65536 move values, every UCI text) run on one
 * position in SCAN_EVERY: prime to the 8 kinds of start, so all take turns.
 */
enum { ORACLE_TIMEOUT_MS = 120000, MAX_REPORTED = 10, SCAN_EVERY = 15, START_KINDS = 8 };

typedef struct {
    int positions;
    int depth;        /* deepest divide compared; depth 2 is compared first */
    uint64_t seed;
    bool printFens;
} Options;

typedef struct {
    char uci[8];
    uint64_t nodes;
} DivideLine;

/* One perft divide: every legal move and the leaves below it, sorted by move text. */
typedef struct {
    DivideLine lines[MAX_MOVES];
    int count;
} Divide;

static Session Oracle;
static bool OracleUp, OracleChess960;
static Position Pos;
static EpdSuite Classic, Tricky, Suite960;
static Property ClassResult[CLASS_NB];
static long ClassSeen[CLASS_NB], Compared, Reported;

/* The judges of moves outside the generator (tests/move_checks.h), one property each. */
static Property IsLegal, GivesCheck, SanBack, SanDistinct, UciExact, See;
static long Scanned, SeeCompared, SeeSkipped;

/* ---------------------------------------------------------------- divides */

static int compare_lines(const void *a, const void *b) {
    return strcmp(((const DivideLine *)a)->uci, ((const DivideLine *)b)->uci);
}

/*
 * Gizum's perft (perft.c: count_legal at the last ply), except that a move
 * that takes a king or leaves its own king attacked counts as one leaf and
 * is not played on, so that a broken generator is reported, not crashed on.
 */
static uint64_t guarded_perft(Position *pos, int depth) {
    if (depth <= 1) return depth == 1 ? (uint64_t)count_legal(pos) : 1;
    MoveList list;
    gen_legal(pos, &list);
    uint64_t nodes = 0;
    for (int i = 0; i < list.count; i++) {
        if (!move_is_sound(pos, list.moves[i])) {
            nodes++;
            continue;
        }
        pos_do_move(pos, list.moves[i]);
        nodes += guarded_perft(pos, depth - 1);
        pos_undo_move(pos);
    }
    return nodes;
}

static void gizum_divide(Position *pos, int depth, Divide *out) {
    MoveList list;
    gen_legal(pos, &list);
    out->count = list.count;
    for (int i = 0; i < list.count; i++) {
        DivideLine *l = &out->lines[i];
        move_to_uci(list.moves[i], pos->chess960, l->uci);
        l->nodes = 1;
        if (depth > 1 && move_is_sound(pos, list.moves[i])) {
            pos_do_move(pos, list.moves[i]);
            l->nodes = guarded_perft(pos, depth - 1);
            pos_undo_move(pos);
        }
    }
    qsort(out->lines, (size_t)out->count, sizeof out->lines[0], compare_lines);
}

/* Starts Stockfish and waits for its handshake; false (with the reason in why) if it does not answer. */
static bool oracle_start(const char *path, char *why, size_t size) {
    if (access(path, X_OK) != 0) {
        snprintf(why, size, "Stockfish not found at %s (install the stockfish package or set STOCKFISH)", path);
        return false;
    }
    if (!session_open_program(&Oracle, path)) {
        snprintf(why, size, "cannot start %s", path);
        return false;
    }
    session_send(&Oracle, "uci");
    bool up = session_expect(&Oracle, "uciok", 10000) != NULL;
    session_send(&Oracle, "isready");
    up = up && session_expect(&Oracle, "readyok", 10000) != NULL;
    session_forget(&Oracle);
    if (!up) {
        snprintf(why, size, "%s does not answer uci/isready", path);
        session_close(&Oracle, 1000);
    }
    OracleChess960 = false;
    return up;
}

/* Stockfish's divide of a position; false if it stops answering. */
static bool oracle_divide(const char *fen, bool chess960, int depth, Divide *out) {
    if (chess960 != OracleChess960) {
        session_send(&Oracle, "setoption name UCI_Chess960 value %s", chess960 ? "true" : "false");
        OracleChess960 = chess960;
    }
    session_send(&Oracle, "position fen %s", fen);
    session_send(&Oracle, "go perft %d", depth);
    out->count = 0;
    bool done = false;
    for (const char *line; !done && (line = session_read(&Oracle, ORACLE_TIMEOUT_MS)) != NULL;) {
        DivideLine l;
        unsigned long long n;
        if (starts_with(line, "Nodes searched:")) done = true;
        else if (sscanf(line, "%7[a-h1-8nbrq]: %llu", l.uci, &n) == 2 && out->count < MAX_MOVES) {
            l.nodes = n;
            out->lines[out->count++] = l;
        }
    }
    session_forget(&Oracle);
    qsort(out->lines, (size_t)out->count, sizeof out->lines[0], compare_lines);
    return done;
}

/* Appends to a message buffer, keeping it terminated when full. */
static void append(char *buf, size_t size, const char *text) {
    size_t used = strlen(buf);
    if (used + 1 < size) snprintf(buf + used, size - used, "%s", text);
}

/* Empty when the divides are equal; else which moves one side lacks and which counts differ. */
static void divide_difference(const Divide *ours, const Divide *theirs, char *why, size_t size) {
    char missing[512] = "", extra[512] = "", counts[512] = "", item[64];
    int i = 0, j = 0;
    while (i < ours->count || j < theirs->count) {
        int c = i == ours->count ? 1 : j == theirs->count ? -1 : strcmp(ours->lines[i].uci, theirs->lines[j].uci);
        if (c < 0) {
            snprintf(item, sizeof item, " %s", ours->lines[i++].uci);
            append(extra, sizeof extra, item);
        } else if (c > 0) {
            snprintf(item, sizeof item, " %s", theirs->lines[j++].uci);
            append(missing, sizeof missing, item);
        } else {
            if (ours->lines[i].nodes != theirs->lines[j].nodes) {
                snprintf(item, sizeof item, " %s (Stockfish %" PRIu64 ", Gizum %" PRIu64 ")", ours->lines[i].uci,
                         theirs->lines[j].nodes, ours->lines[i].nodes);
                append(counts, sizeof counts, item);
            }
            i++, j++;
        }
    }
    why[0] = '\0';
    if (missing[0]) snprintf(why + strlen(why), size - strlen(why), "Gizum misses%s; ", missing);
    if (extra[0]) snprintf(why + strlen(why), size - strlen(why), "Gizum adds%s; ", extra);
    if (counts[0]) snprintf(why + strlen(why), size - strlen(why), "counts differ:%s; ", counts);
}

/* ---------------------------------------------------------------- comparison */

/* The class names of a class set, comma separated. */
static void class_names(unsigned classes, char *out, size_t size) {
    out[0] = '\0';
    for (int c = 0; c < CLASS_NB; c++)
        if (classes & (1u << c)) {
            if (out[0]) append(out, size, ", ");
            append(out, size, ClassNames[c]);
        }
}

/*
 * Compares one position with the oracle at depth 2 and at opts->depth;
 * records the outcome under each of its classes and in *agrees. False if
 * the oracle died.
 */
static bool compare_position(Position *pos, unsigned classes, const Options *opts, bool *agrees) {
    static Divide ours, theirs;
    char fen[128], why[1024] = "", names[160];
    pos_get_fen(pos, fen);
    int depths[2] = {opts->depth < 2 ? opts->depth : 2, opts->depth}, failedDepth = 0;
    for (int k = 0; k < 2 && !why[0]; k++) {
        if (k == 1 && depths[1] == depths[0]) break;
        if (!oracle_divide(fen, pos->chess960, depths[k], &theirs)) return false;
        gizum_divide(pos, depths[k], &ours);
        divide_difference(&ours, &theirs, why, sizeof why);
        failedDepth = depths[k];
    }
    class_names(classes, names, sizeof names);
    for (int c = 0; c < CLASS_NB; c++) {
        if (!(classes & (1u << c))) continue;
        EXPECT(&ClassResult[c], !why[0], "perft %d divide of %s%s [%s]: %s", failedDepth, fen,
               pos->chess960 ? " (Chess960)" : "", names, why);
    }
    /* Every failing position, for a walk-down with tests/perft_oracle.sh (measure/perft_oracle_deep.sh reads these). */
    if (why[0] && Reported++ < MAX_REPORTED)
        fprintf(stderr, "MISMATCH %s %d %s\n", pos->chess960 ? "chess960" : "standard", failedDepth, fen);
    Compared++;
    *agrees = !why[0];
    return true;
}

/*
 * The comparison must be able to fail: a divide with a move left out, one
 * added and one count changed is reported as exactly that.
 */
static void check_comparison_fails(void) {
    static Divide ours, theirs;
    pos_set_fen(&Pos, "6rQ/6p1/5B2/4k3/8/8/8/4K3 b - - 0 1", false, NULL, 0);
    gizum_divide(&Pos, 2, &ours);
    theirs = ours;
    char why[1024], same[1024];
    divide_difference(&ours, &theirs, same, sizeof same);
    theirs.lines[0] = theirs.lines[--theirs.count]; /* drop e5d5 */
    snprintf(theirs.lines[theirs.count++].uci, 8, "a1a2");
    theirs.lines[1].nodes++;
    qsort(theirs.lines, (size_t)theirs.count, sizeof theirs.lines[0], compare_lines);
    divide_difference(&ours, &theirs, why, sizeof why);
    CHECK(!same[0] && strstr(why, "Gizum misses a1a2") && strstr(why, "Gizum adds e5d5") && strstr(why, "counts differ: e5d6"),
          "the divide comparison does not see planted differences: '%s' / '%s'", same, why);
}

/* ---------------------------------------------------------------- positions */

/* A random entry of a suite as the start. */
static bool suite_start(Position *pos, const EpdSuite *suite, bool chess960, Rng *rng) {
    return suite->size > 0 &&
           pos_set_fen(pos, suite->entries[rng_below(rng, (unsigned)suite->size)].fen, chess960, NULL, 0);
}

/*
 * A sparse position of the given class, as it is: natural double checks and
 * checks along a pin line are rare (a walk finds one in hundreds of
 * positions), and they are where the generator's pin and check logic meet.
 */
static void sparse_of_class(Position *pos, Rng *rng, PositionClass wanted) {
    for (;;)
        if (random_sparse_position(pos, rng, 2 + (int)rng_below(rng, 4), true) &&
            (position_classes(pos) & (1u << wanted)))
            return;
}

/*
 * The next random position: from the standard start, a perft suite
 * position, a Chess960 start array or a sparse endgame, then a biased walk;
 * or a sparse double check or check with x-ray as it is.
 */
static void next_position(Position *pos, Rng *rng, long index) {
    char fen[128];
    bool ok = false;
    int maxPlies = 80;
    switch (index % START_KINDS) {
    case 0: pos_set_startpos(pos, false), ok = true; break;
    case 1: ok = suite_start(pos, &Classic, false, rng); break;
    case 2: ok = suite_start(pos, &Tricky, false, rng); break;
    case 3:
        chess960_start_fen((int)rng_below(rng, 960), fen);
        ok = pos_set_fen(pos, fen, true, NULL, 0);
        break;
    case 4: ok = suite_start(pos, &Suite960, true, rng); break;
    case 5:
        while (!random_sparse_position(pos, rng, 1 + (int)rng_below(rng, 5), true)) {}
        ok = true, maxPlies = 12;
        break;
    case 6: sparse_of_class(pos, rng, CLASS_DOUBLE_CHECK); return;
    default: sparse_of_class(pos, rng, CLASS_CHECK_XRAY); return;
    }
    if (!ok) pos_set_startpos(pos, false);
    biased_walk(pos, rng, (int)rng_below(rng, (unsigned)maxPlies + 1));
}

static void print_fens(const Options *opts) {
    Rng rng = {opts->seed};
    char fen[128];
    for (long i = 0; i < opts->positions; i++) {
        next_position(&Pos, &rng, i);
        printf("%s ;%s\n", fen_of(&Pos, fen), Pos.chess960 ? "chess960" : "standard");
    }
}

/* Every class was seen often enough for its check to mean something. */
static void check_coverage(const Options *opts) {
    Property coverage = {0};
    long minimum = opts->positions >= 400 ? opts->positions / 200 : 1;
    for (int c = 0; c < CLASS_NB; c++)
        EXPECT(&coverage, ClassSeen[c] >= minimum, "class '%s' was seen in %ld positions, fewer than %ld",
               ClassNames[c], ClassSeen[c], minimum);
    CHECK_PROPERTY(&coverage);
}

/* Everything else that judges moves, against the generator on the same position. */
static void check_judges(Position *pos, long index) {
    MoveList legal;
    gen_legal(pos, &legal);
    expect_gives_check(pos, &legal, &GivesCheck);
    expect_san_round_trip(pos, &legal, NULL, &SanBack, &SanDistinct);
    expect_see(pos, &legal, &See, &SeeCompared, &SeeSkipped);
    if (index % SCAN_EVERY == 0) {
        Scanned++;
        expect_is_legal_exact(pos, &legal, &IsLegal);
        expect_uci_exact(pos, &legal, &UciExact);
    }
}

static void report_judges(void) {
    CHECK_PROPERTY(&IsLegal);
    CHECK_PROPERTY(&GivesCheck);
    CHECK_PROPERTY(&SanBack);
    CHECK_PROPERTY(&SanDistinct);
    CHECK_PROPERTY(&UciExact);
    CHECK_PROPERTY(&See);
    /* Most moves' exchanges are SEE's to judge; if not, the SEE check above says little. */
    CHECK(SeeCompared > 4 * SeeSkipped, "SEE compared on %ld moves only (%ld outside its model)", SeeCompared,
          SeeSkipped);
    printf("judges: pos_is_legal and move_from_uci scanned exhaustively on %ld positions; SEE compared on %ld moves "
           "(%ld skipped: pins, checks or promotions in the exchange)\n", Scanned, SeeCompared, SeeSkipped);
}

static void run(const Options *opts) {
    Rng rng = {opts->seed};
    double start = cpu_seconds();
    for (long i = 0; i < opts->positions; i++) {
        next_position(&Pos, &rng, i);
        unsigned classes = position_classes(&Pos);
        for (int c = 0; c < CLASS_NB; c++) ClassSeen[c] += (classes >> c) & 1;
        bool agrees = true;
        if (OracleUp && !compare_position(&Pos, classes, opts, &agrees)) {
            char fen[128];
            CHECK(false, "Stockfish stopped answering at %s", fen_of(&Pos, fen));
            session_close(&Oracle, 1000);
            OracleUp = false;
        }
        /* Where the generator is wrong, comparing the others with it says nothing more. */
        if (agrees) check_judges(&Pos, i);
    }
    if (Compared)
        for (int c = 0; c < CLASS_NB; c++) CHECK_PROPERTY(&ClassResult[c]);
    check_coverage(opts);
    report_judges();
    printf("%d random positions, %ld compared with Stockfish at depths 1 to %d (%.1f s CPU here):", opts->positions,
           Compared, opts->depth, cpu_seconds() - start);
    for (int c = 0; c < CLASS_NB; c++) printf("%s %s %ld", c ? "," : "", ClassNames[c], ClassSeen[c]);
    printf("\n");
}

static bool parse_options(int argc, char **argv, Options *opts) {
    opts->positions = test_quick() ? 2000 : 20000;
    opts->depth = 3;
    opts->seed = 39;
    opts->printFens = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--fens")) opts->printFens = true;
        else if (i + 1 < argc && !strcmp(argv[i], "--positions")) opts->positions = atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--depth")) opts->depth = atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--seed")) opts->seed = strtoull(argv[++i], NULL, 10);
        else return false;
    }
    return opts->positions > 0 && opts->depth >= 1 && opts->depth <= 8 && opts->seed != 0;
}

int main(int argc, char **argv) {
    Options opts;
    if (!parse_options(argc, argv, &opts)) {
        fprintf(stderr, "usage: %s [--positions N] [--depth 1..8] [--seed S>0] [--fens]\n", argv[0]);
        return 2;
    }
    board_init();
    CHECK(epd_load("perft_classic.epd", &Classic) && epd_load("perft_tricky.epd", &Tricky) &&
              epd_load("chess960.epd", &Suite960),
          "cannot load the perft suites");
    if (opts.printFens) {
        print_fens(&opts);
        return 0;
    }
    const char *path = getenv("STOCKFISH") ? getenv("STOCKFISH") : "/usr/games/stockfish";
    char why[256];
    OracleUp = oracle_start(path, why, sizeof why);
    if (!OracleUp) {
        const char *ci = getenv("CI");
        bool required = ci && !strcmp(ci, "true");
        printf("SKIP: the comparison with Stockfish: %s%s\n", why, required ? " (a failure: CI=true)" : "");
        CHECK(!required, "Stockfish is missing in CI: %s", why);
    }
    check_comparison_fails();
    run(&opts);
    if (OracleUp) {
        session_send(&Oracle, "quit");
        session_close(&Oracle, 5000);
    }
    return test_report();
}
