/*
 * The yardstick: our plain C rendering of the two documents' algorithms, compiled with the
 * same flags as the benchmark (-O2), as any C user would build them. The alpha-beta loop
 * visits both children (the document's height - 1 bug fixed).
 */
#ifndef MM_BENCH_TEXTBOOK_H
#define MM_BENCH_TEXTBOOK_H

#include <limits.h>
#include <stdbool.h>

#define tb_min(a, b) (((a) < (b)) ? (a) : (b))
#define tb_max(a, b) (((a) > (b)) ? (a) : (b))

static int tb_minimax(int depth, int nodeIndex, bool isMax, const int scores[], int h) {
    if (depth == h)
        return scores[nodeIndex];
    if (isMax)
        return tb_max(tb_minimax(depth + 1, nodeIndex * 2, false, scores, h),
                      tb_minimax(depth + 1, nodeIndex * 2 + 1, false, scores, h));
    else
        return tb_min(tb_minimax(depth + 1, nodeIndex * 2, true, scores, h),
                      tb_minimax(depth + 1, nodeIndex * 2 + 1, true, scores, h));
}

/* Counts the leaves it reads in *leaves when leaves is not NULL. */
static int tb_alphabeta(int height, int depth, int nodeIndex, bool maxPlayer, const int values[],
                        int alpha, int beta, long *leaves) {
    if (depth == height) {
        if (leaves)
            (*leaves)++;
        return values[nodeIndex];
    }
    if (maxPlayer) {
        int bestValue = INT_MIN;
        for (int i = 0; i < 2; i++) {
            int val = tb_alphabeta(height, depth + 1, nodeIndex * 2 + i, false, values, alpha, beta, leaves);
            bestValue = tb_max(bestValue, val);
            alpha = tb_max(alpha, bestValue);
            if (beta <= alpha)
                break;
        }
        return bestValue;
    } else {
        int bestValue = INT_MAX;
        for (int i = 0; i < 2; i++) {
            int val = tb_alphabeta(height, depth + 1, nodeIndex * 2 + i, true, values, alpha, beta, leaves);
            bestValue = tb_min(bestValue, val);
            beta = tb_min(beta, bestValue);
            if (beta <= alpha)
                break;
        }
        return bestValue;
    }
}

#endif
