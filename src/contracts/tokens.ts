/** Roughly four characters a token for code and English; good enough for a budget. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
