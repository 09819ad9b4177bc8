/** How many lines a text has: one more than its line breaks, as many as splitting it would give. */
export function countLines(text: string): number {
  let count = 1;
  // The string's own search, not a JavaScript loop over each character: every file read is counted.
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}
