/*
 * Fuzz target: SAN (and UCI move) parsing of arbitrary text.
 *
 * The input text (up to its first NUL) is parsed in a few fixed positions
 * chosen for their ambiguities, promotions, en passant and castling, one of
 * them Chess960, and in a position reached from the start by a walk that
 * the input's first bytes choose. Whatever move_from_san / move_from_uci
 * return must be MOVE_NONE or a legal move, and a returned move's SAN must
 * parse back to it. The text is also read as a sequence of blank-separated
 * moves, each played when legal, so parsing reaches positions deep in a game.
 */
#include "fuzz_common.h"
#include "fen.h"

enum { SAN_TEXT_MAX = 1024, WALK_BYTES = 12, SEQUENCE_PLIES_MAX = 200 };

typedef struct {
    const char *fen;
    bool chess960;
} FixedPosition;

static const FixedPosition Fixed[] = {
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},
    {"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", false},
    {"7k/8/2Q1Q3/3N1N2/2Q1Q3/3N1N2/8/K7 w - - 0 1", false},
    {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", false},
    {"1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", true},
    {"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", false},
};
enum { FIXED_COUNT = sizeof Fixed / sizeof Fixed[0] };

static Position *Fixed_[FIXED_COUNT], *Work;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    engine_init();
    for (int i = 0; i < FIXED_COUNT; i++) {
        Fixed_[i] = fuzz_new_position();
        char err[256];
        if (!pos_set_fen(Fixed_[i], Fixed[i].fen, Fixed[i].chess960, err, sizeof err)) {
            fprintf(stderr, "fuzz_san: bad fixed FEN %s: %s\n", Fixed[i].fen, err);
            abort();
        }
    }
    Work = fuzz_new_position();
    return 0;
}

/* Parses text as one move every way we can; any move returned must be legal. */
static void check_text(Position *pos, const char *text) {
    Move m = move_from_san(pos, text);
    fuzz_check_parsed_move(pos, m, "move_from_san", text);
    if (m != MOVE_NONE) fuzz_check_notation(pos, m, "move parsed from SAN");
    Move u = move_from_uci(pos, text);
    fuzz_check_parsed_move(pos, u, "move_from_uci", text);
    if (u != MOVE_NONE) fuzz_check_notation(pos, u, "move parsed from UCI");
    Square s = square_from_text(text);
    FUZZ_CHECK(s == SQ_NONE || square_is_ok(s), "square_from_text('%s') = %d", text, s);
}

/* Reads text as blank-separated moves from pos, playing each legal one, then takes them all back. */
static void check_sequence(Position *pos, char *text) {
    char before[128], after[128];
    pos_get_fen(pos, before);
    int plies = 0;
    for (char *tok = strtok(text, " \t\r\n\v\f"); tok && plies < SEQUENCE_PLIES_MAX; tok = strtok(NULL, " \t\r\n\v\f")) {
        check_text(pos, tok);
        Move m = move_from_san(pos, tok);
        if (m == MOVE_NONE) continue;
        pos_do_move(pos, m);
        plies++;
        fuzz_check_state(pos, "after a parsed SAN move");
    }
    while (plies-- > 0) pos_undo_move(pos);
    pos_get_fen(pos, after);
    FUZZ_CHECK(strcmp(before, after) == 0, "sequence undone gives '%s' instead of '%s'", after, before);
}

/* One position: the whole text, then the text as a move sequence. */
static void check_position(Position *pos, const char *text) {
    check_text(pos, text);
    char *copy = strdup(text);
    if (!copy) abort();
    check_sequence(pos, copy);
    free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = fuzz_strndup(data, size, SAN_TEXT_MAX);
    for (int i = 0; i < FIXED_COUNT; i++) {
        pos_copy(Work, Fixed_[i]);
        check_position(Work, text);
    }
    /* A position the input itself picks: a walk from the start chosen by its first bytes. */
    pos_set_startpos(Work, false);
    for (size_t i = 0; i < size && i < WALK_BYTES; i++) {
        MoveList legal;
        gen_legal(Work, &legal);
        if (legal.count == 0) break;
        pos_do_game_move(Work, legal.moves[data[i] % legal.count]);
    }
    check_position(Work, text);
    free(text);
    return 0;
}
