// Entry points the llama.node binding declares but whose sources its npm package
// does not ship (LlamaContext_parallel.cpp, RerankWorker.cpp). callreview uses
// neither parallel decoding nor reranking: they answer with an error.
#include "LlamaContext.h"
#include "RerankWorker.h"

static Napi::Value unsupported(const Napi::CallbackInfo &info, const char *what) {
  Napi::Error::New(info.Env(), std::string(what) + " is not available in this build").ThrowAsJavaScriptException();
  return info.Env().Undefined();
}

Napi::Value LlamaContext::EnableParallelMode(const Napi::CallbackInfo &info) { return unsupported(info, "enableParallelMode"); }
void LlamaContext::DisableParallelMode(const Napi::CallbackInfo &info) { unsupported(info, "disableParallelMode"); }
Napi::Value LlamaContext::QueueCompletion(const Napi::CallbackInfo &info) { return unsupported(info, "queueCompletion"); }
Napi::Value LlamaContext::QueueEmbedding(const Napi::CallbackInfo &info) { return unsupported(info, "queueEmbedding"); }
Napi::Value LlamaContext::QueueRerank(const Napi::CallbackInfo &info) { return unsupported(info, "queueRerank"); }
void LlamaContext::CancelRequest(const Napi::CallbackInfo &info) { unsupported(info, "cancelRequest"); }
Napi::Value LlamaContext::GetParallelStatus(const Napi::CallbackInfo &info) { return unsupported(info, "getParallelStatus"); }
Napi::Value LlamaContext::SubscribeParallelStatus(const Napi::CallbackInfo &info) { return unsupported(info, "subscribeParallelStatus"); }
void LlamaContext::UnsubscribeParallelStatus(const Napi::CallbackInfo &info) { unsupported(info, "unsubscribeParallelStatus"); }

RerankWorker::RerankWorker(const Napi::CallbackInfo &info, rnllama::llama_rn_context *rn_ctx, std::string query, std::vector<std::string> documents, common_params &params)
    : AsyncWorker(info.Env()), Deferred(info.Env()), _rn_ctx(rn_ctx), _query(std::move(query)), _documents(std::move(documents)), _params(params) {}
void RerankWorker::Execute() { SetError("rerank is not available in this build"); }
void RerankWorker::OnOK() { Resolve(Napi::Array::New(Napi::AsyncWorker::Env())); }
void RerankWorker::OnError(const Napi::Error &err) { Reject(err.Value()); }
