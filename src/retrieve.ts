import { resolve } from 'node:path';
import { pino, type Logger } from 'pino';
import { describeWorkspace } from './repository/overview.js';
import { mayTakeAgain, openWorkspace, type Workspace } from './repository/workspace.js';
import { startPartner } from './dispatch/partner.js';
import type { CacheDirectory } from './file-system/index-store.js';
import { loadIndex, saveIndex } from './repository/index-cache.js';
import { excerptCandidate } from './dispatch/dispatch.js';
import type { JudgedFile } from './contracts/evaluation.js';
import { ConfigError } from './errors.js';
import type { GitHistory } from './history/git-log.js';
import { readHistoryWithCache } from './history/history-cache.js';
import { createHeuristicJudge } from './judges/heuristic/heuristic-judge.js';
import { DEFAULT_PRICES } from './llm/prices.js';
import { createLedger } from './loop/ledger.js';
import { startDeadline } from './deadline.js';
import { countRedactions, redactSecrets } from './redaction/redact.js';
import { MAX_TASK_BYTES } from './task-size.js';
import { runLoop, type LoopOutcome } from './loop/run-loop.js';
import { stopConditionNamed } from './loop/stop-conditions.js';
import { buildContextPack, selectJudged } from './output/build-context-pack.js';
import type { SelectionOptions } from './output/select-files.js';
import type { ContextPack } from './output/context-pack.js';
import type { WorkspaceCache } from './workspace-cache.js';
import {
  DEFAULT_CANDIDATES_PER_CYCLE,
  parseRetrievalOptions,
  type ResolvedRetrievalOptions,
  type RetrievalOptions,
} from './options.js';

/**
 * The judged files with the core excerpted (from its parse where it has one): a judge that reads
 * no excerpts was given none, and excerpting every candidate would have cost more than the rest
 * of the run.
 */
async function withCoreExcerpts(
  outcome: LoopOutcome,
  workspace: Workspace,
  selection: SelectionOptions,
  excerptTokens: number,
): Promise<JudgedFile[]> {
  const core = new Set(selectJudged(outcome, selection).core);
  return Promise.all(
    outcome.judged.map(async (file) => {
      const source = core.has(file) ? workspace.get(file.path) : undefined;
      if (!source) return file;
      const excerpt = await excerptCandidate(
        workspace,
        source,
        file.candidate.matches,
        excerptTokens,
      );
      return { ...file, candidate: { ...file.candidate, ...excerpt } };
    }),
  );
}

/** A root's stored index, or undefined where the cache directory cannot be used at all. */
async function loadStoredIndex(cache: CacheDirectory, root: string, logger: Logger) {
  const stored = await loadIndex(cache, root);
  const keep = !('unusable' in stored && stored.unusable);
  if ('problem' in stored)
    logger.warn(
      { problem: stored.problem },
      keep
        ? 'stored index not used: it is built again'
        : 'no stored index: the cache directory cannot be used',
    );
  return keep ? { stored: stored.index } : undefined;
}

/** Per workspace cache, the roots being read for it now, settled once read (or failed). */
const readings = new WeakMap<WorkspaceCache, Map<string, Promise<void>>>();
function readingsOf(cache: WorkspaceCache): Map<string, Promise<void>> {
  let roots = readings.get(cache);
  if (!roots) readings.set(cache, (roots = new Map()));
  return roots;
}

/** Waits for `settled`, or until `signal` aborts: a run's time limit holds while it waits. */
function untilSettledOrAborted(settled: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((done) => {
    const onAbort = () => done();
    signal.addEventListener('abort', onAbort, { once: true });
    void settled.then(() => {
      signal.removeEventListener('abort', onAbort);
      done();
    });
  });
}

/**
 * The repository as this run reads it: the workspace kept from the last run where it can be taken
 * again, else the tree read (restored from the stored index where unchanged); an index that
 * changed is saved while the run goes on.
 */
async function readRepository(
  root: string,
  task: string,
  resolved: ResolvedRetrievalOptions,
  cache: CacheDirectory | undefined,
  signal: AbortSignal,
  logger: Logger,
): Promise<{ workspace: Workspace; saved: Promise<void> | undefined }> {
  const { workspaceCache } = resolved;
  // A run on a root that another run of the same cache is reading waits for that reading and
  // takes its workspace: one process (the MCP server) never reads a repository twice at once.
  const underWay = workspaceCache && readingsOf(workspaceCache).get(root);
  if (underWay && !workspaceCache.get(root)) await untilSettledOrAborted(underWay, signal);
  let previous = workspaceCache?.get(root);
  // Loaded while the tree is listed; a workspace held in memory has its index already.
  const index = previous?.index
    ? Promise.resolve({ stored: previous.index.updated })
    : cache && loadStoredIndex(cache, root, logger);
  const settings = {
    excludes: resolved.excludes,
    allowSecretFiles: resolved.allowSecretFiles,
    maxFileBytes: resolved.maxFileBytes,
    maxFiles: resolved.maxRepositoryFiles,
    task,
    syntax: resolved.syntax,
  };
  // One that cannot be taken again (over the cap for another task, or other settings) is let go
  // now, not held while its successor is read; its stored index is still used.
  if (previous && !mayTakeAgain(previous, root, settings)) {
    workspaceCache?.forget(root);
    previous = undefined;
  }
  // Kept as soon as it is read: a run waiting for this reading takes it from the cache.
  const reading = openWorkspace(root, {
    ...settings,
    index,
    reusable: workspaceCache !== undefined,
    watch: workspaceCache?.watches,
    partner: { start: startPartner },
    previous,
    signal,
  }).then((read) => (workspaceCache?.keep(read), read));
  if (workspaceCache) {
    const roots = readingsOf(workspaceCache);
    const settled = reading.then(
      () => undefined,
      () => undefined,
    );
    roots.set(root, settled);
    void settled.then(() => roots.get(root) === settled && roots.delete(root));
  }
  const workspace = await reading;
  // Saved while the run goes on; a cache that cannot be written costs the next run, not this one.
  const saved =
    cache && workspace.index?.changed
      ? saveIndex(cache, root, workspace.index.updated).catch((error: unknown) =>
          logger.warn({ err: error }, 'stored index not saved'),
        )
      : undefined;
  return { workspace, saved };
}

/**
 * Finds the files a subagent needs for `task` under `options.root`: DISPATCH a search, EVALUATE
 * each candidate with the judge, REFINE the query from what is missing, and LOOP until enough
 * highly relevant files are held or the cycle cap is reached.
 */
export async function iterativeRetrieve(
  task: string,
  options: RetrievalOptions = {},
): Promise<ContextPack> {
  const started = performance.now();
  if (typeof task !== 'string' || task.trim().length === 0)
    throw new ConfigError('`task` must be a non-empty description of the work', { option: 'task' });
  if (Buffer.byteLength(task) > MAX_TASK_BYTES)
    throw new ConfigError(
      `\`task\` is longer than ${MAX_TASK_BYTES.toLocaleString('en-US')} bytes: give the task, not a whole log`,
      { option: 'task' },
    );
  const resolved = parseRetrievalOptions(options);
  // The run owns its time limit, so every step of it (git, reading, each judge call) is bounded.
  const deadline = startDeadline(
    [resolved.signal],
    resolved.timeoutSeconds === undefined ? undefined : resolved.timeoutSeconds * 1000,
  );
  try {
    return await retrieveWithin(task, resolved, deadline.signal, started);
  } finally {
    deadline.dispose();
  }
}

async function retrieveWithin(
  written: string,
  resolved: ResolvedRetrievalOptions,
  signal: AbortSignal,
  started: number,
): Promise<ContextPack> {
  // The task goes into every request a judge makes: a secret pasted into it stays here.
  const { text: task, redactions: taskRedactions } = await redactSecrets(written);
  const logger = resolved.logger ?? pino({ level: 'silent' });
  const judge = resolved.judge ?? createHeuristicJudge();
  const root = resolve(resolved.root);

  const cache = resolved.cacheDirectory
    ? { directory: resolve(resolved.cacheDirectory), maxBytes: resolved.maxCacheBytes }
    : undefined;
  // Kept beside the stored index, and read from git again only when the commit has moved.
  const history =
    resolved.history === false
      ? Promise.resolve<GitHistory>({ commits: [] })
      : readHistoryWithCache(
          {
            root,
            maxCommits: resolved.maxHistoryCommits,
            signal,
            ...(resolved.history !== true && resolved.history),
          },
          cache,
        );
  const { workspace, saved } = await readRepository(root, task, resolved, cache, signal, logger);
  try {
    resolved.onProgress?.({ type: 'read', files: workspace.files.length, ms: workspace.readMs });
    logger.info(
      {
        root,
        files: workspace.files.length,
        skipped: workspace.skipped,
        ms: Math.round(workspace.readMs),
        judge: judge.name,
        ...(workspace.reused && { reused: true, listed: !workspace.watched }),
        ...(workspace.index && {
          storedIndex: {
            read: workspace.index.read,
            reused: workspace.index.updated.files.size - workspace.index.read,
          },
        }),
      },
      'read repository',
    );

    const ledger = createLedger(
      {
        maxCalls: resolved.maxCalls,
        maxInputTokens: resolved.maxInputTokens,
        maxCostUsd: resolved.maxCostUsd,
      },
      { ...DEFAULT_PRICES, ...resolved.prices },
    );
    const maxCandidatesPerCycle =
      resolved.maxCandidatesPerCycle ?? judge.candidatesPerCycle ?? DEFAULT_CANDIDATES_PER_CYCLE;
    const past = await history;
    if (past.warning) ledger.warn(past.warning);
    const taskSecrets = countRedactions(taskRedactions);
    if (taskSecrets > 0)
      ledger.warn(
        `the task held ${taskSecrets} secret${taskSecrets === 1 ? '' : 's'} (${taskRedactions.map((redaction) => redaction.rule).join(', ')}); ${taskSecrets === 1 ? 'it was' : 'they were'} replaced by [REDACTED:…] before any judge saw it`,
      );
    const outcome = await runLoop({
      task,
      judge,
      workspace,
      overview: describeWorkspace(workspace, past.commits),
      options: {
        ...resolved,
        signal,
        maxCandidatesPerCycle,
        stopWhen: resolved.stopWhen.map((condition) =>
          typeof condition === 'string'
            ? stopConditionNamed(condition, resolved.minFiles)
            : condition,
        ),
      },
      ledger,
      logger,
    });
    const selection: SelectionOptions = {
      minRelevance: resolved.minRelevance,
      coreRelevance: resolved.coreRelevance,
      maxFiles: resolved.maxFiles,
      maxRelated: resolved.maxRelated,
    };
    const pack = buildContextPack({
      task,
      root,
      judge: judge.name,
      outcome:
        judge.readsExcerpts === false
          ? {
              ...outcome,
              judged: await withCoreExcerpts(outcome, workspace, selection, resolved.excerptTokens),
            }
          : outcome,
      filesConsidered: workspace.files.length,
      skipped: workspace.skipped,
      selection,
      readMs: workspace.readMs,
      totalMs: performance.now() - started,
      usage: ledger.totals(),
      judgeWarnings: ledger.warnings,
    });
    resolved.onProgress?.({ type: 'stop', reason: pack.stopReason, files: pack.files.length });
    logger.info(
      {
        stopReason: pack.stopReason,
        files: pack.files.length,
        cycles: pack.trace.length,
        ms: Math.round(pack.timings.totalMs),
      },
      'done',
    );
    for (const warning of pack.warnings) logger.warn(warning);
    await saved;
    return pack;
  } finally {
    // A partner thread holding part of the tree is let go however the run ends.
    workspace.partner?.close();
    // Armed once the run is over, so that its walk does not slow the run.
    workspace.watch?.arm();
  }
}
