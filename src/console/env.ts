import type { AppEnv } from "../http/env.js";
import type { SessionUser } from "../store/sessions.js";

/** The console's context: the app's variables plus the signed-in user (set by requireUser). */
export interface ConsoleEnv {
  Variables: AppEnv["Variables"] & { user: SessionUser; sessionToken: string };
}
