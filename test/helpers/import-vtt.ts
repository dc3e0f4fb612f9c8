import { expect } from "vitest";
import { VTT } from "./fixtures.js";

/**
 * Creates a call through the API and imports the sample VTT into it. The placeholder worker may
 * hold the new call for a moment (409 conflict while it works); the import is retried until 202.
 */
export async function createCallWithVtt(url: string, auth: Record<string, string>, externalCallId: string): Promise<number> {
  const created = await fetch(`${url}/api/v1/calls`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ external_call_id: externalCallId }),
  });
  expect(created.status).toBe(201);
  const callId = (await created.json()).call_id as number;
  let status = 0;
  for (let i = 0; i < 100 && status !== 202; i++) {
    const imported = await fetch(`${url}/api/v1/calls/${callId}/transcript?rep_speaker=Tony`, {
      method: "POST",
      headers: { ...auth, "content-type": "text/vtt" },
      body: VTT,
    });
    status = imported.status;
    if (status === 409) expect((await imported.json()).error).toBe("conflict");
    else expect(status).toBe(202);
    if (status !== 202) await new Promise((res) => setTimeout(res, 50));
  }
  return callId;
}

/** The compliance alerts the rules analyzer raises on the sample VTT call (sorted). */
export const VTT_CALL_ALERTS = ["pressure_tactics", "prohibited_guarantee", "prohibited_risk_free", "recording_disclosure_missing"];
