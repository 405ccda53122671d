/*
 * Whole-token decimal integers, as every command line and protocol parser
 * here reads them: the whole text is the number (no trailing characters),
 * within [min, max], with overflow refused rather than clamped.
 */
#ifndef GIZUM_NUMPARSE_H
#define GIZUM_NUMPARSE_H

#include <stdbool.h>
#include <stdint.h>

/* A signed integer in [min, max] (strtoll's syntax: optional blanks and sign). */
bool parse_integer(const char *text, int64_t min, int64_t max, int64_t *out);
/* Digits only, the full unsigned 64-bit range (seeds). */
bool parse_unsigned(const char *text, uint64_t *out);

#endif
