/*
 * Gizum's entry point: every command, shell or UCI, is src/shell.c's.
 */
#include <stdio.h>

#include "shell.h"

int main(int argc, char **argv) {
    /* Whole lines reach a GUI at once, even through a pipe. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    return shell_main(argc, argv);
}
