/*
 * A Connect Four solver (7 columns x 6 rows) written as an ordinary game on libminimax's
 * engine. The game's knowledge lives in the callbacks (connect4_game.h): a bitboard, immediate wins,
 * never giving the opponent an immediate win, move ordering by the threats a move
 * creates, and bounds on the score. The search (transposition table with bounds,
 * null-window exact solving) is the engine's.
 *
 *   connect4 [--threads N] < positions      (N threads, 0: one per core; default 1)
 *
 * Reads positions from stdin, one per line, as column digits 1-7 played from the empty
 * board ("4453"), optionally followed by a space and anything (the expected score, in
 * Pascal Pons' test sets), and prints "<moves> <score> <nodes> <microseconds>". The score is from
 * the side to move, with n stones played: (43 - n) / 2 if it can win now, otherwise the
 * best over moves of minus the score after the move; a full board scores 0. An invalid
 * line gets an error on stderr and the run goes on; blank lines are skipped.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "connect4_game.h"

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

int main(int argc, char **argv) {
    unsigned threads = 1;
    if (argc == 3 && strcmp(argv[1], "--threads") == 0 && argv[2][0] >= '0' && argv[2][0] <= '9') {
        threads = (unsigned)strtoul(argv[2], NULL, 10);
    } else if (argc != 1) {
        fprintf(stderr, "usage: connect4 [--threads N] < positions\n");
        return 2;
    }
    static position pos;
    mm_game game = c4_game(&pos);
    mm_table *table = NULL;
    if (mm_table_new(64u << 20, &table) != MM_OK) {
        fprintf(stderr, "error: cannot make the transposition table\n");
        return 1;
    }
    char line[256];
    int line_no = 0;
    while (fgets(line, sizeof line, stdin)) {
        line_no++;
        line[strcspn(line, " \t\r\n")] = '\0'; /* the moves; an expected score may follow */
        if (line[0] == '\0')
            continue; /* blank lines separate nothing: skip them */
        const char *problem = c4_setup(&pos, line);
        if (problem) {
            fprintf(stderr, "line %d: \"%s\": %s\n", line_no, line, problem);
            continue;
        }
        mm_table_clear(table); /* each position afresh, as Pons' benchmark does */
        mm_search_options o = c4_solver_options(&pos, table);
        o.threads = threads;
        double t0 = now_us();
        mm_search_result r;
        mm_status s = mm_search(&game, &o, &r, NULL, 0);
        double t1 = now_us();
        if (s != MM_OK) {
            fprintf(stderr, "line %d: %s\n", line_no, mm_error_message(s));
            continue;
        }
        int score = pos.moves % 2 == 0 ? r.value : -r.value; /* side to move's view */
        printf("%s %d %llu %.0f\n", line, score, (unsigned long long)r.stats.nodes, t1 - t0);
        fflush(stdout);
    }
    mm_table_free(table);
    return 0;
}
