/*
 * Tic-tac-toe for the batched C tests (batched.c, onnx.c): the game through mm_game's
 * callbacks, its encoding (the side to move's marks, then the other side's), and a
 * negamax written here, the reference the searches' moves are checked against.
 */
#ifndef MM_TEST_TTT_H
#define MM_TEST_TTT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "minimax.h"

typedef struct {
    int cells[9]; /* 1 X (MAX), -1 O, 0 empty */
    int made;
    int played; /* moves the search has played and not taken back */
    bool bad_index; /* if set, action_index puts cell 8 out of range */
} ttt;

static const int LINES[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};

static int winner(const int *cells) {
    for (int i = 0; i < 8; i++) {
        int a = cells[LINES[i][0]];
        if (a != 0 && a == cells[LINES[i][1]] && a == cells[LINES[i][2]]) return a;
    }
    return 0;
}

static int ttt_moves(void *ctx, int64_t *moves, size_t cap) {
    ttt *g = ctx;
    int n = 0;
    for (int i = 0; i < 9; i++)
        if (g->cells[i] == 0 && (size_t)n < cap) moves[n++] = i;
    return n;
}
static void ttt_play(void *ctx, int64_t mv) {
    ttt *g = ctx;
    g->cells[mv] = g->made % 2 == 0 ? 1 : -1;
    g->made++;
    g->played++;
}
static void ttt_undo(void *ctx, int64_t mv) {
    ttt *g = ctx;
    g->cells[mv] = 0;
    g->made--;
    g->played--;
}
static bool ttt_outcome(void *ctx, int32_t *score) {
    ttt *g = ctx;
    int w = winner(g->cells);
    if (w != 0 || g->made == 9) {
        *score = w;
        return true;
    }
    return false;
}
static int32_t ttt_evaluate(void *ctx) {
    (void)ctx;
    return 0;
}
static bool ttt_max_to_move(void *ctx) { return ((ttt *)ctx)->made % 2 == 0; }

/* The side to move's marks, then the other side's. */
static void ttt_observe(void *ctx, float *out) {
    ttt *g = ctx;
    int me = g->made % 2 == 0 ? 1 : -1;
    for (int i = 0; i < 9; i++) {
        if (g->cells[i] == me) out[i] = 1.0f;
        if (g->cells[i] == -me) out[9 + i] = 1.0f;
    }
}
static int64_t ttt_action_index(void *ctx, int64_t mv) {
    ttt *g = ctx;
    return g->bad_index && mv == 8 ? 9 : mv;
}

/* The value for the side to move (1 its marks, -1 the other's), by plain negamax. */
static int negamax(int *cells) {
    if (winner(cells) != 0) return -1; /* the side that just moved made a line */
    int best = -2, empty = 0;
    for (int i = 0; i < 9; i++) {
        if (cells[i] != 0) continue;
        empty++;
        cells[i] = 1;
        for (int j = 0; j < 9; j++) cells[j] = -cells[j];
        int v = -negamax(cells);
        for (int j = 0; j < 9; j++) cells[j] = -cells[j];
        cells[i] = 0;
        if (v > best) best = v;
    }
    return empty == 0 ? 0 : best;
}

/* The value for the player to move in `g` of playing `mv`. */
static int value_of(const ttt *g, int mv) {
    int cells[9];
    int me = g->made % 2 == 0 ? 1 : -1;
    for (int i = 0; i < 9; i++) cells[i] = g->cells[i] * me; /* the mover's marks as 1 */
    cells[mv] = 1;
    if (winner(cells) != 0) return 1;
    int empty = 0;
    for (int i = 0; i < 9; i++) empty += cells[i] == 0;
    if (empty == 0) return 0;
    for (int i = 0; i < 9; i++) cells[i] = -cells[i];
    return -negamax(cells);
}

/* `n` games from seeded random openings of 0 to 5 moves that do not end the game, each
   in `boards[i]` through `games[i]`; false if an init failed. */
static bool ttt_setup(ttt *boards, mm_game *games, int n) {
    uint64_t seed = 12345;
    for (int i = 0; i < n; i++) {
        memset(&boards[i], 0, sizeof boards[i]);
        int plies = i % 6;
        for (int k = 0; k < plies; k++) {
            int64_t legal[9];
            int moves = ttt_moves(&boards[i], legal, 9);
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            ttt_play(&boards[i], legal[(seed >> 33) % (uint64_t)moves]);
            int32_t s;
            if (ttt_outcome(&boards[i], &s)) {
                ttt_undo(&boards[i], legal[(seed >> 33) % (uint64_t)moves]);
                break;
            }
        }
        boards[i].played = 0;
        if (mm_game_init(&games[i]) != MM_OK) return false;
        games[i].context = &boards[i];
        games[i].moves = ttt_moves;
        games[i].play = ttt_play;
        games[i].undo = ttt_undo;
        games[i].outcome = ttt_outcome;
        games[i].evaluate = ttt_evaluate;
        games[i].max_to_move = ttt_max_to_move;
    }
    return true;
}

/* The encoding: 18 floats, 9 actions. */
static bool ttt_encoding(mm_encoding *enc) {
    if (mm_encoding_init(enc) != MM_OK) return false;
    enc->observation_size = 18;
    enc->action_count = 9;
    enc->observe = ttt_observe;
    enc->action_index = ttt_action_index;
    return true;
}

#endif
