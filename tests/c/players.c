/*
 * Games of more than two players through the C API: mm_maxn_search and
 * mm_paranoid_search on n-player Nim with points (as tests/search/players.rs has it: take 1 to 3
 * sticks from a pile, a point a stick, 3 more for the last stick of all, another turn for
 * emptying a pile) against plain max^n and plain paranoid minimax written here; with
 * dice (after each move a chance step: weight 1, the turn goes on; weight 2, the next
 * player is skipped) against plain expectimax-n; and the statuses of games that break
 * the n-player contract.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../include/minimax.h"
#include "check.h"

#define PILES 3
#define BONUS 3
#define PASS (-1)
#define GO_ON 100 /* the chance outcomes: the turn goes on, or skips a player */
#define SKIP 101

typedef struct {
    int piles[PILES];
    int taken[MM_MAX_PLAYERS];
    unsigned players, to_move;
    unsigned movers[64];
    int n_moves;
    int last; /* who took the last stick, or -1 */
    int bad_mover; /* a player number to give at ply 2 (0: none) */
    int dice; /* a chance step after each move that does not end the game */
    int pending; /* a chance step is next */
} take;

static int take_moves(void *c, int64_t *out, size_t cap) {
    take *g = c;
    size_t n = 0;
    for (int i = 0; i < PILES; i++)
        for (int k = 1; k <= 3 && k <= g->piles[i]; k++) {
            if (n == cap) return (int)cap + 1;
            out[n++] = i * 4 + k;
        }
    return (int)n;
}

static int all_empty(const take *g) {
    for (int i = 0; i < PILES; i++)
        if (g->piles[i]) return 0;
    return 1;
}

static void take_play(void *c, int64_t mv) {
    take *g = c;
    unsigned mover = g->to_move;
    if (mv == PASS) {
        g->movers[g->n_moves++] = mover;
        g->to_move = (mover + 1) % g->players;
        return;
    }
    int pile = (int)(mv / 4), k = (int)(mv % 4);
    g->movers[g->n_moves++] = mover;
    if (mv >= GO_ON) {
        g->pending = 0;
        if (mv == SKIP) g->to_move = (mover + 1) % g->players;
        return;
    }
    g->piles[pile] -= k;
    g->taken[mover] += k;
    if (all_empty(g))
        g->last = (int)mover;
    else if (g->piles[pile] != 0)
        g->to_move = (mover + 1) % g->players;
    g->pending = g->dice && g->last < 0;
}

static void take_undo(void *c, int64_t mv) {
    take *g = c;
    unsigned mover = g->movers[--g->n_moves];
    if (mv == PASS) {
        g->to_move = mover;
        return;
    }
    if (mv >= GO_ON) {
        g->to_move = mover;
        g->pending = 1;
        return;
    }
    g->pending = 0;
    int pile = (int)(mv / 4), k = (int)(mv % 4);
    g->piles[pile] += k;
    g->taken[mover] -= k;
    g->to_move = mover;
    g->last = -1;
}

static uint32_t take_to_move(void *c) {
    take *g = c;
    if (g->bad_mover && g->n_moves == 2) return (uint32_t)g->bad_mover;
    return g->to_move;
}

static bool take_scores(void *c, int32_t *scores, size_t n) {
    take *g = c;
    if (g->last < 0) return false;
    for (size_t p = 0; p < n; p++) scores[p] = g->taken[p];
    scores[g->last] += BONUS;
    return true;
}

static void take_evaluations(void *c, int32_t *scores, size_t n) {
    take *g = c;
    for (size_t p = 0; p < n; p++) scores[p] = g->taken[p];
}

static bool take_bounds(void *c, int32_t *lo, int32_t *sum) {
    take *g = c;
    int total = BONUS;
    for (int i = 0; i < PILES; i++) total += g->piles[i];
    for (unsigned p = 0; p < g->players; p++) total += g->taken[p];
    *lo = 0;
    *sum = total;
    return true;
}

static uint64_t take_hash(void *c) {
    take *g = c;
    uint64_t h = 1469598103934665603u;
    for (int i = 0; i < PILES; i++) h = (h ^ (uint64_t)g->piles[i]) * 1099511628211u;
    for (unsigned p = 0; p < g->players; p++) h = (h ^ (uint64_t)g->taken[p]) * 1099511628211u;
    h = (h ^ (uint64_t)g->pending) * 1099511628211u;
    return (h ^ g->to_move) * 1099511628211u;
}

static bool take_is_chance(void *c) { return ((take *)c)->pending; }

static int take_outcomes(void *c, int64_t *out, double *weights, size_t cap) {
    (void)c;
    if (cap < 2) return (int)cap + 1;
    out[0] = GO_ON;
    weights[0] = 1.0;
    out[1] = SKIP;
    weights[1] = 2.0;
    return 2;
}

static bool take_pass(void *c, int64_t *pass) {
    take *g = c;
    *pass = PASS;
    return g->last < 0;
}

static void *take_copy(void *c) {
    take *copy = malloc(sizeof(take));
    if (copy) *copy = *(take *)c;
    return copy;
}

static void take_free(void *c) { free(c); }

static mm_game game_of(take *g) {
    mm_game game;
    mm_game_init(&game);
    game.context = g;
    game.moves = take_moves;
    game.play = take_play;
    game.undo = take_undo;
    game.hash = take_hash;
    game.copy_context = take_copy;
    game.free_context = take_free;
    game.players = g->players;
    game.player_to_move = take_to_move;
    game.player_scores = take_scores;
    game.player_evaluations = take_evaluations;
    game.player_bounds = take_bounds;
    game.null_move = take_pass;
    if (g->dice) {
        game.is_chance = take_is_chance;
        game.outcomes = take_outcomes;
    }
    return game;
}

/* Plain max^n, ties to the first move: the scores into v, the move into *best. */
static void brute_maxn(take *g, int32_t *v, int64_t *best) {
    if (take_scores(g, v, g->players)) return;
    int64_t moves[16];
    int n = take_moves(g, moves, 16);
    unsigned p = g->to_move;
    int32_t child[MM_MAX_PLAYERS];
    int found = 0;
    for (int i = 0; i < n; i++) {
        int64_t ignored;
        take_play(g, moves[i]);
        brute_maxn(g, child, &ignored);
        take_undo(g, moves[i]);
        if (!found || child[p] > v[p]) {
            memcpy(v, child, sizeof child);
            *best = moves[i];
            found = 1;
        }
    }
}

/* Plain expectimax-n, ties to the first move: a chance step's value is its outcomes'
 * mean weighted by their probabilities (1/3 and 2/3). */
static void brute_expectimax_n(take *g, double *v, int64_t *best) {
    int32_t scores[MM_MAX_PLAYERS] = {0};
    double child[MM_MAX_PLAYERS];
    int64_t ignored;
    if (g->pending) {
        for (unsigned p = 0; p < g->players; p++) v[p] = 0.0;
        for (int64_t o = GO_ON; o <= SKIP; o++) {
            double w = o == GO_ON ? 1.0 / 3.0 : 2.0 / 3.0;
            take_play(g, o);
            brute_expectimax_n(g, child, &ignored);
            take_undo(g, o);
            for (unsigned p = 0; p < g->players; p++) v[p] += w * child[p];
        }
        return;
    }
    if (take_scores(g, scores, g->players)) {
        for (unsigned p = 0; p < g->players; p++) v[p] = scores[p];
        return;
    }
    int64_t moves[16];
    int n = take_moves(g, moves, 16);
    unsigned p = g->to_move;
    int found = 0;
    for (int i = 0; i < n; i++) {
        take_play(g, moves[i]);
        brute_expectimax_n(g, child, &ignored);
        take_undo(g, moves[i]);
        if (!found || child[p] > v[p]) {
            memcpy(v, child, sizeof child);
            *best = moves[i];
            found = 1;
        }
    }
}

/* Plain max^n over win rewards (the top scorers share 1), ties to the first move. */
static void brute_rewards(take *g, double *v, int64_t *best) {
    int32_t scores[MM_MAX_PLAYERS] = {0};
    if (take_scores(g, scores, g->players)) {
        int32_t top = scores[0];
        for (unsigned p = 1; p < g->players; p++)
            if (scores[p] > top) top = scores[p];
        int k = 0;
        for (unsigned p = 0; p < g->players; p++) k += scores[p] == top;
        for (unsigned p = 0; p < g->players; p++) v[p] = scores[p] == top ? 1.0 / k : 0.0;
        return;
    }
    int64_t moves[16];
    int n = take_moves(g, moves, 16);
    unsigned p = g->to_move;
    double child[MM_MAX_PLAYERS];
    int found = 0;
    for (int i = 0; i < n; i++) {
        int64_t ignored;
        take_play(g, moves[i]);
        brute_rewards(g, child, &ignored);
        take_undo(g, moves[i]);
        if (!found || child[p] > v[p]) {
            memcpy(v, child, sizeof child);
            *best = moves[i];
            found = 1;
        }
    }
}

/* Plain paranoid minimax: root's score when the others play against it. */
static int brute_paranoid(take *g, unsigned root) {
    int32_t v[MM_MAX_PLAYERS];
    if (take_scores(g, v, g->players)) return v[root];
    int64_t moves[16];
    int n = take_moves(g, moves, 16);
    int max = g->to_move == root, best = max ? -1000 : 1000;
    for (int i = 0; i < n; i++) {
        take_play(g, moves[i]);
        int x = brute_paranoid(g, root);
        take_undo(g, moves[i]);
        if (max ? x > best : x < best) best = x;
    }
    return best;
}

/* Plain best-reply search: root's score when, between two of its turns, only the reply
   of one opponent (the others passing) that is worst for it is played. */
static int brute_brs(take *g, unsigned root) {
    int32_t v[MM_MAX_PLAYERS];
    if (take_scores(g, v, g->players)) return v[root];
    int64_t moves[16];
    if (g->to_move == root) {
        int n = take_moves(g, moves, 16), best = -1000;
        for (int i = 0; i < n; i++) {
            take_play(g, moves[i]);
            int x = brute_brs(g, root);
            take_undo(g, moves[i]);
            if (x > best) best = x;
        }
        return best;
    }
    int best = 1000, before = 0;
    while (g->to_move != root) {
        int n = take_moves(g, moves, 16);
        for (int i = 0; i < n; i++) {
            take_play(g, moves[i]);
            int after = 0;
            while (g->last < 0 && g->to_move != root) {
                take_play(g, PASS);
                after++;
            }
            int x = brute_brs(g, root);
            while (after--) take_undo(g, PASS);
            take_undo(g, moves[i]);
            if (x < best) best = x;
        }
        take_play(g, PASS);
        before++;
    }
    while (before--) take_undo(g, PASS);
    return best;
}

static take position(int a, int b, int c, unsigned players, unsigned to_move) {
    take g;
    memset(&g, 0, sizeof g);
    g.piles[0] = a;
    g.piles[1] = b;
    g.piles[2] = c;
    g.players = players;
    g.to_move = to_move % players;
    g.last = -1;
    return g;
}

static int positions, best_replies, proofs;

static void check_position(take g) {
    int32_t want[MM_MAX_PLAYERS] = {0};
    int64_t want_move = 0;
    take plain = g;
    brute_maxn(&plain, want, &want_move);
    int want_paranoid = brute_paranoid(&plain, g.to_move);

    mm_game game = game_of(&g);
    mm_maxn_result r;
    int64_t pv[64];
    CHECK(mm_maxn_search(&game, NULL, &r, pv, 64) == MM_OK);
    CHECK(r.has_move && r.best_move == want_move && r.proven && r.exact);
    CHECK(r.players == g.players && pv[0] == r.best_move);
    for (unsigned p = 0; p < g.players; p++) CHECK(r.scores[p] == want[p] && r.values[p] == want[p]);
    CHECK(g.n_moves == 0);

    mm_search_options opts;
    mm_search_options_init(&opts);
    opts.threads = positions % 2 ? 2 : 1;
    opts.method = positions % 3 == 0 ? MM_SEARCH_EXACT : MM_SEARCH_PVS;
    mm_search_result s;
    CHECK(mm_paranoid_search(&game, &opts, &s, pv, 64) == MM_OK);
    CHECK(s.value == want_paranoid && s.proven);
    CHECK(g.n_moves == 0);
    int total = g.piles[0] + g.piles[1] + g.piles[2];
    if (total <= 7) {
        /* MCTS's solver proves the max^n value of the rewards. */
        double rewards[MM_MAX_PLAYERS] = {0};
        int64_t reward_move = 0;
        brute_rewards(&plain, rewards, &reward_move);
        mm_maxn_mcts_options mo;
        CHECK(mm_maxn_mcts_options_init(&mo) == MM_OK);
        mo.playouts = 0;
        mo.threads = positions % 2 ? 2 : 1;
        mm_maxn_mcts_result m;
        CHECK(mm_maxn_mcts_search(&game, &mo, &m) == MM_OK);
        CHECK(m.proven && m.has_move && m.best_move == reward_move && m.players == g.players);
        for (unsigned p = 0; p < g.players; p++) CHECK(fabs(m.proven_rewards[p] - rewards[p]) < 1e-9);
        CHECK(g.n_moves == 0);
        proofs++;
    }
    if (total <= 5) {
        int want_brs = brute_brs(&plain, g.to_move);
        CHECK(mm_best_reply_search(&game, &opts, &s, pv, 64) == MM_OK);
        CHECK(s.value == want_brs && s.proven);
        CHECK(g.n_moves == 0);
        best_replies++;
    }
    positions++;
}

static int with_dice;

/* max^n with dice: the chance steps' means, with and without the table and pruning. */
static void check_dice(take g) {
    g.dice = 1;
    double want[MM_MAX_PLAYERS] = {0};
    int64_t want_move = 0;
    take plain = g;
    brute_expectimax_n(&plain, want, &want_move);
    mm_game game = game_of(&g);
    for (int k = 0; k < 3; k++) {
        mm_maxn_options o;
        CHECK(mm_maxn_options_init(&o) == MM_OK);
        o.table_bytes = k == 1 ? 0 : 1 << 20;
        o.shallow_pruning = k != 2;
        mm_maxn_result r;
        CHECK(mm_maxn_search(&game, &o, &r, NULL, 0) == MM_OK);
        CHECK(r.has_move && r.best_move == want_move && r.proven && r.exact);
        for (unsigned p = 0; p < g.players; p++) {
            CHECK(fabs(r.values[p] - want[p]) < 1e-9);
            CHECK(r.scores[p] == (int32_t)(want[p] + 0.5)); /* scores are not negative here */
        }
        CHECK(g.n_moves == 0 && (k == 1 || r.table_hits > 0 || g.piles[0] + g.piles[1] + g.piles[2] < 4));
    }
    with_dice++;
}

static void statuses(void) {
    take g = position(2, 3, 0, 3, 0);
    mm_game game = game_of(&g);
    mm_maxn_result r;
    mm_search_result s;
    /* A two-player search refuses a game of three. */
    CHECK(mm_search(&game, NULL, &s, NULL, 0) == MM_ERR_NOT_TWO_PLAYERS);
    mm_mcts *mcts = NULL;
    mm_mcts_result m;
    CHECK(mm_mcts_new(&mcts) == MM_OK);
    CHECK(mm_mcts_search(mcts, &game, NULL, &m, NULL, 0) == MM_ERR_NOT_TWO_PLAYERS);
    mm_mcts_free(mcts);
    /* Too many players, or a mover out of range. */
    game.players = MM_MAX_PLAYERS + 1;
    CHECK(mm_maxn_search(&game, NULL, &r, NULL, 0) == MM_ERR_GAME_BAD_PLAYER);
    CHECK(mm_paranoid_search(&game, NULL, &s, NULL, 0) == MM_ERR_GAME_BAD_PLAYER);
    CHECK(mm_best_reply_search(&game, NULL, &s, NULL, 0) == MM_ERR_GAME_BAD_PLAYER);
    game.players = 3;
    /* Best-reply search passes for the opponents that do not reply. */
    game.null_move = NULL;
    CHECK(mm_best_reply_search(&game, NULL, &s, NULL, 0) == MM_ERR_GAME_NO_PASS);
    CHECK(g.n_moves == 0);
    game.null_move = take_pass;
    g.bad_mover = 7;
    CHECK(mm_maxn_search(&game, NULL, &r, NULL, 0) == MM_ERR_GAME_BAD_PLAYER);
    CHECK(mm_paranoid_search(&game, NULL, &s, NULL, 0) == MM_ERR_GAME_BAD_PLAYER);
    CHECK(g.n_moves == 0);
    g.bad_mover = 0;
    /* max^n takes games of three players or more; the callbacks they need. */
    game.players = 2;
    CHECK(mm_maxn_search(&game, NULL, &r, NULL, 0) == MM_ERR_GAME_BAD_PLAYER);
    game.players = 3;
    game.player_scores = NULL;
    CHECK(mm_maxn_search(&game, NULL, &r, NULL, 0) == MM_ERR_NULL_ARGUMENT);
    game.player_scores = take_scores;
    CHECK(mm_maxn_search(&game, NULL, NULL, NULL, 0) == MM_ERR_NULL_ARGUMENT);
    /* A node limit: a legal move all the same. */
    take big = position(5, 5, 5, 4, 0);
    mm_game bigger = game_of(&big);
    mm_maxn_options o;
    CHECK(mm_maxn_options_init(&o) == MM_OK);
    o.node_limit = 500;
    CHECK(mm_maxn_search(&bigger, &o, &r, NULL, 0) == MM_OK);
    CHECK(r.has_move && !r.proven && r.nodes <= 501);
    CHECK(strstr(mm_error_message(MM_ERR_NOT_TWO_PLAYERS), "mm_maxn_search") != NULL);
    /* n-player MCTS: a playout budget, and its statuses. */
    mm_maxn_mcts_options mo;
    CHECK(mm_maxn_mcts_options_init(&mo) == MM_OK);
    mo.playouts = 300;
    mm_maxn_mcts_result nm;
    CHECK(mm_maxn_mcts_search(&bigger, &mo, &nm) == MM_OK);
    CHECK(nm.has_move && nm.playouts == 300 && !nm.proven && nm.threads_used == 1);
    CHECK(mm_maxn_mcts_search(&bigger, NULL, NULL) == MM_ERR_NULL_ARGUMENT);
    mo.reward = 7;
    CHECK(mm_maxn_mcts_search(&bigger, &mo, &nm) == MM_ERR_UNKNOWN_REWARD);
    mo.reward = MM_MCTS_REWARD_SCALED;
    bigger.player_bounds = NULL;
    CHECK(mm_maxn_mcts_search(&bigger, &mo, &nm) == MM_ERR_NEEDS_BOUNDS);
    mo.reward = MM_MCTS_REWARD_SIGN;
    mo.exploration = -1.0;
    CHECK(mm_maxn_mcts_search(&bigger, &mo, &nm) == MM_ERR_BAD_EXPLORATION);
}

int main(void) {
    for (unsigned players = 3; players <= 4; players++)
        for (int a = 1; a <= 4; a++)
            for (int b = 0; b <= 4; b++)
                for (int c = 0; c <= 2; c++) {
                    check_position(position(a, b, c, players, (unsigned)(a + b)));
                    /* Small ones: the dice double the lines at every move, and the
                     * brute force runs under valgrind too. */
                    if (a + b + c <= 6) check_dice(position(a, b, c, players, (unsigned)(a + c)));
                }
    statuses();
    printf("players: %d positions (%d with best-reply search, %d proved by MCTS, %d with dice), %d checks, failures %d\n",
           positions, best_replies, proofs, with_dice, checks, failures);
    return failures != 0;
}
