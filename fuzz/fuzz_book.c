/*
 * Fuzz target: Polyglot book loading and probing (src/board/book.h).
 *
 * Input: arbitrary bytes as a book file. Loading from memory and from a
 * file (an in-memory file named through /proc) must agree; a rejected book
 * leaves a message and an empty book; an accepted one has size/16 entries
 * in key order exactly as stored. Probing walks the book from the start
 * position (and probes every child of each position on the way): every
 * move offered or picked must be legal, probe results are sorted by weight
 * and bounded by max, and the raw entries of a key all carry that key.
 * Any accepted book, written back with book_write_entries, loads again.
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>

#include "book.h"
#include "fen.h"
#include "fuzz_common.h"
#include "fuzz_memfile.h"

enum { WALK_PLIES = 24, RAW_CODES_CHECKED = 256 };

static Position *Pos;
static int BookFd = -1;
static char BookFdPath[64], OutDir[64], OutPath[96];

/* Removes the written book and its directory at exit. */
static void remove_out_dir(void) {
    unlink(OutPath);
    rmdir(OutDir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    engine_init();
    Pos = fuzz_new_position();
    BookFd = fuzz_memfile_create("fuzz-book", BookFdPath, sizeof BookFdPath);
    snprintf(OutDir, sizeof OutDir, "/tmp/gizum-fuzz-book-XXXXXX");
    if (!mkdtemp(OutDir)) abort();
    snprintf(OutPath, sizeof OutPath, "%s/book.bin", OutDir);
    atexit(remove_out_dir);
    return 0;
}

/* Big-endian field of an entry as stored. */
static uint64_t stored(const uint8_t *p, int bytes) {
    uint64_t n = 0;
    for (int i = 0; i < bytes; i++) n = (n << 8) | p[i];
    return n;
}

/* Load results: rejected books are empty with a message; accepted ones are the bytes, in key order. */
static void check_loaded(const Book *book, bool ok, const char *err, size_t errSize, const uint8_t *data, size_t size) {
    if (!ok) {
        FUZZ_CHECK(book->count == 0, "rejected book left %zu entries", book->count);
        FUZZ_CHECK(strnlen(err, errSize) < errSize && err[0], "rejected book without a message");
        return;
    }
    FUZZ_CHECK(size > 0 && size % BOOK_ENTRY_SIZE == 0 && book->count == size / BOOK_ENTRY_SIZE,
               "book of %zu bytes loaded with %zu entries", size, book->count);
    for (size_t i = 0; i < book->count; i++) {
        const uint8_t *p = data + i * BOOK_ENTRY_SIZE;
        const BookEntry *e = &book->entries[i];
        FUZZ_CHECK(e->key == stored(p, 8) && e->move == stored(p + 8, 2) && e->weight == stored(p + 10, 2) &&
                       e->learn == stored(p + 12, 4),
                   "entry %zu differs from the bytes stored", i);
        FUZZ_CHECK(i == 0 || book->entries[i - 1].key <= e->key, "accepted book has keys out of order at %zu", i);
    }
}

/* Probing one position: legal, sorted, bounded, consistent with the raw entries. */
static void check_probe(const Book *book, Position *pos, uint64_t *rng) {
    BookMove moves[MAX_MOVES], few[2];
    int n = book_probe(book, pos, moves, MAX_MOVES);
    FUZZ_CHECK(n >= 0 && n <= MAX_MOVES, "book_probe returned %d", n);
    for (int i = 0; i < n; i++) {
        fuzz_check_parsed_move(pos, moves[i].move, "book_probe", "fuzzed book");
        FUZZ_CHECK(moves[i].move != MOVE_NONE, "book_probe listed MOVE_NONE");
        FUZZ_CHECK(moves[i].weight >= 0, "negative weight %d", moves[i].weight);
        FUZZ_CHECK(i == 0 || moves[i - 1].weight >= moves[i].weight, "book_probe not sorted by weight");
        for (int k = 0; k < i; k++) FUZZ_CHECK(moves[k].move != moves[i].move, "book_probe lists a move twice");
    }
    int m = book_probe(book, pos, few, 2);
    FUZZ_CHECK(m == (n < 2 ? n : 2), "book_probe(max 2) returned %d of %d", m, n);
    /* Which moves a short list keeps is not pinned down by book.h: only require real ones, weights intact. */
    for (int i = 0; i < m; i++) {
        bool listed = false;
        for (int k = 0; k < n; k++) listed |= few[i].move == moves[k].move && few[i].weight == moves[k].weight;
        FUZZ_CHECK(listed, "book_probe(max 2) gives a move or weight the full probe does not");
        FUZZ_CHECK(i == 0 || few[i - 1].weight >= few[i].weight, "book_probe(max 2) not sorted by weight");
    }

    const BookEntry *first = NULL;
    size_t raw = book_entries_for_key(book, pos_key(pos), &first);
    FUZZ_CHECK(raw >= (size_t)n || n == 0, "book_probe found %d moves but only %zu raw entries", n, raw);
    for (size_t i = 0; i < raw; i++) {
        FUZZ_CHECK(first[i].key == pos_key(pos), "book_entries_for_key gave an entry of another key");
        fuzz_check_parsed_move(pos, book_decode_move(pos, first[i].move), "book_decode_move", "raw entry");
    }
    Move best = book_pick(book, pos, true, rng);
    Move any = book_pick(book, pos, false, rng);
    fuzz_check_parsed_move(pos, best, "book_pick(best)", "fuzzed book");
    fuzz_check_parsed_move(pos, any, "book_pick(random)", "fuzzed book");
    FUZZ_CHECK(best == MOVE_NONE || (n > 0 && best == moves[0].move), "book_pick(best) is not the top probe move");
}

/* A book walk from the start; each position and each of its children is probed. */
static void walk(const Book *book, uint64_t seed) {
    uint64_t rng = seed;
    pos_set_startpos(Pos, false);
    for (int ply = 0; ply < WALK_PLIES; ply++) {
        check_probe(book, Pos, &rng);
        MoveList legal;
        gen_legal(Pos, &legal);
        for (int i = 0; i < legal.count; i++) {
            pos_do_move(Pos, legal.moves[i]);
            check_probe(book, Pos, &rng);
            pos_undo_move(Pos);
        }
        Move m = book_pick(book, Pos, false, &rng);
        if (m == MOVE_NONE) break;
        pos_do_game_move(Pos, m);
    }
}

/* Every stored code has a short text and decodes (in the start position) to a legal move or none. */
static void check_codes(const Book *book) {
    pos_set_startpos(Pos, false);
    for (size_t i = 0; i < book->count && i < RAW_CODES_CHECKED; i++) {
        char text[16];
        memset(text, 'X', sizeof text);
        book_code_to_text(book->entries[i].move, text);
        FUZZ_CHECK(strnlen(text, sizeof text) < 6, "book_code_to_text(%04x) overflows its 6-byte buffer",
                   book->entries[i].move);
        fuzz_check_parsed_move(Pos, book_decode_move(Pos, book->entries[i].move), "book_decode_move", text);
    }
}

/* An accepted book written back (duplicates merged) loads again, with no more entries than before. */
static void check_rewrite(const Book *book) {
    char err[256];
    BookEntry *copy = malloc(book->count * sizeof *copy);
    if (!copy) abort();
    memcpy(copy, book->entries, book->count * sizeof *copy);
    bool ok = book_write_entries(OutPath, copy, book->count, err, sizeof err);
    free(copy);
    FUZZ_CHECK(ok, "book_write_entries failed on an accepted book: %s", err);
    Book again = {0};
    FUZZ_CHECK(book_open(&again, OutPath, err, sizeof err), "rewritten book does not load: %s", err);
    FUZZ_CHECK(again.count > 0 && again.count <= book->count, "rewritten book has %zu entries, was %zu", again.count,
               book->count);
    book_close(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    Book fromMemory = {0}, fromFile = {0};
    char err[256], fileErr[256];
    memset(err, 'X', sizeof err);
    memset(fileErr, 'X', sizeof fileErr);
    bool ok = book_load_memory(&fromMemory, data, size, "fuzz", err, sizeof err);
    check_loaded(&fromMemory, ok, err, sizeof err, data, size);

    fuzz_memfile_write(BookFd, data, size);
    bool fileOk = book_open(&fromFile, BookFdPath, fileErr, sizeof fileErr);
    check_loaded(&fromFile, fileOk, fileErr, sizeof fileErr, data, size);
    FUZZ_CHECK(ok == fileOk, "book_load_memory says %d, book_open says %d (%s / %s)", ok, fileOk, ok ? "" : err,
               fileOk ? "" : fileErr);

    /* A rejected book probes as empty. */
    walk(&fromMemory, size);
    if (ok) {
        check_codes(&fromMemory);
        check_rewrite(&fromMemory);
    }
    book_close(&fromMemory);
    book_close(&fromFile);
    return 0;
}
