/*
 * Input helpers shared by the scanf-style demos: read whole-number tokens from stdin and
 * fail with a clear message on anything else. Not part of the library; examples only.
 */
#ifndef MM_EXAMPLES_READ_INPUT_H
#define MM_EXAMPLES_READ_INPUT_H

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

/* The largest leaf count the demos accept: 2^24 leaves (64 MiB of int). */
#define DEMO_MAX_LEAVES (1L << 24)

/* Prints "error: <what>" on stderr and exits with status 1. */
static void demo_fail(const char *what, const char *detail) {
    fprintf(stderr, "error: %s%s%s\n", what, detail[0] ? ": " : "", detail);
    exit(1);
}

/*
 * Reads the next whitespace-separated token as a long within [lo, hi]. End of input, a
 * token that is not a whole number, or one outside the range ends the program with a
 * message naming `what`.
 */
static long demo_read_long(const char *what, long lo, long hi) {
    char token[64];
    size_t len = 0;
    int c;
    do {
        c = getchar();
    } while (c != EOF && isspace(c));
    if (c == EOF) {
        fprintf(stderr, "error: end of input while reading %s\n", what);
        exit(1);
    }
    while (c != EOF && !isspace(c)) {
        if (len + 1 >= sizeof token) {
            fprintf(stderr, "error: %s is too long to be a number\n", what);
            exit(1);
        }
        token[len++] = (char)c;
        c = getchar();
    }
    token[len] = '\0';
    char *end = NULL;
    errno = 0;
    long value = strtol(token, &end, 10);
    if (end == token || *end != '\0') {
        fprintf(stderr, "error: %s is not a whole number: \"%s\"\n", what, token);
        exit(1);
    }
    if (errno == ERANGE || value < lo || value > hi) {
        fprintf(stderr, "error: %s is out of range [%ld, %ld]: %s\n", what, lo, hi, token);
        exit(1);
    }
    return value;
}

/* Reads a leaf count: a power of two from 1 to DEMO_MAX_LEAVES. Returns it and its log2. */
static long demo_read_leaf_count(int *height) {
    long x = demo_read_long("the number of leaf nodes", LONG_MIN, LONG_MAX);
    if (x <= 0 || x > DEMO_MAX_LEAVES || (x & (x - 1)) != 0) {
        fprintf(stderr, "error: the number of leaf nodes must be a power of two from 1 to %ld, not %ld\n",
                DEMO_MAX_LEAVES, x);
        exit(1);
    }
    int h = 0;
    while ((1L << h) < x) {
        h++;
    }
    *height = h;
    return x;
}

/* Allocates room for `count` ints, or ends the program. */
static int *demo_alloc_leaves(long count) {
    int *leaves = (int *)malloc((size_t)count * sizeof *leaves);
    if (leaves == NULL) {
        demo_fail("out of memory", "");
    }
    return leaves;
}

/*
 * The first document's dialogue: prompts for the number of leaves and each utility, as
 * the document prints them, and returns the leaves (malloc'd), their count and log2.
 */
static int *demo_read_leaves(long *count, int *height) {
    printf("Enter no of leaf nodes :");
    long x = demo_read_leaf_count(height);
    int *leaves = demo_alloc_leaves(x);
    printf("\nENter terminal utility\n");
    for (long i = 0; i < x; i++) {
        printf("Utility %ld :", i);
        leaves[i] = (int)demo_read_long("a utility", INT_MIN, INT_MAX);
        printf("\n");
    }
    *count = x;
    return leaves;
}

#endif
