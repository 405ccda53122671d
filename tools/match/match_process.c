/*
 * gizum-match: an engine as a child process talking through pipes.
 */
#include "match_process.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "match_clock.h"

/* Longest single poll() sleep, so stop requests are seen quickly. */
static const double POLL_SLICE = 0.05;

/*
 * Pipes are created and marked close-on-exec under one lock, and children
 * are forked under it too, so an engine started by one worker thread never
 * inherits another engine's pipe ends (which would hide that engine's exit).
 */
static pthread_mutex_t spawnLock = PTHREAD_MUTEX_INITIALIZER;

/* Sleeps for a short while (used only while waiting for a child to exit). */
static void nap(double seconds) {
    struct timespec ts = { (time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9) };
    nanosleep(&ts, NULL);
}

/* Marks fd close-on-exec (and optionally non-blocking). */
static void set_fd_flags(int fd, bool nonblock) {
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    if (nonblock) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

bool proc_spawn(Process *p, char *const argv[], const char *dir, const char *stderrPath,
                char *err, size_t errlen) {
    memset(p, 0, sizeof *p);
    if (errlen) err[0] = '\0';
    p->toChild = p->fromChild = -1;
    int in[2], out[2], errFd;
    pthread_mutex_lock(&spawnLock);
    if (pipe(in) != 0) goto fail_none;
    if (pipe(out) != 0) goto fail_in;
    errFd = open(stderrPath ? stderrPath : "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (errFd < 0) {
        snprintf(err, errlen, "cannot open '%s' for engine stderr: %s", stderrPath ? stderrPath : "/dev/null",
                 strerror(errno));
        goto fail_out;
    }
    set_fd_flags(in[0], false);
    set_fd_flags(in[1], true);
    set_fd_flags(out[0], true);
    set_fd_flags(out[1], false);
    set_fd_flags(errFd, false);
    pid_t pid = fork();
    if (pid < 0) {
        close(errFd);
        goto fail_out;
    }
    if (pid == 0) {
        /* Child: only async-signal-safe calls until exec. */
        setpgid(0, 0);
        dup2(in[0], 0);
        dup2(out[1], 1);
        dup2(errFd, 2);
        signal(SIGPIPE, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        if (dir && chdir(dir) != 0) _exit(126);
        execvp(argv[0], argv);
        _exit(127);
    }
    pthread_mutex_unlock(&spawnLock);
    close(in[0]);
    close(out[1]);
    close(errFd);
    p->pid = pid;
    p->toChild = in[1];
    p->fromChild = out[0];
    return true;

fail_out:
    close(out[0]);
    close(out[1]);
fail_in:
    close(in[0]);
    close(in[1]);
fail_none:
    if (errlen && !err[0]) snprintf(err, errlen, "cannot start '%s': %s", argv[0], strerror(errno));
    pthread_mutex_unlock(&spawnLock);
    return false;
}

bool proc_write_line(Process *p, const char *text, double timeout) {
    if (p->toChild < 0) return false;
    size_t n = strlen(text);
    char *msg = malloc(n + 1);
    if (!msg) return false;
    memcpy(msg, text, n);
    msg[n] = '\n';
    size_t done = 0;
    double deadline = clock_now() + timeout;
    while (done < n + 1) {
        ssize_t w = write(p->toChild, msg + done, n + 1 - done);
        if (w > 0) {
            done += (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            double left = deadline - clock_now();
            if (left <= 0) break;
            struct pollfd pfd = { p->toChild, POLLOUT, 0 };
            poll(&pfd, 1, (int)(left * 1000) + 1);
            continue;
        }
        break; /* EPIPE: the child is gone */
    }
    free(msg);
    return done == n + 1;
}

/* Takes one complete line from the buffer if there is one. */
static bool take_line(Process *p, char *line) {
    for (;;) {
        char *begin = p->buf + p->start;
        size_t avail = p->len - p->start;
        char *nl = memchr(begin, '\n', avail);
        if (!nl) {
            if (avail < sizeof p->buf) return false;
            /* Over-long line: deliver what we have, drop the rest of it. */
            p->start = p->len = 0;
            if (p->dropping) return false;
            memcpy(line, p->buf, sizeof p->buf - 1);
            line[sizeof p->buf - 1] = '\0';
            p->dropping = true;
            return true;
        }
        size_t n = (size_t)(nl - begin);
        bool skip = p->dropping;
        if (!skip) {
            memcpy(line, begin, n);
            line[n] = '\0';
            if (n > 0 && line[n - 1] == '\r') line[n - 1] = '\0';
        }
        p->dropping = false;
        p->start += n + 1;
        if (p->start == p->len) p->start = p->len = 0;
        if (!skip) return true;
    }
}

/* Moves unread bytes to the front so the buffer has room to read into. */
static void compact(Process *p) {
    if (p->start == 0) return;
    memmove(p->buf, p->buf + p->start, p->len - p->start);
    p->len -= p->start;
    p->start = 0;
}

ReadResult proc_read_line(Process *p, char *line, double deadline, const atomic_bool *stop) {
    for (;;) {
        if (take_line(p, line)) return READ_LINE;
        if (p->eof || p->fromChild < 0) {
            if (p->len > p->start && !p->dropping) { /* last line without newline */
                memcpy(line, p->buf + p->start, p->len - p->start);
                line[p->len - p->start] = '\0';
                p->start = p->len = 0;
                return READ_LINE;
            }
            return READ_EOF;
        }
        if (stop && atomic_load(stop)) return READ_STOPPED;
        double left = deadline - clock_now();
        if (left <= 0) return READ_TIMEOUT;
        if (left > POLL_SLICE) left = POLL_SLICE;
        struct pollfd pfd = { p->fromChild, POLLIN, 0 };
        int r = poll(&pfd, 1, (int)(left * 1000) + 1);
        if (r < 0 && errno != EINTR) {
            p->eof = true;
            continue;
        }
        if (r <= 0) continue;
        compact(p);
        ssize_t got = read(p->fromChild, p->buf + p->len, sizeof p->buf - p->len);
        if (got > 0) p->len += (size_t)got;
        else if (got == 0 || (errno != EAGAIN && errno != EINTR && errno != EWOULDBLOCK)) p->eof = true;
    }
}

bool proc_alive(Process *p) {
    if (p->pid <= 0) return false;
    if (p->reaped) return false;
    int status;
    pid_t r = waitpid(p->pid, &status, WNOHANG);
    if (r == p->pid || (r < 0 && errno == ECHILD)) {
        p->status = r == p->pid ? status : 0;
        p->reaped = true;
        return false;
    }
    return true;
}

/* Waits up to seconds for the child to exit; true once it is reaped. */
static bool wait_exit(Process *p, double seconds) {
    double deadline = clock_now() + seconds;
    while (proc_alive(p)) {
        if (clock_now() >= deadline) return false;
        nap(0.005);
    }
    return true;
}

void proc_terminate(Process *p, double grace) {
    if (p->toChild >= 0) {
        close(p->toChild);
        p->toChild = -1;
    }
    if (p->pid > 0 && !p->reaped) {
        if (!wait_exit(p, grace)) {
            kill(-p->pid, SIGTERM);
            kill(p->pid, SIGTERM);
            if (!wait_exit(p, 0.5)) {
                kill(-p->pid, SIGKILL);
                kill(p->pid, SIGKILL);
                int status;
                if (waitpid(p->pid, &status, 0) == p->pid) p->status = status;
                p->reaped = true;
            }
        }
        /* Leftovers of the engine's process group (e.g. behind a wrapper script). */
        kill(-p->pid, SIGKILL);
    }
    if (p->fromChild >= 0) {
        close(p->fromChild);
        p->fromChild = -1;
    }
    p->eof = true;
}

void proc_describe_exit(const Process *p, char *out, size_t len) {
    if (!p->reaped) snprintf(out, len, "still running");
    else if (WIFEXITED(p->status)) {
        int code = WEXITSTATUS(p->status);
        if (code == 127) snprintf(out, len, "exit status 127 (command not found?)");
        else snprintf(out, len, "exit status %d", code);
    } else if (WIFSIGNALED(p->status))
        snprintf(out, len, "killed by signal %d (%s)", WTERMSIG(p->status), strsignal(WTERMSIG(p->status)));
    else snprintf(out, len, "status %d", p->status);
}
