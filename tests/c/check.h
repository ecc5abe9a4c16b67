/*
 * The C test programs' one assertion: CHECK(cond) counts the check, and on failure says
 * which line failed on stderr and counts the failure. A program prints its summary line
 * ending in "failures N" (the Rust side asserts N is 0) and exits non-zero on failure.
 */
#ifndef MM_TEST_CHECK_H
#define MM_TEST_CHECK_H

#include <stdio.h>

static int failures, checks;
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "line %d: check failed: %s\n", __LINE__, #cond);                       \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

#endif
