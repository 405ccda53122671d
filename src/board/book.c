/*
 * Polyglot opening books: loading with validation, probing by binary search,
 * move choice, and writing books from accumulated game statistics.
 */
#include "book.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "movegen.h"

/* Polyglot's make-book halves a position's statistics when a move reaches this many games. */
enum { BOOK_COUNT_MAX = 16384 };
/* Largest weight a 16-bit entry can hold. */
enum { BOOK_WEIGHT_MAX = 65535 };
/* Builder hash table: initial slot count (a power of two) and the load that triggers growth. */
enum { BUILDER_INITIAL_SLOTS = 1024, BUILDER_MAX_LOAD_PERCENT = 50 };
/* Polyglot move fields. */
enum { CODE_PROMOTION_SHIFT = 12, CODE_PROMOTION_MASK = 7, CODE_PROMOTION_MAX = 4, CODE_UNUSED_BIT = 0x8000 };

/* Reads a big-endian integer of size bytes. */
static uint64_t read_big_endian(const unsigned char *p, int size) {
    uint64_t n = 0;
    for (int i = 0; i < size; i++)
        n = (n << 8) | p[i];
    return n;
}

/* Writes n as a big-endian integer of size bytes. */
static void write_big_endian(unsigned char *p, int size, uint64_t n) {
    for (int i = size - 1; i >= 0; i--) {
        p[i] = (unsigned char)(n & 0xFF);
        n >>= 8;
    }
}

/* Is a stored move code possible at all (promotion field 0-4, spare bit clear)? */
static bool code_is_valid(uint16_t code) {
    if (code == 0) return true; /* "a1a1": a null entry the format says to ignore */
    int promotion = (code >> CODE_PROMOTION_SHIFT) & CODE_PROMOTION_MASK;
    return !(code & CODE_UNUSED_BIT) && promotion <= CODE_PROMOTION_MAX && (code & 63) != ((code >> 6) & 63);
}

/*
 * The illegal entries that probes meet, kept beside the read-only entries:
 * a flag per entry so that each is counted once however often it is met,
 * and the first one met (SIZE_MAX: none yet), for the message.
 */
struct BookIllegal {
    atomic_uchar *seen;
    atomic_size_t count;
    atomic_size_t first;
};

static BookIllegal *illegal_new(size_t entries) {
    BookIllegal *b = malloc(sizeof *b);
    if (b && !(b->seen = calloc(entries, sizeof *b->seen))) {
        free(b);
        return NULL;
    }
    if (b) {
        atomic_init(&b->count, 0);
        atomic_init(&b->first, SIZE_MAX);
    }
    return b;
}

/* Counts entry e (of book) once, from any thread. */
static void note_illegal(const Book *book, const BookEntry *e) {
    BookIllegal *b = book->illegal;
    size_t i = (size_t)(e - book->entries);
    if (!b || e->move == 0 || atomic_exchange_explicit(&b->seen[i], 1, memory_order_relaxed)) return;
    atomic_fetch_add_explicit(&b->count, 1, memory_order_relaxed);
    size_t none = SIZE_MAX;
    atomic_compare_exchange_strong(&b->first, &none, i);
}

bool book_illegal_text(const Book *book, const char *name, char *out, size_t size) {
    size_t n = book->illegal ? atomic_load(&book->illegal->count) : 0;
    size_t first = book->illegal ? atomic_load(&book->illegal->first) : SIZE_MAX;
    if (size) out[0] = '\0';
    if (n == 0 || first >= book->count) return false;
    char move[8];
    book_code_to_text(book->entries[first].move, move);
    snprintf(out, size, "%s: %zu entr%s skipped: %s move is illegal in %s position (the first: key %016llx, move %s)",
             name, n, n == 1 ? "y" : "ies", n == 1 ? "its" : "their", n == 1 ? "its" : "their",
             (unsigned long long)book->entries[first].key, move);
    return true;
}

/* Frees the entries; the book probes as empty afterwards. */
void book_close(Book *book) {
    free(book->entries);
    if (book->illegal) free(book->illegal->seen);
    free(book->illegal);
    book->entries = NULL;
    book->illegal = NULL;
    book->count = 0;
}

/* Decodes and validates a book image: size, key order and move codes. */
bool book_load_memory(Book *book, const unsigned char *data, size_t size, const char *name,
                      char *err, size_t errlen) {
    book_close(book);
    if (size == 0) {
        snprintf(err, errlen, "book '%s' is empty", name);
        return false;
    }
    if (size % BOOK_ENTRY_SIZE != 0) {
        snprintf(err, errlen,
                 "book '%s' is truncated or not a Polyglot book: its size (%zu bytes) is not a multiple of %d",
                 name, size, BOOK_ENTRY_SIZE);
        return false;
    }
    size_t count = size / BOOK_ENTRY_SIZE;
    BookEntry *entries = malloc(count * sizeof *entries);
    if (!entries) {
        snprintf(err, errlen, "book '%s': out of memory for %zu entries", name, count);
        return false;
    }
    for (size_t i = 0; i < count; i++) {
        const unsigned char *p = data + i * BOOK_ENTRY_SIZE;
        BookEntry *e = &entries[i];
        e->key = read_big_endian(p, 8);
        e->move = (uint16_t)read_big_endian(p + 8, 2);
        e->weight = (uint16_t)read_big_endian(p + 10, 2);
        e->learn = (uint32_t)read_big_endian(p + 12, 4);
        if (i > 0 && e->key < entries[i - 1].key) {
            snprintf(err, errlen, "book '%s' is not a valid Polyglot book: keys are not sorted (entry %zu of %zu)",
                     name, i + 1, count);
            free(entries);
            return false;
        }
        if (!code_is_valid(e->move)) {
            snprintf(err, errlen,
                     "book '%s' is not a valid Polyglot book: entry %zu has an impossible move code 0x%04x", name,
                     i + 1, e->move);
            free(entries);
            return false;
        }
    }
    book->illegal = illegal_new(count);
    if (!book->illegal) {
        snprintf(err, errlen, "book '%s': out of memory for %zu entries", name, count);
        free(entries);
        return false;
    }
    book->entries = entries;
    book->count = count;
    return true;
}

/* Reads a whole book file into memory and validates it; only a regular file is opened (a FIFO would block). */
bool book_open(Book *book, const char *path, char *err, size_t errlen) {
    book_close(book);
    uint64_t length;
    FILE *f = file_open_read(path, &length, err, errlen);
    if (!f) return false;
    size_t size = (size_t)length;
    unsigned char *data = malloc(size ? size : 1);
    if (!data) {
        fclose(f);
        snprintf(err, errlen, "book '%s': out of memory for %zu bytes", path, size);
        return false;
    }
    size_t got = fread(data, 1, size, f);
    bool readError = ferror(f) != 0;
    fclose(f);
    bool ok;
    if (readError || got != size) {
        snprintf(err, errlen, "cannot read book '%s': %s", path,
                 readError ? strerror(errno) : "file changed while reading");
        ok = false;
    } else {
        ok = book_load_memory(book, data, size, path, err, errlen);
    }
    free(data);
    return ok;
}

/* Binary search for the first entry of key; its entries are contiguous. */
size_t book_entries_for_key(const Book *book, Key key, const BookEntry **first) {
    size_t lo = 0, hi = book->count;
    while (lo < hi) { /* first entry with entry.key >= key */
        size_t mid = lo + (hi - lo) / 2;
        if (book->entries[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < book->count && book->entries[end].key == key)
        end++;
    *first = book->count ? book->entries + lo : NULL; /* no arithmetic on an empty book's NULL */
    return end - lo;
}

/* Gizum and Polyglot both write castling as king-takes-rook, so only promotions need mapping. */
uint16_t book_encode_move(Move m) {
    uint16_t code = (uint16_t)((move_from(m) << 6) | move_to(m));
    if (move_kind(m) == MOVE_PROMOTION)
        code |= (uint16_t)((move_promotion(m) - KNIGHT + 1) << CODE_PROMOTION_SHIFT);
    return code;
}

/* Rebuilds the move kind from the board, then insists on legality. */
Move book_decode_move(const Position *pos, uint16_t code) {
    if (code == 0 || !code_is_valid(code)) return MOVE_NONE;
    Square from = (Square)((code >> 6) & 63), to = (Square)(code & 63);
    int promotion = (code >> CODE_PROMOTION_SHIFT) & CODE_PROMOTION_MASK;
    Color us = pos_side_to_move(pos);
    Piece piece = pos_piece_on(pos, from);
    Move m;
    if (promotion)
        m = make_promotion(from, to, (PieceType)(KNIGHT + promotion - 1));
    else if (piece == make_piece(us, KING) && pos_piece_on(pos, to) == make_piece(us, ROOK))
        m = make_special(from, to, MOVE_CASTLING);
    else if (piece == make_piece(us, KING) && !pos->chess960 && rank_of(from) == rank_of(to)
             && abs(file_of(to) - file_of(from)) == 2)
        /* e1g1-style castling written by some tools: the king never moves two squares otherwise. */
        m = make_special(from, make_square(file_of(to) > file_of(from) ? FILE_H : FILE_A, rank_of(from)),
                         MOVE_CASTLING);
    else if (piece == make_piece(us, PAWN) && to == pos->st->epSquare)
        m = make_special(from, to, MOVE_EN_PASSANT);
    else
        m = make_move(from, to);
    return pos_is_legal(pos, m) ? m : MOVE_NONE;
}

/* Squares and promotion letter of a raw code, for dumps. */
void book_code_to_text(uint16_t code, char *out) {
    static const char Promotions[] = " nbrq";
    int from = (code >> 6) & 63, to = code & 63;
    int promotion = (code >> CODE_PROMOTION_SHIFT) & CODE_PROMOTION_MASK;
    out[0] = (char)('a' + (from & 7));
    out[1] = (char)('1' + (from >> 3));
    out[2] = (char)('a' + (to & 7));
    out[3] = (char)('1' + (to >> 3));
    out[4] = promotion >= 1 && promotion <= CODE_PROMOTION_MAX ? Promotions[promotion] : '\0';
    out[5] = '\0';
}

/* Stable ordering for probe results: higher weight first, then book order. */
static void sort_by_weight(BookMove *moves, int n) {
    for (int i = 1; i < n; i++) {
        BookMove m = moves[i];
        int j = i;
        for (; j > 0 && moves[j - 1].weight < m.weight; j--)
            moves[j] = moves[j - 1];
        moves[j] = m;
    }
}

/* Legal moves stored for the position, duplicates merged, heaviest first. */
int book_probe(const Book *book, const Position *pos, BookMove *out, int max) {
    /* Distinct legal moves cannot exceed MAX_MOVES, so all fit before the heaviest are chosen. */
    BookMove all[MAX_MOVES];
    const BookEntry *first;
    size_t n = book_entries_for_key(book, pos_key(pos), &first);
    int count = 0;
    for (size_t i = 0; i < n; i++) {
        Move m = book_decode_move(pos, first[i].move);
        if (m == MOVE_NONE) {
            note_illegal(book, &first[i]);
            continue;
        }
        int j = 0;
        while (j < count && all[j].move != m) /* a move listed twice counts once, weights added */
            j++;
        if (j < count) {
            all[j].weight += first[i].weight;
            continue;
        }
        all[count].move = m;
        all[count].weight = first[i].weight;
        all[count].learn = first[i].learn;
        count++;
    }
    sort_by_weight(all, count);
    if (count > max) count = max < 0 ? 0 : max;
    memcpy(out, all, (size_t)count * sizeof *out);
    return count;
}

/* Advances the caller-owned generator state. */
uint64_t book_random(uint64_t *state) {
    /* SplitMix64 (Steele, Lea, Flood): every seed, including 0, gives a full-period stream. */
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Heaviest move, or a random one with probability weight / total weight. */
Move book_pick(const Book *book, const Position *pos, bool best, uint64_t *rng) {
    BookMove moves[MAX_MOVES];
    int n = book_probe(book, pos, moves, MAX_MOVES);
    uint64_t total = 0;
    for (int i = 0; i < n; i++)
        total += (uint64_t)moves[i].weight;
    if (total == 0) return MOVE_NONE;
    if (best) return moves[0].move; /* sorted: the first has the highest weight */
    uint64_t r = book_random(rng) % total;
    for (int i = 0; i < n; i++) {
        if (r < (uint64_t)moves[i].weight) return moves[i].move;
        r -= (uint64_t)moves[i].weight;
    }
    return moves[0].move; /* unreachable: r < total */
}

/* ---- Writing ---- */

static bool write_sorted_entries(const char *path, const BookEntry *entries, size_t n, char *err, size_t errlen);

/* Polyglot make-book's defaults: 3 games, both sides. */
BookFilter book_filter_default(void) {
    BookFilter f = {.minGames = 3, .onlyWhite = false, .onlyBlack = false};
    return f;
}

/* Statistics of one (position, move) pair, as Polyglot's make-book keeps them. */
typedef struct {
    Key key;
    uint16_t move;  /* Polyglot code */
    int games;      /* Polyglot's "n" */
    int score;      /* Polyglot's "sum": 2 per win, 1 per draw */
    Color mover;
    int32_t next;   /* next entry with the same key, -1 at the end */
} BuilderEntry;

struct BookBuilder {
    BuilderEntry *entries;
    size_t count, capacity;
    int32_t *slots;   /* open addressing by key: index of the newest entry of that key, or -1 */
    size_t slotCount; /* a power of two */
    size_t keys;      /* distinct keys, for the load factor */
};

/* An empty builder with a small hash table. */
BookBuilder *book_builder_new(void) {
    BookBuilder *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->slotCount = BUILDER_INITIAL_SLOTS;
    b->slots = malloc(b->slotCount * sizeof *b->slots);
    if (!b->slots) {
        free(b);
        return NULL;
    }
    for (size_t i = 0; i < b->slotCount; i++)
        b->slots[i] = -1;
    return b;
}

/* Releases a builder (NULL allowed). */
void book_builder_free(BookBuilder *builder) {
    if (!builder) return;
    free(builder->entries);
    free(builder->slots);
    free(builder);
}

/* Distinct (position, move) pairs recorded. */
size_t book_builder_size(const BookBuilder *builder) {
    return builder->count;
}

/* The slot holding key, or the empty slot where it belongs. */
static size_t builder_slot(const BookBuilder *b, Key key) {
    size_t mask = b->slotCount - 1;
    size_t i = (size_t)(key ^ (key >> 32)) & mask;
    while (b->slots[i] != -1 && b->entries[b->slots[i]].key != key)
        i = (i + 1) & mask;
    return i;
}

/* Doubles the hash table and reinserts every key's chain head. */
static bool builder_grow_slots(BookBuilder *b) {
    size_t oldCount = b->slotCount;
    int32_t *old = b->slots;
    b->slotCount = oldCount * 2;
    b->slots = malloc(b->slotCount * sizeof *b->slots);
    if (!b->slots) {
        b->slots = old;
        b->slotCount = oldCount;
        return false;
    }
    for (size_t i = 0; i < b->slotCount; i++)
        b->slots[i] = -1;
    for (size_t i = 0; i < oldCount; i++)
        if (old[i] != -1)
            b->slots[builder_slot(b, b->entries[old[i]].key)] = old[i];
    free(old);
    return true;
}

/* Halves every move's statistics in a position, rounding up, as Polyglot does. */
static void builder_halve(BookBuilder *b, int32_t head) {
    for (int32_t i = head; i != -1; i = b->entries[i].next) {
        b->entries[i].games = (b->entries[i].games + 1) / 2;
        b->entries[i].score = (b->entries[i].score + 1) / 2;
    }
}

/* Counts one game move, halving the position's statistics at Polyglot's limit. */
bool book_builder_add(BookBuilder *b, Key key, Move m, Color mover, int score) {
    uint16_t code = book_encode_move(m);
    size_t slot = builder_slot(b, key);
    int32_t i = b->slots[slot];
    while (i != -1 && b->entries[i].move != code)
        i = b->entries[i].next;
    if (i == -1) {
        if (b->count >= INT32_MAX) return false;
        if (b->count == b->capacity) {
            size_t capacity = b->capacity ? b->capacity * 2 : 1024;
            BuilderEntry *grown = realloc(b->entries, capacity * sizeof *grown);
            if (!grown) return false;
            b->entries = grown;
            b->capacity = capacity;
        }
        i = (int32_t)b->count++;
        b->entries[i] = (BuilderEntry){.key = key, .move = code, .games = 0, .score = 0, .mover = mover,
                                       .next = b->slots[slot]};
        bool newKey = b->slots[slot] == -1;
        b->slots[slot] = i;
        if (newKey && ++b->keys * 100 > b->slotCount * BUILDER_MAX_LOAD_PERCENT && !builder_grow_slots(b))
            return false;
    }
    b->entries[i].games++;
    b->entries[i].score += score;
    if (b->entries[i].games >= BOOK_COUNT_MAX)
        builder_halve(b, b->slots[builder_slot(b, key)]);
    return true;
}

/* Polyglot's keep_entry(): enough games, a non-zero score, the wanted side. */
static bool builder_keeps(const BuilderEntry *e, const BookFilter *filter) {
    if (e->games < filter->minGames || e->score == 0) return false;
    if (filter->onlyWhite && e->mover != WHITE) return false;
    if (filter->onlyBlack && e->mover != BLACK) return false;
    return true;
}

/* A kept entry with its creation rank, which breaks weight ties as Polyglot's (stable) sort does. */
typedef struct {
    BookEntry entry;
    size_t rank;
} RankedEntry;

/* Key, then weight descending, then first appearance in the games. */
static int compare_ranked(const void *a, const void *b) {
    const RankedEntry *x = a, *y = b;
    if (x->entry.key != y->entry.key) return x->entry.key < y->entry.key ? -1 : 1;
    if (x->entry.weight != y->entry.weight) return (int)y->entry.weight - (int)x->entry.weight;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* Filters and orders the entries as Polyglot does, then writes them. */
long book_builder_write(const BookBuilder *builder, const BookFilter *filter, const char *path,
                        char *err, size_t errlen) {
    size_t kept = 0;
    for (size_t i = 0; i < builder->count; i++)
        kept += builder_keeps(&builder->entries[i], filter);
    RankedEntry *ranked = malloc((kept ? kept : 1) * sizeof *ranked);
    BookEntry *entries = malloc((kept ? kept : 1) * sizeof *entries);
    if (!ranked || !entries) {
        free(ranked);
        free(entries);
        snprintf(err, errlen, "out of memory for %zu book entries", kept);
        return -1;
    }
    size_t n = 0;
    for (size_t i = 0; i < builder->count; i++) {
        const BuilderEntry *e = &builder->entries[i];
        if (!builder_keeps(e, filter)) continue;
        int weight = e->score < BOOK_WEIGHT_MAX ? e->score : BOOK_WEIGHT_MAX;
        ranked[n].entry = (BookEntry){.key = e->key, .move = e->move, .weight = (uint16_t)weight, .learn = 0};
        ranked[n].rank = n;
        n++;
    }
    qsort(ranked, n, sizeof *ranked, compare_ranked);
    for (size_t i = 0; i < n; i++)
        entries[i] = ranked[i].entry;
    free(ranked);
    bool ok = write_sorted_entries(path, entries, n, err, errlen);
    free(entries);
    return ok ? (long)n : -1;
}

/* Order for merging duplicates: key, then move. */
static int compare_key_move(const void *a, const void *b) {
    const BookEntry *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (int)x->move - (int)y->move;
}

/* File order: key, then weight descending (as Polyglot writes), then move for reproducibility. */
static int compare_file_order(const void *a, const void *b) {
    const BookEntry *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    if (x->weight != y->weight) return (int)y->weight - (int)x->weight;
    return (int)x->move - (int)y->move;
}

/* Merges duplicate (key, move) pairs, sorts into file order and writes. */
bool book_write_entries(const char *path, BookEntry *entries, size_t count, char *err, size_t errlen) {
    qsort(entries, count, sizeof *entries, compare_key_move);
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        if (n > 0 && entries[n - 1].key == entries[i].key && entries[n - 1].move == entries[i].move) {
            unsigned sum = (unsigned)entries[n - 1].weight + entries[i].weight;
            entries[n - 1].weight = (uint16_t)(sum < BOOK_WEIGHT_MAX ? sum : BOOK_WEIGHT_MAX);
            continue;
        }
        entries[n++] = entries[i];
    }
    qsort(entries, n, sizeof *entries, compare_file_order);
    return write_sorted_entries(path, entries, n, err, errlen);
}

/*
 * Writes entries already in file order through a temporary file renamed at
 * the end (files.h): a reader never sees half a book, and a folder, FIFO or
 * device named as the book is refused rather than replaced.
 */
static bool write_sorted_entries(const char *path, const BookEntry *entries, size_t n, char *err, size_t errlen) {
    FileWriter w;
    if (!file_write_begin(&w, path, err, errlen)) return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char buf[BOOK_ENTRY_SIZE];
        write_big_endian(buf, 8, entries[i].key);
        write_big_endian(buf + 8, 2, entries[i].move);
        write_big_endian(buf + 10, 2, entries[i].weight);
        write_big_endian(buf + 12, 4, entries[i].learn);
        if (fwrite(buf, 1, sizeof buf, w.f) != sizeof buf) break; /* the error stays on the stream for the commit */
    }
    return file_write_commit(&w, err, errlen);
}
