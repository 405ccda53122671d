/*
 * Fuzz target: the match tool's opening reader (tools/match/match_openings.h).
 *
 * Input: arbitrary bytes as an openings file, read (through an in-memory
 * file named via /proc) as EPD and as PGN, for standard chess and Chess960,
 * in file order and shuffled. A failed load leaves a message and an empty
 * suite. A loaded suite is a non-empty set of openings whose FENs parse and
 * print back unchanged, whose moves are legal from them, and whose play
 * order is a permutation; openings_get hands out exact copies.
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "fen.h"
#include "match_openings.h"

enum { GET_CHECKS = 40 };

static Position *Pos, *Scratch;
static int FileFd = -1;
static FILE *Quiet; /* /dev/null, standing in for stderr while the loader warns */
static char FilePath[64];

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    engine_init();
    Pos = fuzz_new_position();
    Scratch = fuzz_new_position();
    FileFd = memfd_create("fuzz-openings", 0);
    Quiet = fopen("/dev/null", "w");
    if (FileFd < 0 || !Quiet) abort();
    snprintf(FilePath, sizeof FilePath, "/proc/self/fd/%d", FileFd);
    return 0;
}

/* Puts data into the in-memory file. */
static void write_file(const uint8_t *data, size_t size) {
    if (ftruncate(FileFd, 0) != 0 || lseek(FileFd, 0, SEEK_SET) != 0) abort();
    for (size_t done = 0; done < size;) {
        ssize_t n = write(FileFd, data + done, size - done);
        if (n <= 0) abort();
        done += (size_t)n;
    }
}

/* One opening: its FEN (if any) parses (and reprints unchanged when canonical); its moves are legal from it. */
static void check_opening(const Opening *o, bool chess960, bool canonical, const char *what) {
    char err[256], fen[128];
    if (o->fen) {
        FUZZ_CHECK(pos_set_fen(Pos, o->fen, chess960, err, sizeof err), "%s: stored FEN '%s' is rejected: %s", what,
                   o->fen, err);
        pos_get_fen(Pos, fen);
        FUZZ_CHECK(!canonical || strcmp(fen, o->fen) == 0, "%s: stored FEN '%s' reprints as '%s'", what, o->fen, fen);
        fuzz_check_state(Pos, what);
        fuzz_check_fen_roundtrip(Pos, Scratch, what);
    } else {
        pos_set_startpos(Pos, chess960);
    }
    FUZZ_CHECK(o->moveCount >= 0 && (o->moveCount == 0 || o->moves), "%s: %d moves", what, o->moveCount);
    for (int i = 0; i < o->moveCount; i++) {
        MoveList legal;
        gen_legal(Pos, &legal);
        pos_get_fen(Pos, fen);
        FUZZ_CHECK(movelist_contains(&legal, o->moves[i]), "%s: move %d (%04x) illegal in %s", what, i + 1, o->moves[i],
                   fen);
        pos_do_game_move(Pos, o->moves[i]);
    }
}

/* Two openings are the same FEN and moves. */
static bool same_opening(const Opening *a, const Opening *b) {
    if ((a->fen == NULL) != (b->fen == NULL) || (a->fen && strcmp(a->fen, b->fen) != 0)) return false;
    return a->moveCount == b->moveCount &&
           (a->moveCount == 0 || memcmp(a->moves, b->moves, (size_t)a->moveCount * sizeof *a->moves) == 0);
}

/* Loads the file one way and checks the suite. */
static void check_load(OpeningFormat format, bool chess960, bool random, long start, uint64_t seed) {
    OpeningConfig cfg = {.file = FilePath, .format = format, .random = random, .plies = (int)(seed % 12), .seed = seed,
                         .start = start};
    OpeningSuite s;
    char err[256];
    memset(err, 'X', sizeof err);
    /*
     * The loader warns about bad lines on stderr: swapping the stdio stream
     * (not the descriptor) keeps fuzzing logs readable while libFuzzer and
     * sanitizer reports still reach the real stderr.
     */
    FILE *realStderr = stderr;
    stderr = Quiet;
    bool ok = openings_load(&s, &cfg, chess960, err, sizeof err);
    stderr = realStderr;
    if (!ok) {
        FUZZ_CHECK(strnlen(err, sizeof err) < sizeof err && err[0], "openings_load failed without a message");
        FUZZ_CHECK(s.count == 0 && s.items == NULL && s.order == NULL, "failed openings_load left %ld openings", s.count);
        openings_free(&s);
        return;
    }
    FUZZ_CHECK(s.count > 0 && s.items && s.order, "openings_load succeeded with %ld openings", s.count);
    bool *seen = calloc((size_t)s.count, sizeof *seen);
    if (!seen) abort();
    for (long i = 0; i < s.count; i++) {
        FUZZ_CHECK(s.order[i] >= 0 && s.order[i] < s.count && !seen[s.order[i]], "play order is not a permutation");
        seen[s.order[i]] = true;
        /* EPD openings are stored as Gizum prints them; PGN ones as the FEN tag was written. */
        check_opening(&s.items[i], chess960, format == OPENINGS_EPD, format == OPENINGS_EPD ? "EPD opening" : "PGN opening");
        if (format == OPENINGS_EPD)
            FUZZ_CHECK(s.items[i].fen && s.items[i].moveCount == 0, "EPD opening without a FEN or with moves");
        if (format == OPENINGS_PGN && cfg.plies > 0)
            FUZZ_CHECK(s.items[i].moveCount <= cfg.plies, "PGN opening longer than plies=%d", cfg.plies);
    }
    free(seen);
    for (long n = 0; n < GET_CHECKS && n < 2 * s.count + 1; n++) {
        Opening o;
        FUZZ_CHECK(openings_get(&s, n, &o), "openings_get(%ld) failed", n);
        long index = n + (cfg.start > 0 ? cfg.start - 1 : 0);
        FUZZ_CHECK(same_opening(&o, &s.items[s.order[index % s.count]]), "openings_get(%ld) is not a copy", n);
        opening_free(&o);
    }
    openings_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    write_file(data, size);
    uint64_t seed = size ? data[size - 1] : 0;
    check_load(OPENINGS_EPD, false, false, 0, seed);
    check_load(OPENINGS_EPD, true, true, (long)(seed % 7), seed);
    check_load(OPENINGS_PGN, false, seed & 1, (long)(seed % 3), seed);
    check_load(OPENINGS_PGN, true, false, 1, seed);
    return 0;
}
