/*
 * gizum-match: the tournament.
 */
#include "match_tournament.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fen.h"
#include "files.h"
#include "match_game.h"
#include "match_pgn.h"
#include "match_protocol.h"

/* Seconds an engine gets to quit on its own at the end (less when interrupted). */
static const double QUIT_GRACE = 1.0;
static const double QUIT_GRACE_INTERRUPTED = 0.2;

/* One scheduled game. */
typedef struct {
    int first, second;      /* the encounter's engines; results are kept from first's view */
    int white, black;
    int round, encounter, game;
    long opening;           /* index into the opening sequence */
} GameJob;

/* -overrun: what one engine's reported time plans showed over its moves. */
typedef struct {
    long moves;             /* moves with a reported maximum */
    long used;              /* of them, with the time used reported too */
    double worstOwn;        /* the largest used - maximum (the engine's own clock), seconds */
    double ownUsed, ownMax, ownWaited;  /* that move's used, maximum and time kept waiting (NAN: not said) */
    double worstRunning;    /* the largest used - waited - maximum: the overrun of an engine left to run */
    double worstSeen;       /* the largest thinking time measured by the tool - maximum, seconds */
} TimePlanRecord;

struct Tournament {
    const MatchConfig *cfg;
    OpeningSuite openings;
    GameJob *jobs;
    long jobCount, nextJob, finished;
    double *firstPoints;    /* per job: points of its first engine, -1 until finished */
    MatchScore *scores;     /* per (first, second) engine pair */
    int engineCount;
    pthread_mutex_t lock;   /* guards everything below it and all output */
    atomic_bool stop;
    atomic_bool interrupted;
    bool sprtDone;
    SprtDecision decision;
    double llr;
    FILE *pgn;
    FILE *epd;
    EngineLog log;
    long sinceSave;         /* games finished since the state file was last written */
    SpsaTune spsa;          /* -spsa: the tune (engine 0 plays value + flip c, engine 1 value - flip c) */
    SpsaPoint *spsaPoints;  /* per round (one game pair): its perturbation while the pair is played */
    atomic_bool *moved;     /* per engine: it has made a move in some game (its processes share the flag) */
    TimePlanRecord *plans;  /* per engine, with -overrun */
    char fatal[512];        /* why the run was aborted; empty while it goes on */
};

typedef struct {
    Tournament *t;
    Engine *engines;        /* this worker's own engine processes, one per configured engine */
    EngineOption *spsaOptions[2];   /* -spsa: the values each side's engine gets for its next game */
} Worker;

/* Builds the schedule: every round, every pairing, -games games alternating colours. */
static bool schedule(Tournament *t) {
    const MatchConfig *c = t->cfg;
    int n = c->engineCount;
    int pairings = c->type == TOURNAMENT_GAUNTLET ? n - 1 : n * (n - 1) / 2;
    /* A tune plays the pairs it has left, on the openings after those it has played. */
    long rounds = c->spsa.enabled ? t->spsa.iterations - t->spsa.done : c->rounds;
    long firstRound = c->spsa.enabled ? t->spsa.done : 0;
    t->jobCount = rounds * pairings * c->games;
    t->jobs = calloc((size_t)t->jobCount, sizeof *t->jobs);
    t->firstPoints = malloc((size_t)t->jobCount * sizeof *t->firstPoints);
    if (t->jobCount > 0 && (!t->jobs || !t->firstPoints)) return false;
    long k = 0;
    int openingsPerRound = (c->games + 1) / 2;
    for (int r = 0; r < rounds; r++) {
        int enc = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (c->type == TOURNAMENT_GAUNTLET && i != 0) continue;
                for (int g = 0; g < c->games; g++, k++) {
                    GameJob *job = &t->jobs[k];
                    job->first = i;
                    job->second = j;
                    /* -noswap keeps the colours; -reverse starts every pair the other way round. */
                    bool firstIsWhite = c->noSwap || g % 2 == 0;
                    if (c->reverse) firstIsWhite = !firstIsWhite;
                    job->white = firstIsWhite ? i : j;
                    job->black = firstIsWhite ? j : i;
                    job->round = r;
                    job->encounter = enc;
                    job->game = g;
                    job->opening = (firstRound + r) * openingsPerRound + g / 2;
                    t->firstPoints[k] = -1;
                }
                enc++;
            }
        }
    }
    return true;
}

Tournament *tournament_new(const MatchConfig *cfg, char *err, size_t errlen) {
    Tournament *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->cfg = cfg;
    t->engineCount = cfg->engineCount;
    pthread_mutex_init(&t->lock, NULL);
    pthread_mutex_init(&t->log.lock, NULL);
    atomic_init(&t->stop, false);
    atomic_init(&t->interrupted, false);
    t->log.t0 = clock_now();
    if (cfg->spsa.enabled) {
        if (cfg->stateOut || cfg->stateIn) {
            snprintf(err, errlen, "-spsa resumes from its own state=, not from -config");
            tournament_free(t);
            return NULL;
        }
        if (!spsa_open(&t->spsa, &cfg->spsa, err, errlen)) {
            tournament_free(t);
            return NULL;
        }
        if (t->spsa.done > 0)
            printf("Resuming the SPSA tune saved in %s: %ld of %ld pairs done\n", cfg->spsa.state, t->spsa.done,
                   t->spsa.iterations);
        t->spsaPoints = calloc((size_t)(t->spsa.iterations - t->spsa.done) + 1, sizeof *t->spsaPoints);
    }
    t->scores = calloc((size_t)(cfg->engineCount * cfg->engineCount), sizeof *t->scores);
    t->moved = calloc((size_t)cfg->engineCount, sizeof *t->moved);
    for (int i = 0; t->moved && i < cfg->engineCount; i++) atomic_init(&t->moved[i], false);
    t->plans = calloc((size_t)cfg->engineCount, sizeof *t->plans);
    for (int i = 0; t->plans && i < cfg->engineCount; i++)
        t->plans[i].worstOwn = t->plans[i].worstRunning = t->plans[i].worstSeen = -INFINITY;
    if (!t->scores || !t->moved || !t->plans || (cfg->spsa.enabled && !t->spsaPoints) || !schedule(t)) {
        snprintf(err, errlen, "out of memory");
        tournament_free(t);
        return NULL;
    }
    if (!openings_load(&t->openings, &cfg->openings, cfg->chess960, err, errlen)) {
        tournament_free(t);
        return NULL;
    }
    /* Written as the games end; never into a folder, FIFO or device (files.h). */
    char why[512];
    bool opened = true;
    if (cfg->pgnOut && !(t->pgn = file_open_output(cfg->pgnOut, cfg->pgnAppend, why, sizeof why))) {
        snprintf(err, errlen, "-pgnout: %s", why);
        opened = false;
    } else if (cfg->epdOut && !(t->epd = file_open_output(cfg->epdOut, cfg->epdAppend, why, sizeof why))) {
        snprintf(err, errlen, "-epdout: %s", why);
        opened = false;
    } else if (cfg->logFile && strcmp(cfg->logFile, "-") == 0) {
        t->log.file = stdout; /* -debug */
    } else if (cfg->logFile && !(t->log.file = file_open_output(cfg->logFile, cfg->logAppend, why, sizeof why))) {
        snprintf(err, errlen, "-log: %s", why);
        opened = false;
    }
    if (!opened) {
        tournament_free(t);
        return NULL;
    }
    return t;
}

void tournament_free(Tournament *t) {
    if (!t) return;
    openings_free(&t->openings);
    if (t->pgn) fclose(t->pgn);
    if (t->epd) fclose(t->epd);
    if (t->log.file && t->log.file != stdout) fclose(t->log.file);
    free(t->jobs);
    free(t->firstPoints);
    free(t->scores);
    free(t->moved);
    free(t->plans);
    if (t->spsaPoints)
        for (long r = 0; r < t->spsa.iterations - t->spsa.resumedFrom; r++) spsa_point_free(&t->spsaPoints[r]);
    free(t->spsaPoints);
    spsa_free(&t->spsa);
    pthread_mutex_destroy(&t->lock);
    pthread_mutex_destroy(&t->log.lock);
    free(t);
}

void tournament_request_stop(Tournament *t) {
    atomic_store(&t->interrupted, true);
    atomic_store(&t->stop, true);
}

bool tournament_interrupted(const Tournament *t) {
    return atomic_load(&t->interrupted);
}

/* Elo with sign, or "+inf"/"-inf"/"nan". */
static void format_elo(double elo, char *out, size_t len) {
    if (isinf(elo)) snprintf(out, len, "%sinf", elo > 0 ? "+" : "-");
    else if (isnan(elo)) snprintf(out, len, "nan");
    else if (fabs(elo) < 0.05) snprintf(out, len, "0.0");
    else snprintf(out, len, "%.1f", elo);
}

/* Half-width of the Elo interval; "inf" when the interval reaches a score of 0 or 1. */
static void format_error(double error, char *out, size_t len) {
    if (isinf(error)) snprintf(out, len, "inf");
    else format_elo(error, out, len);
}

/* Prints the W/L/D, Elo, pentanomial and SPRT block of one engine pair. */
static void print_pair(const Tournament *t, int a, int b) {
    const MatchScore *m = &t->scores[a * t->engineCount + b];
    EloEstimate e;
    stats_estimate(m, &e);
    if (e.games == 0) return;
    char elo[32], err[32];
    format_elo(e.elo, elo, sizeof elo);
    format_error(e.eloError, err, sizeof err);
    printf("Score of %s vs %s: %d - %d - %d  [%.3f] %d\n", t->cfg->engines[a].name, t->cfg->engines[b].name,
           m->wins, m->losses, m->draws, e.score, e.games);
    printf("Elo difference: %s +/- %s, LOS: %.1f %%, DrawRatio: %.1f %%", elo, err, e.los * 100,
           e.drawRatio * 100);
    if (!isnan(e.nelo)) printf(", nElo: %.1f", e.nelo);
    printf("\n");
    if (t->cfg->games >= 2 && t->cfg->reportPenta)
        printf("Pentanomial [LL, LD+DL, LW+DD+WL, DW+WD, WW]: [%d, %d, %d, %d, %d]\n", m->penta[0], m->penta[1],
               m->penta[2], m->penta[3], m->penta[4]);
    const SprtConfig *s = &t->cfg->sprt;
    if (s->enabled) {
        double lo, hi, llr = sprt_llr(s, m);
        sprt_bounds(s, &lo, &hi);
        printf("SPRT (%s Elo, elo0=%.2f elo1=%.2f, alpha=%.3f beta=%.3f): LLR %.3f, bounds [%.3f, %.3f]%s\n",
               s->model == SPRT_NORMALIZED ? "normalized" : "logistic", s->elo0, s->elo1, s->alpha, s->beta,
               llr, lo, hi,
               llr >= hi ? " - H1 accepted" : llr <= lo ? " - H0 accepted" : "");
    }
}

/* Prints the standings of a tournament with more than two engines. */
static void print_standings(const Tournament *t) {
    int n = t->engineCount;
    printf("%4s %-24s %7s %7s %6s %7s %6s\n", "Rank", "Name", "Elo", "+/-", "Games", "Score", "Draw");
    int order[256], count = n < 256 ? n : 256;
    double points[256];
    MatchScore total[256];
    for (int i = 0; i < count; i++) {
        memset(&total[i], 0, sizeof total[i]);
        for (int j = 0; j < n; j++) {
            if (i == j) continue;
            const MatchScore *m = &t->scores[(i < j ? i : j) * n + (i < j ? j : i)];
            total[i].wins += i < j ? m->wins : m->losses;
            total[i].losses += i < j ? m->losses : m->wins;
            total[i].draws += m->draws;
        }
        int games = total[i].wins + total[i].draws + total[i].losses;
        points[i] = games ? (total[i].wins + 0.5 * total[i].draws) / games : 0;
        order[i] = i;
    }
    for (int i = 1; i < count; i++)
        for (int j = i; j > 0 && points[order[j]] > points[order[j - 1]]; j--) {
            int x = order[j];
            order[j] = order[j - 1];
            order[j - 1] = x;
        }
    for (int r = 0; r < count; r++) {
        int i = order[r];
        EloEstimate e;
        stats_estimate(&total[i], &e);
        char elo[32], err[32];
        format_elo(e.elo, elo, sizeof elo);
        format_error(e.eloError, err, sizeof err);
        printf("%4d %-24.24s %7s %7s %6d %6.1f%% %5.1f%%\n", r + 1, t->cfg->engines[i].name, elo, err, e.games,
               e.score * 100, e.drawRatio * 100);
    }
}

/* -overrun: each engine's worst overrun of the maximum it reported, by its own clock and by the tool's. */
static void print_time_plans(const Tournament *t) {
    for (int i = 0; i < t->engineCount; i++) {
        const TimePlanRecord *r = &t->plans[i];
        const char *name = t->cfg->engines[i].name;
        if (r->moves == 0) {
            printf("Time plan of %s: not reported\n", name);
            continue;
        }
        printf("Time plan of %s: %ld moves, worst overrun of its maximum", name, r->moves);
        if (r->used > 0) {
            printf(" %+.0f ms by its own clock (used %.0f of %.0f ms", r->worstOwn * 1000, r->ownUsed * 1000,
                   r->ownMax * 1000);
            if (!isnan(r->ownWaited)) printf(", kept waiting %.0f ms", r->ownWaited * 1000);
            printf("),");
            if (r->worstRunning > -INFINITY) printf(" %+.0f ms less its waits,", r->worstRunning * 1000);
        }
        printf(" %+.0f ms by the tool's\n", r->worstSeen * 1000);
    }
}

/* Notes the time plans reported in a finished game. Caller holds the lock. */
static void count_time_plans(Tournament *t, const GameJob *job, const GameRecord *rec) {
    const char *side = strchr(rec->startFen, ' ');
    int first = side && side[1] == 'b' ? job->black : job->white;
    for (int i = 0; i < rec->count; i++) {
        const PlyRecord *p = &rec->plies[i];
        if (p->book || isnan(p->planMax)) continue;
        TimePlanRecord *r = &t->plans[i % 2 == 0 ? first : first == job->white ? job->black : job->white];
        r->moves++;
        if (p->seconds - p->planMax > r->worstSeen) r->worstSeen = p->seconds - p->planMax;
        if (isnan(p->planUsed)) continue;
        r->used++;
        if (p->planUsed - p->planMax > r->worstOwn) {
            r->worstOwn = p->planUsed - p->planMax;
            r->ownUsed = p->planUsed;
            r->ownMax = p->planMax;
            r->ownWaited = p->planWaited;
        }
        if (!isnan(p->planWaited) && p->planUsed - p->planWaited - p->planMax > r->worstRunning)
            r->worstRunning = p->planUsed - p->planWaited - p->planMax;
    }
}

/* Prints the summary of all finished games. Caller holds the lock. */
static void print_summary(const Tournament *t) {
    printf("--------------------------------------------------\n");
    printf("Results after %ld of %ld games:\n", t->finished, t->jobCount);
    for (int a = 0; a < t->engineCount; a++)
        for (int b = a + 1; b < t->engineCount; b++) print_pair(t, a, b);
    if (t->engineCount > 2) print_standings(t);
    if (t->cfg->overrun) print_time_plans(t);
    if (t->cfg->spsa.enabled) spsa_print(&t->spsa, stdout);
    printf("--------------------------------------------------\n");
    fflush(stdout);
}

/* Prints a warning from a game thread (a crash, an illegal move, a restart) on stderr. */
static void log_warning(void *ctx, const char *message) {
    Tournament *t = ctx;
    pthread_mutex_lock(&t->lock);
    fflush(stdout); /* what came before it on stdout comes before it in a 2>&1 log */
    fprintf(stderr, "%s\n", message);
    fflush(stderr);
    pthread_mutex_unlock(&t->lock);
}

/* Points of the white player. */
static double white_points(GameResult r) {
    return r == RESULT_WHITE_WINS ? 1 : r == RESULT_DRAW ? 0.5 : 0;
}

/* The other game of a job's colour-reversed pair, or -1 when it has none. */
static long pair_partner(const Tournament *t, long index) {
    const GameJob *job = &t->jobs[index];
    bool hasPartner = job->game % 2 == 1 || job->game + 1 < t->cfg->games;
    return !hasPartner ? -1 : job->game % 2 == 0 ? index + 1 : index - 1;
}

/* Counts a finished game (fp: points of the job's first engine) in the scores and pairs. Caller holds the lock. */
static MatchScore *count_game(Tournament *t, long index, double fp) {
    const GameJob *job = &t->jobs[index];
    MatchScore *m = &t->scores[job->first * t->engineCount + job->second];
    if (fp == 1) m->wins++;
    else if (fp == 0) m->losses++;
    else m->draws++;
    t->firstPoints[index] = fp;
    long partner = pair_partner(t, index);
    if (partner >= 0 && t->firstPoints[partner] >= 0) stats_add_pair(m, t->firstPoints[partner], fp);
    t->finished++;
    return m;
}

/*
 * -spsa: once both games of a pair are in, its W - L for the plus engine moves
 * the values, and the tune is saved. Caller holds the lock.
 */
static void spsa_count_pair(Tournament *t, long index) {
    long partner = pair_partner(t, index);
    if (partner < 0 || t->firstPoints[partner] < 0) return;
    SpsaPoint *point = &t->spsaPoints[t->jobs[index].round];
    spsa_update(&t->spsa, point, 2 * (t->firstPoints[index] + t->firstPoints[partner]) - 2);
    spsa_point_free(point);
    char why[512];
    if (!spsa_save(&t->spsa, t->cfg->spsa.state, why, sizeof why)) printf("Warning: the SPSA state: %s\n", why);
}

/* One argument of the command line as a state line: backslashes and newlines escaped. */
static void write_arg(FILE *f, const char *arg) {
    fputs("arg ", f);
    for (; *arg; arg++) {
        if (*arg == '\\') fputs("\\\\", f);
        else if (*arg == '\n') fputs("\\n", f);
        else fputc(*arg, f);
    }
    fputc('\n', f);
}

/*
 * Writes the state (-config): the command line without its -config, and the
 * result of every finished game, to a temporary file renamed over the old
 * one, so an interruption never leaves half a state. Caller holds the lock.
 */
static void save_state(Tournament *t) {
    const MatchConfig *c = t->cfg;
    if (!c->stateOut || !c->argv) return;
    FileWriter w;
    char why[512];
    if (!file_write_begin(&w, c->stateOut, why, sizeof why)) {
        printf("Warning: the state file: %s\n", why);
        return;
    }
    FILE *f = w.f;
    fputs("gizum-match state 1\n", f);
    for (int i = 0; i < c->argc; i++) {
        if (strcmp(c->argv[i], "-config") == 0) {
            while (i + 1 < c->argc && c->argv[i + 1][0] != '-') i++;
            continue;
        }
        write_arg(f, c->argv[i]);
    }
    if (c->openings.random) { /* the shuffle actually used, so a resumed run plays the same openings */
        char seed[32];
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)c->openings.seed);
        write_arg(f, "-srand");
        write_arg(f, seed);
    }
    fprintf(f, "games %ld\n", t->jobCount);
    for (long i = 0; i < t->jobCount; i++)
        if (t->firstPoints[i] >= 0) fprintf(f, "game %ld %g\n", i, t->firstPoints[i]);
    if (!file_write_commit(&w, why, sizeof why)) printf("Warning: the state file: %s\n", why);
    t->sinceSave = 0;
}

bool tournament_restore(Tournament *t, const double *points, long count, char *err, size_t errlen) {
    if (t->cfg->spsa.enabled) {
        snprintf(err, errlen, "-spsa resumes from its own state=, not from -config");
        return false;
    }
    if (count != t->jobCount) {
        snprintf(err, errlen, "the state file has %ld games, this tournament %ld", count, t->jobCount);
        return false;
    }
    pthread_mutex_lock(&t->lock);
    for (long i = 0; i < count; i++)
        if (points[i] >= 0) count_game(t, i, points[i]);
    if (t->cfg->sprt.enabled && t->engineCount == 2) {
        t->llr = sprt_llr(&t->cfg->sprt, &t->scores[1]);
        t->decision = sprt_decide(&t->cfg->sprt, t->llr);
        t->sprtDone = t->decision != SPRT_CONTINUE;
        if (t->sprtDone) atomic_store(&t->stop, true);
    }
    printf("Resumed: %ld of %ld games already played\n", t->finished, t->jobCount);
    pthread_mutex_unlock(&t->lock);
    return true;
}

/* Writes the final position of a game as FEN (-epdout). */
static void write_final_position(FILE *out, const GameRecord *rec) {
    static _Thread_local Position pos;
    char fen[128];
    if (!pos_set_fen(&pos, rec->startFen, rec->chess960, NULL, 0)) return;
    for (int i = 0; i < rec->count; i++) pos_do_game_move(&pos, rec->plies[i].move);
    pos_get_fen(&pos, fen);
    fprintf(out, "%s\n", fen);
    fflush(out);
}

/* Records a finished game: scores, pairs, PGN, live line, summaries, SPRT. */
static void record_game(Tournament *t, long index, const GameRecord *rec) {
    const MatchConfig *c = t->cfg;
    const GameJob *job = &t->jobs[index];
    double wp = white_points(rec->outcome.result);
    double fp = job->white == job->first ? wp : 1 - wp;
    pthread_mutex_lock(&t->lock);
    MatchScore *m = count_game(t, index, fp);
    if (c->spsa.enabled) spsa_count_pair(t, index);
    if (t->epd) write_final_position(t->epd, rec);
    if (c->overrun) count_time_plans(t, job, rec);

    if (t->pgn) {
        char round[32], wtc[64], btc[64];
        snprintf(round, sizeof round, "%d.%d", job->round + 1, job->encounter * c->games + job->game + 1);
        tc_format_pgn(&c->engines[job->white].tc, wtc, sizeof wtc);
        tc_format_pgn(&c->engines[job->black].tc, btc, sizeof btc);
        PgnHeader h = { c->event, c->site, round, c->engines[job->white].name, c->engines[job->black].name,
                        wtc, btc, &c->pgn };
        pgn_write_game(t->pgn, &h, rec);
        fflush(t->pgn);
    }
    printf("Finished game %ld (%s vs %s): %s {%s}\n", index + 1, c->engines[job->white].name,
           c->engines[job->black].name, result_text(rec->outcome.result), rec->outcome.reason);
    if (c->sprt.enabled && !t->sprtDone) {
        t->llr = sprt_llr(&c->sprt, m);
        t->decision = sprt_decide(&c->sprt, t->llr);
        if (t->decision != SPRT_CONTINUE) {
            t->sprtDone = true;
            printf("SPRT: %s accepted after %ld games (LLR %.3f)\n", t->decision == SPRT_H1 ? "H1" : "H0",
                   t->finished, t->llr);
            atomic_store(&t->stop, true);
        }
    }
    if (c->ratingInterval > 0 && t->finished % c->ratingInterval == 0 && t->finished < t->jobCount &&
        !t->sprtDone)
        print_summary(t);
    if (c->autosaveInterval > 0 && ++t->sinceSave >= c->autosaveInterval) save_state(t);
    fflush(stdout);
    pthread_mutex_unlock(&t->lock);
}

/*
 * -spsa: the values the worker's two engines get for a game of this pair,
 * drawn with the pair's first game (both games of a pair play the same
 * values). False when out of memory. Caller holds the lock.
 */
static bool spsa_prepare_game(Tournament *t, Worker *w, const GameJob *job) {
    SpsaPoint *point = &t->spsaPoints[job->round];
    if (job->game == 0 && !spsa_draw(&t->spsa, t->spsa.resumedFrom + job->round, point)) return false;
    for (int side = 0; side < 2; side++) {
        if (!w->spsaOptions[side]) {
            w->spsaOptions[side] = calloc((size_t)t->spsa.count, sizeof *w->spsaOptions[side]);
            if (!w->spsaOptions[side]) return false;
            for (int i = 0; i < t->spsa.count; i++) {
                w->spsaOptions[side][i].name = t->spsa.params[i].name;
                if (!(w->spsaOptions[side][i].value = malloc(SPSA_NAME_MAX))) return false;
            }
            w->engines[side].gameOptions = w->spsaOptions[side];
            w->engines[side].gameOptionCount = t->spsa.count;
        }
        for (int i = 0; i < t->spsa.count; i++)
            spsa_format_value(&t->spsa.params[i], side == 0 ? point->plus[i] : point->minus[i],
                              w->spsaOptions[side][i].value, SPSA_NAME_MAX);
    }
    return true;
}

/* Takes the next game to play, or -1 when there is none or the run stops. */
static long take_job(Tournament *t, Worker *w) {
    long index = -1;
    pthread_mutex_lock(&t->lock);
    /* Games already finished (restored from a state file) are skipped. */
    while (!atomic_load(&t->stop) && t->nextJob < t->jobCount && t->firstPoints[t->nextJob] >= 0) t->nextJob++;
    if (!atomic_load(&t->stop) && t->nextJob < t->jobCount) index = t->nextJob++;
    if (index >= 0 && t->cfg->spsa.enabled && !spsa_prepare_game(t, w, &t->jobs[index])) {
        printf("Error: out of memory for the SPSA values; the tune stops\n");
        atomic_store(&t->stop, true);
        index = -1;
    }
    pthread_mutex_unlock(&t->lock);
    return index;
}

/*
 * An engine that could not start, stalled, died or let its time run out
 * without a bestmove before it ever made a move, in this game or any
 * before, will not play: every game would be a forfeit and the match a
 * meaningless score. The run stops with the reason (issue #38) and this
 * game is not counted. A later crash or flag fall stays a forfeit.
 */
static bool abort_if_never_moved(Tournament *t, const GameJob *job, const GameRecord *rec) {
    if (rec->failedSide < 0) return false;
    int i = rec->failedSide == WHITE ? job->white : job->black;
    if (atomic_load(&t->moved[i])) return false;
    const EngineConfig *e = &t->cfg->engines[i];
    pthread_mutex_lock(&t->lock);
    if (!t->fatal[0])
        snprintf(t->fatal, sizeof t->fatal, "engine %s (%s) failed before its first move: %s", e->name, e->cmd,
                 rec->failure);
    atomic_store(&t->stop, true);
    pthread_mutex_unlock(&t->lock);
    return true;
}

/* A worker thread: plays games one after another with its own engines. */
static void *worker_main(void *arg) {
    Worker *w = arg;
    Tournament *t = w->t;
    const MatchConfig *c = t->cfg;
    long index;
    while ((index = take_job(t, w)) >= 0) {
        const GameJob *job = &t->jobs[index];
        for (int i = 0; i < t->engineCount; i++) /* only the two players keep running */
            if (i != job->white && i != job->black && w->engines[i].running) engine_stop(&w->engines[i], QUIT_GRACE);
        Opening o;
        if (!openings_get(&t->openings, job->opening, &o)) {
            log_warning(t, "Warning: out of memory for an opening; game skipped");
            continue;
        }
        GameSettings s = { .fen = o.fen, .opening = o.moves, .openingCount = o.moveCount, .chess960 = c->chess960,
                           .timeMargin = c->timeMargin, .hangLimit = c->hangLimit,
                           .adjudication = &c->adjudication, .log = log_warning, .logCtx = t };
        GameRecord rec;
        game_record_init(&rec);
        bool done = game_play(&s, &w->engines[job->white], &w->engines[job->black], &rec);
        if (done && abort_if_never_moved(t, job, &rec)) done = false;
        if (done) record_game(t, index, &rec);
        for (int side = 0; side < 2; side++) { /* restart=on: a fresh process for the next game */
            Engine *e = &w->engines[side ? job->black : job->white];
            if (e->cfg->restart && e->running) engine_stop(e, QUIT_GRACE);
        }
        if (c->waitMs > 0 && !atomic_load(&t->stop)) {
            struct timespec pause = {c->waitMs / 1000, (long)(c->waitMs % 1000) * 1000000L};
            nanosleep(&pause, NULL);
        }
        game_record_free(&rec);
        opening_free(&o);
        if (!done && atomic_load(&t->stop)) break;
    }
    double grace = atomic_load(&t->interrupted) ? QUIT_GRACE_INTERRUPTED : QUIT_GRACE;
    for (int i = 0; i < t->engineCount; i++) {
        engine_stop(&w->engines[i], grace);
        engine_free(&w->engines[i]);
    }
    for (int side = 0; side < 2; side++) {
        for (int i = 0; w->spsaOptions[side] && i < t->spsa.count; i++) free(w->spsaOptions[side][i].value);
        free(w->spsaOptions[side]);
    }
    return NULL;
}

/*
 * -spsa: the engine must declare every tuned parameter as an option, or the
 * tune would move numbers that change nothing. Starts it once to ask.
 */
static bool spsa_check_engine(Tournament *t) {
    const MatchConfig *c = t->cfg;
    Engine e;
    char err[512];
    engine_prepare(&e, &c->engines[0], c->engines[0].name, &t->log, &t->stop, c->initTimeout);
    bool ok = engine_start(&e, err, sizeof err);
    if (!ok) fprintf(stderr, "gizum-match: -spsa: engine %s does not start: %s\n", c->engines[0].cmd, err);
    for (int i = 0; ok && i < t->spsa.count; i++)
        if (!proto_list_has(e.declared, t->spsa.params[i].name)) {
            fprintf(stderr, "gizum-match: -spsa: engine %s has no option '%s' (%s:%d lists it; a Gizum to tune "
                    "is built with make SPSA=1)\n", c->engines[0].cmd, t->spsa.params[i].name, c->spsa.file, i + 1);
            ok = false;
        }
    engine_stop(&e, QUIT_GRACE);
    engine_free(&e);
    return ok;
}

/* Prints what is about to be played. */
static void print_banner(const Tournament *t) {
    const MatchConfig *c = t->cfg;
    printf("gizum-match: %d engines, %s, %ld games (%d rounds x %d games per pairing), concurrency %d\n",
           c->engineCount, c->type == TOURNAMENT_GAUNTLET ? "gauntlet" : "round robin", t->jobCount, c->rounds,
           c->games, c->concurrency);
    for (int i = 0; i < c->engineCount; i++) {
        char tc[96];
        tc_describe(&c->engines[i].tc, tc, sizeof tc);
        printf("  %-20s %s (%s) %s\n", c->engines[i].name, c->engines[i].cmd,
               c->engines[i].proto == PROTO_UCI ? "uci" : "xboard", tc);
    }
    if (c->openings.file) printf("  openings: %s (%ld positions)\n", c->openings.file, t->openings.count);
    fflush(stdout);
}

bool tournament_run(Tournament *t) {
    const MatchConfig *c = t->cfg;
    print_banner(t);
    if (c->spsa.enabled && t->jobCount > 0 && !spsa_check_engine(t)) return false;
    int workers = c->concurrency < t->jobCount ? c->concurrency : (int)t->jobCount;
    Worker *w = calloc((size_t)(workers > 0 ? workers : 1), sizeof *w);
    pthread_t *threads = calloc((size_t)(workers > 0 ? workers : 1), sizeof *threads);
    int started = 0;
    for (int i = 0; w && threads && i < workers; i++) {
        w[i].t = t;
        w[i].engines = calloc((size_t)t->engineCount, sizeof *w[i].engines);
        if (!w[i].engines) break;
        for (int e = 0; e < t->engineCount; e++) {
            engine_prepare(&w[i].engines[e], &c->engines[e], c->engines[e].name, &t->log, &t->stop, c->initTimeout);
            w[i].engines[e].moved = &t->moved[e];
        }
        if (pthread_create(&threads[i], NULL, worker_main, &w[i]) != 0) {
            free(w[i].engines);
            break;
        }
        started++;
    }
    if (started == 0 && workers > 0) fprintf(stderr, "gizum-match: cannot start worker threads\n");
    for (int i = 0; i < started; i++) {
        pthread_join(threads[i], NULL);
        free(w[i].engines);
    }
    free(w);
    free(threads);
    pthread_mutex_lock(&t->lock);
    save_state(t);
    char skipped[600];
    if (book_illegal_text(&t->openings.book, c->openings.file, skipped, sizeof skipped))
        fprintf(stderr, "Warning: -openings %s\n", skipped); /* after the walks: the count of them all */
    bool aborted = t->fatal[0] != '\0';
    if (aborted) fprintf(stderr, "gizum-match: error: %s; the run is aborted\n", t->fatal);
    else if (tournament_interrupted(t)) printf("Interrupted: summary of the %ld finished games\n", t->finished);
    else printf("Finished match\n");
    if (!aborted) print_summary(t);
    pthread_mutex_unlock(&t->lock);
    return !aborted;
}
