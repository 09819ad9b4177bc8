import { DEFAULT_PRICES } from '../../src/llm/prices.js';
import { createLedger, type Budgets, type RunLedger } from '../../src/loop/ledger.js';

/** A ledger with the built-in prices and, unless given, no budgets. */
export function testLedger(budgets: Budgets = {}): RunLedger {
  return createLedger(budgets, DEFAULT_PRICES);
}
