/*
 * gizum-match: the UCI side of an engine (match_engine.c dispatches to it).
 */
#ifndef MATCH_UCI_H
#define MATCH_UCI_H

#include "match_protocol.h"

bool uci_start(Engine *e, char *err, size_t errlen);
bool uci_new_game(Engine *e, const GameStart *start, char *err, size_t errlen);
void uci_go(Engine *e, const GoRequest *req, EngineReply *reply);
void uci_ponder(Engine *e, const GoRequest *req, const char *ponderMove);
/* Stops a ponder search and drops its bestmove; false (engine dropped) when it does not answer. */
bool uci_end_ponder(Engine *e);

#endif
