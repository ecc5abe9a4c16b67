/* A program with names of its own that the library's Rust API also uses: the public
   header declares none of them, so they do not collide. */
typedef struct { int from, to; } Move;
#define BLOCK_HEIGHT 3
#define MAX_THREADS 4
#define MAX_CHANCE_HEIGHT 5
#define ANY_OUTCOME 6
#define MAX_PLIES 7
static const int Table = 1;
#include "minimax.h"

int own_names(void) {
    Move m = {1, 2};
    return m.from + m.to + BLOCK_HEIGHT + MAX_THREADS + MAX_CHANCE_HEIGHT + ANY_OUTCOME + MAX_PLIES + Table;
}
