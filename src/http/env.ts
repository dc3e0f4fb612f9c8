import type { ApiKeyView } from "../auth/api-keys.js";
import type { Services } from "../services.js";

/** Variables every handler can read from the context. */
export interface AppEnv {
  Variables: {
    services: Services;
    requestId: string;
    /** Set by the auth middleware on authenticated routes. */
    apiKey: ApiKeyView & { id: number };
  };
}
