/*
 * Othello 8x8 as a C program plays it through mm_game: bitboards, a disc-square
 * evaluation (the weights Norvig gives in "Paradigms of Artificial Intelligence
 * Programming", chapter 18) plus 10 a move of mobility, scores from the side to move
 * (MM_SCORES_SIDE_TO_MOVE), and a pass that is a move when the side to move has no disc
 * to place. The pass doubles as the game's null move, for null-move pruning (which
 * measured weaker on Othello: docs/performance.md, "Matches at a clock").
 *
 *   othello [--depth D]                  one game, the engine against itself, printed
 *   othello --match GAMES --nodes N      GAMES games (in pairs from seeded 6-ply openings,
 *                                        colours swapped) between PVS with late move
 *                                        reductions and plain PVS, N nodes a move each;
 *                                        prints the first one's results
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "minimax.h"

#define PASS 64
#define WIN 10000

typedef struct {
    uint64_t me, opp;            /* the side to move's discs, the other side's */
    uint64_t stack[128][2];      /* the positions before each move played */
    int played;
    int order[64];               /* squares by weight, highest first */
} othello;

static const uint64_t NOT_A = 0xfefefefefefefefeULL, NOT_H = 0x7f7f7f7f7f7f7f7fULL;

static uint64_t shift(uint64_t x, int dir) {
    switch (dir) {
    case 0: return (x << 1) & NOT_A;
    case 1: return (x >> 1) & NOT_H;
    case 2: return x << 8;
    case 3: return x >> 8;
    case 4: return (x << 9) & NOT_A;
    case 5: return (x << 7) & NOT_H;
    case 6: return (x >> 7) & NOT_A;
    default: return (x >> 9) & NOT_H;
    }
}

static int popcount(uint64_t x) {
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

static int weight(int sq) {
    static const int quarter[4][4] = {{120, -20, 20, 5}, {-20, -40, -5, -5}, {20, -5, 15, 3}, {5, -5, 3, 3}};
    int r = sq / 8, c = sq % 8;
    return quarter[r < 4 ? r : 7 - r][c < 4 ? c : 7 - c];
}

/* The squares where the side with `me` may place a disc. */
static uint64_t placements(uint64_t me, uint64_t opp) {
    uint64_t empty = ~(me | opp), moves = 0;
    for (int d = 0; d < 8; d++) {
        uint64_t run = shift(me, d) & opp;
        for (int k = 0; k < 5; k++)
            run |= shift(run, d) & opp;
        moves |= shift(run, d) & empty;
    }
    return moves;
}

static uint64_t flips(uint64_t me, uint64_t opp, int sq) {
    uint64_t turned = 0;
    for (int d = 0; d < 8; d++) {
        uint64_t run = 0, x = shift((uint64_t)1 << sq, d);
        while (x & opp) {
            run |= x;
            x = shift(x, d);
        }
        if (x & me)
            turned |= run;
    }
    return turned;
}

static void start(othello *g) {
    g->me = ((uint64_t)1 << 28) | ((uint64_t)1 << 35);
    g->opp = ((uint64_t)1 << 27) | ((uint64_t)1 << 36);
    g->played = 0;
    for (int i = 0; i < 64; i++)
        g->order[i] = i;
    for (int i = 1; i < 64; i++) /* insertion sort by weight, highest first */
        for (int j = i; j > 0 && weight(g->order[j]) > weight(g->order[j - 1]); j--) {
            int t = g->order[j];
            g->order[j] = g->order[j - 1];
            g->order[j - 1] = t;
        }
}

static int moves(void *ctx, int64_t *out, size_t cap) {
    othello *g = ctx;
    uint64_t mine = placements(g->me, g->opp);
    int n = 0;
    if (mine) {
        for (int i = 0; i < 64; i++)
            if (mine >> g->order[i] & 1) {
                if ((size_t)n < cap)
                    out[n] = g->order[i];
                n++;
            }
    } else if (placements(g->opp, g->me)) {
        if (cap > 0)
            out[0] = PASS;
        n = 1;
    }
    return n;
}

static void play(void *ctx, int64_t mv) {
    othello *g = ctx;
    g->stack[g->played][0] = g->me;
    g->stack[g->played][1] = g->opp;
    g->played++;
    uint64_t me = g->me, opp = g->opp;
    if (mv == PASS) {
        g->me = opp;
        g->opp = me;
    } else {
        uint64_t turned = flips(me, opp, (int)mv);
        g->me = opp & ~turned;
        g->opp = me | turned | (uint64_t)1 << mv;
    }
}

static void undo(void *ctx, int64_t mv) {
    othello *g = ctx;
    (void)mv;
    g->played--;
    g->me = g->stack[g->played][0];
    g->opp = g->stack[g->played][1];
}

/* Over when neither side can place a disc: the sign of the disc difference. */
static bool outcome(void *ctx, int *score) {
    othello *g = ctx;
    if (placements(g->me, g->opp) || placements(g->opp, g->me))
        return false;
    int diff = popcount(g->me) - popcount(g->opp);
    *score = diff > 0 ? WIN : diff < 0 ? -WIN : 0;
    return true;
}

static int evaluate(void *ctx) {
    othello *g = ctx;
    int sum = 0;
    for (uint64_t b = g->me; b; b &= b - 1) {
        int sq = 0;
        while (!(b >> sq & 1))
            sq++;
        sum += weight(sq);
    }
    for (uint64_t b = g->opp; b; b &= b - 1) {
        int sq = 0;
        while (!(b >> sq & 1))
            sq++;
        sum -= weight(sq);
    }
    return sum + 10 * (popcount(placements(g->me, g->opp)) - popcount(placements(g->opp, g->me)));
}

static uint64_t hash(void *ctx) {
    othello *g = ctx;
    uint64_t a = g->me * 0x9E3779B97F4A7C15ULL, b = g->opp * 0xD6E8FEB86659FD93ULL;
    a ^= a >> 29;
    b ^= b >> 31;
    return a * 0xBF58476D1CE4E5B9ULL ^ (b << 17 | b >> 47);
}

/* The pass, for null-move pruning: `play` takes it whenever it is asked. */
static bool null_move(void *ctx, int64_t *pass) {
    (void)ctx;
    *pass = PASS;
    return true;
}

static mm_game othello_game(othello *g) {
    mm_game game;
    mm_game_init(&game);
    game.context = g;
    game.moves = moves;
    game.play = play;
    game.undo = undo;
    game.outcome = outcome;
    game.evaluate = evaluate;
    game.hash = hash;
    game.score_view = MM_SCORES_SIDE_TO_MOVE;
    game.null_move = null_move;
    return game;
}

/* SplitMix64: the same openings on every machine. */
static uint64_t next_random(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* One player's move: PVS with a table, to `depth` or within `nodes`, with late move
   reductions or without. Returns MM_OK or the failing status. */
static mm_status choose(mm_game *game, mm_table *table, bool enhanced, uint32_t depth, uint64_t nodes,
                        int64_t *mv) {
    mm_search_options o;
    mm_search_options_init(&o);
    o.method = MM_SEARCH_PVS;
    o.table = table;
    o.max_depth = depth;
    o.node_limit = nodes;
    o.late_move_reductions = enhanced;
    mm_search_result r;
    mm_status s = mm_search(game, &o, &r, NULL, 0);
    if (s == MM_OK)
        *mv = r.best_move;
    return s;
}

/* Plays from `g` to the end, `first` (0: with reductions, 1: plain) moving first;
   returns the disc difference of the side with reductions, or INT32_MIN after an error. */
static int play_game(othello *g, mm_table *tables[2], int first, uint64_t nodes) {
    mm_game game = othello_game(g);
    mm_table_clear(tables[0]);
    mm_table_clear(tables[1]);
    int turn = first, score;
    while (!outcome(g, &score)) {
        int64_t mv;
        mm_status s = choose(&game, tables[turn], turn == 0, MM_DEPTH_UNLIMITED, nodes, &mv);
        if (s != MM_OK) {
            fprintf(stderr, "error: %s\n", mm_error_message(s));
            return INT32_MIN;
        }
        play(g, mv);
        turn = 1 - turn;
    }
    int diff = popcount(g->me) - popcount(g->opp); /* for the side to move, `turn` */
    return turn == 0 ? diff : -diff;
}

static int match(int games, uint64_t nodes) {
    mm_table *tables[2] = {NULL, NULL};
    if (mm_table_new(4u << 20, &tables[0]) != MM_OK || mm_table_new(4u << 20, &tables[1]) != MM_OK) {
        fprintf(stderr, "error: cannot make the tables\n");
        return 1;
    }
    uint64_t seed = 1;
    int wins = 0, draws = 0, losses = 0;
    static othello opening, g;
    for (int pair = 0; pair < (games + 1) / 2; pair++) {
        start(&opening);
        for (int ply = 0; ply < 6; ply++) {
            int64_t list[64];
            int n = moves(&opening, list, 64);
            play(&opening, list[next_random(&seed) % (uint64_t)n]);
        }
        opening.played = 0; /* the opening is where the games start */
        for (int first = 0; first < 2; first++) {
            g = opening;
            int diff = play_game(&g, tables, first, nodes);
            if (diff == INT32_MIN)
                return 1;
            wins += diff > 0;
            draws += diff == 0;
            losses += diff < 0;
        }
    }
    printf("late move reductions against plain PVS, %llu nodes a move: "
           "%d wins, %d draws, %d losses in %d games\n",
           (unsigned long long)nodes, wins, draws, losses, wins + draws + losses);
    mm_table_free(tables[0]);
    mm_table_free(tables[1]);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "--match") == 0 && strcmp(argv[3], "--nodes") == 0) {
        int games = atoi(argv[2]);
        long long nodes = atoll(argv[4]);
        if (games > 0 && nodes > 0)
            return match(games, (uint64_t)nodes);
    }
    uint32_t depth = 6;
    if (argc == 3 && strcmp(argv[1], "--depth") == 0 && atoi(argv[2]) > 0) {
        depth = (uint32_t)atoi(argv[2]);
    } else if (argc != 1) {
        fprintf(stderr, "usage: othello [--depth D] | othello --match GAMES --nodes N\n");
        return 2;
    }
    static othello g;
    start(&g);
    mm_game game = othello_game(&g);
    int score, black = 1;
    while (!outcome(&g, &score)) {
        int64_t mv;
        mm_status s = choose(&game, NULL, true, depth, 0, &mv);
        if (s != MM_OK) {
            fprintf(stderr, "error: %s\n", mm_error_message(s));
            return 1;
        }
        if (mv == PASS)
            printf("%s passes\n", black ? "black" : "white");
        else
            printf("%s %c%d\n", black ? "black" : "white", 'a' + (int)(mv % 8), (int)(mv / 8) + 1);
        play(&g, mv);
        black = !black;
    }
    int mine = popcount(g.me), theirs = popcount(g.opp);
    int b = black ? mine : theirs, w = black ? theirs : mine;
    printf("black %d, white %d: %s\n", b, w, b > w ? "black wins" : b < w ? "white wins" : "a draw");
    return 0;
}
