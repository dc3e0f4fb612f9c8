import { Ollama } from "ollama";
import type { Report } from "../../report/schema.js";
import { reportJsonSchema } from "../../report/validate.js";
import { StageError, type AnalyzeInput, type Analyzer } from "../ports.js";
import { chunkLines } from "./llm/chunk.js";
import { finalizeLlmReport, mergeDrafts, parseDraft, type Draft } from "./llm/merge.js";
import { llmGroundwork } from "./llm/groundwork.js";
import { evidenceText, formatSegment, SYSTEM_PROMPT, userPrompt } from "./llm/prompt.js";

export const LLM_SEED = 42;

export interface OllamaOptions {
  url: string;
  model: string;
  contextSize: number;
  timeoutSeconds: number;
}

/** Ollama has no tokenizer endpoint; three characters per token over-counts English, which is the safe side. */
const estimateTokens = (text: string) => Math.ceil(text.length / 3);

function describe(e: unknown, opts: OllamaOptions, timedOut: boolean): StageError {
  if (timedOut) return new StageError("analysis_failed", `ollama did not answer within ${opts.timeoutSeconds} s (model ${opts.model} at ${opts.url})`, true);
  const err = e as { name?: string; status_code?: number; message?: string; cause?: { code?: string; message?: string } };
  if (err?.name === "ResponseError") {
    if (err.status_code === 404)
      return new StageError("analysis_failed", `ollama model "${opts.model}" is not available on ${opts.url} (pull it with: ollama pull ${opts.model})`, true);
    return new StageError("analysis_failed", `ollama at ${opts.url} answered ${err.status_code}: ${err.message}`, true);
  }
  const code = err?.cause?.code ?? "";
  if (code || /fetch failed|ECONNREFUSED|ENOTFOUND|socket/i.test(err?.message ?? "")) {
    return new StageError("analysis_failed", `ollama server at ${opts.url} is unreachable (${code || err?.cause?.message || err?.message})`, true);
  }
  if (e instanceof StageError) return e;
  return new StageError("analysis_failed", `ollama analysis failed: ${err?.message ?? String(e)}`, true);
}

/** A fetch that gives up after the time budget, so a stuck server cannot hold a worker. */
function fetchWithin(signal: AbortSignal): typeof fetch {
  return (input, init) => fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal });
}

/**
 * Analysis by an Ollama server: the Report JSON Schema as `format`, temperature
 * 0, a fixed seed and an explicit num_ctx (Ollama silently drops what exceeds
 * it, so long transcripts are sent in parts that fit).
 */
export class OllamaAnalyzer implements Analyzer {
  readonly name = "ollama";
  constructor(private readonly opts: OllamaOptions) {}

  async analyze(input: AnalyzeInput): Promise<Report> {
    const { ev, rules, ctx, done } = llmGroundwork(input);
    if (done) return done;

    const budget = AbortSignal.timeout(this.opts.timeoutSeconds * 1000);
    const signal = input.signal ? AbortSignal.any([input.signal, budget]) : budget;
    const client = new Ollama({ host: this.opts.url, fetch: fetchWithin(signal) });
    const evidence = evidenceText(ev);
    const format = reportJsonSchema();
    const fixed = estimateTokens(SYSTEM_PROMPT + userPrompt(evidence, [], { index: 0, count: 2 }) + JSON.stringify(format));
    // Half the window for the answer; the transcript gets what the prompt leaves of the other half.
    const chunks = chunkLines(ev.segments.map(formatSegment), Math.floor(this.opts.contextSize / 2) - fixed, estimateTokens);
    const drafts: Draft[] = [];
    try {
      for (let i = 0; i < chunks.length; i++) {
        const res = await client.chat({
          model: this.opts.model,
          stream: false,
          format,
          messages: [
            { role: "system", content: SYSTEM_PROMPT },
            { role: "user", content: userPrompt(evidence, chunks[i], { index: i, count: chunks.length }) },
          ],
          options: { num_ctx: this.opts.contextSize, temperature: 0, seed: LLM_SEED },
        });
        drafts.push(parseDraft(res.message.content, "ollama"));
      }
    } catch (e) {
      throw describe(e, this.opts, budget.aborted);
    }
    return finalizeLlmReport(mergeDrafts(drafts), rules, ctx);
  }
}

/** For `doctor` and the auto choice: is the server up and does it have the model? */
export async function checkOllama(url: string, model: string, timeoutMs = 2000): Promise<{ ok: boolean; detail: string }> {
  const client = new Ollama({ host: url, fetch: fetchWithin(AbortSignal.timeout(timeoutMs)) });
  try {
    await client.show({ model });
    return { ok: true, detail: `model ${model} available at ${url}` };
  } catch (e) {
    return { ok: false, detail: describe(e, { url, model, contextSize: 0, timeoutSeconds: timeoutMs / 1000 }, false).message };
  }
}
