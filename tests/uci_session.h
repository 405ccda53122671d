/*
 * A UCI session with the real engine binary (path in env GIZUM), or with
 * another UCI program such as an oracle engine, over pipes, for protocol
 * tests: send lines, read lines with timeouts (never hang), keep every line
 * read, kill the engine at the end if it does not quit.
 */
#ifndef GIZUM_TEST_UCI_SESSION_H
#define GIZUM_TEST_UCI_SESSION_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { SESSION_LINE_MAX = 1 << 15, SESSION_MAX_LINES = 1 << 14 };

typedef struct {
    pid_t pid;
    int toEngine, fromEngine;
    char buf[1 << 16];
    size_t len;
    bool eof;
    char *lines[SESSION_MAX_LINES]; /* every line read since the last session_forget */
    int count;
    int closeBestmoves;             /* set by session_close: bestmove lines kept before it plus read by it */
} Session;

static inline long long session_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Starts the program at path (no arguments), e.g. an oracle engine; false if it cannot be started. */
static inline bool session_open_program(Session *s, const char *path) {
    int in[2], out[2];
    memset(s, 0, sizeof *s);
    if (pipe(in) != 0) return false;
    if (pipe(out) != 0) {
        close(in[0]);
        close(in[1]);
        return false;
    }
    signal(SIGPIPE, SIG_IGN);
    s->pid = fork();
    if (s->pid < 0) return false;
    if (s->pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        execl(path, path, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    s->toEngine = in[1];
    s->fromEngine = out[0];
    return true;
}

/* Starts the engine under test ($GIZUM, default ./gizum); false if it cannot be started. */
static inline bool session_open(Session *s) {
    const char *path = getenv("GIZUM");
    return session_open_program(s, path ? path : "./gizum");
}

/* Writes raw bytes (errors such as a dead engine are left to the reads to notice). */
static inline void session_write(Session *s, const void *data, size_t size) {
    const char *p = data;
    while (size > 0) {
        ssize_t n = write(s->toEngine, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        p += n;
        size -= (size_t)n;
    }
}

static inline void session_send(Session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void session_send(Session *s, const char *fmt, ...) {
    char line[SESSION_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if (n > (int)sizeof line - 2) n = (int)sizeof line - 2;
    line[n++] = '\n';
    session_write(s, line, (size_t)n);
}

/* Reads one line within timeoutMs; NULL on timeout or end of output. The line is kept in s->lines. */
static inline const char *session_read(Session *s, int timeoutMs) {
    long long deadline = session_now_ms() + timeoutMs;
    for (;;) {
        char *nl = memchr(s->buf, '\n', s->len);
        if (nl) {
            size_t n = (size_t)(nl - s->buf);
            char *line = malloc(n + 1);
            memcpy(line, s->buf, n);
            line[n] = '\0';
            memmove(s->buf, nl + 1, s->len - n - 1);
            s->len -= n + 1;
            if (s->count < SESSION_MAX_LINES) s->lines[s->count++] = line;
            else free(line);
            return s->count <= SESSION_MAX_LINES ? s->lines[s->count - 1] : NULL;
        }
        if (s->eof) return NULL;
        long long left = deadline - session_now_ms();
        if (left < 0) left = 0; /* timeout 0 (or passed): still take what is already in the pipe */
        struct pollfd pfd = {.fd = s->fromEngine, .events = POLLIN};
        int rc = poll(&pfd, 1, (int)left);
        if (rc < 0 && errno == EINTR) continue;
        if (rc <= 0) return NULL;
        if (s->len >= sizeof s->buf - 1) s->len = 0; /* absurdly long line: drop it */
        ssize_t got = read(s->fromEngine, s->buf + s->len, sizeof s->buf - 1 - s->len);
        if (got <= 0) s->eof = true;
        else s->len += (size_t)got;
    }
}

static inline bool starts_with(const char *line, const char *prefix) {
    return strncmp(line, prefix, strlen(prefix)) == 0;
}

/* Reads until a line starting with prefix; that line, or NULL on timeout. */
static inline const char *session_expect(Session *s, const char *prefix, int timeoutMs) {
    long long deadline = session_now_ms() + timeoutMs;
    for (;;) {
        long long left = deadline - session_now_ms();
        const char *line = session_read(s, left > 0 ? (int)left : 0);
        if (!line) return NULL;
        if (starts_with(line, prefix)) return line;
    }
}

/* True if no line starting with prefix arrives within ms (other lines are read and kept). */
static inline bool session_quiet(Session *s, const char *prefix, int ms) {
    return session_expect(s, prefix, ms) == NULL;
}

/* Forgets the lines read so far. */
static inline void session_forget(Session *s) {
    for (int i = 0; i < s->count; i++) free(s->lines[i]);
    s->count = 0;
}

/* Number of kept lines starting with prefix. */
static inline int session_count(const Session *s, const char *prefix) {
    int n = 0;
    for (int i = 0; i < s->count; i++) n += starts_with(s->lines[i], prefix);
    return n;
}

/* The last kept line starting with prefix, or NULL. */
static inline const char *session_last(const Session *s, const char *prefix) {
    for (int i = s->count - 1; i >= 0; i--)
        if (starts_with(s->lines[i], prefix)) return s->lines[i];
    return NULL;
}

/*
 * Closes stdin (end of input) and waits up to timeoutMs for the exit, reading
 * (and counting the bestmove lines of) everything the engine still writes;
 * kills it after the timeout. Returns the exit status or -1.
 */
static inline int session_close(Session *s, int timeoutMs) {
    if (s->toEngine >= 0) close(s->toEngine);
    s->toEngine = -1;
    long long deadline = session_now_ms() + timeoutMs;
    int status = 0, result = -1, bestmoves = session_count(s, "bestmove");
    for (;;) {
        /* Drain output so the engine never blocks on a full pipe. */
        for (const char *l; (l = session_read(s, 0)) != NULL;) {
            bestmoves += starts_with(l, "bestmove");
            if (s->count >= SESSION_MAX_LINES - 1) session_forget(s);
        }
        pid_t r = waitpid(s->pid, &status, WNOHANG);
        if (r == s->pid) {
            result = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            break;
        }
        if (session_now_ms() > deadline) {
            kill(s->pid, SIGKILL);
            waitpid(s->pid, &status, 0);
            break;
        }
        struct timespec ts = {0, 2 * 1000000};
        nanosleep(&ts, NULL);
    }
    for (const char *l; (l = session_read(s, 0)) != NULL;) bestmoves += starts_with(l, "bestmove");
    close(s->fromEngine);
    session_forget(s);
    s->closeBestmoves = bestmoves;
    return result;
}

/* The integer after " key " in an info line, or def. */
static inline long long info_int(const char *line, const char *key, long long def) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, " %s ", key);
    const char *p = strstr(line, pattern);
    return p ? atoll(p + strlen(pattern)) : def;
}

/* The text after " key " up to the end of the line, or NULL. */
static inline const char *info_rest(const char *line, const char *key) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, " %s ", key);
    const char *p = strstr(line, pattern);
    return p ? p + strlen(pattern) : NULL;
}

#endif
