import path from "node:path";
import { OpenAPIHono } from "@hono/zod-openapi";
import { loadedEngines } from "../engines/status.js";
import { selectTranscriptionModels } from "../models/find.js";
import { requestId } from "hono/request-id";
import type { Services } from "../services.js";
import { VERSION } from "../version.js";
import { notFoundHandler, onErrorHandler } from "./errors.js";
import type { AppEnv } from "./env.js";
import { renderDocsPage } from "./docs-page.js";
import { registerInbound } from "./inbound/generic.js";
import { buildOpenApiDocument, registerSecuritySchemes } from "./openapi.js";
import { requestFraming } from "./request-framing.js";
import { registerV1Routes } from "./routes/index.js";
import { validationHook } from "./validation.js";
import { createConsoleApp } from "../console/app.js";

/**
 * The HTTP application. The v1 routes are registered once on `v1` and mounted
 * at both /v1 and /api/v1 (spec 9), so the two bases can never drift apart.
 */
export function createApp(services: Services): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();
  app.use("*", requestId({ headerName: "X-Request-Id" }));
  app.use("*", requestFraming);
  app.use("*", async (c, next) => {
    c.set("services", services);
    await next();
  });

  // File names only (no paths): /healthz answers without a key.
  const models = selectTranscriptionModels(services.config);
  const transcription = {
    whisper_model: services.pipeline === "live" && models.whisper ? path.basename(models.whisper) : null,
    vad_model: services.pipeline === "live" && models.vad ? path.basename(models.vad) : null,
  };
  app.get("/healthz", (c) =>
    c.json({
      status: "ok",
      version: VERSION,
      pipeline: services.pipeline,
      analyzer: services.analyzer.active,
      transcription,
      engines: loadedEngines(services.analyzer.active === "llama" ? services.config.engineBuild : null),
    }),
  );

  // The inbound webhook is unversioned (spec 4.8); its own app keeps it out of the v1 registry.
  const inbound = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  registerInbound(inbound);

  const v1 = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  registerSecuritySchemes(v1);
  registerV1Routes(v1);
  // Built on first request, after every route module has registered.
  let doc: ReturnType<typeof buildOpenApiDocument> | undefined;
  let docsHtml: string | undefined;
  const openApi = () => (doc ??= buildOpenApiDocument(v1, inbound));
  v1.get("/openapi.json", (c) => c.json(openApi()));
  app.route("/v1", v1);
  app.route("/api/v1", v1);
  app.route("/", inbound);
  app.get("/docs", (c) => c.html((docsHtml ??= renderDocsPage(openApi() as unknown as Record<string, unknown>))));

  app.route("/app", createConsoleApp() as unknown as OpenAPIHono<AppEnv>);

  app.notFound(notFoundHandler);
  app.onError(onErrorHandler);
  return app;
}
