/*
 * gizum-match: time controls and the tool's own chess clock.
 */
#include "match_clock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double clock_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

bool tc_parse_seconds(const char *text, double *out) {
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !isfinite(v) || v < 0 || v > TC_SECONDS_MAX) return false;
    *out = v;
    return true;
}

bool tc_is_whole_ms(double seconds) {
    double ms = seconds * 1000;
    /* A microsecond of slack for binary fractions (0.1 s); still exact at TC_SECONDS_MAX. */
    return fabs(ms - nearbyint(ms)) < 1e-3;
}

/* "90", "1.5" or "1:30" (minutes:seconds) into seconds. */
static bool parse_time_part(const char *text, double *out) {
    const char *colon = strchr(text, ':');
    if (!colon) return tc_parse_seconds(text, out);
    char minutes[32];
    size_t n = (size_t)(colon - text);
    if (n == 0 || n >= sizeof minutes) return false;
    memcpy(minutes, text, n);
    minutes[n] = '\0';
    double m, s;
    if (!tc_parse_seconds(minutes, &m) || !tc_parse_seconds(colon + 1, &s)) return false;
    *out = m * 60 + s;
    return *out <= TC_SECONDS_MAX;
}

bool tc_parse_clock(TimeControl *tc, const char *text, char *err, size_t errlen) {
    if (strcmp(text, "inf") == 0 || strcmp(text, "infinite") == 0) {
        tc->hasClock = false;
        return true;
    }
    char buf[64];
    if (strlen(text) >= sizeof buf) {
        snprintf(err, errlen, "time control '%s' is too long", text);
        return false;
    }
    strcpy(buf, text);
    int moves = 0;
    char *timePart = buf;
    char *slash = strchr(buf, '/');
    if (slash) {
        *slash = '\0';
        char *end;
        long m = strtol(buf, &end, 10);
        if (end == buf || *end != '\0' || m <= 0 || m > 10000) {
            snprintf(err, errlen, "bad moves per period in time control '%s'", text);
            return false;
        }
        moves = (int)m;
        timePart = slash + 1;
    }
    double inc = 0;
    char *plus = strchr(timePart, '+');
    if (plus) {
        *plus = '\0';
        if (!tc_parse_seconds(plus + 1, &inc)) {
            snprintf(err, errlen, "bad increment in time control '%s'", text);
            return false;
        }
    }
    double base;
    if (!parse_time_part(timePart, &base) || (base <= 0 && inc <= 0)) {
        snprintf(err, errlen, "bad time in time control '%s' (expected [moves/]seconds[+inc], e.g. 10+0.1 or 40/60)", text);
        return false;
    }
    if (!tc_is_whole_ms(base) || !tc_is_whole_ms(inc)) {
        snprintf(err, errlen, "time control '%s' is not in whole milliseconds (engines are told milliseconds)", text);
        return false;
    }
    tc->hasClock = true;
    tc->base = base;
    tc->inc = inc;
    tc->moves = moves;
    return true;
}

bool tc_is_unlimited(const TimeControl *tc) {
    return !tc->hasClock && tc->moveTime <= 0 && tc->nodes <= 0 && tc->depth <= 0;
}

/* Seconds without trailing zeros ("10", "0.1", "0.05"). */
static void format_seconds(double s, char *out, size_t len) {
    snprintf(out, len, "%.3f", s);
    char *p = out + strlen(out) - 1;
    while (*p == '0') *p-- = '\0';
    if (*p == '.') *p = '\0';
}

void tc_format_pgn(const TimeControl *tc, char *out, size_t len) {
    char a[32], b[32];
    if (tc->hasClock) {
        format_seconds(tc->base, a, sizeof a);
        format_seconds(tc->inc, b, sizeof b);
        if (tc->moves > 0 && tc->inc > 0) snprintf(out, len, "%d/%s+%s", tc->moves, a, b);
        else if (tc->moves > 0) snprintf(out, len, "%d/%s", tc->moves, a);
        else snprintf(out, len, "%s+%s", a, b);
    } else if (tc->moveTime > 0) {
        format_seconds(tc->moveTime, a, sizeof a);
        snprintf(out, len, "%s/move", a);
    } else {
        snprintf(out, len, "-");
    }
}

void tc_describe(const TimeControl *tc, char *out, size_t len) {
    char part[64];
    out[0] = '\0';
    if (tc->hasClock) {
        tc_format_pgn(tc, part, sizeof part);
        snprintf(out, len, "%s", part);
    }
    if (tc->moveTime > 0) {
        format_seconds(tc->moveTime, part, sizeof part);
        snprintf(out + strlen(out), len - strlen(out), "%sst=%s", out[0] ? " " : "", part);
    }
    if (tc->nodes > 0)
        snprintf(out + strlen(out), len - strlen(out), "%snodes=%lld", out[0] ? " " : "", tc->nodes);
    if (tc->depth > 0)
        snprintf(out + strlen(out), len - strlen(out), "%sdepth=%d", out[0] ? " " : "", tc->depth);
    if (!out[0]) snprintf(out, len, "inf");
}

void clock_reset(Clock *c, const TimeControl *tc) {
    c->remaining = tc->hasClock ? tc->base : 0;
    c->movesPlayed = 0;
}

int clock_moves_to_go(const Clock *c, const TimeControl *tc) {
    if (!tc->hasClock || tc->moves <= 0) return 0;
    return tc->moves - c->movesPlayed % tc->moves;
}

double clock_allowance(const Clock *c, const TimeControl *tc, double margin, double hangLimit) {
    if (tc->moveTime > 0) return tc->moveTime + margin;
    if (tc->hasClock) return (c->remaining > 0 ? c->remaining : 0) + margin;
    return hangLimit;
}

bool clock_charge(Clock *c, const TimeControl *tc, double elapsed, double margin) {
    c->movesPlayed++;
    if (tc->moveTime > 0) return elapsed <= tc->moveTime + margin;
    if (!tc->hasClock) return true;
    c->remaining -= elapsed;
    if (c->remaining < -margin) return false;
    c->remaining += tc->inc;
    if (tc->moves > 0 && c->movesPlayed % tc->moves == 0) c->remaining += tc->base;
    return true;
}
