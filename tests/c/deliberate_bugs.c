/* Bugs on purpose, to show that the sanitizer and valgrind runs catch them
   (tests/c_programs/check_mode.rs): a leak, a heap overflow, signed overflow. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    const char *what = argc > 1 ? argv[1] : "";
    volatile int big = INT_MAX;
    int *p = malloc(4 * sizeof *p);
    if (!p)
        return 2;
    memset(p, 0, 4 * sizeof *p);
    if (strcmp(what, "leak") == 0) {
        p = NULL; /* the block is lost */
        return 0;
    }
    if (strcmp(what, "overflow") == 0)
        printf("%d\n", p[4]); /* one past the end */
    if (strcmp(what, "ub") == 0)
        printf("%d\n", big + 1);
    free(p);
    return 0;
}
