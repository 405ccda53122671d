/*
 * Syzygy tablebases: the registry of tables (folder scan, header checks,
 * lazy thread-safe mapping) and the probing rules on top of the format
 * (syzygy_format.c).
 *
 * Probing rules, as the format requires. The tables do not know en
 * passant, and where a capture is the best move they may store any value
 * not above the true one (it compresses better). So a WDL probe first tries
 * every capture (recursively, each capture probes a smaller table) and
 * takes the better of the best capture and the stored value; if every legal
 * move is a capture the stored value is not used at all (it may describe a
 * stalemate that en passant avoids). DTZ tables store one side to move
 * only, nothing where a zeroing move is best, and the 100 of cursed results
 * is added by the prober; for the other side to move the DTZ comes from a
 * one-ply search over the table's side.
 */
#include "syzygy.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitboard.h"
#include "movegen.h"
#include "platform.h"
#include "syzygy_format.h"

/* ---------------------------------------------------------------- registry */

enum { FILE_UNTRIED, FILE_READY, FILE_BROKEN };
enum { MESSAGE_LEN = 512, LATE_MESSAGES_MAX = 64 };

typedef struct {
    char *path;           /* NULL: no such file */
    atomic_int state;     /* FILE_UNTRIED until its first probe maps it */
    void *map;
    PlatformFileInfo mapped; /* size and time of the file as mapped: a change is seen by tb_check_files */
    TbLayout layout;
} TbFile;

typedef struct {
    char name[32];
    TbMaterial material;
    Key key, flippedKey;  /* material of the table as named, and with the colours swapped */
    TbFile wdl, dtz;
} TbTable;

typedef struct {
    Key key;
    int table; /* -1: empty slot */
} TbSlot;

/*
 * The registry is written only by tb_init/tb_free (no probe running) and
 * read by every probing thread; per file, the first probe maps it under
 * LoadLock and publishes it with a release store of its state.
 */
static struct {
    TbTable *tables;
    int count, capacity;
    TbSlot *slots;
    unsigned slotMask;
    int maxPieces, dtzCount;
    char *late[LATE_MESSAGES_MAX];
    int lateCount;
} Reg;
static pthread_mutex_t LoadLock = PTHREAD_MUTEX_INITIALIZER;

/* Piece counts packed four bits each, pawns to queens of both colours (kings are always one each). */
static Key material_key(const uint8_t count[PIECE_NB], bool swapColours) {
    Key k = 0;
    for (Color c = WHITE; c <= BLACK; c++)
        for (PieceType pt = PAWN; pt <= QUEEN; pt++) {
            unsigned n = count[make_piece(swapColours ? color_flip(c) : c, pt)];
            k |= (Key)(n > 15 ? 15 : n) << (4 * (c * 5 + pt - 1));
        }
    return k;
}

static Key position_material_key(const Position *pos) {
    uint8_t count[PIECE_NB] = {0};
    for (Color c = WHITE; c <= BLACK; c++)
        for (PieceType pt = PAWN; pt <= QUEEN; pt++) count[make_piece(c, pt)] = (uint8_t)popcount(pos_pieces_cpt(pos, c, pt));
    return material_key(count, false);
}

static unsigned slot_of(Key k) { return (unsigned)((k * 0x9E3779B97F4A7C15ULL) >> 40) & Reg.slotMask; }

static int find_slot_table(Key k) {
    if (!Reg.slots) return -1;
    for (unsigned i = slot_of(k);; i = (i + 1) & Reg.slotMask) {
        if (Reg.slots[i].table < 0) return -1;
        if (Reg.slots[i].key == k) return Reg.slots[i].table;
    }
}

static void insert_slot(Key k, int table) {
    unsigned i = slot_of(k);
    while (Reg.slots[i].table >= 0 && Reg.slots[i].key != k) i = (i + 1) & Reg.slotMask;
    Reg.slots[i].key = k;
    Reg.slots[i].table = table;
}

/* Rebuilds the hash of material keys (four times the tables, a power of two). */
static bool rebuild_slots(void) {
    unsigned size = 64;
    while (size < 4u * (unsigned)Reg.count) size *= 2;
    TbSlot *slots = malloc(size * sizeof *slots);
    if (!slots) return false;
    for (unsigned i = 0; i < size; i++) slots[i].table = -1;
    free(Reg.slots);
    Reg.slots = slots;
    Reg.slotMask = size - 1;
    for (int t = 0; t < Reg.count; t++) {
        insert_slot(Reg.tables[t].key, t);
        insert_slot(Reg.tables[t].flippedKey, t);
    }
    return true;
}

static void report(TbMessageFn fn, void *ctx, TbSummary *s, const char *fmt, ...) PRINTF_FORMAT(4, 5);
static void report(TbMessageFn fn, void *ctx, TbSummary *s, const char *fmt, ...) {
    char text[MESSAGE_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    s->problems++;
    if (fn) fn(ctx, text);
}

/* Maps and parses a file; on failure nothing stays mapped. */
static bool open_table_file(TbFile *f, TbFileKind kind, const TbMaterial *m, char *err, size_t errlen) {
    f->map = platform_map_file(f->path, &f->mapped, err, errlen);
    if (!f->map) return false;
    if (!tb_layout_parse(&f->layout, f->map, (size_t)f->mapped.size, kind, m, err, errlen)) {
        platform_unmap_file(f->map, (size_t)f->mapped.size);
        f->map = NULL;
        return false;
    }
    return true;
}

/* Unmaps a file (its path is kept). */
static void unmap_table_file(TbFile *f) {
    if (f->map) {
        tb_layout_release(&f->layout);
        platform_unmap_file(f->map, (size_t)f->mapped.size);
        f->map = NULL;
    }
}

static void close_table_file(TbFile *f) {
    unmap_table_file(f);
    free(f->path);
    f->path = NULL;
}

/* The layout of a table's file, mapping it on first use; NULL if missing or broken. */
static const TbLayout *table_layout(TbTable *t, TbFileKind kind) {
    TbFile *f = kind == TB_FILE_WDL ? &t->wdl : &t->dtz;
    int state = atomic_load_explicit(&f->state, memory_order_acquire);
    if (state == FILE_READY) return &f->layout;
    if (state == FILE_BROKEN || !f->path) return NULL;
    pthread_mutex_lock(&LoadLock);
    state = atomic_load_explicit(&f->state, memory_order_relaxed);
    if (state == FILE_UNTRIED) {
        char err[MESSAGE_LEN / 2];
        if (open_table_file(f, kind, &t->material, err, sizeof err)) {
            state = FILE_READY;
        } else {
            state = FILE_BROKEN;
            if (Reg.lateCount < LATE_MESSAGES_MAX) {
                char *text = malloc(MESSAGE_LEN);
                if (text) {
                    snprintf(text, MESSAGE_LEN, "%s: %s (ignored)", f->path, err);
                    Reg.late[Reg.lateCount++] = text;
                }
            }
        }
        atomic_store_explicit(&f->state, state, memory_order_release);
    }
    pthread_mutex_unlock(&LoadLock);
    return state == FILE_READY ? &f->layout : NULL;
}

void tb_free(void) {
    for (int i = 0; i < Reg.count; i++) {
        close_table_file(&Reg.tables[i].wdl);
        close_table_file(&Reg.tables[i].dtz);
    }
    free(Reg.tables);
    free(Reg.slots);
    for (int i = 0; i < Reg.lateCount; i++) free(Reg.late[i]);
    memset(&Reg, 0, sizeof Reg);
}

/* A directory entry found by the scan. */
typedef struct {
    char *dir, *file; /* file: "KRvK.rtbw" */
} TbEntry;

static int entry_cmp(const void *a, const void *b) {
    const TbEntry *x = a, *y = b;
    return strcmp(x->file, y->file);
}

static bool has_suffix(const char *name, const char *suffix) {
    size_t n = strlen(name), s = strlen(suffix);
    return n > s && strcmp(name + n - s, suffix) == 0;
}

/* Lists the .rtbw/.rtbz files of one folder (sorted), appending to *entries. */
static void scan_folder(const char *dir, TbEntry **entries, int *count, int *capacity, TbMessageFn fn, void *ctx,
                        TbSummary *s) {
    DIR *d = opendir(dir);
    if (!d) {
        report(fn, ctx, s, "%s: cannot open folder: %s", dir, strerror(errno));
        return;
    }
    int first = *count;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!has_suffix(e->d_name, ".rtbw") && !has_suffix(e->d_name, ".rtbz")) continue;
        if (*count == *capacity) {
            int grown = *capacity ? 2 * *capacity : 256;
            TbEntry *more = realloc(*entries, (size_t)grown * sizeof *more);
            if (!more) break;
            *entries = more;
            *capacity = grown;
        }
        (*entries)[*count].dir = strdup(dir);
        (*entries)[*count].file = strdup(e->d_name);
        if (!(*entries)[*count].dir || !(*entries)[*count].file) {
            free((*entries)[*count].dir);
            free((*entries)[*count].file);
            break;
        }
        (*count)++;
    }
    closedir(d);
    qsort(*entries + first, (size_t)(*count - first), sizeof **entries, entry_cmp);
}

static char *join_path(const char *dir, const char *file) {
    size_t n = strlen(dir) + strlen(file) + 2;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/%s", dir, file);
    return p;
}

/* Registers a .rtbw file after checking it whole. */
static void add_wdl(const TbEntry *e, TbMessageFn fn, void *ctx, TbSummary *s) {
    char name[32], err[MESSAGE_LEN / 2];
    size_t len = strlen(e->file) - 5;
    char *path = join_path(e->dir, e->file);
    if (!path) return;
    TbMaterial m;
    if (len >= sizeof name || (memcpy(name, e->file, len), name[len] = '\0', !tb_material_parse(name, &m, err, sizeof err))) {
        if (len >= sizeof name) snprintf(err, sizeof err, "not a table name");
        report(fn, ctx, s, "%s: %s (ignored)", path, err);
        free(path);
        return;
    }
    Key key = material_key(m.count, false);
    if (find_slot_table(key) >= 0) { /* the same material in an earlier folder: that one is used */
        free(path);
        return;
    }
    TbFile probe = {.path = path};
    if (!open_table_file(&probe, TB_FILE_WDL, &m, err, sizeof err)) {
        report(fn, ctx, s, "%s: %s (ignored)", path, err);
        free(path);
        return;
    }
    close_table_file(&probe); /* frees path too */
    if (Reg.count == Reg.capacity) {
        int grown = Reg.capacity ? 2 * Reg.capacity : 64;
        TbTable *more = realloc(Reg.tables, (size_t)grown * sizeof *more);
        if (!more) return;
        Reg.tables = more;
        Reg.capacity = grown;
    }
    TbTable *t = &Reg.tables[Reg.count];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    t->material = m;
    t->key = key;
    t->flippedKey = material_key(m.count, true);
    t->wdl.path = join_path(e->dir, e->file);
    atomic_init(&t->wdl.state, FILE_UNTRIED);
    atomic_init(&t->dtz.state, FILE_UNTRIED);
    Reg.count++;
    if (!Reg.slots || 4 * Reg.count > (int)Reg.slotMask + 1) {
        if (!rebuild_slots()) {
            close_table_file(&t->wdl);
            Reg.count--;
            return;
        }
    } else {
        insert_slot(t->key, Reg.count - 1);
        insert_slot(t->flippedKey, Reg.count - 1);
    }
    if (m.pieceCount > Reg.maxPieces) Reg.maxPieces = m.pieceCount;
}

/* Attaches a .rtbz file to its table after checking it whole. */
static void add_dtz(const TbEntry *e, TbMessageFn fn, void *ctx, TbSummary *s) {
    char name[32], err[MESSAGE_LEN / 2];
    size_t len = strlen(e->file) - 5;
    char *path = join_path(e->dir, e->file);
    if (!path) return;
    TbMaterial m;
    if (len >= sizeof name || (memcpy(name, e->file, len), name[len] = '\0', !tb_material_parse(name, &m, err, sizeof err))) {
        if (len >= sizeof name) snprintf(err, sizeof err, "not a table name");
        report(fn, ctx, s, "%s: %s (ignored)", path, err);
        free(path);
        return;
    }
    int ti = find_slot_table(material_key(m.count, false));
    TbTable *t = ti >= 0 ? &Reg.tables[ti] : NULL;
    if (!t || t->key != material_key(m.count, false)) {
        report(fn, ctx, s, "%s: no %s.rtbw for it (ignored)", path, name);
        free(path);
        return;
    }
    if (t->dtz.path) { /* already found in an earlier folder */
        free(path);
        return;
    }
    TbFile probe = {.path = path};
    if (!open_table_file(&probe, TB_FILE_DTZ, &t->material, err, sizeof err)) {
        report(fn, ctx, s, "%s: %s (ignored)", path, err);
        free(path);
        return;
    }
    close_table_file(&probe);
    t->dtz.path = join_path(e->dir, e->file);
    if (t->dtz.path) Reg.dtzCount++;
}

TbSummary tb_init(const char *paths, TbMessageFn onMessage, void *ctx) {
    TbSummary s = {0};
    tb_free();
    if (!paths || !*paths || strcmp(paths, "<empty>") == 0) return s;
    char *copy = strdup(paths);
    if (!copy) return s;
    TbEntry *entries = NULL;
    int count = 0, capacity = 0;
    for (char *dir = copy, *next; dir; dir = next) {
        next = strchr(dir, PLATFORM_PATH_LIST_SEPARATOR);
        if (next) *next++ = '\0';
        if (*dir) scan_folder(dir, &entries, &count, &capacity, onMessage, ctx, &s);
    }
    /* WDL files first, so that every DTZ file finds its table whatever the folder order. */
    for (int i = 0; i < count; i++)
        if (has_suffix(entries[i].file, ".rtbw")) add_wdl(&entries[i], onMessage, ctx, &s);
    for (int i = 0; i < count; i++)
        if (has_suffix(entries[i].file, ".rtbz")) add_dtz(&entries[i], onMessage, ctx, &s);
    for (int i = 0; i < count; i++) {
        free(entries[i].dir);
        free(entries[i].file);
    }
    free(entries);
    free(copy);
    s.wdlTables = Reg.count;
    s.dtzTables = Reg.dtzCount;
    s.maxPieces = Reg.maxPieces;
    return s;
}

/* Drops a mapped file whose size or time differs from its mapping's (or that is gone): true if dropped. */
static bool drop_if_changed(TbFile *f, TbMessageFn fn, void *ctx) {
    if (atomic_load_explicit(&f->state, memory_order_acquire) != FILE_READY) return false;
    PlatformFileInfo now;
    char why[MESSAGE_LEN / 2] = "";
    bool same = platform_file_info(f->path, &now, why, sizeof why) && now.size == f->mapped.size
             && now.mtimeNs == f->mapped.mtimeNs;
    if (same) return false;
    if (!why[0] && now.size != f->mapped.size)
        snprintf(why, sizeof why, "%llu bytes, now %llu", (unsigned long long)f->mapped.size,
                 (unsigned long long)now.size);
    else if (!why[0])
        snprintf(why, sizeof why, "rewritten: a new modification time");
    char text[MESSAGE_LEN];
    snprintf(text, sizeof text, "%s: changed on disk since it was loaded (%s) (ignored)", f->path, why);
    if (fn) fn(ctx, text);
    atomic_store_explicit(&f->state, FILE_BROKEN, memory_order_release);
    unmap_table_file(f);
    return true;
}

int tb_check_files(TbMessageFn onMessage, void *ctx) {
    int dropped = 0;
    for (int i = 0; i < Reg.count; i++) {
        dropped += drop_if_changed(&Reg.tables[i].wdl, onMessage, ctx);
        dropped += drop_if_changed(&Reg.tables[i].dtz, onMessage, ctx);
    }
    return dropped;
}

int tb_max_pieces(void) { return Reg.maxPieces; }

const char *tb_table_name(int i) { return i >= 0 && i < Reg.count ? Reg.tables[i].name : NULL; }

void tb_take_messages(TbMessageFn onMessage, void *ctx) {
    pthread_mutex_lock(&LoadLock);
    for (int i = 0; i < Reg.lateCount; i++) {
        if (onMessage) onMessage(ctx, Reg.late[i]);
        free(Reg.late[i]);
    }
    Reg.lateCount = 0;
    pthread_mutex_unlock(&LoadLock);
}

/* ---------------------------------------------------------------- one table probe */

typedef enum {
    PROBE_OK,
    PROBE_FAIL,          /* no table, a damaged one, or an impossible position */
    PROBE_ZEROING_BEST,  /* the value comes from a zeroing move (its DTZ is not in the table) */
    PROBE_OTHER_SIDE     /* the DTZ table stores the other side to move */
} ProbeState;

/*
 * The stored value for the position: WDL -2..2, or DTZ plies for the
 * result wdl. Knows nothing of captures (see the rules above).
 */
static int probe_table(const Position *pos, TbFileKind kind, int wdl, ProbeState *state) {
    if (popcount(pos_pieces(pos)) == 2) return TB_DRAW; /* bare kings: no file */
    int ti = find_slot_table(position_material_key(pos));
    if (ti < 0) {
        *state = PROBE_FAIL;
        return 0;
    }
    TbTable *t = &Reg.tables[ti];
    const TbLayout *l = table_layout(t, kind);
    if (!l) {
        *state = PROBE_FAIL;
        return 0;
    }
    /* The table's colours: swapped when black holds its first side, and for equal material with black to move. */
    bool flip = t->material.symmetric ? pos_side_to_move(pos) == BLACK : position_material_key(pos) != t->key;
    TbBoard b;
    for (Color c = WHITE; c <= BLACK; c++)
        for (PieceType pt = PAWN; pt <= KING; pt++) {
            Bitboard bb = pos_pieces_cpt(pos, c, pt);
            Piece pc = make_piece(flip ? color_flip(c) : c, pt);
            b.byPiece[pc] = flip ? __builtin_bswap64(bb) : bb;
        }
    b.byPiece[NO_PIECE] = b.byPiece[7] = b.byPiece[8] = b.byPiece[15] = 0;
    int side = (int)pos_side_to_move(pos) ^ flip;
    const TbPairs *p;
    uint64_t index;
    int value;
    if (!tb_locate(l, &t->material, side, &b, &p, &index)) {
        *state = PROBE_FAIL;
        return 0;
    }
    if (kind == TB_FILE_DTZ && (p->flags & TB_FLAG_STM) != side && !(t->material.symmetric && !t->material.hasPawns)) {
        *state = PROBE_OTHER_SIDE;
        return 0;
    }
    if (!tb_decode(p, index, &value)) {
        *state = PROBE_FAIL;
        return 0;
    }
    if (kind == TB_FILE_WDL) {
        if (value > 4) *state = PROBE_FAIL;
        return value - 2;
    }
    int plies;
    if (!tb_dtz_plies(l, p, value, wdl, &plies)) *state = PROBE_FAIL;
    return plies;
}

/* ---------------------------------------------------------------- probing rules */

static bool is_zeroing(const Position *pos, Move m) {
    return pos_is_capture(pos, m) || piece_type(pos_piece_on(pos, move_from(m))) == PAWN;
}

static int sign_of(int x) { return (x > 0) - (x < 0); }

/* DTZ of a position whose best move zeroes, from its WDL. */
static int zeroing_dtz(int wdl) {
    static const int Dtz[5] = {-1, -101, 0, 101, 1};
    return Dtz[wdl + 2];
}

/*
 * WDL with the captures resolved (and with zeroing = true also pawn moves,
 * which the DTZ probe needs to know if a zeroing move is best). Sets
 * PROBE_ZEROING_BEST when such a move gives the value.
 */
static int probe_wdl_rules(Position *pos, bool withPawnMoves, ProbeState *state) {
    MoveList moves;
    if (withPawnMoves) gen_legal(pos, &moves);
    else gen_noisy(pos, &moves);
    int best = TB_LOSS - 1, tried = 0;
    for (int i = 0; i < moves.count; i++) {
        Move m = moves.moves[i];
        if (withPawnMoves ? !is_zeroing(pos, m) : !pos_is_capture(pos, m)) continue;
        tried++;
        pos_do_move(pos, m);
        int v = -probe_wdl_rules(pos, false, state);
        pos_undo_move(pos);
        if (*state == PROBE_FAIL) return 0;
        if (v > best) {
            best = v;
            if (v >= TB_WIN) {
                *state = PROBE_ZEROING_BEST;
                return v;
            }
        }
    }
    /* With only zeroing moves the stored value is not used (it may ignore an en-passant capture). */
    bool onlyZeroing = tried > 0 && tried == (withPawnMoves ? moves.count : count_legal(pos));
    int value;
    if (onlyZeroing) {
        value = best;
    } else {
        *state = PROBE_OK;
        value = probe_table(pos, TB_FILE_WDL, 0, state);
        if (*state == PROBE_FAIL) return 0;
    }
    if (best >= value) {
        *state = best > TB_DRAW || onlyZeroing ? PROBE_ZEROING_BEST : PROBE_OK;
        return best;
    }
    *state = PROBE_OK;
    return value;
}

static int probe_dtz_rules(Position *pos, ProbeState *state) {
    *state = PROBE_OK;
    int wdl = probe_wdl_rules(pos, true, state);
    if (*state == PROBE_FAIL || wdl == TB_DRAW) return 0;
    if (*state == PROBE_ZEROING_BEST) return zeroing_dtz(wdl);
    *state = PROBE_OK;
    int dtz = probe_table(pos, TB_FILE_DTZ, wdl, state);
    if (*state == PROBE_FAIL) return 0;
    if (*state != PROBE_OTHER_SIDE)
        return sign_of(wdl) * (dtz + (wdl == TB_CURSED_WIN || wdl == TB_BLESSED_LOSS ? 100 : 0));

    /* The table holds the other side to move: the best (winning) or longest (losing) reply, one ply more. */
    MoveList moves;
    gen_legal(pos, &moves);
    int best = 0xFFFF;
    for (int i = 0; i < moves.count; i++) {
        Move m = moves.moves[i];
        bool zeroing = is_zeroing(pos, m);
        pos_do_move(pos, m);
        *state = PROBE_OK;
        int d = zeroing ? -zeroing_dtz(probe_wdl_rules(pos, false, state)) : -probe_dtz_rules(pos, state);
        if (d == 1 && pos_in_check(pos) && count_legal(pos) == 0) best = 1; /* mate */
        if (!zeroing) d += sign_of(d);
        pos_undo_move(pos);
        if (*state == PROBE_FAIL) return 0;
        if (sign_of(d) == sign_of(wdl) && d < best) best = d;
    }
    *state = PROBE_OK;
    return best == 0xFFFF ? -1 : best;
}

/* ---------------------------------------------------------------- public probes */

/* Each thread probes on its own copy, so callers keep a const position. */
static _Thread_local Position Scratch;

static bool probe_allowed(const Position *pos) {
    return Reg.maxPieces > 0 && pos->st->castling == 0 && popcount(pos_pieces(pos)) <= Reg.maxPieces;
}

bool tb_probe_wdl(const Position *pos, TbWdl *wdl) {
    if (!probe_allowed(pos)) return false;
    pos_copy_without_history(&Scratch, pos);
    ProbeState state = PROBE_OK;
    int v = probe_wdl_rules(&Scratch, false, &state);
    if (state == PROBE_FAIL) return false;
    *wdl = (TbWdl)v;
    return true;
}

bool tb_probe_dtz(const Position *pos, int *dtz) {
    if (!probe_allowed(pos)) return false;
    pos_copy_without_history(&Scratch, pos);
    ProbeState state = PROBE_OK;
    int v = probe_dtz_rules(&Scratch, &state);
    if (state == PROBE_FAIL) return false;
    *dtz = v;
    return true;
}

TbWdl tb_wdl_with_counter(int dtz, int rule50) {
    if (dtz > 0) return dtz + rule50 <= 100 ? TB_WIN : TB_CURSED_WIN;
    if (dtz < 0) return -dtz + rule50 <= 100 ? TB_LOSS : TB_BLESSED_LOSS;
    return TB_DRAW;
}

Value tb_wdl_value(TbWdl wdl, int ply, bool rule50) {
    int drawBand = rule50 ? 1 : 0;
    if ((int)wdl > drawBand) return TB_VALUE_WIN - ply;
    if ((int)wdl < -drawBand) return -TB_VALUE_WIN + ply;
    return VALUE_DRAW + 2 * (int)wdl;
}

const char *tb_wdl_name(TbWdl wdl) {
    static const char *const Names[5] = {"loss", "blessed loss", "draw", "cursed win", "win"};
    return wdl >= TB_LOSS && wdl <= TB_WIN ? Names[wdl + 2] : "?";
}

/* ---------------------------------------------------------------- root ranking */

enum { RANK_WIN = 1 << 20 };

/* Has any position since the last zeroing move occurred before (in the game so far)? */
static bool repeated_since_zeroing(const Position *pos) {
    const StateInfo *st = pos->st;
    int window = st->rule50 < st->pliesFromNull ? st->rule50 : st->pliesFromNull;
    int available = (int)(st - pos->states);
    if (window > available) window = available;
    for (int back = 0; back + 4 <= window; back++) {
        const StateInfo *s = st - back;
        for (int i = 4; back + i <= window; i += 2)
            if ((s - i)->key == s->key) return true;
    }
    return false;
}

/*
 * A draw by the game's rules one ply after the root: threefold repetition,
 * or (when the rule is honoured) fifty moves unless this is mate.
 */
static bool drawn_by_rule(const Position *pos, bool rule50) {
    if (pos_is_repetition(pos, 1)) return true;
    return rule50 && pos_rule50(pos) >= 100 && !(pos_in_check(pos) && count_legal(pos) == 0);
}

static TbWdl honour_rule50(TbWdl wdl, bool rule50) {
    if (rule50) return wdl;
    return wdl > TB_DRAW ? TB_WIN : wdl < TB_DRAW ? TB_LOSS : TB_DRAW;
}

/*
 * DTZ of each root move counted from the root, ranked: wins that keep
 * within the fifty-move budget rank equal (the search picks among them)
 * unless a position has repeated, then and beyond the budget the shortest
 * first; draws next; losses longest first.
 */
static bool rank_by_dtz(Position *pos, const MoveList *moves, bool rule50, TbRootMoves *r) {
    int cnt50 = pos_rule50(pos);
    bool repeated = repeated_since_zeroing(pos);
    ProbeState state = PROBE_OK;
    int rootDtz = probe_dtz_rules(pos, &state);
    if (state == PROBE_FAIL) return false;
    for (int i = 0; i < moves->count; i++) {
        Move m = moves->moves[i];
        int dtz;
        state = PROBE_OK;
        pos_do_move(pos, m);
        if (pos_rule50(pos) == 0) {
            dtz = zeroing_dtz(-probe_wdl_rules(pos, false, &state));
        } else if (drawn_by_rule(pos, rule50)) {
            dtz = 0;
        } else {
            int d = -probe_dtz_rules(pos, &state);
            dtz = d + sign_of(d);
        }
        if (dtz == 2 && pos_in_check(pos) && count_legal(pos) == 0) dtz = 1; /* mate */
        pos_undo_move(pos);
        if (state == PROBE_FAIL) return false;
        TbRootMove *rm = &r->moves[i];
        rm->move = m;
        rm->dtz = dtz;
        rm->wdl = honour_rule50(tb_wdl_with_counter(dtz, cnt50), rule50);
        rm->rank = dtz > 0 ? (dtz + cnt50 <= 99 && !repeated ? RANK_WIN : RANK_WIN - (dtz + cnt50))
                 : dtz < 0 ? -RANK_WIN + (-dtz + cnt50)
                 : 0;
        rm->score = tb_wdl_value(rm->wdl, 1, rule50);
    }
    r->dtz = rootDtz;
    r->wdl = honour_rule50(tb_wdl_with_counter(rootDtz, cnt50), rule50);
    return true;
}

/* Without DTZ: each move's WDL after it (as if the counter were 0 there). */
static bool rank_by_wdl(Position *pos, const MoveList *moves, bool rule50, TbRootMoves *r) {
    static const int Rank[5] = {-RANK_WIN, -RANK_WIN + 101, 0, RANK_WIN - 101, RANK_WIN};
    ProbeState state = PROBE_OK;
    int rootWdl = probe_wdl_rules(pos, false, &state);
    if (state == PROBE_FAIL) return false;
    for (int i = 0; i < moves->count; i++) {
        Move m = moves->moves[i];
        state = PROBE_OK;
        pos_do_move(pos, m);
        int w = drawn_by_rule(pos, rule50) ? TB_DRAW : -probe_wdl_rules(pos, false, &state);
        pos_undo_move(pos);
        if (state == PROBE_FAIL) return false;
        TbRootMove *rm = &r->moves[i];
        rm->move = m;
        rm->dtz = w;
        rm->rank = Rank[w + 2];
        rm->wdl = honour_rule50((TbWdl)w, rule50);
        rm->score = tb_wdl_value(rm->wdl, 1, rule50);
    }
    r->dtz = 0;
    r->wdl = honour_rule50((TbWdl)rootWdl, rule50);
    return true;
}

bool tb_rank_root_moves(const Position *root, bool rule50, TbRootMoves *out) {
    if (!probe_allowed(root)) return false;
    Position *pos = &Scratch;
    pos_copy(pos, root); /* with the history: repetitions matter at the root */
    MoveList moves;
    gen_legal(pos, &moves);
    static _Thread_local TbRootMoves r;
    memset(&r, 0, sizeof r);
    r.count = moves.count;
    r.byDtz = rank_by_dtz(pos, &moves, rule50, &r);
    if (!r.byDtz && !rank_by_wdl(pos, &moves, rule50, &r)) return false;
    /* Stable insertion sort, best rank first. */
    for (int i = 1; i < r.count; i++) {
        TbRootMove m = r.moves[i];
        int j = i;
        for (; j > 0 && r.moves[j - 1].rank < m.rank; j--) r.moves[j] = r.moves[j - 1];
        r.moves[j] = m;
    }
    r.keep = 0;
    while (r.keep < r.count && r.moves[r.keep].rank == r.moves[0].rank) r.keep++;
    *out = r;
    return true;
}
