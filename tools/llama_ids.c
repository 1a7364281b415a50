/* The ids llama.cpp gives texts, for tools/gen_gguf_expected.py: `llama_ids VOCAB.gguf`
 * loads the vocabulary only and reads records from stdin, each a decimal byte length, a
 * newline and that many bytes of text; for each it prints one line, the ids of
 * `llama_tokenize(add_special = false, parse_special = true)` each after a space (the form of
 * llama.cpp's `.out` files). */
#include <stdio.h>
#include <stdlib.h>

#include "llama.h"

static void quiet(enum ggml_log_level level, const char * text, void * data) {
    (void) level;
    (void) text;
    (void) data;
}

int main(int argc, char ** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s VOCAB.gguf < RECORDS\n", argv[0]);
        return 2;
    }
    llama_log_set(quiet, NULL);
    llama_backend_init();
    struct llama_model_params params = llama_model_default_params();
    params.vocab_only = true;
    struct llama_model * model = llama_model_load_from_file(argv[1], params);
    if (model == NULL) {
        fprintf(stderr, "%s: cannot load the vocabulary\n", argv[1]);
        return 1;
    }
    const struct llama_vocab * vocab = llama_model_get_vocab(model);
    long length;
    while (scanf("%ld", &length) == 1) {
        if (length < 0 || getchar() != '\n') {
            fprintf(stderr, "bad record header\n");
            return 1;
        }
        char * text = malloc(length + 1);
        if (text == NULL || fread(text, 1, length, stdin) != (size_t) length) {
            fprintf(stderr, "short record\n");
            return 1;
        }
        int32_t room = (int32_t) length * 2 + 16;
        llama_token * ids = malloc(sizeof(llama_token) * room);
        int32_t n = llama_tokenize(vocab, text, (int32_t) length, ids, room, false, true);
        if (n < 0) {
            fprintf(stderr, "llama_tokenize failed (%d)\n", n);
            return 1;
        }
        for (int32_t i = 0; i < n; i++) {
            printf(" %d", ids[i]);
        }
        printf("\n");
        free(ids);
        free(text);
    }
    llama_model_free(model);
    llama_backend_free();
    return 0;
}
