/* The C Connect Four of c_examples/connect4_game.h as a shared library a Python program
   loads with ctypes: c4_create gives an mm_game (and its position) to search by address. */
#include <stdlib.h>

#include "connect4_game.h"

typedef struct {
    mm_game game; /* first: the object's address is the game's */
    position pos;
} c4;

c4 *c4_create(const char *line) {
    c4 *g = malloc(sizeof *g);
    if (!g) return NULL;
    c4_reset(&g->pos);
    if (c4_setup(&g->pos, line)) {
        free(g);
        return NULL;
    }
    g->game = c4_game(&g->pos);
    return g;
}

void c4_destroy(c4 *g) { free(g); }

/* The header's solver options are for C programs; keep the compiler from warning. */
void *c4_unused(void) { return (void *)c4_solver_options; }
