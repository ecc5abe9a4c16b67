/*
 * Tic-tac-toe on libminimax's game engine: the first document's game (1 for a win by X,
 * 0 for a draw, -1 for a loss; X is MAX and moves first).
 *
 *   tictactoe          you play X against the computer: type squares 1 to 9
 *   tictactoe --o      you play O
 *   tictactoe --solve  the value of the empty board, with nodes and time per algorithm
 */
#define _POSIX_C_SOURCE 199309L
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <ctype.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>

#include "minimax.h"

typedef struct {
    int cells[9]; /* 1 X, -1 O, 0 empty */
    int count;
} board;

static const int lines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};

static int winner(const board *b) {
    for (int i = 0; i < 8; i++) {
        int s = b->cells[lines[i][0]];
        if (s != 0 && s == b->cells[lines[i][1]] && s == b->cells[lines[i][2]])
            return s;
    }
    return 0;
}

/* The callbacks: the context is the board. */
static int ttt_moves(void *ctx, int64_t *moves, size_t capacity) {
    const board *b = ctx;
    int n = 0;
    for (int i = 0; i < 9 && (size_t)n < capacity; i++)
        if (b->cells[i] == 0)
            moves[n++] = i;
    return n;
}
static void ttt_play(void *ctx, int64_t mv) {
    board *b = ctx;
    b->cells[mv] = b->count % 2 == 0 ? 1 : -1;
    b->count++;
}
static void ttt_undo(void *ctx, int64_t mv) {
    board *b = ctx;
    b->cells[mv] = 0;
    b->count--;
}
static bool ttt_outcome(void *ctx, int32_t *score) {
    const board *b = ctx;
    int w = winner(b);
    if (w == 0 && b->count < 9)
        return false;
    *score = w;
    return true;
}
static int32_t ttt_evaluate(void *ctx) {
    (void)ctx;
    return 0;
}
static uint64_t ttt_hash(void *ctx) {
    const board *b = ctx;
    uint64_t h = 0;
    for (int i = 0; i < 9; i++)
        h = h * 3 + (uint64_t)(b->cells[i] + 1);
    return h;
}
static bool ttt_max_to_move(void *ctx) {
    return ((const board *)ctx)->count % 2 == 0;
}

static void *ttt_copy(void *ctx) {
    board *copy = malloc(sizeof *copy);
    if (copy)
        *copy = *(const board *)ctx;
    return copy;
}
static void ttt_free(void *copy) { free(copy); }

static mm_game game_of(board *b) {
    mm_game g;
    mm_game_init(&g);
    g.context = b;
    g.moves = ttt_moves;
    g.play = ttt_play;
    g.undo = ttt_undo;
    g.outcome = ttt_outcome;
    g.evaluate = ttt_evaluate;
    g.hash = ttt_hash;
    g.max_to_move = ttt_max_to_move;
    g.copy_context = ttt_copy;
    g.free_context = ttt_free;
    return g;
}

static int by_time(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median wall time in ms of `runs` searches of the empty board with `o`. */
static double median_ms(mm_game *g, mm_search_options o, int runs) {
    static double times[1001];
    for (int k = 0; k < runs; k++) {
        mm_search_result r;
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        mm_search(g, &o, &r, NULL, 0);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        times[k] = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
    }
    qsort(times, (size_t)runs, sizeof times[0], by_time);
    return times[runs / 2];
}

/* Solves the empty board with every method on `threads` threads; with `timing`, also
   prints each method's median time on those threads against one thread. */
static int solve(unsigned threads, bool timing) {
    static const struct {
        const char *name;
        mm_search_method method;
        bool deepening;
    } algorithms[] = {{"minimax", MM_SEARCH_MINIMAX, false},
                      {"alpha-beta", MM_SEARCH_ALPHABETA, true},
                      {"pvs", MM_SEARCH_PVS, true},
                      {"exact", MM_SEARCH_EXACT, true}};
    board b = {{0}, 0};
    mm_game g = game_of(&b);
    for (size_t i = 0; i < sizeof algorithms / sizeof algorithms[0]; i++) {
        mm_search_options o;
        mm_search_options_init(&o);
        o.method = algorithms[i].method;
        o.iterative_deepening = algorithms[i].deepening;
        o.threads = threads;
        mm_search_result r;
        mm_status s = mm_search(&g, &o, &r, NULL, 0);
        if (s != MM_OK) {
            fprintf(stderr, "error: %s\n", mm_error_message(s));
            return 1;
        }
        if (i == 0)
            printf("value of the empty board: %d (%s)\n", r.value, r.value == 0 ? "a draw" : "not a draw");
        printf("%-10s value %d, nodes %llu, time %.3f ms, threads %u\n", algorithms[i].name, r.value,
               (unsigned long long)r.stats.nodes, r.stats.elapsed_us / 1000.0, r.threads_used);
        if (timing && i > 0) {
            double many = median_ms(&g, o, 201);
            o.threads = 1;
            double one = median_ms(&g, o, 201);
            printf("%-10s median of 201: %.3f ms on %u threads, %.3f ms on 1, ratio %.2f\n",
                   algorithms[i].name, many, threads, one, many / one);
        }
    }
    return 0;
}

static void show(const board *b) {
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++) {
            int v = b->cells[r * 3 + c];
            putchar(v == 1 ? 'X' : v == -1 ? 'O' : (char)('1' + r * 3 + c));
            putchar(c < 2 ? ' ' : '\n');
        }
    }
}

/* Reads a free square (1-9) from stdin; returns -1 at end of input. Asks again on bad input. */
static int read_square(const board *b) {
    char line[64];
    for (;;) {
        printf("your move (1-9): ");
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin))
            return -1;
        char *end;
        long sq = strtol(line, &end, 10);
        while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
            end++;
        if (end == line || *end != '\0' || sq < 1 || sq > 9) {
            printf("please type a square from 1 to 9\n");
        } else if (b->cells[sq - 1] != 0) {
            printf("square %ld is taken\n", sq);
        } else {
            return (int)sq - 1;
        }
    }
}

int main(int argc, char **argv) {
    int human = 1; /* X */
    bool solving = false, timing = false;
    unsigned threads = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--solve") == 0) {
            solving = true;
        } else if (strcmp(argv[i], "--timing") == 0) {
            timing = true;
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc && isdigit((unsigned char)argv[i + 1][0])) {
            threads = (unsigned)strtoul(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--o") == 0) {
            human = -1;
        } else {
            fprintf(stderr, "usage: tictactoe [--o | --solve [--threads N] [--timing]]\n");
            return 2;
        }
    }
    if (solving)
        return solve(threads, timing);
    board b = {{0}, 0};
    mm_game g = game_of(&b);
    show(&b);
    while (winner(&b) == 0 && b.count < 9) {
        int to_move = b.count % 2 == 0 ? 1 : -1;
        int sq;
        if (to_move == human) {
            sq = read_square(&b);
            if (sq < 0) {
                printf("\nend of input: goodbye\n");
                return 0;
            }
        } else {
            mm_search_result r;
            mm_status s = mm_search(&g, NULL, &r, NULL, 0);
            if (s != MM_OK || !r.has_move) {
                fprintf(stderr, "error: %s\n", mm_error_message(s));
                return 1;
            }
            sq = (int)r.best_move;
            printf("computer plays %d\n", sq + 1);
        }
        ttt_play(&b, sq);
        show(&b);
    }
    int w = winner(&b);
    printf("%s\n", w == 0 ? "draw" : w == human ? "you win" : "computer wins");
    return 0;
}
