/*
 * Multi-ProbCut from C (issue 53): a fit calibrated from the program's positions
 * against a least-squares line worked out here over plain fixed-depth minimax values;
 * a self-play calibration; a fit's text read back exactly; pairs and confidences the
 * library refuses; and searches with a fit: cuts that save nodes, a confidence no value
 * reaches that changes no value, the game's `stage` choosing the pairs, an exact solve
 * that never cuts, and enhanced transposition cut-offs that change no value.
 * Prints one summary line ending in "failures N".
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "minimax.h"

#include "check.h"

static uint64_t mix(uint64_t z) {
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A game of three moves a position: each adds a drawn amount in [-20, 20] to a running
   sum (MAX's gain); the evaluation is the sum with noise in [-6, 6], so that deeper
   values follow shallower ones, not exactly. It ends after `length` plies (0: never). */
typedef struct {
    uint64_t hash;
    int64_t sum;
    uint64_t hashes[64];
    int64_t sums[64];
    int plies;
    int length;
    uint32_t stage; /* what the stage callback answers */
} pathsum;

static void pathsum_init(pathsum *p, uint64_t seed, int length) {
    memset(p, 0, sizeof *p);
    p->hash = mix(seed);
    p->length = length;
}
static int ps_moves(void *c, int64_t *out, size_t cap) {
    (void)c;
    for (int i = 0; i < 3 && (size_t)i < cap; i++)
        out[i] = i;
    return 3;
}
static void ps_play(void *c, int64_t mv) {
    pathsum *p = c;
    p->hashes[p->plies] = p->hash;
    p->sums[p->plies] = p->sum;
    p->plies++;
    p->hash = mix(p->hash ^ (uint64_t)(mv + 1));
    p->sum += (int64_t)(mix(p->hash) % 41) - 20;
}
static void ps_undo(void *c, int64_t mv) {
    (void)mv;
    pathsum *p = c;
    p->plies--;
    p->hash = p->hashes[p->plies];
    p->sum = p->sums[p->plies];
}
static bool ps_outcome(void *c, int32_t *score) {
    pathsum *p = c;
    if (p->length == 0 || p->plies < p->length)
        return false;
    *score = p->sum > 0 ? 1 : p->sum < 0 ? -1 : 0;
    return true;
}
static int32_t ps_evaluate(void *c) {
    pathsum *p = c;
    return (int32_t)(p->sum + (int64_t)(mix(p->hash ^ 0xE7A1) % 13) - 6);
}
static uint64_t ps_hash(void *c) {
    pathsum *p = c;
    return p->hash;
}
static uint32_t ps_stage(void *c) {
    pathsum *p = c;
    return p->stage;
}

static mm_game game_of(pathsum *p) {
    mm_game g;
    mm_game_init(&g);
    g.context = p;
    g.moves = ps_moves;
    g.play = ps_play;
    g.undo = ps_undo;
    g.outcome = ps_outcome;
    g.evaluate = ps_evaluate;
    g.hash = ps_hash;
    return g;
}

/* The value of plain minimax at a fixed depth, without a table. */
static int32_t minimax_at(pathsum *p, uint32_t depth) {
    mm_game g = game_of(p);
    mm_search_options o;
    mm_search_options_init(&o);
    o.method = MM_SEARCH_MINIMAX;
    o.max_depth = depth;
    o.iterative_deepening = false;
    o.table_bytes = 0;
    mm_search_result r;
    CHECK(mm_search(&g, &o, &r, NULL, 0) == MM_OK);
    return r.value;
}

/* The least-squares line through (x, y) and the spread of its residuals, from the
   textbook formulas. */
static void least_squares(const double *x, const double *y, int n, double *a, double *b,
                          double *sigma) {
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < n; i++) {
        sx += x[i];
        sy += y[i];
        sxx += x[i] * x[i];
        sxy += x[i] * y[i];
    }
    *a = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    *b = (sy - *a * sx) / n;
    double rss = 0;
    for (int i = 0; i < n; i++)
        rss += (y[i] - *a * x[i] - *b) * (y[i] - *a * x[i] - *b);
    *sigma = sqrt(rss / (n - 2));
}

#define POSITIONS 40

/* The calibration from 40 positions against the least squares worked out here. */
static mm_probcut *calibrated_from_positions(void) {
    static pathsum ps[POSITIONS];
    mm_game games[POSITIONS];
    const mm_game *ptrs[POSITIONS];
    for (int i = 0; i < POSITIONS; i++) {
        pathsum_init(&ps[i], (uint64_t)i, 0);
        games[i] = game_of(&ps[i]);
        ptrs[i] = &games[i];
    }
    const mm_probcut_depths depths[] = {{4, 2}, {5, 1}, {6, 2}};
    mm_calibrate_options co;
    CHECK(mm_calibrate_options_init(&co) == MM_OK && co.max_depth == 10 && co.games == 8);
    co.pairs = depths;
    co.pair_count = 3;
    mm_search_options so;
    mm_search_options_init(&so);
    so.method = MM_SEARCH_ALPHABETA;
    mm_probcut *fit = NULL;
    mm_calibration seen = {0, 0};
    CHECK(mm_probcut_calibrate_positions(ptrs, POSITIONS, &so, &co, &fit, &seen) == MM_OK);
    CHECK(fit != NULL && seen.positions == POSITIONS && seen.used == POSITIONS);
    if (!fit)
        return NULL;
    mm_probcut_pair pairs[4];
    size_t count = 0;
    CHECK(mm_probcut_pairs(fit, pairs, 4, &count) == MM_OK && count == 3);
    for (size_t k = 0; k < count && k < 3; k++) {
        double x[POSITIONS], y[POSITIONS], a, b, sigma;
        for (int i = 0; i < POSITIONS; i++) {
            x[i] = minimax_at(&ps[i], depths[k].shallow);
            y[i] = minimax_at(&ps[i], depths[k].deep);
        }
        least_squares(x, y, POSITIONS, &a, &b, &sigma);
        CHECK(pairs[k].deep == depths[k].deep && pairs[k].shallow == depths[k].shallow);
        CHECK(pairs[k].stage == 0 && pairs[k].samples == POSITIONS);
        CHECK(fabs(pairs[k].a - a) < 1e-9 && fabs(pairs[k].b - b) < 1e-9);
        CHECK(fabs(pairs[k].sigma - sigma) < 1e-9);
        CHECK(pairs[k].a > 0.3); /* deeper values follow shallower ones */
    }
    for (int i = 0; i < POSITIONS; i++)
        CHECK(ps[i].plies == 0);
    double t = 0;
    CHECK(mm_probcut_confidence(fit, &t) == MM_OK && t == 1.5);
    return fit;
}

/* The fit's text read back gives the same text and pairs; bad text is refused. */
static void text_round_trip(const mm_probcut *fit) {
    size_t needed = 0;
    CHECK(mm_probcut_print(fit, NULL, 0, &needed) == MM_ERR_BUFFER_TOO_SMALL && needed > 20);
    char *text = malloc(needed), *again = malloc(needed);
    CHECK(text && again);
    if (!text || !again) {
        free(text);
        free(again);
        return;
    }
    CHECK(mm_probcut_print(fit, text, needed, &needed) == MM_OK);
    CHECK(strncmp(text, "libminimax probcut 1\nt 1.5\npair 0 4 2 ", 38) == 0);
    mm_probcut *back = NULL;
    CHECK(mm_probcut_parse(text, strlen(text), &back, NULL) == MM_OK && back);
    size_t n2 = 0;
    CHECK(mm_probcut_print(back, again, needed, &n2) == MM_OK && n2 == needed);
    CHECK(strcmp(text, again) == 0);
    mm_probcut_pair p1[3], p2[3];
    size_t c1 = 0, c2 = 0;
    CHECK(mm_probcut_pairs(fit, p1, 3, &c1) == MM_OK && mm_probcut_pairs(back, p2, 3, &c2) == MM_OK);
    CHECK(c1 == c2 && memcmp(p1, p2, sizeof p1) == 0); /* bit for bit */
    mm_probcut_free(back);
    /* Text that is not a fit: the line that is wrong, and nothing written. */
    const char *bad = "libminimax probcut 1\nt 1.5\npair 0 4 2 one 0 1 20\n";
    mm_probcut *none = (mm_probcut *)&none;
    mm_parse_error e;
    CHECK(mm_probcut_parse(bad, strlen(bad), &none, &e) == MM_ERR_PARSE_PROBCUT);
    CHECK(none == (mm_probcut *)&none && e.line == 3 && strstr(e.message, "line 3") != NULL);
    CHECK(mm_probcut_parse("hello", 5, &none, &e) == MM_ERR_PARSE_PROBCUT && e.line == 1);
    CHECK(mm_probcut_parse("libminimax probcut 1\n", 21, &none, NULL) == MM_ERR_PARSE_PROBCUT);
    CHECK(mm_probcut_parse("\xff", 1, &none, &e) == MM_ERR_PARSE_PROBCUT && e.line == 1);
    CHECK(mm_probcut_parse(NULL, 4, &none, NULL) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_probcut_parse(text, strlen(text), NULL, NULL) == MM_ERR_NULL_ARGUMENT);
    CHECK(none == (mm_probcut *)&none);
    /* A short buffer: the size, and nothing else. */
    memset(again, 'x', needed);
    CHECK(mm_probcut_print(fit, again, needed - 1, &n2) == MM_ERR_BUFFER_TOO_SMALL && n2 == needed);
    CHECK(again[0] == 'x');
    free(text);
    free(again);
}

/* Pairs and confidences that cannot be used are refused, the fit unchanged. */
static void refusals(void) {
    mm_probcut *fit = NULL;
    CHECK(mm_probcut_new(&fit) == MM_OK && fit);
    if (!fit)
        return;
    mm_probcut_pair p = {0, 4, 2, 0, 1.0, 0.0, 5.0};
    CHECK(mm_probcut_add(fit, &p) == MM_OK);
    CHECK(mm_probcut_add(fit, &p) == MM_ERR_PROBCUT_DUPLICATE_PAIR);
    mm_probcut_pair bad[] = {
        {0, 4, 4, 0, 1.0, 0.0, 5.0}, /* shallow not below deep */
        {0, 4, 0, 0, 1.0, 0.0, 5.0}, /* shallow 0 */
        {0, 64, 2, 0, 1.0, 0.0, 5.0}, /* deeper than 63 */
        {0, 4, 2, 0, 0.0, 0.0, 5.0}, /* slope 0 */
        {0, 6, 2, 0, 1.0, NAN, 5.0}, /* offset not finite */
        {0, 6, 2, 0, 1.0, 0.0, -1.0}, /* sigma below 0 */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(mm_probcut_add(fit, &bad[i]) == MM_ERR_PROBCUT_BAD_PAIR);
    size_t count = 0;
    CHECK(mm_probcut_pairs(fit, NULL, 0, &count) == MM_ERR_BUFFER_TOO_SMALL && count == 1);
    /* 96 pairs at most. */
    int added = 1;
    for (uint32_t stage = 1; stage < 200 && added < 96; stage++) {
        mm_probcut_pair q = {stage, 4, 2, 0, 1.0, 0.0, 5.0};
        CHECK(mm_probcut_add(fit, &q) == MM_OK);
        added++;
    }
    mm_probcut_pair last = {500, 4, 2, 0, 1.0, 0.0, 5.0};
    CHECK(mm_probcut_add(fit, &last) == MM_ERR_PROBCUT_TOO_MANY_PAIRS);
    CHECK(mm_probcut_pairs(fit, NULL, 0, &count) == MM_ERR_BUFFER_TOO_SMALL && count == 96);
    CHECK(mm_probcut_set_confidence(fit, 2.0) == MM_OK);
    CHECK(mm_probcut_set_confidence(fit, -0.5) == MM_ERR_PROBCUT_BAD_CONFIDENCE);
    CHECK(mm_probcut_set_confidence(fit, NAN) == MM_ERR_PROBCUT_BAD_CONFIDENCE);
    CHECK(mm_probcut_set_confidence(fit, INFINITY) == MM_ERR_PROBCUT_BAD_CONFIDENCE);
    double t = 0;
    CHECK(mm_probcut_confidence(fit, &t) == MM_OK && t == 2.0);
    CHECK(mm_probcut_add(NULL, &p) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_probcut_add(fit, NULL) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_probcut_confidence(NULL, &t) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_probcut_confidence(fit, NULL) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_probcut_set_confidence(NULL, 1.0) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_probcut_new(NULL) == MM_ERR_NULL_ARGUMENT);
    CHECK(strstr(mm_error_message(MM_ERR_PROBCUT_BAD_CONFIDENCE), "confidence") != NULL);
    mm_probcut_free(fit);
    mm_probcut_free(NULL);
}

/* A depth-6 search of position `seed`: its value and nodes. */
static void search6(uint64_t seed, mm_search_method method, const mm_probcut *fit, bool etc,
                    bool staged, int32_t *value, uint64_t *nodes) {
    pathsum p;
    pathsum_init(&p, seed, 0);
    p.stage = 1;
    mm_game g = game_of(&p);
    if (staged)
        g.stage = ps_stage;
    mm_search_options o;
    mm_search_options_init(&o);
    o.method = method;
    o.max_depth = 6;
    o.probcut = fit;
    o.enhanced_transposition_cutoffs = etc;
    mm_search_result r;
    CHECK(mm_search(&g, &o, &r, NULL, 0) == MM_OK);
    *value = r.value;
    *nodes = r.stats.nodes;
    CHECK(p.plies == 0);
}

static void searches(mm_probcut *fit) {
    uint64_t plain_nodes = 0, cut_nodes = 0;
    int changed = 0;
    for (uint64_t seed = 100; seed < 120; seed++) {
        int32_t v0, v1, v2, v3;
        uint64_t n0, n1, n2, n3;
        search6(seed, MM_SEARCH_PVS, NULL, false, false, &v0, &n0);
        /* Eager: t 0. */
        CHECK(mm_probcut_set_confidence(fit, 0.0) == MM_OK);
        search6(seed, MM_SEARCH_PVS, fit, false, false, &v1, &n1);
        /* A confidence no value reaches: every value as without. */
        CHECK(mm_probcut_set_confidence(fit, 1e12) == MM_OK);
        search6(seed, MM_SEARCH_PVS, fit, false, false, &v2, &n2);
        CHECK(v2 == v0);
        /* Enhanced transposition cut-offs: the same value. */
        search6(seed, MM_SEARCH_PVS, NULL, true, false, &v3, &n3);
        CHECK(v3 == v0);
        plain_nodes += n0;
        cut_nodes += n1;
        changed += v1 != v0;
    }
    CHECK(cut_nodes * 10 < plain_nodes * 9); /* cuts save nodes */
    (void)changed;
    /* The game's stage chooses the pairs: a fit for stage 1 alone cuts only where the
       game says it is at stage 1. */
    mm_probcut *staged = NULL;
    CHECK(mm_probcut_new(&staged) == MM_OK);
    mm_probcut_pair p = {1, 4, 2, 0, 1.0, 0.0, 0.0};
    mm_probcut_pair q = {1, 5, 1, 0, 1.0, 0.0, 0.0};
    CHECK(mm_probcut_add(staged, &p) == MM_OK && mm_probcut_add(staged, &q) == MM_OK);
    CHECK(mm_probcut_set_confidence(staged, 0.0) == MM_OK);
    uint64_t unstaged_total = 0, staged_total = 0, plain_total = 0;
    for (uint64_t seed = 100; seed < 110; seed++) {
        int32_t v0, v1, v2;
        uint64_t n0, n1, n2;
        search6(seed, MM_SEARCH_ALPHABETA, NULL, false, false, &v0, &n0);
        search6(seed, MM_SEARCH_ALPHABETA, staged, false, false, &v1, &n1);
        search6(seed, MM_SEARCH_ALPHABETA, staged, false, true, &v2, &n2);
        CHECK(v1 == v0 && n1 == n0); /* stage 0: no pair, nothing cut */
        plain_total += n0;
        unstaged_total += n1;
        staged_total += n2;
    }
    CHECK(unstaged_total == plain_total && staged_total < plain_total);
    /* An exact solve never cuts: a game that ends, solved with and without the fit. */
    for (uint64_t seed = 0; seed < 5; seed++) {
        mm_search_result r0, r1;
        for (int with = 0; with < 2; with++) {
            pathsum e;
            pathsum_init(&e, seed, 7);
            mm_game g = game_of(&e);
            mm_search_options o;
            mm_search_options_init(&o);
            o.method = MM_SEARCH_EXACT;
            o.probcut = with ? staged : NULL;
            g.stage = ps_stage;
            e.stage = 1;
            CHECK(mm_search(&g, &o, with ? &r1 : &r0, NULL, 0) == MM_OK);
        }
        CHECK(r0.proven && r1.proven && r0.value == r1.value && r0.stats.nodes == r1.stats.nodes);
    }
    mm_probcut_free(staged);
}

/* Self-play from a game that ends: the counts, the game as it was, a usable fit. */
static void self_play(void) {
    pathsum p;
    pathsum_init(&p, 7, 24);
    mm_game g = game_of(&p);
    mm_calibrate_options co;
    mm_calibrate_options_init(&co);
    co.max_depth = 6;
    co.games = 3;
    co.random_plies = 2;
    mm_probcut *fit = NULL;
    mm_calibration seen = {0, 0};
    CHECK(mm_probcut_calibrate(&g, NULL, &co, &fit, &seen) == MM_OK && fit);
    CHECK(seen.positions >= seen.used && seen.used >= 20);
    CHECK(p.plies == 0 && p.hash == mix(7));
    size_t count = 0;
    CHECK(mm_probcut_pairs(fit, NULL, 0, &count) == MM_ERR_BUFFER_TOO_SMALL && count >= 1);
    /* The same seed, the same fit. */
    mm_probcut *again = NULL;
    CHECK(mm_probcut_calibrate(&g, NULL, &co, &again, NULL) == MM_OK && again);
    char a[2048], b[2048];
    size_t na = 0, nb = 0;
    CHECK(mm_probcut_print(fit, a, sizeof a, &na) == MM_OK);
    CHECK(mm_probcut_print(again, b, sizeof b, &nb) == MM_OK && strcmp(a, b) == 0);
    mm_probcut_free(again);
    /* Refusals: NULLs, a bad struct size, a game of three players. */
    mm_probcut *none = (mm_probcut *)&none;
    CHECK(mm_probcut_calibrate(NULL, NULL, &co, &none, NULL) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_probcut_calibrate(&g, NULL, &co, NULL, NULL) == MM_ERR_NULL_ARGUMENT);
    mm_calibrate_options wrong = co;
    wrong.struct_size = 12;
    CHECK(mm_probcut_calibrate(&g, NULL, &wrong, &none, NULL) == MM_ERR_BAD_STRUCT_SIZE);
    wrong = co;
    wrong.pairs = NULL;
    wrong.pair_count = 2;
    CHECK(mm_probcut_calibrate(&g, NULL, &wrong, &none, NULL) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_probcut_calibrate_positions(NULL, 3, NULL, &co, &none, NULL) == MM_ERR_NULL_ARGUMENT);
    mm_game three = g;
    three.players = 3;
    CHECK(mm_probcut_calibrate(&three, NULL, &co, &none, NULL) == MM_ERR_NOT_TWO_PLAYERS);
    CHECK(none == (mm_probcut *)&none);
    CHECK(mm_calibrate_options_init_sized(&co, 12) == MM_ERR_BAD_STRUCT_SIZE);
    mm_probcut_free(fit);
}

int main(void) {
    mm_probcut *fit = calibrated_from_positions();
    if (fit) {
        text_round_trip(fit);
        searches(fit);
    }
    mm_probcut_free(fit);
    refusals();
    self_play();
    printf("probcut: %d checks, failures %d\n", checks, failures);
    return failures != 0;
}
