/*
 * A minimal test harness: CHECK counts, failures print where and why, and
 * every test program ends with the line "N passed, M failed".
 *
 * What one check is: one property, a claim about the code that can fail on
 * its own. A claim made on many cases (every position of a suite, every
 * move, every square, every row of a table, every sample) is still one
 * check: CHECK_EACH or a Property, whose failure names the first failing
 * case and how many of how many cases failed. A hand-written case (a named
 * position with its worked-out answer) is a check of its own.
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
 * One property over many cases, named: EXPECT records each case and keeps
 * the first failure's text, CHECK_PROPERTY then counts the whole as one
 * check (and fails a property that saw no case at all: a loop over nothing
 * proves nothing).
 *
 *     static Property Distinct;
 *     for (...) EXPECT(&Distinct, a != b, "moves %d and %d share SAN '%s' at %s", i, j, san, fen);
 *     ...
 *     CHECK_PROPERTY(&Distinct);
 */
typedef struct Property {
    long cases, failures;
    int line; /* the EXPECT that failed first (CHECK_EACH: its own line) */
    char first[512];
    const char *file;      /* CHECK_EACH's only: where it stands */
    struct Property *next; /* CHECK_EACH's only: the next one reached */
} Property;

#define EXPECT(prop, cond, ...)                                                       \
    do {                                                                              \
        (prop)->cases++;                                                              \
        if (!(cond) && (prop)->failures++ == 0) {                                     \
            (prop)->line = __LINE__;                                                  \
            /* A long message is cut short, which is fine (the result is used, so     \
             * gcc does not warn about the truncation). */                            \
            if (snprintf((prop)->first, sizeof (prop)->first, __VA_ARGS__) < 0)       \
                (prop)->first[0] = '\0';                                              \
        }                                                                             \
    } while (0)

#define CHECK_PROPERTY(prop)                                                          \
    CHECK((prop)->failures == 0 && (prop)->cases > 0,                                 \
          "%s (first failure at line %d; %ld of %ld cases failed)",                   \
          (prop)->cases ? (prop)->first : "no case was checked", (prop)->line,        \
          (prop)->failures, (prop)->cases)

/*
 * CHECK_EACH(cond, ...): a CHECK made on each of many cases (inside a loop,
 * or in a function called once per position), counted once: each
 * CHECK_EACH line is one property over every time it runs. Its first
 * failure is printed at once; test_report counts it, saying how many of
 * how many cases failed. A line never reached counts nothing.
 */
static Property *EachFirst, **EachLast = &EachFirst;

#define CHECK_EACH(cond, ...)                                                         \
    do {                                                                              \
        static Property each_;                                                        \
        if (!each_.file) {                                                            \
            each_.file = __FILE__;                                                    \
            *EachLast = &each_;                                                       \
            EachLast = &each_.next;                                                   \
        }                                                                             \
        long failedBefore_ = each_.failures;                                          \
        EXPECT(&each_, cond, __VA_ARGS__);                                            \
        if (failedBefore_ == 0 && each_.failures == 1)                                \
            fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, each_.first);     \
    } while (0)

/* Counts every CHECK_EACH, prints the closing count line; returns the process exit status. */
static inline int test_report(void) {
    for (Property *p = EachFirst; p; p = p->next) {
        if (p->failures == 0) {
            tests_passed++;
            continue;
        }
        tests_failed++;
        fprintf(stderr, "FAIL %s:%d: %ld of %ld cases failed (the first is above)\n", p->file, p->line, p->failures,
                p->cases);
    }
    EachFirst = NULL;
    EachLast = &EachFirst;
    printf("%d passed, %d failed\n", tests_passed, tests_failed);
    return tests_failed != 0;
}

#endif
