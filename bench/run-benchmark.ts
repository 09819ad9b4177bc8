import { openWorkspace, type Workspace } from '../src/repository/workspace.js';
import { excerptCandidate } from '../src/dispatch/dispatch.js';
import { evaluationVariables } from '../src/judges/claude/claude-judge.js';
import { createHeuristicJudge } from '../src/judges/heuristic/heuristic-judge.js';
import type { Judge } from '../src/judges/judge.js';
import { loadPrompts, renderPrompt, type Prompts } from '../src/prompts.js';
import { totalInputTokens } from '../src/contracts/usage.js';
import { iterativeRetrieve } from '../src/retrieve.js';
import { parseRetrievalOptions, type RetrievalOptions } from '../src/options.js';
import { selectFiles } from '../src/output/select-files.js';
import { CODE_KINDS, rankByBm25 } from './bm25.js';
import { accuracyAt, mean, median, percent, precisionRecall, recallAt } from './metrics.js';
import { operatingPoints, type OperatingPoint } from './operating-points.js';
import { mainLanguageOf } from './languages.js';
import { findGitDirectory, materialise } from './repositories.js';
import type { BenchTask } from './tasks.js';
import { estimateTokens } from '../src/contracts/tokens.js';
import type { FileKind } from '../src/contracts/file-kind.js';
import type { Candidate } from '../src/contracts/candidate.js';
import type { RepoOverview } from '../src/contracts/overview.js';
import type { UsageTotals } from '../src/loop/ledger.js';
import type { TaskResult } from './task-result.js';
import pLimit from 'p-limit';

export const ACCURACY_KS = [1, 3, 5, 10] as const;

export interface MethodSummary {
  method: string;
  tasks: number;
  accuracy: Record<(typeof ACCURACY_KS)[number], number>;
  recallAt5: number;
  filesPrecision?: number;
  filesRecall?: number;
  filesSelected?: number;
  cycles?: number;
  stopReasons?: Record<string, number>;
  tokens?: number;
  /** Medians per task of a Claude judge's model use. */
  usage?: {
    calls: number;
    inputTokens: number;
    uncachedInputTokens: number;
    cacheReadTokens: number;
    cacheWriteTokens: number;
    costUsd: number;
  };
  medianMs: number;
}

/**
 * The Claude runs a benchmark can make of each task: with its default stop conditions, for every
 * cycle, and with the seed's rule (`min-files`, the defaults before the refiner's verdict).
 */
export const CLAUDE_RUN_NAMES = ['default', 'every-cycle', 'seed-rule'] as const;
export type ClaudeRun = (typeof CLAUDE_RUN_NAMES)[number];
type RunOptions = Partial<Pick<RetrievalOptions, 'stopWhen' | 'cacheDirectory'>>;
const CLAUDE_RUNS: Record<ClaudeRun, { method: string; options: RunOptions }> = {
  default: { method: 'claude', options: {} },
  'every-cycle': { method: 'claude, every cycle', options: { stopWhen: [] } },
  'seed-rule': { method: 'claude, seed rule', options: { stopWhen: ['min-files'] } },
};

export interface BenchmarkOptions {
  tasks: readonly BenchTask[];
  reposDirectory: string;
  cacheDirectory: string;
  /** A Claude judge to measure too (when a key is configured), made for each task. */
  claude?: (task: BenchTask) => Promise<Judge>;
  /**
   * Tasks whose Claude runs go at once (default 1). Through the model bridge the answers come
   * from stand-ins working side by side, so tasks must be pending together to keep them busy.
   */
  claudeParallel?: number;
  /** Which Claude runs to make, in this order (default: all of `CLAUDE_RUN_NAMES`). */
  claudeRuns?: readonly ClaudeRun[];
  onResult?: (result: TaskResult) => void;
  /**
   * A directory of stored indexes for the offline runs (`cacheDirectory`): a first pass builds
   * each checkout's, a second one reads it. Rankings must be the same either way.
   */
  indexDirectory?: string;
}

export interface BenchmarkReport {
  summaries: MethodSummary[];
  /**
   * Tasks not run: their repository's git data is not under `reposDirectory`, or their commit
   * cannot be checked out from it (a mirror that lacks some of its objects).
   */
  skipped: { repo: string; tasks: number; reason: string }[];
  /** Files precision and recall of each judge under other selection flags. */
  operatingPoints: OperatingPoint[];
  results: TaskResult[];
}

/**
 * The offline judge, keeping what the Claude judge's evaluate prompt would carry for each file
 * it judges, to be counted once the run is timed: the offline judge's candidates carry no
 * excerpt, so the one a Claude judge would read is made then.
 */
function recordingJudge(inner: Judge, calls: EvaluateCall[]): Judge {
  return {
    ...inner,
    evaluate: async (task, candidate, context) => {
      calls.push({ task, candidate, overview: context.overview });
      return inner.evaluate(task, candidate, context);
    },
  };
}

interface EvaluateCall {
  task: string;
  candidate: Candidate;
  overview: RepoOverview;
}

const EXCERPT_TOKENS = parseRetrievalOptions({}).excerptTokens;

/** The estimated input tokens of each recorded call, by the path it judged. */
async function tokensByPath(
  calls: readonly EvaluateCall[],
  prompts: Prompts,
  workspace: Workspace,
): Promise<Map<string, number>> {
  const tokens = new Map<string, number>();
  for (const { task, candidate, overview } of calls) {
    const file = workspace.get(candidate.path);
    const excerpt = file
      ? await excerptCandidate(workspace, file, candidate.matches, EXCERPT_TOKENS)
      : {};
    const { shared, perCall } = renderPrompt(
      prompts.evaluate,
      evaluationVariables(task, { ...candidate, ...excerpt }, overview),
    );
    tokens.set(candidate.path, estimateTokens(shared + perCall));
  }
  return tokens;
}

/**
 * A judge's run, and, read off the same run, what a run stopped after its first cycle would have
 * returned: the loop is deterministic and a file's judgement never changes later, so the first
 * cycle's files with their relevances are exactly a one-cycle run's.
 */
async function runJudge(
  method: string,
  task: BenchTask,
  root: string,
  judge: Judge,
  options: Pick<RetrievalOptions, 'history'> & RunOptions,
  prompts: Prompts,
  /** The run's workspace, to count what the offline judge's calls would send a model. */
  workspace?: Workspace,
): Promise<[TaskResult, TaskResult]> {
  const calls: EvaluateCall[] = [];
  const started = performance.now();
  const offline = judge.name === 'heuristic';
  const pack = await iterativeRetrieve(task.problem_statement, {
    root,
    judge: offline ? recordingJudge(judge, calls) : judge,
    ...options,
  });
  const ms = performance.now() - started;
  const tokens = workspace
    ? await tokensByPath(calls, prompts, workspace)
    : new Map<string, number>();
  const sum = (paths: readonly string[]) =>
    paths.reduce((total, path) => total + (tokens.get(path) ?? 0), 0);
  const whole: TaskResult = {
    ...identify(method, task),
    ranked: pack.evaluated.map((file) => file.path),
    relevance: pack.evaluated.map((file) => file.relevance),
    selected: pack.files.map((file) => file.path),
    cycles: pack.trace.length,
    stopReason: pack.stopReason,
    tokens: offline ? sum(calls.map((call) => call.candidate.path)) : totalInputTokens(pack.usage),
    ...(!offline && { usage: pack.usage }),
    ms,
  };
  const first = pack.evaluated.filter((file) => file.cycle === 1);
  const defaults = parseRetrievalOptions({});
  const oneCycle: TaskResult = {
    ...identify(`${method}, 1 cycle`, task),
    ranked: first.map((file) => file.path),
    relevance: first.map((file) => file.relevance),
    selected: selectFiles(first, defaults).core.map((file) => file.path),
    cycles: 1,
    stopReason: pack.trace.length === 1 ? pack.stopReason : 'max-cycles',
    tokens: offline
      ? sum(pack.trace[0]?.evaluated ?? [])
      : totalInputTokens(pack.trace[0]?.usage ?? pack.usage),
    ms: ms / pack.trace.length,
  };
  return [oneCycle, whole];
}

const identify = (method: string, task: BenchTask) => ({
  method,
  task: task.instance_id,
  repo: task.repo,
  language: mainLanguageOf(task.gold_files),
  gold: task.gold_files,
});

export async function runBenchmark(options: BenchmarkOptions): Promise<BenchmarkReport> {
  const prompts = await loadPrompts();
  const results: TaskResult[] = [];
  const record = (result: TaskResult) => {
    results.push(result);
    options.onResult?.(result);
  };
  const skipped = new Map<string, { repo: string; tasks: number; reason: string }>();
  const skip = (repo: string, reason: string) => {
    const entry = skipped.get(`${repo} ${reason}`) ?? { repo, tasks: 0, reason };
    entry.tasks += 1;
    skipped.set(`${repo} ${reason}`, entry);
  };
  const gitDirectories = new Map<string, string | undefined>();
  const ready: {
    task: BenchTask;
    root: string;
    history: { gitDirectory: string; revision: string };
  }[] = [];
  for (const task of options.tasks) {
    if (!gitDirectories.has(task.repo))
      gitDirectories.set(task.repo, await findGitDirectory(options.reposDirectory, task.repo));
    const gitDirectory = gitDirectories.get(task.repo);
    if (gitDirectory === undefined) {
      skip(task.repo, 'no git data');
      continue;
    }
    let root: string;
    try {
      root = await materialise(gitDirectory, task.repo, task.base_commit, options.cacheDirectory);
    } catch {
      skip(task.repo, 'commit cannot be checked out');
      continue;
    }

    // The checkout's own git has no commits: the history is read from the mirror, up to the
    // task's commit.
    const history = { gitDirectory, revision: task.base_commit };
    const workspace = await openWorkspace(root, { maxFileBytes: 1_000_000, maxFiles: 50_000 });
    const baselines: [string, ReadonlySet<FileKind>][] = [
      ['BM25', CODE_KINDS],
      // A stronger variant that borrows this project's idea of what is source code.
      ['BM25, source files only', new Set<FileKind>(['source'])],
    ];
    for (const [method, kinds] of baselines) {
      const started = performance.now();
      const ranked = rankByBm25(workspace, task.problem_statement, kinds);
      record({
        ...identify(method, task),
        ranked,
        ms: performance.now() - started + workspace.readMs,
      });
    }

    for (const result of await runJudge(
      'offline',
      task,
      root,
      createHeuristicJudge(),
      { history, ...(options.indexDirectory && { cacheDirectory: options.indexDirectory }) },
      prompts,
      workspace,
    ))
      record(result);
    ready.push({ task, root, history });
  }

  // The Claude judge after every offline run, so that the offline timings are taken on a quiet
  // machine. Each later run of a task follows the same path as far as the earlier ones went, and
  // the model bridge replays what it has answered.
  const { claude } = options;
  if (claude) {
    const limit = pLimit(options.claudeParallel ?? 1);
    const runs = (options.claudeRuns ?? CLAUDE_RUN_NAMES).map((name) => CLAUDE_RUNS[name]);
    await Promise.all(
      ready.map(({ task, root, history }) =>
        limit(async () => {
          for (const { method, options: given } of runs) {
            const [, whole] = await runJudge(
              method,
              task,
              root,
              await claude(task),
              { history, ...given },
              prompts,
            );
            record(whole);
          }
        }),
      ),
    );
  }
  return {
    summaries: summarise(results),
    skipped: [...skipped.values()],
    operatingPoints: operatingPoints(results),
    results,
  };
}

export function summarise(results: readonly TaskResult[]): MethodSummary[] {
  const methods = [...new Set(results.map((result) => result.method))];
  return methods.map((method) => {
    const rows = results.filter((result) => result.method === method);
    const selected = rows.filter((row) => row.selected !== undefined);
    const summary: MethodSummary = {
      method,
      tasks: rows.length,
      accuracy: Object.fromEntries(
        ACCURACY_KS.map((k) => [k, mean(rows.map((row) => accuracyAt(row.ranked, row.gold, k)))]),
      ) as MethodSummary['accuracy'],
      recallAt5: mean(rows.map((row) => recallAt(row.ranked, row.gold, 5))),
      medianMs: median(rows.map((row) => row.ms)),
    };
    if (selected.length > 0) {
      const scores = selected.map((row) => precisionRecall(row.selected ?? [], row.gold));
      summary.filesPrecision = mean(scores.map((score) => score.precision));
      summary.filesRecall = mean(scores.map((score) => score.recall));
      summary.filesSelected = mean(selected.map((row) => row.selected?.length ?? 0));
      summary.cycles = mean(selected.map((row) => row.cycles ?? 0));
      summary.tokens = mean(selected.map((row) => row.tokens ?? 0));
      summary.stopReasons = {};
      for (const row of selected)
        summary.stopReasons[row.stopReason ?? '?'] =
          (summary.stopReasons[row.stopReason ?? '?'] ?? 0) + 1;
    }
    const used = rows.flatMap((row) => (row.usage ? [row.usage] : []));
    if (used.length > 0) {
      const middle = (of: (usage: UsageTotals) => number) => median(used.map(of));
      summary.usage = {
        calls: middle((usage) => usage.calls),
        inputTokens: middle(totalInputTokens),
        uncachedInputTokens: middle((usage) => usage.inputTokens),
        cacheReadTokens: middle((usage) => usage.cacheReadTokens),
        cacheWriteTokens: middle((usage) => usage.cacheWriteTokens),
        costUsd: middle((usage) => usage.costUsd),
      };
    }
    return summary;
  });
}

/** The summaries as a markdown table: one row per method. */
export function formatTable(summaries: readonly MethodSummary[]): string {
  const header =
    '| method | tasks | Acc@1 | Acc@3 | Acc@5 | Acc@10 | Recall@5 | files precision | files recall | files | cycles | stop reasons | tokens | median time |';
  const rule = `|${' --- |'.repeat(14)}`;
  const rows = summaries.map((summary) =>
    [
      summary.method,
      summary.tasks,
      ...ACCURACY_KS.map((k) => percent(summary.accuracy[k])),
      percent(summary.recallAt5),
      summary.filesPrecision === undefined ? '–' : percent(summary.filesPrecision),
      summary.filesRecall === undefined ? '–' : percent(summary.filesRecall),
      summary.filesSelected === undefined ? '–' : summary.filesSelected.toFixed(1),
      summary.cycles === undefined ? '–' : summary.cycles.toFixed(2),
      summary.stopReasons
        ? Object.entries(summary.stopReasons)
            .map(([reason, count]) => `${reason} ${count}`)
            .join(', ')
        : '–',
      summary.tokens === undefined ? '–' : Math.round(summary.tokens).toLocaleString('en'),
      `${Math.round(summary.medianMs)} ms`,
    ].join(' | '),
  );
  return [header, rule, ...rows.map((row) => `| ${row} |`)].join('\n');
}

/** The model use of the methods that called one, medians per task: a markdown table. */
export function formatUsageTable(summaries: readonly MethodSummary[]): string {
  const rows = summaries.flatMap((summary) => {
    const usage = summary.usage;
    if (!usage) return [];
    const tokens = (count: number) => Math.round(count).toLocaleString('en');
    return [
      `| ${summary.method} | ${summary.tasks} | ${usage.calls} | ${tokens(usage.inputTokens)} | ${tokens(usage.uncachedInputTokens)} | ${tokens(usage.cacheReadTokens)} | ${tokens(usage.cacheWriteTokens)} | $${usage.costUsd.toFixed(4)} | ${(summary.medianMs / 1000).toFixed(1)} s |`,
    ];
  });
  if (rows.length === 0) return '';
  return [
    '| method | tasks | calls | input tokens (all) | uncached | cache read | cache write | cost | wall time |',
    `|${' --- |'.repeat(9)}`,
    ...rows,
  ].join('\n');
}
