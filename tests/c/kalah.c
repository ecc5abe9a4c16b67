/*
 * Kalah with 4 pits of 3 seeds a side, written against libminimax's header and README
 * alone, as a new user would: South (MAX) moves first; sowing skips the opponent's store;
 * a last seed in one's own store gives an extra turn (the turn callback says who moves);
 * a last seed in one's own empty pit captures it and the opposite pit, if that is not
 * empty; when the side to move has no seeds, the other side keeps its own and the game
 * ends. The score is South's store minus North's (MAX's view).
 *
 * The engine's exact value is checked against a plain memoised negamax written below.
 * Prints "kalah: value V, reference V, nodes N" and exits 0 when they agree.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "minimax.h"

#define PITS 4
#define SEEDS 3
/* pits[0..3] South's, pits[4] South's store, pits[5..8] North's, pits[9] North's store */
#define S_STORE PITS
#define N_STORE (2 * PITS + 1)
#define CELLS (2 * PITS + 2)

typedef struct {
    int pits[CELLS];
    bool south; /* to move */
} state;

typedef struct {
    state s;
    state history[256];
    int depth;
} kalah;

static int first_pit(bool south) { return south ? 0 : PITS + 1; }

static bool side_empty(const state *s, bool south) {
    for (int i = 0; i < PITS; i++)
        if (s->pits[first_pit(south) + i])
            return false;
    return true;
}

static bool over(const state *s) { return side_empty(s, s->south); }

/* The final score of an ended game, South's store minus North's after the sweep. */
static int final_score(const state *s) {
    int south = s->pits[S_STORE], north = s->pits[N_STORE];
    for (int i = 0; i < PITS; i++) {
        south += s->pits[i];
        north += s->pits[PITS + 1 + i];
    }
    return south - north;
}

/* Sows from pit `i` (0-3, the mover's own), applying captures and the turn. */
static void sow(state *s, int i) {
    int own_store = s->south ? S_STORE : N_STORE, other_store = s->south ? N_STORE : S_STORE;
    int at = first_pit(s->south) + i, seeds = s->pits[at];
    s->pits[at] = 0;
    while (seeds > 0) {
        at = (at + 1) % CELLS;
        if (at == other_store)
            continue;
        s->pits[at]++;
        seeds--;
    }
    if (at == own_store)
        return; /* extra turn */
    bool own_pit = s->south ? at < PITS : (at > PITS && at < N_STORE);
    int opposite = 2 * PITS - at;
    if (own_pit && s->pits[at] == 1 && s->pits[opposite] > 0) {
        s->pits[own_store] += 1 + s->pits[opposite];
        s->pits[at] = s->pits[opposite] = 0;
    }
    s->south = !s->south;
}

/* ---- the callbacks ---- */

static int k_moves(void *ctx, int64_t *out, size_t cap) {
    const kalah *k = ctx;
    int n = 0;
    for (int i = 0; i < PITS && (size_t)n < cap; i++)
        if (k->s.pits[first_pit(k->s.south) + i])
            out[n++] = i;
    return n;
}
static void k_play(void *ctx, int64_t mv) {
    kalah *k = ctx;
    k->history[k->depth++] = k->s;
    sow(&k->s, (int)mv);
}
static void k_undo(void *ctx, int64_t mv) {
    (void)mv;
    kalah *k = ctx;
    k->s = k->history[--k->depth];
}
static bool k_outcome(void *ctx, int32_t *score) {
    const kalah *k = ctx;
    if (!over(&k->s))
        return false;
    *score = final_score(&k->s);
    return true;
}
static int32_t k_evaluate(void *ctx) {
    const kalah *k = ctx;
    return k->s.pits[S_STORE] - k->s.pits[N_STORE];
}
static bool k_max_to_move(void *ctx) { return ((const kalah *)ctx)->s.south; }
static uint64_t k_hash(void *ctx) {
    const kalah *k = ctx;
    uint64_t h = k->s.south;
    for (int i = 0; i < CELLS; i++)
        h = h * 31 + (uint64_t)k->s.pits[i];
    return h;
}

/* The seeds still in pits can go either way: the final score lies within them. */
static bool k_bounds(void *ctx, int32_t *lo, int32_t *hi) {
    const kalah *k = ctx;
    int now = k->s.pits[S_STORE] - k->s.pits[N_STORE], left = 2 * PITS * SEEDS;
    left -= k->s.pits[S_STORE] + k->s.pits[N_STORE];
    *lo = now - left;
    *hi = now + left;
    return true;
}

/* ---- the reference: negamax over the seeds still to be stored, memoised ---- */

#define MEMO (1u << 22)
static uint64_t memo_key[MEMO];
static int8_t memo_value[MEMO];
static long states;

/* The best store difference the side to move can still gain, from its point of view. */
static int future(const state *s) {
    if (over(s))
        return (final_score(s) - (s->pits[S_STORE] - s->pits[N_STORE])) * (s->south ? 1 : -1);
    uint64_t key = s->south;
    for (int i = 0; i < CELLS; i++)
        if (i != S_STORE && i != N_STORE)
            key = key << 5 | (uint64_t)s->pits[i];
    key = key * 2 + 1; /* never 0 */
    uint32_t slot = (uint32_t)((key * 0x9E3779B97F4A7C15ULL) >> 42);
    if (memo_key[slot] == key)
        return memo_value[slot];
    int best = -1000;
    for (int i = 0; i < PITS; i++) {
        if (!s->pits[first_pit(s->south) + i])
            continue;
        state t = *s;
        sow(&t, i);
        int gained = (t.pits[S_STORE] - s->pits[S_STORE]) - (t.pits[N_STORE] - s->pits[N_STORE]);
        if (!s->south)
            gained = -gained;
        int v = gained + (t.south == s->south ? future(&t) : -future(&t));
        if (v > best)
            best = v;
    }
    memo_key[slot] = key;
    memo_value[slot] = (int8_t)best;
    states++;
    return best;
}

int main(void) {
    static kalah k;
    for (int i = 0; i < PITS; i++)
        k.s.pits[i] = k.s.pits[PITS + 1 + i] = SEEDS;
    k.s.south = true;
    state start = k.s;

    mm_game game;
    mm_game_init(&game);
    game.context = &k;
    game.moves = k_moves;
    game.play = k_play;
    game.undo = k_undo;
    game.outcome = k_outcome;
    game.evaluate = k_evaluate;
    game.max_to_move = k_max_to_move;
    game.hash = k_hash;
    game.bounds = k_bounds; /* without it the exact solve bisects all of int32 */

    mm_search_options o;
    mm_search_options_init(&o);
    o.method = MM_SEARCH_EXACT;
    o.iterative_deepening = false; /* an exact solve needs no shallower passes */
    mm_search_result r;
    mm_status st = mm_search(&game, &o, &r, NULL, 0);
    if (st != MM_OK) {
        fprintf(stderr, "search: %s\n", mm_error_message(st));
        return 1;
    }
    int reference = future(&start); /* South moves first, stores empty */
    bool restored = memcmp(&k.s, &start, sizeof start) == 0;
    printf("kalah: value %d, reference %d, nodes %llu, reference states %ld, proven %d, restored %d\n",
           r.value, reference, (unsigned long long)r.stats.nodes, states, r.proven, restored);
    return !(r.value == reference && r.proven && restored);
}
