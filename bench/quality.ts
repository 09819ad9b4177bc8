import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { connectClaudeJudge } from '../src/judges/claude/connect.js';
import { formatGroupTable } from './group-table.js';
import { findGitDirectory } from './repositories.js';
import { accuracyAt } from './metrics.js';
import { formatOperatingPoints, operatingPoints } from './operating-points.js';
import {
  CLAUDE_RUN_NAMES,
  type ClaudeRun,
  formatTable,
  formatUsageTable,
  runBenchmark,
  summarise,
} from './run-benchmark.js';
import type { TaskResult } from './task-result.js';
import { sampleByRepository } from './sample.js';
import { sideOf, splitRepositories, type Split } from './split.js';
import { readTasks } from './tasks.js';

const SHARED = '../shared/bench';
const USAGE = `Usage: npm run bench:quality -- --repos DIR [options]

  --tasks FILES    JSON Lines task files, comma-separated (default: the three files in
                   ${SHARED})
  --repos DIR      git data of the repositories: DIR/owner+name or DIR/owner/name, each a bare
                   mirror, a clone, or a folder with a bare mirror named repo; tasks whose
                   repository is not there are skipped and counted
  --split SIDE     held-out, tuning or all (default: all); see bench/split.ts
  --sample N       N tasks, spread evenly over the repositories (a quick run)
  --filter TEXT    only tasks whose id contains TEXT
  --cache DIR      where trees are checked out at each task's commit, reused between runs
                   (default: $TMPDIR/iterative-retrieval-bench)
  --index-dir DIR  stored indexes for the offline runs: the first run builds each checkout's,
                   a later one with the same DIR reads it (the rankings must not change)
  --out FILE       the JSON report (default: bench/reports/quality.json)
  --bridge         ANTHROPIC_BASE_URL is the model bridge (../shared/bench/model-bridge): each
                   task's requests go to its own group (BASE/t/<task>), and no call times out
  --parallel N     Claude runs of N tasks at once (default 1; with the bridge, enough to keep
                   its stand-ins busy)
  --claude-runs L  which Claude runs to make, comma-separated (default: all three): default,
                   every-cycle, seed-rule

The split is made over all tasks of the files given, before any filter or sample. With
ANTHROPIC_API_KEY set, the Claude judge is measured too, after the offline runs: with its
default stop conditions (\`claude\`), for every cycle (\`claude, every cycle\`) and with the
seed's rule (\`claude, seed rule\`: --stop-when min-files).`;

const { values } = parseArgs({
  options: {
    tasks: {
      type: 'string',
      default: ['dev', 'multilingual', 'python']
        .map((name) => `${SHARED}/tasks.${name}.jsonl`)
        .join(','),
    },
    repos: { type: 'string' },
    split: { type: 'string', default: 'all' },
    sample: { type: 'string' },
    filter: { type: 'string' },
    cache: { type: 'string', default: join(tmpdir(), 'iterative-retrieval-bench') },
    out: { type: 'string', default: 'bench/reports/quality.json' },
    bridge: { type: 'boolean', default: false },
    parallel: { type: 'string', default: '1' },
    'claude-runs': { type: 'string', default: CLAUDE_RUN_NAMES.join(',') },
    'index-dir': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
const claudeRuns = values['claude-runs'].split(',').filter(Boolean);
const sides: Split[] = values.split === 'all' ? ['held-out', 'tuning'] : [values.split as Split];
const isClaudeRun = (name: string): name is ClaudeRun =>
  (CLAUDE_RUN_NAMES as readonly string[]).includes(name);
if (
  values.help ||
  !values.repos ||
  !['all', 'held-out', 'tuning'].includes(values.split) ||
  !claudeRuns.every(isClaudeRun)
) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 2);
}

const files = values.tasks.split(',').filter(Boolean);
const all = (
  await Promise.all(
    files.map(async (file) =>
      (await readTasks(file)).map((task) => ({ ...task, file: basename(file) })),
    ),
  )
).flat();
const split = splitRepositories(all);
let tasks = all.filter((task) => sides.includes(sideOf(split, task.repo)));
if (values.filter) tasks = tasks.filter((task) => task.instance_id.includes(values.filter ?? ''));
// Repositories that could not be fetched are counted, and the sample is drawn from the others.
const reposDirectory = resolve(values.repos);
const present = new Map<string, boolean>();
for (const repo of new Set(tasks.map((task) => task.repo)))
  present.set(repo, (await findGitDirectory(reposDirectory, repo)) !== undefined);
const missing = tasks.filter((task) => !present.get(task.repo));
tasks = tasks.filter((task) => present.get(task.repo));
if (values.sample) tasks = sampleByRepository(tasks, Number(values.sample));
const apiKey = process.env.ANTHROPIC_API_KEY?.trim();
const baseURL = process.env.ANTHROPIC_BASE_URL?.trim().replace(/\/+$/, '') || undefined;
const parallel = Number(values.parallel);
if (!Number.isInteger(parallel) || parallel < 1 || (values.bridge && !baseURL)) {
  console.error(
    values.bridge ? '--bridge needs ANTHROPIC_BASE_URL' : '--parallel must be a whole number ≥ 1',
  );
  process.exit(2);
}
// A stand-in answers in seconds to minutes, depending on how many requests wait: no time limit.
const BRIDGE_TIMEOUT_MS = 6 * 60 * 60 * 1000;

const hit = (result: TaskResult) => (accuracyAt(result.ranked, result.gold, 5) ? 'hit' : 'miss');
const report = await runBenchmark({
  tasks,
  reposDirectory,
  cacheDirectory: resolve(values.cache),
  ...(values['index-dir'] && { indexDirectory: resolve(values['index-dir']) }),
  ...(apiKey && {
    claude: (task) =>
      connectClaudeJudge({
        apiKey,
        ...(values.bridge
          ? {
              baseURL: `${baseURL}/t/${encodeURIComponent(task.instance_id)}`,
              timeoutMs: BRIDGE_TIMEOUT_MS,
              callTimeoutMs: BRIDGE_TIMEOUT_MS,
            }
          : { baseURL }),
      }),
    claudeParallel: parallel,
    claudeRuns: claudeRuns.filter(isClaudeRun),
  }),
  onResult: (result) =>
    console.error(
      `${result.task} ${result.method}: Acc@5 ${hit(result)} (${Math.round(result.ms)} ms)`,
    ),
});

const judges = [...new Set(report.results.map((result) => result.method))].filter(
  (method) =>
    !method.startsWith('BM25') && method !== 'offline, 1 cycle' && !method.startsWith('claude, '),
);
for (const side of sides) {
  const results = report.results.filter((result) => sideOf(split, result.repo) === side);
  if (results.length === 0) continue;
  const count = (of: (result: TaskResult) => string) => new Set(results.map(of)).size;
  console.log(
    `\n## ${side} repositories (${count((result) => result.task)} tasks, ${count((result) => result.repo)} repositories)\n`,
  );
  const summaries = summarise(results);
  console.log(formatTable(summaries));
  const usage = formatUsageTable(summaries);
  if (usage) console.log(`\nModel use, medians per task:\n\n${usage}`);
  for (const judge of judges) {
    console.log(`\nBy language, ${judge} beside BM25:\n`);
    console.log(formatGroupTable(results, (result) => result.language, judge));
    console.log(`\nBy repository, ${judge} beside BM25:\n`);
    console.log(formatGroupTable(results, (result) => result.repo, judge));
  }
  console.log(`\nThe judges' \`files\` under other selection flags:\n`);
  console.log(formatOperatingPoints(operatingPoints(results)));
}
const skipped = [
  ...missing.map((task) => ({ repo: task.repo, reason: 'no git data under --repos' })),
  ...report.skipped.flatMap((entry) =>
    Array.from({ length: entry.tasks }, () => ({ repo: entry.repo, reason: entry.reason })),
  ),
];
if (skipped.length > 0) {
  const counts = new Map<string, number>();
  for (const { repo, reason } of skipped)
    counts.set(`${repo}: ${reason}`, (counts.get(`${repo}: ${reason}`) ?? 0) + 1);
  console.log(
    `\nSkipped ${skipped.length} tasks: ${[...counts].map(([what, count]) => `${what} (${count})`).join('; ')}`,
  );
}

const out = resolve(values.out);
await mkdir(dirname(out), { recursive: true });
// The metrics look at the first 10 of each ranking; the report keeps 20 to show what came next.
const results = report.results.map((result) => ({
  ...result,
  split: sideOf(split, result.repo),
  ranked: result.ranked.slice(0, 20),
  relevance: result.relevance?.slice(0, 20),
}));
const saved = {
  date: new Date().toISOString(),
  tasks: files,
  skipped,
  summaries: report.summaries,
  operatingPoints: report.operatingPoints,
  results,
};
await writeFile(out, `${JSON.stringify(saved, null, 2)}\n`);
console.error(`report: ${out}`);
