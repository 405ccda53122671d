/*
 * Shared checks for the libFuzzer targets in fuzz/. Every check aborts with
 * a message naming the broken invariant, so the fuzzer saves the input as a
 * crash and the message says what went wrong.
 *
 * Only static inline functions here: each target is one translation unit.
 */
#ifndef GIZUM_FUZZ_COMMON_H
#define GIZUM_FUZZ_COMMON_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "init.h"
#include "fen.h"
#include "movegen.h"
#include "notation.h"
#include "perft.h"
#include "position.h"

/* The libFuzzer entry points. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Reports a broken invariant and aborts (the fuzzer records the input). */
static inline void fuzz_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4), noreturn));
static inline void fuzz_fail(const char *file, int line, const char *fmt, ...) {
    /* Straight to descriptor 2: a target may have swapped the stdio stream stderr for a quiet one. */
    va_list ap;
    va_start(ap, fmt);
    dprintf(STDERR_FILENO, "\n*** fuzz invariant broken at %s:%d: ", file, line);
    vdprintf(STDERR_FILENO, fmt, ap);
    dprintf(STDERR_FILENO, "\n");
    va_end(ap);
    abort();
}

#define FUZZ_CHECK(cond, ...) \
    do { \
        if (!(cond)) fuzz_fail(__FILE__, __LINE__, __VA_ARGS__); \
    } while (0)

/* Copies at most max bytes of data up to its first NUL into a fresh NUL-terminated string. */
static inline char *fuzz_strndup(const uint8_t *data, size_t size, size_t max) {
    size_t n = 0;
    while (n < size && n < max && data[n]) n++;
    char *s = malloc(n + 1);
    if (!s) abort();
    memcpy(s, data, n);
    s[n] = '\0';
    return s;
}

/* A heap Position (Position is ~60 KB: never on the stack). */
static inline Position *fuzz_new_position(void) {
    Position *p = malloc(sizeof *p);
    if (!p) abort();
    pos_set_startpos(p, false);
    return p;
}

static inline int fuzz_move_cmp(const void *a, const void *b) {
    return (int)*(const Move *)a - (int)*(const Move *)b;
}

/* Sorted copy of a move list, for set comparisons. */
static inline void fuzz_sorted(const MoveList *in, MoveList *out) {
    *out = *in;
    qsort(out->moves, (size_t)out->count, sizeof out->moves[0], fuzz_move_cmp);
}

/* Number of bits set. */
static inline int fuzz_popcount(Bitboard b) { return __builtin_popcountll(b); }

/* Hash keys, kings and check state of a position that the board layer accepted or reached. */
static inline void fuzz_check_state(const Position *pos, const char *where) {
    char fen[128];
    pos_get_fen(pos, fen);
    FUZZ_CHECK(pos_key(pos) == pos_compute_key(pos), "%s: incremental key != computed key (%s)", where, fen);
    FUZZ_CHECK(pos->st->pawnKey == pos_compute_pawn_key(pos), "%s: incremental pawn key != computed (%s)", where, fen);
    FUZZ_CHECK(fuzz_popcount(pos_pieces_cpt(pos, WHITE, KING)) == 1 && fuzz_popcount(pos_pieces_cpt(pos, BLACK, KING)) == 1,
               "%s: a side does not have exactly one king (%s)", where, fen);
    Color us = pos_side_to_move(pos), them = color_flip(us);
    Bitboard occ = pos_pieces(pos);
    FUZZ_CHECK((pos_attackers_to(pos, pos_king_square(pos, them), occ) & pos_pieces_c(pos, us)) == 0,
               "%s: the side not to move is in check (%s)", where, fen);
    Bitboard checkers = pos_attackers_to(pos, pos_king_square(pos, us), occ) & pos_pieces_c(pos, them);
    FUZZ_CHECK(checkers == pos_checkers(pos), "%s: stored checkers differ from the attackers of the king (%s)", where, fen);
    FUZZ_CHECK(fuzz_popcount(checkers) <= 2, "%s: more than two checkers (%s)", where, fen);
    FUZZ_CHECK((pos_pieces_c(pos, WHITE) & pos_pieces_c(pos, BLACK)) == 0, "%s: colour bitboards overlap (%s)", where, fen);
    for (int s = 0; s < SQUARE_NB; s++) {
        Piece pc = pos_piece_on(pos, (Square)s);
        bool set = (occ >> s) & 1;
        FUZZ_CHECK(set == (pc != NO_PIECE), "%s: board array and bitboards disagree on square %d (%s)", where, s, fen);
        if (pc != NO_PIECE)
            FUZZ_CHECK((pos_pieces_cpt(pos, piece_color(pc), piece_type(pc)) >> s) & 1,
                       "%s: piece on square %d missing from its bitboards (%s)", where, s, fen);
    }
    FUZZ_CHECK((pos_pieces_pt(pos, PAWN) & 0xFF000000000000FFULL) == 0, "%s: pawn on the first or last rank (%s)", where, fen);
    Square ep = pos->st->epSquare;
    if (ep != SQ_NONE) {
        FUZZ_CHECK(square_is_ok(ep) && relative_rank(us, ep) == RANK_6, "%s: bad en-passant square %d (%s)", where, ep, fen);
        FUZZ_CHECK(pawn_attacks(them, ep) & pos_pieces_cpt(pos, us, PAWN),
                   "%s: en-passant square %d that no pawn of the side to move attacks (%s)", where, ep, fen);
        FUZZ_CHECK(pos_piece_on(pos, (Square)(ep - pawn_push(us))) == make_piece(them, PAWN),
                   "%s: en-passant square %d without the pawn that just moved (%s)", where, ep, fen);
    }
}

/*
 * The generators agree: gen_legal has no duplicates, equals the disjoint
 * union gen_noisy + gen_quiets (noisy = captures and promotions), equals
 * gen_evasions when in check, has count_legal moves, and every move passes
 * pos_is_legal. Returns the legal moves in *legal.
 */
static inline void fuzz_check_generators(const Position *pos, MoveList *legal, const char *where) {
    MoveList noisy, quiets, a, b;
    char fen[128];
    gen_legal(pos, legal);
    gen_noisy(pos, &noisy);
    gen_quiets(pos, &quiets);
    pos_get_fen(pos, fen);
    FUZZ_CHECK(legal->count >= 0 && legal->count <= MAX_MOVES, "%s: bad move count %d (%s)", where, legal->count, fen);
    FUZZ_CHECK(count_legal(pos) == legal->count, "%s: count_legal %d != gen_legal %d (%s)", where, count_legal(pos),
               legal->count, fen);
    FUZZ_CHECK(noisy.count + quiets.count == legal->count, "%s: noisy %d + quiets %d != legal %d (%s)", where,
               noisy.count, quiets.count, legal->count, fen);
    fuzz_sorted(legal, &a);
    for (int i = 1; i < a.count; i++)
        FUZZ_CHECK(a.moves[i] != a.moves[i - 1], "%s: gen_legal lists move %04x twice (%s)", where, a.moves[i], fen);
    b = noisy;
    for (int i = 0; i < quiets.count; i++) b.moves[b.count++] = quiets.moves[i];
    fuzz_sorted(&b, &b);
    for (int i = 0; i < a.count; i++)
        FUZZ_CHECK(a.moves[i] == b.moves[i], "%s: gen_legal and gen_noisy+gen_quiets differ (%s)", where, fen);
    for (int i = 0; i < noisy.count; i++)
        FUZZ_CHECK(pos_is_capture_or_promotion(pos, noisy.moves[i]), "%s: gen_noisy gave quiet move %04x (%s)", where,
                   noisy.moves[i], fen);
    for (int i = 0; i < quiets.count; i++)
        FUZZ_CHECK(!pos_is_capture_or_promotion(pos, quiets.moves[i]), "%s: gen_quiets gave noisy move %04x (%s)", where,
                   quiets.moves[i], fen);
    if (pos_in_check(pos)) {
        MoveList ev, evs;
        gen_evasions(pos, &ev);
        fuzz_sorted(&ev, &evs);
        FUZZ_CHECK(evs.count == a.count, "%s: gen_evasions %d != gen_legal %d (%s)", where, evs.count, a.count, fen);
        for (int i = 0; i < a.count; i++)
            FUZZ_CHECK(a.moves[i] == evs.moves[i], "%s: gen_evasions and gen_legal differ (%s)", where, fen);
    }
    for (int i = 0; i < legal->count; i++)
        FUZZ_CHECK(pos_is_legal(pos, legal->moves[i]), "%s: generated move %04x fails pos_is_legal (%s)", where,
                   legal->moves[i], fen);
}

/* Same board, side, rights, en passant and clocks. */
static inline bool fuzz_same_position(const Position *a, const Position *b) {
    return memcmp(a->board, b->board, sizeof a->board) == 0 && a->sideToMove == b->sideToMove &&
           a->st->castling == b->st->castling && a->st->epSquare == b->st->epSquare && a->st->rule50 == b->st->rule50 &&
           a->gamePly == b->gamePly && pos_key(a) == pos_key(b);
}

/* The FEN printed for pos parses back (into scratch) to the same position and prints identically. */
static inline void fuzz_check_fen_roundtrip(const Position *pos, Position *scratch, const char *where) {
    char fen[128], again[128], err[256];
    pos_get_fen(pos, fen);
    FUZZ_CHECK(strlen(fen) < 100, "%s: FEN longer than the documented 100-byte buffer (%s)", where, fen);
    FUZZ_CHECK(pos_set_fen(scratch, fen, pos->chess960, err, sizeof err), "%s: printed FEN '%s' is rejected: %s",
               where, fen, err);
    pos_get_fen(scratch, again);
    FUZZ_CHECK(strcmp(fen, again) == 0, "%s: FEN '%s' reprints as '%s'", where, fen, again);
    FUZZ_CHECK(pos_key(scratch) == pos_key(pos), "%s: FEN '%s' reparses with another key", where, fen);
    FUZZ_CHECK(fuzz_same_position(pos, scratch), "%s: FEN '%s' reparses to another position", where, fen);
    for (int i = 0; i < 4; i++)
        if (pos->st->castling & (1 << i))
            FUZZ_CHECK(pos->castlingRookSquare[i] == scratch->castlingRookSquare[i],
                       "%s: FEN '%s' reparses with another castling rook", where, fen);
}

/* A legal move's SAN and UCI texts parse back to the same move. */
static inline void fuzz_check_notation(Position *pos, Move m, const char *where) {
    char san[32], uci[16], fen[128];
    memset(san, 'X', sizeof san);
    memset(uci, 'X', sizeof uci);
    move_to_san(pos, m, san);
    move_to_uci(m, pos->chess960, uci);
    pos_get_fen(pos, fen);
    FUZZ_CHECK(strnlen(san, sizeof san) < 12, "%s: SAN of %04x overflows its 12-byte buffer (%s)", where, m, fen);
    FUZZ_CHECK(strnlen(uci, sizeof uci) < 6, "%s: UCI of %04x overflows its 6-byte buffer (%s)", where, m, fen);
    Move back = move_from_san(pos, san);
    FUZZ_CHECK(back == m, "%s: SAN '%s' of %04x parses back as %04x (%s)", where, san, m, back, fen);
    back = move_from_uci(pos, uci);
    FUZZ_CHECK(back == m, "%s: UCI '%s' of %04x parses back as %04x (%s)", where, uci, m, back, fen);
}

/* Any move a parser returns must be a legal move of pos (or MOVE_NONE). */
static inline void fuzz_check_parsed_move(const Position *pos, Move m, const char *what, const char *text) {
    if (m == MOVE_NONE) return;
    MoveList legal;
    char fen[128];
    gen_legal(pos, &legal);
    pos_get_fen(pos, fen);
    FUZZ_CHECK(movelist_contains(&legal, m), "%s('%s') returned illegal move %04x (%s)", what, text, m, fen);
}

#endif
