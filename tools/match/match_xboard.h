/*
 * gizum-match: the xboard/CECP 2 side of an engine (match_engine.c dispatches to it).
 */
#ifndef MATCH_XBOARD_H
#define MATCH_XBOARD_H

#include "match_protocol.h"

bool xboard_start(Engine *e, char *err, size_t errlen);
bool xboard_new_game(Engine *e, const GameStart *start, char *err, size_t errlen);
void xboard_go(Engine *e, const GoRequest *req, EngineReply *reply);
void xboard_game_over(Engine *e, const char *result, const char *reason);

#endif
