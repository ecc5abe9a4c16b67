/*
 * ONNX models from C (issue 70; a library built with the onnx feature): the model at
 * argv[1], tic-tac-toe's exact values as a network (written by the Rust test that runs
 * this), loaded with mm_onnx_load and handed to mm_batched_search by
 * mm_onnx_evaluator: no game plays a losing move where another holds (by the negamax
 * of ttt.h), and the games are left as they were. The same model from a buffer; a file
 * that is not there, bytes that are not a model, an encoding of other sizes, NULLs and
 * a short message buffer get their statuses and messages. Prints one summary line
 * ending in "failures N".
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "minimax.h"

#include "check.h"

#include "ttt.h"

#define GAMES 24

/* The file's bytes, or NULL. */
static unsigned char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *bytes = malloc((size_t)n);
    if (bytes && fread(bytes, 1, (size_t)n, f) != (size_t)n) {
        free(bytes);
        bytes = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return bytes;
}

/* Searches every game with `model`; counts the games that play a losing move where
   another holds, or are not left as they were (-1 for a status other than MM_OK). */
static int losing(mm_onnx *model, ttt *boards, mm_game *games) {
    mm_encoding enc;
    mm_evaluator ev;
    mm_batched_options o;
    if (!ttt_encoding(&enc) || mm_evaluator_init(&ev) != MM_OK ||
        mm_onnx_evaluator(model, &enc, &ev) != MM_OK || mm_batched_options_init(&o) != MM_OK)
        return -1;
    o.simulations = 32;
    o.leaves_per_tree = 4;
    o.batch_size = 64;
    mm_batched *m = NULL;
    if (mm_batched_new(&m) != MM_OK) return -1;
    mm_batched_result r[GAMES];
    mm_status s = mm_batched_search(m, games, GAMES, &enc, &ev, &o, r, NULL);
    mm_batched_free(m);
    if (s != MM_OK) return -1;
    int bad = 0;
    for (int i = 0; i < GAMES; i++) {
        int best = -2;
        for (int mv = 0; mv < 9; mv++)
            if (boards[i].cells[mv] == 0 && value_of(&boards[i], mv) > best)
                best = value_of(&boards[i], mv);
        if (boards[i].played != 0 || !r[i].has_move ||
            (best >= 0 && value_of(&boards[i], (int)r[i].best_move) < 0))
            bad++;
    }
    return bad;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: onnx MODEL.onnx\n");
        return 2;
    }
    static ttt boards[GAMES];
    mm_game games[GAMES];
    CHECK(ttt_setup(boards, games, GAMES));

    char why[200];
    mm_onnx *model = NULL;
    CHECK(mm_onnx_load(argv[1], &model, why, sizeof why) == MM_OK && model != NULL);
    size_t obs = 0, actions = 0;
    CHECK(mm_onnx_sizes(model, &obs, &actions) == MM_OK && obs == 18 && actions == 9);
    CHECK(losing(model, boards, games) == 0);

    /* From a buffer. */
    size_t len = 0;
    unsigned char *bytes = read_file(argv[1], &len);
    CHECK(bytes != NULL);
    mm_onnx *again = NULL;
    CHECK(mm_onnx_load_buffer(bytes, len, &again, NULL, 0) == MM_OK);
    CHECK(losing(again, boards, games) == 0);
    mm_onnx_free(again);

    /* What goes wrong: a status, a message naming it, *out untouched. */
    mm_onnx *none = NULL;
    CHECK(mm_onnx_load("/nonexistent/net.onnx", &none, why, sizeof why) == MM_ERR_ONNX_IO);
    CHECK(none == NULL && strstr(why, "/nonexistent/net.onnx") != NULL);
    CHECK(mm_onnx_load_buffer(bytes, len / 2, &none, why, sizeof why) ==
          MM_ERR_ONNX_NOT_A_MODEL);
    CHECK(none == NULL && strlen(why) > 0);
    char short_why[8];
    memset(short_why, 'x', sizeof short_why);
    CHECK(mm_onnx_load("/nonexistent/net.onnx", &none, short_why, sizeof short_why) ==
          MM_ERR_ONNX_IO);
    CHECK(short_why[7] == '\0' && strlen(short_why) == 7);
    CHECK(mm_onnx_load(NULL, &none, NULL, 0) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_onnx_load(argv[1], NULL, NULL, 0) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_onnx_load_buffer(NULL, 4, &none, NULL, 0) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_onnx_sizes(NULL, &obs, &actions) == MM_ERR_NULL_ARGUMENT);
    free(bytes);

    /* An encoding of other sizes: the evaluator is left as it was. */
    mm_encoding enc;
    mm_evaluator ev;
    CHECK(ttt_encoding(&enc) && mm_evaluator_init(&ev) == MM_OK);
    enc.observation_size = 17;
    CHECK(mm_onnx_evaluator(model, &enc, &ev) == MM_ERR_ONNX_WRONG_GAME);
    CHECK(ev.evaluate == NULL && ev.context == NULL);
    CHECK(mm_onnx_evaluator(NULL, &enc, &ev) == MM_ERR_NULL_ARGUMENT);
    CHECK(mm_onnx_evaluator(model, &enc, NULL) == MM_ERR_NULL_ARGUMENT);
    CHECK(strstr(mm_error_message(MM_ERR_ONNX_BAD_OUTPUT), "logits") != NULL);

    mm_onnx_free(model);
    mm_onnx_free(NULL);
    printf("onnx: %d games with the model from a file and from a buffer, checks %d, failures %d\n",
           GAMES, checks, failures);
    return failures == 0 ? 0 : 1;
}
