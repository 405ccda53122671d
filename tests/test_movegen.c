/*
 * Generator consistency on many positions (the perft suites and random games
 * from them): noisy + quiets = legal (disjoint), evasions = legal in check,
 * count_legal = the list size, pos_is_legal agrees with the list on every
 * 16-bit value, gives_check agrees with making the move, checkers and pin
 * blockers agree with a from-scratch computation, and perft 2 through the
 * split generators equals perft(2).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "epd.h"
#include "fen.h"
#include "move_checks.h"
#include "position.h"
#include "movegen.h"
#include "notation.h"
#include "perft.h"
#include "position.h"
#include "test.h"

static Position Pos;
static EpdSuite Suite;
static long Positions, Exhaustive, MovesSeen;
/* The properties tests/move_checks.h checks, over every position. */
static Property GivesCheck, IsLegalExact;

static bool list_has_duplicates(const MoveList *list) {
    for (int i = 0; i < list->count; i++)
        for (int j = i + 1; j < list->count; j++)
            if (list->moves[i] == list->moves[j]) return true;
    return false;
}

/* Is a move well formed for this position (right piece, right kind)? */
static bool well_formed(const Position *pos, Move m) {
    Color us = pos->sideToMove;
    Square from = move_from(m), to = move_to(m);
    Piece p = pos->board[from];
    if (p == NO_PIECE || piece_color(p) != us || from == to) return false;
    switch (move_kind(m)) {
    case MOVE_CASTLING:
        return piece_type(p) == KING && pos->board[to] == make_piece(us, ROOK);
    case MOVE_EN_PASSANT:
        return piece_type(p) == PAWN && to == pos->st->epSquare && pos->board[to] == NO_PIECE;
    case MOVE_PROMOTION:
        return piece_type(p) == PAWN && relative_rank(us, from) == RANK_7;
    default:
        if ((m >> 12) & 3) return false; /* promotion bits on a plain move */
        if (pos->board[to] != NO_PIECE && piece_color(pos->board[to]) == us) return false;
        return piece_type(p) != PAWN || (relative_rank(us, from) != RANK_7);
    }
}

/*
 * Pieces shielding the side to move's king from enemy sliders, computed from
 * scratch. As in Stockfish, the enemy sliders themselves are not counted as
 * shields (a checking rook in front of another rook is not a blocker).
 */
static Bitboard blockers_from_scratch(const Position *pos) {
    Color us = pos->sideToMove, them = color_flip(us);
    Square ksq = pos_king_square(pos, us);
    Bitboard snipers = (rook_attacks(ksq, 0) & pos_pieces_cpt2(pos, them, ROOK, QUEEN)) |
                       (bishop_attacks(ksq, 0) & pos_pieces_cpt2(pos, them, BISHOP, QUEEN));
    Bitboard occ = pos_pieces(pos) & ~snipers;
    Bitboard blockers = 0;
    while (snipers) {
        Square s = pop_lsb(&snipers);
        Bitboard between = BetweenBB[ksq][s] & occ & ~square_bb(s);
        if (between && !more_than_one(between)) blockers |= between;
    }
    return blockers;
}

/* Everything the generators promise, at one position. */
static void check_position(Position *pos, bool exhaustive) {
    char fen[128], after[128];
    pos_get_fen(pos, fen);
    Key key = pos_key(pos);
    MoveList legal, noisy, quiets, evasions;
    gen_legal(pos, &legal);
    gen_noisy(pos, &noisy);
    gen_quiets(pos, &quiets);
    Positions++;
    MovesSeen += legal.count;

    CHECK_EACH(count_legal(pos) == legal.count, "count_legal %d != gen_legal %d at %s", count_legal(pos), legal.count,
               fen);
    CHECK_EACH(!list_has_duplicates(&legal), "gen_legal has duplicates at %s", fen);
    CHECK_EACH(!list_has_duplicates(&noisy), "gen_noisy has duplicates at %s", fen);
    CHECK_EACH(!list_has_duplicates(&quiets), "gen_quiets has duplicates at %s", fen);
    CHECK_EACH(noisy.count + quiets.count == legal.count, "noisy %d + quiets %d != legal %d at %s", noisy.count,
               quiets.count, legal.count, fen);
    for (int i = 0; i < noisy.count; i++) {
        char u[8];
        move_to_uci(noisy.moves[i], pos->chess960, u);
        CHECK_EACH(movelist_contains(&legal, noisy.moves[i]), "noisy move %s not in gen_legal at %s", u, fen);
        CHECK_EACH(!movelist_contains(&quiets, noisy.moves[i]), "move %s both noisy and quiet at %s", u, fen);
        CHECK_EACH(pos_is_capture_or_promotion(pos, noisy.moves[i]), "noisy move %s is no capture/promotion at %s", u,
                   fen);
    }
    for (int i = 0; i < quiets.count; i++) {
        char u[8];
        move_to_uci(quiets.moves[i], pos->chess960, u);
        CHECK_EACH(movelist_contains(&legal, quiets.moves[i]), "quiet move %s not in gen_legal at %s", u, fen);
        CHECK_EACH(!pos_is_capture_or_promotion(pos, quiets.moves[i]), "quiet move %s is a capture/promotion at %s", u,
                   fen);
    }
    if (pos_in_check(pos)) {
        gen_evasions(pos, &evasions);
        bool same = evasions.count == legal.count && !list_has_duplicates(&evasions);
        for (int i = 0; same && i < evasions.count; i++) same = movelist_contains(&legal, evasions.moves[i]);
        CHECK_EACH(same, "gen_evasions (%d moves) != gen_legal (%d) at %s", evasions.count, legal.count, fen);
    }

    /* Checkers and blockers from scratch. */
    Color us = pos->sideToMove;
    Square ksq = pos_king_square(pos, us);
    Bitboard checkers = pos_attackers_to(pos, ksq, pos_pieces(pos)) & pos_pieces_c(pos, color_flip(us));
    CHECK_EACH(pos_checkers(pos) == checkers, "checkers %016" PRIx64 " != computed %016" PRIx64 " at %s",
               pos_checkers(pos), checkers, fen);
    CHECK_EACH(pos->st->blockers == blockers_from_scratch(pos),
               "blockers %016" PRIx64 " != computed %016" PRIx64 " at %s", pos->st->blockers,
               blockers_from_scratch(pos), fen);

    /* Each move: well formed, pos_is_legal, do/undo restores everything; gives_check (tests/move_checks.h). */
    for (int i = 0; i < legal.count; i++) {
        Move m = legal.moves[i];
        char u[8];
        move_to_uci(m, pos->chess960, u);
        CHECK_EACH(well_formed(pos, m), "malformed move %s (%d) at %s", u, m, fen);
        CHECK_EACH(pos_is_legal(pos, m), "pos_is_legal refuses generated move %s at %s", u, fen);
        pos_do_move(pos, m);
        pos_undo_move(pos);
        pos_get_fen(pos, after);
        CHECK_EACH(strcmp(fen, after) == 0 && key == pos_key(pos), "do/undo %s at %s gives %s", u, fen, after);
    }
    expect_gives_check(pos, &legal, &GivesCheck);

    /* pos_is_legal agrees with the list on all 65536 values. */
    if (exhaustive) {
        Exhaustive++;
        expect_is_legal_exact(pos, &legal, &IsLegalExact);
    }
}

/* perft 2 through gen_noisy + gen_quiets equals perft(2). */
static void check_split_perft2(Position *pos) {
    MoveList noisy, quiets, n2, q2;
    gen_noisy(pos, &noisy);
    gen_quiets(pos, &quiets);
    uint64_t total = 0;
    for (int part = 0; part < 2; part++) {
        const MoveList *list = part ? &quiets : &noisy;
        for (int i = 0; i < list->count; i++) {
            pos_do_move(pos, list->moves[i]);
            gen_noisy(pos, &n2);
            gen_quiets(pos, &q2);
            total += (uint64_t)(n2.count + q2.count);
            pos_undo_move(pos);
        }
    }
    char fen[128];
    CHECK_EACH(total == perft(pos, 2), "perft 2 by noisy+quiets %" PRIu64 " != perft(2) %" PRIu64 " at %s", total,
               perft(pos, 2), fen_of(pos, fen));
}

/* Every suite position and positions from random games starting there. */
static void run_suite(const char *file, bool chess960, int walks, uint64_t seed) {
    CHECK(epd_load(file, &Suite), "cannot load %s", file);
    Rng rng = {seed};
    char err[256];
    for (int i = 0; i < Suite.size; i++) {
        for (int w = 0; w <= walks; w++) {
            if (!pos_set_fen(&Pos, Suite.entries[i].fen, chess960, err, sizeof err)) {
                CHECK(false, "FEN refused: %s (%s)", Suite.entries[i].fen, err);
                break;
            }
            int plies = w == 0 ? 0 : 1 + (int)rng_below(&rng, 40);
            for (int p = 0; p <= plies; p++) {
                check_position(&Pos, (p == plies && rng_below(&rng, 4) == 0) || (w == 0 && p == 0));
                if (p == plies) check_split_perft2(&Pos);
                MoveList list;
                gen_legal(&Pos, &list);
                if (list.count == 0) break;
                pos_do_move(&Pos, list.moves[rng_below(&rng, (unsigned)list.count)]);
            }
        }
    }
}

static int compare_text(const void *a, const void *b) {
    return strcmp((const char *)a, (const char *)b);
}

/* The legal moves in UCI notation, sorted and joined by spaces. */
static void sorted_uci_moves(const Position *pos, const MoveList *list, char *out, size_t size) {
    char names[MAX_MOVES][8];
    for (int i = 0; i < list->count; i++) move_to_uci(list->moves[i], pos->chess960, names[i]);
    qsort(names, (size_t)list->count, sizeof names[0], compare_text);
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < list->count && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s%s", i ? " " : "", names[i]);
}

/*
 * Hand-checked move lists (oracle: the rules, verified with Stockfish's
 * `go perft 1`). Regression for a missed evasion: a pawn standing behind the
 * checking slider on the pin line takes the checker.
 */
static void check_known_move_list(const char *fen, bool chess960, const char *expected) {
    char err[256] = "", listed[1024] = "";
    if (!pos_set_fen(&Pos, fen, chess960, err, sizeof err)) {
        CHECK(false, "FEN refused: %s (%s)", fen, err);
        return;
    }
    MoveList list;
    gen_legal(&Pos, &list);
    sorted_uci_moves(&Pos, &list, listed, sizeof listed);
    CHECK(strcmp(listed, expected) == 0, "legal moves of %s: got '%s', expected '%s'", fen, listed, expected);
}

int main(void) {
    board_init();
    check_known_move_list("6rQ/6p1/5B2/4k3/8/8/8/4K3 b - - 0 1", false, "e5d5 e5d6 e5e4 e5e6 e5f4 e5f5 e5f6 g7f6");
    /* A Chess960 perft suite's position after c1g5 e5d4 h5h8 d6e5 g5f6, the same shape. */
    check_known_move_list("rbbqn1rQ/pppp1pp1/5B2/4k3/2PpP3/8/PP3PPP/RB2NKRN b GA - 2 11", true,
                          "d8f6 e5d6 e5e6 e5f4 e5f6 e8f6 g7f6");
    bool quick = test_quick();
    run_suite("perft_classic.epd", false, quick ? 3 : 30, 21);
    run_suite("perft_tricky.epd", false, quick ? 2 : 15, 22);
    run_suite("chess960.epd", true, quick ? 1 : 6, 23);
    /* Null moves keep the generators consistent too. */
    pos_set_startpos(&Pos, false);
    pos_do_null_move(&Pos);
    check_position(&Pos, true);
    pos_undo_null_move(&Pos);
    CHECK_PROPERTY(&GivesCheck);
    CHECK_PROPERTY(&IsLegalExact);
    printf("%ld positions (%ld exhaustive pos_is_legal scans), %ld moves\n", Positions, Exhaustive, MovesSeen);
    return test_report();
}
