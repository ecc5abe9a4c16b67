/*
 * Parallel search through the C API, as a C user writes it: the versioned mm_game and
 * mm_search_options (the previous size, the current size, sizes that are zero, too small,
 * in between, or larger), a game without copy callbacks, copies that fail, copy and free
 * called on the caller's thread and balanced, the same values on 1, 2 and 8 threads, and
 * the stop flag from another thread. Prints one summary line ending in "failures N".
 */
#define _POSIX_C_SOURCE 199309L
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../../c_examples/connect4_game.h"

#include "check.h"

static uint64_t seed = 0x2545F4914F6CDD1DULL;
static uint64_t next(void) {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A position of `n` stones by random play where the game is not over. */
static void random_position(position *p, int n) {
    for (;;) {
        c4_reset(p);
        bool ok = true;
        for (int i = 0; i < n && ok; i++) {
            int c = (int)(next() % W);
            ok = !(p->mask & top_col(c));
            if (ok) {
                c4_play(p, c);
                ok = !four_in_a_row(p->current ^ p->mask);
            }
        }
        if (ok)
            return;
    }
}

/* Copy callbacks that count, check the thread, and can be told to fail. */
static pthread_t caller;
static int copies, frees, wrong_thread, fail_copies;
static void *counting_copy(void *ctx) {
    wrong_thread += !pthread_equal(pthread_self(), caller);
    if (fail_copies)
        return NULL;
    copies++;
    return c4_copy(ctx);
}
static void counting_free(void *copy) {
    wrong_thread += !pthread_equal(pthread_self(), caller);
    frees++;
    c4_free(copy);
}

static mm_search_options solver(const position *p, uint32_t threads) {
    mm_search_options o = c4_solver_options(p, NULL);
    o.table_bytes = 4u << 20;
    o.threads = threads;
    return o;
}

/* Searches with `g` and `o` into a result pre-filled with a sentinel; returns the status
   and checks that an error leaves the result untouched. */
static mm_status search(const mm_game *g, const mm_search_options *o, mm_search_result *r) {
    memset(r, 0xA5, sizeof *r);
    mm_search_result sentinel = *r;
    mm_status s = mm_search(g, o, r, NULL, 0);
    if (s != MM_OK)
        CHECK(memcmp(r, &sentinel, sizeof *r) == 0);
    return s;
}

static void struct_sizes(void) {
    static position pos;
    random_position(&pos, 24);
    mm_game g = c4_game(&pos);
    g.copy_context = counting_copy;
    g.free_context = counting_free;
    mm_search_options o = solver(&pos, 2);
    mm_search_result r;
    CHECK(search(&g, &o, &r) == MM_OK && r.threads_used == 2);
    int32_t value = r.value;

    /* The previous mm_game: without the copy callbacks, which are then not read. */
    g.struct_size = offsetof(mm_game, copy_context);
    CHECK(search(&g, &o, &r) == MM_OK && r.threads_used == 1 && r.value == value);
    size_t bad[] = {0, 1, sizeof(size_t), offsetof(mm_game, bounds),
                    offsetof(mm_game, copy_context) + sizeof(void *), sizeof(mm_game) - 1};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        g.struct_size = bad[i];
        CHECK(search(&g, &o, &r) == MM_ERR_BAD_STRUCT_SIZE);
    }
    /* A newer caller's larger struct: accepted if what this version does not know is 0. */
    struct {
        mm_game game;
        uint64_t later[2];
    } big;
    memset(&big, 0, sizeof big);
    big.game = c4_game(&pos);
    big.game.struct_size = sizeof big;
    CHECK(search(&big.game, &o, &r) == MM_OK && r.value == value);
    big.later[1] = 1;
    CHECK(search(&big.game, &o, &r) == MM_ERR_BAD_STRUCT_SIZE);
    g.struct_size = sizeof g;

    /* The previous options: without `threads`, which is then 1 whatever the memory holds. */
    o.struct_size = offsetof(mm_search_options, threads);
    CHECK(search(&g, &o, &r) == MM_OK && r.threads_used == 1 && r.value == value);
    size_t bad_options[] = {0, 8, offsetof(mm_search_options, table), sizeof(mm_search_options) - 1};
    for (size_t i = 0; i < sizeof bad_options / sizeof bad_options[0]; i++) {
        o.struct_size = bad_options[i];
        CHECK(search(&g, &o, &r) == MM_ERR_BAD_STRUCT_SIZE);
    }
    struct {
        mm_search_options options;
        uint64_t later;
    } big_options;
    memset(&big_options, 0, sizeof big_options);
    big_options.options = solver(&pos, 2);
    big_options.options.struct_size = sizeof big_options;
    CHECK(search(&g, &big_options.options, &r) == MM_OK && r.threads_used == 2);
    big_options.later = 7;
    CHECK(search(&g, &big_options.options, &r) == MM_ERR_BAD_STRUCT_SIZE);
    o.struct_size = sizeof o;

    /* mm_game_init: the size, and NULL everywhere else. */
    mm_game fresh;
    memset(&fresh, 0xFF, sizeof fresh);
    CHECK(mm_game_init(&fresh) == MM_OK && fresh.struct_size == sizeof fresh);
    CHECK(fresh.context == NULL && fresh.moves == NULL && fresh.copy_context == NULL);
    CHECK(mm_game_init(NULL) == MM_ERR_NULL_ARGUMENT);
}

static void copies_and_threads(void) {
    static position pos;
    random_position(&pos, 22);
    mm_game g = c4_game(&pos);
    mm_search_result r;
    mm_search_options o = solver(&pos, 1);
    CHECK(search(&g, &o, &r) == MM_OK && r.threads_used == 1);
    int32_t value = r.value;

    /* No copy callback: one thread, said in threads_used and why in fewer_threads. A copy
       without a free: refused. */
    g.copy_context = NULL;
    g.free_context = NULL;
    o.threads = 4;
    CHECK(search(&g, &o, &r) == MM_OK && r.threads_used == 1 && r.value == value);
    CHECK(r.fewer_threads == MM_FEWER_THREADS_NO_COPY);
    g.copy_context = counting_copy;
    CHECK(search(&g, &o, &r) == MM_ERR_COPY_WITHOUT_FREE);

    /* Copies made and freed on the caller's thread, as many frees as copies; copies that
       fail leave fewer threads. */
    g.free_context = counting_free;
    copies = frees = wrong_thread = 0;
    CHECK(search(&g, &o, &r) == MM_OK && r.threads_used == 4 && r.value == value);
    CHECK(copies == 3 && frees == 3 && wrong_thread == 0);
    fail_copies = 1;
    CHECK(search(&g, &o, &r) == MM_OK && r.threads_used == 1 && r.value == value);
    fail_copies = 0;
    CHECK(memcmp(&pos, &pos, sizeof pos) == 0);
}

/* 200 positions: 2 and 8 threads give one thread's value. */
static int same_values(void) {
    static position pos;
    mm_game g = c4_game(&pos);
    int compared = 0;
    for (int i = 0; i < 200; i++) {
        random_position(&pos, 16 + (int)(next() % 13));
        uint64_t before = pos.current + pos.mask;
        mm_search_result one, many;
        mm_search_options o = solver(&pos, 1);
        CHECK(search(&g, &o, &one) == MM_OK && one.proven);
        for (uint32_t threads = 2; threads <= 8; threads *= 4) {
            o.threads = threads;
            CHECK(search(&g, &o, &many) == MM_OK);
            CHECK(many.value == one.value && many.proven && many.threads_used == threads);
            compared++;
        }
        CHECK(pos.current + pos.mask == before); /* the game is left as it was */
    }
    return compared;
}

static int stop_flag;
static double stopped_at;
static void *stopper(void *arg) {
    (void)arg;
    struct timespec ts = {0, 100 * 1000 * 1000};
    nanosleep(&ts, NULL);
    stopped_at = now_s();
    __atomic_store_n(&stop_flag, 1, __ATOMIC_SEQ_CST);
    return NULL;
}

/* The empty board (minutes to solve) on 2 threads, stopped from another thread. */
static double stop_latency(void) {
    static position pos;
    c4_reset(&pos);
    mm_game g = c4_game(&pos);
    mm_search_options o = solver(&pos, 2);
    o.stop = &stop_flag;
    pthread_t t;
    pthread_create(&t, NULL, stopper, NULL);
    mm_search_result r;
    CHECK(search(&g, &o, &r) == MM_OK && r.has_move && !r.proven && r.threads_used == 2);
    double latency = now_s() - stopped_at;
    pthread_join(t, NULL);
    CHECK(latency < 0.5);
    return latency;
}

int main(void) {
    caller = pthread_self();
    struct_sizes();
    copies_and_threads();
    int compared = same_values();
    double latency = stop_latency();
    printf("parallel: %d values compared on 2 and 8 threads, stopped %.2f ms after the flag, failures %d\n",
           compared, latency * 1e3, failures);
    return failures != 0;
}
