import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApiKey } from "../../src/auth/api-keys.js";
import { transitionCall } from "../../src/calls/state.js";
import { createApp } from "../../src/http/app.js";
import { acceptCall } from "../../src/intake/accept-call.js";
import { createCompany } from "../../src/store/companies.js";
import { latestTranscriptRow, toTranscript } from "../../src/store/transcripts.js";
import { testServices } from "../helpers/services.js";

const VTT = `WEBVTT

NOTE exported by the dialer

1
00:00:00.500 --> 00:00:04.000
<v Anna>Hi Ben, this call is being recorded. How are things?

2
00:00:04.400 --> 00:00:07.250
<v Ben>Fine thanks. Honestly your quote was more than we budgeted.

00:07.500 --> 00:10.000
<v.loud Anna>I understand. What budget did you have in mind?
`;

const SRT = `1
00:00:00,500 --> 00:00:04,000
Anna: Hi Ben, this call is being recorded.

2
00:00:04,400 --> 00:00:07,250
[Ben] It's more than we budgeted.
`;

const JSON_BODY = {
  segments: [
    { speaker: "Anna", t_start: 0.5, t_end: 4, text: "Hi Ben, this call is being recorded." },
    { speaker: "Ben", t_start: 4.4, t_end: 7.25, text: "It's more than we budgeted." },
  ],
};

describe("POST /v1/calls/{id}/transcript", () => {
  let s: Awaited<ReturnType<typeof testServices>>;
  let key: string;
  let otherKey: string;
  let callId: number;
  let otherCallId: number;
  let app: ReturnType<typeof createApp>;

  beforeEach(async () => {
    s = await testServices();
    const a = await createCompany(s.store.db, { name: "A" });
    const b = await createCompany(s.store.db, { name: "B" });
    key = (await createApiKey(s.store.db, { companyId: a.id })).key;
    otherKey = (await createApiKey(s.store.db, { companyId: b.id })).key;
    callId = (await acceptCall(s.store.db, { companyId: a.id, fields: { external_call_id: "a-1" }, intake: "api" })).call.id;
    otherCallId = (await acceptCall(s.store.db, { companyId: b.id, fields: { external_call_id: "b-1" }, intake: "api" })).call.id;
    app = createApp(s);
  });
  afterEach(() => s.dispose());

  const post = (path: string, body: string, contentType: string, k = key) =>
    app.request(path, { method: "POST", body, headers: { "content-type": contentType, authorization: `Bearer ${k}` } });
  const jobs = (id: number) => s.store.db.selectFrom("jobs").selectAll().where("call_id", "=", id).execute();

  it("imports WebVTT with voice tags and rep_speaker, stores it as imported, keeps one job", async () => {
    const res = await post(`/v1/calls/${callId}/transcript?rep_speaker=Anna`, VTT, "text/vtt");
    expect(res.status).toBe(202);
    const body = await res.json();
    expect(body.transcript).toMatchObject({ source: "imported", segments: 3, speakers: ["customer", "rep"] });
    expect(body.call).toMatchObject({ call_id: callId, processing_status: "queued", report_status: "pending" });
    const row = (await latestTranscriptRow(s.store.db, callId))!;
    expect(row.source).toBe("imported");
    const t = toTranscript(row);
    expect(t.segments).toEqual([
      { t_start: 0.5, t_end: 4, speaker: "rep", text: "Hi Ben, this call is being recorded. How are things?" },
      { t_start: 4.4, t_end: 7.25, speaker: "customer", text: "Fine thanks. Honestly your quote was more than we budgeted." },
      { t_start: 7.5, t_end: 10, speaker: "rep", text: "I understand. What budget did you have in mind?" },
    ]);
    expect(await jobs(callId)).toHaveLength(1);
  });

  it("imports SRT (Name: and [Name] speakers) under /api/v1 and JSON in the envelope", async () => {
    const srt = await post(`/api/v1/calls/${callId}/transcript?rep_speaker=anna`, SRT, "application/x-subrip");
    expect(srt.status).toBe(202);
    expect(toTranscript((await latestTranscriptRow(s.store.db, callId))!).segments.map((x) => [x.speaker, x.text])).toEqual([
      ["rep", "Hi Ben, this call is being recorded."],
      ["customer", "It's more than we budgeted."],
    ]);
    const env = await post(`/v1/calls/${callId}/transcript`, JSON.stringify({ format: "json", content: JSON_BODY, rep_speaker: "Ben" }), "application/json");
    expect(env.status).toBe(202);
    expect(toTranscript((await latestTranscriptRow(s.store.db, callId))!).segments.map((x) => x.speaker)).toEqual(["customer", "rep"]);
    const bare = await post(`/v1/calls/${callId}/transcript`, JSON.stringify(JSON_BODY), "application/json");
    expect(bare.status).toBe(202);
    expect(toTranscript((await latestTranscriptRow(s.store.db, callId))!).segments.map((x) => x.speaker)).toEqual(["unknown", "unknown"]);
  });

  it("re-queues a complete call with reason 'transcript imported'", async () => {
    await s.store.db.transaction().execute(async (trx) => {
      await transitionCall(trx, callId, "analyzing");
      await transitionCall(trx, callId, "complete", { overallScore: 70, outcome: "closed_won" });
    });
    await s.store.db.updateTable("jobs").set({ status: "completed" }).where("call_id", "=", callId).execute();
    const res = await post(`/v1/calls/${callId}/transcript`, JSON.stringify(JSON_BODY), "application/json");
    expect(res.status).toBe(202);
    expect((await res.json()).call).toMatchObject({ processing_status: "queued", report_status: "pending", report_url: null });
    const history = await s.store.db.selectFrom("call_history").selectAll().where("call_id", "=", callId).orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(history).toMatchObject({ from_status: "complete", to_status: "queued", reason: "transcript imported" });
    expect((await jobs(callId)).filter((j) => j.status === "queued")).toHaveLength(1);
  });

  const bad: Array<[string, string, string, RegExp]> = [
    ["VTT without header", VTT.replace("WEBVTT", "WEBVT"), "text/vtt", /line 1: a WebVTT file must start with "WEBVTT"/],
    ["VTT bad timestamp", VTT.replace("00:00:04.400", "00:00:4.4"), "text/vtt", /cue 2 \(line 10\): bad timestamp "00:00:4.4"/],
    [
      "VTT end before start",
      VTT.replace("00:00:04.400 --> 00:00:07.250", "00:00:07.250 --> 00:00:04.400"),
      "text/vtt",
      /cue 2 \(line 10\): ends \(4\.4s\) before it starts \(7\.25s\)/,
    ],
    [
      "VTT empty text",
      VTT.replace("<v Ben>Fine thanks. Honestly your quote was more than we budgeted.", "<v Ben>  "),
      "text/vtt",
      /cue 2 \(line 10\): empty text/,
    ],
    [
      "VTT out of order",
      VTT.replace("00:07.500 --> 00:10.000", "00:03.000 --> 00:10.000"),
      "text/vtt",
      /cue 3 \(line 13\): starts \(3s\) before the previous cue/,
    ],
    ["VTT unknown rep_speaker", VTT, "text/vtt?rep=Zed", /rep_speaker "Zed" does not appear/],
    [
      "SRT bad timing line",
      SRT.replace("00:00:04,400 --> 00:00:07,250", "00:00:04.400 -> 00:00:07.250"),
      "application/x-subrip",
      /cue 2 \(line 5\): expected a timing line/,
    ],
    ["SRT comma-less timestamp", SRT.replace("00:00:04,400", "00:00:04.400"), "application/x-subrip", /cue 2 \(line 5\): bad timestamp "00:00:04\.400"/],
    [
      "JSON end before start",
      JSON.stringify({ segments: [{ ...JSON_BODY.segments[0], t_end: 0.1 }] }),
      "application/json",
      /segments\.0: ends \(0\.1s\) before it starts \(0\.5s\)/,
    ],
    ["JSON missing text", JSON.stringify({ segments: [{ speaker: "A", t_start: 0, t_end: 1 }] }), "application/json", /segments\.0\.text/],
    ["JSON no segments", JSON.stringify({ segments: [] }), "application/json", /no cues found/],
    ["envelope unknown format", JSON.stringify({ format: "docx", content: "x" }), "application/json", /format/],
    ["unknown content type", "hello", "text/plain", /content-type/],
  ];
  for (const [name, body, type, message] of bad) {
    it(`answers 422 validation_failed for ${name}`, async () => {
      const [ct, q] = type.split("?");
      const path = `/v1/calls/${callId}/transcript${q ? `?rep_speaker=${q.split("=")[1]}` : ""}`;
      const res = await post(path, body, ct);
      expect(res.status).toBe(422);
      const err = await res.json();
      expect(err.error).toBe("validation_failed");
      expect(
        Object.entries(err.errors as Record<string, string[]>)
          .map(([k, v]) => `${k}: ${v.join(" | ")}`)
          .join("\n"),
      ).toMatch(message);
      expect(await latestTranscriptRow(s.store.db, callId)).toBeUndefined();
    });
  }

  it("answers 422 empty_payload for an empty body and 400 invalid_json for broken JSON", async () => {
    const empty = await post(`/v1/calls/${callId}/transcript`, "", "text/vtt");
    expect(empty.status).toBe(422);
    expect((await empty.json()).error).toBe("empty_payload");
    const broken = await post(`/v1/calls/${callId}/transcript`, "{", "application/json");
    expect(broken.status).toBe(400);
    expect((await broken.json()).error).toBe("invalid_json");
  });

  it("answers 404 for another company's call (and stores nothing), 401 without a key, 403 without calls:write", async () => {
    const res = await post(`/v1/calls/${otherCallId}/transcript`, VTT, "text/vtt");
    expect(res.status).toBe(404);
    expect((await res.json()).error).toBe("not_found");
    expect(await latestTranscriptRow(s.store.db, otherCallId)).toBeUndefined();
    expect((await post(`/v1/calls/999/transcript`, VTT, "text/vtt", otherKey)).status).toBe(404);
    const anon = await app.request(`/v1/calls/${callId}/transcript`, { method: "POST", body: VTT, headers: { "content-type": "text/vtt" } });
    expect(anon.status).toBe(401);
    const readOnly = (await createApiKey(s.store.db, { companyId: 1, scopes: ["calls:read"] })).key;
    const forbidden = await post(`/v1/calls/${callId}/transcript`, VTT, "text/vtt", readOnly);
    expect(forbidden.status).toBe(403);
    expect((await forbidden.json()).error).toBe("forbidden");
  });

  it("reads the {id} like every other call route: a zero-padded id names no call (404), with X-Api-Key as well as Bearer", async () => {
    const padded = await post(`/v1/calls/00${callId}/transcript`, VTT, "text/vtt");
    expect(padded.status).toBe(404);
    expect((await padded.json()).error).toBe("not_found");
    expect((await app.request(`/v1/calls/00${callId}`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(404);
    expect(await latestTranscriptRow(s.store.db, callId)).toBeUndefined();
    const viaHeader = await app.request(`/v1/calls/${callId}/transcript`, {
      method: "POST",
      body: VTT,
      headers: { "content-type": "text/vtt", "x-api-key": key },
    });
    expect(viaHeader.status).toBe(202);
  });

  it("is documented on the shared route pattern: Calls tag, both security schemes, the shared errors", async () => {
    const doc = await (await app.request("/v1/openapi.json")).json();
    const op = doc.paths["/calls/{id}/transcript"].post;
    expect(op.tags).toEqual(["Calls"]);
    expect(op.security).toEqual([{ bearerAuth: [] }, { apiKeyHeader: [] }]);
    expect(Object.keys(op.responses).sort()).toEqual(["202", "400", "401", "403", "404", "409", "413", "422", "429", "500"]);
    expect(op.parameters.find((p: { in: string }) => p.in === "path")).toMatchObject({ name: "id", schema: { pattern: "^[1-9][0-9]{0,15}$" } });
    const declared = doc.tags.map((t: { name: string }) => t.name);
    const used = new Set(
      Object.values(doc.paths as Record<string, Record<string, { tags?: string[] }>>).flatMap((item) => Object.values(item).flatMap((o) => o.tags ?? [])),
    );
    for (const tag of used) expect(declared).toContain(tag);
  });

  it("answers 413 payload_too_large for a JSON body over 1 MiB", async () => {
    const big = JSON.stringify({ segments: Array.from({ length: 12000 }, (_, i) => ({ speaker: "A", t_start: i, t_end: i + 1, text: "x".repeat(90) })) });
    const res = await post(`/v1/calls/${callId}/transcript`, big, "application/json");
    expect(res.status).toBe(413);
    expect((await res.json()).error).toBe("payload_too_large");
  });

  it("is in the OpenAPI document", () => {
    const doc = createApp(s).getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "1" } });
    const op = (doc.paths as Record<string, any>)["/v1/calls/{id}/transcript"]?.post;
    expect(op).toBeDefined();
    expect(Object.keys(op.requestBody.content)).toEqual(["text/vtt", "application/x-subrip", "application/json"]);
  });
});
