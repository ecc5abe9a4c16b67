/*
 * The first document's demo, linked against libminimax: read the number of leaves and
 * their utilities, then print the value of the root for the maximizing player.
 *
 * For valid input its output is byte for byte the document program's. Unlike that
 * program, it takes any power-of-two leaf count up to 2^24 in memory it allocates, and
 * it rejects bad input with a message on stderr and exit status 1.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "minimax.h"
#include "read_input.h"

int main(void) {
    printf("Enter no of leaf nodes :");
    int h;
    long x = demo_read_leaf_count(&h);
    int *scores = demo_alloc_leaves(x);
    printf("\nENter terminal utility\n");
    for (long i = 0; i < x; i++) {
        printf("Utility %ld :", i);
        scores[i] = (int)demo_read_long("a utility", INT_MIN, INT_MAX);
        printf("\n");
    }
    int res = minimax(0, 0, true, scores, h);
    if (mm_last_error() != MM_OK) {
        demo_fail("minimax failed", mm_error_message(mm_last_error()));
    }
    printf("The optimal value is :%d", res);
    free(scores);
    return 0;
}
