/**
 * Fitting page content into a model's context by tokens. `count` is the provider's `countTokens`
 * (an estimate where the tokenizer is not known); every function here only calls it, so a real
 * tokenizer drops in without change.
 */
export type CountTokens = (text: string) => number;

/**
 * A tokenizer-free estimate that errs on the high side: about four ASCII characters per token, and
 * one token per other character (CJK text and emoji cost about that much in BPE tokenizers).
 */
export function estimateTokens(text: string): number {
  let other = 0;
  for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) > 0x7f) other++;
  return Math.ceil((text.length - other) / 4) + other;
}

/**
 * The longest prefix of `text` within `maxTokens`, cut at a paragraph, line or word end when one is
 * near. `truncated` says whether anything was cut.
 */
export function fitToTokens(text: string, maxTokens: number, count: CountTokens): { text: string; truncated: boolean } {
  if (maxTokens <= 0) return { text: '', truncated: text.length > 0 };
  if (count(text) <= maxTokens) return { text, truncated: false };
  // Binary search on length: the count is monotonic enough in the prefix length for this.
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (count(text.slice(0, middle)) <= maxTokens) low = middle;
    else high = middle - 1;
  }
  return { text: cutAtBoundary(text.slice(0, low)), truncated: true };
}

/**
 * Splits `text` into pieces of at most `maxTokens` each, at paragraph ends where possible (a
 * paragraph larger than the budget is cut by `fitToTokens`). Every character of the input ends up
 * in exactly one piece, bar the whitespace between paragraphs.
 */
export function chunkByTokens(text: string, maxTokens: number, count: CountTokens): string[] {
  if (maxTokens <= 0) throw new RangeError('maxTokens must be positive');
  const chunks: string[] = [];
  let current = '';
  const flush = () => {
    if (current.trim()) chunks.push(current.trim());
    current = '';
  };
  for (const paragraph of text.split(/\n{2,}/)) {
    const joined = current ? `${current}\n\n${paragraph}` : paragraph;
    if (count(joined) <= maxTokens) {
      current = joined;
      continue;
    }
    flush();
    let rest = paragraph;
    while (count(rest) > maxTokens) {
      const piece = fitToTokens(rest, maxTokens, count).text || rest.slice(0, Math.max(1, maxTokens));
      chunks.push(piece.trim());
      rest = rest.slice(piece.length);
    }
    current = rest;
  }
  flush();
  return chunks;
}

function cutAtBoundary(prefix: string): string {
  const minimum = Math.floor(prefix.length * 0.8);
  for (const boundary of ['\n\n', '\n', ' ']) {
    const at = prefix.lastIndexOf(boundary);
    if (at >= minimum) return prefix.slice(0, at);
  }
  return prefix;
}
