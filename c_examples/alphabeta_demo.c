/*
 * An alpha-beta demo in C in the style of the first document's: read the number of leaves
 * and their utilities, then print the optimal value and how many leaves alpha-beta
 * evaluated. Bad input gets a message on stderr and exit status 1.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "minimax.h"
#include "read_input.h"

int main(void) {
    long x;
    int h;
    int *values = demo_read_leaves(&x, &h);
    int res = alphabeta(h, 0, 0, true, values, INT_MIN, INT_MAX);
    if (mm_last_error() != MM_OK) {
        demo_fail("alphabeta failed", mm_error_message(mm_last_error()));
    }
    /* The checked API reports what the same search did. */
    mm_solution s;
    mm_status status = mm_solve_leaves(values, (size_t)x, 2, true, MM_ALGORITHM_ALPHABETA, &s);
    if (status != MM_OK) {
        demo_fail("mm_solve_leaves failed", mm_error_message(status));
    }
    printf("The optimal value is :%d\n", res);
    printf("Alpha-beta evaluated %llu of %ld leaves\n", (unsigned long long)s.stats.leaves, x);
    free(values);
    return 0;
}
