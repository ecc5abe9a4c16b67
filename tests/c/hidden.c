/*
 * Hidden information through the C API: mm_ismcts_search on a coin the player to move
 * cannot see. Player 0 names a side, heads or tails; heads is up with probability p as
 * far as it knows, and its sample callback draws the coin so. Naming the side up wins 1,
 * else -1 (two players; player 1 never moves). Worked out by hand, apart from the
 * library: each side's mean reward is the share of samples it wins, p for heads and
 * 1 - p for tails, so the search names heads for p above one half and tails below. The
 * game's own context is never played on, and every sample is freed. Then a card put
 * down face down (as tests/search/hidden.rs has it): MAX plays safe (2) or plays on, MIN puts
 * down card A or B unseen, MAX names one (10 if right, -10 if wrong); worked out by
 * hand, playing on is worth 0 to MAX, so safe is best, which multi-observer ISMCTS (a
 * tree a player, the card one node in MAX's) finds and the single tree (which branches
 * on the card) does not. Then the statuses of games that break the hidden-information
 * contract (samples with a move the position lacks, or over where it is not, included).
 * Then PIMC (mm_pimc_search) on the coin, against the samples the game handed out,
 * valued apart, and its statuses.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../include/minimax.h"
#include "check.h"

#define HEADS 1
#define TAILS 2

typedef struct {
    double p;
    int heads;  /* whether heads is up (in a sample: drawn) */
    int named;  /* 0 until named */
    int plays;  /* moves played on this context */
    int *alive; /* samples made and not yet freed */
    int wide;   /* a third move, which a broken sampler's samples have */
} coin;

static uint64_t mix(uint64_t z) {
    z += 0x9E3779B97F4A7C15u;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static int coin_moves(void *c, int64_t *out, size_t cap) {
    coin *g = c;
    if (g->named || cap < 3) return 0;
    out[0] = HEADS;
    out[1] = TAILS;
    out[2] = 3;
    return g->wide ? 3 : 2;
}
static void coin_play(void *c, int64_t m) {
    coin *g = c;
    g->plays++;
    g->named = (int)m;
}
static void coin_undo(void *c, int64_t m) {
    coin *g = c;
    (void)m;
    g->named = 0;
}
static bool coin_outcome(void *c, int32_t *score) {
    coin *g = c;
    if (!g->named) return false;
    *score = ((g->named == HEADS) == (g->heads != 0)) ? 1 : -1;
    return true;
}
static int32_t coin_evaluate(void *c) {
    (void)c;
    return 0;
}
static bool coin_bounds(void *c, int32_t *lo, int32_t *hi) {
    (void)c;
    *lo = -1;
    *hi = 1;
    return true;
}
/* Each sample's coin, in the order drawn (for PIMC's reference). */
static int drawn[256];
static int drawn_count;

static void *coin_sample(void *c, uint64_t seed) {
    coin *g = c, *s = malloc(sizeof *s);
    if (!s) return NULL;
    *s = *g;
    s->plays = 0;
    s->heads = (double)(mix(seed) >> 11) / 9007199254740992.0 < g->p;
    if (drawn_count < 256) drawn[drawn_count++] = s->heads;
    ++*g->alive;
    return s;
}
static void *no_sample(void *c, uint64_t seed) {
    (void)c;
    (void)seed;
    return NULL;
}
/* Broken samplers: a sample with a move the position does not have, and one already
 * over where the position is not. */
static void *wide_sample(void *c, uint64_t seed) {
    coin *s = coin_sample(c, seed);
    if (s) s->wide = 1;
    return s;
}
static void *over_sample(void *c, uint64_t seed) {
    coin *s = coin_sample(c, seed);
    if (s) s->named = HEADS;
    return s;
}
static void coin_free(void *c) {
    coin *g = c;
    --*g->alive;
    free(g);
}
static bool coin_key(void *c, uint64_t *key) {
    coin *g = c;
    *key = (uint64_t)g->named;
    return true;
}

static mm_game coin_game(coin *g) {
    mm_game game;
    mm_game_init(&game);
    game.context = g;
    game.moves = coin_moves;
    game.play = coin_play;
    game.undo = coin_undo;
    game.outcome = coin_outcome;
    game.evaluate = coin_evaluate;
    game.bounds = coin_bounds;
    game.free_context = coin_free;
    game.sample = coin_sample;
    game.information_key = coin_key;
    return game;
}

/* The card game: the moves made so far. */
enum { SAFE, PLAY, CARD_A, CARD_B, NAME_A, NAME_B, HIDDEN };
typedef struct {
    int64_t line[3];
    int n;
} card;

static int card_moves(void *c, int64_t *out, size_t cap) {
    card *g = c;
    if (cap < 2) return 0;
    if (g->n == 0) { out[0] = SAFE; out[1] = PLAY; return 2; }
    if (g->n == 1 && g->line[0] == PLAY) { out[0] = CARD_A; out[1] = CARD_B; return 2; }
    if (g->n == 2) { out[0] = NAME_A; out[1] = NAME_B; return 2; }
    return 0;
}
static void card_play(void *c, int64_t m) {
    card *g = c;
    g->line[g->n++] = m;
}
static void card_undo(void *c, int64_t m) {
    card *g = c;
    (void)m;
    g->n--;
}
static bool card_outcome(void *c, int32_t *score) {
    card *g = c;
    if (g->n == 1 && g->line[0] == SAFE) { *score = 2; return true; }
    if (g->n == 3) { *score = g->line[2] - g->line[1] == 2 ? 10 : -10; return true; }
    return false;
}
static bool card_max_to_move(void *c) {
    card *g = c;
    return g->n != 1;
}
static bool card_bounds(void *c, int32_t *lo, int32_t *hi) {
    (void)c;
    *lo = -10;
    *hi = 10;
    return true;
}
static void *card_sample(void *c, uint64_t seed) {
    card *s = malloc(sizeof *s);
    (void)seed;
    if (s) *s = *(card *)c; /* nothing is hidden at MAX's first move */
    return s;
}
static void card_free(void *c) { free(c); }
static int64_t card_observed(void *c, int64_t mv, uint32_t player) {
    (void)c;
    return player == 0 && (mv == CARD_A || mv == CARD_B) ? HIDDEN : mv;
}

static int searches;

static void face_down(void) {
    card g = {{0, 0, 0}, 0};
    mm_game game;
    mm_game_init(&game);
    game.context = &g;
    game.moves = card_moves;
    game.play = card_play;
    game.undo = card_undo;
    game.outcome = card_outcome;
    game.evaluate = coin_evaluate;
    game.max_to_move = card_max_to_move;
    game.bounds = card_bounds;
    game.sample = card_sample;
    game.free_context = card_free;
    game.observed_move = card_observed;
    mm_ismcts_options o;
    mm_ismcts_options_init(&o);
    o.iterations = 20000;
    o.seed = 3;
    o.reward = MM_MCTS_REWARD_SCALED;
    mm_ismcts_result r;
    CHECK(mm_ismcts_search(&game, &o, &r) == MM_OK && r.best_move == PLAY);
    o.multi_observer = true;
    CHECK(mm_ismcts_search(&game, &o, &r) == MM_OK && r.best_move == SAFE);
    CHECK(r.value > 0.6 - 1e-9 && r.value < 0.6 + 1e-9);
    CHECK(g.n == 0);
    searches += 2;
}

static void guesses(double p, int64_t best) {
    int alive = 0;
    coin g = {p, 0, 0, 0, &alive, 0};
    mm_game game = coin_game(&g);
    mm_ismcts_options o;
    CHECK(mm_ismcts_options_init(&o) == MM_OK);
    o.iterations = 4000;
    o.seed = 7;
    for (int reward = 0; reward < 2; reward++) {
        o.reward = reward ? MM_MCTS_REWARD_SCALED : MM_MCTS_REWARD_SIGN;
        mm_ismcts_result r;
        CHECK(mm_ismcts_search(&game, &o, &r) == MM_OK);
        CHECK(r.has_move && r.best_move == best);
        double won = best == HEADS ? p : 1 - p;
        CHECK(r.value > won - 0.05 && r.value < won + 0.05);
        CHECK(r.iterations == 4000 && r.nodes == 3);
        /* The same seed, the same search. */
        mm_ismcts_result again;
        CHECK(mm_ismcts_search(&game, &o, &again) == MM_OK);
        CHECK(again.best_move == r.best_move && again.visits == r.visits);
        searches += 2;
    }
    CHECK(g.plays == 0 && alive == 0);
}

/* PIMC on the coin, against the samples the game handed out: in a sample naming the side
 * up is worth 1 and the other -1, so heads' mean is (heads up - tails up) / samples,
 * tails' its negation, and each sample votes for the side up. */
static void pimc_coin(double p, int64_t best) {
    int alive = 0;
    coin g = {p, 0, 0, 0, &alive, 0};
    mm_game game = coin_game(&g);
    mm_search_options s;
    CHECK(mm_search_options_init(&s) == MM_OK);
    s.method = MM_SEARCH_EXACT;
    mm_pimc_options o;
    CHECK(mm_pimc_options_init(&o) == MM_OK);
    CHECK(o.samples == 20 && o.threads == 1 && o.combine == MM_PIMC_MEAN);
    o.samples = 60;
    o.seed = 3;
    o.search = &s;
    for (uint32_t threads = 1; threads <= 2; threads++) {
        for (int votes = 0; votes < 2; votes++) {
            o.threads = threads;
            o.combine = votes ? MM_PIMC_VOTES : MM_PIMC_MEAN;
            drawn_count = 0;
            mm_pimc_result r;
            mm_pimc_move m[3];
            CHECK(mm_pimc_search(&game, &o, &r, m, 3) == MM_OK);
            CHECK(drawn_count == 60);
            int up = 0;
            for (int i = 0; i < drawn_count; i++) up += drawn[i];
            double mean = (2.0 * up - 60) / 60;
            CHECK(r.has_move && r.best_move == best && r.proven && r.move_count == 2);
            CHECK(m[0].mv == HEADS && m[1].mv == TAILS);
            CHECK(m[0].mean > mean - 1e-9 && m[0].mean < mean + 1e-9);
            CHECK(m[1].mean > -mean - 1e-9 && m[1].mean < -mean + 1e-9);
            CHECK(m[0].votes == up && m[1].votes == 60 - up);
            CHECK(r.value == (best == HEADS ? m[0].mean : m[1].mean));
            searches++;
        }
    }
    CHECK(g.plays == 0 && alive == 0);
}

static void pimc_statuses(void) {
    int alive = 0;
    coin g = {0.5, 0, 0, 0, &alive, 0};
    mm_game game = coin_game(&g);
    mm_pimc_result r = {0}, untouched = {0};
    mm_pimc_move m[2];
    mm_pimc_options o;
    mm_search_options s;
    mm_pimc_options_init(&o);
    o.samples = 0;
    CHECK(mm_pimc_search(&game, &o, &r, m, 2) == MM_ERR_BAD_OPTIONS);
    mm_pimc_options_init(&o);
    o.combine = 7;
    CHECK(mm_pimc_search(&game, &o, &r, m, 2) == MM_ERR_BAD_OPTIONS);
    mm_pimc_options_init(&o);
    mm_search_options_init(&s);
    s.threads = 2;
    o.search = &s;
    CHECK(mm_pimc_search(&game, &o, &r, m, 2) == MM_ERR_BAD_OPTIONS);
    CHECK(mm_pimc_search(&game, NULL, NULL, m, 2) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_pimc_search(&game, NULL, &r, NULL, 2) == MM_ERR_NULL_ARGUMENT);
    game.sample = NULL;
    CHECK(mm_pimc_search(&game, NULL, &r, m, 2) == MM_ERR_GAME_NO_SAMPLE);
    game = coin_game(&g);
    game.sample = wide_sample;
    CHECK(mm_pimc_search(&game, NULL, &r, m, 2) == MM_ERR_GAME_BAD_SAMPLE);
    game.sample = over_sample;
    CHECK(mm_pimc_search(&game, NULL, &r, m, 2) == MM_ERR_GAME_BAD_SAMPLE);
    CHECK(alive == 0);
    game = coin_game(&g);
    game.players = 3;
    CHECK(mm_pimc_search(&game, NULL, &r, m, 2) == MM_ERR_NOT_TWO_PLAYERS);
    CHECK(memcmp(&r, &untouched, sizeof r) == 0);
    /* No room for the moves: the result alone; the defaults (NULL options) search. */
    game = coin_game(&g);
    CHECK(mm_pimc_search(&game, NULL, &r, NULL, 0) == MM_OK && r.move_count == 2);
    CHECK(alive == 0 && g.plays == 0);
    CHECK(mm_pimc_options_init_sized(&o, 8) == MM_ERR_BAD_STRUCT_SIZE);
}

static void statuses(void) {
    int alive = 0;
    coin g = {0.5, 0, 0, 0, &alive, 0};
    mm_ismcts_result r = {0}, untouched = {0};
    mm_ismcts_options o;
    mm_ismcts_options_init(&o);
    o.iterations = 10;

    mm_game game = coin_game(&g);
    game.sample = NULL;
    CHECK(mm_ismcts_search(&game, &o, &r) == MM_ERR_GAME_NO_SAMPLE);
    game.sample = no_sample;
    CHECK(mm_ismcts_search(&game, &o, &r) == MM_ERR_GAME_NO_SAMPLE);
    /* Samples that are not of the position: an error, not a move it does not have. */
    game.sample = wide_sample;
    CHECK(mm_ismcts_search(&game, &o, &r) == MM_ERR_GAME_BAD_SAMPLE);
    game.sample = over_sample;
    CHECK(mm_ismcts_search(&game, &o, &r) == MM_ERR_GAME_BAD_SAMPLE);
    o.multi_observer = true;
    CHECK(mm_ismcts_search(&game, &o, &r) == MM_ERR_GAME_BAD_SAMPLE);
    o.multi_observer = false;
    CHECK(alive == 0);
    game = coin_game(&g);
    game.free_context = NULL;
    CHECK(mm_ismcts_search(&game, &o, &r) == MM_ERR_SAMPLE_WITHOUT_FREE);
    game = coin_game(&g);
    CHECK(mm_ismcts_search(&game, &o, NULL) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_ismcts_search(NULL, &o, &r) == MM_ERR_NULL_ARGUMENT);
    o.reward = 9;
    CHECK(mm_ismcts_search(&game, &o, &r) == MM_ERR_UNKNOWN_REWARD);
    mm_ismcts_options_init(&o);
    o.exploration = -1;
    CHECK(mm_ismcts_search(&game, &o, &r) == MM_ERR_BAD_EXPLORATION);
    mm_ismcts_options_init(&o);
    o.iterations = 0;
    CHECK(mm_ismcts_search(&game, &o, &r) == MM_ERR_BAD_OPTIONS);
    CHECK(memcmp(&r, &untouched, sizeof r) == 0);

    /* A program built before the hidden-information callbacks: its struct ends before
     * information_key, and the library reads it as it was (no sample). */
    mm_game old;
    CHECK(mm_game_init_sized(&old, offsetof(mm_game, information_key)) == MM_OK);
    old.context = &g;
    old.moves = coin_moves;
    old.play = coin_play;
    old.undo = coin_undo;
    old.outcome = coin_outcome;
    old.evaluate = coin_evaluate;
    CHECK(mm_ismcts_search(&old, NULL, &r) == MM_ERR_GAME_NO_SAMPLE);
    /* The defaults (NULL options) search. */
    CHECK(mm_ismcts_search(&game, NULL, &r) == MM_OK && r.iterations == 10000);
    CHECK(alive == 0 && g.plays == 0);
    mm_ismcts_options_init(&o);
    CHECK(mm_ismcts_options_init_sized(&o, 8) == MM_ERR_BAD_STRUCT_SIZE);
}

int main(void) {
    guesses(0.7, HEADS);
    guesses(0.3, TAILS);
    guesses(0.9, HEADS);
    face_down();
    statuses();
    pimc_coin(0.7, HEADS);
    pimc_coin(0.3, TAILS);
    pimc_statuses();
    printf("hidden: %d searches, %d checks, failures %d\n", searches, checks, failures);
    return failures != 0;
}
