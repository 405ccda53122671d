/*
 * The program's commands (shell.c): one table of what ./gizum does as a
 * shell command (`./gizum bench 12`), in UCI mode (`bench 12` after `uci`),
 * or both.
 */
#ifndef GIZUM_SHELL_H
#define GIZUM_SHELL_H

#include "uci.h"

/*
 * Runs ./gizum with its arguments: no arguments is UCI mode, a shell
 * command runs and exits, UCI commands as arguments run on one engine.
 * Returns the exit status.
 */
int shell_main(int argc, char **argv);

/* The table's command for UCI mode called name (d, eval, bench, genfens), or NULL. */
UciExtraFn shell_uci_extra(const char *name);

#endif
