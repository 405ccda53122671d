/*
 * datagen: training data (dataset.h's "<FEN> | <score> | <result>" lines)
 * from Gizum's own games, or from PGN games other tools played.
 *
 * Self-play: each game starts from a balanced opening (openings.h: random
 * walks from the start position, or from a Polyglot book or an EPD file),
 * is searched move by move to a fixed node count and/or depth on fresh
 * search state, and ends by the rules (mate, stalemate, fifty moves,
 * threefold repetition, insufficient material) or by adjudication (a mate
 * score, a resign or a draw score held for some plies, a length cap).
 * Game i of a run depends only on the run's seed and i, and games are
 * written in index order, so the same seed gives the same file with any
 * number of threads. Each game is appended with one write() when it ends:
 * an interrupted run (Ctrl-C, kill) keeps only whole games, and can be
 * continued with --first-game or with a new seed.
 *
 * Written positions leave out the first --skip-plies plies after the
 * opening, positions in check, positions whose best move is a capture or
 * promotion, and mate scores; the score is White's view.
 *
 * --rescore FILE searches a training file's positions again (rescore.h).
 */
#ifndef GIZUM_DATAGEN_H
#define GIZUM_DATAGEN_H

#include <stdio.h>

/* ./gizum datagen --out FILE (--games N | --positions N) [options], or --pgn FILE... --out FILE (see --help). */
int datagen_command(int argc, char **argv);
/* The synopsis of `gizum datagen` with every option and its default. */
void datagen_usage(FILE *out);

#endif
