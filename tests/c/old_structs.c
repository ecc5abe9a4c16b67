/*
 * Structs of older versions' sizes (as a program compiled against an older header, or a
 * binding written for one, has them): the library must never write (or read) past them. Each struct lives in a
 * heap block of exactly its old size, so that ASan and valgrind see a write one byte
 * past it. Also: the sized init functions at every known size, and sizes they refuse; why
 * fewer threads searched; and scores from the side to move (a 0.4 field of mm_game).
 * Prints one summary line ending in "failures N".
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "minimax.h"

#include "check.h"

/* mm_game as version 0.2.0 declared it: no chance callbacks, 96 bytes. */
typedef struct {
    size_t struct_size;
    void *context;
    int (*moves)(void *context, int64_t *moves, size_t capacity);
    void (*play)(void *context, int64_t mv);
    void (*undo)(void *context, int64_t mv);
    bool (*outcome)(void *context, int32_t *score);
    int32_t (*evaluate)(void *context);
    uint64_t (*hash)(void *context);
    bool (*max_to_move)(void *context);
    bool (*bounds)(void *context, int32_t *lo, int32_t *hi);
    void *(*copy_context)(void *context);
    void (*free_context)(void *copy);
} game_0_2_0;

/* mm_search_result as version 0.2.0 declared it: up to threads_used, 96 bytes. */
typedef struct {
    bool has_move;
    int64_t best_move;
    int32_t value;
    bool exact;
    bool proven;
    mm_value_kind value_kind;
    int32_t plies_to_end;
    uint32_t depth;
    size_t pv_len;
    mm_search_stats stats;
    uint32_t threads_used;
} result_0_2_0;

/* The old layouts are prefixes of today's. */
#define SAME_OFFSET(old, new, field) (offsetof(old, field) == offsetof(new, field))
_Static_assert(sizeof(game_0_2_0) == 96, "0.2.0's mm_game is 96 bytes");
_Static_assert(SAME_OFFSET(game_0_2_0, mm_game, free_context), "mm_game grew at its end");
_Static_assert(sizeof(result_0_2_0) == 96, "0.2.0's mm_search_result is 96 bytes");
_Static_assert(SAME_OFFSET(result_0_2_0, mm_search_result, threads_used), "result prefix");
_Static_assert(offsetof(mm_search_result, fewer_threads) + sizeof(uint32_t) <= 96,
               "fewer_threads lies in 0.2.0's padding");
/* Reads or writes one field of a struct through bytes: the blocks below are smaller than
   today's struct, and only the fields they hold are touched. */
#define GET(ptr, type, field, var) \
    memcpy(&(var), (const unsigned char *)(ptr) + offsetof(type, field), sizeof(var))
#define SET(ptr, type, field, var) \
    memcpy((unsigned char *)(ptr) + offsetof(type, field), &(var), sizeof(var))

/* The options before `threads` (version 0.1.0) end at its offset. */
#define OPTIONS_0_1_0 offsetof(mm_search_options, threads)
/* The options of 0.2.0 to 0.4.0 end before `table_frontier` (`threads` and its padding). */
#define OPTIONS_0_4_0 offsetof(mm_search_options, table_frontier)

/* Nim: take 1 or 2 stones, whoever takes the last wins (+1 when MAX does). */
typedef struct {
    int stones;
    int ply;
} nim;

static int nim_moves(void *c, int64_t *out, size_t cap) {
    nim *n = c;
    int k = 0;
    for (int take = 1; take <= 2 && take <= n->stones && (size_t)k < cap; take++)
        out[k++] = take;
    return k;
}
static void nim_play(void *c, int64_t mv) {
    nim *n = c;
    n->stones -= (int)mv;
    n->ply++;
}
static void nim_undo(void *c, int64_t mv) {
    nim *n = c;
    n->stones += (int)mv;
    n->ply--;
}
static bool nim_outcome(void *c, int32_t *score) {
    nim *n = c;
    if (n->stones > 0)
        return false;
    *score = n->ply % 2 == 1 ? 1 : -1; /* MAX moved last */
    return true;
}
static int32_t nim_evaluate(void *c) {
    (void)c;
    return 0;
}
static uint64_t nim_hash(void *c) {
    nim *n = c;
    return (uint64_t)n->stones * 2 + (uint64_t)(n->ply % 2);
}
static void *nim_copy(void *c) {
    nim *copy = malloc(sizeof *copy);
    if (copy)
        *copy = *(nim *)c;
    return copy;
}

/* The value by plain recursion: the reference. */
static int nim_value(int stones, bool max) {
    if (stones == 0)
        return max ? -1 : 1; /* the side that moved last won */
    int best = max ? -2 : 2;
    for (int take = 1; take <= 2 && take <= stones; take++) {
        int v = nim_value(stones - take, !max);
        best = max ? (v > best ? v : best) : (v < best ? v : best);
    }
    return best;
}

/* A game of 0.2.0 in a block of its size, filled as that version's size. */
static void old_game_searches(void) {
    game_0_2_0 *g = malloc(sizeof *g);
    CHECK(g != NULL);
    if (!g)
        return;
    memset(g, 0xAB, sizeof *g);
    CHECK(mm_game_init_sized((mm_game *)g, sizeof *g) == MM_OK);
    CHECK(g->struct_size == 96 && g->context == NULL && g->free_context == NULL);
    for (int stones = 1; stones <= 10; stones++) {
        nim n = {stones, 0};
        g->context = &n;
        g->moves = nim_moves;
        g->play = nim_play;
        g->undo = nim_undo;
        g->outcome = nim_outcome;
        g->evaluate = nim_evaluate;
        g->hash = nim_hash;
        g->copy_context = nim_copy;
        g->free_context = free;
        void *old_options = malloc(OPTIONS_0_1_0);
        result_0_2_0 *r = malloc(sizeof *r);
        CHECK(old_options && r);
        if (!old_options || !r) {
            free(old_options);
            free(r);
            break;
        }
        /* 0.1.0's options (no threads) and 0.2.0's result. */
        CHECK(mm_search_options_init_sized(old_options, OPTIONS_0_1_0) == MM_OK);
        size_t size;
        mm_search_method method;
        GET(old_options, mm_search_options, struct_size, size);
        GET(old_options, mm_search_options, method, method);
        CHECK(size == OPTIONS_0_1_0 && method == MM_SEARCH_ALPHABETA);
        uint32_t unlimited = MM_DEPTH_UNLIMITED;
        SET(old_options, mm_search_options, max_depth, unlimited);
        CHECK(mm_search((const mm_game *)g, old_options, (mm_search_result *)r, NULL, 0) == MM_OK);
        CHECK(r->has_move && r->proven && r->value == nim_value(stones, true));
        CHECK(r->threads_used == 1);
        free(old_options);
        /* 0.4.0's options, whose padding after `threads` an old program may leave as it
           finds it: the library reads none of it, and the table is used as 0.4.0's was
           not asked to change (`table_frontier` false). */
        unsigned char *options_0_4 = malloc(OPTIONS_0_4_0);
        CHECK(options_0_4 != NULL);
        if (options_0_4) {
            CHECK(mm_search_options_init_sized((mm_search_options *)options_0_4, OPTIONS_0_4_0) == MM_OK);
            memset(options_0_4 + offsetof(mm_search_options, threads) + sizeof(uint32_t), 0xAB,
                   OPTIONS_0_4_0 - offsetof(mm_search_options, threads) - sizeof(uint32_t));
            uint32_t depth = (uint32_t)stones + 1; /* to the end: the exact value */
            SET(options_0_4, mm_search_options, max_depth, depth);
            CHECK(mm_search((const mm_game *)g, (const mm_search_options *)options_0_4,
                            (mm_search_result *)r, NULL, 0) == MM_OK);
            CHECK(r->has_move && r->value == nim_value(stones, true));
        }
        free(options_0_4);
        /* Today's options, on two threads. */
        mm_search_options *o = malloc(sizeof *o);
        CHECK(o != NULL);
        if (o) {
            CHECK(mm_search_options_init(o) == MM_OK && o->struct_size == sizeof *o);
            o->threads = 2;
            CHECK(mm_search((const mm_game *)g, o, (mm_search_result *)r, NULL, 0) == MM_OK);
            CHECK(r->value == nim_value(stones, true) && r->threads_used == 2);
            mm_fewer_threads why;
            GET(r, mm_search_result, fewer_threads, why);
            CHECK(why == MM_FEWER_THREADS_NONE);
            /* This version's field: the table one ply above the leaves too. */
            o->threads = 1;
            o->max_depth = (uint32_t)stones + 1;
            o->table_frontier = true;
            CHECK(mm_search((const mm_game *)g, o, (mm_search_result *)r, NULL, 0) == MM_OK);
            CHECK(r->value == nim_value(stones, true));
            /* And the learned move order (fields where the padding was). */
            o->killer_moves = true;
            o->history_order = true;
            CHECK(mm_search((const mm_game *)g, o, (mm_search_result *)r, NULL, 0) == MM_OK);
            CHECK(r->value == nim_value(stones, true));
            /* Late move reductions, aspiration windows and time management (fields where
               the padding was too): a proven value is the same. */
            o->late_move_reductions = true;
            o->aspiration_windows = true;
            o->time_management = true;
            o->time_limit_us = 60000000;
            CHECK(mm_search((const mm_game *)g, o, (mm_search_result *)r, NULL, 0) == MM_OK);
            CHECK(r->value == nim_value(stones, true) && r->proven);
        }
        free(o);
        free(r);
        CHECK(n.stones == stones && n.ply == 0);
    }
    free(g);
}

/* mm_game_init_sized and mm_search_options_init_sized at every size they know. */
static void sized_inits(void) {
    const size_t game_sizes[] = {offsetof(mm_game, copy_context), offsetof(mm_game, is_chance),
                                 offsetof(mm_game, score_view), offsetof(mm_game, priors),
                                 offsetof(mm_game, information_key), offsetof(mm_game, stage),
                                 sizeof(mm_game), sizeof(mm_game) + 16};
    for (size_t i = 0; i < sizeof game_sizes / sizeof game_sizes[0]; i++) {
        size_t size = game_sizes[i];
        unsigned char *block = malloc(size);
        CHECK(block != NULL);
        if (!block)
            continue;
        memset(block, 0xAB, size);
        CHECK(mm_game_init_sized((mm_game *)block, size) == MM_OK);
        size_t written;
        memcpy(&written, block, sizeof written);
        CHECK(written == size);
        /* Every field after the size is NULL or zero (the padding is not a field), and
           so is every byte past this header's struct. */
        const size_t view = offsetof(mm_game, score_view);
        bool zero = true;
        for (size_t k = sizeof(size_t); k < size && k < view; k += sizeof(void *)) {
            void *p;
            memcpy(&p, block + k, sizeof p);
            zero = zero && p == NULL;
        }
        if (size > view) {
            mm_score_view v;
            memcpy(&v, block + view, sizeof v);
            zero = zero && v == MM_SCORES_MAX_VIEW;
        }
        if (size > offsetof(mm_game, priors)) {
            void *p;
            memcpy(&p, block + offsetof(mm_game, priors), sizeof p);
            zero = zero && p == NULL;
        }
        for (size_t k = sizeof(mm_game); k < size; k++)
            zero = zero && block[k] == 0;
        CHECK(zero);
        free(block);
    }
    const size_t option_sizes[] = {OPTIONS_0_1_0, OPTIONS_0_4_0,
                                   offsetof(mm_search_options, enhanced_transposition_cutoffs),
                                   sizeof(mm_search_options), sizeof(mm_search_options) + 8};
    for (size_t i = 0; i < sizeof option_sizes / sizeof option_sizes[0]; i++) {
        size_t size = option_sizes[i];
        unsigned char *block = malloc(size);
        CHECK(block != NULL);
        if (!block)
            continue;
        memset(block, 0xAB, size);
        CHECK(mm_search_options_init_sized((mm_search_options *)block, size) == MM_OK);
        size_t written, max_moves;
        GET(block, mm_search_options, struct_size, written);
        GET(block, mm_search_options, max_moves, max_moves);
        CHECK(written == size && max_moves == 256);
        if (size > sizeof(mm_search_options))
            CHECK(block[sizeof(mm_search_options)] == 0 && block[size - 1] == 0);
        free(block);
    }
    /* Sizes no version had: refused, nothing written. */
    mm_game g;
    memset(&g, 0xAB, sizeof g);
    mm_game before = g;
    const size_t bad[] = {0, 8, 95, 100, 104, sizeof(mm_game) - 4};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(mm_game_init_sized(&g, bad[i]) == MM_ERR_BAD_STRUCT_SIZE);
        CHECK(memcmp(&g, &before, sizeof g) == 0);
    }
    mm_search_options o;
    memset(&o, 0xAB, sizeof o);
    mm_search_options obefore = o;
    CHECK(mm_search_options_init_sized(&o, 88) == MM_ERR_BAD_STRUCT_SIZE);
    CHECK(memcmp(&o, &obefore, sizeof o) == 0);
    CHECK(mm_game_init_sized(NULL, sizeof(mm_game)) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_search_options_init_sized(NULL, sizeof o) == MM_ERR_NULL_ARGUMENT);
    /* The macros pass this header's sizes. */
    CHECK(mm_game_init(&g) == MM_OK && g.struct_size == sizeof g && g.outcomes == NULL);
    CHECK(mm_search_options_init(&o) == MM_OK && o.struct_size == sizeof o);
}

/* Why fewer threads searched, in the result. */
static void fewer_threads(void) {
    nim n = {7, 0};
    mm_game g;
    mm_game_init(&g);
    g.context = &n;
    g.moves = nim_moves;
    g.play = nim_play;
    g.undo = nim_undo;
    g.outcome = nim_outcome;
    g.evaluate = nim_evaluate;
    g.hash = nim_hash;
    mm_search_options o;
    mm_search_options_init(&o);
    o.threads = 2;
    mm_search_result r;
    CHECK(mm_search(&g, &o, &r, NULL, 0) == MM_OK);
    CHECK(r.threads_used == 1 && r.fewer_threads == MM_FEWER_THREADS_NO_COPY);
    g.copy_context = nim_copy;
    g.free_context = free;
    CHECK(mm_search(&g, &o, &r, NULL, 0) == MM_OK);
    CHECK(r.threads_used == 2 && r.fewer_threads == MM_FEWER_THREADS_NONE);
    o.method = MM_SEARCH_MINIMAX;
    CHECK(mm_search(&g, &o, &r, NULL, 0) == MM_OK && r.fewer_threads == MM_FEWER_THREADS_MINIMAX);
    o.method = MM_SEARCH_ALPHABETA;
    o.table_bytes = 0;
    CHECK(mm_search(&g, &o, &r, NULL, 0) == MM_OK && r.fewer_threads == MM_FEWER_THREADS_NO_TABLE);
    o.table_bytes = 1 << 16;
    g.hash = NULL;
    CHECK(mm_search(&g, &o, &r, NULL, 0) == MM_OK && r.fewer_threads == MM_FEWER_THREADS_NO_HASH);
    o.threads = 1;
    CHECK(mm_search(&g, &o, &r, NULL, 0) == MM_OK && r.fewer_threads == MM_FEWER_THREADS_NONE);
    CHECK(r.value == nim_value(7, true));
}

/* Nim scored from the side to move: with no stones left, the side to move has lost. */
static bool nim_side_outcome(void *c, int32_t *score) {
    nim *n = c;
    if (n->stones > 0)
        return false;
    *score = -1;
    return true;
}

static void side_to_move(void) {
    for (int stones = 1; stones <= 12; stones++) {
        for (int threads = 1; threads <= 2; threads++) {
            nim n = {stones, 0};
            mm_game g;
            mm_game_init(&g);
            CHECK(g.score_view == MM_SCORES_MAX_VIEW);
            g.context = &n;
            g.moves = nim_moves;
            g.play = nim_play;
            g.undo = nim_undo;
            g.outcome = nim_side_outcome;
            g.evaluate = nim_evaluate;
            g.hash = nim_hash;
            g.copy_context = nim_copy;
            g.free_context = free;
            g.score_view = MM_SCORES_SIDE_TO_MOVE;
            mm_search_options o;
            mm_search_options_init(&o);
            o.threads = (uint32_t)threads;
            mm_search_result r;
            /* The result stays MAX's view: MAX moves first here. */
            CHECK(mm_search(&g, &o, &r, NULL, 0) == MM_OK);
            CHECK(r.proven && r.value == nim_value(stones, true));
            g.score_view = 2;
            CHECK(mm_search(&g, &o, &r, NULL, 0) == MM_ERR_UNKNOWN_SCORE_VIEW);
        }
    }
}

int main(void) {
    old_game_searches();
    side_to_move();
    sized_inits();
    fewer_threads();
    printf("old_structs: %d probes, failures %d\n", checks, failures);
    return failures != 0;
}
