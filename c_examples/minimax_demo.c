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
    long x;
    int h;
    int *scores = demo_read_leaves(&x, &h);
    int res = minimax(0, 0, true, scores, h);
    if (mm_last_error() != MM_OK) {
        demo_fail("minimax failed", mm_error_message(mm_last_error()));
    }
    printf("The optimal value is :%d", res);
    free(scores);
    return 0;
}
