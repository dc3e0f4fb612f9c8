/**
 * Splits transcript lines into chunks whose token count stays within a budget.
 * Nothing is dropped: a single line longer than the budget is split on words.
 */
export function chunkLines(lines: string[], budget: number, countTokens: (text: string) => number): string[][] {
  if (budget < 8) throw new Error(`context too small for any transcript text (budget ${budget} tokens)`);
  const chunks: string[][] = [];
  let current: string[] = [];
  let used = 0;
  const push = (line: string, tokens: number) => {
    if (used + tokens > budget && current.length) {
      chunks.push(current);
      current = [];
      used = 0;
    }
    current.push(line);
    used += tokens;
  };
  for (const line of lines) {
    const tokens = countTokens(line) + 1;
    if (tokens <= budget) {
      push(line, tokens);
      continue;
    }
    let piece: string[] = [];
    for (const word of line.split(" ")) {
      if (piece.length && countTokens([...piece, word].join(" ")) + 1 > budget) {
        push(piece.join(" "), countTokens(piece.join(" ")) + 1);
        piece = [];
      }
      piece.push(word);
    }
    if (piece.length) push(piece.join(" "), countTokens(piece.join(" ")) + 1);
  }
  if (current.length) chunks.push(current);
  return chunks.length ? chunks : [[]];
}
