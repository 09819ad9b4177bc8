import type { TokenUsage } from '../contracts/usage.js';

/** USD per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  /** Writing the prompt cache with the default 5-minute lifetime (1.25× input). */
  cacheWrite: number;
  cacheRead: number;
}

/**
 * List prices in USD per million tokens, from Anthropic's pricing pages as of 2026-11. Prices
 * change: pass `prices` to override or add models. Haiku 5.5's rates are for prompts up to 100k
 * tokens (an excerpt-sized call is far below that). A model missing from the table costs 0 and
 * the run says so in a warning.
 */
export const DEFAULT_PRICES: Readonly<Record<string, ModelPrice>> = {
  'claude-haiku-5-5': { input: 0.1, output: 0.5, cacheWrite: 0.125, cacheRead: 0.01 },
  'claude-sonnet-5-5': { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.2 },
  'claude-opus-5-5': { input: 4, output: 20, cacheWrite: 5, cacheRead: 0.2 },
  'claude-fable-5-1': { input: 10, output: 50, cacheWrite: 12.5, cacheRead: 0.25 },
  'claude-mythos-5-1': { input: 10, output: 50, cacheWrite: 12.5, cacheRead: 0.25 },
  'claude-opus-5': { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 },
  'claude-sonnet-5': { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.2 },
  'claude-haiku-4-5': { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 },
};

/** The price of a model: an exact entry, or the entry of its dated snapshot's family. */
export function priceOf(
  model: string,
  prices: Readonly<Record<string, ModelPrice>>,
): ModelPrice | undefined {
  return prices[model] ?? prices[model.replace(/-\d{8}$/, '')];
}

export function costOf(usage: TokenUsage, price: ModelPrice | undefined): number {
  if (!price) return 0;
  const dollars =
    usage.inputTokens * price.input +
    usage.outputTokens * price.output +
    usage.cacheWriteTokens * price.cacheWrite +
    usage.cacheReadTokens * price.cacheRead;
  return dollars / 1_000_000;
}
