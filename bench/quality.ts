import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { connectClaudeJudge } from '../src/judges/claude/connect.js';
import { formatOperatingPoints } from './operating-points.js';
import { formatTable, runBenchmark, type TaskResult } from './run-benchmark.js';
import { accuracyAt } from './metrics.js';
import { readTasks } from './tasks.js';

const USAGE = `Usage: npm run bench:quality -- --tasks FILE --repos DIR [options]

  --tasks FILE     JSON Lines tasks (default: ../shared/bench/tasks.dev.jsonl)
  --repos DIR      git data of the repositories: DIR/owner+name or DIR/owner/name, each a bare
                   mirror, a clone, or a folder with a bare mirror named repo
  --cache DIR      where trees are extracted at each task's commit, reused between runs
                   (default: $TMPDIR/iterative-retrieval-bench)
  --filter TEXT    only tasks whose id contains TEXT
  --limit N        only the first N tasks
  --out FILE       the JSON report (default: bench/reports/quality.json)

With ANTHROPIC_API_KEY set, the Claude judge is measured too.`;

const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: '../shared/bench/tasks.dev.jsonl' },
    repos: { type: 'string' },
    cache: { type: 'string', default: join(tmpdir(), 'iterative-retrieval-bench') },
    filter: { type: 'string' },
    limit: { type: 'string' },
    out: { type: 'string', default: 'bench/reports/quality.json' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help || !values.repos) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 2);
}

let tasks = await readTasks(values.tasks);
if (values.filter) tasks = tasks.filter((task) => task.instance_id.includes(values.filter ?? ''));
if (values.limit) tasks = tasks.slice(0, Number(values.limit));
const apiKey = process.env.ANTHROPIC_API_KEY?.trim();

const hit = (result: TaskResult) => (accuracyAt(result.ranked, result.gold, 5) ? 'hit' : 'miss');
const report = await runBenchmark({
  tasks,
  reposDirectory: resolve(values.repos),
  cacheDirectory: resolve(values.cache),
  ...(apiKey && {
    claude: () =>
      connectClaudeJudge({ apiKey, baseURL: process.env.ANTHROPIC_BASE_URL?.trim() || undefined }),
  }),
  onResult: (result) =>
    console.error(
      `${result.task} ${result.method}: Acc@5 ${hit(result)} (${Math.round(result.ms)} ms)`,
    ),
});

console.log(formatTable(report.summaries));
console.log(`\nThe judges' \`files\` under other selection flags:\n`);
console.log(formatOperatingPoints(report.operatingPoints));
const out = resolve(values.out);
await mkdir(dirname(out), { recursive: true });
// The metrics look at the first 10 of each ranking; the report keeps 20 to show what came next.
const results = report.results.map((result) => ({
  ...result,
  ranked: result.ranked.slice(0, 20),
  relevance: result.relevance?.slice(0, 20),
}));
const saved = {
  date: new Date().toISOString(),
  tasks: values.tasks,
  summaries: report.summaries,
  operatingPoints: report.operatingPoints,
  results,
};
await writeFile(out, `${JSON.stringify(saved, null, 2)}\n`);
console.error(`report: ${out}`);
