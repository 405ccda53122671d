/*
 * Files named by the user, opened the one careful way (issue
 * #38): what is read must be a regular file (a directory is named as one, a
 * FIFO is never waited on).
 *
 * Every error text holds "PATH: reason" ("cannot open books: is a directory").
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


#endif
