/*
 * gizum-match: PGN output of finished games.
 */
#ifndef MATCH_PGN_H
#define MATCH_PGN_H

#include <stdio.h>

#include "match_game.h"

typedef struct {
    const char *event;
    const char *site;
    const char *round;          /* "3.2" */
    const char *white, *black;
    const char *whiteTc, *blackTc;  /* PGN TimeControl values */
} PgnHeader;

/* Writes one complete game (headers, SAN moves with {score/depth time} comments, result). */
void pgn_write_game(FILE *out, const PgnHeader *h, const GameRecord *rec);

#endif
