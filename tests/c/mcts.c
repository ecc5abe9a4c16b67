/*
 * MCTS from C (issue 21): tic-tac-toe through the same mm_game callbacks as mm_search,
 * proven a draw by mm_mcts_search; the root's moves in the caller's buffer; the tree kept
 * across a move by mm_mcts_advance; one seed repeating itself; a search object used from
 * its own callback (MM_ERR_MCTS_BUSY) and freed there; two threads sharing the tree
 * (copy_context), and one without a copy; priors (PUCT); NULLs, sizes and bad options.
 * Prints one summary line ending in "failures N".
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "minimax.h"

#include "check.h"

typedef struct {
    int cells[9]; /* 1 X (MAX), -1 O, 0 empty */
    int made;
    int depth; /* moves played by the search, to check that all are taken back */
    mm_mcts *reenter; /* if set, `outcome` tries to search it again, then frees it */
    const mm_game *game;
    mm_status reentered;
    int prior_calls; /* calls of ttt_priors */
    bool bad_prior;  /* if set, ttt_priors gives a negative weight */
} ttt;

static const int LINES[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};

static int winner(const ttt *g) {
    for (int i = 0; i < 8; i++) {
        int a = g->cells[LINES[i][0]];
        if (a != 0 && a == g->cells[LINES[i][1]] && a == g->cells[LINES[i][2]]) return a;
    }
    return 0;
}

static int ttt_moves(void *ctx, int64_t *moves, size_t cap) {
    ttt *g = ctx;
    int n = 0;
    for (int i = 0; i < 9; i++)
        if (g->cells[i] == 0 && (size_t)n < cap) moves[n++] = i;
    return n;
}
static void ttt_play(void *ctx, int64_t mv) {
    ttt *g = ctx;
    g->cells[mv] = g->made % 2 == 0 ? 1 : -1;
    g->made++;
    g->depth++;
}
static void ttt_undo(void *ctx, int64_t mv) {
    ttt *g = ctx;
    g->cells[mv] = 0;
    g->made--;
    g->depth--;
}
static bool ttt_outcome(void *ctx, int32_t *score) {
    ttt *g = ctx;
    if (g->reenter != NULL) {
        mm_mcts_result r;
        g->reentered = mm_mcts_search(g->reenter, g->game, NULL, &r, NULL, 0);
        mm_mcts_free(g->reenter); /* freed when the running search ends */
        g->reenter = NULL;
    }
    int w = winner(g);
    if (w != 0) {
        *score = w;
        return true;
    }
    if (g->made == 9) {
        *score = 0;
        return true;
    }
    return false;
}
static int32_t ttt_evaluate(void *ctx) {
    (void)ctx;
    return 0;
}

/* Priors for MCTS's PUCT: the centre twice the others (or a bad weight). */
static bool ttt_priors(void *ctx, const int64_t *moves, size_t n, double *priors) {
    ttt *g = ctx;
    g->prior_calls++;
    for (size_t i = 0; i < n; i++)
        priors[i] = moves[i] == 4 ? 2.0 : 1.0;
    if (g->bad_prior && n > 0)
        priors[0] = -1.0;
    return true;
}

/* A copy of the game for another search thread. */
static void *ttt_copy(void *ctx) {
    ttt *c = malloc(sizeof *c);
    if (c) memcpy(c, ctx, sizeof *c);
    return c;
}

static void ttt_free(void *ctx) { free(ctx); }

static mm_game game_of(ttt *g) {
    mm_game game;
    mm_game_init(&game);
    game.context = g;
    game.moves = ttt_moves;
    game.play = ttt_play;
    game.undo = ttt_undo;
    game.outcome = ttt_outcome;
    game.evaluate = ttt_evaluate;
    return game;
}

int main(void) {
    ttt t;
    memset(&t, 0, sizeof t);
    mm_game game = game_of(&t);

    /* The solver proves the empty board a draw. */
    mm_mcts *m = NULL;
    CHECK(mm_mcts_new(&m) == MM_OK && m != NULL);
    mm_mcts_options o;
    CHECK(mm_mcts_options_init(&o) == MM_OK);
    CHECK(o.struct_size == sizeof o && o.playouts == 10000 && o.reward == MM_MCTS_REWARD_SIGN);
    o.playouts = 0; /* until proven */
    o.max_nodes = 100000;
    mm_mcts_result r;
    mm_mcts_move root[9];
    CHECK(mm_mcts_search(m, &game, &o, &r, root, 9) == MM_OK);
    CHECK(r.proven && r.proven_reward == 0.5 && r.has_score && r.score == 0);
    CHECK(r.has_move && r.best_move >= 0 && r.best_move < 9);
    CHECK(r.root_len == 9 && !r.tree_full && r.threads_used == 1);
    uint64_t visits = 0;
    for (int i = 0; i < 9; i++) visits += root[i].visits;
    CHECK(visits == r.playouts);
    CHECK(t.depth == 0 && t.made == 0);

    /* The tree is kept across a move: the next search starts with the child's visits. */
    mm_mcts_free(m);
    CHECK(mm_mcts_new(&m) == MM_OK);
    o.playouts = 2000;
    CHECK(mm_mcts_search(m, &game, &o, &r, root, 9) == MM_OK);
    uint64_t kept = 0;
    for (size_t i = 0; i < r.root_len; i++)
        if (root[i].mv == r.best_move) kept = root[i].visits;
    CHECK(mm_mcts_advance(m, r.best_move) == MM_OK);
    ttt_play(&t, r.best_move);
    t.depth = 0;
    o.max_at_root = false; /* the game has no max_to_move: O is to move now, say so */
    CHECK(mm_mcts_search(m, &game, &o, &r, root, 9) == MM_OK);
    visits = 0;
    for (size_t i = 0; i < r.root_len && i < 9; i++) visits += root[i].visits;
    CHECK(r.root_len == 8 && visits + 1 >= kept + 2000);

    /* One seed repeats itself; a short buffer gets the first moves only. */
    mm_mcts_result a, b;
    mm_mcts_move ra[3], rb[3];
    CHECK(mm_mcts_clear(m) == MM_OK);
    CHECK(mm_mcts_search(m, &game, &o, &a, ra, 3) == MM_OK);
    CHECK(mm_mcts_clear(m) == MM_OK);
    CHECK(mm_mcts_search(m, &game, &o, &b, rb, 3) == MM_OK);
    CHECK(a.best_move == b.best_move && a.nodes == b.nodes && a.root_len == 8);
    for (int i = 0; i < 3; i++)
        CHECK(ra[i].mv == rb[i].mv && ra[i].visits == rb[i].visits && ra[i].mean == rb[i].mean);
    /* Afresh: the empty board, X to move, and a tree cleared (without `hash`, the library
       cannot tell that the position is not the tree's root). */
    memset(&t, 0, sizeof t);
    o.max_at_root = true;
    CHECK(mm_mcts_clear(m) == MM_OK);

    /* Two threads share the tree, each on its own copy of the game (copy_context): the
       same proof. Without copy_context, one thread searches, and the result says why. */
    mm_game copied = game;
    copied.copy_context = ttt_copy;
    copied.free_context = ttt_free;
    o.playouts = 0;
    o.threads = 2;
    CHECK(mm_mcts_clear(m) == MM_OK);
    CHECK(mm_mcts_search(m, &copied, &o, &r, root, 9) == MM_OK);
    CHECK(r.proven && r.proven_reward == 0.5 && r.has_score && r.score == 0);
    CHECK(r.threads_used == 2 && r.fewer_threads == MM_FEWER_THREADS_NONE);
    CHECK(t.depth == 0 && t.made == 0);
    o.playouts = 1000;
    CHECK(mm_mcts_clear(m) == MM_OK);
    CHECK(mm_mcts_search(m, &game, &o, &r, NULL, 0) == MM_OK);
    CHECK(r.threads_used == 1 && r.fewer_threads == MM_FEWER_THREADS_NO_COPY);
    CHECK(r.playouts == 1000);
    o.threads = MM_MAX_THREADS + 1;
    CHECK(mm_mcts_search(m, &copied, &o, &r, NULL, 0) == MM_ERR_TOO_MANY_THREADS);
    o.threads = 1;
    CHECK(mm_mcts_clear(m) == MM_OK);

    /* With priors, PUCT chooses, and the solver still proves the draw; a negative
       weight is the game's error, with a status of its own. */
    mm_game with_priors = game;
    with_priors.priors = ttt_priors;
    o.playouts = 0;
    CHECK(mm_mcts_clear(m) == MM_OK);
    CHECK(mm_mcts_search(m, &with_priors, &o, &r, root, 9) == MM_OK);
    CHECK(r.proven && r.proven_reward == 0.5 && t.prior_calls > 0 && t.depth == 0);
    t.bad_prior = true;
    CHECK(mm_mcts_clear(m) == MM_OK);
    CHECK(mm_mcts_search(m, &with_priors, &o, &r, root, 9) == MM_ERR_GAME_BAD_PRIORS);
    CHECK(t.depth == 0);
    t.bad_prior = false;
    CHECK(mm_mcts_clear(m) == MM_OK);

    /* Arguments: NULLs, sizes, options. */
    CHECK(mm_mcts_new(NULL) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_mcts_search(NULL, &game, &o, &r, NULL, 0) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_mcts_search(m, NULL, &o, &r, NULL, 0) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_mcts_search(m, &game, &o, NULL, NULL, 0) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_mcts_search(m, &game, &o, &r, NULL, 4) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_mcts_advance(NULL, 0) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_mcts_clear(NULL) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_mcts_options_init(NULL) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_mcts_options_init_sized(&o, 8) == MM_ERR_BAD_STRUCT_SIZE);
    mm_mcts_options bad = o;
    bad.reward = 7;
    CHECK(mm_mcts_search(m, &game, &bad, &r, NULL, 0) == MM_ERR_UNKNOWN_REWARD);
    bad = o;
    bad.exploration = -1.0;
    CHECK(mm_mcts_search(m, &game, &bad, &r, NULL, 0) == MM_ERR_BAD_EXPLORATION);
    bad.exploration = NAN;
    CHECK(mm_mcts_search(m, &game, &bad, &r, NULL, 0) == MM_ERR_BAD_EXPLORATION);
    bad.exploration = INFINITY;
    CHECK(mm_mcts_search(m, &game, &bad, &r, NULL, 0) == MM_ERR_BAD_EXPLORATION);
    bad = o;
    bad.eval_scale = NAN;
    CHECK(mm_mcts_search(m, &game, &bad, &r, NULL, 0) == MM_ERR_BAD_EVAL_SCALE);
    bad.eval_scale = 0.0;
    CHECK(mm_mcts_search(m, &game, &bad, &r, NULL, 0) == MM_ERR_BAD_EVAL_SCALE);
    bad.eval_scale = INFINITY;
    CHECK(mm_mcts_search(m, &game, &bad, &r, NULL, 0) == MM_ERR_BAD_EVAL_SCALE);
    bad = o;
    bad.max_moves = 0;
    CHECK(mm_mcts_search(m, &game, &bad, &r, NULL, 0) == MM_ERR_BAD_OPTIONS);
    /* Garbage: a struct never initialised (0xA5 in every byte, struct_size included) is
       refused without a read past it (valgrind saw one); a bool that is neither 0 nor 1
       reads as true, as in C. */
    memset(&bad, 0xA5, sizeof bad);
    CHECK(mm_mcts_search(m, &game, &bad, &r, NULL, 0) == MM_ERR_BAD_STRUCT_SIZE);
    bad = o;
    memset(&bad.max_at_root, 0xA5, 1);
    memset(&bad.open_loop, 0xA5, 1);
    CHECK(mm_mcts_search(m, &game, &bad, &r, NULL, 0) == MM_OK);
    CHECK(mm_mcts_clear(m) == MM_OK);
    bad = o;
    bad.reward = MM_MCTS_REWARD_SCALED; /* tic-tac-toe here gives no bounds */
    CHECK(mm_mcts_search(m, &game, &bad, &r, NULL, 0) == MM_ERR_NEEDS_BOUNDS);
    mm_game no_moves = game;
    no_moves.moves = NULL;
    CHECK(mm_mcts_search(m, &no_moves, &o, &r, NULL, 0) == MM_ERR_NULL_ARGUMENT);
    /* NULL options are the defaults. */
    CHECK(mm_mcts_search(m, &game, NULL, &r, NULL, 0) == MM_OK && r.playouts == 10000);
    CHECK(t.depth == 0);

    /* A search object used from its own search's callback is busy; freed there, it is
       freed when the search ends (ASan and valgrind see the rest). */
    t.reenter = m;
    t.game = &game;
    o.playouts = 50;
    CHECK(mm_mcts_search(m, &game, &o, &r, NULL, 0) == MM_OK);
    CHECK(t.reentered == MM_ERR_MCTS_BUSY);
    CHECK(t.depth == 0);
    mm_mcts_free(NULL);

    printf("mcts: %d checks, failures %d\n", checks, failures);
    return failures != 0;
}
