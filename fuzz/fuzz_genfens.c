/*
 * Fuzz target: the arguments of genfens (src/offline/genfens.h), OpenBench's
 * opening generator: `./gizum "genfens N seed S book <None|FILE> [extra]"`.
 *
 * Input: the arguments (the words after "genfens"), one per line (a NUL
 * byte also ends one), then optionally a form feed and the bytes of the
 * book file. A book argument other than None names that file: as a
 * Polyglot book when it ends in ".bin", else as an EPD file (the input
 * never names a real file).
 *
 * genfens_parse must refuse bad arguments with a "genfens: ..." message and
 * nothing left open (LeakSanitizer), or give a job within its bounds: a
 * count of 1 .. GENFENS_COUNT_MAX, the seed as written, a recipe with
 * 0 <= min <= max <= 100 random plies, depth 1 .. 30, margin 0 .. 10000,
 * starting from the book or the EPD positions when there are any. The
 * search is not run (it would cost a hash table and a search per input):
 * a few walks of the recipe are, and each must end in a valid position.
 */
#define _GNU_SOURCE
#include <strings.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "fuzz_memfile.h"
#include "genfens.h"

enum { MAX_ARGS = 64, WALKS = 4 };

static Position *Pos;
static int FileFd = -1;
static char FilePath[64];
static char Dir[64], BinPath[96], EpdPath[96];

static void remove_links(void) {
    unlink(BinPath);
    unlink(EpdPath);
    rmdir(Dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    engine_init();
    Pos = fuzz_new_position();
    FileFd = fuzz_memfile_create("fuzz-genfens", FilePath, sizeof FilePath);
    /* The book argument picks the format by its name: two names for the one in-memory file. */
    snprintf(Dir, sizeof Dir, "/tmp/fuzz-genfens.XXXXXX");
    if (!mkdtemp(Dir)) abort();
    snprintf(BinPath, sizeof BinPath, "%s/book.bin", Dir);
    snprintf(EpdPath, sizeof EpdPath, "%s/starts.epd", Dir);
    if (symlink(FilePath, BinPath) != 0 || symlink(FilePath, EpdPath) != 0) abort();
    atexit(remove_links);
    return 0;
}

typedef struct {
    int lines, messages;
} Printed;

/* Every line genfens prints is "genfens <FEN>" or a message "genfens: ...". */
static void on_print(void *ctx, const char *line) {
    Printed *p = ctx;
    FUZZ_CHECK(strncmp(line, "genfens", 7) == 0 && (line[7] == ' ' || line[7] == ':'), "printed line '%.100s'", line);
    FUZZ_CHECK(!strchr(line, '\n'), "printed line holds a newline: '%.100s'", line);
    p->lines++;
    p->messages += line[7] == ':';
}

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const uint8_t *ff = memchr(data, '\f', size);
    size_t argBytes = ff ? (size_t)(ff - data) : size;
    fuzz_memfile_write(FileFd, ff ? ff + 1 : data, ff ? size - argBytes - 1 : 0);

    /* The arguments: one per line or NUL-terminated piece. */
    char *text = malloc(argBytes + 1);
    const char *argv[MAX_ARGS];
    int argc = 0;
    if (!text) abort();
    memcpy(text, data, argBytes);
    text[argBytes] = '\0';
    for (size_t start = 0; start < argBytes && argc < MAX_ARGS;) {
        size_t end = start;
        while (end < argBytes && text[end] != '\n' && text[end] != '\0') end++;
        text[end] = '\0';
        argv[argc++] = text + start;
        start = end + 1;
    }
    /* The book: None stays, any other name becomes the input's file. */
    if (argc > 4 && strcasecmp(argv[4], "none") != 0) argv[4] = ends_with(argv[4], ".bin") ? BinPath : EpdPath;

    GenfensJob job;
    Printed printed = {0, 0};
    bool ok = genfens_parse(argc, argv, on_print, &printed, &job);
    if (!ok) {
        FUZZ_CHECK(printed.messages > 0, "genfens_parse refused the arguments without a message");
        free(text);
        return 0;
    }
    char *end;
    unsigned long long seed = strtoull(argv[2], &end, 10);
    FUZZ_CHECK(job.count >= 1 && job.count <= GENFENS_COUNT_MAX && (long long)job.count == strtoll(argv[0], NULL, 10),
               "count %d from '%s'", job.count, argv[0]);
    FUZZ_CHECK(job.seed == seed, "seed %llu from '%s'", (unsigned long long)job.seed, argv[2]);
    const OpeningRecipe *r = &job.recipe;
    FUZZ_CHECK(0 <= r->randomMinPlies && r->randomMinPlies <= r->randomMaxPlies && r->randomMaxPlies <= 100,
               "random plies %d-%d", r->randomMinPlies, r->randomMaxPlies);
    FUZZ_CHECK(r->depth >= 1 && r->depth <= 30 && r->margin >= 0 && r->margin <= 10000, "depth %d margin %d", r->depth,
               r->margin);
    FUZZ_CHECK(!r->book || (r->book->count > 0 && r->bookMinPlies <= r->bookMaxPlies), "book recipe");
    FUZZ_CHECK(!r->starts || r->starts->count > 0, "start positions recipe");
    FUZZ_CHECK(!(r->book && r->starts), "a recipe with both a book and start positions");
    if (strcasecmp(argv[4], "none") == 0) FUZZ_CHECK(!r->book && !r->starts, "book None but a book or EPD recipe");
    for (int i = 0; r->starts && i < r->starts->count; i++) {
        FUZZ_CHECK(pos_set_fen(Pos, r->starts->fens[i], false, NULL, 0), "start position '%s' does not set up",
                   r->starts->fens[i]);
        fuzz_check_state(Pos, "genfens start position");
    }
    uint64_t rng = job.seed;
    for (int i = 0; i < WALKS; i++)
        if (openings_walk(r, &rng, Pos)) fuzz_check_state(Pos, "genfens walk");
    genfens_close(&job);
    free(text);
    return 0;
}
