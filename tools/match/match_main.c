/*
 * gizum-match: engine-vs-engine matches, gauntlets and round robins with
 * Elo, error bars and SPRT. See cli_usage() or README for the options.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "position.h"
#include "match_cli.h"
#include "match_tournament.h"

/* The running tournament, for the signal handler only (set once before signals are caught). */
static Tournament *signalTarget;

/* SIGINT/SIGTERM: stop the games, keep what is finished (a second signal kills). */
static void on_signal(int sig) {
    (void)sig;
    if (signalTarget) tournament_request_stop(signalTarget);
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    signal(SIGPIPE, SIG_IGN);
    board_init();
    MatchConfig cfg;
    char err[512] = "";
    if (!cli_parse(argc, argv, &cfg, err, sizeof err)) {
        fprintf(stderr, "gizum-match: %s\n(gizum-match -help lists the options)\n", err[0] ? err : "out of memory");
        cli_free(&cfg);
        return 2;
    }
    if (cfg.help || argc < 2) {
        cli_usage(stdout);
        cli_free(&cfg);
        return 0;
    }
    Tournament *t = tournament_new(&cfg, err, sizeof err);
    if (!t) {
        fprintf(stderr, "gizum-match: %s\n", err[0] ? err : "out of memory");
        cli_free(&cfg);
        return 2;
    }
    signalTarget = t;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    tournament_run(t);
    bool interrupted = tournament_interrupted(t);
    signalTarget = NULL;
    tournament_free(t);
    cli_free(&cfg);
    return interrupted ? 130 : 0;
}
