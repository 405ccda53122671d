/*
 * Hash keys: the incremental key and pawn key equal the from-scratch ones
 * along thousands of random game moves (with undo, null moves and Chess960
 * castling), and the key is the Polyglot book key: the published test
 * vectors of the Polyglot book format, and a key computed here from the
 * format's rules for every position visited.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "epd.h"
#include "fen.h"
#include "position.h"
#include "movegen.h"
#include "notation.h"
#include "position.h"
#include "test.h"
#include "zobrist.h"

static Position Pos, Copy;
static EpdSuite Suite;

/*
 * The Polyglot key by the book format's rules, from the board, the rights and
 * the square a pawn just skipped (SQ_NONE if the last move was no double push):
 * that square counts only if a pawn of the side to move stands beside the pawn.
 */
static Key polyglot_key(const Position *pos, Square skipped) {
    Key k = 0;
    for (Square s = A1; s <= H8; s++) {
        Piece p = pos->board[s];
        if (p == NO_PIECE) continue;
        int kind = 2 * (piece_type(p) - 1) + (piece_color(p) == WHITE ? 1 : 0);
        k ^= Random64[64 * kind + 8 * rank_of(s) + file_of(s)];
    }
    for (int i = 0; i < 4; i++)
        if (pos->st->castling & (1 << i)) k ^= Random64[768 + i];
    if (skipped != SQ_NONE) {
        Color us = pos->sideToMove;
        Square pawn = (Square)(skipped + (us == WHITE ? -8 : 8)); /* the pawn that just moved */
        Piece ours = make_piece(us, PAWN);
        bool beside = (file_of(pawn) > 0 && pos->board[pawn - 1] == ours) ||
                      (file_of(pawn) < 7 && pos->board[pawn + 1] == ours);
        if (beside) k ^= Random64[772 + file_of(skipped)];
    }
    if (pos->sideToMove == WHITE) k ^= Random64[780];
    return k;
}

/* The square skipped by m if it is a double pawn push (call before making m). */
static Square skipped_square(const Position *pos, Move m) {
    Square from = move_from(m), to = move_to(m);
    if (piece_type(pos->board[from]) == PAWN && move_kind(m) == MOVE_NORMAL && (from ^ to) == 16)
        return (Square)((from + to) / 2);
    return SQ_NONE;
}

/* The en-passant field of a FEN as a square (SQ_NONE for '-'). */
static Square fen_ep_square(const char *fen) {
    char board[100], side[4], cast[8], ep[8];
    if (sscanf(fen, "%99s %3s %7s %7s", board, side, cast, ep) != 4 || strcmp(ep, "-") == 0) return SQ_NONE;
    return square_from_text(ep);
}

/* The published Polyglot key vectors, by FEN and by playing the moves. */
static void check_polyglot_vectors(void) {
    static const struct {
        const char *fen, *move;
        Key key;
    } Vectors[] = {
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", NULL, 0x463b96181691fc9cULL},
        {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "e2e4", 0x823c9b50fd114196ULL},
        {"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", "d7d5", 0x0756b94461c50fb0ULL},
        {"rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", "e4e5", 0x662fafb965db29d4ULL},
        {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "f7f5", 0x22a48b5a8e47ff78ULL},
        {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3", "e1e2", 0x652a607ca3f242c1ULL},
        {"rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4", "e8f7", 0x00fdd303c946bdd9ULL},
        {"rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3", NULL, 0x3c8123ea7b067637ULL},
        {"rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4", NULL, 0x5c3f9b829b279560ULL},
    };
    static const char *const Line2[] = {"a2a4", "b7b5", "h2h4", "b5b4", "c2c4", "b4c3", "a1a3"};
    char err[256];
    for (size_t i = 0; i < sizeof Vectors / sizeof Vectors[0]; i++) {
        bool ok = pos_set_fen(&Copy, Vectors[i].fen, false, err, sizeof err);
        CHECK_EACH(ok && pos_key(&Copy) == Vectors[i].key,
                   "Polyglot key of %s: expected %016" PRIx64 ", got %016" PRIx64 " (FEN %s %s)", Vectors[i].fen,
                   Vectors[i].key, pos_key(&Copy), ok ? "read" : "refused:", ok ? "" : err);
    }
    /* The first line of moves, played incrementally. */
    pos_set_startpos(&Pos, false);
    for (size_t i = 1; i < 7; i++) {
        Move m = move_from_uci(&Pos, Vectors[i].move);
        if (m == MOVE_NONE) {
            CHECK(false, "move %s refused", Vectors[i].move);
            return;
        }
        pos_do_move(&Pos, m);
        CHECK_EACH(pos_key(&Pos) == Vectors[i].key, "after %s: key %016" PRIx64 ", expected %016" PRIx64,
                   Vectors[i].move, pos_key(&Pos), Vectors[i].key);
    }
    /* The second line: ep square c3 that black can use, then the capture and a lost right. */
    pos_set_startpos(&Pos, false);
    for (size_t i = 0; i < 7; i++) {
        Move m = move_from_uci(&Pos, Line2[i]);
        if (m == MOVE_NONE) {
            CHECK(false, "move %s refused", Line2[i]);
            return;
        }
        pos_do_move(&Pos, m);
        if (i == 4)
            CHECK(pos_key(&Pos) == 0x3c8123ea7b067637ULL, "after ... c2c4: key %016" PRIx64, pos_key(&Pos));
    }
    CHECK(pos_key(&Pos) == 0x5c3f9b829b279560ULL, "after ... a1a3: key %016" PRIx64, pos_key(&Pos));
    CHECK(pos_compute_key(&Pos) == pos_key(&Pos), "pos_compute_key differs after the second vector line");
    for (int i = 0; i < 7; i++) pos_undo_move(&Pos);
    CHECK(pos_key(&Pos) == 0x463b96181691fc9cULL, "after undoing the vector line: key %016" PRIx64, pos_key(&Pos));
}

/*
 * The properties of the random games, each one check over every position
 * every game visits (the message names the first failing position).
 */
typedef struct {
    Property key, pawnKey, nonPawnKey, polyglot, nullEp, nullUndo, undo, unwind;
} GameChecks;

/* The random games from the suites, and the long games of game moves. */
static GameChecks Games, LongGames;

static void check_game(GameChecks *g) {
    CHECK_PROPERTY(&g->key);
    CHECK_PROPERTY(&g->pawnKey);
    CHECK_PROPERTY(&g->nonPawnKey);
    CHECK_PROPERTY(&g->polyglot);
    CHECK_PROPERTY(&g->nullEp);
    CHECK_PROPERTY(&g->nullUndo);
    CHECK_PROPERTY(&g->undo);
    CHECK_PROPERTY(&g->unwind);
}

/* Every key invariant at the current position; skipped is the square of a just-made double push. */
static bool keys_ok(const Position *pos, Square skipped, const char *where, GameChecks *g) {
    char fen[128];
    bool key = pos_key(pos) == pos_compute_key(pos);
    bool pawnKey = pos->st->pawnKey == pos_compute_pawn_key(pos);
    bool nonPawnKey = pos->st->nonPawnKey[WHITE] == pos_compute_non_pawn_key(pos, WHITE)
                   && pos->st->nonPawnKey[BLACK] == pos_compute_non_pawn_key(pos, BLACK);
    bool polyglot = pos_key(pos) == polyglot_key(pos, skipped);
    EXPECT(&g->key, key, "%s: incremental key %016" PRIx64 " != computed %016" PRIx64 " at %s", where, pos_key(pos),
           pos_compute_key(pos), fen_of(pos, fen));
    EXPECT(&g->pawnKey, pawnKey, "%s: incremental pawn key != computed at %s", where, fen_of(pos, fen));
    EXPECT(&g->nonPawnKey, nonPawnKey, "%s: incremental non-pawn keys != computed at %s", where, fen_of(pos, fen));
    EXPECT(&g->polyglot, polyglot, "%s: key %016" PRIx64 " != Polyglot rule key %016" PRIx64 " at %s", where,
           pos_key(pos), polyglot_key(pos, skipped), fen_of(pos, fen));
    return key && pawnKey && nonPawnKey && polyglot;
}

typedef struct {
    int moves, nulls, undos, castles[4], enPassants, promotions;
} PlayoutStats;

/*
 * One random game from the current position. After each move the keys are
 * checked; now and then a null move is tried, or a few moves are taken back
 * and the earlier keys and FENs must come back exactly.
 */
static bool random_game(Position *pos, Square skippedAtStart, Rng *rng, int plies, PlayoutStats *stats,
                        GameChecks *g) {
    enum { HISTORY = 400 };
    static Key keys[HISTORY + 1], pawnKeys[HISTORY + 1];
    static char fens[HISTORY + 1][128];
    static Square skips[HISTORY + 1];
    int depth = 0;
    keys[0] = pos_key(pos);
    pawnKeys[0] = pos->st->pawnKey;
    pos_get_fen(pos, fens[0]);
    skips[0] = skippedAtStart;
    MoveList list;
    for (int ply = 0; ply < plies && depth < HISTORY; ply++) {
        gen_legal(pos, &list);
        if (list.count == 0) break;
        Move m = list.moves[rng_below(rng, (unsigned)list.count)];
        /* Favour castling and en passant, which random play seldom picks. */
        for (int i = 0; i < list.count; i++)
            if ((move_kind(list.moves[i]) == MOVE_CASTLING || move_kind(list.moves[i]) == MOVE_EN_PASSANT) &&
                rng_below(rng, 2))
                m = list.moves[i];
        if (move_kind(m) == MOVE_CASTLING) {
            bool kingside = move_to(m) > move_from(m);
            stats->castles[2 * pos->sideToMove + !kingside]++;
        }
        stats->enPassants += move_kind(m) == MOVE_EN_PASSANT;
        stats->promotions += move_kind(m) == MOVE_PROMOTION;
        Square skipped = skipped_square(pos, m);
        pos_do_move(pos, m);
        stats->moves++;
        depth++;
        keys[depth] = pos_key(pos);
        pawnKeys[depth] = pos->st->pawnKey;
        pos_get_fen(pos, fens[depth]);
        skips[depth] = skipped;
        if (!keys_ok(pos, skipped, "after a move", g)) return false;

        /* A null move (never in check), checked, then either undone or kept for one reply. */
        if (!pos_in_check(pos) && rng_below(rng, 8) == 0) {
            pos_do_null_move(pos);
            stats->nulls++;
            if (!keys_ok(pos, SQ_NONE, "after a null move", g)) return false;
            EXPECT(&g->nullEp, pos->st->epSquare == SQ_NONE, "null move left an ep square");
            if (rng_below(rng, 2)) {
                gen_legal(pos, &list);
                if (list.count) {
                    Move r = list.moves[rng_below(rng, (unsigned)list.count)];
                    Square sk = skipped_square(pos, r);
                    pos_do_move(pos, r);
                    if (!keys_ok(pos, sk, "after a move following a null move", g)) return false;
                    pos_undo_move(pos);
                }
            }
            pos_undo_null_move(pos);
            EXPECT(&g->nullUndo, pos_key(pos) == keys[depth], "undoing a null move changed the key");
        }

        /* Take back a few moves and check that the history comes back. */
        if (depth > 4 && rng_below(rng, 10) == 0) {
            int back = 1 + (int)rng_below(rng, 4);
            for (int i = 0; i < back; i++) {
                pos_undo_move(pos);
                depth--;
                stats->undos++;
                char fen[128];
                pos_get_fen(pos, fen);
                bool restored = pos_key(pos) == keys[depth] && pos->st->pawnKey == pawnKeys[depth] &&
                                strcmp(fen, fens[depth]) == 0;
                EXPECT(&g->undo, restored, "undo: expected %s (%016" PRIx64 "), got %s (%016" PRIx64 ")",
                       fens[depth], keys[depth], fen, pos_key(pos));
                if (!restored || !keys_ok(pos, skips[depth], "after undo", g)) return false;
            }
        }
    }
    /* Unwind the whole game: back to the start, key and FEN. */
    while (depth > 0) {
        pos_undo_move(pos);
        depth--;
    }
    char fen[128];
    pos_get_fen(pos, fen);
    EXPECT(&g->unwind, pos_key(pos) == keys[0] && strcmp(fen, fens[0]) == 0, "unwinding a game gives %s, expected %s",
           fen, fens[0]);
    return true;
}

/* Random games from each position of a suite. */
static void playouts(const char *file, bool chess960, int gamesPerPosition, int plies, uint64_t seed) {
    CHECK(epd_load(file, &Suite), "cannot load %s", file);
    Rng rng = {seed};
    PlayoutStats stats = {0};
    char err[256];
    for (int i = 0; i < Suite.size; i++) {
        for (int g = 0; g < gamesPerPosition; g++) {
            bool ok = pos_set_fen(&Pos, Suite.entries[i].fen, chess960, err, sizeof err);
            CHECK_EACH(ok, "FEN refused: %s (%s)", Suite.entries[i].fen, err);
            if (!ok) break;
            Square skipped = fen_ep_square(Suite.entries[i].fen);
            bool good = keys_ok(&Pos, skipped, "after pos_set_fen", &Games) &&
                        random_game(&Pos, skipped, &rng, plies, &stats, &Games);
            if (!good) {
                fprintf(stderr, "  (random game from %s, %s line %d)\n", Suite.entries[i].fen, file,
                        Suite.entries[i].line);
                return;
            }
        }
    }
    printf("%s: %d moves, %d null moves, %d undos, castling %d/%d/%d/%d, %d ep, %d promotions\n", file, stats.moves,
           stats.nulls, stats.undos, stats.castles[0], stats.castles[1], stats.castles[2], stats.castles[3],
           stats.enPassants, stats.promotions);
    CHECK(stats.moves >= 1000, "%s: only %d random moves checked", file, stats.moves);
    if (chess960)
        for (int i = 0; i < 4; i++) CHECK_EACH(stats.castles[i] > 0, "%s: castling kind %d never played", file, i);
}

/* Long games of game moves: history trimming must keep keys right and never overflow. */
static void long_game(void) {
    char err[256];
    static const char *const Fens[] = {"4k3/8/8/8/8/8/8/4K2R w K - 0 1", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
                                       "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"};
    Rng rng = {77};
    int plies = test_quick() ? 1500 : 4000;
    for (size_t f = 0; f < sizeof Fens / sizeof Fens[0]; f++) {
        pos_set_fen(&Pos, Fens[f], false, err, sizeof err);
        MoveList list;
        int played = 0;
        for (int ply = 0; ply < plies; ply++) {
            gen_legal(&Pos, &list);
            if (list.count == 0) break;
            /* Prefer quiet king and piece moves so the game stays long and reversible. */
            Move m = list.moves[rng_below(&rng, (unsigned)list.count)];
            for (int t = 0; t < 4 && pos_is_capture(&Pos, m); t++) m = list.moves[rng_below(&rng, (unsigned)list.count)];
            Square skipped = skipped_square(&Pos, m);
            pos_do_game_move(&Pos, m);
            played++;
            if (!keys_ok(&Pos, skipped, "long game", &LongGames)) break;
            (void)pos_is_repetition(&Pos, 0);
            (void)pos_is_threefold(&Pos);
        }
        CHECK_EACH(played > 1000 || list.count == 0, "long game from %s ended after %d plies", Fens[f], played);
    }
    CHECK_PROPERTY(&LongGames.key);
    CHECK_PROPERTY(&LongGames.pawnKey);
    CHECK_PROPERTY(&LongGames.nonPawnKey);
    CHECK_PROPERTY(&LongGames.polyglot);
    /* A repetition in a game is found: Ng1-f3-g1 twice each side. */
    pos_set_startpos(&Pos, false);
    static const char *const Shuffle[] = {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"};
    for (int i = 0; i < 8; i++) {
        Move m = move_from_uci(&Pos, Shuffle[i]);
        if (m == MOVE_NONE) break;
        pos_do_game_move(&Pos, m);
        if (i == 3) CHECK(pos_key(&Pos) == 0x463b96181691fc9cULL, "after Nf3 Nf6 Ng1 Ng8 the key is not the start key");
    }
    CHECK(pos_is_threefold(&Pos), "start position reached three times is not a threefold repetition");
}

/* pos_copy carries the whole history; pos_key_after predicts plain moves. */
static void copy_and_key_after(void) {
    char err[256];
    pos_set_fen(&Pos, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false, err, sizeof err);
    Rng rng = {4242};
    int played = random_walk(&Pos, &rng, 20);
    pos_copy(&Copy, &Pos);
    CHECK(pos_key(&Copy) == pos_key(&Pos) && Copy.st != Pos.st, "pos_copy: key differs or state pointer shared");
    for (int i = 0; i < played; i++) pos_undo_move(&Copy);
    char fen[128];
    pos_get_fen(&Copy, fen);
    CHECK(strcmp(fen, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1") == 0,
          "undoing a copy's history gives %s", fen);

    /* pos_key_after is exact for moves that change neither rights nor ep square. */
    int checked = 0;
    Property predicts = {0};
    for (int g = 0; g < (test_quick() ? 10 : 60); g++) {
        pos_set_startpos(&Pos, false);
        random_walk(&Pos, &rng, (int)rng_below(&rng, 60));
        MoveList list;
        gen_legal(&Pos, &list);
        for (int i = 0; i < list.count; i++) {
            Move m = list.moves[i];
            if (move_kind(m) != MOVE_NORMAL || Pos.st->epSquare != SQ_NONE) continue;
            int rights = Pos.st->castling;
            Key predicted = pos_key_after(&Pos, m);
            pos_do_move(&Pos, m);
            bool plain = Pos.st->castling == rights && Pos.st->epSquare == SQ_NONE;
            if (plain) {
                EXPECT(&predicts, predicted == pos_key(&Pos), "pos_key_after mispredicts %d at %s", m, fen_of(&Pos, fen));
                checked++;
            }
            pos_undo_move(&Pos);
        }
    }
    CHECK_PROPERTY(&predicts);
    CHECK(checked > 100, "pos_key_after checked on only %d moves", checked);
}

int main(void) {
    board_init();
    bool quick = test_quick();
    check_polyglot_vectors();
    playouts("perft_classic.epd", false, quick ? 4 : 40, 200, 1);
    playouts("perft_tricky.epd", false, quick ? 1 : 10, 120, 2);
    playouts("chess960.epd", true, quick ? 1 : 6, 160, 3);
    check_game(&Games);
    long_game();
    copy_and_key_after();
    return test_report();
}
