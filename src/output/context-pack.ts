import { z } from 'zod';
import type { CycleTrace } from '../loop/cycle-trace.js';
import { STOP_REASONS } from '../loop/stop-conditions.js';
import { querySchema } from '../contracts/query.js';
import { verdictSchema } from '../contracts/refinement.js';
import { FILE_KINDS } from '../contracts/file-kind.js';

/**
 * The result of a run: the context a subagent should get, and how it was found. The JSON output
 * is exactly this object; `schemaVersion` changes whenever a field changes meaning or goes away.
 * Version 2: `files` holds the core only (at `coreRelevance`, the best file always), and
 * `related` names the other files at `minRelevance`, without content. Version 3: each cycle's
 * trace holds the refiner's `verdict`, and `stopReason` says which stop condition ended the run.
 * Version 4: the verdict names `likelyEdited`, and the files it names come first in `files`,
 * `related` and `evaluated`.
 */
export const CONTEXT_PACK_VERSION = 4;

const lineRangeSchema = z
  .tuple([z.int().min(1), z.int().min(1)])
  .describe('first and last line, 1-based, inclusive');

export const usageSchema = z
  .object({
    calls: z.int().min(0),
    inputTokens: z.int().min(0).describe('billed at the base input rate'),
    outputTokens: z.int().min(0),
    cacheReadTokens: z.int().min(0),
    cacheWriteTokens: z.int().min(0),
    costUsd: z.number().min(0).describe('estimated from the price table'),
  })
  .describe('model calls and their tokens; all zero with the offline judge');

export const judgedFileSchema = z.object({
  path: z.string().describe('relative to the root, with forward slashes'),
  relevance: z
    .number()
    .min(0)
    .max(1)
    .describe('0.8–1 implements the target; 0.5–0.7 related; 0.2–0.4 tangential; <0.2 irrelevant'),
  reason: z.string(),
  missingContext: z.array(z.string()).describe('what this file needs that the run does not hold'),
  cycle: z.int().min(1).describe('the cycle in which the file was found and judged'),
  kind: z.enum(FILE_KINDS),
  lineRanges: z.array(lineRangeSchema).describe('the parts of the file that matter'),
  unevaluated: z.boolean().describe("the judge's call failed; the offline judge's score stands in"),
});

export const contextFileSchema = judgedFileSchema.extend({
  excerpt: z
    .string()
    .describe(
      'outline and numbered lines: around each matched line its whole definition where it fits, else a few lines',
    ),
});

export const relatedFileSchema = z.object({
  path: judgedFileSchema.shape.path,
  relevance: judgedFileSchema.shape.relevance,
  reason: z.string().describe("the judge's reason on one line"),
  kind: judgedFileSchema.shape.kind,
});

export const gapSchema = z.object({
  description: z.string(),
  raisedBy: z.array(z.string()),
  cycle: z.int().min(1),
  searched: z.boolean().describe('a refinement has already searched for it'),
});

export const cycleTraceSchema = z.object({
  cycle: z.int().min(1),
  query: querySchema,
  candidatesFound: z.int().min(0).describe('files the query matched, including ones judged before'),
  newCandidates: z
    .int()
    .min(0)
    .describe('files the query matched that were not judged or excluded before'),
  evaluated: z.array(z.string()),
  kept: z.array(z.string()).describe('judged this cycle at or above minRelevance'),
  excluded: z.array(z.string()).describe('judged this cycle below 0.2: never dispatched again'),
  refinement: querySchema.nullable().describe('the query the judge proposed for the next cycle'),
  verdict: verdictSchema
    .nullable()
    .describe("the refiner's verdict on the context after this cycle; null when it did not refine"),
  usage: usageSchema,
  durationMs: z.number().min(0),
}) satisfies z.ZodType<CycleTrace>;

export const stopReasonSchema = z.enum(STOP_REASONS);

export const contextPackSchema = z.object({
  schemaVersion: z.literal(CONTEXT_PACK_VERSION),
  task: z.string(),
  root: z.string().describe('absolute path of the searched directory'),
  judge: z.string(),
  files: z
    .array(contextFileSchema)
    .describe(
      "the core: files that directly implement the task, with excerpts, best first (the refiner's likelyEdited picks, then relevance descending); empty only when no file reached minRelevance",
    ),
  related: z
    .array(relatedFileSchema)
    .describe(
      'other files worth opening (types, callers, tests, neighbours), in the same order, at most maxRelated; paths and reasons only',
    ),
  evaluated: z.array(judgedFileSchema).describe('every file judged in the run, in the same order'),
  gaps: z.array(gapSchema).describe('missing context reported by core files and still unresolved'),
  trace: z.array(cycleTraceSchema),
  stopReason: stopReasonSchema,
  warnings: z.array(z.string()),
  usage: usageSchema,
  stats: z.object({
    filesConsidered: z.int().min(0),
    redactions: z
      .int()
      .min(0)
      .describe(
        'secrets replaced by [REDACTED:<rule>] in the excerpts made (the core’s alone for a judge that reads none)',
      ),
    skipped: z.object({
      ignored: z.int().min(0),
      secret: z.int().min(0),
      binary: z.int().min(0),
      tooLarge: z.int().min(0),
      minified: z.int().min(0),
      overLimit: z.int().min(0),
    }),
  }),
  timings: z.object({
    totalMs: z.number().min(0),
    readMs: z.number().min(0),
    dispatchMs: z.number().min(0),
    evaluateMs: z.number().min(0),
    refineMs: z.number().min(0),
  }),
});

export type ContextPack = z.infer<typeof contextPackSchema>;
export type ContextFile = z.infer<typeof contextFileSchema>;
export type RelatedFile = z.infer<typeof relatedFileSchema>;

/** The JSON Schema of the JSON output, for consumers in other languages. */
export function contextPackJsonSchema(): unknown {
  return z.toJSONSchema(contextPackSchema);
}
