#include "numparse.h"

#include <errno.h>
#include <stdlib.h>

bool parse_integer(const char *text, int64_t min, int64_t max, int64_t *out) {
    if (!text || !*text) return false;
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE || v < min || v > max) return false;
    *out = v;
    return true;
}

bool parse_unsigned(const char *text, uint64_t *out) {
    if (!text || *text < '0' || *text > '9') return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (*end != '\0' || errno == ERANGE) return false;
    *out = v;
    return true;
}
