/*
 * Gizum's entry point: every command, shell or UCI, is src/shell.c's.
 */
#include "platform.h"
#include "shell.h"

int main(int argc, char **argv) {
    /* First: a build for a newer CPU says so, instead of dying on an unknown instruction. */
    if (!platform_cpu_check()) return 1;
    /* Whole lines reach a GUI at once, even through a pipe (and as "\n" alone on Windows). */
    platform_console_init();
    return shell_main(argc, argv);
}
