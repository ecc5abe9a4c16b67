/*
 * The C API probed as a hostile or careless caller would: NULL in every pointer of every
 * function, sizes near SIZE_MAX, absurd option values, a search started from inside a
 * callback (with its own table, and with the table of the search that is calling), a
 * table freed during its own search, and one table used by two threads at once. Every
 * probe must give a status (never a crash, hang or leak: the sanitizer and valgrind runs
 * check that part). Prints one summary line ending in "failures N".
 */
#define _POSIX_C_SOURCE 199309L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../../c_examples/connect4_game.h"

#include "check.h"

static const int32_t leaves[8] = {3, 5, 6, 9, 1, 2, 0, -1};
static const char text[] = "((3 5) (6 9))";

/* Never called: a search refuses a copy without its free before any callback. */
static void *copy_context_stub(void *ctx) { return ctx; }

static void nulls(void) {
    mm_search_options o;
    CHECK(mm_search_options_init(NULL) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_search_options_init(&o) == MM_OK);
    CHECK(mm_game_init(NULL) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_table_new(1u << 20, NULL) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_table_clear(NULL) == MM_ERR_NULL_ARGUMENT);
    mm_table_free(NULL);
    mm_tree_free(NULL);

    static position pos;
    c4_setup(&pos, "4455");
    mm_game g = c4_game(&pos);
    mm_search_result r;
    int64_t pv[8];
    CHECK(mm_search(NULL, &o, &r, pv, 8) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_search(&g, &o, NULL, pv, 8) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_search(&g, &o, &r, NULL, 8) == MM_ERR_NULL_ARGUMENT);
    o.max_depth = 4;
    CHECK(mm_search(&g, &o, &r, NULL, 0) == MM_OK);
    /* Each required callback missing in turn. */
    for (int k = 0; k < 5; k++) {
        mm_game h = g;
        if (k == 0) h.moves = NULL;
        if (k == 1) h.play = NULL;
        if (k == 2) h.undo = NULL;
        if (k == 3) h.outcome = NULL;
        if (k == 4) h.evaluate = NULL;
        CHECK(mm_search(&h, &o, &r, NULL, 0) == MM_ERR_NULL_ARGUMENT);
    }
    /* A copy that could never be freed. */
    {
        mm_game h = g;
        h.copy_context = copy_context_stub;
        h.free_context = NULL;
        CHECK(mm_search(&h, &o, &r, NULL, 0) == MM_ERR_COPY_WITHOUT_FREE);
    }

    mm_solution s;
    CHECK(mm_solve_leaves(NULL, 8, 2, true, MM_ALGORITHM_ALPHABETA, &s) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_solve_leaves(leaves, 8, 2, true, MM_ALGORITHM_ALPHABETA, NULL) == MM_ERR_NULL_ARGUMENT);
    CHECK(minimax(0, 0, true, NULL, 3) == 0 && mm_last_error() == MM_ERR_NULL_ARGUMENT);
    CHECK(alphabeta(3, 0, 0, true, NULL, -1000, 1000) == 0 && mm_last_error() == MM_ERR_NULL_ARGUMENT);

    mm_tree *t = NULL;
    mm_parse_error e;
    CHECK(mm_tree_parse(NULL, 5, &t, &e) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_tree_parse(text, strlen(text), NULL, &e) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_tree_parse(text, strlen(text), &t, NULL) == MM_OK && t != NULL); /* error info optional */
    size_t offsets[] = {0, 2, 2, 2}, children[] = {1, 2};
    int32_t values[] = {0, 4, 7};
    mm_tree *u = NULL;
    CHECK(mm_tree_from_csr(NULL, 4, children, 2, values, 3, &u) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_tree_from_csr(offsets, 4, NULL, 2, values, 3, &u) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_tree_from_csr(offsets, 4, children, 2, NULL, 3, &u) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_tree_from_csr(offsets, 4, children, 2, values, 3, NULL) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_tree_from_leaves(NULL, 8, 2, &u) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_tree_from_leaves(leaves, 8, 2, NULL) == MM_ERR_NULL_ARGUMENT);

    /* The chance functions. */
    bool chance[] = {true, false, false};
    double weights[] = {1, 3};
    CHECK(mm_tree_from_csr_chance(offsets, 4, children, 2, values, 3, NULL, weights, &u) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_tree_from_csr_chance(offsets, 4, children, 2, values, 3, chance, NULL, &u) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_tree_from_csr_chance(offsets, 4, children, 2, values, 3, chance, weights, NULL) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_tree_from_csr_chance(offsets, 4, children, 2, values, SIZE_MAX, chance, weights, &u) != MM_OK);
    mm_chance_solution cs;
    size_t cline[4];
    CHECK(mm_expectimax_leaves(NULL, 8, 2, true, MM_ALGORITHM_STAR2, &cs, cline, 4) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_expectimax_leaves(leaves, 8, 2, true, MM_ALGORITHM_STAR2, NULL, cline, 4) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_expectimax_leaves(leaves, 8, 2, true, MM_ALGORITHM_STAR2, &cs, cline, 2) == MM_ERR_BUFFER_TOO_SMALL);
    CHECK(mm_expectimax_leaves(leaves, 8, 2, true, 99, &cs, NULL, 0) == MM_ERR_UNKNOWN_ALGORITHM);
    CHECK(mm_expectimax_leaves(leaves, SIZE_MAX, 2, true, MM_ALGORITHM_STAR2, &cs, NULL, 0) != MM_OK);
    CHECK(mm_expectimax_leaves(leaves, 8, 2, true, MM_ALGORITHM_STAR2, &cs, NULL, 0) == MM_OK && cs.value == 7.0);
    CHECK(mm_tree_expectimax(NULL, true, MM_ALGORITHM_STAR1, &cs, NULL, 0) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_tree_from_csr_chance(offsets, 4, children, 2, values, 3, chance, weights, &u) == MM_OK);
    CHECK(mm_tree_expectimax(u, true, MM_ALGORITHM_STAR1, NULL, NULL, 0) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_tree_expectimax(u, true, MM_ALGORITHM_STAR1, &cs, NULL, 0) == MM_OK && cs.value == 0.25 * 4 + 0.75 * 7);
    mm_tree_free(u);
    u = NULL;
    size_t n, h, count, needed, line[8], nodes[16];
    CHECK(mm_tree_size(NULL, &n, &h) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_tree_size(t, NULL, &h) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_tree_size(t, &n, NULL) == MM_ERR_NULL_ARGUMENT);
    mm_node_info info;
    CHECK(mm_tree_node(NULL, 0, &info) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_tree_node(t, 0, NULL) == MM_ERR_NULL_ARGUMENT);
    mm_tree_solution ts;
    CHECK(mm_tree_solve(NULL, true, MM_ALGORITHM_ALPHABETA, &ts, line, 8) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_tree_solve(t, true, MM_ALGORITHM_ALPHABETA, NULL, line, 8) == MM_ERR_NULL_ARGUMENT);
    /* The line is optional (NULL: not written), whatever its capacity. */
    CHECK(mm_tree_solve(t, true, MM_ALGORITHM_ALPHABETA, &ts, NULL, 8) == MM_OK && ts.value == 6);
    CHECK(mm_tree_solve(t, true, MM_ALGORITHM_ALPHABETA, &ts, NULL, 0) == MM_OK && ts.value == 6);
    CHECK(mm_tree_pruned(NULL, true, nodes, 16, &count) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_tree_pruned(t, true, NULL, 16, &count) == MM_ERR_BUFFER_TOO_SMALL); /* documented */
    CHECK(mm_tree_pruned(t, true, nodes, 16, NULL) == MM_ERR_NULL_ARGUMENT);
    char buf[4096];
    CHECK(mm_tree_print(NULL, buf, sizeof buf, &needed) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_tree_print(t, buf, sizeof buf, NULL) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_tree_print(t, NULL, 0, &needed) == MM_ERR_BUFFER_TOO_SMALL && needed > 1);
    CHECK(mm_tree_dot(NULL, true, MM_ALGORITHM_ALPHABETA, buf, sizeof buf, &needed) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_tree_dot(t, true, MM_ALGORITHM_ALPHABETA, buf, sizeof buf, NULL) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_tree_dot(t, true, MM_ALGORITHM_ALPHABETA, NULL, 0, &needed) == MM_ERR_BUFFER_TOO_SMALL);
    CHECK(mm_error_message(-12345) != NULL && mm_version() != NULL);

    /* Sizes near SIZE_MAX: a capacity larger than the need writes only the need; a count
       larger than memory is refused before anything is read. */
    CHECK(mm_tree_print(t, buf, SIZE_MAX, &needed) == MM_OK && strlen(buf) + 1 == needed);
    CHECK(mm_tree_pruned(t, true, nodes, SIZE_MAX, &count) == MM_OK);
    CHECK(mm_tree_solve(t, true, MM_ALGORITHM_ALPHABETA, &ts, line, SIZE_MAX) == MM_OK);
    CHECK(mm_solve_leaves(leaves, SIZE_MAX, 2, true, MM_ALGORITHM_ALPHABETA, &s) != MM_OK);
    CHECK(mm_tree_from_leaves(leaves, SIZE_MAX, 2, &u) != MM_OK);
    CHECK(mm_tree_from_leaves(leaves, 8, SIZE_MAX, &u) != MM_OK);
    CHECK(mm_tree_parse(text, SIZE_MAX, &u, &e) != MM_OK);
    CHECK(mm_tree_node(t, SIZE_MAX, &info) == MM_ERR_NO_SUCH_NODE);
    mm_tree_free(t);

    mm_table *table = NULL;
    CHECK(mm_table_new(SIZE_MAX, &table) == MM_ERR_OUT_OF_MEMORY && table == NULL);
    mm_search_options_init(&o);
    o.max_depth = 6;
    CHECK(mm_search(&g, &o, &r, pv, SIZE_MAX) == MM_OK && r.pv_len <= 8);
    o.max_moves = SIZE_MAX;
    CHECK(mm_search(&g, &o, &r, NULL, 0) == MM_ERR_OUT_OF_MEMORY);
    o.max_moves = 7;
    o.table_bytes = SIZE_MAX; /* no table, same answer */
    o.node_limit = UINT64_MAX;
    o.time_limit_us = UINT64_MAX;
    CHECK(mm_search(&g, &o, &r, NULL, 0) == MM_OK);
    o.threads = UINT32_MAX; /* would be four billion copies of the game */
    CHECK(mm_search(&g, &o, &r, NULL, 0) == MM_ERR_TOO_MANY_THREADS);
    o.threads = MM_MAX_THREADS + 1;
    CHECK(mm_search(&g, &o, &r, NULL, 0) == MM_ERR_TOO_MANY_THREADS);
    o.threads = MM_MAX_THREADS;
    o.table_bytes = 1u << 20;
    CHECK(mm_search(&g, &o, &r, NULL, 0) == MM_OK && r.threads_used == MM_MAX_THREADS);
    o.method = 77;
    o.threads = 1;
    CHECK(mm_search(&g, &o, &r, NULL, 0) == MM_ERR_UNKNOWN_ALGORITHM);
}

/* ---- searches from inside a callback ---- */

typedef struct {
    position pos;      /* the game's own state: the callbacks below wrap connect4_game.h's */
    int mode;          /* what the moves callback does on its first call */
    bool done;
    mm_table *table;   /* the outer search's table */
    mm_status inner;   /* what the inner call returned */
    int32_t inner_value;
} nested;

static int nested_moves(void *ctx, int64_t *out, size_t cap) {
    nested *n = ctx;
    if (!n->done) {
        n->done = true;
        if (n->mode == 1 || n->mode == 2) {
            /* A new search of a copy of the position, with a table of its own (mode 1) or
               with the table of the search that is calling (mode 2). */
            static position copy;
            copy = n->pos;
            mm_game g = c4_game(&copy);
            mm_search_options o = c4_solver_options(&copy, NULL);
            mm_table *own = NULL;
            if (n->mode == 1)
                mm_table_new(1u << 20, &own);
            o.table = n->mode == 1 ? own : n->table;
            mm_search_result r;
            n->inner = mm_search(&g, &o, &r, NULL, 0);
            n->inner_value = r.value;
            mm_table_free(own);
        } else if (n->mode == 3) {
            mm_table_free(n->table); /* the table of the search that is calling */
        }
    }
    return c4_moves(&n->pos, out, cap);
}
static void nested_play(void *ctx, int64_t mv) { c4_play(&((nested *)ctx)->pos, mv); }
static void nested_undo(void *ctx, int64_t mv) { c4_undo(&((nested *)ctx)->pos, mv); }
static bool nested_outcome(void *ctx, int32_t *s) { return c4_outcome(&((nested *)ctx)->pos, s); }
static uint64_t nested_hash(void *ctx) { return c4_hash(&((nested *)ctx)->pos); }
static bool nested_bounds(void *ctx, int32_t *lo, int32_t *hi) { return c4_bounds(&((nested *)ctx)->pos, lo, hi); }

static mm_status run_nested(nested *n, int mode, mm_search_result *r) {
    c4_setup(&n->pos, "4455443");
    n->mode = mode;
    n->done = false;
    n->inner = (mm_status)-1;
    mm_game g;
    mm_game_init(&g);
    g.context = n;
    g.moves = nested_moves;
    g.play = nested_play;
    g.undo = nested_undo;
    g.outcome = nested_outcome;
    g.evaluate = c4_evaluate;
    g.hash = nested_hash;
    g.bounds = nested_bounds;
    mm_table_new(1u << 20, &n->table);
    mm_search_options o = c4_solver_options(&n->pos, n->table);
    return mm_search(&g, &o, r, NULL, 0);
}

static void reentrancy(void) {
    static nested n;
    mm_search_result plain, r;
    CHECK(run_nested(&n, 0, &plain) == MM_OK);
    mm_table_free(n.table);
    CHECK(run_nested(&n, 1, &r) == MM_OK && r.value == plain.value);
    CHECK(n.inner == MM_OK && n.inner_value == plain.value); /* nested search, own table */
    mm_table_free(n.table);
    CHECK(run_nested(&n, 2, &r) == MM_OK && r.value == plain.value);
    CHECK(n.inner == MM_ERR_TABLE_BUSY); /* the calling search's table */
    mm_table_free(n.table);
    /* Freed during its own search: the search ends normally and then frees it (the
       sanitizer and valgrind runs see neither a use after free nor a leak). */
    CHECK(run_nested(&n, 3, &r) == MM_OK && r.value == plain.value);
}

/* ---- one table, two threads ---- */

static mm_table *shared_table;
static int waiting, other_status = -1;

static int blocking_moves(void *ctx, int64_t *out, size_t cap) {
    if (__atomic_load_n(&waiting, __ATOMIC_SEQ_CST) == 1) {
        __atomic_store_n(&waiting, 2, __ATOMIC_SEQ_CST); /* the first search holds the table */
        while (__atomic_load_n(&other_status, __ATOMIC_SEQ_CST) == -1) {
            struct timespec ts = {0, 1000 * 1000};
            nanosleep(&ts, NULL);
        }
    }
    return c4_moves(ctx, out, cap);
}

static void *first_search(void *arg) {
    static position pos;
    c4_setup(&pos, "4455443");
    mm_game g = c4_game(&pos);
    g.moves = blocking_moves;
    mm_search_options o = c4_solver_options(&pos, shared_table);
    mm_search_result r;
    *(mm_status *)arg = mm_search(&g, &o, &r, NULL, 0);
    return NULL;
}

static void two_threads_one_table(void) {
    mm_table_new(1u << 20, &shared_table);
    waiting = 1;
    mm_status first = (mm_status)-1;
    pthread_t t;
    pthread_create(&t, NULL, first_search, &first);
    while (__atomic_load_n(&waiting, __ATOMIC_SEQ_CST) != 2) {
        struct timespec ts = {0, 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    static position pos;
    c4_setup(&pos, "4455");
    mm_game g = c4_game(&pos);
    mm_search_options o = c4_solver_options(&pos, shared_table);
    mm_search_result r;
    mm_status second = mm_search(&g, &o, &r, NULL, 0);
    __atomic_store_n(&other_status, (int)second, __ATOMIC_SEQ_CST);
    pthread_join(t, NULL);
    CHECK(second == MM_ERR_TABLE_BUSY && first == MM_OK);
    CHECK(mm_search(&g, &o, &r, NULL, 0) == MM_OK); /* free again once the first is done */
    mm_table_free(shared_table);
}

int main(void) {
    nulls();
    reentrancy();
    two_threads_one_table();
    printf("hostile: %d probes, failures %d\n", checks, failures);
    return failures != 0;
}
