/*
 * SPDX-License-Identifier: AGPL-3.0-or-later
 *
 * Origin and licence: a close C translation of Pascal Pons' Connect Four solver (2019,
 * https://github.com/PascalPons/connect4, licensed AGPL-3.0-or-later), and so a derivative
 * work under his licence, not under the MIT OR Apache-2.0 licence of the rest of this
 * repository. It is used only by the benchmark program (benches/connect4_bench.c, built by
 * `make bench`) as a same-run speed reference, and is never compiled into libminimax.so or
 * libminimax.a: no file under src/ or c_examples/ includes it (tests/project/licence.rs checks).
 *
 * What it is: his dedicated solver (bitboard, non-losing moves, threat ordering, score
 * bounds, a transposition table holding upper and lower bounds, null-window solve),
 * without the opening book. The benchmark runs it on the same positions as the library's
 * engine, so that the ratios compare two searches on one machine in one run.
 *
 * It reuses the bitboard helpers of c_examples/connect4_game.h (include that first).
 */
#ifndef MM_BENCH_PONS_SOLVER_H
#define MM_BENCH_PONS_SOLVER_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Two variants of Pons' table; both keep one value byte per position, 0 meaning empty.
   - His current code (the default): the first prime above 2^24 entries of 5 bytes, a
     32-bit partial key in one array and the value in another (84 MB). The key is below
     2^49 and the index is the key modulo a prime above 2^17, so the index and the key's
     low 32 bits together tell the key.
   - An older one (-DPONS_TABLE_8_BYTES): the first prime above 2^23 entries of 8 bytes,
     the 56-bit key beside the value in one word (64 MB). */
#ifdef PONS_TABLE_8_BYTES
#define PONS_SIZE 8388617u
#define PONS_VARIANT "older code (2^23+9 entries of 8 bytes)"
#else
#define PONS_SIZE 16777259u
#define PONS_VARIANT "current code (2^24+43 entries of 5 bytes)"
#endif
#define PONS_MIN_SCORE (-(W * H) / 2 + 3)
#define PONS_MAX_SCORE ((W * H + 1) / 2 - 3)

/* Pons' position: three words, copied on every move. */
typedef struct {
    uint64_t current, mask;
    int moves;
} pons_position;

typedef struct {
#ifdef PONS_TABLE_8_BYTES
    uint64_t *entries;
#else
    uint32_t *keys;
    uint8_t *values;
#endif
    unsigned long long nodes;
} pons_solver;

#ifdef PONS_TABLE_8_BYTES
static void pons_reset(pons_solver *s) {
    if (!s->entries)
        s->entries = malloc(sizeof(uint64_t) * PONS_SIZE);
    memset(s->entries, 0, sizeof(uint64_t) * PONS_SIZE);
    s->nodes = 0;
}

/* Keys are below 2^49, so the top byte holds the value and 0 means empty. */
static void pons_put(pons_solver *s, uint64_t key, int value) {
    s->entries[key % PONS_SIZE] = key | (uint64_t)value << 56;
}

static int pons_get(const pons_solver *s, uint64_t key) {
    uint64_t e = s->entries[key % PONS_SIZE];
    return (e & ((1ULL << 56) - 1)) == key ? (int)(e >> 56) : 0;
}
#else
static void pons_reset(pons_solver *s) {
    if (!s->keys) {
        s->keys = malloc(sizeof(uint32_t) * PONS_SIZE);
        s->values = malloc(PONS_SIZE);
    }
    memset(s->keys, 0, sizeof(uint32_t) * PONS_SIZE);
    memset(s->values, 0, PONS_SIZE);
    s->nodes = 0;
}

static void pons_put(pons_solver *s, uint64_t key, int value) {
    size_t i = key % PONS_SIZE;
    s->keys[i] = (uint32_t)key;
    s->values[i] = (uint8_t)value;
}

static int pons_get(const pons_solver *s, uint64_t key) {
    size_t i = key % PONS_SIZE;
    return s->keys[i] == (uint32_t)key ? s->values[i] : 0;
}
#endif

static int pons_negamax(pons_solver *s, const pons_position *p, int alpha, int beta) {
    s->nodes++;
    uint64_t allowed = non_losing_moves(p->current, p->mask);
    if (allowed == 0)
        return -(W * H - p->moves) / 2;
    if (p->moves >= W * H - 2)
        return 0;
    int min = -(W * H - 2 - p->moves) / 2;
    if (alpha < min) {
        alpha = min;
        if (alpha >= beta)
            return alpha;
    }
    int max = (W * H - 1 - p->moves) / 2;
    uint64_t key = p->current + p->mask;
    int val = pons_get(s, key);
    if (val) {
        if (val > PONS_MAX_SCORE - PONS_MIN_SCORE + 1) { /* a lower bound */
            min = val + 2 * PONS_MIN_SCORE - PONS_MAX_SCORE - 2;
            if (alpha < min) {
                alpha = min;
                if (alpha >= beta)
                    return alpha;
            }
        } else { /* an upper bound */
            max = val + PONS_MIN_SCORE - 1;
            if (beta > max) {
                beta = max;
                if (alpha >= beta)
                    return beta;
            }
        }
    }
    /* Pons' move sorter: insertion by score, columns added edge first, so that ties come
       out centre first. */
    uint64_t moves[W];
    int scores[W], n = 0;
    for (int i = W; i--;) {
        uint64_t move = allowed & column_mask(column_order[i]);
        if (!move)
            continue;
        int sc = popcount(winning_cells(p->current | move, p->mask));
        int j = n++;
        for (; j && scores[j - 1] > sc; --j) {
            moves[j] = moves[j - 1];
            scores[j] = scores[j - 1];
        }
        moves[j] = move;
        scores[j] = sc;
    }
    while (n--) {
        pons_position p2 = {p->current ^ p->mask, p->mask | moves[n], p->moves + 1};
        int score = -pons_negamax(s, &p2, -beta, -alpha);
        if (score >= beta) {
            pons_put(s, key, score + PONS_MAX_SCORE - 2 * PONS_MIN_SCORE + 2);
            return score;
        }
        if (score > alpha)
            alpha = score;
    }
    pons_put(s, key, alpha - PONS_MIN_SCORE + 1);
    return alpha;
}

/* The exact score of `p` for the side to move (Pons' solve()). */
static int pons_solve(pons_solver *s, const position *pos) {
    pons_position root = {pos->current, pos->mask, pos->moves}, *p = &root;
    if (winning_cells(p->current, p->mask) & possible_moves(p->mask))
        return (W * H + 1 - p->moves) / 2;
    int min = -(W * H - p->moves) / 2;
    int max = (W * H + 1 - p->moves) / 2;
    while (min < max) {
        int med = min + (max - min) / 2;
        if (med <= 0 && min / 2 < med)
            med = min / 2;
        else if (med >= 0 && max / 2 > med)
            med = max / 2;
        int r = pons_negamax(s, p, med, med + 1);
        if (r <= med)
            max = r;
        else
            min = r;
    }
    return min;
}

#endif
