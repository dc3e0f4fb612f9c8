import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runOnce } from "../../src/pipeline/worker.js";
import { chromiumPath } from "../helpers/chromium.js";
import { consoleHarness, FLAGGED_VTT, PASSWORD } from "./harness.js";

const CHROMIUM = chromiumPath();

describe.skipIf(!CHROMIUM)("calls page in Chromium: processing calls update without a reload", () => {
  let h: Awaited<ReturnType<typeof consoleHarness>>;
  beforeAll(async () => {
    h = await consoleHarness();
  });
  afterAll(() => h.dispose());

  it("a queued call's row turns complete, with its score and alerts, once the pipeline has run", async () => {
    const created = await fetch(`${h.base}/v1/calls`, {
      method: "POST",
      headers: { authorization: `Bearer ${h.key}`, "content-type": "application/json" },
      body: JSON.stringify({ external_call_id: "live-1", rep_name: "Tony" }),
    });
    expect(created.status).toBe(201);
    const id = (await created.json()).call_id as number;
    const browser = await chromium.launch({ executablePath: CHROMIUM! });
    try {
      const page = await browser.newPage();
      await page.goto(`${h.base}/app/login`);
      await page.getByLabel("Email").fill("rita@acme.test");
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(/\/app\/calls$/);
      const status = page.locator(`tr[data-id="${id}"] [data-col=status]`);
      expect(await status.textContent()).toBe("queued");
      let navigations = 0;
      page.on("framenavigated", () => navigations++);
      // A transcript arrives and the pipeline runs in this process (the harness starts no worker).
      const imp = await fetch(`${h.base}/v1/calls/${id}/transcript?rep_speaker=Tony`, {
        method: "POST",
        headers: { authorization: `Bearer ${h.key}`, "content-type": "text/vtt" },
        body: FLAGGED_VTT,
      });
      expect(imp.status).toBe(202);
      while (await runOnce(h.s)) {
        /* drain */
      }
      await expect.poll(() => status.textContent(), { timeout: 15_000 }).toBe("complete");
      expect(await page.locator(`tr[data-id="${id}"] [data-col=score]`).textContent()).toMatch(/^\d+$/);
      expect(await page.locator(`tr[data-id="${id}"] [data-col=alerts]`).textContent()).toMatch(/^\d+ alerts?$/);
      expect(navigations).toBe(0);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
