/**
 * How many lines a text has: one more than its line breaks, as many as splitting it would give.
 * Counting stops at `atMost`, for a caller that only needs to know whether there are that many.
 */
export function countLines(text: string, atMost = Infinity): number {
  let count = 1;
  // The string's own search, not a JavaScript loop over each character: every file read is counted.
  for (let at = text.indexOf('\n'); at !== -1 && count < atMost; at = text.indexOf('\n', at + 1))
    count++;
  return count;
}
