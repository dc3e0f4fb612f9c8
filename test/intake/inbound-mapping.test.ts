import { describe, expect, it } from "vitest";
import { INBOUND_KEYS, mapInboundPayload, pickKey } from "../../src/intake/inbound-mapping.js";

const fieldsOf = (p: Record<string, unknown>) => {
  const m = mapInboundPayload(p);
  if (!m.ok) throw new Error(JSON.stringify(m.errors));
  return m.fields;
};

describe("inbound webhook key mapping (spec 4.8)", () => {
  it("the table is exactly the spec's", () => {
    expect(INBOUND_KEYS).toEqual({
      external_call_id: ["external_call_id", "call_id", "id"],
      rep_name: ["rep_name", "agent_name", "user_name"],
      rep_email: ["rep_email", "agent_email"],
      customer_name: ["customer_name", "contact_name"],
      customer_phone: ["customer_phone", "phone", "from"],
      customer_email: ["customer_email", "email"],
      recording_url: ["recording_url", "recording", "audio_url"],
      duration_seconds: ["duration_seconds", "duration"],
      call_started_at: ["call_started_at", "started_at"],
      crm_contact_id: ["crm_contact_id", "contact_id"],
      crm_deal_id: ["crm_deal_id", "deal_id"],
    });
  });

  // For each attribute and each key: that key alone is used, and it beats every lower-priority key.
  const sample: Record<string, unknown[]> = {
    external_call_id: ["A", "B", "C"],
    rep_name: ["Ann", "Agent", "User"],
    rep_email: ["a@x.io", "b@x.io"],
    customer_name: ["Cust", "Contact"],
    customer_phone: ["+1 555", "+2 555", "+3 555"],
    customer_email: ["c@x.io", "d@x.io"],
    recording_url: ["https://a.example/1.mp3", "https://b.example/2.mp3", "http://c.example/3.wav"],
    duration_seconds: [10, 20],
    call_started_at: ["2024-01-01T00:00:00.000Z", "2024-02-02T00:00:00.000Z"],
    crm_contact_id: ["ct1", "ct2"],
    crm_deal_id: ["dl1", "dl2"],
  };
  for (const [attr, keys] of Object.entries(INBOUND_KEYS)) {
    keys.forEach((key, i) => {
      it(`${attr}: \`${key}\` is used alone and wins over later keys`, () => {
        const values = sample[attr];
        expect(fieldsOf({ [key]: values[i] })[attr as keyof typeof INBOUND_KEYS]).toEqual(values[i]);
        const all: Record<string, unknown> = {};
        // Insert lower-priority keys first so object key order cannot be what decides.
        for (let j = keys.length - 1; j >= i; j--) all[keys[j]] = values[j];
        expect(fieldsOf(all)[attr as keyof typeof INBOUND_KEYS]).toEqual(values[i]);
      });
    });
  }

  it("null and empty string count as absent", () => {
    expect(fieldsOf({ external_call_id: null, call_id: "", id: "Z" }).external_call_id).toBe("Z");
    expect(pickKey({ a: null, b: "" }, ["a", "b"])).toBeUndefined();
    expect(pickKey({ a: 0 }, ["a"])).toBe("a");
  });

  it("numeric ids, phones and names become strings", () => {
    expect(fieldsOf({ id: 12345, phone: 15551234, contact_id: 7, deal_id: 8.5 })).toMatchObject({
      external_call_id: "12345",
      customer_phone: "15551234",
      crm_contact_id: "7",
      crm_deal_id: "8.5",
    });
  });

  it("duration: numbers and numeric strings, rounded to seconds", () => {
    expect(fieldsOf({ duration: 12.6 }).duration_seconds).toBe(13);
    expect(fieldsOf({ duration: "42" }).duration_seconds).toBe(42);
    expect(fieldsOf({ duration: 0 }).duration_seconds).toBe(0);
  });

  it("started at: ISO 8601 with offset normalised to UTC, or Unix seconds", () => {
    expect(fieldsOf({ started_at: "2024-05-01T16:30:00+02:00" }).call_started_at).toBe("2024-05-01T14:30:00.000Z");
    expect(fieldsOf({ started_at: 1714573800 }).call_started_at).toBe("2024-05-01T14:30:00.000Z");
  });

  it("source_system and metadata are taken; unmapped keys are not fields", () => {
    const f = fieldsOf({ id: "1", source_system: "aircall", metadata: { high_value_opportunity: true }, direction: "inbound", nested: { a: 1 } });
    expect(f).toEqual({ external_call_id: "1", source_system: "aircall", metadata: { high_value_opportunity: true } });
  });

  it("wrong kinds are errors keyed by the payload key actually used, all at once", () => {
    const m = mapInboundPayload({
      call_id: { nested: true },
      agent_email: "nope",
      email: 5,
      audio_url: "ftp://x/y",
      duration: -4,
      started_at: "last tuesday",
      agent_name: true,
      source_system: 3,
      metadata: { high_value_opportunity: "yes" },
    });
    expect(m.ok).toBe(false);
    if (m.ok) return;
    expect(Object.keys(m.errors).sort()).toEqual(
      ["agent_email", "agent_name", "audio_url", "call_id", "duration", "email", "metadata.high_value_opportunity", "source_system", "started_at"].sort(),
    );
  });

  it("a bad lower-priority key is ignored when a higher one is present", () => {
    expect(fieldsOf({ rep_email: "ok@x.io", agent_email: "bad" }).rep_email).toBe("ok@x.io");
  });

  it("metadata that is not an object is an error", () => {
    const m = mapInboundPayload({ metadata: [1, 2] });
    expect(m.ok).toBe(false);
  });
});
