import type { ZodError } from 'zod';
import type { TokenUsage } from './contracts/usage.js';

/** Base class of every error this library throws on purpose. */
export abstract class RetrievalError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Invalid options or input, raised before any work starts. */
export class ConfigError extends RetrievalError {
  /** The option at fault, as the user spells it (for example `maxCycles`). */
  readonly option: string | undefined;

  constructor(message: string, options?: { cause?: unknown; option?: string }) {
    super(message, options);
    this.option = options?.option;
  }
}

/** The repository could not be listed or read. */
export class SearchError extends RetrievalError {
  readonly path: string | undefined;

  constructor(message: string, options?: { cause?: unknown; path?: string }) {
    super(message, options);
    this.path = options?.path;
  }
}

/** A judge failed or answered with something that does not fit its schema. */
export class JudgeError extends RetrievalError {
  /** Which judge call failed. */
  readonly call: 'initial-query' | 'evaluate' | 'refine';

  constructor(
    message: string,
    options: { cause?: unknown; call: 'initial-query' | 'evaluate' | 'refine' },
  ) {
    super(message, options);
    this.call = options.call;
  }
}

/** The run was cancelled through its `AbortSignal`. */
export class AbortError extends RetrievalError {}

/** A model call failed. `fatal` failures (bad key, no permission, unknown model) end the run. */
export class ModelCallError extends RetrievalError {
  readonly fatal: boolean;
  /** HTTP status, when the API answered. */
  readonly status: number | undefined;

  constructor(
    message: string,
    options: { cause?: unknown; fatal: boolean; status?: number | undefined },
  ) {
    super(message, options);
    this.fatal = options.fatal;
    this.status = options.status;
  }
}

/** The model answered, but not with something usable. */
export class ModelOutputError extends RetrievalError {
  readonly reason: 'invalid-json' | 'schema-mismatch' | 'refusal' | 'truncated';
  /** The text the model returned, for debugging a prompt. */
  readonly rawText: string;
  readonly stopReason: string | null;
  /** What the unusable answer still cost. */
  readonly usage: TokenUsage;

  constructor(
    message: string,
    options: {
      cause?: unknown;
      reason: ModelOutputError['reason'];
      rawText: string;
      stopReason: string | null;
      usage: TokenUsage;
    },
  ) {
    super(message, options);
    this.reason = options.reason;
    this.rawText = options.rawText;
    this.stopReason = options.stopReason;
    this.usage = options.usage;
  }
}

/** A call would exceed one of the run's budgets; the loop stops with `stopReason: 'budget'`. */
export class BudgetExceededError extends RetrievalError {
  readonly budget: 'calls' | 'input-tokens' | 'cost';

  constructor(message: string, options: { budget: BudgetExceededError['budget'] }) {
    super(message);
    this.budget = options.budget;
  }
}

/** The first problem zod found, in one line: `files.0.relevance Too big: expected <=1`. */
export function describeIssue(error: ZodError): string {
  const issue = error.issues[0];
  return `${issue?.path.join('.') || 'value'} ${issue?.message ?? ''}`.trim();
}
