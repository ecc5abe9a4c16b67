/*
 * tree_solver: reads a game tree in libminimax's notation from a file or stdin, and shows
 * the answer to the exercise "what moves should both players choose?".
 *
 *   tree_solver [--max | --min] [--dot FILE] [TREE_FILE]
 *
 * Prints the value ("value: N"), the optimal line move by move, the leaves evaluated by
 * minimax and by alpha-beta, and the subtrees alpha-beta pruned. --dot FILE writes a
 * Graphviz picture of the alpha-beta search. Bad input: the parser's message, exit 1.
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
    if ((s = mm_tree_solve(tree, max_first, MM_ALGORITHM_ALPHABETA, &ab, line, height + 1)) != MM_OK)
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
               name_of(tree, line[i], b, sizeof b), info.position + 1);
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

    if (dot_path) {
        size_t needed;
        mm_tree_dot(tree, max_first, MM_ALGORITHM_ALPHABETA, NULL, 0, &needed);
        char *picture = malloc(needed);
        if ((s = mm_tree_dot(tree, max_first, MM_ALGORITHM_ALPHABETA, picture, needed, &needed)) != MM_OK)
            fail("mm_tree_dot", s);
        FILE *out = fopen(dot_path, "w");
        if (!out || fputs(picture, out) < 0 || fclose(out) != 0) {
            fprintf(stderr, "error: cannot write %s\n", dot_path);
            return 1;
        }
        free(picture);
    }
    free(pruned);
    free(line);
    mm_tree_free(tree);
    return 0;
}
