/**
 * Text -> comparable word stems. Both the transcript and the tracker phrases go
 * through the same function, so "guaranteed", "guarantees" and "Guarantee!" all meet.
 */
export function normalizeText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`]/g, "'")
    .replace(/'/g, "")
    .replace(/%/g, " percent ")
    .replace(/\$/g, " dollar ")
    .replace(/[^a-z0-9 ]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** A light suffix stemmer: enough to meet plural, past, gerund and adverb forms, never clever. */
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
  else if (w.length > 4 && w.endsWith("ly")) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("es") && !w.endsWith("ses")) w = w.slice(0, -1);
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1);
  if (w.length > 3 && w.endsWith("e")) w = w.slice(0, -1);
  // "stopped" -> "stopp" -> "stop": doubled final consonants of past/gerund forms.
  if (w.length > 3 && /([bdgklmnprt])\1$/.test(w)) w = w.slice(0, -1);
  return w;
}

export function stems(text: string): string[] {
  const n = normalizeText(text);
  return n ? n.split(" ").map(stem) : [];
}
