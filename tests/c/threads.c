/*
 * libminimax from many threads: 8 pthreads, each with its own data, run tree solves and
 * game searches and make calls that fail; the results must equal a sequential run's, and
 * each thread must see only its own mm_last_error. Then one search is stopped from another
 * thread through the stop flag and must return promptly with a legal move.
 *
 * Prints a summary line; exits 0 only if everything held. Built and run by tests/c_programs/threads.rs.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "connect4_game.h"
#include "minimax.h"

#define THREADS 8
#define TREES 60    /* tree solves per thread, each by four routes */
#define SEARCHES 20 /* Connect Four searches per thread */

typedef struct {
    int id;
    int32_t tree_values[TREES][4];
    int32_t search_values[SEARCHES];
    int64_t search_moves[SEARCHES];
    int failures;
    int errors_checked;
} work;

static pthread_barrier_t barrier;

static uint64_t next(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

#define CHECK(w, cond)                                                                   \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "thread %d, line %d: %s\n", (w)->id, __LINE__, #cond);       \
            (w)->failures++;                                                             \
        }                                                                                \
    } while (0)

/* The same tree four ways: the textbook function, the checked API, parsed text, and
   a tree built from the leaves. */
static void solve_trees(work *w) {
    uint64_t seed = 0x9E3779B97F4A7C15ULL ^ (uint64_t)(w->id + 1) * 0x2545F4914F6CDD1DULL;
    for (int t = 0; t < TREES; t++) {
        int h = 1 + (int)(next(&seed) % 10);
        int n = 1 << h;
        int *leaves = malloc(sizeof *leaves * (size_t)n);
        for (int i = 0; i < n; i++)
            leaves[i] = (int)(next(&seed) % 2001) - 1000;
        w->tree_values[t][0] = minimax(0, 0, true, leaves, h);
        CHECK(w, mm_last_error() == MM_OK);

        mm_solution sol;
        CHECK(w, mm_solve_leaves(leaves, (size_t)n, 2, true, MM_ALGORITHM_DEFAULT, &sol) == MM_OK);
        w->tree_values[t][1] = sol.value;

        /* The text of the same tree: nested pairs. */
        size_t cap = (size_t)n * 16 + 16, len = 0;
        char *text = malloc(cap);
        for (int i = 0; i < n; i++) {
            /* a parenthesis opens for every level whose first leaf is i, and closes for
               every level whose last leaf is i */
            int opens = 0;
            while (opens < h && i % (1 << (opens + 1)) == 0)
                opens++;
            for (int k = 0; k < opens; k++)
                text[len++] = '(';
            len += (size_t)sprintf(text + len, "%d", leaves[i]);
            int closes = 0;
            while (closes < h && (i + 1) % (1 << (closes + 1)) == 0)
                closes++;
            for (int k = 0; k < closes; k++)
                text[len++] = ')';
            text[len++] = ' ';
        }
        mm_tree *tree = NULL;
        CHECK(w, mm_tree_parse(text, len, &tree, NULL) == MM_OK);
        mm_tree_solution ts;
        CHECK(w, tree && mm_tree_solve(tree, true, MM_ALGORITHM_ALPHABETA, &ts, NULL, 0) == MM_OK);
        w->tree_values[t][2] = ts.value;
        mm_tree_free(tree);

        tree = NULL;
        CHECK(w, mm_tree_from_leaves(leaves, (size_t)n, 2, &tree) == MM_OK);
        CHECK(w, tree && mm_tree_solve(tree, true, MM_ALGORITHM_MINIMAX, &ts, NULL, 0) == MM_OK);
        w->tree_values[t][3] = ts.value;
        mm_tree_free(tree);
        free(text);
        free(leaves);
    }
}

/* Late Connect Four positions by seeded random play, solved exactly with a table of this
   thread's own. */
static void search_games(work *w) {
    uint64_t seed = 0xD1B54A32D192ED03ULL ^ (uint64_t)(w->id + 1) * 0x9E3779B97F4A7C15ULL;
    mm_table *table = NULL;
    CHECK(w, mm_table_new(1u << 20, &table) == MM_OK);
    position pos;
    mm_game game = c4_game(&pos);
    for (int s = 0; s < SEARCHES; s++) {
        for (;;) { /* a position of 28 stones where the game is not over */
            c4_reset(&pos);
            bool ok = true;
            for (int i = 0; i < 28 && ok; i++) {
                int c = (int)(next(&seed) % W);
                if (pos.mask & top_col(c)) {
                    ok = false;
                    break;
                }
                c4_play(&pos, c);
                ok = !four_in_a_row(pos.current ^ pos.mask);
            }
            if (ok)
                break;
        }
        mm_search_options o = c4_solver_options(&pos, table);
        mm_search_result r;
        int64_t pv[64];
        CHECK(w, mm_search(&game, &o, &r, pv, 64) == MM_OK);
        w->search_values[s] = r.value;
        w->search_moves[s] = r.best_move;
    }
    mm_table_free(table);
}

/* Each thread fails in its own way, waits while the others fail or succeed, then must
   still see its own error. */
static void check_errors(work *w) {
    int scores[2] = {1, 2};
    mm_status mine;
    switch (w->id % 3) {
    case 0:
        minimax(0, 0, true, NULL, 1);
        mine = MM_ERR_NULL_ARGUMENT;
        break;
    case 1:
        alphabeta(-1, 0, 0, true, scores, 0, 1);
        mine = MM_ERR_NEGATIVE_HEIGHT;
        break;
    default:
        minimax(0, 0, true, scores, 1); /* succeeds */
        mine = MM_OK;
        break;
    }
    pthread_barrier_wait(&barrier);
    /* Everyone makes calls of their own kind again, now all at once. */
    for (int i = 0; i < 1000; i++) {
        if (mine == MM_OK)
            minimax(1, 1, false, scores, 1);
        else if (mine == MM_ERR_NULL_ARGUMENT)
            minimax(0, 0, true, NULL, 1);
        else
            alphabeta(-1, 0, 0, true, scores, 0, 1);
        CHECK(w, mm_last_error() == mine);
        w->errors_checked++;
    }
    pthread_barrier_wait(&barrier);
    CHECK(w, mm_last_error() == mine);
    w->errors_checked++;
}

static void *run(void *arg) {
    work *w = arg;
    check_errors(w);
    solve_trees(w);
    search_games(w);
    return NULL;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

typedef struct {
    int stop;
    mm_status status;
    mm_search_result result;
    double returned_at;
} stopped_search;

/* The empty board solved exactly: minutes of work, unless stopped. */
static void *hard_search(void *arg) {
    stopped_search *s = arg;
    position pos;
    c4_reset(&pos);
    mm_game game = c4_game(&pos);
    mm_search_options o = c4_solver_options(&pos, NULL);
    o.table_bytes = 1u << 20;
    o.stop = &s->stop;
    s->status = mm_search(&game, &o, &s->result, NULL, 0);
    s->returned_at = now();
    return NULL;
}

int main(void) {
    static work sequential[THREADS], parallel[THREADS];
    int failures = 0, checked = 0;

    /* The sequential run: the same work, one thread after the other (a barrier of one). */
    pthread_barrier_init(&barrier, NULL, 1);
    for (int t = 0; t < THREADS; t++) {
        sequential[t].id = t;
        run(&sequential[t]);
        failures += sequential[t].failures;
    }
    pthread_barrier_destroy(&barrier);

    pthread_barrier_init(&barrier, NULL, THREADS);
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; t++) {
        parallel[t].id = t;
        if (pthread_create(&threads[t], NULL, run, &parallel[t]) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            return 1;
        }
    }
    for (int t = 0; t < THREADS; t++)
        pthread_join(threads[t], NULL);
    pthread_barrier_destroy(&barrier);

    for (int t = 0; t < THREADS; t++) {
        failures += parallel[t].failures;
        checked += parallel[t].errors_checked;
        for (int i = 0; i < TREES; i++) {
            for (int k = 0; k < 4; k++) {
                if (parallel[t].tree_values[i][k] != sequential[t].tree_values[i][0] ||
                    sequential[t].tree_values[i][k] != sequential[t].tree_values[i][0]) {
                    fprintf(stderr, "thread %d tree %d route %d differs\n", t, i, k);
                    failures++;
                }
            }
        }
        for (int i = 0; i < SEARCHES; i++) {
            if (parallel[t].search_values[i] != sequential[t].search_values[i] ||
                parallel[t].search_moves[i] != sequential[t].search_moves[i]) {
                fprintf(stderr, "thread %d search %d differs\n", t, i);
                failures++;
            }
        }
    }

    /* A search stopped from another thread. */
    static stopped_search s;
    pthread_t searcher;
    pthread_create(&searcher, NULL, hard_search, &s);
    struct timespec pause = {0, 200 * 1000 * 1000};
    nanosleep(&pause, NULL);
    double stopped_at = now();
    __atomic_store_n(&s.stop, 1, __ATOMIC_SEQ_CST);
    pthread_join(searcher, NULL);
    double latency_ms = (s.returned_at - stopped_at) * 1e3;
    bool legal = s.status == MM_OK && s.result.has_move && s.result.best_move >= 0 && s.result.best_move < W;
    if (!legal || latency_ms > 1000) {
        fprintf(stderr, "stopped search: status %d, move %lld, %.1f ms after the stop\n", (int)s.status,
                (long long)s.result.best_move, latency_ms);
        failures++;
    }

    printf("threads %d: %d tree solves (4 routes each) and %d searches per thread, equal to the sequential run; "
           "%d per-thread error checks; a search stopped from another thread returned move %lld after %.2f ms "
           "(%llu nodes); failures %d\n",
           THREADS, TREES, SEARCHES, checked, (long long)s.result.best_move, latency_ms,
           (unsigned long long)s.result.stats.nodes, failures);
    return failures == 0 ? 0 : 1;
}
