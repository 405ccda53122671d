/*
 * gizum-match: internals shared by the engine dispatcher and the two
 * protocol implementations (match_uci.c, match_xboard.c). Not for the game layer.
 */
#ifndef MATCH_PROTOCOL_H
#define MATCH_PROTOCOL_H

#include "match_engine.h"

/* Seconds a command may take to be written into the engine's pipe. */
#define PROTO_WRITE_TIMEOUT 2.0
/* Seconds granted after a forfeit for the engine to answer stop / ping before it is restarted. */
#define PROTO_RESYNC_TIMEOUT 1.0

/* Sends one line (logged); false if the engine is gone. */
bool proto_send(Engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Reads one line (logged) before deadline. */
ReadResult proto_read(Engine *e, char *line, double deadline);
/* Describes why a read failed, for messages ("exited: signal 11", "no answer within 3.0 s"). */
void proto_describe_failure(Engine *e, ReadResult r, double waited, char *out, size_t len);
/*
 * Sends command, then reads lines until accept(line, arg) holds; on a dead,
 * silent or stalled engine writes "stalled at <what>: <why>" to err.
 */
bool proto_handshake(Engine *e, const char *command, bool (*accept)(const char *line, int arg), int arg,
                     const char *what, double timeout, char *err, size_t errlen);
/* True if name is in a '\n'-separated list (case-insensitive). */
bool proto_list_has(const char *list, const char *name);
/* Skips leading blanks. */
const char *proto_skip_blanks(const char *s);
/* The next blank-separated token of s copied into tok; returns the rest (NULL at end). */
const char *proto_token(const char *s, char *tok, size_t len);

bool uci_start(Engine *e, char *err, size_t errlen);
bool uci_new_game(Engine *e, const GameStart *start, char *err, size_t errlen);
void uci_go(Engine *e, const GoRequest *req, EngineReply *reply);
void uci_ponder(Engine *e, const GoRequest *req, const char *ponderMove);
/* Stops a ponder search and drops its bestmove; false (engine dropped) when it does not answer. */
bool uci_end_ponder(Engine *e);

bool xboard_start(Engine *e, char *err, size_t errlen);
bool xboard_new_game(Engine *e, const GameStart *start, char *err, size_t errlen);
void xboard_go(Engine *e, const GoRequest *req, EngineReply *reply);
void xboard_game_over(Engine *e, const char *result, const char *reason);

#endif
