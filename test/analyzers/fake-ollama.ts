import http from "node:http";
import type { AddressInfo } from "node:net";

export type FakeMode = "ok" | "invalid" | "slow" | "missing-model";

/**
 * A FAKE Ollama server (the real one cannot run here): /api/chat and /api/show
 * as the `ollama` client calls them. Records every request body.
 */
export async function startFakeOllama(opts: { model: string; mode: FakeMode; answer: (body: any) => unknown; delayMs?: number }) {
  const requests: any[] = [];
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      const body = raw ? JSON.parse(raw) : {};
      requests.push({ path: req.url, body });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(payload));
      };
      if (req.url === "/api/show") {
        return body.model === opts.model && opts.mode !== "missing-model"
          ? send(200, { modelfile: "", parameters: "", template: "", details: {} })
          : send(404, { error: `model '${body.model}' not found` });
      }
      if (req.url === "/api/chat") {
        if (body.model !== opts.model || opts.mode === "missing-model") return send(404, { error: `model "${body.model}" not found, try pulling it first` });
        const reply = () =>
          send(200, {
            model: body.model,
            created_at: "2026-01-01T00:00:00Z",
            message: { role: "assistant", content: opts.mode === "invalid" ? "Sure! Here is the report: {score: high" : JSON.stringify(opts.answer(body)) },
            done: true,
            done_reason: "stop",
          });
        if (opts.mode === "slow") {
          const timer = setTimeout(reply, opts.delayMs ?? 5000);
          res.on("close", () => clearTimeout(timer));
          return;
        }
        return reply();
      }
      send(404, { error: "not found" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
