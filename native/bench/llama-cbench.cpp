// Bench-only: prompt processing and generation speed of llama.cpp's C API,
// compiled from the same sources and flags as the SIMD addon (native/build-llama.mjs
// --bench). Measures as llama.cpp's batched bench does (and as the addon's bench()):
// one batch of pp tokens decoded at once, then tg tokens decoded one at a time.
// Usage: llama-cbench <model.gguf> <pp> <tg> <reps> <threads>; prints one JSON line.
#include "llama.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

static double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main(int argc, char ** argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: %s model.gguf pp tg reps threads\n", argv[0]);
        return 2;
    }
    const char * path = argv[1];
    const int pp = atoi(argv[2]), tg = atoi(argv[3]), reps = atoi(argv[4]), threads = atoi(argv[5]);
    llama_log_set([](ggml_log_level level, const char * text, void *) { if (level == GGML_LOG_LEVEL_ERROR) fputs(text, stderr); }, nullptr);
    llama_backend_init();
    auto mp = llama_model_default_params();
    mp.n_gpu_layers = 0;
    llama_model * model = llama_model_load_from_file(path, mp);
    if (!model) { fprintf(stderr, "cannot load %s\n", path); return 1; }
    auto cp = llama_context_default_params();
    // The addon's defaults: n_batch 2048, n_ubatch 512.
    cp.n_ctx = pp + tg + 16;
    cp.n_batch = 2048;
    cp.n_ubatch = 512;
    cp.n_seq_max = 1;
    cp.n_threads = threads;
    cp.n_threads_batch = threads;
    llama_context * ctx = llama_init_from_model(model, cp);
    if (!ctx) { fprintf(stderr, "cannot create a context\n"); return 1; }
    const int n_vocab = llama_vocab_n_tokens(llama_model_get_vocab(model));
    std::vector<double> pps, tgs;
    llama_batch batch = llama_batch_init(std::max(pp, 1), 0, 1);
    for (int r = 0; r <= reps; r++) {  // r == 0 warms up
        llama_memory_clear(llama_get_memory(ctx), true);
        batch.n_tokens = pp;
        for (int i = 0; i < pp; i++) {
            batch.token[i] = (i * 7 + 3) % n_vocab;
            batch.pos[i] = i;
            batch.n_seq_id[i] = 1;
            batch.seq_id[i][0] = 0;
            batch.logits[i] = i == pp - 1;
        }
        double t0 = now_s();
        if (llama_decode(ctx, batch) != 0) { fprintf(stderr, "decode failed\n"); return 1; }
        llama_synchronize(ctx);
        double t1 = now_s();
        for (int i = 0; i < tg; i++) {
            batch.n_tokens = 1;
            batch.token[0] = (i * 13 + 5) % n_vocab;
            batch.pos[0] = pp + i;
            batch.n_seq_id[0] = 1;
            batch.seq_id[0][0] = 0;
            batch.logits[0] = 1;
            if (llama_decode(ctx, batch) != 0) { fprintf(stderr, "decode failed\n"); return 1; }
            llama_synchronize(ctx);
        }
        double t2 = now_s();
        if (r > 0) {
            pps.push_back(pp / (t1 - t0));
            tgs.push_back(tg / (t2 - t1));
        }
    }
    printf("{\"pp\":%d,\"tg\":%d,\"reps\":%d,\"threads\":%d,\"pp_tps\":%.2f,\"tg_tps\":%.2f,\"system_info\":\"%s\"}\n", pp, tg, reps, threads, median(pps), median(tgs), llama_print_system_info());
    llama_batch_free(batch);
    llama_free(ctx);
    llama_model_free(model);
    return 0;
}
