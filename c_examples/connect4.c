/*
 * A Connect Four solver (7 columns x 6 rows) written as an ordinary game on libminimax's
 * engine. The game's knowledge lives in the callbacks (connect4_game.h): a bitboard, immediate wins,
 * never giving the opponent an immediate win, move ordering by the threats a move
 * creates, and bounds on the score. The search (transposition table with bounds,
 * null-window exact solving) is the engine's.
 *
 * Reads positions from stdin, one per line, as column digits 1-7 played from the empty
 * board ("4453"), and prints "<moves> <score> <nodes> <microseconds>". The score is from
 * the side to move, with n stones played: (43 - n) / 2 if it can win now, otherwise the
 * best over moves of minus the score after the move; a full board scores 0. An invalid
 * line gets an error on stderr and the run goes on; blank lines are skipped.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "connect4_game.h"

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

int main(void) {
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
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '\0')
            continue; /* blank lines separate nothing: skip them */
        const char *problem = c4_setup(&pos, line);
        if (problem) {
            fprintf(stderr, "line %d: \"%s\": %s\n", line_no, line, problem);
            continue;
        }
        mm_search_options o = c4_solver_options(&pos, table);
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
