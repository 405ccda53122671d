/*
 * Fuzz target: the Syzygy prober on damaged tables (src/tablebase/syzygy.h).
 *
 * Input: byte 0 picks a material and byte 1 the kind (bit 0: WDL or DTZ);
 * the rest is written as that table's file (KQvK.rtbw, KRPvKR.rtbz, ...)
 * into a private folder that comes first in the path. The second folder
 * holds links to the real tables (SYZYGY_PATH or ../shared/syzygy, when
 * present) of that material and of every material its captures and
 * promotions lead to, so that probes go on into real tables (and a fuzzed
 * DTZ file has its WDL file); only those, so that tb_init stays quick.
 * Positions of that material drawn from the input's hash are then probed.
 *
 * tb_init must report a rejected file with a non-empty message; a probe
 * must not crash or read outside the mapping, must leave the position
 * unchanged, and any result must be in range: WDL -2..2, |DTZ| <= 2000, a
 * root ranking over exactly the legal moves with 1 <= keep <= count.
 */
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "syzygy.h"

enum { POSITIONS = 24, ROOT_RANKINGS = 3 };

static const char *const Materials[] = {"KQvK", "KRvK", "KPvK", "KBNvK", "KPvKP", "KRvKP", "KQvKR", "KBvKB",
                                        "KNNvK", "KRPvKR", "KBPvK", "KQRvKR", "KPPvK", "KRvKN"};
enum { MATERIALS = sizeof Materials / sizeof Materials[0] };

static Position *Pos, *Before;
static char Dir[64], FilePath[128];
static char Paths[MATERIALS][256];
static char Links[MATERIALS * 64][192];
static int LinkCount;

static void remove_dir(void) {
    if (FilePath[0]) unlink(FilePath);
    for (int i = 0; i < LinkCount; i++) unlink(Links[i]);
    for (int m = 0; m < MATERIALS; m++) {
        char sub[128];
        snprintf(sub, sizeof sub, "%s/%d", Dir, m);
        rmdir(sub);
    }
    char fuzzed[96];
    snprintf(fuzzed, sizeof fuzzed, "%s/fuzzed", Dir);
    rmdir(fuzzed);
    rmdir(Dir);
}

/* The two sides of a name swapped ("KRvKP" -> "KPvKR"). */
static void swapped(const char *name, char *out) {
    const char *v = strchr(name, 'v');
    sprintf(out, "%sv%.*s", v + 1, (int)(v - name), name);
}

/* Links name's real tables (in either spelling) and those of every material a capture or promotion reaches. */
static void link_family(const char *real, const char *dir, const char *name, int depth) {
    char spellings[2][32];
    snprintf(spellings[0], sizeof spellings[0], "%s", name);
    swapped(name, spellings[1]);
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < 2; k++) {
            char from[4400], *to = Links[LinkCount];
            snprintf(from, sizeof from, "%s/%s.%s", real, spellings[s], k ? "rtbz" : "rtbw");
            snprintf(to, sizeof Links[0], "%s/%s.%s", dir, spellings[s], k ? "rtbz" : "rtbw");
            if (LinkCount < (int)(sizeof Links / sizeof Links[0]) - 1 && access(from, R_OK) == 0 && symlink(from, to) == 0)
                LinkCount++;
        }
    if (depth > 4) return;
    size_t n = strlen(name);
    for (size_t i = 0; i < n; i++) {
        if (name[i] == 'K' || name[i] == 'v') continue;
        char next[32];
        /* The piece captured. */
        snprintf(next, sizeof next, "%.*s%s", (int)i, name, name + i + 1);
        link_family(real, dir, next, depth + 1);
        /* A pawn promoted. */
        if (name[i] == 'P')
            for (const char *q = "QRBN"; *q; q++) {
                snprintf(next, sizeof next, "%s", name);
                next[i] = *q;
                link_family(real, dir, next, depth + 1);
            }
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    engine_init();
    Pos = fuzz_new_position();
    Before = fuzz_new_position();
    snprintf(Dir, sizeof Dir, "/tmp/gizum-fuzz-syzygy-XXXXXX");
    if (!mkdtemp(Dir)) abort();
    atexit(remove_dir);
    const char *real = getenv("SYZYGY_PATH") ? getenv("SYZYGY_PATH") : "../shared/syzygy";
    char absolute[4096];
    struct stat st;
    bool haveReal = stat(real, &st) == 0 && S_ISDIR(st.st_mode) && realpath(real, absolute);
    char fuzzed[96];
    snprintf(fuzzed, sizeof fuzzed, "%s/fuzzed", Dir);
    if (mkdir(fuzzed, 0700) != 0) abort();
    for (int m = 0; m < MATERIALS; m++) {
        char sub[128];
        snprintf(sub, sizeof sub, "%s/%d", Dir, m);
        if (mkdir(sub, 0700) != 0) abort();
        if (haveReal) link_family(absolute, sub, Materials[m], 0);
        snprintf(Paths[m], sizeof Paths[m], "%s:%s", fuzzed, sub);
    }
    return 0;
}

static uint64_t next_random(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A random legal placement of the material (either colours, either side to move); false if this try failed. */
static bool random_position(const char *name, uint64_t *rng) {
    char board[64] = {0};
    bool swap = next_random(rng) & 1;
    Color side = WHITE;
    for (const char *c = name; *c; c++) {
        if (*c == 'v') {
            side = BLACK;
            continue;
        }
        bool white = (side == WHITE) != swap;
        char piece = white ? *c : (char)(*c - 'A' + 'a');
        for (int tries = 0; tries < 200; tries++) {
            int s = (int)(next_random(rng) % 64);
            if (board[s] || ((*c == 'P') && (s < 8 || s >= 56))) continue;
            board[s] = piece;
            break;
        }
    }
    char fen[128];
    fen_placement(board, fen);
    char *p = fen + strlen(fen);
    snprintf(p, sizeof fen - (size_t)(p - fen), " %c - - %d 1", (next_random(rng) & 1) ? 'b' : 'w',
             (next_random(rng) & 3) ? 0 : (int)(next_random(rng) % 100));
    return pos_set_fen(Pos, fen, false, NULL, 0);
}

static void message_seen(void *ctx, const char *m) {
    FUZZ_CHECK(m && m[0], "empty tablebase message");
    (*(int *)ctx)++;
}

static void check_probes(const char *name) {
    char fen[128];
    pos_get_fen(Pos, fen);
    pos_copy(Before, Pos);
    TbWdl wdl;
    int dtz;
    if (tb_probe_wdl(Pos, &wdl)) FUZZ_CHECK(wdl >= TB_LOSS && wdl <= TB_WIN, "%s: WDL %d out of range (%s)", name, wdl, fen);
    if (tb_probe_dtz(Pos, &dtz)) FUZZ_CHECK(dtz >= -2000 && dtz <= 2000, "%s: DTZ %d out of range (%s)", name, dtz, fen);
    FUZZ_CHECK(fuzz_same_position(Pos, Before), "%s: probing changed the position (%s)", name, fen);
}

static void check_root(const char *name) {
    char fen[128];
    pos_get_fen(Pos, fen);
    TbRootMoves r;
    if (!tb_rank_root_moves(Pos, true, &r)) return;
    MoveList legal;
    gen_legal(Pos, &legal);
    FUZZ_CHECK(r.count == legal.count, "%s: ranked %d moves of %d (%s)", name, r.count, legal.count, fen);
    FUZZ_CHECK(r.count == 0 ? r.keep == 0 : r.keep >= 1 && r.keep <= r.count, "%s: keep %d of %d (%s)", name, r.keep,
               r.count, fen);
    for (int i = 0; i < r.count; i++) {
        FUZZ_CHECK(movelist_contains(&legal, r.moves[i].move), "%s: ranked an illegal move (%s)", name, fen);
        FUZZ_CHECK(i == 0 || r.moves[i].rank <= r.moves[i - 1].rank, "%s: ranking out of order (%s)", name, fen);
        FUZZ_CHECK(r.moves[i].wdl >= TB_LOSS && r.moves[i].wdl <= TB_WIN, "%s: move WDL out of range (%s)", name, fen);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    int material = data[0] % MATERIALS;
    const char *name = Materials[material];
    bool dtz = data[1] & 1;
    if (FilePath[0]) unlink(FilePath);
    snprintf(FilePath, sizeof FilePath, "%s/fuzzed/%s.%s", Dir, name, dtz ? "rtbz" : "rtbw");
    FILE *f = fopen(FilePath, "wb");
    if (!f) abort();
    if (size > 2 && fwrite(data + 2, 1, size - 2, f) != size - 2) abort();
    if (fclose(f) != 0) abort();

    int messages = 0;
    TbSummary s = tb_init(Paths[material], message_seen, &messages);
    FUZZ_CHECK(s.problems == messages, "summary counts %d problems, %d messages", s.problems, messages);
    FUZZ_CHECK(s.maxPieces >= 0 && s.maxPieces <= 7 && s.dtzTables <= s.wdlTables, "bad summary");

    uint64_t rng = 0x9E3779B97F4A7C15ULL ^ size;
    for (size_t i = 0; i < size && i < 64; i++) rng = (rng ^ data[i]) * 0x100000001B3ULL;
    if (!rng) rng = 1;
    for (int i = 0, roots = 0; i < POSITIONS; i++) {
        if (!random_position(name, &rng)) continue;
        check_probes(name);
        if (roots++ < ROOT_RANKINGS) check_root(name);
    }
    tb_take_messages(message_seen, &messages);
    tb_free();
    return 0;
}
