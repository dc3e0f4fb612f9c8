import winkNLP from "wink-nlp";
import model from "wink-eng-lite-web-model";

/**
 * Word -> lemma through wink-nlp's English model ("were" -> "be", "looking" ->
 * "look", "claims" -> "claim"). Running the full wink pipeline over every
 * transcript costs about 100 ms per hour of speech here, too slow for the
 * rules analyzer, so the model is asked once per distinct word and the answer
 * memoised: the vocabulary of sales calls is small and repeats from call to call.
 */
// Built on the first word (~0.3 s): commands that load the analyzer without analysing skip it.
let nlp: ReturnType<typeof winkNLP> | undefined;
const memo = new Map<string, string>();
const MEMO_LIMIT = 200_000;

export function lemmaOf(word: string): string {
  let l = memo.get(word);
  if (l === undefined) {
    nlp ??= winkNLP(model, ["sbd", "pos"]);
    const out = nlp
      .readDoc(word)
      .tokens()
      .out(nlp.its.lemma as never) as unknown as string[];
    l = out.length === 1 && out[0] ? String(out[0]).toLowerCase() : word;
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(word, l);
  }
  return l;
}
