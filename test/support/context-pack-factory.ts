import {
  CONTEXT_PACK_VERSION,
  contextFileSchema,
  contextPackSchema,
  judgedFileSchema,
  type ContextFile,
  type ContextPack,
} from '../../src/output/context-pack.js';

/** A selected file; anything not overridden is plausible filler. */
const NO_CALLS = {
  calls: 0,
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd: 0,
};

export function makeFile(overrides: Partial<ContextFile> = {}): ContextFile {
  return contextFileSchema.parse({
    path: 'src/http/retry.ts',
    relevance: 0.9,
    reason: 'Implements the retry policy the task changes.',
    missingContext: [],
    cycle: 1,
    kind: 'source',
    lineRanges: [[12, 30]],
    unevaluated: false,
    excerpt: 'defines: export retry L12\n12| export function retry() {',
    ...overrides,
  });
}

/**
 * A valid pack, checked against the schema so tests fail here, not in a formatter, when the
 * schema changes. `evaluated` follows `files` unless it is overridden.
 */
export function makePack(overrides: Partial<ContextPack> = {}): ContextPack {
  const files = overrides.files ?? [
    makeFile(),
    makeFile({
      path: 'src/http/client.ts',
      relevance: 0.6666,
      lineRanges: [
        [3, 3],
        [41, 47],
      ],
    }),
  ];
  const query = { patterns: ['**/*'], keywords: ['retry'], excludes: [], focusAreas: [] };
  return contextPackSchema.parse({
    schemaVersion: CONTEXT_PACK_VERSION,
    task: 'Make the HTTP client retry on 503',
    root: '/repo',
    judge: 'heuristic',
    files,
    related: [],
    evaluated: files.map((file) => judgedFileSchema.parse(file)),
    gaps: [],
    trace: [
      {
        cycle: 1,
        query,
        candidatesFound: 4,
        newCandidates: 4,
        evaluated: files.map((file) => file.path),
        kept: files.map((file) => file.path),
        excluded: [],
        refinement: null,
        verdict: null,
        usage: NO_CALLS,
        durationMs: 12,
      },
    ],
    stopReason: 'sufficient',
    warnings: [],
    usage: NO_CALLS,
    stats: {
      filesConsidered: 10,
      redactions: 0,
      skipped: { ignored: 0, secret: 0, binary: 0, tooLarge: 0, minified: 0, overLimit: 0 },
    },
    timings: { totalMs: 20, readMs: 5, dispatchMs: 5, evaluateMs: 5, refineMs: 5 },
    ...overrides,
  });
}
