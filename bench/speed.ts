import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { median } from './metrics.js';
import { runTimed, type Finished } from './timed-process.js';
import { bareRepositories, treeOfSize } from './speed-trees.js';
import { residentCall, type ResidentCall } from './mcp-session.js';
import { NEW_TASKS, residentPeakKib, residentRun, untilResident } from './resident-process.js';

const USAGE = `Usage: npm run bench:speed -- (--repos DIR | --trees DIRS) [options]

  --repos DIR     bare git repositories (DIR/owner+name/repo or DIR/owner+name) to build trees
                  from: about --sizes files each, committed, kept in --cache
  --trees DIRS    trees to measure instead, comma-separated
  --sizes LIST    tree sizes in files (default: 1000,10000,50000,200000)
  --runs N        measured rounds after one warm-up round (default: 5)
  --task TEXT     the task searched for (default: a generic bug report)
  --cache DIR     where built trees are kept (default: the system's temporary directory)
  --cli FILE      the CLI to time (default: dist/bin/main.js, the package's bin; npm run build first)
  --out FILE      the JSON report (default: bench/reports/speed.json)

First each tree's stored index is built (\`iterative-retrieval index\`, timed), and a run with
\`--resident\` starts each tree's resident process. Then each round runs, on each tree, the CLI
with the offline judge cold (\`--no-cache\`: every file read) and warm (reading the index), the
second of two calls to one MCP server (\`iterative-retrieval mcp\`: resident, its workspace kept
from the first call, the same task), the CLI with \`--resident\` on a new task (answered by the
resident process), \`rg -l\` given the keywords the CLI searched for (when ripgrep is installed)
and \`git ls-files\`, one after the other, so a busy machine slows all of them alike. A warm run
or resident call that finds other files than the cold run, or a \`--resident\` run other than a
warm run of its task, stops the benchmark. Wall times and peak RSS (from /usr/bin/time, when present) are
medians over the rounds; the phase timings are the CLI's own (\`timings\` in its JSON).`;

const { values } = parseArgs({
  options: {
    repos: { type: 'string' },
    trees: { type: 'string' },
    sizes: { type: 'string', default: '1000,10000,50000,200000' },
    runs: { type: 'string', default: '5' },
    task: {
      type: 'string',
      default: 'Crash with a null pointer when the configuration file is empty',
    },
    cache: { type: 'string', default: join(tmpdir(), 'iterative-retrieval-speed') },
    cli: { type: 'string', default: 'dist/bin/main.js' },
    out: { type: 'string', default: 'bench/reports/speed.json' },
    help: { type: 'boolean', short: 'h' },
  },
});
const runs = Number(values.runs);
const sizes = values.sizes.split(',').map(Number);
if (
  values.help ||
  (!values.repos && !values.trees) ||
  !Number.isInteger(runs) ||
  runs < 1 ||
  sizes.some((size) => !Number.isInteger(size) || size < 1)
) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 2);
}

/** Timed with its peak memory. */
const timed = (command: string, args: readonly string[]) => runTimed(command, args, { peak: true });

interface Pack {
  stats: { filesConsidered: number };
  files: { path: string }[];
  evaluated: { path: string; relevance: number }[];
  timings: Record<'totalMs' | 'readMs' | 'dispatchMs' | 'evaluateMs' | 'refineMs', number>;
  trace: { query: { keywords: string[] } }[];
}

/** What a run found, without its timings. */
const rankingOf = (pack: Pack) => ({
  evaluated: pack.evaluated.map(({ path, relevance }) => [path, relevance]),
  queries: pack.trace.map((cycle) => cycle.query),
});

const cli = resolve(values.cli);
/** The CLI as a command line; the sources themselves run too, for a check without a build. */
const command = [process.execPath, ...(cli.endsWith('.ts') ? ['--import', 'tsx'] : []), cli];
async function runCli(args: readonly string[]): Promise<Finished> {
  const [file = '', ...prefix] = command;
  const finished = await timed(file, [...prefix, ...args]);
  // Exit 1 is an answer too: nothing relevant found (a tiny tree, a task it does not touch).
  if (finished.code !== 0 && finished.code !== 1)
    throw new Error(
      `the CLI failed (exit ${finished.code}): ${args.join(' ')}: ${finished.stderr}`,
    );
  return finished;
}

/** Stored indexes of the warm runs, built before the rounds; cold runs use none. */
const indexes = await mkdtemp(join(tmpdir(), 'iterative-retrieval-speed-indexes-'));
// Removed however the benchmark ends: the resident processes stop once their sockets are gone.
process.on('exit', () => rmSync(indexes, { recursive: true, force: true }));

async function runTool(
  tree: string,
  cache: 'cold' | 'warm',
  task = values.task,
): Promise<{ finished: Finished; pack: Pack }> {
  const finished = await runCli([
    task,
    '--root',
    tree,
    '--judge',
    'heuristic',
    '--format',
    'json',
    ...(cache === 'cold' ? ['--no-cache'] : ['--cache-dir', indexes]),
  ]);
  return { finished, pack: JSON.parse(finished.stdout) as Pack };
}

const hasRipgrep = (await timed('rg', ['--version']).catch(() => undefined))?.code === 0;

const trees = values.trees
  ? values.trees.split(',').map((tree) => resolve(tree))
  : await (async () => {
      const repositories = await bareRepositories(resolve(values.repos ?? '.'));
      const built: string[] = [];
      for (const size of sizes) {
        console.error(`building a tree of ${size} files…`);
        built.push(await treeOfSize(size, repositories, resolve(values.cache)));
      }
      return built;
    })();

interface Samples {
  tree: string;
  filesOnDisk: number;
  filesRead: number;
  tool: Finished[];
  warm: Finished[];
  resident: ResidentCall[];
  /** The CLI with `--resident`, a new task each round. */
  residentCli: Finished[];
  /** The peak memory of the resident process serving the tree, at the end (KiB). */
  residentProcessKib: number | undefined;
  /** `iterative-retrieval index` on the tree, with no index before. */
  indexBuild: Finished | undefined;
  phases: Pack['timings'][];
  ripgrep: Finished[];
  gitListing: Finished[];
}

const samples: Samples[] = [];
for (const tree of trees) {
  const listing = await timed('git', ['-C', tree, 'ls-files', '-co', '--exclude-standard']);
  const filesOnDisk = listing.code === 0 ? listing.stdout.split('\n').filter(Boolean).length : 0;
  samples.push({
    tree,
    filesOnDisk,
    filesRead: 0,
    tool: [],
    warm: [],
    resident: [],
    residentCli: [],
    residentProcessKib: undefined,
    indexBuild: undefined,
    phases: [],
    ripgrep: [],
    gitListing: [],
  });
}
for (const sample of samples) {
  console.error(`indexing ${sample.tree}…`);
  sample.indexBuild = await runCli(['index', '--root', sample.tree, '--cache-dir', indexes]);
  console.error(`starting the resident process on ${sample.tree}…`);
  await untilResident(command, sample.tree, indexes);
  const [task = ''] = NEW_TASKS;
  const answered = await residentRun(command, sample.tree, indexes, task);
  const warm = await runTool(sample.tree, 'warm', task);
  if (
    JSON.stringify(rankingOf(JSON.parse(answered.stdout) as Pack)) !==
    JSON.stringify(rankingOf(warm.pack))
  )
    throw new Error(`the resident process on ${sample.tree} found other files than a warm run`);
}
for (let round = 0; round <= runs; round++) {
  for (const sample of samples) {
    const { finished, pack } = await runTool(sample.tree, 'cold');
    const warm = await runTool(sample.tree, 'warm');
    if (JSON.stringify(rankingOf(warm.pack)) !== JSON.stringify(rankingOf(pack)))
      throw new Error(`the warm run on ${sample.tree} found other files than the cold one`);
    const resident = await residentCall(command, sample.tree, indexes, values.task);
    if (JSON.stringify(resident.files) !== JSON.stringify(pack.files.map((file) => file.path)))
      throw new Error(`the resident call on ${sample.tree} found other files than the cold run`);
    const residentCli = await residentRun(
      command,
      sample.tree,
      indexes,
      NEW_TASKS[round % NEW_TASKS.length] ?? '',
    );
    if (!residentCli.answered)
      throw new Error(`the resident process on ${sample.tree} did not answer`);
    const keywords = [...new Set(pack.trace.flatMap((cycle) => cycle.query.keywords))];
    const ripgrep = hasRipgrep
      ? await timed('rg', [
          '-l',
          '-i',
          '-F',
          ...keywords.flatMap((word) => ['-e', word]),
          sample.tree,
        ])
      : undefined;
    const gitListing = await timed('git', [
      '-C',
      sample.tree,
      'ls-files',
      '-co',
      '--exclude-standard',
    ]);
    console.error(
      `round ${round}: ${sample.tree}: cold ${Math.round(finished.ms)} ms, warm ${Math.round(warm.finished.ms)} ms, resident ${Math.round(resident.ms)} ms, --resident ${Math.round(residentCli.finished.ms)} ms`,
    );
    // Round 0 warms the file cache and is not counted.
    if (round === 0) continue;
    sample.filesRead = pack.stats.filesConsidered;
    sample.tool.push(finished);
    sample.warm.push(warm.finished);
    sample.resident.push(resident);
    sample.residentCli.push(residentCli.finished);
    sample.phases.push(pack.timings);
    if (ripgrep) sample.ripgrep.push(ripgrep);
    sample.gitListing.push(gitListing);
  }
}

for (const sample of samples) sample.residentProcessKib = await residentPeakKib(sample.tree);

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
const mib = (runs: { peakKib?: number | undefined }[]) => {
  const peaks = runs.flatMap((run) => (run.peakKib === undefined ? [] : [run.peakKib]));
  return peaks.length ? `${Math.round(median(peaks) / 1024)} MiB` : '–';
};
const wall = (runs: Finished[]) => median(runs.map((run) => run.ms));
const rows = samples.map((sample) => {
  const tool = wall(sample.tool);
  const warm = wall(sample.warm);
  const resident = median(sample.resident.map((call) => call.ms));
  const residentCli = wall(sample.residentCli);
  const ripgrep = sample.ripgrep.length ? wall(sample.ripgrep) : undefined;
  const phase = (name: keyof Pack['timings']) =>
    Math.round(median(sample.phases.map((timings) => timings[name])));
  return {
    tree: sample.tree,
    filesOnDisk: sample.filesOnDisk,
    filesRead: sample.filesRead,
    toolMs: tool,
    ripgrepMs: ripgrep,
    ratio: ripgrep ? tool / ripgrep : undefined,
    warmMs: warm,
    warmRatio: ripgrep ? warm / ripgrep : undefined,
    residentMs: resident,
    residentRatio: ripgrep ? resident / ripgrep : undefined,
    residentCliMs: residentCli,
    residentCliRatio: ripgrep ? residentCli / ripgrep : undefined,
    indexBuildMs: sample.indexBuild?.ms,
    gitListingMs: wall(sample.gitListing),
    peak: mib(sample.tool),
    warmPeak: mib(sample.warm),
    residentPeak: mib(sample.resident),
    residentCliPeak: mib(sample.residentCli),
    residentProcessPeak: mib([{ peakKib: sample.residentProcessKib }]),
    phases: { read: phase('readMs'), dispatch: phase('dispatchMs'), evaluate: phase('evaluateMs') },
  };
});

const ratio = (value: number | undefined) => (value === undefined ? '–' : `${value.toFixed(1)}×`);
const table = [
  '| files on disk / read | cold | `rg -l` | ratio | warm | ratio | resident | ratio | `--resident`, new task | ratio | index build | `git ls-files` | peak RSS cold / warm / resident | `--resident` run / its process | cold read / dispatch / evaluate |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ...rows.map(
    (row) =>
      `| ${row.filesOnDisk.toLocaleString('en')} / ${row.filesRead.toLocaleString('en')} | ${seconds(row.toolMs)} | ${row.ripgrepMs === undefined ? '–' : seconds(row.ripgrepMs)} | ${ratio(row.ratio)} | ${seconds(row.warmMs)} | ${ratio(row.warmRatio)} | ${seconds(row.residentMs)} | ${ratio(row.residentRatio)} | ${seconds(row.residentCliMs)} | ${ratio(row.residentCliRatio)} | ${row.indexBuildMs === undefined ? '–' : seconds(row.indexBuildMs)} | ${seconds(row.gitListingMs)} | ${row.peak} / ${row.warmPeak} / ${row.residentPeak} | ${row.residentCliPeak} / ${row.residentProcessPeak} | ${row.phases.read} / ${row.phases.dispatch} / ${row.phases.evaluate} ms |`,
  ),
].join('\n');
console.log(`${runs} rounds, medians${hasRipgrep ? '' : '; ripgrep is not installed'}\n\n${table}`);
await mkdir(dirname(values.out), { recursive: true });
await writeFile(
  values.out,
  JSON.stringify({ date: new Date().toISOString(), runs, rows }, null, 2),
);
