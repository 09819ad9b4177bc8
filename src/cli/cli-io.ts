/** Everything the CLI needs from its process, passed in so the CLI can be tested in-process. */
export interface CliIo {
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  stdout: { write(text: string): unknown; isTTY?: boolean | undefined };
  stderr: { write(text: string): unknown; isTTY?: boolean | undefined };
  /** Standard input as text, or undefined when it is a terminal (nobody is piping a task). */
  readStdin(): Promise<string | undefined>;
  version: string;
  /** This build of the CLI (`version` when not given): a resident process serves only its own. */
  build?: string | undefined;
  signal?: AbortSignal | undefined;
  /** When the process started (milliseconds since the epoch): the hook's time limit counts from it. */
  startedAt?: number | undefined;
  /** The raw standard streams, for a protocol spoken over them (the MCP server). */
  streams?: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream } | undefined;
  /**
   * Runs this CLI with `argv` in a process of its own that outlives this one (an index build, a
   * resident process).
   */
  startInBackground?: ((argv: readonly string[], options?: BackgroundOptions) => void) | undefined;
}

export interface BackgroundOptions {
  /** Written to its standard input. */
  input?: string;
  /**
   * Run below the priority of the runs a user waits for: work nobody waits on (an index build)
   * yields the processor to them.
   */
  lowPriority?: boolean;
}
