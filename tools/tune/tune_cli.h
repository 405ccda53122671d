/*
 * gizum-tune's command line: loads the training files, fits K, runs the
 * optimiser and writes the tuned table as evalweights.c. A function of its
 * own (not main) so the tests can run the whole program in-process.
 */
#ifndef GIZUM_TUNE_CLI_H
#define GIZUM_TUNE_CLI_H

#include <stdio.h>

/* Runs gizum-tune with argv[1..argc-1]; progress to out, faults to err. Exit status: 0 ok, 1 failure, 2 usage. */
int tune_cli_run(int argc, char **argv, FILE *out, FILE *err);

#endif
