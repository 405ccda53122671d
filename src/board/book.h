/*
 * Opening books in the Polyglot format, the de-facto standard shared by
 * GUIs and engines: a file of 16-byte big-endian entries (key, move, weight,
 * learn) sorted by key. The key is the Polyglot hash of the position, which
 * is exactly pos_key() (Gizum's Zobrist keys are Polyglot's Random64 keys).
 *
 * Reading: book_open loads and validates a book; book_probe lists the legal
 * book moves of a position; book_pick chooses one. A loaded Book is never
 * modified, so any number of threads may probe it at once (the count of
 * illegal entries they meet is kept apart, in atomics).
 *
 * Writing: a BookBuilder accumulates game statistics exactly as Polyglot's
 * make-book does (per position and move: games and 2*wins + draws, halved
 * when a position reaches 16384 games), then filters, sorts and writes, so
 * the two tools produce the same entries from the same games.
 */
#ifndef GIZUM_BOOK_H
#define GIZUM_BOOK_H

#include "position.h"

/* Bytes per Polyglot entry: key (8), move (2), weight (2), learn (4). */
enum { BOOK_ENTRY_SIZE = 16 };

/* One entry as stored; move is in Polyglot's encoding (castling as e1h1). */
typedef struct {
    Key key;
    uint16_t move;
    uint16_t weight;
    uint32_t learn;
} BookEntry;

/* Entries met by probes whose move is not legal in the position probed (book.c). */
typedef struct BookIllegal BookIllegal;

/* A book in memory. Zero-initialise it (or book_close it) before book_open. */
typedef struct {
    BookEntry *entries;
    size_t count;
    BookIllegal *illegal;
} Book;

/* A legal book move of a position. */
typedef struct {
    Move move;
    int weight;       /* summed over duplicate entries; 0 = listed but never picked */
    uint32_t learn;
} BookMove;

/*
 * Loads a Polyglot book. Rejects a missing or unreadable file, an empty
 * file, a size that is not a multiple of 16 (truncated), keys out of order
 * (unsorted, or not a book at all) and impossible move codes, writing the
 * reason to err. Frees whatever the book held before; on failure the book
 * is left empty (book->count == 0), which probes as "out of book".
 */
bool book_open(Book *book, const char *path, char *err, size_t errlen);
/* The same checks on a book image in memory (name is used in messages). */
bool book_load_memory(Book *book, const unsigned char *data, size_t size, const char *name,
                      char *err, size_t errlen);
void book_close(Book *book);

/*
 * The legal book moves of pos, highest weight first (file order among equal
 * weights), at most max. Entries whose move is not legal here (hash
 * collisions, broken books) are skipped, and counted for book_illegal_text.
 * Returns the number written to out.
 */
int book_probe(const Book *book, const Position *pos, BookMove *out, int max);
/*
 * A book move for pos, or MOVE_NONE when out of book. best picks the highest
 * weight; otherwise the choice is random in proportion to the weights, using
 * and advancing the caller's generator state *rng (any value is a valid seed).
 * Moves of weight 0 are never picked.
 */
Move book_pick(const Book *book, const Position *pos, bool best, uint64_t *rng);
/*
 * One line naming the entries probes have skipped so far because their move
 * is illegal in their position, each counted once: "NAME: 2 entries skipped:
 * their move is illegal in their position (the first: key 463b96181691fc9c,
 * move e2e5)". False (out empty) when there were none. A book whose moves are
 * all of this kind is otherwise only "too small" (issue #38).
 */
bool book_illegal_text(const Book *book, const char *name, char *out, size_t size);

/* The raw entries stored for key (count returned, *first set), whether legal or not. */
size_t book_entries_for_key(const Book *book, Key key, const BookEntry **first);

/* Next number of the small random generator book_pick uses (SplitMix64). */
uint64_t book_random(uint64_t *state);

/* Polyglot code of a Gizum move (castling stays king-takes-rook, promotions 1-4). */
uint16_t book_encode_move(Move m);
/*
 * The legal Gizum move that a Polyglot code means in pos, or MOVE_NONE.
 * Castling is king-takes-rook (e1h1); e1g1-style castling from non-standard
 * books is accepted too.
 */
Move book_decode_move(const Position *pos, uint16_t code);
/* A Polyglot code as text without a position ("e2e4", "e1h1", "a7a8q"). Buffer >= 6. */
void book_code_to_text(uint16_t code, char *out);

/* Filter applied when a builder writes its book; book_filter_default gives Polyglot's. */
typedef struct {
    int minGames;     /* keep a move played in at least this many games (Polyglot: 3) */
    bool onlyWhite;   /* keep only moves of White ... */
    bool onlyBlack;   /* ... or only moves of Black */
} BookFilter;

BookFilter book_filter_default(void);

typedef struct BookBuilder BookBuilder;

/* An empty builder, or NULL when out of memory. */
BookBuilder *book_builder_new(void);
void book_builder_free(BookBuilder *builder);
/*
 * Records that move m was played in the position with this key by mover,
 * with score 2 for a won game, 1 for a draw or unknown result, 0 for a loss.
 * Returns false only when out of memory.
 */
bool book_builder_add(BookBuilder *builder, Key key, Move m, Color mover, int score);
/* Distinct (position, move) pairs recorded so far. */
size_t book_builder_size(const BookBuilder *builder);
/*
 * Applies the filter, sorts and writes the book (via a temporary file, so a
 * failed write never leaves a half-written book). Entries are ordered by
 * key, then weight descending, then first appearance in the games, which is
 * the order Polyglot's make-book writes: the same games give the same bytes.
 * Returns the number of entries written, or -1 with a message in err.
 */
long book_builder_write(const BookBuilder *builder, const BookFilter *filter, const char *path,
                        char *err, size_t errlen);

/*
 * Writes entries as a Polyglot book: duplicate (key, move) pairs merged
 * (weights added, capped at 65535), sorted by key, then weight descending,
 * then move. Reorders the array. Returns false with a message in err.
 */
bool book_write_entries(const char *path, BookEntry *entries, size_t count, char *err, size_t errlen);

#endif
