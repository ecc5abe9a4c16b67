/*
 * Othello on a 4 x 4 board, written against libminimax's header and README alone, as a
 * new user would: Black (MAX) moves first from the usual four centre discs; a move must
 * flip at least one line of the opponent's discs; a side with no move passes (the move
 * -1, which only changes the turn); the game ends when neither side can move, scored
 * Black's discs minus White's (MAX's view).
 *
 * The engine's exact value is checked against a plain memoised negamax written below.
 * Prints "othello4: value V, reference V, nodes N" and exits 0 when they agree.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "minimax.h"

#define N 4
#define PASS (-1)

typedef struct {
    uint16_t black, white; /* one bit per square, row by row */
    bool black_to_move;
} board;

typedef struct {
    board b;
    board history[64];
    int depth;
} othello;

static const int dirs[8][2] = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}};

/* The discs that playing `sq` would flip for the side to move (0: not a legal move). */
static uint16_t flips(const board *b, int sq) {
    uint16_t me = b->black_to_move ? b->black : b->white, them = b->black_to_move ? b->white : b->black;
    if (((me | them) >> sq) & 1)
        return 0;
    uint16_t all = 0;
    for (int d = 0; d < 8; d++) {
        int r = sq / N + dirs[d][0], c = sq % N + dirs[d][1];
        uint16_t line = 0;
        while (r >= 0 && r < N && c >= 0 && c < N && ((them >> (r * N + c)) & 1)) {
            line |= (uint16_t)(1u << (r * N + c));
            r += dirs[d][0];
            c += dirs[d][1];
        }
        if (line && r >= 0 && r < N && c >= 0 && c < N && ((me >> (r * N + c)) & 1))
            all |= line;
    }
    return all;
}

static int legal(const board *b, int64_t *out) {
    int n = 0;
    for (int sq = 0; sq < N * N; sq++)
        if (flips(b, sq))
            out[n++] = sq;
    return n;
}

static void apply(board *b, int64_t mv) {
    if (mv != PASS) {
        uint16_t f = flips(b, (int)mv), bit = (uint16_t)(1u << mv);
        if (b->black_to_move) {
            b->black |= f | bit;
            b->white &= (uint16_t)~f;
        } else {
            b->white |= f | bit;
            b->black &= (uint16_t)~f;
        }
    }
    b->black_to_move = !b->black_to_move;
}

static bool ended(const board *b) {
    int64_t m[16];
    if (legal(b, m))
        return false;
    board other = *b;
    other.black_to_move = !other.black_to_move;
    return legal(&other, m) == 0;
}

static int discs(const board *b) { return __builtin_popcount(b->black) - __builtin_popcount(b->white); }

/* ---- the callbacks ---- */

static int o_moves(void *ctx, int64_t *out, size_t cap) {
    const othello *o = ctx;
    int64_t m[16];
    int n = legal(&o->b, m);
    if (n == 0)
        m[n++] = PASS; /* the game is not over (outcome said so): the side passes */
    if ((size_t)n > cap)
        return n; /* the engine reports MM_ERR_GAME_TOO_MANY_MOVES */
    memcpy(out, m, sizeof m[0] * (size_t)n);
    return n;
}
static void o_play(void *ctx, int64_t mv) {
    othello *o = ctx;
    o->history[o->depth++] = o->b;
    apply(&o->b, mv);
}
static void o_undo(void *ctx, int64_t mv) {
    (void)mv;
    othello *o = ctx;
    o->b = o->history[--o->depth];
}
static bool o_outcome(void *ctx, int32_t *score) {
    const othello *o = ctx;
    if (!ended(&o->b))
        return false;
    *score = discs(&o->b);
    return true;
}
static int32_t o_evaluate(void *ctx) { return discs(&((const othello *)ctx)->b); }
static bool o_max_to_move(void *ctx) { return ((const othello *)ctx)->b.black_to_move; }
static uint64_t o_hash(void *ctx) {
    const othello *o = ctx;
    return (uint64_t)o->b.black | (uint64_t)o->b.white << 16 | (uint64_t)o->b.black_to_move << 32;
}
static bool o_bounds(void *ctx, int32_t *lo, int32_t *hi) {
    (void)ctx;
    *lo = -N * N;
    *hi = N * N;
    return true;
}

/* ---- the reference: plain negamax with a memo, side to move's view ---- */

#define MEMO (1u << 20)
static uint64_t memo_key[MEMO];
static int8_t memo_value[MEMO];
static long states;

static int negamax(const board *b) {
    int sign = b->black_to_move ? 1 : -1;
    if (ended(b))
        return sign * discs(b);
    uint64_t key = ((uint64_t)b->black | (uint64_t)b->white << 16 | (uint64_t)b->black_to_move << 32) + 1;
    uint32_t slot = (uint32_t)((key * 0x9E3779B97F4A7C15ULL) >> 44);
    for (uint32_t probe = 0;; probe++, slot = (slot + 1) % MEMO) {
        if (memo_key[slot] == key)
            return memo_value[slot];
        if (memo_key[slot] == 0)
            break;
    }
    int64_t m[16];
    int n = legal(b, m);
    if (n == 0)
        m[n++] = PASS;
    int best = -100;
    for (int i = 0; i < n; i++) {
        board c = *b;
        apply(&c, m[i]);
        int v = -negamax(&c);
        if (v > best)
            best = v;
    }
    memo_key[slot] = key;
    memo_value[slot] = (int8_t)best;
    states++;
    return best;
}

int main(void) {
    static othello o;
    o.b.white = (uint16_t)(1u << 5 | 1u << 10);
    o.b.black = (uint16_t)(1u << 6 | 1u << 9);
    o.b.black_to_move = true;
    board start = o.b;

    mm_game game;
    mm_game_init(&game);
    game.context = &o;
    game.moves = o_moves;
    game.play = o_play;
    game.undo = o_undo;
    game.outcome = o_outcome;
    game.evaluate = o_evaluate;
    game.max_to_move = o_max_to_move;
    game.hash = o_hash;
    game.bounds = o_bounds;

    mm_search_options opts;
    mm_search_options_init(&opts);
    opts.method = MM_SEARCH_EXACT;
    opts.iterative_deepening = false; /* an exact solve needs no shallower passes */
    mm_search_result r;
    int64_t pv[32];
    mm_status st = mm_search(&game, &opts, &r, pv, 32);
    if (st != MM_OK) {
        fprintf(stderr, "search: %s\n", mm_error_message(st));
        return 1;
    }
    int reference = negamax(&start); /* Black to move: MAX's view */
    bool restored = memcmp(&o.b, &start, sizeof start) == 0;
    printf("othello4: value %d, reference %d, nodes %llu, reference states %ld, proven %d, restored %d\n",
           r.value, reference, (unsigned long long)r.stats.nodes, states, r.proven, restored);
    return !(r.value == reference && r.proven && restored);
}
