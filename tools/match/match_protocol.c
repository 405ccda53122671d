/*
 * gizum-match: the line I/O of an engine process, logged and with deadlines.
 */
#include "match_protocol.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Writes one line of traffic to the shared log. */
static void log_line(Engine *e, char dir, const char *line) {
    if (!e->log || !e->log->file) return;
    pthread_mutex_lock(&e->log->lock);
    fprintf(e->log->file, "%9.3f %s(%d) %c %s\n", clock_now() - e->log->t0, e->name, (int)e->proc.pid,
            dir, line);
    fflush(e->log->file);
    pthread_mutex_unlock(&e->log->lock);
}

bool proto_send(Engine *e, const char *fmt, ...) {
    char line[8192];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    char *big = NULL;
    if (n >= (int)sizeof line) { /* very long position commands */
        big = malloc((size_t)n + 1);
        if (!big) return false;
        va_start(ap, fmt);
        vsnprintf(big, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    log_line(e, '>', big ? big : line);
    bool ok = proc_write_line(&e->proc, big ? big : line, PROTO_WRITE_TIMEOUT);
    free(big);
    return ok;
}

ReadResult proto_read(Engine *e, char *line, double deadline) {
    ReadResult r = proc_read_line(&e->proc, line, deadline, e->stop);
    if (r == READ_LINE) {
        log_line(e, '<', line);
        snprintf(e->lastLine, sizeof e->lastLine, "%s", line);
    }
    return r;
}

void proto_describe_failure(Engine *e, ReadResult r, double waited, char *out, size_t len) {
    if (r == READ_EOF) {
        char how[96];
        proc_terminate(&e->proc, 0.2);
        proc_describe_exit(&e->proc, how, sizeof how);
        snprintf(out, len, "engine exited (%s)", how);
    } else if (r == READ_STOPPED) {
        snprintf(out, len, "interrupted");
    } else {
        snprintf(out, len, "no answer within %.1f s", waited);
    }
}

bool proto_handshake(Engine *e, const char *command, bool (*accept)(Engine *e, const char *line, int arg), int arg,
                     const char *what, double timeout, char *err, size_t errlen) {
    if (!proto_send(e, "%s", command)) {
        snprintf(err, errlen, "cannot write to engine (it has exited)");
        return false;
    }
    char *line = malloc(PROC_LINE_MAX);
    if (!line) return false;
    double start = clock_now();
    bool ok = false;
    for (;;) {
        ReadResult r = proto_read(e, line, start + timeout);
        if (r == READ_LINE) {
            if (accept(e, line, arg)) {
                ok = true;
                break;
            }
            continue;
        }
        char why[160];
        proto_describe_failure(e, r, timeout, why, sizeof why);
        snprintf(err, errlen, "stalled at %s: %s", what, why);
        break;
    }
    free(line);
    return ok;
}

bool proto_list_has(const char *list, const char *name) {
    size_t n = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len == n && strncasecmp(p, name, n) == 0) return true;
        p = nl ? nl + 1 : NULL;
    }
    return false;
}

const char *proto_skip_blanks(const char *s) {
    while (*s == ' ' || *s == '\t') s++;
    return s;
}

const char *proto_token(const char *s, char *tok, size_t len) {
    s = proto_skip_blanks(s);
    size_t n = 0;
    while (*s && *s != ' ' && *s != '\t') {
        if (n + 1 < len) tok[n++] = *s;
        s++;
    }
    tok[n] = '\0';
    return n ? s : NULL;
}

void engine_stop(Engine *e, double grace) {
    if (e->proc.pid > 0 && !e->proc.reaped) {
        if (e->proc.toChild >= 0) proto_send(e, "quit");
        proc_terminate(&e->proc, grace);
    }
    e->running = false;
}

void engine_option_value(const EngineOption *o, int game, char *out, size_t len) {
    const char *p = o->value;
    if (o->rotate) {
        int count = 1;
        for (const char *c = p; *c; c++) count += *c == ',';
        for (int skip = game % count; skip > 0; skip--) p = strchr(p, ',') + 1;
    }
    size_t n = o->rotate && strchr(p, ',') ? (size_t)(strchr(p, ',') - p) : strlen(p);
    snprintf(out, len, "%.*s", (int)n, p);
}
