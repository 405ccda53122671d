/*
 * gizum-match: an engine as a child process talking through pipes.
 *
 * Lines are read with poll() against a deadline into a bounded buffer, so
 * an engine that floods output, writes garbage, stops answering or dies can
 * never block or crash the tool. Children run in their own process group
 * (a Ctrl-C aimed at the tool does not hit them) and are always reaped.
 */
#ifndef MATCH_PROCESS_H
#define MATCH_PROCESS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Longest line kept; the rest of a longer line is dropped. */
enum { PROC_LINE_MAX = 16384 };

typedef struct {
    pid_t pid;            /* 0 when no child is running */
    int toChild;          /* write end of the child's stdin */
    int fromChild;        /* read end of the child's stdout */
    bool eof;             /* the child closed its stdout */
    bool dropping;        /* skipping the tail of an over-long line */
    size_t start;         /* first unread byte in buf */
    size_t len;           /* end of the buffered bytes */
    int status;           /* wait status once reaped */
    bool reaped;
    char buf[PROC_LINE_MAX];
} Process;

typedef enum { READ_LINE, READ_TIMEOUT, READ_EOF, READ_STOPPED } ReadResult;

/*
 * Starts argv[0] (searched in PATH when it has no '/') in directory dir
 * (NULL = current) with stderr sent to stderrPath (NULL = /dev/null).
 */
bool proc_spawn(Process *p, char *const argv[], const char *dir, const char *stderrPath,
                char *err, size_t errlen);
/* Writes text plus a newline; false if the child is gone or did not take it within timeout seconds. */
bool proc_write_line(Process *p, const char *text, double timeout);
/*
 * Reads one line (without the newline) into line (size PROC_LINE_MAX) before
 * the monotonic time deadline; gives up early when *stop becomes true.
 */
ReadResult proc_read_line(Process *p, char *line, double deadline, const atomic_bool *stop);
/* True while the child has not exited (reaps it when it has). */
bool proc_alive(Process *p);
/* Waits up to grace seconds for the child to exit, then TERM, then KILL; always reaps. */
void proc_terminate(Process *p, double grace);
/* "exit status 3", "signal 11 (Segmentation fault)", "running". */
void proc_describe_exit(const Process *p, char *out, size_t len);

#endif
