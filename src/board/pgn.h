/*
 * A tolerant PGN reader: iterates the games of a file, stream or buffer and
 * gives each game's tags, start position and moves (checked for legality by
 * playing them). It accepts what real PGN files contain: {} and ; comments,
 * % escape lines, nested variations, NAGs ($n) and !? annotations, move
 * numbers in any spacing ("12." "12..." "1.e4"), "0-0" castling, missing
 * results, CRLF line ends and a UTF-8 byte-order mark. Moves inside
 * variations are skipped, not checked. The first {} comment after each
 * main-line move is kept (pgn_move_comment): match runners write the
 * engine's score there ("+0.35/12 0.48s").
 *
 * A game that cannot be read (illegal or ambiguous move, bad FEN, malformed
 * tag, unbalanced parentheses, ...) is reported as PGN_BAD_GAME with a
 * message naming the line; reading continues with the next game.
 */
#ifndef GIZUM_PGN_H
#define GIZUM_PGN_H

#include <stdio.h>

#include "position.h"

enum {
    PGN_MAX_TAGS = 40,         /* further tags of a game are ignored */
    PGN_TAG_NAME_SIZE = 32,    /* longer names and values are truncated */
    PGN_TAG_VALUE_SIZE = 256,
    PGN_ERROR_SIZE = 512,
    PGN_COMMENT_SIZE = 256     /* longer move comments are truncated */
};

typedef enum { PGN_EOF, PGN_OK, PGN_BAD_GAME } PgnStatus;

typedef enum { PGN_RESULT_UNKNOWN, PGN_WHITE_WINS, PGN_BLACK_WINS, PGN_DRAW } PgnResult;

typedef struct {
    char name[PGN_TAG_NAME_SIZE];
    char value[PGN_TAG_VALUE_SIZE];
} PgnTag;

/*
 * One game. Zero-initialise it before the first pgn_next_game and release
 * it with pgn_game_free; one PgnGame can be reused for every game.
 */
typedef struct {
    PgnTag tags[PGN_MAX_TAGS];
    int tagCount;
    char fen[PGN_TAG_VALUE_SIZE]; /* start position: the FEN tag, else the standard one */
    bool chess960;                /* Variant tag says Chess960 */
    Move *moves;                  /* the main line, legal from fen */
    int moveCount;
    int moveCapacity;
    PgnResult result;             /* Result tag if valid, else the game's termination marker */
    int number;                   /* 1 for the first game of the input */
    int line;                     /* line where the game starts */
    char error[PGN_ERROR_SIZE];   /* why a PGN_BAD_GAME was rejected */
    /* Move comments (read them with pgn_move_comment): */
    int *commentAt;               /* per move: offset of its comment in commentText, or -1 */
    char *commentText;            /* the comments, each NUL-terminated */
    size_t commentLength, commentCapacity;
} PgnGame;

typedef struct PgnReader PgnReader;

/* Opens a PGN file; NULL with a message in err if it cannot be opened. */
PgnReader *pgn_open(const char *path, char *err, size_t errlen);
/* Reads from an open stream, which pgn_close leaves open. name is used in messages. */
PgnReader *pgn_open_stream(FILE *file, const char *name);
/* Reads from text in memory, which must outlive the reader. */
PgnReader *pgn_open_buffer(const char *text, size_t length, const char *name);
void pgn_close(PgnReader *reader);
/* The name given at opening (the path for files). */
const char *pgn_name(const PgnReader *reader);

/*
 * Reads the next game into game. PGN_OK: a game whose moves are all legal.
 * PGN_BAD_GAME: the game was skipped; game->error says why and where, and
 * game->moves holds the legal moves before the fault. PGN_EOF: no more games.
 */
PgnStatus pgn_next_game(PgnReader *reader, PgnGame *game);
void pgn_game_free(PgnGame *game);

/* The value of a tag (exact name), or NULL when the game has none. */
const char *pgn_tag(const PgnGame *game, const char *name);
/*
 * The text of the first {} comment that follows main-line move ply (0 =
 * the first move), without the braces, blanks trimmed and line breaks made
 * spaces; NULL when that move has none.
 */
const char *pgn_move_comment(const PgnGame *game, int ply);
/* Sets pos to the game's start position followed by its first plies moves (clamped). */
bool pgn_game_position(const PgnGame *game, int plies, Position *pos);
/* "1-0", "0-1", "1/2-1/2" or "*". */
const char *pgn_result_text(PgnResult result);

#endif
