import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import type { SessionUser } from "../store/sessions.js";

export type Html = HtmlEscapedString | Promise<HtmlEscapedString> | string;

/** The page frame: skip link, navigation, sign-out form. No request leaves the server: assets are ours. */
export function page(opts: { title: string; user?: SessionUser; csrf?: string; current?: "calls" | "dashboard" }, body: Html): Html {
  const nav = opts.user
    ? html`<header class="top">
        <span class="brand">callreview</span>
        <nav aria-label="Main">
          <a href="/app/calls" ${opts.current === "calls" ? html`aria-current="page"` : ""}>Calls</a>
          <a href="/app/dashboard" ${opts.current === "dashboard" ? html`aria-current="page"` : ""}>Dashboard</a>
        </nav>
        <div class="who">
          <span>${opts.user.email} (${opts.user.role})</span>
          <form method="post" action="/app/logout"><input type="hidden" name="_csrf" value="${opts.csrf}"><button type="submit">Sign out</button></form>
        </div>
      </header>`
    : "";
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.title} · callreview</title>
<link rel="stylesheet" href="/app/assets/console.css">
<script src="/app/assets/console.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
${nav}
<main id="main">
${body}
</main>
</body>
</html>`;
}

/** Seconds as m:ss (h:mm:ss past an hour). */
export function clock(t: number): string {
  const s = Math.max(0, Math.floor(t));
  const h = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}
