import type { Logger } from 'pino';
import { z } from 'zod';
import { parseOptions } from './parse-options.js';
import { globProblem } from './repository/glob-matcher.js';
import type { Judge } from './judges/judge.js';
import type { ProgressEvent } from './loop/progress.js';
import type { WorkspaceCache } from './workspace-cache.js';
import {
  DEFAULT_STOP_WHEN,
  STOP_CONDITION_NAMES,
  type StopCondition,
} from './loop/stop-conditions.js';

const isJudge = (value: unknown): value is Judge =>
  typeof value === 'object' &&
  value !== null &&
  ['initialQuery', 'evaluate', 'refine'].every(
    (method) => typeof (value as Record<string, unknown>)[method] === 'function',
  );

export const DEFAULT_CANDIDATES_PER_CYCLE = 30;

/** The longest time limit accepted: a day, far inside what a timer can count (about 24.8 days). */
export const MAX_TIMEOUT_SECONDS = 86_400;

/** The most judge calls in flight: beyond this, more calls only run into the API's rate limits. */
export const MAX_CONCURRENCY = 64;

/** The most core files: past this a pack is no longer a selection, and a hand-over cannot hold it. */
export const MAX_FILES = 100;

/** The most related files: each is a line of the hand-over, and a subagent reads them all. */
export const MAX_RELATED = 50;

/** A glob as the search reads them (src/repository/linear-glob.ts): in linear time. */
const globSchema = z
  .string()
  .min(1)
  .superRefine((glob, context) => {
    const problem = globProblem(glob);
    if (problem !== undefined)
      context.addIssue({
        code: 'custom',
        message: `must be a glob read in linear time: ${problem}`,
      });
  });

/** Options of `iterativeRetrieve`. Every field is optional; defaults are documented on each. */
export const retrievalOptionsSchema = z
  .object({
    /** Directory to search. Default: the current directory. */
    root: z.string().min(1).default('.'),
    /** The judge. Default: the offline heuristic judge. */
    judge: z
      .custom<Judge>(isJudge, 'must be a judge with initialQuery, evaluate and refine')
      .optional(),
    /** Most DISPATCH → EVALUATE → REFINE cycles. Default 3. */
    maxCycles: z.int().min(1).max(10).default(3),
    /** Relevance at which a file counts as highly relevant for the stop conditions. Default 0.7. */
    threshold: z.number().min(0).max(1).default(0.7),
    /**
     * When the run stops before `maxCycles`: the first condition met ends it. Each is a name —
     * `sufficient` (the refiner judged the context sufficient and no highly relevant file's gap
     * is unsearched), `no-new-relevant` (a cycle after the first added no highly relevant file),
     * `min-files` (`minFiles` highly relevant files are held and no such gap is open: the seed's
     * rule) — or a function of the run so far (see `LoopSnapshot`). An empty list runs every
     * cycle. Default `['sufficient', 'no-new-relevant']`.
     */
    stopWhen: z
      .array(
        z.union([
          z.enum(STOP_CONDITION_NAMES),
          z.custom<StopCondition>((value) => typeof value === 'function', 'must be a function'),
        ]),
      )
      .default([...DEFAULT_STOP_WHEN]),
    /** Highly relevant files the `min-files` stop condition waits for. Default 3. */
    minFiles: z.int().min(1).default(3),
    /**
     * Lowest relevance a file needs to be in the pack at all: in `related`, or in `files` as the
     * best file when none reaches `coreRelevance`. Default 0.5.
     */
    minRelevance: z.number().min(0).max(1).default(0.5),
    /**
     * Lowest relevance of a core file (`files`, handed over with its content) other than the best
     * one, which is always core when it reaches `minRelevance`. Default 0.8: what implements the task.
     */
    coreRelevance: z.number().min(0).max(1).default(0.8),
    /** Most core files (`files`). Default 5: few excellent files beat many mediocre ones. */
    maxFiles: z.int().min(1).max(MAX_FILES).default(5),
    /** Most related files (`related`: paths with one-line reasons, no content), 0 to 50. Default 10. */
    maxRelated: z.int().min(0).max(MAX_RELATED).default(10),
    /** Most candidates judged per cycle (the best by lexical rank). Default: the judge's own (30 offline, 12 with Claude). */
    maxCandidatesPerCycle: z.int().min(1).optional(),
    /** Token budget of each candidate's excerpt. Default 600. */
    excerptTokens: z.int().min(50).default(600),
    /** Most judge calls in flight at once, 1 to 64. Default 8. */
    concurrency: z.int().min(1).max(MAX_CONCURRENCY).default(8),
    /** Extra globs never to consider, on top of `.gitignore` rules and the default excludes. */
    excludes: z.array(globSchema).default([]),
    /** Globs of secret-looking files (`.env`, keys, credentials) to allow as candidates; their excerpts are still redacted. Default: none. */
    allowSecretFiles: z.array(globSchema).default([]),
    /**
     * Use the repository's git history: files changed by past commits whose messages read like the
     * task rank higher (offline judge). `true` reads the root's own git at HEAD; an object reads
     * `gitDirectory` (a bare mirror, say) up to `revision`; `false` turns it off. Default true.
     */
    history: z
      .union([
        z.boolean(),
        z.object({ gitDirectory: z.string().min(1), revision: z.string().min(1) }).strict(),
      ])
      .default(true),
    /**
     * Parse candidate files with tree-sitter (JavaScript, TypeScript, Python, Go, Rust, Java,
     * Kotlin, C, C++, C#, PHP, Ruby): excerpts show whole definitions, and symbols carry their kind
     * and extent. Files of other languages, or that fail to parse, keep the regex outline. Default true.
     */
    syntax: z.boolean().default(true),
    /** Most commits read from the history. Default 2,000. */
    maxHistoryCommits: z.int().min(1).default(2000),
    /** Files larger than this (bytes) are skipped. Default 1 MB. */
    maxFileBytes: z.int().min(1).default(1_000_000),
    /** Most files read from the repository. Default 50,000. */
    maxRepositoryFiles: z.int().min(1).default(50_000),
    /**
     * A directory for stored word indexes, one per searched root. With it, a run takes each
     * unchanged file (same size, modification and change times, and inode) from the root's index instead of
     * reading and analysing it again, and leaves the index up to date: the first run on a root
     * pays for building it, later ones read only what changed. Default: none (no index).
     */
    cacheDirectory: z.string().min(1).optional(),
    /**
     * Keeps each root's workspace in memory for the next run of this process (`createWorkspaceCache`):
     * a run on an unchanged tree reads no file again, and keeps every search it made. Default:
     * none (each run lists and reads the tree afresh, or from `cacheDirectory`).
     */
    workspaceCache: z
      .custom<WorkspaceCache>(
        (value) =>
          typeof value === 'object' &&
          value !== null &&
          typeof (value as Partial<WorkspaceCache>).get === 'function' &&
          typeof (value as Partial<WorkspaceCache>).keep === 'function' &&
          typeof (value as Partial<WorkspaceCache>).forget === 'function',
        'must be made by createWorkspaceCache',
      )
      .optional(),
    /** Most bytes the cache directory's indexes take together; the least recently used go first. Default 1 GiB. */
    maxCacheBytes: z
      .int()
      .min(1)
      .default(1024 ** 3),
    /** Most model calls per run. Default: unlimited. */
    maxCalls: z.int().min(1).optional(),
    /** Most input tokens (including cache reads and writes) per run. Default: unlimited. */
    maxInputTokens: z.int().min(1).optional(),
    /** Most estimated cost per run, in US dollars. Default: unlimited. */
    maxCostUsd: z.number().positive().optional(),
    /** Prices (USD per million tokens) to use instead of, or in addition to, the built-in table. */
    prices: z
      .record(
        z.string(),
        z
          .object({
            input: z.number().min(0),
            output: z.number().min(0),
            cacheWrite: z.number().min(0),
            cacheRead: z.number().min(0),
          })
          .strict(),
      )
      .default({}),
    /** A pino logger; default: silent. */
    logger: z
      .custom<Logger>(
        (value) => typeof value === 'object' && value !== null && 'child' in value,
        'must be a pino logger',
      )
      .optional(),
    /** Stop after this many seconds and return the best context found so far. Default: none. */
    timeoutSeconds: z.number().positive().max(MAX_TIMEOUT_SECONDS).optional(),
    signal: z.instanceof(AbortSignal).optional(),
    /** Called at each step of the run, for progress displays. */
    onProgress: z
      .custom<(event: ProgressEvent) => void>(
        (value) => typeof value === 'function',
        'must be a function',
      )
      .optional(),
  })
  .strict();

export type RetrievalOptions = z.input<typeof retrievalOptionsSchema>;
export type ResolvedRetrievalOptions = z.output<typeof retrievalOptionsSchema>;

/** Validates options before any work; the error names the option at fault. */
export function parseRetrievalOptions(options: unknown): ResolvedRetrievalOptions {
  return parseOptions(retrievalOptionsSchema, options);
}
