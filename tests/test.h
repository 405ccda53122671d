/*
 * A minimal test harness: CHECK counts, failures print where and why, and
 * every test program ends with the line "N passed, M failed".
 */
#ifndef GIZUM_TEST_H
#define GIZUM_TEST_H

#include <stdio.h>

static int tests_passed, tests_failed;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (cond) {                                                        \
            tests_passed++;                                                \
        } else {                                                           \
            tests_failed++;                                                \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);           \
            fprintf(stderr, __VA_ARGS__);                                  \
            fputc('\n', stderr);                                           \
        }                                                                  \
    } while (0)

/* Prints the closing count line; returns the process exit status. */
static inline int test_report(void) {
    printf("%d passed, %d failed\n", tests_passed, tests_failed);
    return tests_failed != 0;
}

#endif
