import { html } from "hono/html";
import type { Html } from "./layout.js";

export interface Bar {
  label: string;
  value: number | null;
  /** Shown next to the bar; defaults to the value. */
  text?: string;
}

/**
 * A labelled horizontal bar chart as inline SVG: no script, no external
 * resource, readable by screen readers (role="img", a title, and the figures
 * also in the text of each bar).
 */
export function barChart(opts: { title: string; bars: Bar[]; max: number; width?: number; color?: string }): Html {
  const width = opts.width ?? 420;
  const labelW = 130;
  const valueW = 56;
  const rowH = 22;
  const plot = width - labelW - valueW;
  const height = Math.max(rowH, opts.bars.length * rowH) + 4;
  const max = opts.max > 0 ? opts.max : 1;
  return html`<figure>
<svg role="img" aria-label="${opts.title}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" xmlns="http://www.w3.org/2000/svg">
<title>${opts.title}</title>
${opts.bars.map((b, i) => {
  const y = i * rowH + 2;
  const w = b.value === null ? 0 : Math.max(1, Math.round((Math.min(b.value, max) / max) * plot));
  return html`<text x="${labelW - 6}" y="${y + 15}" text-anchor="end" font-size="12" fill="#1b1f24">${b.label.length > 20 ? b.label.slice(0, 19) + "…" : b.label}</text>
<rect x="${labelW}" y="${y + 3}" width="${plot}" height="${rowH - 8}" fill="#eaeef2"></rect>
<rect x="${labelW}" y="${y + 3}" width="${w}" height="${rowH - 8}" fill="${opts.color ?? "#0b5cad"}"></rect>
<text x="${labelW + plot + 6}" y="${y + 15}" font-size="12" fill="#1b1f24">${b.text ?? (b.value === null ? "–" : String(b.value))}</text>`;
})}
</svg>
<figcaption>${opts.title}</figcaption>
</figure>`;
}

/** A column chart over time (weeks), as inline SVG. */
export function columnChart(opts: { title: string; bars: Bar[]; max: number; color?: string }): Html {
  const colW = 34;
  const plotH = 120;
  const width = Math.max(200, opts.bars.length * colW + 10);
  const height = plotH + 40;
  const max = opts.max > 0 ? opts.max : 1;
  return html`<figure>
<svg role="img" aria-label="${opts.title}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" xmlns="http://www.w3.org/2000/svg">
<title>${opts.title}</title>
<line x1="0" y1="${plotH + 14}" x2="${width}" y2="${plotH + 14}" stroke="#8c959f"></line>
${opts.bars.map((b, i) => {
  const h = b.value === null ? 0 : Math.round((Math.min(b.value, max) / max) * plotH);
  const x = 6 + i * colW;
  return html`<rect x="${x}" y="${plotH + 14 - h}" width="${colW - 8}" height="${h}" fill="${opts.color ?? "#0b5cad"}"><title>${b.label}: ${b.text ?? String(b.value ?? "–")}</title></rect>
<text x="${x + (colW - 8) / 2}" y="${plotH + 10 - h}" font-size="10" text-anchor="middle" fill="#1b1f24">${b.text ?? (b.value === null ? "–" : String(b.value))}</text>
<text x="${x + (colW - 8) / 2}" y="${plotH + 28}" font-size="10" text-anchor="middle" fill="#59636e">${b.label}</text>`;
})}
</svg>
<figcaption>${opts.title}</figcaption>
</figure>`;
}
