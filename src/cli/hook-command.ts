import type { Logger } from 'pino';
import { RetrievalError } from '../errors.js';
import { parseHookDelivery } from '../hooks/delivery.js';
import { noChange, type HookAnswer } from '../hooks/hook-answer.js';
import { parseHookInput } from '../hooks/hook-input.js';
import { openPendingPacks } from '../hooks/pending-packs.js';
import { answerPreToolUse } from '../hooks/pre-tool-use.js';
import { pendingPacksDirectory } from '../hooks/store-directory.js';
import { answerSubagentStart } from '../hooks/subagent-start.js';
import { DEFAULT_HANDOVER_TOKENS } from '../output/handover.js';
import type { CliArguments } from './flag-values.js';
import { EXIT_CODES } from './exit-codes.js';
import { startDeadline } from '../deadline.js';
import { retrievalOptionsFrom } from './retrieval-settings.js';
import type { CliIo } from './cli-io.js';
import { escapeControlCharacters } from './quote-value.js';
import { DEFAULT_HOOK_TIMEOUT_SECONDS } from '../hooks/hook-limit.js';

/** Of the time limit, what is kept for handing over what the search found once it stops. */
const reserveFor = (limitMs: number) => Math.min(2000, limitMs / 10);

async function answerHook(
  io: CliIo,
  args: CliArguments,
  logger: Logger,
  startedAt: number,
  search: { signal: AbortSignal; endsAt: number },
): Promise<HookAnswer> {
  const { signal } = search;
  const parsed = parseHookInput(await io.readStdin());
  if (parsed.event === 'ignored') return noChange(parsed.reason);
  const delivery = parseHookDelivery(io.env.RETRIEVAL_HOOK_DELIVERY);
  const store = openPendingPacks(pendingPacksDirectory(io.env));
  if (parsed.event === 'SubagentStart')
    return answerSubagentStart(parsed.input, { delivery, store, now: startedAt, logger });

  return answerPreToolUse(parsed.input, {
    delivery,
    store,
    startedAt,
    logger,
    budgetTokens: args.budgetTokens ?? DEFAULT_HANDOVER_TOKENS,
    retrieve: async (task, root) => {
      // `--root` does not apply: the root is the session's working directory.
      // The hook's own deadline bounds the search; `--timeout` is the whole hook's limit.
      const options = { ...retrievalOptionsFrom(args), timeoutSeconds: undefined, root };
      const resident = args.resident
        ? await (await import('./resident-run.js')).residentRunFor(io, args, root, logger)
        : undefined;
      // What is left of the search's time: a process busy elsewhere is waited for half of it,
      // and the hook searches itself in the rest.
      const left = {
        ...options,
        timeoutSeconds: Math.max(0.001, (search.endsAt - Date.now()) / 1000),
      };
      const asked = await resident?.ask(task, left, signal);
      if (asked && 'pack' in asked) return { pack: asked.pack };
      // The pipeline loads only once the hook knows it will search: quick answers never pay for it.
      const [{ chooseJudgeFor }, { retrieveOrFallBack }, { indexedRun }] = await Promise.all([
        import('./choose-judge.js'),
        import('../retrieve-or-fall-back.js'),
        import('./stored-index.js'),
      ]);
      const indexed = await indexedRun(io, args, root);
      const { judge, because } = await chooseJudgeFor(args, io.env, logger);
      logger.info({ judge: judge.name, because }, 'judge chosen');
      // A key the API rejects leaves the subagent with the offline judge's context, not none.
      const found = await retrieveOrFallBack(task, {
        ...options,
        ...indexed.options,
        judge,
        logger,
        signal,
      });
      if (resident) resident.start(options);
      else indexed.afterRun();
      return found;
    },
  });
}

/**
 * The Claude Code hook (`iterative-retrieval hook`): reads one hook input from stdin, prints at
 * most one JSON answer on stdout and one line on stderr saying what it did or why it did nothing.
 * It exits 0 whatever happens: a hook must never break the session it serves (exit code 2 would
 * block the subagent), so every failure means "no change".
 */
export async function runHookCommand(
  io: CliIo,
  args: CliArguments,
  logger: Logger,
): Promise<number> {
  const startedAt = Date.now();
  // One line, whatever it quotes: file names and the hook's input may hold line breaks.
  const say = (line: string) =>
    io.stderr.write(`iterative-retrieval: hook: ${escapeControlCharacters(line)}\n`);
  // The limit counts from the process's start: loading and reading the input spend it too.
  const limitSeconds = args.timeoutSeconds ?? DEFAULT_HOOK_TIMEOUT_SECONDS;
  const leftMs = limitSeconds * 1000 - (startedAt - (io.startedAt ?? startedAt));
  // The search stops a little early, so that what it found can still be handed over in time.
  const searchMs = leftMs - reserveFor(limitSeconds * 1000);
  const search = startDeadline([io.signal], searchMs);
  // Whatever is still running at the limit (a slow disk, a stuck write), the hook answers then.
  const limit = startDeadline([], leftMs);
  const outOfTime = new Promise<HookAnswer>((resolve) =>
    limit.signal.addEventListener('abort', () =>
      resolve(noChange(`the time limit of ${limitSeconds} s ran out`)),
    ),
  );
  try {
    const answer = await Promise.race([
      answerHook(io, args, logger, startedAt, {
        signal: search.signal,
        endsAt: startedAt + searchMs,
      }),
      outOfTime,
    ]);
    if (answer.output) io.stdout.write(`${JSON.stringify(answer.output)}\n`);
    say(answer.note);
  } catch (error) {
    say(`no change: ${error instanceof Error ? error.message : String(error)}`);
    if (!(error instanceof RetrievalError)) logger.error({ err: error }, 'unexpected error');
  } finally {
    search.dispose();
    limit.dispose();
  }
  return EXIT_CODES.ok;
}
