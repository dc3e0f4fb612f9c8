import fs from "node:fs";
import path from "node:path";
import type { AnalyzerKind, Config } from "../../config.js";
import { llamaThreads } from "../../engines/thread-plan.js";
import { scanModels } from "../../models/find.js";
import type { Analyzer } from "../ports.js";
import { LlamaAnalyzer } from "./llama.js";
import { checkOllama, OllamaAnalyzer } from "./ollama.js";
import { RulesAnalyzer } from "./rules/analyzer.js";

export type ActiveAnalyzer = "rules" | "llama" | "ollama";

/** Which analyzer runs and why; /healthz and `doctor` show it. */
export interface AnalyzerChoice {
  configured: AnalyzerKind;
  active: ActiveAnalyzer;
  /** GGUF path (llama) or model name (ollama); null for rules. */
  model: string | null;
  reason: string;
}

/** config.llmModel as a path: absolute or relative to cwd when it exists, else a name in the models dir. */
export function llmModelPath(config: Pick<Config, "llmModel" | "modelsDir">): string | undefined {
  if (!config.llmModel) return undefined;
  if (path.isAbsolute(config.llmModel) || fs.existsSync(config.llmModel)) return path.resolve(config.llmModel);
  return path.join(config.modelsDir, config.llmModel);
}

/**
 * auto = llama when a GGUF is configured and present (unset: the first GGUF the
 * models dir holds, in manifest preference order), else ollama when a model
 * is configured and the server has it, else rules. An explicit choice is
 * honoured even when its engine is missing: the analysis then fails with a
 * message naming the cause, rather than quietly producing a different report.
 */
export async function chooseAnalyzer(
  config: Pick<Config, "analyzer" | "llmModel" | "modelsDir" | "ollamaUrl" | "ollamaModel">,
  probe: (url: string, model: string) => Promise<{ ok: boolean; detail: string }> = (u, m) => checkOllama(u, m, 1500),
): Promise<AnalyzerChoice> {
  const gguf = llmModelPath(config) ?? (config.analyzer === "auto" ? scanModels(config.modelsDir).gguf[0] : undefined);
  switch (config.analyzer) {
    case "rules":
      return { configured: "rules", active: "rules", model: null, reason: "configured" };
    case "llama":
      return {
        configured: "llama",
        active: "llama",
        model: gguf ?? null,
        reason: !gguf ? "configured, but no --llm-model set" : !fs.existsSync(gguf) ? `configured, but ${gguf} is missing` : "configured",
      };
    case "ollama":
      return {
        configured: "ollama",
        active: "ollama",
        model: config.ollamaModel ?? null,
        reason: config.ollamaModel ? "configured" : "configured, but no --ollama-model set",
      };
    case "auto": {
      const present = gguf !== undefined && fs.existsSync(gguf);
      if (present) return { configured: "auto", active: "llama", model: gguf, reason: "GGUF model present" };
      if (config.ollamaModel) {
        const r = await probe(config.ollamaUrl, config.ollamaModel);
        if (r.ok) return { configured: "auto", active: "ollama", model: config.ollamaModel, reason: r.detail };
        return { configured: "auto", active: "rules", model: null, reason: `ollama not usable: ${r.detail}` };
      }
      return { configured: "auto", active: "rules", model: null, reason: gguf ? `GGUF ${gguf} missing; no ollama model set` : "no LLM configured" };
    }
  }
}

const instances = new WeakMap<object, Analyzer>();

/**
 * The analyzer for a real transcript in every pipeline mode: the configured LLM
 * when there is one, else rules; never the placeholder. Built once per services
 * object (the llama engine loads its model once).
 */
export function analyzerFor(services: { config: Config; analyzer?: AnalyzerChoice }, choice?: AnalyzerChoice): Analyzer {
  const c = choice ?? services.analyzer ?? { configured: "rules", active: "rules", model: null, reason: "no choice made" };
  const cached = choice ? undefined : instances.get(services);
  if (cached) return cached;
  const cfg = services.config;
  let a: Analyzer;
  if (c.active === "llama") {
    a = new LlamaAnalyzer({
      modelPath: c.model ?? "(no --llm-model set)",
      contextSize: cfg.llmContextSize,
      timeoutSeconds: cfg.analysisTimeoutSeconds,
      threads: llamaThreads(cfg.workers, cfg.llmThreads),
      engineBuild: cfg.engineBuild,
    });
  } else if (c.active === "ollama")
    a = new OllamaAnalyzer({
      url: cfg.ollamaUrl,
      model: c.model ?? "(no --ollama-model set)",
      contextSize: cfg.llmContextSize,
      timeoutSeconds: cfg.analysisTimeoutSeconds,
    });
  else a = new RulesAnalyzer();
  if (!choice) instances.set(services, a);
  return a;
}
