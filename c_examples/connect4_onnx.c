/*
 * Connect Four against a trained network, from C with no Python (issue 70): the network
 * is an ONNX file (the AlphaZero example's net.onnx: examples/python/alphazero/train.py
 * exports it), loaded by mm_onnx_load and evaluated by the library itself on the
 * batches of mm_batched_search, AlphaZero's search. Needs a library built with the onnx
 * feature (`make onnx-play` builds both).
 *
 *   connect4_onnx NET.onnx [--simulations N] [--engine-first]    play on the terminal
 *   connect4_onnx NET.onnx --line 4453 [--simulations N]         answer one position
 *
 * You type a column, 1-7, and Enter; the program answers with its column, its value for
 * itself (-1 lost, 1 won), and the time it took. The encoding is the library's own
 * Connect Four observation: 84 floats, the side to move's stones then the other's, by
 * column then row from the bottom.
 */
#define _POSIX_C_SOURCE 199309L
#define MM_ONNX 1 /* the header's mm_onnx_* (a library built with the onnx feature) */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "connect4_game.h"

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The first player is MAX, and turns alternate. */
static bool c4_max_to_move(void *ctx) { return ((const position *)ctx)->moves % 2 == 0; }

static void c4_observe(void *ctx, float *out) {
    const position *p = ctx;
    uint64_t theirs = p->current ^ p->mask;
    for (int c = 0; c < W; c++)
        for (int r = 0; r < H; r++) {
            uint64_t cell = 1ULL << (c * (H + 1) + r);
            if (p->current & cell)
                out[c * H + r] = 1.0f;
            if (theirs & cell)
                out[W * H + c * H + r] = 1.0f;
        }
}

static int64_t c4_action_index(void *ctx, int64_t column) {
    (void)ctx;
    return column;
}

static void show(const position *p) {
    /* X moved first. The side to move's stones are p->current. */
    uint64_t first = p->moves % 2 == 0 ? p->current : p->current ^ p->mask;
    for (int r = H - 1; r >= 0; r--) {
        printf("  |");
        for (int c = 0; c < W; c++) {
            uint64_t cell = 1ULL << (c * (H + 1) + r);
            printf(" %c", !(p->mask & cell) ? '.' : (first & cell) ? 'X' : 'O');
        }
        printf(" |\n");
    }
    printf("    1 2 3 4 5 6 7\n");
}

static bool over(const position *p) {
    int32_t score;
    return c4_outcome((void *)p, &score);
}

/* The engine's move in `p`: its column, its value for the side to move. */
static mm_status think(mm_batched *m, position *p, const mm_encoding *enc,
                       const mm_evaluator *ev, const mm_batched_options *o,
                       mm_batched_result *r) {
    mm_game g = c4_game(p);
    g.max_to_move = c4_max_to_move;
    g.copy_context = NULL; /* one game, one thread: no copies needed */
    g.free_context = NULL;
    return mm_batched_search(m, &g, 1, enc, ev, o, r, NULL);
}

static int usage(void) {
    fprintf(stderr, "usage: connect4_onnx NET.onnx [--simulations N] [--engine-first | --line COLUMNS]\n");
    return 2;
}

int main(int argc, char **argv) {
    if (argc < 2 || argv[1][0] == '-')
        return usage();
    const char *line = NULL;
    bool engine_first = false;
    long simulations = 800;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--simulations") == 0 && i + 1 < argc) {
            char *end = NULL;
            simulations = strtol(argv[++i], &end, 10);
            if (*end != '\0' || simulations < 1 || simulations > 1000000) {
                fprintf(stderr, "error: --simulations %s: a number from 1 to 1000000\n", argv[i]);
                return 2;
            }
        } else if (strcmp(argv[i], "--line") == 0 && i + 1 < argc) {
            line = argv[++i];
        } else if (strcmp(argv[i], "--engine-first") == 0) {
            engine_first = true;
        } else {
            return usage();
        }
    }
    char why[512];
    mm_onnx *model = NULL;
    mm_status s = mm_onnx_load(argv[1], &model, why, sizeof why);
    if (s != MM_OK) {
        fprintf(stderr, "error: %s\n", why);
        return 1;
    }
    mm_encoding enc;
    mm_evaluator ev;
    mm_batched_options o;
    mm_batched *m = NULL;
    mm_encoding_init(&enc);
    enc.observation_size = 2 * W * H;
    enc.action_count = W;
    enc.observe = c4_observe;
    enc.action_index = c4_action_index;
    mm_evaluator_init(&ev);
    mm_batched_options_init(&o);
    o.simulations = (uint32_t)simulations;
    o.leaves_per_tree = 16; /* one game: several leaves a batch, spread by virtual loss */
    o.batch_size = 16;
    if ((s = mm_onnx_evaluator(model, &enc, &ev)) != MM_OK || (s = mm_batched_new(&m)) != MM_OK) {
        fprintf(stderr, "error: %s\n", mm_error_message(s));
        mm_onnx_free(model);
        return 1;
    }
    static position pos;
    int code = 0;
    mm_batched_result r;
    if (line) {
        const char *problem = c4_setup(&pos, line);
        if (problem) {
            fprintf(stderr, "error: --line %s: %s\n", line, problem);
            code = 2;
        } else {
            double start = now_ms();
            s = think(m, &pos, &enc, &ev, &o, &r);
            if (s != MM_OK) {
                fprintf(stderr, "error: %s\n", mm_error_message(s));
                code = 1;
            } else {
                printf("play column %d: value %+.3f, %u simulations in %.0f ms\n",
                       (int)r.best_move + 1, r.value, r.simulations, now_ms() - start);
            }
        }
    } else {
        c4_reset(&pos);
        printf("You are %c. Type a column, 1-7, and Enter.\n", engine_first ? 'O' : 'X');
        bool engine_turn = engine_first;
        char input[64];
        show(&pos);
        while (!over(&pos)) {
            if (engine_turn) {
                double start = now_ms();
                if ((s = think(m, &pos, &enc, &ev, &o, &r)) != MM_OK) {
                    fprintf(stderr, "error: %s\n", mm_error_message(s));
                    code = 1;
                    break;
                }
                printf("I play column %d (value %+.3f for me, %.0f ms)\n", (int)r.best_move + 1,
                       r.value, now_ms() - start);
                c4_play(&pos, r.best_move);
            } else {
                printf("your column: ");
                fflush(stdout);
                if (!fgets(input, sizeof input, stdin)) {
                    printf("\n");
                    break;
                }
                int c = input[0] - '1';
                if (c < 0 || c >= W || (input[1] != '\n' && input[1] != '\0')) {
                    printf("a column is a digit from 1 to 7\n");
                    continue;
                }
                if (pos.mask & top_col(c)) {
                    printf("column %d is full\n", c + 1);
                    continue;
                }
                c4_play(&pos, c);
            }
            show(&pos);
            engine_turn = !engine_turn;
        }
        int32_t score;
        if (c4_outcome(&pos, &score))
            printf("%s\n", score == 0 ? "A draw." : (score > 0) != engine_first ? "You win." : "I win.");
    }
    mm_batched_free(m);
    mm_onnx_free(model);
    return code;
}
