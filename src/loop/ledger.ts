import { BudgetExceededError } from '../errors.js';
import { costOf, priceOf, type ModelPrice } from '../llm/prices.js';
import { addUsage, NO_USAGE, totalInputTokens, type TokenUsage } from '../contracts/usage.js';
import { type CallKind, type Ledger } from '../contracts/ledger.js';

/** Limits on what one run may spend on model calls. Absent means unlimited. */
export interface Budgets {
  maxCalls?: number | undefined;
  maxInputTokens?: number | undefined;
  maxCostUsd?: number | undefined;
}

/** One model call, as the ledger records it. */
export interface CallRecord {
  kind: CallKind;
  model: string;
  path?: string | undefined;
  cycle: number;
  usage: TokenUsage;
  costUsd: number;
  ok: boolean;
}

/** Usage summed over calls. */
export interface UsageTotals extends TokenUsage {
  calls: number;
  costUsd: number;
}

export interface RunLedger extends Ledger {
  readonly records: readonly CallRecord[];
  readonly warnings: readonly string[];
  totals(cycle?: number): UsageTotals;
  /** The cycle that calls are attributed to from now on. */
  setCycle(cycle: number): void;
}

export function sumRecords(records: readonly CallRecord[]): UsageTotals {
  return records.reduce<UsageTotals>(
    (sum, record) => ({
      ...addUsage(sum, record.usage),
      calls: sum.calls + 1,
      costUsd: sum.costUsd + record.costUsd,
    }),
    { ...NO_USAGE, calls: 0, costUsd: 0 },
  );
}

/**
 * The run's accounts. Budgets are checked before each call against what is spent plus what calls
 * in flight have reserved, so parallel calls cannot together overshoot a limit.
 */
export function createLedger(
  budgets: Budgets,
  prices: Readonly<Record<string, ModelPrice>>,
): RunLedger {
  const records: CallRecord[] = [];
  const warnings: string[] = [];
  const pending = new Set<{ inputTokens: number; costUsd: number }>();
  let cycle = 0;

  const warn = (message: string) => {
    if (!warnings.includes(message)) warnings.push(message);
  };

  return {
    records,
    warnings,
    warn,
    setCycle: (next) => (cycle = next),
    totals: (only) =>
      sumRecords(only === undefined ? records : records.filter((record) => record.cycle === only)),
    reserve(estimate) {
      const price = priceOf(estimate.model, prices);
      const claim = {
        inputTokens: estimate.inputTokens,
        costUsd: costOf(
          { ...NO_USAGE, inputTokens: estimate.inputTokens, outputTokens: estimate.outputTokens },
          price,
        ),
      };
      const spent = sumRecords(records);
      const reserved = [...pending].reduce(
        (sum, other) => ({
          inputTokens: sum.inputTokens + other.inputTokens,
          costUsd: sum.costUsd + other.costUsd,
        }),
        { inputTokens: 0, costUsd: 0 },
      );
      if (budgets.maxCalls !== undefined && spent.calls + pending.size + 1 > budgets.maxCalls) {
        throw new BudgetExceededError(`the call budget (${budgets.maxCalls} calls) is spent`, {
          budget: 'calls',
        });
      }
      if (
        budgets.maxInputTokens !== undefined &&
        totalInputTokens(spent) + reserved.inputTokens + claim.inputTokens > budgets.maxInputTokens
      ) {
        throw new BudgetExceededError(
          `the input-token budget (${budgets.maxInputTokens} tokens) would be exceeded`,
          { budget: 'input-tokens' },
        );
      }
      if (
        budgets.maxCostUsd !== undefined &&
        spent.costUsd + reserved.costUsd + claim.costUsd > budgets.maxCostUsd
      ) {
        throw new BudgetExceededError(
          `the cost budget ($${budgets.maxCostUsd}) would be exceeded`,
          { budget: 'cost' },
        );
      }
      pending.add(claim);
      return {
        settle(result) {
          pending.delete(claim);
          const resultPrice = priceOf(result.model, prices);
          // `warn` keeps one of each message, so a model is named once.
          if (!resultPrice) {
            warn(
              `no price is known for \`${result.model}\`: its cost is counted as 0 (pass prices to fix)`,
            );
          }
          records.push({ ...result, cycle, costUsd: costOf(result.usage, resultPrice) });
        },
        release: () => pending.delete(claim),
      };
    },
  };
}
