/*
 * Fuzz target: FEN parsing and everything an accepted position must satisfy.
 *
 * Input: FEN text, optionally followed by a NUL and "walk" bytes that pick
 * moves of a random game played from the position. The text is parsed both
 * as standard chess and as Chess960.
 *
 * Rejected FEN: an error message, and the previous position left untouched.
 * Accepted FEN: keys match a from-scratch computation, the FEN prints and
 * reparses to the same position, the side not to move is not in check, the
 * generators agree (perft 2 via gen_legal equals perft 2 via gen_noisy +
 * gen_quiets, and equals perft()), pos_is_legal agrees with gen_legal on
 * every move code from the mover's pieces (and on codes taken from the walk
 * bytes), a random walk and its undo keep all of this, each root move keeps the
 * incremental key right and its SAN and UCI texts parse back to it.
 */
#include "fuzz_common.h"
#include "fen.h"

#include "eval.h"

enum { FEN_TEXT_MAX = 4096, WALK_PLIES_MAX = 300, NULL_MOVE_BYTE = 0xFF };

/* Positions that a rejected FEN must leave as they were. */
static const char *const PriorFens[] = {
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
};

static Position *Pos, *Scratch, *Before;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    engine_init();
    Pos = fuzz_new_position();
    Scratch = fuzz_new_position();
    Before = fuzz_new_position();
    return 0;
}

/* A rejected FEN leaves a message and the position as it was. */
static void check_rejected(const char *text, const char *err, size_t errSize) {
    char fen[128], was[128];
    FUZZ_CHECK(strnlen(err, errSize) < errSize, "rejected FEN '%.60s': error message not NUL-terminated", text);
    FUZZ_CHECK(err[0] != '\0', "rejected FEN '%.60s' without an error message", text);
    pos_get_fen(Pos, fen);
    pos_get_fen(Before, was);
    FUZZ_CHECK(strcmp(fen, was) == 0 && fuzz_same_position(Pos, Before) && Pos->chess960 == Before->chess960,
               "rejected FEN '%.60s' changed the position from '%s' to '%s'", text, was, fen);
    FUZZ_CHECK(Pos->st - Pos->states == Before->st - Before->states, "rejected FEN '%.60s' moved the state stack", text);
}

/* pos_is_legal agrees with gen_legal on every code whose from-square holds a piece of the mover. */
static void check_is_legal_sweep(const Position *pos, const MoveList *legal, const uint8_t *bytes, size_t n) {
    char fen[128];
    pos_get_fen(pos, fen);
    Bitboard ours = pos_pieces_c(pos, pos_side_to_move(pos));
    while (ours) {
        Square from = pop_lsb(&ours);
        for (int to = 0; to < SQUARE_NB; to++)
            for (int high = 0; high < 16; high++) {
                Move m = (Move)(from | (to << 6) | (high << 12));
                FUZZ_CHECK(pos_is_legal(pos, m) == movelist_contains(legal, m),
                           "pos_is_legal(%04x) = %d but gen_legal says %d (%s)", m, pos_is_legal(pos, m),
                           movelist_contains(legal, m), fen);
            }
    }
    /* Codes straight from the input reach the other from-squares too. */
    for (size_t i = 0; i + 1 < n; i += 2) {
        Move m = (Move)(bytes[i] | (bytes[i + 1] << 8));
        FUZZ_CHECK(pos_is_legal(pos, m) == movelist_contains(legal, m), "pos_is_legal(%04x) disagrees with gen_legal (%s)",
                   m, fen);
    }
}

/* Every root move: notation round trip, do/undo, keys and generators one ply down; perft 2 three ways. */
static void check_children(Position *pos, const MoveList *legal) {
    char fen[128], after[128];
    pos_get_fen(pos, fen);
    Key key = pos_key(pos);
    uint64_t perft2 = 0;
    for (int i = 0; i < legal->count; i++) {
        Move m = legal->moves[i];
        fuzz_check_notation(pos, m, "root move");
        bool givesCheck = pos_gives_check(pos, m);
        (void)pos_see_ge(pos, m, 0);
        (void)pos_see_ge(pos, m, -100);
        (void)pos_key_after(pos, m);
        pos_do_move(pos, m);
        fuzz_check_state(pos, "after a root move");
        FUZZ_CHECK(givesCheck == pos_in_check(pos), "pos_gives_check(%04x) = %d but the move %s check (%s)", m,
                   givesCheck, pos_in_check(pos) ? "gives" : "does not give", fen);
        MoveList replies;
        fuzz_check_generators(pos, &replies, "after a root move");
        perft2 += (uint64_t)replies.count;
        fuzz_check_fen_roundtrip(pos, Scratch, "after a root move");
        pos_undo_move(pos);
        pos_get_fen(pos, after);
        FUZZ_CHECK(pos_key(pos) == key && strcmp(fen, after) == 0, "undo of %04x gives '%s' instead of '%s'", m, after, fen);
    }
    uint64_t counted = perft(pos, 2);
    FUZZ_CHECK(counted == perft2, "perft 2 = %llu but the generators give %llu (%s)", (unsigned long long)counted,
               (unsigned long long)perft2, fen);
}

/* Plays the game that the walk bytes choose (0xFF: a null move when allowed), checking each position, then undoes it. */
static void walk(Position *pos, const uint8_t *bytes, size_t n) {
    char fen[128], after[128];
    pos_get_fen(pos, fen);
    Key key = pos_key(pos);
    bool isNull[WALK_PLIES_MAX];
    int plies = 0;
    for (size_t i = 0; i < n && plies < WALK_PLIES_MAX; i++) {
        MoveList legal;
        fuzz_check_generators(pos, &legal, "walk");
        if (bytes[i] == NULL_MOVE_BYTE && !pos_in_check(pos)) {
            pos_do_null_move(pos);
            isNull[plies++] = true;
        } else {
            if (legal.count == 0) break;
            pos_do_move(pos, legal.moves[bytes[i] % legal.count]);
            isNull[plies++] = false;
        }
        fuzz_check_state(pos, "walk");
        (void)pos_is_repetition(pos, plies);
        (void)pos_is_threefold(pos);
        (void)pos_insufficient_material(pos);
        Value v = eval_evaluate(pos, NULL);
        FUZZ_CHECK(v > -VALUE_MATE_IN_MAX_PLY && v < VALUE_MATE_IN_MAX_PLY, "eval %d out of range", v);
    }
    while (plies > 0) {
        if (isNull[--plies])
            pos_undo_null_move(pos);
        else
            pos_undo_move(pos);
    }
    pos_get_fen(pos, after);
    FUZZ_CHECK(pos_key(pos) == key && strcmp(fen, after) == 0, "walk undone gives '%s' instead of '%s'", after, fen);
}

/* Everything an accepted position must satisfy. */
static void check_accepted(Position *pos, bool chess960, bool sweep, const uint8_t *rest, size_t restSize) {
    FUZZ_CHECK(pos->chess960 == chess960, "pos_set_fen ignored the chess960 flag");
    fuzz_check_state(pos, "accepted FEN");
    fuzz_check_fen_roundtrip(pos, Scratch, "accepted FEN");
    Value v = eval_evaluate(pos, NULL);
    FUZZ_CHECK(v > -VALUE_MATE_IN_MAX_PLY && v < VALUE_MATE_IN_MAX_PLY, "eval %d out of range", v);
    MoveList legal;
    fuzz_check_generators(pos, &legal, "accepted FEN");
    if (sweep) check_is_legal_sweep(pos, &legal, rest, restSize);
    check_children(pos, &legal);
    walk(pos, rest, restSize);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static unsigned calls;
    char *text = fuzz_strndup(data, size, FEN_TEXT_MAX);
    size_t used = strlen(text) + 1;
    const uint8_t *rest = used < size ? data + used : NULL;
    size_t restSize = used < size ? size - used : 0;
    bool swept = false;
    for (int chess960 = 0; chess960 <= 1; chess960++) {
        const char *prior = PriorFens[calls++ % (sizeof PriorFens / sizeof PriorFens[0])];
        if (!pos_set_fen(Pos, prior, chess960, NULL, 0)) abort();
        pos_copy(Before, Pos);
        char err[256];
        memset(err, 'X', sizeof err);
        if (!pos_set_fen(Pos, text, chess960, err, sizeof err))
            check_rejected(text, err, sizeof err);
        else {
            /* The sweep is the costly part: once per input is enough. */
            check_accepted(Pos, chess960, !swept, rest, restSize);
            swept = true;
        }
    }
    free(text);
    return 0;
}
