import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatGroupTable } from '../../bench/group-table.js';
import { formatOperatingPoints } from '../../bench/operating-points.js';
import { formatTable, formatUsageTable, runBenchmark } from '../../bench/run-benchmark.js';
import { createClaudeJudge } from '../../src/judges/claude/claude-judge.js';
import { loadPrompts } from '../../src/prompts.js';
import { answer, mockMessages, testClient, useMockApi } from '../support/msw-anthropic.js';
import type { BenchTask } from '../../bench/tasks.js';
import { createRepository } from '../support/repository-factory.js';

// A small repository made here, committed with git, so that the harness runs end to end in CI
// without any downloaded repository.
const FILES = {
  'src/cart/discount.ts':
    'export function applyDiscount(total: number, code: string): number {\n  return code === "HALF" ? total / 2 : total;\n}\n',
  'src/cart/cart.ts':
    "import { applyDiscount } from './discount.js';\nexport function checkout(total: number, code: string) {\n  return applyDiscount(total, code);\n}\n",
  'src/users/profile.ts':
    'export function displayName(first: string, last: string) {\n  return `${first} ${last}`;\n}\n',
  'test/discount.test.ts':
    "import { applyDiscount } from '../src/cart/discount.js';\napplyDiscount(10, 'HALF');\n",
  'README.md': '# shop\nA cart with discounts.\n',
};

const server = useMockApi();
let repos: { root: string; remove: () => Promise<void> };
let cache: string;
let tasks: BenchTask[];

beforeAll(async () => {
  repos = await createRepository(
    Object.fromEntries(
      Object.entries(FILES).map(([path, content]) => [`acme+shop/${path}`, content]),
    ),
  );
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', join(repos.root, 'acme+shop'), ...args], {
      encoding: 'utf8',
    }).trim();
  git('init', '-q');
  git('add', '.');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-qm', 'shop');
  cache = await mkdtemp(join(tmpdir(), 'bench-cache-'));
  tasks = [
    {
      instance_id: 'acme__shop-1',
      repo: 'acme/shop',
      base_commit: git('rev-parse', 'HEAD'),
      problem_statement:
        'applyDiscount gives the wrong total for the HALF discount code at checkout',
      gold_files: ['src/cart/discount.ts'],
    },
  ];
});
afterAll(async () => {
  await repos.remove();
  await rm(cache, { recursive: true, force: true });
});

describe('the quality benchmark (smoke)', () => {
  it('materialises the commit, runs every method and scores them', async () => {
    const report = await runBenchmark({ tasks, reposDirectory: repos.root, cacheDirectory: cache });
    expect(report.summaries.map((summary) => summary.method)).toEqual([
      'BM25',
      'BM25, source files only',
      'offline, 1 cycle',
      'offline',
    ]);
    const offline = report.summaries.find((summary) => summary.method === 'offline');

    expect(offline?.accuracy[1]).toBe(1);
    expect(offline?.filesRecall).toBe(1);
    expect(offline?.tokens).toBeGreaterThan(0);
    expect(report.results.find((result) => result.method === 'BM25')?.ranked).toContain(
      'test/discount.test.ts',
    );
    expect(
      report.results.find((result) => result.method === 'BM25, source files only')?.ranked,
    ).not.toContain('test/discount.test.ts');
    const table = formatTable(report.summaries);
    expect(table.split('\n')).toHaveLength(2 + report.summaries.length);
    expect(table).toMatch(/\| offline \| 1 \| 100\.0 \|/);

    // The default selection, re-applied to the ranked relevances, is what the run returned.
    const points = report.operatingPoints.filter((point) => point.method === 'offline');
    expect(points[0]).toMatchObject({
      precision: offline?.filesPrecision,
      recall: offline?.filesRecall,
      files: offline?.filesSelected,
    });
    expect(points.find((point) => point.flags === '--max-files 1')).toMatchObject({
      precision: 1,
      recall: 1,
      files: 1,
    });
    expect(report.operatingPoints.some((point) => point.method.startsWith('BM25'))).toBe(false);
    expect(formatOperatingPoints(report.operatingPoints)).toContain(
      '| offline | `--max-files 1` | 100.0 | 100.0 | 1.0 |',
    );
    // The checked-out tree is kept for the next run.
    expect(await readdir(join(cache, 'acme+shop'))).toEqual([tasks[0]?.base_commit]);
  });

  it('finds a repository whatever the case of its name, and skips and counts one it lacks', async () => {
    const [first] = tasks;
    if (!first) throw new Error('no task');
    const report = await runBenchmark({
      tasks: [
        { ...first, repo: 'ACME/Shop' },
        { ...first, instance_id: 'gone__repo-1', repo: 'gone/repo' },
        // A commit the mirror lacks, as a mirror without some of its objects does.
        { ...first, instance_id: 'acme__shop-2', base_commit: 'deadbeef' },
      ],
      reposDirectory: repos.root,
      cacheDirectory: cache,
    });
    expect(report.skipped).toEqual([
      { repo: 'gone/repo', tasks: 1, reason: 'no git data' },
      { repo: 'acme/shop', tasks: 1, reason: 'commit cannot be checked out' },
    ]);
    expect(report.summaries.find((summary) => summary.method === 'offline')?.tasks).toBe(1);
    expect(report.results[0]).toMatchObject({ repo: 'ACME/Shop', language: 'TypeScript' });

    const table = formatGroupTable(report.results, (result) => result.language).split('\n');
    expect(table[0]).toBe(
      '| group | tasks | BM25 Acc@1 | BM25 Acc@5 | BM25 Acc@10 | offline Acc@1 | offline Acc@5 | offline Acc@10 | Δ Acc@5 | files precision | files recall |',
    );
    // BM25 ranks the test that calls applyDiscount first; the offline judge, the source.
    expect(table.slice(2)).toEqual([
      '| TypeScript | 1 | 0.0 | 100.0 | 100.0 | 100.0 | 100.0 | 100.0 | 0.0 | 50.0 | 100.0 |',
      '| **total** | 1 | 0.0 | 100.0 | 100.0 | 100.0 | 100.0 | 100.0 | 0.0 | 50.0 | 100.0 |',
    ]);
  });

  it('measures the Claude judge after the offline runs: with its stop conditions, then every cycle', async () => {
    const query = { patterns: ['**/*'], keywords: ['applyDiscount'], excludes: [], focusAreas: [] };
    const received = mockMessages(server, ({ kind, path, request }) =>
      answer(
        kind === 'evaluate'
          ? {
              relevance: path === 'src/cart/discount.ts' ? 0.9 : 0.3,
              reason: 'r',
              missingContext: [],
            }
          : kind === 'refine'
            ? { ...query, verdict: { sufficient: true, missing: [], reason: 'found' } }
            : query,
        { model: request.model },
      ),
    );
    const prompts = await loadPrompts();
    const judged: string[] = [];
    const report = await runBenchmark({
      tasks,
      reposDirectory: repos.root,
      cacheDirectory: cache,
      claude: async (task) => {
        judged.push(task.instance_id);
        return createClaudeJudge({ client: testClient(), prompts });
      },
      claudeParallel: 2,
    });
    expect(judged).toEqual(['acme__shop-1', 'acme__shop-1', 'acme__shop-1']);
    const byMethod = (method: string) => report.results.find((result) => result.method === method);
    expect(byMethod('claude')).toMatchObject({ stopReason: 'sufficient', cycles: 1 });
    expect(byMethod('claude, every cycle')?.stopReason).not.toBe('sufficient');
    expect(byMethod('claude')?.ranked[0]).toBe('src/cart/discount.ts');
    // Every call is counted, and the usage table shows each Claude method's medians.
    const calls = report.results.reduce((sum, result) => sum + (result.usage?.calls ?? 0), 0);
    expect(calls).toBe(received.length);
    const usage = formatUsageTable(report.summaries).split('\n');
    expect(usage).toHaveLength(5);
    expect(usage[2]).toMatch(/^\| claude \| 1 \| \d+ \| [\d,]+ \|/);
    expect(usage[3]).toMatch(/^\| claude, every cycle \| 1 \|/);
    expect(usage[4]).toMatch(/^\| claude, seed rule \| 1 \|/);
  });
});
