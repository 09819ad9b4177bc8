import { pino } from 'pino';
import { readTextFile } from '../file-system.js';
import { AbortError, ConfigError, JudgeError, RetrievalError, SearchError } from '../errors.js';
import { contextPackJsonSchema } from '../output/context-pack.js';
import { formatContextPack } from '../output/format.js';
import { iterativeRetrieve } from '../retrieve.js';
import { parseCliArguments, USAGE } from './args.js';
import { chooseJudge } from './choose-judge.js';
import { EXIT_CODES } from './exit-codes.js';
import { describeProgress } from './progress.js';

/** Everything the CLI needs from its process, passed in so the CLI can be tested in-process. */
export interface CliIo {
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  stdout: { write(text: string): unknown; isTTY?: boolean | undefined };
  stderr: { write(text: string): unknown; isTTY?: boolean | undefined };
  /** Standard input as text, or undefined when it is a terminal (nobody is piping a task). */
  readStdin(): Promise<string | undefined>;
  version: string;
  signal?: AbortSignal | undefined;
}

function exitCodeOf(error: unknown): number {
  if (error instanceof ConfigError) return EXIT_CODES.usage;
  if (error instanceof SearchError) return EXIT_CODES.filesystem;
  if (error instanceof JudgeError) return EXIT_CODES.judge;
  if (error instanceof AbortError) return EXIT_CODES.interrupted;
  return EXIT_CODES.internal;
}

async function readTask(
  task: string | undefined,
  taskFile: string | undefined,
  io: CliIo,
): Promise<string> {
  if (task !== undefined && taskFile !== undefined)
    throw new ConfigError('give the task as an argument or with `--task-file`, not both', {
      option: '--task-file',
    });
  const piped = task === undefined && taskFile === undefined ? await io.readStdin() : undefined;
  const text =
    task ??
    (taskFile !== undefined ? await readTextFile(taskFile) : piped?.trim() ? piped : undefined);
  if (text === undefined)
    throw new ConfigError(
      'missing task: pass it as an argument, with `--task-file`, or on standard input',
      { option: 'task' },
    );
  if (text.trim() === '')
    throw new ConfigError(
      `the task is empty${taskFile !== undefined ? ` (\`${taskFile}\`)` : ''}`,
      { option: 'task' },
    );
  return text.trim();
}

/** Runs the CLI and returns its exit code; it never throws and never prints a stack trace. */
export async function runCli(io: CliIo): Promise<number> {
  const say = (line: string) => io.stderr.write(`iterative-retrieval: ${line}\n`);
  const interactive = io.stderr.isTTY === true;
  // On a terminal a person reads progress lines; elsewhere the JSON logs carry progress.
  const logger = pino(
    {
      level: io.env.LOG_LEVEL?.trim() || (interactive ? 'warn' : 'info'),
      base: { name: 'iterative-retrieval' },
    },
    io.stderr,
  );
  try {
    const args = parseCliArguments(io.argv);
    if (args.help) return (io.stdout.write(`${USAGE}\n`), EXIT_CODES.ok);
    if (args.version) return (io.stdout.write(`${io.version}\n`), EXIT_CODES.ok);
    if (args.schema)
      return (
        io.stdout.write(`${JSON.stringify(contextPackJsonSchema(), null, 2)}\n`),
        EXIT_CODES.ok
      );

    const task = await readTask(args.task, args.taskFile, io);
    const { judge, because } = await chooseJudge({
      choice: args.judge,
      env: io.env,
      promptsDirectory: args.prompts,
      evaluatorModel: args.evaluatorModel,
      refinerModel: args.refinerModel,
      logger,
    });
    if (interactive) say(`judge: ${judge.name} (${because})`);
    else logger.info({ judge: judge.name, because }, 'judge chosen');

    const pack = await iterativeRetrieve(task, {
      root: args.root,
      judge,
      excludes: args.excludes,
      logger,
      signal: io.signal,
      ...(args.maxCycles !== undefined && { maxCycles: args.maxCycles }),
      ...(args.threshold !== undefined && { threshold: args.threshold }),
      ...(args.minFiles !== undefined && { minFiles: args.minFiles }),
      ...(args.minRelevance !== undefined && { minRelevance: args.minRelevance }),
      ...(args.maxFiles !== undefined && { maxFiles: args.maxFiles }),
      ...(args.maxCandidates !== undefined && { maxCandidatesPerCycle: args.maxCandidates }),
      ...(args.concurrency !== undefined && { concurrency: args.concurrency }),
      ...(args.maxCalls !== undefined && { maxCalls: args.maxCalls }),
      ...(args.maxInputTokens !== undefined && { maxInputTokens: args.maxInputTokens }),
      ...(args.maxCost !== undefined && { maxCostUsd: args.maxCost }),
      allowSecretFiles: args.includeSecretFiles,
      ...(interactive && {
        onProgress: (event) => {
          const line = describeProgress(event);
          if (line) say(line);
        },
      }),
    });
    const format = args.format ?? (io.stdout.isTTY ? 'markdown' : 'json');
    io.stdout.write(formatContextPack(pack, format, { excerpts: args.excerpts }));
    // Logs already carry warnings as JSON; a person at a terminal gets them in words.
    if (interactive) for (const warning of pack.warnings) say(`warning: ${warning}`);
    if (pack.stopReason === 'aborted') return EXIT_CODES.interrupted;
    return pack.files.length > 0 ? EXIT_CODES.ok : EXIT_CODES.noContext;
  } catch (error) {
    const code = exitCodeOf(error);
    const message = error instanceof Error ? error.message : String(error);
    say(`error: ${message}`);
    if (code === EXIT_CODES.usage) say('run with --help for usage');
    if (!(error instanceof RetrievalError)) logger.error({ err: error }, 'unexpected error');
    return code;
  }
}
