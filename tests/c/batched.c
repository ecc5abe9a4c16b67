/*
 * Batched MCTS from C (issue 50): tic-tac-toe through mm_game, its encoding through
 * mm_encoding and an evaluator in C, 24 games searched at once. With an oracle
 * evaluator (exact values from a negamax written here, uniform logits) no game plays a
 * losing move where another holds; policies sum to 1; the games are left as they were;
 * the tree is kept across a move; an evaluator that fails, an action index out of range,
 * NULLs, sizes and bad options get their statuses. Prints one summary line ending in
 * "failures N".
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "minimax.h"

#include "check.h"

#include "ttt.h"

typedef struct {
    int calls;
    size_t largest;
    bool fail;
} oracle_state;

static int oracle(void *ctx, const float *obs, size_t batch, float *values, float *logits) {
    oracle_state *s = ctx;
    s->calls++;
    if (batch > s->largest) s->largest = batch;
    if (s->fail) return 7;
    for (size_t b = 0; b < batch; b++) {
        int cells[9];
        for (int i = 0; i < 9; i++)
            cells[i] = obs[b * 18 + i] > 0.5f ? 1 : obs[b * 18 + 9 + i] > 0.5f ? -1 : 0;
        values[b] = (float)negamax(cells);
        for (int a = 0; a < 9; a++) logits[b * 9 + a] = 0.0f;
    }
    return 0;
}

#define GAMES 24

int main(void) {
    static ttt boards[GAMES];
    mm_game games[GAMES];
    CHECK(ttt_setup(boards, games, GAMES));
    mm_encoding enc;
    CHECK(ttt_encoding(&enc));
    oracle_state state = {0, 0, false};
    mm_evaluator ev;
    CHECK(mm_evaluator_init(&ev) == MM_OK);
    ev.context = &state;
    ev.evaluate = oracle;
    mm_batched_options o;
    CHECK(mm_batched_options_init(&o) == MM_OK);
    o.simulations = 32;
    o.leaves_per_tree = 4;
    o.batch_size = 64;

    mm_batched *m = NULL;
    CHECK(mm_batched_new(&m) == MM_OK && m != NULL);
    mm_batched_result r[GAMES];
    float policies[GAMES * 9];
    CHECK(mm_batched_search(m, games, GAMES, &enc, &ev, &o, r, policies) == MM_OK);
    CHECK(state.largest <= 64 && state.calls > 0);
    for (int i = 0; i < GAMES; i++) {
        CHECK(boards[i].played == 0);
        CHECK(r[i].has_move && r[i].simulations <= 32);
        int best = -2;
        for (int mv = 0; mv < 9; mv++)
            if (boards[i].cells[mv] == 0 && value_of(&boards[i], mv) > best)
                best = value_of(&boards[i], mv);
        if (best >= 0) CHECK(value_of(&boards[i], (int)r[i].best_move) >= 0);
        float sum = 0.0f;
        for (int a = 0; a < 9; a++) sum += policies[i * 9 + a];
        CHECK(fabsf(sum - 1.0f) < 1e-4f);
    }

    /* The tree kept across a move: the next search calls the evaluator for new leaves
       only (its root is not sent again). */
    int64_t mv = r[0].best_move;
    ttt_play(&boards[0], mv);
    boards[0].played = 0;
    CHECK(mm_batched_advance(m, 0, mv) == MM_OK);
    int before = state.calls;
    o.simulations = 1;
    CHECK(mm_batched_search(m, games, 1, &enc, &ev, &o, r, NULL) == MM_OK);
    CHECK(state.calls <= before + 1);
    o.simulations = 32;

    /* Gumbel at the root. */
    o.root = MM_BATCHED_ROOT_GUMBEL;
    CHECK(mm_batched_search(m, games, GAMES, &enc, &ev, &o, r, policies) == MM_OK);
    o.root = MM_BATCHED_ROOT_PUCT;

    /* On two threads: the games shared among them, the evaluator on this thread; with
       room in each call for every game's leaves, each game gets what one thread gives. */
    {
        mm_batched_options t = o;
        t.batch_size = GAMES * 4;
        t.noise_alpha = 1.0;
        t.noise_fraction = 0.25;
        t.temperature = 1.0;
        mm_batched_result one[GAMES], two[GAMES];
        float p1[GAMES * 9], p2[GAMES * 9];
        mm_batched *a = NULL, *b = NULL;
        CHECK(mm_batched_new(&a) == MM_OK && mm_batched_new(&b) == MM_OK);
        CHECK(mm_batched_search(a, games, GAMES, &enc, &ev, &t, one, p1) == MM_OK);
        t.threads = 2;
        CHECK(mm_batched_search(b, games, GAMES, &enc, &ev, &t, two, p2) == MM_OK);
        for (int i = 0; i < GAMES; i++) {
            CHECK(one[i].best_move == two[i].best_move && one[i].value == two[i].value);
            CHECK(one[i].simulations == two[i].simulations && one[i].threads_used == 1);
            CHECK(two[i].threads_used == 2 || two[i].fewer_threads != MM_FEWER_THREADS_NONE);
            CHECK(boards[i].played == 0);
        }
        CHECK(memcmp(p1, p2, sizeof p1) == 0);
        /* A bad index in a game of the second thread's share (cell 8 empty there). */
        int late = GAMES - 1;
        while (boards[late].cells[8] != 0) late--;
        CHECK(late >= GAMES / 2);
        boards[late].bad_index = true;
        CHECK(mm_batched_search(b, games, GAMES, &enc, &ev, &t, two, NULL) ==
              MM_ERR_GAME_BAD_ACTION_INDEX);
        boards[late].bad_index = false;
        t.threads = MM_MAX_THREADS + 1;
        CHECK(mm_batched_search(b, games, GAMES, &enc, &ev, &t, two, NULL) ==
              MM_ERR_TOO_MANY_THREADS);
        mm_batched_free(a);
        mm_batched_free(b);
    }

    /* Failures: each a status, the games as they were. */
    state.fail = true;
    CHECK(mm_batched_search(m, games, GAMES, &enc, &ev, &o, r, NULL) == MM_ERR_EVALUATOR_FAILED);
    state.fail = false;
    boards[1].bad_index = true;
    CHECK(mm_batched_search(m, games, GAMES, &enc, &ev, &o, r, NULL) ==
          MM_ERR_GAME_BAD_ACTION_INDEX);
    boards[1].bad_index = false;
    for (int i = 0; i < GAMES; i++) CHECK(boards[i].played == 0);
    mm_batched_options bad = o;
    bad.simulations = 0;
    CHECK(mm_batched_search(m, games, GAMES, &enc, &ev, &bad, r, NULL) == MM_ERR_BAD_BATCH_OPTIONS);
    bad = o;
    bad.root = 9;
    CHECK(mm_batched_search(m, games, GAMES, &enc, &ev, &bad, r, NULL) == MM_ERR_BAD_BATCH_OPTIONS);
    bad = o;
    bad.noise_fraction = 2.0;
    CHECK(mm_batched_search(m, games, GAMES, &enc, &ev, &bad, r, NULL) == MM_ERR_BAD_BATCH_OPTIONS);
    bad = o;
    bad.root = MM_BATCHED_ROOT_GUMBEL;
    bad.considered = 1; /* Sequential Halving compares at least two moves */
    CHECK(mm_batched_search(m, games, GAMES, &enc, &ev, &bad, r, NULL) == MM_ERR_BAD_BATCH_OPTIONS);
    /* A tree that cannot hold the root and its children: a status, not a search that
     * sends the root to the evaluator forever (issue 68). */
    bad = o;
    bad.max_nodes = 2;
    int calls_before = state.calls;
    CHECK(mm_batched_search(m, games, GAMES, &enc, &ev, &bad, r, NULL) ==
          MM_ERR_BATCH_TREE_TOO_SMALL);
    CHECK(state.calls == calls_before);
    memset(&bad, 0xA5, sizeof bad);
    CHECK(mm_batched_search(m, games, GAMES, &enc, &ev, &bad, r, NULL) == MM_ERR_BAD_STRUCT_SIZE);
    mm_encoding no_size = enc;
    no_size.action_count = 0;
    state.fail = true; /* (NULL options are the defaults: the evaluator is reached) */
    CHECK(mm_batched_search(m, games, GAMES, &enc, &ev, NULL, r, NULL) == MM_ERR_EVALUATOR_FAILED);
    state.fail = false;
    CHECK(mm_batched_search(m, games, GAMES, &no_size, &ev, &o, r, NULL) ==
          MM_ERR_BAD_BATCH_OPTIONS);
    mm_evaluator no_call = ev;
    no_call.evaluate = NULL;
    CHECK(mm_batched_search(m, games, GAMES, &enc, &no_call, &o, r, NULL) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_batched_search(NULL, games, GAMES, &enc, &ev, &o, r, NULL) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_batched_search(m, NULL, GAMES, &enc, &ev, &o, r, NULL) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_batched_search(m, games, GAMES, NULL, &ev, &o, r, NULL) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_batched_search(m, games, GAMES, &enc, &ev, &o, NULL, NULL) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_batched_search(m, games, 0, &enc, &ev, &o, NULL, NULL) == MM_OK);
    CHECK(mm_batched_advance(NULL, 0, 1) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_batched_options_init_sized(&bad, 8) == MM_ERR_BAD_STRUCT_SIZE);
    for (int i = 0; i < GAMES; i++) CHECK(boards[i].played == 0);
    mm_batched_free(m);
    mm_batched_free(NULL);

    printf("batched: %d checks, failures %d\n", checks, failures);
    return failures != 0;
}
