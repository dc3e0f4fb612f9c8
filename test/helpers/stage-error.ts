import { StageError } from "../../src/pipeline/ports.js";

/** The failure_reason a pipeline step fails with ("no error" when it succeeds); other errors are rethrown. */
export async function stageReason(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof StageError) return e.reason;
    throw e;
  }
  return "no error";
}
