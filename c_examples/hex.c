/*
 * Hex on an N x N board (7 by default, up to 11), a game with no good evaluation: Monte
 * Carlo tree search plays it through the same mm_game callbacks as alpha-beta.
 *
 *   hex                               you play Black against MCTS (moves like c3)
 *   hex --white                       you play White (Black moves first)
 *   hex --selfplay --games N --seed S a match: MCTS against alpha-beta with a zero
 *                                     evaluation, colours alternating
 *   hex --size N                      the board (2 to 11)
 *   hex --playouts P                  MCTS's playouts a move (default 20000)
 *   hex --depth D                     alpha-beta's depth in the match (default 3)
 *   hex --threads T                   MCTS's threads, sharing one tree (default 1)
 *
 * Black (MAX) joins the top and bottom rows, White the left and right columns; the
 * board fills before it ends, and Hex has no draws.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "minimax.h"

#define MAXN 11

typedef struct {
    int n;
    int8_t cell[MAXN * MAXN]; /* 0 empty, 1 Black, 2 White */
    int stones;
} hex;

static int to_move(const hex *h) { return h->stones % 2 == 0 ? 1 : 2; }

/* Whether `who` joins its two sides, by a flood from its first side. */
static bool joined(const hex *h, int who) {
    int n = h->n, stack[MAXN * MAXN], top = 0;
    bool seen[MAXN * MAXN] = {false};
    for (int i = 0; i < n; i++) {
        int c = who == 1 ? i : i * n; /* top row, or left column */
        if (h->cell[c] == who) {
            seen[c] = true;
            stack[top++] = c;
        }
    }
    static const int dr[6] = {-1, -1, 0, 0, 1, 1}, dc[6] = {0, 1, -1, 1, -1, 0};
    while (top > 0) {
        int c = stack[--top], r = c / n, col = c % n;
        if ((who == 1 && r == n - 1) || (who == 2 && col == n - 1))
            return true;
        for (int k = 0; k < 6; k++) {
            int rr = r + dr[k], cc = col + dc[k];
            if (rr < 0 || rr >= n || cc < 0 || cc >= n)
                continue;
            int d = rr * n + cc;
            if (!seen[d] && h->cell[d] == who) {
                seen[d] = true;
                stack[top++] = d;
            }
        }
    }
    return false;
}

static int h_moves(void *ctx, int64_t *out, size_t cap) {
    hex *h = ctx;
    int k = 0;
    for (int c = 0; c < h->n * h->n; c++)
        if (h->cell[c] == 0) {
            if ((size_t)k < cap)
                out[k] = c;
            k++;
        }
    return k;
}
static void h_play(void *ctx, int64_t mv) {
    hex *h = ctx;
    h->cell[mv] = (int8_t)to_move(h);
    h->stones++;
}
static void h_undo(void *ctx, int64_t mv) {
    hex *h = ctx;
    h->cell[mv] = 0;
    h->stones--;
}
static bool h_outcome(void *ctx, int32_t *score) {
    hex *h = ctx;
    if (h->stones == 0)
        return false;
    int last = to_move(h) == 1 ? 2 : 1;
    if (!joined(h, last))
        return false;
    *score = last == 1 ? 1 : -1;
    return true;
}
static int32_t h_zero(void *ctx) {
    (void)ctx;
    return 0;
}
static bool h_max_to_move(void *ctx) { return to_move(ctx) == 1; }

/* A copy of the position for another search thread, and its release. */
static void *h_copy(void *ctx) {
    hex *c = malloc(sizeof *c);
    if (c)
        memcpy(c, ctx, sizeof *c);
    return c;
}
static void h_free(void *ctx) { free(ctx); }

static mm_game game_of(hex *h) {
    mm_game g;
    mm_game_init(&g);
    g.context = h;
    g.moves = h_moves;
    g.play = h_play;
    g.undo = h_undo;
    g.outcome = h_outcome;
    g.evaluate = h_zero;
    g.max_to_move = h_max_to_move;
    g.copy_context = h_copy;
    g.free_context = h_free;
    return g;
}

static void print_board(const hex *h) {
    printf("  ");
    for (int c = 0; c < h->n; c++)
        printf(" %c", 'a' + c);
    printf("\n");
    for (int r = 0; r < h->n; r++) {
        printf("%*s%2d", r, "", r + 1);
        for (int c = 0; c < h->n; c++)
            printf(" %c", ".XO"[h->cell[r * h->n + c]]);
        printf("\n");
    }
}

static int fail(mm_status st) {
    fprintf(stderr, "hex: search failed: %s\n", mm_error_message(st));
    exit(1);
}

/* MCTS's threads (--threads). */
static uint32_t threads = 1;

/* MCTS's move, from a search object that keeps its tree between moves. */
static int64_t mcts_move(mm_mcts *m, hex *h, uint64_t playouts, uint64_t seed) {
    mm_game g = game_of(h);
    mm_mcts_options o;
    mm_mcts_options_init(&o);
    o.playouts = playouts;
    o.seed = seed;
    o.threads = threads;
    mm_mcts_result r;
    mm_status st = mm_mcts_search(m, &g, &o, &r, NULL, 0);
    if (st != MM_OK)
        fail(st);
    return r.best_move;
}

/* Alpha-beta's move at `depth` with a zero evaluation: it sees only wins within reach. */
static int64_t alphabeta_move(hex *h, uint32_t depth) {
    mm_game g = game_of(h);
    mm_search_options o;
    mm_search_options_init(&o);
    o.method = MM_SEARCH_ALPHABETA;
    o.max_depth = depth;
    o.iterative_deepening = false;
    o.table_bytes = 0;
    mm_search_result r;
    mm_status st = mm_search(&g, &o, &r, NULL, 0);
    if (st != MM_OK)
        fail(st);
    return r.best_move;
}

/* Plays a move for both sides and the tree; returns the winner (1 or 2) or 0. */
static int play(hex *h, mm_mcts *m, int64_t mv) {
    mm_game g = game_of(h);
    h_play(h, mv);
    mm_status st = mm_mcts_advance(m, mv);
    if (st != MM_OK)
        fail(st);
    int32_t score;
    return g.outcome(h, &score) ? (score > 0 ? 1 : 2) : 0;
}

static int selfplay(int n, int games, uint64_t seed, uint64_t playouts, uint32_t depth) {
    int mcts_wins = 0;
    for (int k = 0; k < games; k++) {
        hex h = {.n = n};
        int mcts_colour = k % 2 == 0 ? 1 : 2;
        mm_mcts *m;
        if (mm_mcts_new(&m) != MM_OK)
            return 1;
        int winner = 0;
        while (winner == 0) {
            int64_t mv = to_move(&h) == mcts_colour ? mcts_move(m, &h, playouts, seed + (uint64_t)k * 1000 + (uint64_t)h.stones)
                                                    : alphabeta_move(&h, depth);
            winner = play(&h, m, mv);
        }
        mm_mcts_free(m);
        mcts_wins += winner == mcts_colour;
        printf("game %d: MCTS (%s) %s in %d stones\n", k + 1, mcts_colour == 1 ? "Black" : "White",
               winner == mcts_colour ? "won" : "lost", h.stones);
    }
    printf("MCTS (%llu playouts a move) won %d of %d games against alpha-beta (depth %u, zero "
           "evaluation) on %dx%d\n",
           (unsigned long long)playouts, mcts_wins, games, depth, n, n);
    return 0;
}

static int interactive(int n, bool human_black, uint64_t playouts) {
    hex h = {.n = n};
    mm_mcts *m;
    if (mm_mcts_new(&m) != MM_OK)
        return 1;
    char line[64];
    int winner = 0;
    while (winner == 0) {
        print_board(&h);
        int64_t mv;
        if ((to_move(&h) == 1) == human_black) {
            printf("your move (like c3, q to quit): ");
            fflush(stdout);
            if (!fgets(line, sizeof line, stdin) || line[0] == 'q')
                break;
            int c = line[0] - 'a', r = atoi(line + 1) - 1;
            if (c < 0 || c >= n || r < 0 || r >= n || h.cell[r * n + c] != 0) {
                printf("not an empty cell\n");
                continue;
            }
            mv = r * n + c;
        } else {
            mv = mcts_move(m, &h, playouts, (uint64_t)h.stones);
            printf("MCTS plays %c%d\n", 'a' + (int)(mv % n), (int)(mv / n) + 1);
        }
        winner = play(&h, m, mv);
    }
    if (winner != 0) {
        print_board(&h);
        printf("%s wins\n", winner == 1 ? "Black" : "White");
    }
    mm_mcts_free(m);
    return 0;
}

static long number(const char *flag, const char *text, long lo, long hi) {
    char *end;
    long v = text ? strtol(text, &end, 10) : lo - 1;
    if (!text || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "hex: %s needs a number from %ld to %ld\n", flag, lo, hi);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv) {
    int n = 7, games = 10;
    long depth = 3;
    uint64_t seed = 1, playouts = 20000;
    bool self = false, human_black = true;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--size"))
            n = (int)number(a, v, 2, MAXN), i++;
        else if (!strcmp(a, "--games"))
            games = (int)number(a, v, 1, 100000), i++;
        else if (!strcmp(a, "--seed"))
            seed = (uint64_t)number(a, v, 0, 1L << 40), i++;
        else if (!strcmp(a, "--playouts"))
            playouts = (uint64_t)number(a, v, 1, 1L << 40), i++;
        else if (!strcmp(a, "--depth"))
            depth = number(a, v, 1, 20), i++;
        else if (!strcmp(a, "--threads"))
            threads = (uint32_t)number(a, v, 1, MM_MAX_THREADS), i++;
        else if (!strcmp(a, "--selfplay"))
            self = true;
        else if (!strcmp(a, "--white"))
            human_black = false;
        else {
            fprintf(stderr, "usage: hex [--size N] [--playouts P] [--threads T] [--white] | --selfplay "
                            "[--games N] [--seed S] [--depth D]\n");
            return 2;
        }
    }
    return self ? selfplay(n, games, seed, playouts, (uint32_t)depth) : interactive(n, human_black, playouts);
}
