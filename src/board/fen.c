/*
 * FEN in and out: Forsyth-Edwards Notation, with X-FEN and Shredder-FEN
 * castling for Chess960. Parsing validates everything a game could not
 * reach in one field (kings, pawns on the back ranks, castling rooks, en
 * passant, material) and names the fault.
 */
#include "fen.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bitboard.h"

const char *const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

const char PieceChars[] = " PNBRQK  pnbrqk";

/* ---------------------------------------------------------------- FEN in */

typedef struct {
    char *msg;
    size_t len;
} ErrorSink;

static bool fail(ErrorSink *err, const char *fmt, ...) {
    if (err->msg && err->len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, err->len, fmt, ap);
        va_end(ap);
    }
    return false;
}

/*
 * At most 8 pawns and 16 pieces a side, as in any game. Besides rejecting
 * impossible boards this keeps the number of legal moves within MAX_MOVES
 * (a board of 20 queens would overflow every move list).
 */
static bool material_is_possible(const Position *pos, ErrorSink *err) {
    for (Color c = WHITE; c <= BLACK; c++) {
        const char *name = c == WHITE ? "white" : "black";
        int pawns = popcount(pos_pieces_cpt(pos, c, PAWN)), pieces = popcount(pos_pieces_c(pos, c));
        if (pawns > 8) return fail(err, "%s has %d pawns, at most 8 are possible", name, pawns);
        if (pieces > 16) return fail(err, "%s has %d pieces, at most 16 are possible", name, pieces);
    }
    return true;
}

static bool parse_board(Position *pos, const char *field, ErrorSink *err) {
    int rank = 7, file = 0;
    for (const char *p = field; *p; p++) {
        char c = *p;
        if (c == '/') {
            if (file != 8) return fail(err, "rank %d has %d squares, expected 8", rank + 1, file);
            if (--rank < 0) return fail(err, "too many ranks in the board field");
            file = 0;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
            if (file > 8) return fail(err, "rank %d has more than 8 squares", rank + 1);
        } else {
            const char *q = c ? strchr(PieceChars, c) : NULL;
            if (!q || c == ' ') return fail(err, "invalid character '%c' in the board field", c);
            if (file >= 8) return fail(err, "rank %d has more than 8 squares", rank + 1);
            pos_put_piece(pos, (Piece)(q - PieceChars), make_square(file, rank));
            file++;
        }
    }
    if (rank != 0) return fail(err, "board field has %d ranks, expected 8", 8 - rank);
    if (file != 8) return fail(err, "rank 1 has %d squares, expected 8", file);

    for (Color c = WHITE; c <= BLACK; c++) {
        int kings = popcount(pos_pieces_cpt(pos, c, KING));
        if (kings != 1)
            return fail(err, "%s has %d kings, expected exactly 1", c == WHITE ? "white" : "black", kings);
    }
    if (pos_pieces_pt(pos, PAWN) & (RANK_1_BB | RANK_8_BB))
        return fail(err, "pawn on the first or last rank");
    return material_is_possible(pos, err);
}

/* Finds the outermost rook of c on the given wing of its back rank (X-FEN K/Q). */
static Square outermost_rook(const Position *pos, Color c, bool kingSide) {
    Square ksq = pos_king_square(pos, c);
    Bitboard rooks = pos_pieces_cpt(pos, c, ROOK) & rank_bb_of(ksq);
    Bitboard wing = kingSide ? rooks & ~(square_bb(ksq) * 2 - 1) : rooks & (square_bb(ksq) - 1);
    if (!wing) return SQ_NONE;
    return kingSide ? msb(wing) : lsb(wing);
}

static bool parse_castling(Position *pos, const char *field, ErrorSink *err) {
    if (strcmp(field, "-") == 0) return true;
    for (const char *p = field; *p; p++) {
        char c = *p;
        Color color = isupper((unsigned char)c) ? WHITE : BLACK;
        char lower = (char)tolower((unsigned char)c);
        Square ksq = pos_king_square(pos, color);
        Square rook;
        if (!strchr("kqabcdefgh", lower) || !isalpha((unsigned char)c))
            return fail(err, "invalid castling character '%c'", c);
        if (relative_rank(color, ksq) != RANK_1)
            return fail(err, "castling right '%c' but the %s king is not on its first rank", c,
                        color == WHITE ? "white" : "black");
        if (lower == 'k' || lower == 'q') {
            rook = outermost_rook(pos, color, lower == 'k');
            if (rook == SQ_NONE)
                return fail(err, "castling right '%c' but no rook on that side of the king", c);
        } else {
            rook = make_square(lower - 'a', rank_of(ksq));
            if (pos->board[rook] != make_piece(color, ROOK))
                return fail(err, "castling right '%c' but no %s rook on %c%d", c,
                            color == WHITE ? "white" : "black", lower, rank_of(ksq) + 1);
        }
        int right = (color == WHITE ? WHITE_OO : BLACK_OO) << (rook > ksq ? 0 : 1);
        if (pos->st->castling & right) return fail(err, "castling right '%c' given twice", c);
        pos_add_castling_right(pos, color, rook);
    }
    return true;
}

/* Accepts an ep square only where a double push just happened; records it only if capturable. */
static bool parse_en_passant(Position *pos, const char *field, ErrorSink *err) {
    if (strcmp(field, "-") == 0) return true;
    Color us = pos->sideToMove, them = color_flip(us);
    if (strlen(field) != 2 || field[0] < 'a' || field[0] > 'h' || field[1] < '1' || field[1] > '8')
        return fail(err, "invalid en-passant square '%s'", field);
    Square ep = make_square(field[0] - 'a', field[1] - '1');
    if (relative_rank(us, ep) != RANK_6)
        return fail(err, "en-passant square %s is on the wrong rank for %s to move", field,
                    us == WHITE ? "white" : "black");
    Square pushed = (Square)(ep - pawn_push(us)), origin = (Square)(ep + pawn_push(us));
    if (pos->board[pushed] != make_piece(them, PAWN))
        return fail(err, "en-passant square %s but no pawn that just made a double step", field);
    if (pos->board[ep] != NO_PIECE || pos->board[origin] != NO_PIECE)
        return fail(err, "en-passant square %s but the pawn's path is occupied", field);
    if (pawn_attacks(them, ep) & pos_pieces_cpt(pos, us, PAWN)) pos->st->epSquare = ep;
    return true;
}

static bool parse_counter(const char *field, int min, int max, int *out) {
    char *end;
    long v = strtol(field, &end, 10);
    if (*field == '\0' || *end != '\0' || v < min || v > max) return false;
    *out = (int)v;
    return true;
}

/* Splits a FEN into at most 7 whitespace-separated fields (7 = too many); thread-safe (strtok_r). */
static int split_fields(const char *fen, char *buf, size_t bufLen, char *fields[7]) {
    size_t len = strlen(fen);
    if (len >= bufLen) return -1;
    memcpy(buf, fen, len + 1);
    int n = 0;
    char *save = NULL; /* strtok_r: FENs are parsed on several threads at once */
    for (char *tok = strtok_r(buf, " \t\r\n", &save); tok && n < 7; tok = strtok_r(NULL, " \t\r\n", &save))
        fields[n++] = tok;
    return n;
}

static bool parse_fen(Position *pos, const char *fen, bool chess960, ErrorSink *err) {
    char buf[256];
    char *field[7];
    int n = split_fields(fen, buf, sizeof buf, field);
    if (n < 0) return fail(err, "FEN is too long");
    if (n < 4 || n > 6) return fail(err, "FEN has %d%s field%s, expected 4 to 6", n, n == 7 ? " or more" : "", n == 1 ? "" : "s");

    pos_clear(pos, chess960);

    if (!parse_board(pos, field[0], err)) return false;
    if (strcmp(field[1], "w") && strcmp(field[1], "b"))
        return fail(err, "side to move must be 'w' or 'b', got '%s'", field[1]);
    pos->sideToMove = field[1][0] == 'w' ? WHITE : BLACK;
    if (!parse_castling(pos, field[2], err)) return false;
    if (!parse_en_passant(pos, field[3], err)) return false;

    int rule50 = 0, moveNumber = 1;
    if (n >= 5 && !parse_counter(field[4], 0, 10000, &rule50))
        return fail(err, "invalid halfmove clock '%s'", field[4]);
    if (n >= 6 && !parse_counter(field[5], 0, 100000, &moveNumber))
        return fail(err, "invalid fullmove number '%s'", field[5]);
    pos->st->rule50 = rule50;
    pos->gamePly = 2 * ((moveNumber > 0 ? moveNumber : 1) - 1) + (pos->sideToMove == BLACK);

    Color them = color_flip(pos->sideToMove);
    if (pos_attackers_to(pos, pos_king_square(pos, them), pos_pieces(pos)) & pos->byColor[pos->sideToMove])
        return fail(err, "the side not to move (%s) is in check", them == WHITE ? "white" : "black");

    pos_finish_setup(pos);
    return true;
}

bool pos_set_fen(Position *pos, const char *fen, bool chess960, char *err, size_t errlen) {
    ErrorSink sink = {err, errlen};
    if (!fen) return fail(&sink, "no FEN given");
    /* Parse into scratch space so a rejected FEN leaves pos untouched. */
    Position *scratch = malloc(sizeof *scratch);
    if (!scratch) return fail(&sink, "out of memory");
    bool ok = parse_fen(scratch, fen, chess960, &sink);
    if (ok) pos_copy(pos, scratch);
    free(scratch);
    return ok;
}

/* ---------------------------------------------------------------- EPD */

static bool epd_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* The next blank-separated word of *p (up to a ';'), copied to word; false at the end. */
static bool epd_word(const char **p, char *word, size_t size) {
    const char *s = *p;
    while (epd_blank(*s)) s++;
    size_t n = 0;
    while (*s && !epd_blank(*s) && *s != ';') {
        if (n + 1 < size) word[n++] = *s;
        s++;
    }
    word[n] = '\0';
    *p = s;
    return n > 0;
}

static bool epd_is_count(const char *w) {
    if (!*w || strlen(w) > 6) return false;
    for (; *w; w++)
        if (!isdigit((unsigned char)*w)) return false;
    return true;
}

/* The number after opcode name ("hmvc 3;") in the operations, if it is a move count. */
static bool epd_opcode(const char *ops, const char *name, char *value, size_t size) {
    size_t len = strlen(name);
    for (const char *s = strstr(ops, name); s; s = strstr(s + 1, name)) {
        if ((s > ops && !epd_blank(s[-1]) && s[-1] != ';') || !epd_blank(s[len])) continue;
        const char *q = s + len;
        if (epd_word(&q, value, size) && epd_is_count(value)) return true;
    }
    return false;
}

bool fen_from_epd(const char *line, char *out, size_t outlen) {
    char fields[4][96], a[16], b[16], half[16] = "0", full[16] = "1";
    const char *p = line;
    for (int i = 0; i < 4; i++)
        if (!epd_word(&p, fields[i], sizeof fields[i])) return false;
    const char *ops = p, *q = p;
    if (epd_opcode(ops, "hmvc", a, sizeof a)) strcpy(half, a);
    if (epd_opcode(ops, "fmvn", b, sizeof b)) strcpy(full, b);
    if (epd_word(&q, a, sizeof a) && epd_is_count(a) && epd_word(&q, b, sizeof b) && epd_is_count(b)) {
        strcpy(half, a);
        strcpy(full, b);
    }
    int n = snprintf(out, outlen, "%s %s %s %s %s %s", fields[0], fields[1], fields[2], fields[3], half, full);
    return n > 0 && (size_t)n < outlen;
}

void pos_set_startpos(Position *pos, bool chess960) {
    pos_set_fen(pos, StartFEN, chess960, NULL, 0);
}

/* ---------------------------------------------------------------- FEN out */

/*
 * Castling letters: KQkq for the outermost rooks (X-FEN), the rook's file
 * letter otherwise, so that parsing the printout gives the same rook back
 * (in standard chess too: a FEN may give a right to an inner rook).
 */
static char *write_castling(const Position *pos, char *p) {
    static const int Rights[4] = {WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO};
    static const char Standard[4] = {'K', 'Q', 'k', 'q'};
    char *start = p;
    for (int i = 0; i < 4; i++) {
        if (!(pos->st->castling & Rights[i])) continue;
        Color c = i < 2 ? WHITE : BLACK;
        Square rook = pos->castlingRookSquare[i];
        bool outermost = rook == outermost_rook(pos, c, i % 2 == 0);
        if (outermost)
            *p++ = Standard[i];
        else
            *p++ = (char)((c == WHITE ? 'A' : 'a') + file_of(rook));
    }
    if (p == start) *p++ = '-';
    return p;
}

void pos_get_fen(const Position *pos, char *out) {
    char *p = out;
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            Piece pc = pos->board[make_square(file, rank)];
            if (pc == NO_PIECE) {
                empty++;
                continue;
            }
            if (empty) *p++ = (char)('0' + empty), empty = 0;
            *p++ = PieceChars[pc];
        }
        if (empty) *p++ = (char)('0' + empty);
        if (rank) *p++ = '/';
    }
    *p++ = ' ';
    *p++ = pos->sideToMove == WHITE ? 'w' : 'b';
    *p++ = ' ';
    p = write_castling(pos, p);
    *p++ = ' ';
    if (pos->st->epSquare == SQ_NONE) {
        *p++ = '-';
    } else {
        *p++ = (char)('a' + file_of(pos->st->epSquare));
        *p++ = (char)('1' + rank_of(pos->st->epSquare));
    }
    sprintf(p, " %d %d", pos->st->rule50, 1 + pos->gamePly / 2);
}

void fen_placement(const char board[64], char *out) {
    char *p = out;
    for (int r = 7; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < 8; f++) {
            char c = board[r * 8 + f];
            if (!c) {
                empty++;
                continue;
            }
            if (empty) *p++ = (char)('0' + empty);
            empty = 0;
            *p++ = c;
        }
        if (empty) *p++ = (char)('0' + empty);
        if (r) *p++ = '/';
    }
    *p = '\0';
}

/* The `d` board: the position drawn, then its FEN, key and checkers. */
void pos_print(const Position *pos, FILE *out) {
    char fen[128];
    fputs("\n +---+---+---+---+---+---+---+---+\n", out);
    for (int rank = 7; rank >= 0; rank--) {
        for (int file = 0; file < 8; file++)
            fprintf(out, " | %c", PieceChars[pos->board[make_square(file, rank)]]);
        fprintf(out, " | %d\n +---+---+---+---+---+---+---+---+\n", rank + 1);
    }
    fputs("   a   b   c   d   e   f   g   h\n\n", out);
    pos_get_fen(pos, fen);
    fprintf(out, "Fen: %s\nKey: %016llX\nCheckers:", fen, (unsigned long long)pos->st->key);
    for (Bitboard b = pos->st->checkers; b;) {
        Square s = pop_lsb(&b);
        fprintf(out, " %c%d", 'a' + file_of(s), rank_of(s) + 1);
    }
    fputc('\n', out);
}
