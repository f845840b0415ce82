/* The C interface of embdemo's SentencePiece module (embdemo_sentencepiece.so), which embdemo
 * opens only when a run trains Unigram or BPE: linked into embdemo, libsentencepiece and the
 * libstdc++ it needs would load at every start and double the demo's start-up
 * (docs/performance.md, "Start-up"). Only C types cross it, so the module's C++ runtime and
 * embdemo's own never meet. */
#ifndef EMBDEMO_SENTENCEPIECE_MODULE_H
#define EMBDEMO_SENTENCEPIECE_MODULE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct EmbdemoSentencePieceResult {
    char* error;            /* SentencePiece's message when training or encoding failed, else NULL */
    uint64_t vocab_size;    /* the pieces the model has */
    uint64_t unknown_id;    /* <unk>'s id */
    size_t count;           /* pieces, and ids */
    char* pieces;           /* the pieces one after another, piece_lengths[i] bytes each */
    size_t* piece_lengths;
    uint64_t* ids;
} EmbdemoSentencePieceResult;

/* Trains a unigram (bpe = 0) or BPE (bpe = 1) model of vocab_size pieces on the text's lines
 * (one thread, the given seed and line cap, SentencePiece's log at errors only), then encodes
 * every line. Returns 0 when it worked; `out` is filled either way, and freed by the release. */
typedef int (*EmbdemoSentencePieceTrain)(int bpe, uint64_t vocab_size, const char* text, size_t length,
                                         uint64_t max_sentence_length, unsigned seed,
                                         EmbdemoSentencePieceResult* out);
typedef void (*EmbdemoSentencePieceRelease)(EmbdemoSentencePieceResult* out);

#define EMBDEMO_SENTENCEPIECE_MODULE "embdemo_sentencepiece.so"
#define EMBDEMO_SENTENCEPIECE_TRAIN "embdemo_sentencepiece_train"
#define EMBDEMO_SENTENCEPIECE_RELEASE "embdemo_sentencepiece_release"

#ifdef __cplusplus
}
#endif

#endif
