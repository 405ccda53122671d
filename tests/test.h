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

/*
 * One property over a loop (every move of a position, every pair, every
 * sample): EXPECT records each failure and keeps the first one's text,
 * CHECK_PROPERTY then counts the whole loop as one check, so the pass count
 * counts properties, not loop sizes.
 *
 *     Property distinct = {0};
 *     for (...) EXPECT(&distinct, a != b, "moves %d and %d share SAN '%s'", i, j, san);
 *     CHECK_PROPERTY(&distinct);
 */
typedef struct {
    int failures, line; /* line: the EXPECT that failed first */
    char first[512];
} Property;

#define EXPECT(prop, cond, ...)                                                       \
    do {                                                                              \
        if (!(cond) && (prop)->failures++ == 0) {                                     \
            (prop)->line = __LINE__;                                                  \
            /* A long message is cut short, which is fine (the result is used, so      \
             * gcc does not warn about the truncation). */                            \
            if (snprintf((prop)->first, sizeof (prop)->first, __VA_ARGS__) < 0)       \
                (prop)->first[0] = '\0';                                              \
        }                                                                             \
    } while (0)

#define CHECK_PROPERTY(prop)                                                          \
    CHECK((prop)->failures == 0, "%s (first failure at line %d; %d in all)", (prop)->first, \
          (prop)->line, (prop)->failures)

/* Prints the closing count line; returns the process exit status. */
static inline int test_report(void) {
    printf("%d passed, %d failed\n", tests_passed, tests_failed);
    return tests_failed != 0;
}

#endif
