/*
 * Balanced start positions for engine matches: random walks by weight
 * through a Polyglot book, kept when a fixed-depth search scores them
 * within a margin of equality (the `openings` shell command).
 */
#ifndef GIZUM_OPENINGS_H
#define GIZUM_OPENINGS_H

/* ./gizum openings [--book F] [--count N] [--min-plies A] [--max-plies B] [--depth D] [--margin CP] [--seed S] */
int openings_command(int argc, char **argv);

#endif
