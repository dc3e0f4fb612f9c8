import { html } from "hono/html";
import { page, type Html } from "../layout.js";

export function loginPage(opts: { csrf: string; next: string; email?: string; error?: string }): Html {
  return page(
    { title: "Sign in" },
    html`<div class="login">
  <h1>Sign in to callreview</h1>
  ${opts.error ? html`<p class="error" role="alert">${opts.error}</p>` : ""}
  <form method="post" action="/app/login">
    <input type="hidden" name="_csrf" value="${opts.csrf}">
    <input type="hidden" name="next" value="${opts.next}">
    <div class="field"><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${opts.email ?? ""}" autofocus></div>
    <div class="field"><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required></div>
    <button type="submit" class="primary">Sign in</button>
  </form>
</div>`,
  );
}
