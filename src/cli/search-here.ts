import type { Logger } from 'pino';
import { describeProgress } from '../loop/progress.js';
import type { RetrievalOptions } from '../options.js';
import type { ContextPack } from '../output/context-pack.js';
import type { CliArguments } from './flag-values.js';
import { retrievalOptionsFrom } from './retrieval-settings.js';
import type { CliIo } from './cli-io.js';

/**
 * A plain run's search in this process: the judge the flags and environment choose, the stored
 * index when there is one, progress on a terminal. `afterRun`, once the answer is out, starts the
 * index's build in the background when there was none.
 */
export async function searchHere(
  task: string,
  args: CliArguments,
  io: CliIo,
  logger: Logger,
  options: Partial<RetrievalOptions> = {},
): Promise<{ pack: ContextPack; afterRun(): void }> {
  const interactive = io.stderr.isTTY === true;
  const say = (line: string) => io.stderr.write(`iterative-retrieval: ${line}\n`);
  const [{ chooseJudgeFor }, { iterativeRetrieve }, { indexedRun }] = await Promise.all([
    import('./choose-judge.js'),
    import('../retrieve.js'),
    import('./stored-index.js'),
  ]);
  const indexed = await indexedRun(io, args, args.root);
  if (indexed.warning !== undefined) logger.warn(indexed.warning);
  const { judge, because } = await chooseJudgeFor(args, io.env, logger);
  if (interactive) say(`judge: ${judge.name} (${because})`);
  else logger.info({ judge: judge.name, because }, 'judge chosen');
  const pack = await iterativeRetrieve(task, {
    ...retrievalOptionsFrom(args),
    ...indexed.options,
    ...options,
    root: args.root,
    judge,
    logger,
    signal: io.signal,
    ...(interactive && {
      onProgress: (event) => {
        const line = describeProgress(event);
        if (line) say(line);
      },
    }),
  });
  return { pack, afterRun: indexed.afterRun };
}
