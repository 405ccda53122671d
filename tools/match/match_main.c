/*
 * gizum-match: engine-vs-engine matches, gauntlets and round robins with
 * Elo, error bars and SPRT. See cli_usage() or docs/match.md for the options.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "match_cli.h"
#include "match_tournament.h"
#include "position.h"
#include "version.h"

/* The running tournament, for the signal handler only (set once before signals are caught). */
static Tournament *signalTarget;

/* SIGINT/SIGTERM: stop the games, keep what is finished (a second signal kills). */
static void on_signal(int sig) {
    (void)sig;
    if (signalTarget) tournament_request_stop(signalTarget);
}

/*
 * -config file=F: the tournament saved in F is resumed with the command
 * line stored there (plus the -config that asked for it), and its finished
 * games count as played.
 */
static Tournament *resume(MatchConfig *cfg, int *stateArgc, char ***stateArgv, char *err, size_t errlen) {
    double *points;
    long count;
    char *in = cfg->stateIn, *out = cfg->stateOut;
    bool stats = cfg->stateStats;
    cfg->stateIn = cfg->stateOut = NULL;
    Tournament *t = NULL;
    if (cli_read_state(in, stateArgc, stateArgv, &points, &count, err, errlen)) {
        cli_free(cfg);
        if (cli_parse(*stateArgc, *stateArgv, cfg, err, errlen)) {
            free(cfg->stateOut);
            cfg->stateOut = out;
            out = NULL;
            cfg->argc = *stateArgc;
            cfg->argv = *stateArgv;
            printf("Resuming the tournament saved in %s\n", in);
            t = tournament_new(cfg, err, errlen);
            if (t && stats && !tournament_restore(t, points, count, err, errlen)) {
                tournament_free(t);
                t = NULL;
            }
        }
        free(points);
    }
    free(in);
    free(out);
    return t;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    signal(SIGPIPE, SIG_IGN);
    board_init();
    MatchConfig cfg;
    char err[2048] = "";
    if (!cli_parse(argc, argv, &cfg, err, sizeof err)) {
        fprintf(stderr, "gizum-match: %s\n(gizum-match -help lists the options)\n", err[0] ? err : "out of memory");
        cli_free(&cfg);
        return 2;
    }
    if (cfg.version) {
        printf("gizum-match (%s %s)\n", ENGINE_NAME, ENGINE_VERSION);
        version_print(stdout);
        cli_free(&cfg);
        return 0;
    }
    if (cfg.help || argc < 2) {
        cli_usage(stdout);
        cli_free(&cfg);
        return 0;
    }
    cfg.argc = argc;
    cfg.argv = argv;
    int stateArgc = 0;
    char **stateArgv = NULL;
    Tournament *t = cfg.stateIn ? resume(&cfg, &stateArgc, &stateArgv, err, sizeof err)
                                : tournament_new(&cfg, err, sizeof err);
    if (!t) {
        fprintf(stderr, "gizum-match: %s\n", err[0] ? err : "out of memory");
        cli_free(&cfg);
        cli_free_args(stateArgc, stateArgv);
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
    bool ran = tournament_run(t);
    bool interrupted = tournament_interrupted(t);
    signalTarget = NULL;
    tournament_free(t);
    cli_free(&cfg);
    cli_free_args(stateArgc, stateArgv);
    return !ran ? 2 : interrupted ? 130 : 0;
}
