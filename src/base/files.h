/*
 * Files named by the user, read and written the one careful way (issue
 * #38): what is read must be a regular file (a directory is named as one, a
 * FIFO is never waited on), and what is written never replaces anything
 * but a regular file.
 *
 *   file_open_read        a regular file to read
 *   file_write_begin/..   a whole file (a book, weights, a state): written
 *                         to a temporary file beside its target and renamed
 *                         over it, so that readers see the old file or the
 *                         new one, never half of one; a symbolic link is
 *                         followed and its target replaced, the link kept
 *   file_open_output      a file written as it goes (PGN of a match, a log),
 *                         emptied first or appended to
 *
 * Every error text holds "PATH: reason" ("cannot open books: is a directory",
 * "cannot write /dev/sda: not a regular file (a device)").
 */
#ifndef GIZUM_FILES_H
#define GIZUM_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Opens a regular file for reading (binary); NULL with err "cannot open
 * PATH: reason" otherwise, errno kept. size (may be NULL) receives its length.
 */
FILE *file_open_read(const char *path, uint64_t *size, char *err, size_t errlen);

/* A whole file being written; write to f between file_write_begin and file_write_commit. */
typedef struct {
    FILE *f;
    char *target;  /* the file replaced at the end: path, or what its symbolic link names */
    char *tmp;     /* the temporary file beside it */
} FileWriter;

/* Starts writing path; false with err "cannot write PATH: reason" when it names a directory, FIFO or device. */
bool file_write_begin(FileWriter *w, const char *path, char *err, size_t errlen);

/*
 * Whether file_write_begin would accept path now (true), or why not: for a
 * tool that writes at the end of a long run, so that it says so at once.
 */
bool file_write_check(const char *path, char *err, size_t errlen);

/* Finishes: flushed, on the disk, renamed over the target. False (target untouched) on any error. */
bool file_write_commit(FileWriter *w, char *err, size_t errlen);

/* Gives up: the temporary file is removed and the target left as it was. */
void file_write_abort(FileWriter *w);

/*
 * Opens a file written as it goes: appended to when append, else emptied;
 * created if missing. NULL with err "cannot write PATH: reason" for what is not a
 * regular file. file_output_fd is the same as a descriptor (appends of
 * whole records from several threads).
 */
FILE *file_open_output(const char *path, bool append, char *err, size_t errlen);
int file_output_fd(const char *path, bool append, char *err, size_t errlen);

/*
 * Appends length bytes of text to fd (from file_output_fd) in full, or not
 * at all: when the disk refuses, the file is cut back to where it ended and
 * err gets "write failed: reason" (and whether the cut failed too).
 */
bool file_append_whole(int fd, const char *text, size_t length, char *err, size_t errlen);

#endif
