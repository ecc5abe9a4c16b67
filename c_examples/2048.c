/*
 * 2048 played by libminimax's expectimax: the player slides the tiles (MAX), then a 2
 * (probability 0.9) or a 4 (0.1) appears in a random empty cell (a chance node). The
 * engine looks a few plies ahead (a slide and a tile are one ply each) and scores the
 * positions there with the heuristic below.
 *
 *   2048 --games N --seed S   play N seeded games; per game the highest tile and the
 *                             score, then the share that reached 2048 and 4096 (and a
 *                             machine-readable SUMMARY line)
 *   2048 --depth D            search D plies per move (default: 4, and 6 once the board
 *                             has at most 5 empty cells: fewer tiles can appear)
 *   2048 --ms T               iterative deepening for T milliseconds per move instead
 *   2048 --method M           expectimax (default), star1, star2, or mcts (Monte Carlo tree
 *                             search: playouts cut off after 8 plies and scored by the
 *                             evaluation, scaled by its bounds)
 *   2048 --playouts N         with --method mcts, playouts per move (default 400)
 *   2048 --closed-loop        with --method mcts, keep each new tile as a node of the tree
 *                             (the library's default) rather than drawing the tiles on
 *                             the way down (open loop, this program's default: with up to
 *                             30 outcomes a chance step and 400 playouts, it plays better;
 *                             docs/mcts.md has the figures)
 *   2048 --moves N --show     stop each game after N moves; print the board each move
 *   2048 --play               you play (w a s d, then Enter) and the engine advises
 *
 * The heuristic is written from the description Robert Xiao (nneonneo) gave of his 2048
 * AI's evaluation: per row and column, a bonus for empty cells and for tiles that can
 * merge, and penalties for rows that are not monotonic and for large tiles off the
 * edge, with his published weights. The code is our own.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "minimax.h"

/* A board is 16 cells of 4 bits, row by row from the top left: each a tile's exponent
 * (0 empty, 1 for a 2, 11 for 2048). */
typedef uint64_t board;

enum { LEFT, RIGHT, UP, DOWN };
static const char *const direction_names[] = {"left", "right", "up", "down"};

static uint16_t slide_left[65536], slide_right[65536];
static uint32_t merge_points[65536]; /* the score a row's left slide earns */
static int32_t line_value[65536];    /* the heuristic of one row or column */

/* The heuristic's weights, as published. */
#define BASE 200000.0
#define EMPTY_WEIGHT 270.0
#define MERGE_WEIGHT 700.0
#define MONOTONIC_WEIGHT 47.0
#define SUM_WEIGHT 11.0
/* A line's value lies in (-LINE_LOW, LINE_HIGH): at worst three steps of 15^4 against
 * the grain and four tiles of 15^3.5 (< 13072); at best four empty cells or two merges.
 * The evaluation is the eight lines' sum shifted up by 8 * LINE_LOW: at least 1, so
 * that a lost game (0) is below every position still in play, and at most EVAL_MAX. */
#define LINE_LOW ((int32_t)(MONOTONIC_WEIGHT * 3 * 50625 + SUM_WEIGHT * 4 * 13072 + 1))
#define LINE_HIGH ((int32_t)(BASE + 4 * EMPTY_WEIGHT + 2 * MERGE_WEIGHT + 1))
#define EVAL_MAX (8 * (LINE_LOW + LINE_HIGH))

static double root2(double x) { /* a square root without libm */
    double r = x > 1 ? x : 1;
    for (int i = 0; i < 40; i++)
        r = 0.5 * (r + x / r);
    return r;
}

static void make_tables(void) {
    for (unsigned row = 0; row < 65536; row++) {
        int r[4], out[4] = {0, 0, 0, 0}, n = 0;
        uint32_t points = 0;
        for (int i = 0; i < 4; i++)
            r[i] = (row >> (4 * i)) & 15;
        /* Slide toward cell 0, merging each pair once. */
        int last = 0;
        for (int i = 0; i < 4; i++) {
            if (r[i] == 0)
                continue;
            if (last != 0 && r[i] == last && last < 15) {
                out[n - 1] = last + 1;
                points += 1u << (last + 1);
                last = 0;
            } else {
                out[n++] = r[i];
                last = r[i];
            }
        }
        uint16_t left = 0;
        for (int i = 0; i < 4; i++)
            left |= (uint16_t)(out[i] << (4 * i));
        slide_left[row] = left;
        merge_points[row] = points;

        /* The heuristic of this line. */
        double empty = 0, merges = 0, sum = 0, up = 0, down = 0;
        int prev = 0, run = 0;
        for (int i = 0; i < 4; i++) {
            if (r[i] == 0) {
                empty++;
                continue;
            }
            sum += (double)r[i] * r[i] * r[i] * root2(r[i]);
            if (r[i] == prev) {
                run++;
            } else {
                if (run > 0)
                    merges += 1 + run;
                run = 0;
            }
            prev = r[i];
        }
        if (run > 0)
            merges += 1 + run;
        for (int i = 0; i < 3; i++) {
            double a = (double)r[i] * r[i] * r[i] * r[i];
            double b = (double)r[i + 1] * r[i + 1] * r[i + 1] * r[i + 1];
            if (a > b)
                down += a - b;
            else
                up += b - a;
        }
        double v = BASE + EMPTY_WEIGHT * empty + MERGE_WEIGHT * merges -
                   MONOTONIC_WEIGHT * (up < down ? up : down) - SUM_WEIGHT * sum;
        line_value[row] = (int32_t)v;
    }
    /* A right slide is a left slide of the reversed row. */
    for (unsigned row = 0; row < 65536; row++) {
        unsigned rev = ((row & 15) << 12) | ((row >> 4 & 15) << 8) | ((row >> 8 & 15) << 4) | (row >> 12);
        unsigned l = slide_left[rev];
        slide_right[row] = (uint16_t)(((l & 15) << 12) | ((l >> 4 & 15) << 8) | ((l >> 8 & 15) << 4) | (l >> 12));
    }
}

static unsigned row_of(board b, int i) { return (unsigned)(b >> (16 * i)) & 0xFFFF; }

static board transpose(board b) {
    board t = 0;
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            t |= ((b >> (4 * (4 * r + c))) & 15) << (4 * (4 * c + r));
    return t;
}

/* The board after a slide, and the points its merges earn. */
static board slide(board b, int dir, uint32_t *points) {
    board t = (dir == UP || dir == DOWN) ? transpose(b) : b, out = 0;
    uint32_t p = 0;
    for (int i = 0; i < 4; i++) {
        unsigned row = row_of(t, i);
        bool toward_0 = dir == LEFT || dir == UP;
        board slid = toward_0 ? slide_left[row] : slide_right[row];
        p += merge_points[row]; /* a pair merges the same either way */
        out |= slid << (16 * i);
    }
    if (points)
        *points = p;
    return (dir == UP || dir == DOWN) ? transpose(out) : out;
}

static int cell(board b, int i) { return (int)(b >> (4 * i)) & 15; }

static int highest(board b) {
    int h = 0;
    for (int i = 0; i < 16; i++)
        h = cell(b, i) > h ? cell(b, i) : h;
    return h;
}

static int empties(board b) {
    int n = 0;
    for (int i = 0; i < 16; i++)
        n += cell(b, i) == 0;
    return n;
}

/* The game for the engine: the board, whether a tile comes next, and the boards before
 * each move (for undo). */
typedef struct {
    board now;
    bool tile_next;
    board history[64];
    int depth;
} game;

static int g_moves(void *ctx, int64_t *moves, size_t cap) {
    game *g = ctx;
    int n = 0;
    for (int d = 0; d < 4 && (size_t)n < cap; d++)
        if (slide(g->now, d, NULL) != g->now)
            moves[n++] = d;
    return n;
}
static void g_play(void *ctx, int64_t mv) {
    game *g = ctx;
    g->history[g->depth++] = g->now;
    if (g->tile_next)
        g->now |= (board)(1 + mv % 2) << (4 * (mv / 2));
    else
        g->now = slide(g->now, (int)mv, NULL);
    g->tile_next = !g->tile_next;
}
static void g_undo(void *ctx, int64_t mv) {
    game *g = ctx;
    (void)mv;
    g->now = g->history[--g->depth];
    g->tile_next = !g->tile_next;
}
static bool g_outcome(void *ctx, int32_t *score) {
    game *g = ctx;
    if (g->tile_next)
        return false;
    for (int d = 0; d < 4; d++)
        if (slide(g->now, d, NULL) != g->now)
            return false;
    *score = 0; /* lost: below every evaluation */
    return true;
}
static int32_t g_evaluate(void *ctx) {
    game *g = ctx;
    board t = transpose(g->now);
    int32_t v = 8 * LINE_LOW;
    for (int i = 0; i < 4; i++)
        v += line_value[row_of(g->now, i)] + line_value[row_of(t, i)];
    return v;
}
static uint64_t g_hash(void *ctx) {
    game *g = ctx;
    uint64_t h = (g->now ^ (g->tile_next ? 0x9E3779B97F4A7C15ull : 0)) * 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 31);
}
static bool g_max_to_move(void *ctx) {
    (void)ctx;
    return true; /* one player */
}
static bool g_bounds(void *ctx, int32_t *lo, int32_t *hi) {
    (void)ctx;
    *lo = 0;
    *hi = EVAL_MAX;
    return true;
}
static bool g_is_chance(void *ctx) { return ((game *)ctx)->tile_next; }
static int g_outcomes(void *ctx, int64_t *outcomes, double *weights, size_t cap) {
    game *g = ctx;
    int n = 0;
    for (int i = 0; i < 16; i++) {
        if (cell(g->now, i) != 0)
            continue;
        if ((size_t)n + 2 > cap)
            return n + 2; /* the engine reports too many */
        outcomes[n] = 2 * i; /* a 2 */
        weights[n++] = 0.9;
        outcomes[n] = 2 * i + 1; /* a 4 */
        weights[n++] = 0.1;
    }
    return n;
}

static uint64_t rng_state;
static uint64_t next_random(void) { /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

/* A tile in a random empty cell: a 2 with probability 0.9, else a 4. */
static board add_tile(board b) {
    int n = empties(b);
    if (n == 0)
        return b;
    int k = (int)(next_random() % (uint64_t)n);
    int rank = next_random() % 10 == 0 ? 2 : 1;
    for (int i = 0; i < 16; i++)
        if (cell(b, i) == 0 && k-- == 0)
            return b | (board)rank << (4 * i);
    return b;
}

static void print_board(board b) {
    for (int r = 0; r < 4; r++) {
        for (int c = 0; c < 4; c++) {
            int x = cell(b, 4 * r + c);
            if (x)
                printf("%6u", 1u << x);
            else
                printf("%6s", ".");
        }
        printf("\n");
    }
}

typedef struct {
    int depth; /* 0: adaptive */
    long ms;
    mm_search_method method;
    bool mcts;
    bool closed_loop;
    long playouts;
    long max_moves;
    bool show;
} settings;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* MCTS's move for the game `cb` describes, or -1 if there is none; `r` gets the
   expected-value fields the caller prints (the best move's mean reward, scaled back). */
static int advise_mcts(const mm_game *cb, const settings *s, mm_search_result *r) {
    mm_mcts *m;
    mm_mcts_options o;
    mm_mcts_options_init(&o);
    o.playouts = (uint64_t)s->playouts;
    o.reward = MM_MCTS_REWARD_SCALED;
    o.playout_depth = 8;
    o.max_moves = 32;
    o.seed = rng_state;
    o.open_loop = !s->closed_loop;
    if (s->ms > 0) {
        o.playouts = 0;
        o.time_limit_us = (uint64_t)s->ms * 1000;
    }
    mm_mcts_result mr;
    mm_status st = mm_mcts_new(&m);
    if (st == MM_OK)
        st = mm_mcts_search(m, cb, &o, &mr, NULL, 0);
    mm_mcts_free(m);
    if (st != MM_OK) {
        fprintf(stderr, "2048: search failed: %s\n", mm_error_message(st));
        exit(1);
    }
    memset(r, 0, sizeof *r);
    r->has_move = mr.has_move;
    r->best_move = mr.best_move;
    r->expected = mr.value * EVAL_MAX;
    r->stats.nodes = mr.nodes;
    return mr.has_move ? (int)mr.best_move : -1;
}

/* The engine's move for `b`, or -1 if there is none (the game is over). */
static int advise(board b, const settings *s, mm_table *table, mm_search_result *r) {
    game g = {.now = b, .tile_next = false, .depth = 0};
    mm_game cb;
    mm_game_init(&cb);
    cb.context = &g;
    cb.moves = g_moves;
    cb.play = g_play;
    cb.undo = g_undo;
    cb.outcome = g_outcome;
    cb.evaluate = g_evaluate;
    cb.hash = g_hash;
    cb.max_to_move = g_max_to_move;
    cb.bounds = g_bounds;
    cb.is_chance = g_is_chance;
    cb.outcomes = g_outcomes;
    if (s->mcts)
        return advise_mcts(&cb, s, r);
    mm_search_options o;
    mm_search_options_init(&o);
    o.method = s->method;
    o.table = table;
    o.max_moves = 32;
    if (s->ms > 0) {
        o.max_depth = 60;
        o.time_limit_us = (uint64_t)s->ms * 1000;
    } else {
        o.max_depth = (uint32_t)(s->depth > 0 ? s->depth : empties(b) <= 5 ? 6 : 4);
        o.iterative_deepening = false;
    }
    mm_status st = mm_search(&cb, &o, r, NULL, 0);
    if (st != MM_OK) {
        fprintf(stderr, "2048: search failed: %s\n", mm_error_message(st));
        exit(1);
    }
    return r->has_move ? (int)r->best_move : -1;
}

static int play_games(int games, uint64_t seed, const settings *s) {
    mm_table *table;
    if (mm_table_new(16u << 20, &table) != MM_OK) {
        fprintf(stderr, "2048: no memory for the table\n");
        return 1;
    }
    int reached[18] = {0};
    long total_moves = 0;
    double total_time = 0;
    for (int n = 0; n < games; n++) {
        rng_state = (seed + (uint64_t)n) * 0x9E3779B97F4A7C15ull + 1;
        board b = add_tile(add_tile(0));
        uint64_t score = 0;
        long moves = 0;
        double start = now_seconds();
        if (s->show) {
            printf("start\n");
            print_board(b);
        }
        for (;;) {
            if (s->max_moves > 0 && moves >= s->max_moves)
                break;
            mm_search_result r;
            int dir = advise(b, s, table, &r);
            if (dir < 0)
                break;
            uint32_t points;
            b = slide(b, dir, &points);
            score += points;
            moves++;
            b = add_tile(b);
            if (s->show) {
                printf("move %ld: %s (expected value %.0f, %llu nodes)\n", moves,
                       direction_names[dir], r.expected, (unsigned long long)r.stats.nodes);
                print_board(b);
            }
        }
        double took = now_seconds() - start;
        total_moves += moves;
        total_time += took;
        int h = highest(b);
        for (int t = 1; t <= h; t++)
            reached[t]++;
        printf("game %d (seed %llu): highest tile %u, score %llu, %ld moves, %.2f ms per move\n", n + 1,
               (unsigned long long)(seed + (uint64_t)n), 1u << h, (unsigned long long)score, moves,
               moves ? 1000 * took / moves : 0.0);
        fflush(stdout);
    }
    printf("reached 1024 in %d of %d games (%.0f%%)\n", reached[10], games,
           100.0 * reached[10] / games);
    printf("reached 2048 in %d of %d games (%.0f%%), 4096 in %d (%.0f%%); %.0f moves per "
           "second (%.2f ms per move)\n",
           reached[11], games, 100.0 * reached[11] / games, reached[12], 100.0 * reached[12] / games,
           total_time > 0 ? total_moves / total_time : 0.0,
           total_moves ? 1000 * total_time / total_moves : 0.0);
    printf("SUMMARY 2048 games=%d reached_1024=%.2f reached_2048=%.2f reached_4096=%.2f "
           "ms_per_move=%.3f\n",
           games, (double)reached[10] / games, (double)reached[11] / games, (double)reached[12] / games,
           total_moves ? 1000 * total_time / total_moves : 0.0);
    mm_table_free(table);
    return 0;
}

static int interactive(const settings *s) {
    rng_state = (uint64_t)time(NULL) * 0x9E3779B97F4A7C15ull + 1;
    board b = add_tile(add_tile(0));
    uint64_t score = 0;
    char line[64];
    for (;;) {
        mm_search_result r;
        int advice = advise(b, s, NULL, &r);
        print_board(b);
        if (advice < 0) {
            printf("no move left: score %llu, highest tile %u\n", (unsigned long long)score,
                   1u << highest(b));
            return 0;
        }
        printf("score %llu; the engine advises %s. Your move (w a s d, q to quit): ",
               (unsigned long long)score, direction_names[advice]);
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin) || line[0] == 'q')
            return 0;
        int dir = line[0] == 'a' ? LEFT : line[0] == 'd' ? RIGHT : line[0] == 'w' ? UP : line[0] == 's' ? DOWN : -1;
        uint32_t points;
        board next = dir < 0 ? b : slide(b, dir, &points);
        if (next == b) {
            printf("that move does nothing\n");
            continue;
        }
        score += points;
        b = add_tile(next);
    }
}

static long number(const char *flag, const char *text) {
    char *end;
    long v = text ? strtol(text, &end, 10) : -1;
    if (!text || *end != '\0' || v < 0) {
        fprintf(stderr, "2048: %s needs a number\n", flag);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv) {
    settings s = {.depth = 0,
                  .ms = 0,
                  .method = MM_SEARCH_EXPECTIMAX,
                  .mcts = false,
                  .closed_loop = false,
                  .playouts = 400,
                  .max_moves = 0,
                  .show = false};
    int games = 1;
    uint64_t seed = 1;
    bool play = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--games"))
            games = (int)number(a, v), i++;
        else if (!strcmp(a, "--seed"))
            seed = (uint64_t)number(a, v), i++;
        else if (!strcmp(a, "--depth"))
            s.depth = (int)number(a, v), i++;
        else if (!strcmp(a, "--ms"))
            s.ms = number(a, v), i++;
        else if (!strcmp(a, "--playouts"))
            s.playouts = number(a, v), i++;
        else if (!strcmp(a, "--moves"))
            s.max_moves = number(a, v), i++;
        else if (!strcmp(a, "--show"))
            s.show = true;
        else if (!strcmp(a, "--closed-loop"))
            s.closed_loop = true;
        else if (!strcmp(a, "--play"))
            play = true;
        else if (!strcmp(a, "--method") && v) {
            i++;
            if (!strcmp(v, "expectimax"))
                s.method = MM_SEARCH_EXPECTIMAX;
            else if (!strcmp(v, "star1"))
                s.method = MM_SEARCH_STAR1;
            else if (!strcmp(v, "star2"))
                s.method = MM_SEARCH_STAR2;
            else if (!strcmp(v, "mcts"))
                s.mcts = true;
            else {
                fprintf(stderr, "2048: --method is expectimax, star1, star2 or mcts\n");
                return 2;
            }
        } else {
            fprintf(stderr, "usage: 2048 [--games N] [--seed S] [--depth D | --ms T] "
                            "[--method expectimax|star1|star2|mcts] [--playouts N] [--closed-loop] [--moves N] [--show] [--play]\n");
            return 2;
        }
    }
    if (games < 1) {
        fprintf(stderr, "2048: --games must be at least 1\n");
        return 2;
    }
    make_tables();
    return play ? interactive(&s) : play_games(games, seed, &s);
}
