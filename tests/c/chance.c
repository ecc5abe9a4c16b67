/*
 * Chance nodes through the C API: random trees of MAX, MIN and chance nodes given as
 * mm_game callbacks, searched by MM_SEARCH_EXPECTIMAX, STAR1 and STAR2 and compared with
 * a plain expectimax written here; callbacks that break the chance contract; the
 * 0.2.0-sized mm_game (no chance callbacks) and mm_search_result (no `expected`).
 * Prints one summary line ending in "failures N".
 */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "minimax.h"

#include "check.h"

enum { MAXN = 4000, MAXKIDS = 4, MAXDEPTH = 16 };
enum kind { KMAX, KMIN, KCHANCE };

/* An explicit tree: node 0 is the root; a node without children is a leaf. */
typedef struct {
    int n;
    int kind[MAXN], score[MAXN], nkids[MAXN], kid[MAXN][MAXKIDS];
    double weight[MAXN][MAXKIDS];
    int path[MAXDEPTH + 2], depth;
    /* Misbehaviour to test: what the outcomes callback returns instead. */
    int bad;
} tree;

static uint64_t rng = 88172645463325252ull;
static int below(int n) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (int)(rng % (uint64_t)n);
}

static int grow(tree *t, int height) {
    int id = t->n++;
    t->kind[id] = below(3);
    t->score[id] = below(101) - 50;
    t->nkids[id] = 0;
    if (height == 0 || t->n > MAXN - 2 * MAXKIDS * 50 || below(6) == 0)
        return id;
    int k = 1 + below(MAXKIDS);
    for (int i = 0; i < k; i++) {
        int c = grow(t, height - 1);
        t->kid[id][i] = c;
        t->weight[id][i] = below(4) == 0 ? below(3) : (1 + below(999)) / 7.0;
        t->nkids[id]++;
    }
    t->weight[id][0] += 0.5; /* a positive total */
    return id;
}

static int here(tree *t) { return t->path[t->depth]; }

static int moves(void *c, int64_t *out, size_t cap) {
    tree *t = c;
    int n = t->nkids[here(t)];
    for (int i = 0; i < n && (size_t)i < cap; i++)
        out[i] = i;
    return n;
}
static void play(void *c, int64_t mv) {
    tree *t = c;
    int node = here(t);
    t->path[++t->depth] = t->kid[node][mv];
}
static void undo(void *c, int64_t mv) {
    (void)mv;
    ((tree *)c)->depth--;
}
static bool outcome(void *c, int32_t *score) {
    tree *t = c;
    *score = t->score[here(t)];
    return t->nkids[here(t)] == 0;
}
static int32_t evaluate(void *c) { return ((tree *)c)->score[here((tree *)c)]; }
static bool max_to_move(void *c) { return ((tree *)c)->kind[here((tree *)c)] != KMIN; }
static bool bounds(void *c, int32_t *lo, int32_t *hi) {
    (void)c;
    *lo = -50;
    *hi = 50;
    return true;
}
static bool is_chance(void *c) {
    tree *t = c;
    return t->kind[here(t)] == KCHANCE && t->nkids[here(t)] > 0;
}
static int outcomes(void *c, int64_t *out, double *w, size_t cap) {
    tree *t = c;
    int node = here(t), n = t->nkids[node];
    switch (t->bad) {
    case 1: return 0;                   /* no outcomes */
    case 2: n = (int)cap + 1; break;    /* more than the room */
    case 3: return -1;                  /* a negative count */
    }
    for (int i = 0; i < n && (size_t)i < cap; i++) {
        out[i] = i;
        w[i] = t->weight[node][i];
        if (t->bad == 4)
            w[i] = -1.0;
        if (t->bad == 5)
            w[i] = NAN;
        if (t->bad == 6)
            w[i] = INFINITY;
        if (t->bad == 7)
            w[i] = 0.0;
        if (t->bad == 8)
            w[i] = DBL_MAX; /* each finite; the sum of two overflows */
    }
    return n;
}

/* Plain expectiminimax, `depth` plies deep. */
static double plain(const tree *t, int node, int depth) {
    if (t->nkids[node] == 0 || depth == 0)
        return t->score[node];
    double best = 0, sum = 0, total = 0;
    for (int i = 0; i < t->nkids[node]; i++)
        total += t->weight[node][i];
    for (int i = 0; i < t->nkids[node]; i++) {
        double v = plain(t, t->kid[node][i], depth - 1);
        if (t->kind[node] == KCHANCE) {
            if (t->weight[node][i] > 0)
                sum += t->weight[node][i] * v;
        } else if (i == 0 || (t->kind[node] == KMAX ? v > best : v < best)) {
            best = v;
        }
    }
    return t->kind[node] == KCHANCE ? sum / total : best;
}

static mm_game game_of(tree *t) {
    mm_game g;
    mm_game_init(&g);
    g.context = t;
    g.moves = moves;
    g.play = play;
    g.undo = undo;
    g.outcome = outcome;
    g.evaluate = evaluate;
    g.max_to_move = max_to_move;
    g.bounds = bounds;
    g.is_chance = is_chance;
    g.outcomes = outcomes;
    return g;
}

static mm_search_options options(mm_search_method method, uint32_t depth) {
    mm_search_options o;
    mm_search_options_init(&o);
    o.method = method;
    o.max_depth = depth;
    o.max_moves = MAXKIDS;
    return o;
}

/* No libm: the test links only the library. */
static double absolute(double x) { return x < 0 ? -x : x; }
static int32_t nearest(double x) { return (int32_t)(x >= 0 ? x + 0.5 : x - 0.5); }

static int close_to(double a, double b) {
    double scale = absolute(a) > absolute(b) ? absolute(a) : absolute(b);
    return absolute(a - b) <= 1e-9 * (scale > 1 ? scale : 1);
}

static tree t;

static void random_trees(void) {
    const mm_search_method methods[] = {MM_SEARCH_EXPECTIMAX, MM_SEARCH_STAR1, MM_SEARCH_STAR2};
    for (int round = 0; round < 200; round++) {
        t.n = 0;
        t.depth = 0;
        t.path[0] = 0;
        t.bad = 0;
        grow(&t, 1 + below(6));
        mm_game g = game_of(&t);
        for (int depth = 1; depth <= 7; depth++) {
            double want = plain(&t, 0, depth);
            for (int m = 0; m < 3; m++) {
                mm_search_options o = options(methods[m], (uint32_t)depth);
                mm_search_result r;
                int64_t pv[MAXDEPTH];
                CHECK(mm_search(&g, &o, &r, pv, MAXDEPTH) == MM_OK);
                CHECK(r.value_kind == MM_VALUE_EXPECTED);
                CHECK(close_to(r.expected, want));
                CHECK(r.value == nearest(want));
                CHECK(t.depth == 0);
                if (m == 0)
                    CHECK(r.expected == want);
                if (t.kind[0] == KCHANCE && t.nkids[0] > 0)
                    CHECK(!r.has_move && r.pv_len > 0 && pv[0] == MM_MOVE_ANY);
            }
        }
    }
}

static void misbehaviour(void) {
    t.n = 0;
    t.depth = 0;
    t.path[0] = 0;
    /* A root chance node over leaves. */
    t.kind[0] = KCHANCE;
    t.nkids[0] = 3;
    t.n = 4;
    for (int i = 0; i < 3; i++) {
        t.kid[0][i] = i + 1;
        t.weight[0][i] = 1.0 + i;
        t.nkids[i + 1] = 0;
        t.kind[i + 1] = KMAX;
        t.score[i + 1] = 10 * i;
    }
    mm_game g = game_of(&t);
    mm_search_result r;
    mm_search_options o = options(MM_SEARCH_STAR2, 4);
    t.bad = 0;
    CHECK(mm_search(&g, &o, &r, NULL, 0) == MM_OK && close_to(r.expected, (0 * 1 + 10 * 2 + 20 * 3) / 6.0));
    const mm_status want[] = {MM_OK, MM_ERR_GAME_NO_OUTCOMES, MM_ERR_GAME_TOO_MANY_MOVES,
                              MM_ERR_GAME_NEGATIVE_MOVE_COUNT, MM_ERR_GAME_BAD_WEIGHT,
                              MM_ERR_GAME_BAD_WEIGHT, MM_ERR_GAME_BAD_WEIGHT,
                              MM_ERR_GAME_ZERO_WEIGHTS, MM_ERR_GAME_WEIGHT_SUM_OVERFLOW};
    for (int bad = 1; bad <= 8; bad++) {
        t.bad = bad;
        memset(&r, 0xAB, sizeof r);
        mm_search_result before = r;
        CHECK(mm_search(&g, &o, &r, NULL, 0) == want[bad]);
        CHECK(memcmp(&r, &before, sizeof r) == 0); /* untouched on failure */
        CHECK(t.depth == 0);
    }
    t.bad = 0;
    /* A deterministic method meets the chance node. */
    o = options(MM_SEARCH_ALPHABETA, 4);
    CHECK(mm_search(&g, &o, &r, NULL, 0) == MM_ERR_GAME_CHANCE_NODE);
    /* Star1 and Star2 need bounds; plain expectimax does not. */
    g.bounds = NULL;
    o = options(MM_SEARCH_STAR1, 4);
    CHECK(mm_search(&g, &o, &r, NULL, 0) == MM_ERR_NEEDS_BOUNDS);
    o = options(MM_SEARCH_EXPECTIMAX, 4);
    CHECK(mm_search(&g, &o, &r, NULL, 0) == MM_OK && close_to(r.expected, 80 / 6.0));
    g.bounds = bounds;
    /* is_chance without outcomes has its own status. */
    g.outcomes = NULL;
    CHECK(mm_search(&g, &o, &r, NULL, 0) == MM_ERR_CHANCE_WITHOUT_OUTCOMES);
    g.outcomes = outcomes;
    /* A score outside the bounds Star1 was given. */
    t.score[3] = 99;
    o = options(MM_SEARCH_STAR1, 4);
    CHECK(mm_search(&g, &o, &r, NULL, 0) == MM_ERR_GAME_SCORE_OUTSIDE_BOUNDS);
    t.score[3] = 20;
}

static void older_layouts(void) {
    /* A deterministic tree (no chance nodes) through the 0.2.0-sized mm_game, whose
     * memory past free_context is not read, and a result of the 0.2.0 size, whose bytes
     * past threads_used must not be written. */
    t.n = 0;
    t.depth = 0;
    t.path[0] = 0;
    t.bad = 0;
    grow(&t, 5);
    for (int i = 0; i < t.n; i++)
        if (t.kind[i] == KCHANCE)
            t.kind[i] = KMAX;
    mm_game g = game_of(&t);
    g.struct_size = offsetof(mm_game, is_chance);
    g.is_chance = (bool (*)(void *))0x1; /* garbage that must not be called */
    mm_search_options o = options(MM_SEARCH_ALPHABETA, 6);
    struct {
        mm_search_result r;
        unsigned char after[8];
    } old;
    memset(&old, 0x5A, sizeof old);
    CHECK(mm_search(&g, &o, &old.r, NULL, 0) == MM_OK);
    CHECK(old.r.value_kind == MM_VALUE_INTEGER && old.r.value == (int32_t)plain(&t, 0, 6));
    unsigned char expected_bytes[sizeof old.r.expected];
    memset(expected_bytes, 0x5A, sizeof expected_bytes);
    CHECK(memcmp(&old.r.expected, expected_bytes, sizeof expected_bytes) == 0);
    /* The chance methods on a game without chance nodes: the same value, as a double. */
    g.struct_size = sizeof g;
    g.is_chance = is_chance;
    o = options(MM_SEARCH_STAR2, 6);
    CHECK(mm_search(&g, &o, &old.r, NULL, 0) == MM_OK && old.r.expected == old.r.value);
    CHECK(old.r.value_kind == MM_VALUE_EXPECTED);
}

int main(void) {
    random_trees();
    misbehaviour();
    older_layouts();
    printf("chance: %d checks, failures %d\n", checks, failures);
    return failures != 0;
}
