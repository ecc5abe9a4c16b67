/*
 * Connect Four (7 x 6) as a game for libminimax's engine: Pascal Pons' bitboard, immediate
 * wins, never giving the opponent an immediate win, move ordering by the threats a move
 * creates, and bounds on the score. Used by connect4.c and the benchmark.
 */
#ifndef MM_EXAMPLES_CONNECT4_GAME_H
#define MM_EXAMPLES_CONNECT4_GAME_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "minimax.h"

#define W 7
#define H 6

/* What analyse found for the position with key `key`: the moves that do not hand the
   opponent a win at once, and the winning moves. */
typedef struct {
    uint64_t key, allowed, win;
} c4_analysis;

typedef struct {
    uint64_t current; /* stones of the player to move */
    uint64_t mask;    /* all stones */
    int moves;        /* stones played */
    uint64_t played[W * H];
    /* Per ply: analyse's answer for that ply's position (c4_bounds finds it, c4_moves reuses
       it), kept while the search is below it so that each child's c4_play can read it. */
    c4_analysis analysed[W * H + 1];
    /* Per ply: whether the last move made four in a row, and whether the position was
       reached by a move that gives no immediate win (so the side to move has none). */
    bool won[W * H + 1], quiet[W * H + 1];
} position;

static uint64_t bottom_col(int c) { return 1ULL << (c * (H + 1)); }
static uint64_t top_col(int c) { return 1ULL << (H - 1 + c * (H + 1)); }
static uint64_t column_mask(int c) { return ((1ULL << H) - 1) << (c * (H + 1)); }
static uint64_t bottom_mask(void) {
    uint64_t m = 0;
    for (int c = 0; c < W; c++)
        m |= bottom_col(c);
    return m;
}
static uint64_t board_mask(void) { return bottom_mask() * ((1ULL << H) - 1); }

static int popcount(uint64_t m) {
    int n = 0;
    for (; m; n++)
        m &= m - 1;
    return n;
}

/* The cells of `stones` that complete four with the stones `s`, `2s` and `3s` away in one
   line direction, or with one on one side and two on the other. */
static inline uint64_t line_cells(uint64_t stones, int s) {
    uint64_t p = (stones << s) & (stones << 2 * s);
    uint64_t r = (p & (stones << 3 * s)) | (p & (stones >> s));
    p = (stones >> s) & (stones >> 2 * s);
    return r | (p & (stones << s)) | (p & (stones >> 3 * s));
}

/* The empty cells that would complete four for `stones`: vertically (only from below),
   horizontally and along both diagonals. The shifts are constants, so that each
   direction compiles to straight-line code. */
static uint64_t winning_cells(uint64_t stones, uint64_t mask) {
    uint64_t r = (stones << 1) & (stones << 2) & (stones << 3);
    r |= line_cells(stones, H + 1) | line_cells(stones, H) | line_cells(stones, H + 2);
    return r & (board_mask() ^ mask);
}

static bool four_in_a_row(uint64_t stones) {
    static const int shifts[4] = {1, H + 1, H, H + 2};
    for (int i = 0; i < 4; i++) {
        uint64_t m = stones & (stones >> shifts[i]);
        if (m & (m >> 2 * shifts[i]))
            return true;
    }
    return false;
}

static uint64_t possible_moves(uint64_t mask) { return (mask + bottom_mask()) & board_mask(); }
static uint64_t possible(const position *p) { return possible_moves(p->mask); }

/* The moves that do not let the opponent win at once (0 if every move loses), for the
   player to move whose stones are `current`. */
static uint64_t non_losing_moves(uint64_t current, uint64_t mask) {
    uint64_t moves = possible_moves(mask);
    uint64_t threats = winning_cells(current ^ mask, mask);
    uint64_t forced = moves & threats;
    if (forced) {
        if (forced & (forced - 1))
            return 0; /* two threats: both cannot be blocked */
        moves = forced;
    }
    return moves & ~(threats >> 1); /* never play below an opponent's winning cell */
}

static uint64_t non_losing(const position *p) { return non_losing_moves(p->current, p->mask); }

/* Plays a move's bit. The parent's analysis, when it has one, says at once whether the
   move wins and whether it leaves the opponent an immediate win. */
static void play_bit(position *p, uint64_t move) {
    c4_analysis a = p->analysed[p->moves];
    bool known = a.key == p->current + p->mask;
    p->played[p->moves] = move;
    p->current ^= p->mask;
    p->mask |= move;
    p->moves++;
    p->won[p->moves] = known ? (move & a.win) != 0 : four_in_a_row(p->current ^ p->mask);
    p->quiet[p->moves] = known && (move & a.allowed) != 0;
}

/* ---- the game's callbacks ---- */

static const int column_order[W] = {3, 2, 4, 1, 5, 0, 6};

/* The empty board. */
static void c4_reset(position *p) {
    memset(p, 0, sizeof *p);
    for (int i = 0; i <= W * H; i++)
        p->analysed[i].key = ~0ULL; /* no position has this key */
}

/* The moves to consider and the winning moves, computed once per position. */
static void analyse(position *p, uint64_t *allowed, uint64_t *win) {
    uint64_t key = p->current + p->mask;
    c4_analysis *a = &p->analysed[p->moves];
    if (a->key != key) {
        a->key = key;
        a->win = p->quiet[p->moves] ? 0 : winning_cells(p->current, p->mask) & possible(p);
        a->allowed = non_losing(p);
    }
    *allowed = a->allowed;
    *win = a->win;
}

static int c4_moves(void *ctx, int64_t *out, size_t capacity) {
    position *p = ctx;
    uint64_t allowed, win;
    analyse(p, &allowed, &win);
    if (allowed == 0)
        allowed = possible(p); /* every move loses: any will do */
    if (win)
        allowed = win; /* a winning move first and alone */
    int n = 0, score[W];
    if ((allowed & (allowed - 1)) == 0) { /* one move: nothing to order */
        for (int c = 0; c < W && capacity > 0; c++)
            if (allowed & column_mask(c)) {
                out[0] = c;
                return 1;
            }
        return 0;
    }
    for (int i = 0; i < W; i++) {
        int c = column_order[i];
        uint64_t move = allowed & column_mask(c);
        if (!move || (size_t)n >= capacity)
            continue;
        int s = popcount(winning_cells(p->current | move, p->mask));
        int j = n++;
        for (; j > 0 && score[j - 1] < s; j--) { /* stable: ties keep centre-first order */
            score[j] = score[j - 1];
            out[j] = out[j - 1];
        }
        score[j] = s;
        out[j] = c;
    }
    return n;
}

static void c4_play(void *ctx, int64_t column) {
    position *p = ctx;
    play_bit(p, (p->mask + bottom_col((int)column)) & column_mask((int)column));
}

static void c4_undo(void *ctx, int64_t column) {
    (void)column;
    position *p = ctx;
    p->moves--;
    p->mask ^= p->played[p->moves];
    p->current ^= p->mask;
}

/* MAX is the first player. A won position scores (44 - n) / 2 for the winner. */
static bool c4_outcome(void *ctx, int32_t *score) {
    const position *p = ctx;
    if (p->won[p->moves]) {
        int s = (W * H + 2 - p->moves) / 2;
        *score = p->moves % 2 == 1 ? s : -s;
        return true;
    }
    if (p->moves == W * H) {
        *score = 0;
        return true;
    }
    return false;
}

static int32_t c4_evaluate(void *ctx) {
    (void)ctx;
    return 0;
}

static uint64_t c4_hash(void *ctx) {
    const position *p = ctx;
    return p->current + p->mask;
}

/* The score range for the side to move (Pons' bounds), then in MAX's view. */
static bool c4_bounds(void *ctx, int32_t *lo, int32_t *hi) {
    position *p = ctx;
    int n = p->moves, low, high;
    uint64_t allowed, win;
    analyse(p, &allowed, &win);
    if (win) {
        low = high = (W * H + 1 - n) / 2;
    } else if (allowed == 0) {
        low = high = -(W * H - n) / 2;
    } else if (n >= W * H - 2) {
        low = high = 0;
    } else {
        low = -(W * H - 2 - n) / 2;
        high = (W * H - 1 - n) / 2;
    }
    bool max = n % 2 == 0;
    *lo = max ? low : -high;
    *hi = max ? high : -low;
    return true;
}

/* Plays a line of digits; returns NULL on success or what is wrong. */
#if defined(__GNUC__)
__attribute__((unused))
#endif
static const char *c4_setup(position *p, const char *line) {
    c4_reset(p);
    for (const char *s = line; *s; s++) {
        if (*s < '1' || *s > '7')
            return "not a column digit 1-7";
        int c = *s - '1';
        if (p->mask & top_col(c))
            return "the column is full";
        if (p->won[p->moves])
            return "the game is already over";
        c4_play(p, c);
    }
    if (p->won[p->moves])
        return "the game is already over";
    return NULL;
}

/* A copy of the position for another search thread, and its release. */
static void *c4_copy(void *ctx) {
    position *copy = malloc(sizeof *copy);
    if (copy)
        *copy = *(const position *)ctx;
    return copy;
}

static void c4_free(void *copy) { free(copy); }

/* The game over `p`, and the options that solve it exactly. */
static mm_game c4_game(position *p) {
    mm_game g;
    mm_game_init(&g);
    g.context = p;
    g.moves = c4_moves;
    g.play = c4_play;
    g.undo = c4_undo;
    g.outcome = c4_outcome;
    g.evaluate = c4_evaluate;
    g.hash = c4_hash;
    /* Turns alternate, so no turn callback: c4_solver_options says who is to move. */
    g.bounds = c4_bounds;
    g.copy_context = c4_copy; /* lets a search run on several threads */
    g.free_context = c4_free;
    return g;
}

/* The options that solve `p` exactly with `table` (reused across positions, like a
   dedicated solver's table). MAX is the first player: the options say whether MAX is to
   move in `p`. */
#if defined(__GNUC__)
__attribute__((unused))
#endif
static mm_search_options c4_solver_options(const position *p, mm_table *table) {
    mm_search_options o;
    mm_search_options_init(&o);
    o.method = MM_SEARCH_EXACT;
    o.iterative_deepening = false;
    o.table = table;
    o.refine_distance = false; /* the score already encodes the distance to the end */
    o.max_moves = W;
    o.max_at_root = p->moves % 2 == 0;
    return o;
}

#endif
