/*
 * gizum-match: PGN output of finished games.
 */
#ifndef MATCH_PGN_H
#define MATCH_PGN_H

#include <stdbool.h>
#include <stdio.h>

#include "match_game.h"

typedef enum { PGN_SAN, PGN_LAN, PGN_UCI } PgnNotation;

/* How games are written (-pgnout keys of cutechess-cli and fastchess). */
typedef struct {
    PgnNotation notation;
    bool min;                   /* seven tag roster (+ FEN), no comments */
    bool nodes, seldepth, nps, hashfull, tbhits, pv, timeleft, latency;
    bool plan;                  /* -overrun: the engine's own maximum, time used and wait (max=, used=, waited=) */
} PgnOptions;

typedef struct {
    const char *event;
    const char *site;
    const char *round;          /* "3.2" */
    const char *white, *black;
    const char *whiteTc, *blackTc;  /* PGN TimeControl values */
    const PgnOptions *options;      /* NULL: SAN with {score/depth time} comments */
} PgnHeader;

/* Writes one complete game (headers, SAN moves with {score/depth time} comments, result). */
void pgn_write_game(FILE *out, const PgnHeader *h, const GameRecord *rec);

#endif
