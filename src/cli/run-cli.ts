import type { Logger } from 'pino';
import { readTaskFile } from '../file-system/inputs.js';
import { MAX_TASK_BYTES } from '../task-size.js';
import { AbortError, ConfigError, JudgeError, RetrievalError, SearchError } from '../errors.js';
import { formatContextPack } from '../output/format.js';
import { commandOf, readCommandLine } from './args.js';
import { EXIT_CODES } from './exit-codes.js';
import { hookLimitSeconds } from '../hooks/hook-limit.js';
import { quickHookAnswer } from '../hooks/quick-answer.js';
import { escapeControlCharacters } from './quote-value.js';
import { retrievalOptionsFrom } from './retrieval-settings.js';
import { USAGE } from './usage.js';
import type { CliIo } from './cli-io.js';

function exitCodeOf(error: unknown, signal: AbortSignal | undefined): number {
  if (error instanceof ConfigError) return EXIT_CODES.usage;
  if (error instanceof SearchError) return EXIT_CODES.filesystem;
  if (error instanceof JudgeError) return EXIT_CODES.judge;
  // Stopped before any file was judged: by Ctrl-C, an interruption; by --timeout, no context.
  if (error instanceof AbortError)
    return signal?.aborted ? EXIT_CODES.interrupted : EXIT_CODES.noContext;
  return EXIT_CODES.internal;
}

const STDIN_TIMEOUT = 'the --timeout ran out before the task on standard input ended';

async function readTask(
  task: string | undefined,
  taskFile: string | undefined,
  io: CliIo,
  timeoutSeconds: number | undefined,
): Promise<string> {
  if (task !== undefined && taskFile !== undefined)
    throw new ConfigError('give the task as an argument or with `--task-file`, not both', {
      option: '--task-file',
    });
  let piped: string | undefined;
  if (task === undefined && taskFile === undefined) {
    // A --timeout bounds waiting for a task on standard input too: a writer that never closes
    // its end does not hold the run past it.
    const read = timeoutSeconds === undefined ? undefined : await readWithin(io, timeoutSeconds);
    if (read && !read.done) throw new AbortError(STDIN_TIMEOUT);
    piped = read ? read.text : await io.readStdin();
  }
  const text =
    task ??
    (taskFile !== undefined
      ? await readTaskFile(taskFile, MAX_TASK_BYTES)
      : piped?.trim()
        ? piped
        : undefined);
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

/**
 * Standard input, read while a time limit lasts (counted from the process's start): a caller
 * that never closes its end does not hold the run past it.
 */
async function readWithin(
  io: CliIo,
  limitSeconds: number,
): Promise<{ done: true; text: string | undefined } | { done: false }> {
  const leftMs = limitSeconds * 1000 - (Date.now() - (io.startedAt ?? Date.now()));
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<{ done: false }>((resolve) => {
    timer = setTimeout(() => resolve({ done: false }), Math.max(0, leftMs));
  });
  try {
    return await Promise.race([
      io.readStdin().then((text) => ({ done: true as const, text })),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs the CLI and returns its exit code; it never throws and never prints a stack trace. */
export async function runCli(io: CliIo): Promise<number> {
  // One line, whatever it quotes: a file name, a hook's input or a warning may hold line breaks.
  const say = (line: string) =>
    io.stderr.write(`iterative-retrieval: ${escapeControlCharacters(line)}\n`);
  const interactive = io.stderr.isTTY === true;
  const command = commandOf(io.argv);
  let logger: Logger | undefined;
  try {
    const line = readCommandLine(io.argv);
    // A hook's stdout is its answer to Claude Code; anything else a person asked for goes to stderr.
    const out = command === 'hook' ? io.stderr : io.stdout;
    if (line.help) return (out.write(`${USAGE}\n`), EXIT_CODES.ok);
    if (line.version) return (out.write(`${io.version}\n`), EXIT_CODES.ok);
    // Each command loads only the modules it uses, so the quick answers start as fast as Node.
    if (line.schema) {
      const { contextPackJsonSchema } = await import('../output/context-pack.js');
      return (out.write(`${JSON.stringify(contextPackJsonSchema(), null, 2)}\n`), EXIT_CODES.ok);
    }
    // Most hook calls need no work and are answered before the schemas, pino or the pipeline load.
    let hookInput: string | undefined;
    if (command === 'hook') {
      const timeout = line.flags.findLast(({ definition }) => definition.flag === 'timeout');
      const limitSeconds = hookLimitSeconds(timeout?.value);
      const read = await readWithin(io, limitSeconds);
      if (!read.done)
        return (
          say(`hook: no change: its input did not end within the time limit of ${limitSeconds} s`),
          EXIT_CODES.ok
        );
      hookInput = read.text;
      const quick = quickHookAnswer(hookInput, io.env.RETRIEVAL_HOOK_DELIVERY);
      if (quick) return (say(`hook: ${quick.note}`), EXIT_CODES.ok);
    }
    const [{ settleCliArguments }, { readClaudeEnvironment }, { createCliLogger }] =
      await Promise.all([
        import('./flag-values.js'),
        import('./environment.js'),
        import('./cli-logger.js'),
      ]);
    const args = settleCliArguments(line);
    // A bad Claude setting fails here, before any work, not at the first model call.
    if (args.judge !== 'heuristic') readClaudeEnvironment(io.env);
    logger = createCliLogger(io, command, interactive);

    if (args.command === 'hook') {
      const { runHookCommand } = await import('./hook-command.js');
      return await runHookCommand({ ...io, readStdin: async () => hookInput }, args, logger);
    }
    if (args.command === 'mcp') {
      const { runMcpCommand } = await import('./mcp-command.js');
      return await runMcpCommand(io, args, logger);
    }
    if (args.command === 'index') {
      const { runIndexCommand } = await import('./index-command.js');
      return await runIndexCommand(io, args, logger);
    }
    if (args.command === 'resident') {
      const { runResidentCommand } = await import('./resident-command.js');
      return await runResidentCommand(io, args, logger);
    }

    const task = await readTask(args.task, args.taskFile, io, args.timeoutSeconds);
    // A resident process is asked before the pipeline loads: a run it answers needs none of it.
    const resident = args.resident
      ? await (await import('./resident-run.js')).residentRunFor(io, args, args.root, logger)
      : undefined;
    const asked = await resident?.ask(task, { ...retrievalOptionsFrom(args), root: args.root });
    const answered = asked && 'pack' in asked;
    const { pack, afterRun } = answered
      ? { pack: asked.pack, afterRun: () => undefined }
      : await (await import('./search-here.js')).searchHere(task, args, io, logger, asked?.options);
    if (answered && interactive) say('judge: heuristic (answered by the resident process)');
    const format = args.format ?? (io.stdout.isTTY ? 'markdown' : 'json');
    // A budget makes markdown the hand-over: it fills the budget with whole files or excerpts.
    io.stdout.write(
      format === 'markdown' && args.budgetTokens !== undefined
        ? await (
            await import('../output/handover.js')
          ).renderHandover(pack, { budgetTokens: args.budgetTokens })
        : formatContextPack(pack, format, {
            excerpts: args.excerpts,
            nullSeparated: args.nullSeparated,
            related: args.related,
          }),
    );
    // Searched here: a resident process for the next runs (it builds the stored index itself),
    // or else the index's build, when there is none.
    if (!answered) {
      if (resident) resident.start(retrievalOptionsFrom(args));
      else afterRun();
    }
    // Logs already carry warnings as JSON; a person at a terminal gets them in words.
    if (interactive) for (const warning of pack.warnings) say(`warning: ${warning}`);
    // A --timeout is a deadline the user chose, not an interruption: its result is a normal one.
    if (pack.stopReason === 'aborted' && io.signal?.aborted) return EXIT_CODES.interrupted;
    return pack.files.length > 0 ? EXIT_CODES.ok : EXIT_CODES.noContext;
  } catch (error) {
    // Claude Code reads exit 2 from a PreToolUse hook as "block the tool": a hook never fails.
    const code = command === 'hook' ? EXIT_CODES.ok : exitCodeOf(error, io.signal);
    const message = escapeControlCharacters(
      error instanceof AbortError && !io.signal?.aborted && error.message !== STDIN_TIMEOUT
        ? 'the --timeout ran out before any file was judged; allow more time or search a smaller --root'
        : error instanceof Error
          ? error.message
          : String(error),
    );
    // The hook's own line says what it did: here, nothing.
    say(command === 'hook' ? `hook: no change: ${message}` : `error: ${message}`);
    if (code === EXIT_CODES.usage) say('run with --help for usage');
    if (!(error instanceof RetrievalError)) logger?.error({ err: error }, 'unexpected error');
    return code;
  }
}
