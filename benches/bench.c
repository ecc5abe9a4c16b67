/*
 * The speed benchmark (make bench): on the same arrays, in one run, it times the textbook
 * C code beside the library through its C ABI and prints medians and the ratios that
 * issue 4's targets name. The last line is a machine-readable summary.
 *
 *   bench            2^16, 2^20 and 2^24 leaves, random, best- and worst-ordered
 *   bench --big      also one 2^28-leaf tree (1 GiB), checked against the textbook code
 */
#define _POSIX_C_SOURCE 199309L
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "minimax.h"
#include "textbook.h"

static uint64_t rng_state = 0x2545F4914F6CDD1DULL;
static uint64_t rng_next(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static volatile long sink;

/* Reorders subtrees so that each node's best child comes first: alpha-beta's best case. */
static int reorder(int *v, long n, bool is_max) {
    if (n == 1)
        return v[0];
    long half = n / 2;
    int a = reorder(v, half, !is_max);
    int b = reorder(v + half, half, !is_max);
    bool b_better = is_max ? b > a : b < a;
    if (b_better) {
        for (long i = 0; i < half; i++) {
            int t = v[i];
            v[i] = v[half + i];
            v[half + i] = t;
        }
    }
    return is_max ? tb_max(a, b) : tb_min(a, b);
}

/*
 * Places the sorted values so that alpha-beta prunes nothing: under a MAX node the later
 * child's leaves all lie above the earlier child's, under a MIN node below, so no bound
 * from the left ever cuts. The values must be distinct: equal values cut on beta <= alpha.
 */
static void place_worst(int *out, const int *sorted, long n, bool is_max) {
    if (n == 1) {
        out[0] = sorted[0];
        return;
    }
    long half = n / 2;
    place_worst(out, sorted + (is_max ? 0 : half), half, !is_max);
    place_worst(out + half, sorted + (is_max ? half : 0), half, !is_max);
}

enum { M_TB_MINIMAX, M_TB_ALPHABETA, M_SUM, M_MINIMAX, M_ALPHABETA, M_CHECKED, M_COUNT };
static const char *names[M_COUNT] = {"textbook minimax (C -O2)", "textbook alpha-beta (C -O2)",
                                     "sequential pass (sum)", "library minimax()",
                                     "library alphabeta()", "checked API default"};

/* Runs method m once on v and returns the value it computes (the sum for M_SUM). */
static long run_once(int m, const int *v, long n, int h) {
    switch (m) {
    case M_TB_MINIMAX: return tb_minimax(0, 0, true, v, h);
    case M_TB_ALPHABETA: return tb_alphabeta(h, 0, 0, true, v, INT_MIN, INT_MAX, NULL);
    case M_SUM: {
        long s = 0;
        for (long i = 0; i < n; i++)
            s += v[i];
        return s;
    }
    case M_MINIMAX: return minimax(0, 0, true, v, h);
    case M_ALPHABETA: return alphabeta(h, 0, 0, true, v, INT_MIN, INT_MAX);
    default: {
        mm_solution s;
        if (mm_solve_leaves(v, (size_t)n, 2, true, MM_ALGORITHM_DEFAULT, &s) != MM_OK) {
            fprintf(stderr, "mm_solve_leaves failed\n");
            exit(1);
        }
        return s.value;
    }
    }
}

/* Median seconds of method m over enough repetitions (at least 5, about 0.3 s in all). */
static double time_method(int m, const int *v, long n, int h) {
    double samples[201];
    int reps = 0;
    double start = now();
    while (reps < 5 || (reps < 201 && now() - start < 0.3)) {
        double t0 = now();
        sink = run_once(m, v, n, h);
        samples[reps++] = now() - t0;
    }
    qsort(samples, reps, sizeof samples[0], cmp_double);
    return samples[reps / 2];
}

static const char *order_names[3] = {"random", "best", "worst"};

int main(int argc, char **argv) {
    bool big = argc > 1 && strcmp(argv[1], "--big") == 0;
    int heights[3] = {16, 20, 24};
    double t24[3][M_COUNT];
    printf("libminimax %s benchmark: median seconds; leaves uniform in [-1000, 1000] from a fixed seed\n"
           "(random; best = the same reordered best child first; worst = distinct values placed so that\n"
           "alpha-beta prunes nothing)\n\n",
           mm_version());
    printf("%-7s %-6s", "leaves", "order");
    for (int m = 0; m < M_COUNT; m++)
        printf(" %12.12s", names[m]);
    printf("\n");
    for (int hi = 0; hi < 3; hi++) {
        int h = heights[hi];
        long n = 1L << h;
        int *v = malloc(n * sizeof *v);
        for (int o = 0; o < 3; o++) {
            rng_state = 0x2545F4914F6CDD1DULL + h;
            for (long i = 0; i < n; i++)
                v[i] = (int)(rng_next() % 2001) - 1000;
            if (o == 1)
                reorder(v, n, true);
            if (o == 2) {
                /* 2^24 leaves from 2001 values tie too often for a tree that prunes
                   nothing, so the worst case uses the distinct values -n/2 .. n/2 - 1. */
                int *sorted = malloc(n * sizeof *sorted);
                for (long i = 0; i < n; i++)
                    sorted[i] = (int)(i - n / 2);
                place_worst(v, sorted, n, true);
                free(sorted);
            }
            long expected = tb_minimax(0, 0, true, v, h);
            printf("2^%-5d %-6s", h, order_names[o]);
            for (int m = 0; m < M_COUNT; m++) {
                if (m != M_SUM && run_once(m, v, n, h) != expected) {
                    fprintf(stderr, "\n%s disagrees with the textbook value %ld\n", names[m], expected);
                    return 1;
                }
                double t = time_method(m, v, n, h);
                if (h == 24)
                    t24[o][m] = t;
                printf(" %12.6f", t);
            }
            printf("\n");
            if (h == 24) {
                long tb_leaves = 0;
                tb_alphabeta(h, 0, 0, true, v, INT_MIN, INT_MAX, &tb_leaves);
                mm_solution s;
                mm_solve_leaves(v, (size_t)n, 2, true, MM_ALGORITHM_DEFAULT, &s);
                long floor_ = (1L << 12) + (1L << 12) - 1;
                printf("        leaves read: textbook alpha-beta %ld, library default %llu "
                       "(value and line), Knuth-Moore floor %ld\n",
                       tb_leaves, (unsigned long long)s.stats.leaves, floor_);
            }
        }
        free(v);
    }

    double r_mm_tbm = t24[0][M_TB_MINIMAX] / t24[0][M_MINIMAX];
    double r_mm_tba = t24[0][M_TB_ALPHABETA] / t24[0][M_MINIMAX];
    double r_mm_worst = t24[2][M_MINIMAX] / t24[2][M_SUM];
    double r_ab = 0;
    for (int o = 0; o < 3; o++) {
        double r = t24[o][M_ALPHABETA] / t24[o][M_TB_ALPHABETA];
        r_ab = r > r_ab ? r : r_ab;
    }
    double r_ck_tbm = t24[0][M_TB_MINIMAX] / t24[0][M_CHECKED];
    double r_ck_tba = t24[0][M_TB_ALPHABETA] / t24[0][M_CHECKED];
    double r_ck_worst = t24[2][M_CHECKED] / t24[2][M_SUM];
    printf("\nratios at 2^24 leaves                                         measured  target\n");
    printf("minimax() speed-up over textbook minimax (random)              %8.1fx  >= 40x\n", r_mm_tbm);
    printf("minimax() speed-up over textbook alpha-beta (random)           %8.1fx  >= 3x\n", r_mm_tba);
    printf("minimax() time / sequential pass (worst-ordered)               %8.2f   <= 2\n", r_mm_worst);
    printf("alphabeta() time / textbook alpha-beta (worst of 3 orders)     %8.2f   <= 1.0\n", r_ab);
    printf("checked default speed-up over textbook minimax (random)        %8.1fx  >= 40x\n", r_ck_tbm);
    printf("checked default speed-up over textbook alpha-beta (random)     %8.1fx  >= 3x\n", r_ck_tba);
    printf("checked default time / sequential pass (worst-ordered)         %8.2f   <= 2\n", r_ck_worst);

    if (big) {
        long n = 1L << 28;
        struct rusage before, after;
        int *v = malloc(n * sizeof *v);
        for (long i = 0; i < n; i++)
            v[i] = (int)(rng_next() % 2001) - 1000;
        getrusage(RUSAGE_SELF, &before);
        double t0 = now();
        int ours = minimax(0, 0, true, v, 28);
        double t1 = now();
        int theirs = tb_minimax(0, 0, true, v, 28);
        double t2 = now();
        getrusage(RUSAGE_SELF, &after);
        printf("\n2^28 leaves (1 GiB): minimax() %d in %.4f s, textbook %d in %.3f s; max RSS %ld MiB\n", ours,
               t1 - t0, theirs, t2 - t1, after.ru_maxrss / 1024);
        if (ours != theirs)
            return 1;
        free(v);
    }
    bool ok = r_mm_tbm >= 40 && r_mm_tba >= 3 && r_mm_worst <= 2 && r_ab <= 1.0 && r_ck_tbm >= 40 &&
              r_ck_tba >= 3 && r_ck_worst <= 2;
    printf("\nSUMMARY minimax_vs_tb_minimax=%.1f minimax_vs_tb_alphabeta=%.2f minimax_worst_vs_pass=%.2f "
           "alphabeta_vs_tb_alphabeta=%.2f checked_vs_tb_minimax=%.1f checked_vs_tb_alphabeta=%.2f "
           "checked_worst_vs_pass=%.2f targets=%s\n",
           r_mm_tbm, r_mm_tba, r_mm_worst, r_ab, r_ck_tbm, r_ck_tba, r_ck_worst, ok ? "met" : "missed");
    return 0;
}
