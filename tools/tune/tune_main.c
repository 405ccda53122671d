/* gizum-tune: the Texel tuner of Gizum's evaluation weights (tools/tune/tune_cli.c). */
#include <stdio.h>

#include "init.h"
#include "tune_cli.h"

int main(int argc, char **argv) {
    engine_init();
    return tune_cli_run(argc, argv, stdout, stderr);
}
