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
