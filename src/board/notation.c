#include "notation.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "movegen.h"

static const char PromotionChars[] = "nbrq";
static const char PieceLetters[] = " PNBRQK";

void square_to_text(Square s, char *out) {
    out[0] = (char)('a' + file_of(s));
    out[1] = (char)('1' + rank_of(s));
    out[2] = '\0';
}

Square square_from_text(const char *text) {
    if (!text || text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8') return SQ_NONE;
    return make_square(text[0] - 'a', text[1] - '1');
}

/*
 * Standard chess writes castling as the king's two-square move; Chess960 as
 * king takes rook. The two-square form is used only for the classical set-up
 * (king on e, rook on a or h): elsewhere it could spell a plain king step.
 */
static Square uci_destination(Move m, bool chess960) {
    Square from = move_from(m), to = move_to(m);
    bool classical = file_of(from) == FILE_E && (file_of(to) == FILE_A || file_of(to) == FILE_H);
    if (move_kind(m) != MOVE_CASTLING || chess960 || !classical) return to;
    return make_square(to > from ? FILE_G : FILE_C, rank_of(from));
}

void move_to_uci(Move m, bool chess960, char *out) {
    if (!move_is_ok(m)) {
        strcpy(out, "0000");
        return;
    }
    square_to_text(move_from(m), out);
    square_to_text(uci_destination(m, chess960), out + 2);
    out[4] = move_kind(m) == MOVE_PROMOTION ? PromotionChars[move_promotion(m) - KNIGHT] : '\0';
    out[5] = '\0';
}

/* Finds the legal move whose UCI text (in the given castling style) equals text. */
static Move find_uci(const MoveList *list, const char *text, bool chess960, bool castlingOnly) {
    char buf[6];
    for (int i = 0; i < list->count; i++) {
        Move m = list->moves[i];
        if (castlingOnly && move_kind(m) != MOVE_CASTLING) continue;
        move_to_uci(m, chess960, buf);
        if (strcmp(buf, text) == 0) return m;
    }
    return MOVE_NONE;
}

Move move_from_uci(const Position *pos, const char *text) {
    size_t len = text ? strlen(text) : 0;
    if (len < 4 || len > 5) return MOVE_NONE;
    char lowered[6];
    for (size_t i = 0; i <= len; i++) lowered[i] = (char)tolower((unsigned char)text[i]);
    MoveList list;
    gen_legal(pos, &list);
    Move m = find_uci(&list, lowered, pos->chess960, false);
    /* In standard chess "e1h1" can only mean castling, so accept it too. */
    if (m == MOVE_NONE && !pos->chess960) m = find_uci(&list, lowered, true, true);
    return m;
}

/* ---------------------------------------------------------------- SAN out */

/* File, rank or both of the origin, when another piece of the same kind could also go to "to". */
static char *write_disambiguation(const Position *pos, Move m, char *p) {
    Square from = move_from(m), to = move_to(m);
    Piece pc = pos->board[from];
    MoveList list;
    gen_legal(pos, &list);
    bool ambiguous = false, sameFile = false, sameRank = false;
    for (int i = 0; i < list.count; i++) {
        Move other = list.moves[i];
        Square s = move_from(other);
        if (other == m || s == from || move_to(other) != to || pos->board[s] != pc || move_kind(other) == MOVE_CASTLING)
            continue;
        ambiguous = true;
        sameFile |= file_of(s) == file_of(from);
        sameRank |= rank_of(s) == rank_of(from);
    }
    if (!ambiguous) return p;
    if (!sameFile) {
        *p++ = (char)('a' + file_of(from));
    } else if (!sameRank) {
        *p++ = (char)('1' + rank_of(from));
    } else {
        *p++ = (char)('a' + file_of(from));
        *p++ = (char)('1' + rank_of(from));
    }
    return p;
}

void move_to_san(Position *pos, Move m, char *out) {
    char *p = out;
    Square from = move_from(m), to = move_to(m);
    PieceType pt = piece_type(pos->board[from]);

    if (move_kind(m) == MOVE_CASTLING) {
        strcpy(p, to > from ? "O-O" : "O-O-O");
        p += strlen(p);
    } else {
        bool capture = pos_is_capture(pos, m);
        if (pt == PAWN) {
            if (capture) *p++ = (char)('a' + file_of(from));
        } else {
            *p++ = PieceLetters[pt];
            p = write_disambiguation(pos, m, p);
        }
        if (capture) *p++ = 'x';
        square_to_text(to, p);
        p += 2;
        if (move_kind(m) == MOVE_PROMOTION) {
            *p++ = '=';
            *p++ = PieceLetters[move_promotion(m)];
        }
    }
    pos_do_move(pos, m);
    if (pos_in_check(pos)) *p++ = count_legal(pos) ? '+' : '#';
    pos_undo_move(pos);
    *p = '\0';
}

/* ---------------------------------------------------------------- SAN in */

typedef struct {
    PieceType piece;
    int fromFile, fromRank; /* -1 when not given */
    Square to;
    PieceType promotion;    /* NO_PIECE_TYPE when not given */
    int castling;           /* 0, or 1 for O-O, 2 for O-O-O */
} SanParts;

/* Copies text without decorations (check marks, annotations, "e.p.") into buf. */
static bool strip_decorations(const char *text, char *buf, size_t size) {
    size_t n = 0;
    for (const char *p = text; *p; p++) {
        if (strchr("+#!?", *p)) continue;
        if (n + 1 >= size) return false;
        buf[n++] = *p;
    }
    buf[n] = '\0';
    if (n >= 4 && strcmp(buf + n - 4, "e.p.") == 0) buf[n -= 4] = '\0';
    while (n && buf[n - 1] == ' ') buf[--n] = '\0';
    return n > 0;
}

static bool parse_castling_san(const char *s, SanParts *san) {
    if (!strcmp(s, "O-O") || !strcmp(s, "0-0") || !strcmp(s, "o-o")) san->castling = 1;
    else if (!strcmp(s, "O-O-O") || !strcmp(s, "0-0-0") || !strcmp(s, "o-o-o")) san->castling = 2;
    return san->castling != 0;
}

/* Parses "[Piece][file][rank][x|-|:]square[=][Promotion]". */
static bool parse_san_parts(const char *s, SanParts *san) {
    size_t n = strlen(s);
    san->piece = PAWN;
    san->fromFile = san->fromRank = -1;
    san->promotion = NO_PIECE_TYPE;
    san->to = SQ_NONE;
    san->castling = 0;
    if (parse_castling_san(s, san)) return true;

    const char *promo = strchr(PieceLetters + 2, n ? s[n - 1] : ' ');
    if (n >= 3 && s[n - 1] != ' ' && promo && s[n - 1] != 'K') {
        san->promotion = (PieceType)(promo - PieceLetters);
        n -= s[n - 2] == '=' ? 2 : 1;
    }
    if (n < 2) return false;
    san->to = square_from_text(s + n - 2);
    if (san->to == SQ_NONE) return false;

    size_t i = 0;
    const char *piece = s[0] ? strchr(PieceLetters + 1, s[0]) : NULL;
    if (piece && s[0] != ' ') san->piece = (PieceType)(piece - PieceLetters), i = 1;
    for (; i < n - 2; i++) {
        char c = s[i];
        if (c >= 'a' && c <= 'h') san->fromFile = c - 'a';
        else if (c >= '1' && c <= '8') san->fromRank = c - '1';
        else if (c != 'x' && c != '-' && c != ':') return false;
    }
    return true;
}

static bool san_matches(const Position *pos, Move m, const SanParts *san) {
    Square from = move_from(m);
    if (san->castling) return move_kind(m) == MOVE_CASTLING && (san->castling == 1) == (move_to(m) > from);
    if (move_kind(m) == MOVE_CASTLING) return false;
    if (piece_type(pos->board[from]) != san->piece || move_to(m) != san->to) return false;
    if (san->fromFile >= 0 && file_of(from) != san->fromFile) return false;
    if (san->fromRank >= 0 && rank_of(from) != san->fromRank) return false;
    PieceType promotion = move_kind(m) == MOVE_PROMOTION ? move_promotion(m) : NO_PIECE_TYPE;
    return promotion == san->promotion;
}

Move move_from_san(const Position *pos, const char *text) {
    char buf[32];
    SanParts san;
    if (!text || !strip_decorations(text, buf, sizeof buf)) return MOVE_NONE;
    if (!parse_san_parts(buf, &san)) return move_from_uci(pos, buf);

    MoveList list;
    gen_legal(pos, &list);
    Move found = MOVE_NONE;
    for (int i = 0; i < list.count; i++) {
        if (!san_matches(pos, list.moves[i], &san)) continue;
        if (found != MOVE_NONE) return MOVE_NONE; /* ambiguous */
        found = list.moves[i];
    }
    return found != MOVE_NONE ? found : move_from_uci(pos, buf);
}

/* A tablebase win is shown as this many centipawns less its distance in plies. */
enum { UCI_TB_WIN_CP = 20000 };

void value_to_uci(Value v, char *out) {
    if (v >= VALUE_MATE_IN_MAX_PLY)
        sprintf(out, "mate %d", (VALUE_MATE - v + 1) / 2);
    else if (v <= VALUE_MATED_IN_MAX_PLY)
        sprintf(out, "mate %d", -(VALUE_MATE + v) / 2);
    else if (v >= VALUE_TB_WIN_IN_MAX_PLY)
        sprintf(out, "cp %d", UCI_TB_WIN_CP - (VALUE_TB_WIN - v));
    else if (v <= -VALUE_TB_WIN_IN_MAX_PLY)
        sprintf(out, "cp %d", -UCI_TB_WIN_CP + (VALUE_TB_WIN + v));
    else
        sprintf(out, "cp %d", v);
}
