/*
 * PGN reading: a character layer (file, stream or buffer, with line
 * numbers and one character of push-back), a blank/comment skipper, and a
 * game parser that plays the main line's SAN moves on a Position.
 */
#include "pgn.h"
#include "fen.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "notation.h"

enum { NO_CHAR = -2 };
/* Longest movetext word kept; SAN with annotations is far shorter. */
enum { WORD_SIZE = 64 };
enum { PGN_NAME_SIZE = 256 };
/* DOS end-of-file mark, found at the end of old PGN files. */
enum { CHAR_CTRL_Z = 26 };

struct PgnReader {
    FILE *file;
    bool ownsFile;
    const unsigned char *text;
    size_t length, offset;
    char name[PGN_NAME_SIZE];
    int line, column;         /* where the next character comes from */
    int charLine, charColumn; /* where the last character read came from */
    int pushed;               /* a character given back, or NO_CHAR */
    int gameNumber;
    int commentTarget;        /* main-line move the next {} comment belongs to, or -1 */
    Position *pos;
};

/* A reader over no input yet; NULL when out of memory. */
static PgnReader *reader_new(const char *name) {
    PgnReader *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->pos = malloc(sizeof *r->pos);
    if (!r->pos) {
        free(r);
        return NULL;
    }
    snprintf(r->name, sizeof r->name, "%s", name ? name : "(pgn)");
    r->line = 1;
    r->pushed = NO_CHAR;
    r->commentTarget = -1;
    return r;
}

/* A reader that owns the opened file. */
PgnReader *pgn_open(const char *path, char *err, size_t errlen) {
    FILE *f = file_open_read(path, NULL, err, errlen);
    if (!f) return NULL;
    PgnReader *r = reader_new(path);
    if (!r) {
        fclose(f);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    r->file = f;
    r->ownsFile = true;
    return r;
}

/* A reader over the caller's stream. */
PgnReader *pgn_open_stream(FILE *file, const char *name) {
    PgnReader *r = reader_new(name);
    if (r) r->file = file;
    return r;
}

/* A reader over the caller's text. */
PgnReader *pgn_open_buffer(const char *text, size_t length, const char *name) {
    PgnReader *r = reader_new(name);
    if (r) {
        r->text = (const unsigned char *)text;
        r->length = length;
    }
    return r;
}

/* Releases the reader (and its file, if it opened one). */
void pgn_close(PgnReader *reader) {
    if (!reader) return;
    if (reader->ownsFile) fclose(reader->file);
    free(reader->pos);
    free(reader);
}

/* The input name used in messages. */
const char *pgn_name(const PgnReader *reader) {
    return reader->name;
}

/* Releases a game's move and comment buffers. */
void pgn_game_free(PgnGame *game) {
    free(game->moves);
    free(game->commentAt);
    free(game->commentText);
    game->moves = NULL;
    game->commentAt = NULL;
    game->commentText = NULL;
    game->moveCount = game->moveCapacity = 0;
    game->commentLength = game->commentCapacity = 0;
}

/* Next input character (0-255) or EOF, keeping line and column up to date. */
static int read_char(PgnReader *r) {
    int c;
    if (r->pushed != NO_CHAR) {
        c = r->pushed;
        r->pushed = NO_CHAR;
    } else if (r->file) {
        c = getc(r->file);
    } else {
        c = r->offset < r->length ? r->text[r->offset++] : EOF;
    }
    r->charLine = r->line;
    r->charColumn = r->column;
    if (c == '\n') {
        r->line++;
        r->column = 0;
    } else if (c != EOF) {
        r->column++;
    }
    return c;
}

/* Gives back the character just read. */
static void unread_char(PgnReader *r, int c) {
    r->pushed = c;
    r->line = r->charLine;
    r->column = r->charColumn;
}

/* Records the first fault of a game; later ones are consequences and are not reported. */
static void game_fail(PgnReader *r, PgnGame *g, int line, const char *fmt, ...) {
    if (g->error[0]) return;
    char msg[PGN_ERROR_SIZE / 2];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(g->error, sizeof g->error, "%.200s:%d: game %d: %s", r->name, line, g->number, msg);
}

/* Consumes characters up to and including the end of the line. */
static void skip_line(PgnReader *r) {
    int c;
    do
        c = read_char(r);
    while (c != '\n' && c != EOF);
}

/* Is c blank: white space, ^Z, or a byte of a UTF-8 byte-order mark at the file start? */
static bool is_blank(const PgnReader *r, int c) {
    if (isspace(c) || c == CHAR_CTRL_Z) return true;
    return r->charLine == 1 && r->charColumn < 3 && (c == 0xEF || c == 0xBB || c == 0xBF);
}

/* Keeps text (NUL-terminated) as the comment of move ply; false when out of memory. */
static bool game_store_comment(PgnGame *g, int ply, const char *text) {
    size_t len = strlen(text) + 1;
    if (g->commentLength + len > g->commentCapacity) {
        size_t capacity = g->commentCapacity ? g->commentCapacity * 2 : 4096;
        while (capacity < g->commentLength + len) capacity *= 2;
        char *grown = realloc(g->commentText, capacity);
        if (!grown) return false;
        g->commentText = grown;
        g->commentCapacity = capacity;
    }
    memcpy(g->commentText + g->commentLength, text, len);
    g->commentAt[ply] = (int)g->commentLength;
    g->commentLength += len;
    return true;
}

/*
 * Reads a {} comment after its '{'. When it follows a main-line move that
 * has no comment yet, its text is kept for that move (blanks trimmed, line
 * breaks as spaces, truncated to PGN_COMMENT_SIZE - 1 bytes).
 */
static int read_comment(PgnReader *r, PgnGame *g) {
    char text[PGN_COMMENT_SIZE];
    size_t n = 0;
    bool keep = r->commentTarget >= 0 && r->commentTarget < g->moveCount && g->commentAt[r->commentTarget] < 0;
    int c;
    while ((c = read_char(r)) != '}' && c != EOF) {
        if (!keep) continue;
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
        if ((c == ' ' && (n == 0 || text[n - 1] == ' ')) || n + 1 >= sizeof text) continue;
        text[n++] = (char)c;
    }
    if (c == EOF || !keep) return c;
    while (n > 0 && text[n - 1] == ' ') n--;
    text[n] = '\0';
    if (!game_store_comment(g, r->commentTarget, text)) game_fail(r, g, r->charLine, "out of memory");
    return c;
}

/* Skips blanks, comments and escape lines; returns (without consuming) the next character. */
static int skip_blanks(PgnReader *r, PgnGame *g) {
    for (;;) {
        int c = read_char(r);
        if (c == EOF) return EOF;
        if (is_blank(r, c)) continue;
        if (c == ';' || (c == '%' && r->charColumn == 0)) {
            skip_line(r);
            continue;
        }
        if (c == '{') {
            int start = r->charLine;
            if (read_comment(r, g) == EOF) {
                game_fail(r, g, start, "comment '{' opened here is never closed");
                return EOF;
            }
            continue;
        }
        unread_char(r, c);
        return c;
    }
}

/* Reads one tag after its '['; a malformed tag fails the game and skips the rest of the line. */
static void read_tag(PgnReader *r, PgnGame *g) {
    int line = r->charLine;
    char name[PGN_TAG_NAME_SIZE], value[PGN_TAG_VALUE_SIZE];
    size_t n = 0, v = 0;
    int c;
    do
        c = read_char(r);
    while (c == ' ' || c == '\t');
    while (c != EOF && (isalnum(c) || c == '_')) {
        if (n + 1 < sizeof name) name[n++] = (char)c;
        c = read_char(r);
    }
    name[n] = '\0';
    while (c == ' ' || c == '\t')
        c = read_char(r);
    if (n == 0 || c != '"') {
        game_fail(r, g, line, "malformed tag (expected [Name \"value\"])");
        if (c != '\n') skip_line(r);
        return;
    }
    for (;;) {
        c = read_char(r);
        if (c == '\\') {
            int next = read_char(r);
            if (next != '"' && next != '\\') { /* not an escape: keep both characters */
                if (v + 1 < sizeof value) value[v++] = '\\';
                unread_char(r, next);
                continue;
            }
            c = next;
        } else if (c == '"' || c == '\n' || c == EOF) {
            break;
        }
        if (v + 1 < sizeof value) value[v++] = (char)c;
    }
    value[v] = '\0';
    if (c != '"') {
        game_fail(r, g, line, "tag %s: value is not closed by '\"' on its line", name);
        return;
    }
    do
        c = read_char(r);
    while (c == ' ' || c == '\t');
    if (c != ']') {
        game_fail(r, g, line, "tag %s: missing ']'", name);
        if (c != '\n' && c != EOF) skip_line(r);
        return;
    }
    if (g->tagCount < PGN_MAX_TAGS) {
        PgnTag *t = &g->tags[g->tagCount++];
        snprintf(t->name, sizeof t->name, "%s", name);
        snprintf(t->value, sizeof t->value, "%s", value);
    }
}

/* Linear search: games have few tags. */
const char *pgn_tag(const PgnGame *game, const char *name) {
    for (int i = 0; i < game->tagCount; i++)
        if (strcmp(game->tags[i].name, name) == 0) return game->tags[i].value;
    return NULL;
}

/* The PGN spelling of a result. */
const char *pgn_result_text(PgnResult result) {
    switch (result) {
    case PGN_WHITE_WINS: return "1-0";
    case PGN_BLACK_WINS: return "0-1";
    case PGN_DRAW: return "1/2-1/2";
    default: return "*";
    }
}

/* The result a word stands for; false when it is no result (accepts "1/2" and "½-½" too). */
static bool parse_result(const char *w, PgnResult *result) {
    if (strcmp(w, "1-0") == 0) *result = PGN_WHITE_WINS;
    else if (strcmp(w, "0-1") == 0) *result = PGN_BLACK_WINS;
    else if (strcmp(w, "1/2-1/2") == 0 || strcmp(w, "1/2") == 0 || strcmp(w, "\xC2\xBD-\xC2\xBD") == 0)
        *result = PGN_DRAW;
    else if (strcmp(w, "*") == 0) *result = PGN_RESULT_UNKNOWN;
    else return false;
    return true;
}

/* Is every character of w in set (and w not empty)? */
static bool only_chars(const char *w, const char *set) {
    if (!*w) return false;
    for (; *w; w++)
        if (!strchr(set, *w)) return false;
    return true;
}

/* Does the Variant tag name Chess960? */
static bool variant_is_chess960(const char *variant) {
    char lower[PGN_TAG_VALUE_SIZE];
    size_t i = 0;
    for (; variant[i] && i + 1 < sizeof lower; i++)
        lower[i] = (char)tolower((unsigned char)variant[i]);
    lower[i] = '\0';
    return strstr(lower, "960") || strstr(lower, "fischer") || strstr(lower, "frc");
}

/* Sets the reader's position to the game's start (FEN tag honoured) and records it in the game. */
static void setup_start(PgnReader *r, PgnGame *g) {
    const char *fen = pgn_tag(g, "FEN");
    const char *setup = pgn_tag(g, "SetUp");
    const char *variant = pgn_tag(g, "Variant");
    g->chess960 = variant && variant_is_chess960(variant);
    if (!fen || (setup && strcmp(setup, "0") == 0)) fen = StartFEN;
    snprintf(g->fen, sizeof g->fen, "%s", fen);
    char err[PGN_ERROR_SIZE];
    if (!pos_set_fen(r->pos, g->fen, g->chess960, err, sizeof err)) {
        game_fail(r, g, g->line, "bad FEN tag: %s", err);
        pos_set_startpos(r->pos, false);
    }
}

/* Appends a move (without a comment yet) to the game's main line; false when out of memory. */
static bool game_append(PgnGame *g, Move m) {
    if (g->moveCount == g->moveCapacity) {
        int capacity = g->moveCapacity ? g->moveCapacity * 2 : 256;
        Move *grown = realloc(g->moves, (size_t)capacity * sizeof *grown);
        if (!grown) return false;
        g->moves = grown;
        int *comments = realloc(g->commentAt, (size_t)capacity * sizeof *comments);
        if (!comments) return false;
        g->commentAt = comments;
        g->moveCapacity = capacity;
    }
    g->commentAt[g->moveCount] = -1;
    g->moves[g->moveCount++] = m;
    return true;
}

const char *pgn_move_comment(const PgnGame *game, int ply) {
    if (ply < 0 || ply >= game->moveCount || game->commentAt[ply] < 0) return NULL;
    return game->commentText + game->commentAt[ply];
}

/* Plays one main-line SAN word (annotations allowed), or fails the game. */
static void play_san(PgnReader *r, PgnGame *g, const char *word, int line) {
    char san[WORD_SIZE];
    snprintf(san, sizeof san, "%s", word);
    size_t len = strlen(san);
    if (len > 4 && strcmp(san + len - 4, "e.p.") == 0) san[len -= 4] = '\0';
    while (len > 0 && strchr("!?+#", san[len - 1]))
        san[--len] = '\0';
    int moveNumber = r->pos->gamePly / 2 + 1;
    const char *dots = pos_side_to_move(r->pos) == WHITE ? "." : "...";
    Move m = len ? move_from_san(r->pos, san) : MOVE_NONE;
    if (m == MOVE_NONE) {
        game_fail(r, g, line, "illegal or ambiguous move '%s' at %d%s", word, moveNumber, dots);
        return;
    }
    if (!game_append(g, m)) {
        game_fail(r, g, line, "out of memory");
        return;
    }
    pos_do_game_move(r->pos, m);
}

/*
 * Reads one movetext word (the caller has seen its first character).
 * Returns false when the word is longer than any real token.
 */
static bool read_word(PgnReader *r, char *word) {
    size_t n = 0;
    bool fits = true;
    int c = read_char(r);
    /* c != 0: strchr would find the terminator, making NUL a delimiter that is never consumed. */
    while (c != EOF && !isspace(c) && !(c && strchr("{}()[];$\"*", c))) {
        if (n + 1 < WORD_SIZE)
            word[n++] = (char)c;
        else
            fits = false;
        c = read_char(r);
    }
    word[n] = '\0';
    if (c != EOF) unread_char(r, c);
    return fits;
}

/*
 * Handles one movetext word at variation depth. Returns true when the word
 * ends the game (a result at depth 0) and stores that result.
 */
static bool movetext_word(PgnReader *r, PgnGame *g, const char *word, int depth, int line, PgnResult *termination) {
    const char *w = word;
    if (isdigit((unsigned char)*w)) {
        const char *p = w;
        while (isdigit((unsigned char)*p))
            p++;
        if (*p == '.') { /* move number: "12." "12..." or glued "12.Nf3" */
            while (*p == '.')
                p++;
            w = p;
        } else if (*p == '\0') { /* a move number written without dots */
            return false;
        }
    }
    if (!*w || only_chars(w, ".")) return false;
    PgnResult result;
    if (parse_result(w, &result)) {
        if (depth > 0) return false; /* a result inside a variation ends only the variation's text */
        *termination = result;
        return true;
    }
    bool nullMove = strcmp(w, "--") == 0 || strcmp(w, "Z0") == 0 || strcmp(w, "0000") == 0;
    if (!nullMove && only_chars(w, "!?+-=/~")) return false; /* evaluation glyphs such as "+-" or "!?" */
    if (strcmp(w, "e.p.") == 0 || strcmp(w, "ep") == 0) return false;
    if (depth > 0 || g->error[0]) return false; /* variations are skipped; a failed game is only scanned */
    if (nullMove)
        game_fail(r, g, line, "null move '%s' is not supported", w);
    else
        play_san(r, g, w, line);
    return false;
}

/* Clears a game for reuse, keeping its move buffer. */
static void game_reset(PgnGame *g) {
    g->tagCount = 0;
    g->fen[0] = '\0';
    g->chess960 = false;
    g->moveCount = 0;
    g->commentLength = 0;
    g->result = PGN_RESULT_UNKNOWN;
    g->number = 0;
    g->line = 0;
    g->error[0] = '\0';
}

/* Tags, start position, then movetext up to a result, the next tags or the end. */
PgnStatus pgn_next_game(PgnReader *r, PgnGame *g) {
    game_reset(g);
    r->commentTarget = -1;
    g->number = r->gameNumber + 1;
    int c = skip_blanks(r, g);
    if (c == EOF && !g->error[0]) return PGN_EOF;
    r->gameNumber++;
    g->line = r->line;
    if (c == EOF) return PGN_BAD_GAME; /* an unclosed comment swallowed the rest of the input */

    while ((c = skip_blanks(r, g)) == '[') {
        read_char(r);
        read_tag(r, g);
    }
    setup_start(r, g);

    PgnResult termination = PGN_RESULT_UNKNOWN;
    int depth = 0, depthLine = 0;
    bool ended = false;
    while (!ended) {
        /* A comment right after a main-line move (or its NAGs) is that move's. */
        r->commentTarget = depth == 0 && !g->error[0] ? g->moveCount - 1 : -1;
        c = skip_blanks(r, g);
        if (c == EOF || c == '[') break; /* end of input, or the next game's tags after a missing result */
        c = read_char(r);
        int line = r->charLine;
        if (c == '(') {
            if (depth++ == 0) depthLine = line;
        } else if (c == ')') {
            if (depth == 0)
                game_fail(r, g, line, "')' without a matching '('");
            else
                depth--;
        } else if (c == '$') {
            int digits = 0;
            while (isdigit(c = read_char(r)))
                digits++;
            if (c != EOF) unread_char(r, c);
            if (digits == 0) game_fail(r, g, line, "'$' not followed by a NAG number");
        } else if (c == '*') {
            if (depth == 0) ended = true;
        } else if (c == '"' || c == ']' || c == '}') {
            game_fail(r, g, line, "unexpected '%c' in the moves", c);
        } else {
            char word[WORD_SIZE];
            unread_char(r, c);
            if (!read_word(r, word))
                game_fail(r, g, line, "text '%.20s...' is too long to be a move", word);
            else
                ended = movetext_word(r, g, word, depth, line, &termination);
        }
    }
    r->commentTarget = -1;
    if (depth > 0 && !ended) game_fail(r, g, depthLine, "variation '(' opened here is never closed");

    PgnResult tagged;
    const char *resultTag = pgn_tag(g, "Result");
    g->result = resultTag && parse_result(resultTag, &tagged) && tagged != PGN_RESULT_UNKNOWN ? tagged : termination;
    return g->error[0] ? PGN_BAD_GAME : PGN_OK;
}

/* Replays the first plies moves from the start position. */
bool pgn_game_position(const PgnGame *game, int plies, Position *pos) {
    if (!pos_set_fen(pos, game->fen[0] ? game->fen : StartFEN, game->chess960, NULL, 0)) return false;
    if (plies > game->moveCount) plies = game->moveCount;
    for (int i = 0; i < plies; i++)
        pos_do_game_move(pos, game->moves[i]);
    return true;
}
