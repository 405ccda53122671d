/*
 * gizum-match: one engine seen through its protocol (UCI or xboard/CECP 2).
 *
 * The game layer asks for a move with engine_go() and gets back a reply that
 * says what happened (a move, a timeout, a crash, a resignation ...); it
 * never sees protocol text. Every wait has a deadline. The engine object and
 * its types are match_protocol.h's; this is what the game layer calls.
 */
#ifndef MATCH_ENGINE_H
#define MATCH_ENGINE_H

#include "match_protocol.h"

/* Prepares an engine object (no process yet). */
void engine_prepare(Engine *e, const EngineConfig *cfg, const char *name, EngineLog *log,
                    const atomic_bool *stop, double initTimeout);
/* Starts the process and completes the handshake; on failure err says why and nothing runs. */
bool engine_start(Engine *e, char *err, size_t errlen);
/* Resets the engine for a new game from start; false (err) when it stalls (no readyok/pong). */
bool engine_new_game(Engine *e, const GameStart *start, char *err, size_t errlen);
/* Asks for a move; the clock runs from just after the request is sent. */
void engine_go(Engine *e, const GoRequest *req, EngineReply *reply);
/*
 * Starts thinking on the opponent's time (UCI: "go ponder" on the expected
 * reply) after the engine's own move; req describes the game after that move
 * with the engine's clocks. Does nothing without ponder=on or a ponder move.
 */
void engine_ponder(Engine *e, const GoRequest *req, const char *ponderMove);
/* Tells the engine the game is over (xboard "result"); the engine may be dropped if it stalls. */
void engine_game_over(Engine *e, const char *result, const char *reason);
/* True when the engine process still runs. */
bool engine_alive(Engine *e);
/* Releases heap memory (stops the engine first). */
void engine_free(Engine *e);

/* Score for adjudication in centipawns from the engine's view (mates as +-100000 - n). */
int engine_reply_cp(const EngineReply *r);

#endif
