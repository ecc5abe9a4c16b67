/*
 * tree_solver: reads a game tree in libminimax's notation from a file or stdin, and shows
 * the answer to the exercise "what moves should both players choose?".
 *
 *   tree_solver [--max | --min] [--dot FILE] [TREE_FILE]
 *
 * Prints the value ("value: N"), the optimal line move by move, the leaves evaluated by
 * minimax and by alpha-beta, and the subtrees alpha-beta pruned. --dot FILE writes a
 * Graphviz picture of the alpha-beta search. Bad input: the parser's message, exit 1.
 *
 * A tree with chance nodes (`?(1: A, 2: B)`) gets its expected value instead ("expected
 * value: X"), the line up to the first chance node, the nodes expectimax, Star1 and Star2
 * visit, and the picture of the Star2 search (chance nodes as circles, pruned nodes grey).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "minimax.h"

static void fail(const char *what, mm_status status) {
    fprintf(stderr, "error: %s: %s\n", what, mm_error_message(status));
    exit(1);
}

static void write_file(const char *path, const char *text) {
    FILE *out = fopen(path, "w");
    if (!out || fputs(text, out) < 0 || fclose(out) != 0) {
        fprintf(stderr, "error: cannot write %s\n", path);
        exit(1);
    }
}

/* The picture of a search by `algorithm`, written to `path`. */
static void write_dot(const mm_tree *tree, bool max_first, mm_algorithm algorithm, const char *path) {
    size_t needed;
    mm_tree_dot(tree, max_first, algorithm, NULL, 0, &needed);
    char *picture = malloc(needed);
    mm_status s = mm_tree_dot(tree, max_first, algorithm, picture, needed, &needed);
    if (s != MM_OK)
        fail("mm_tree_dot", s);
    write_file(path, picture);
    free(picture);
}

/* Reads the whole stream into a malloc'd buffer. */
static char *read_all(FILE *f, size_t *len) {
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *bigger = realloc(buf, cap *= 2);
            if (!bigger)
                free(buf);
            buf = bigger;
        }
    }
    if (!buf || ferror(f)) {
        fprintf(stderr, "error: cannot read the tree\n");
        exit(1);
    }
    *len = n;
    return buf;
}

static const char *name_of(const mm_tree *tree, size_t node, char *scratch, size_t cap);

/* A tree with chance nodes: its expected value by the three chance algorithms. */
static int solve_chance(const mm_tree *tree, bool max_first, size_t height, const char *dot_path) {
    const mm_algorithm algorithms[3] = {MM_ALGORITHM_EXPECTIMAX, MM_ALGORITHM_STAR1, MM_ALGORITHM_STAR2};
    mm_chance_solution s[3];
    size_t *line = malloc((height + 1) * sizeof *line);
    for (int i = 0; i < 3; i++) {
        mm_status st = mm_tree_expectimax(tree, max_first, algorithms[i], &s[i], line, height + 1);
        if (st != MM_OK)
            fail("mm_tree_expectimax", st);
    }
    printf("expected value: %g\n", s[0].value);
    printf("optimal line (%s moves first), up to the first chance node:\n", max_first ? "MAX" : "MIN");
    char a[32], b[32];
    size_t at = 0;
    bool max_turn = max_first;
    for (size_t i = 0; i < s[2].line_len; i++) {
        printf("  %s at %s chooses %s\n", max_turn ? "MAX" : "MIN", name_of(tree, at, a, sizeof a),
               name_of(tree, line[i], b, sizeof b));
        at = line[i];
        max_turn = !max_turn;
    }
    printf("  then chance decides at %s\n", name_of(tree, at, a, sizeof a));
    printf("nodes visited: expectimax %llu, star1 %llu, star2 %llu (star2 pruned %zu)\n",
           (unsigned long long)s[0].stats.nodes, (unsigned long long)s[1].stats.nodes,
           (unsigned long long)s[2].stats.nodes, s[2].pruned);
    if (dot_path)
        write_dot(tree, max_first, MM_ALGORITHM_STAR2, dot_path);
    free(line);
    return 0;
}

/* A node's name: its label, or "#index". */
static const char *name_of(const mm_tree *tree, size_t node, char *scratch, size_t cap) {
    mm_node_info info;
    mm_status s = mm_tree_node(tree, node, &info);
    if (s != MM_OK)
        fail("mm_tree_node", s);
    if (info.label)
        return info.label;
    snprintf(scratch, cap, "#%zu", node);
    return scratch;
}

int main(int argc, char **argv) {
    bool max_first = true;
    const char *dot_path = NULL, *tree_path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--max") == 0) {
            max_first = true;
        } else if (strcmp(argv[i], "--min") == 0) {
            max_first = false;
        } else if (strcmp(argv[i], "--dot") == 0 && i + 1 < argc) {
            dot_path = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "usage: tree_solver [--max | --min] [--dot FILE] [TREE_FILE]\n");
            return 2;
        } else {
            tree_path = argv[i];
        }
    }
    FILE *in = tree_path ? fopen(tree_path, "r") : stdin;
    if (!in) {
        fprintf(stderr, "error: cannot open %s\n", tree_path);
        return 1;
    }
    size_t len;
    char *text = read_all(in, &len);
    if (in != stdin)
        fclose(in);

    mm_tree *tree = NULL;
    mm_parse_error perr;
    mm_status s = mm_tree_parse(text, len, &tree, &perr);
    free(text);
    if (s != MM_OK) {
        fprintf(stderr, "error: %s\n", perr.message);
        return 1;
    }

    size_t nodes, height;
    if ((s = mm_tree_size(tree, &nodes, &height)) != MM_OK)
        fail("mm_tree_size", s);
    size_t *line = malloc((height + 1) * sizeof *line);
    mm_tree_solution ab, mm;
    s = mm_tree_solve(tree, max_first, MM_ALGORITHM_ALPHABETA, &ab, line, height + 1);
    if (s == MM_ERR_GAME_CHANCE_NODE) {
        free(line);
        int status = solve_chance(tree, max_first, height, dot_path);
        mm_tree_free(tree);
        return status;
    }
    if (s != MM_OK)
        fail("mm_tree_solve", s);
    if ((s = mm_tree_solve(tree, max_first, MM_ALGORITHM_MINIMAX, &mm, NULL, 0)) != MM_OK)
        fail("mm_tree_solve", s);

    printf("value: %d\n", ab.value);
    printf("optimal line (%s moves first):\n", max_first ? "MAX" : "MIN");
    char a[32], b[32];
    size_t at = 0;
    bool max_turn = max_first;
    for (size_t i = 0; i < ab.line_len; i++) {
        mm_node_info info;
        mm_tree_node(tree, line[i], &info);
        printf("  %s at %s chooses %s (child %zu)\n", max_turn ? "MAX" : "MIN", name_of(tree, at, a, sizeof a),
               name_of(tree, line[i], b, sizeof b), info.position);
        at = line[i];
        max_turn = !max_turn;
    }
    printf("  reaching leaf %s = %d\n", name_of(tree, ab.best_leaf, a, sizeof a), ab.value);
    printf("leaves evaluated: minimax %llu, alpha-beta %llu\n", (unsigned long long)mm.stats.leaves,
           (unsigned long long)ab.stats.leaves);

    size_t pruned_count;
    mm_tree_pruned(tree, max_first, NULL, 0, &pruned_count);
    size_t *pruned = malloc((pruned_count + 1) * sizeof *pruned);
    if ((s = mm_tree_pruned(tree, max_first, pruned, pruned_count + 1, &pruned_count)) != MM_OK)
        fail("mm_tree_pruned", s);
    printf("pruned by alpha-beta:");
    for (size_t i = 0; i < pruned_count; i++)
        printf(" %s", name_of(tree, pruned[i], a, sizeof a));
    printf(pruned_count ? "\n" : " nothing\n");

    if (dot_path)
        write_dot(tree, max_first, MM_ALGORITHM_ALPHABETA, dot_path);
    free(pruned);
    free(line);
    mm_tree_free(tree);
    return 0;
}
