import { describe, expect, it } from 'vitest';
import { fitPackToBudget, MCP_RUNNERS_UP } from '../../src/mcp/fit-pack.js';
import {
  contextPackSchema,
  judgedFileSchema,
  type ContextPack,
} from '../../src/output/context-pack.js';
import { makeFile, makePack } from '../support/context-pack-factory.js';
import { estimateTokens } from '../../src/contracts/tokens.js';

/** Three selected files with long excerpts, and 30 more files judged and not selected. */
function bigPack(): ContextPack {
  const excerpt = Array.from(
    { length: 60 },
    (_, index) => `${index + 1}| const value${index} = "quoted" + compute(${index});`,
  ).join('\n');
  const files = [0.9, 0.8, 0.7].map((relevance, index) =>
    makeFile({ path: `src/file-${index}.ts`, relevance, excerpt }),
  );
  const runnersUp = Array.from({ length: 30 }, (_, index) =>
    judgedFileSchema.parse({
      ...makeFile({ path: `src/other-${index}.ts`, relevance: 0.4 }),
      reason: 'Mentions the retry policy in passing, in a helper the task does not change.',
    }),
  );
  const pack = makePack({ files });
  return {
    ...pack,
    evaluated: [...pack.evaluated, ...runnersUp],
    trace: pack.trace.map((cycle) => ({
      ...cycle,
      evaluated: [...files, ...runnersUp].map((file) => file.path),
    })),
  };
}

const tokensOf = (pack: ContextPack) => estimateTokens(JSON.stringify(pack));
const full = bigPack();

describe('fitPackToBudget', () => {
  it('cuts the least relevant related paths last, and says so', () => {
    const related = Array.from({ length: 50 }, (_, index) => ({
      path: `src/neighbour-${index}.ts`,
      relevance: 0.79 - index / 100,
      reason: 'Calls the retry policy with options of its own, which the task may need to pass on.',
      kind: 'source' as const,
    }));
    const pack = { ...full, related };
    const fitted = fitPackToBudget(pack, 1000);
    expect(tokensOf(fitted)).toBeLessThanOrEqual(1000);
    expect(fitted.evaluated).toEqual([]);
    expect(fitted.related.length).toBeGreaterThan(0);
    expect(fitted.related).toEqual(related.slice(0, fitted.related.length));
    expect(fitted.warnings.at(-1)).toMatch(
      new RegExp(
        `; \`related\` holds the ${fitted.related.length} most relevant of 50 related files$`,
      ),
    );
    // With room for them all, no related path is cut.
    expect(fitPackToBudget(pack, 3000).related).toEqual(related);
  });

  it('returns a pack within the budget as it is', () => {
    expect(fitPackToBudget(full, tokensOf(full))).toBe(full);
  });

  // Before: a 30 KB task made the structured content 42 KB against a budget of 6,000 tokens.
  it('keeps only the first line of a long task, and says so', () => {
    const task = `NO_PROXY is ignored by the HTTP adapter\n\n${'pip-package==1.0.0\n'.repeat(1500)}`;
    const fitted = fitPackToBudget(makePack({ task, files: [makeFile()] }), 6000);
    expect(fitted.task).toBe('NO_PROXY is ignored by the HTTP adapter');
    expect(estimateTokens(JSON.stringify(fitted))).toBeLessThanOrEqual(6000);
    expect(fitted.files).toHaveLength(1);
    expect(fitted.warnings.at(-1)).toMatch(/`task` holds its first line only/);
  });

  it('drops only as many of the least relevant judged files as it must', () => {
    const fitted = fitPackToBudget(full, tokensOf(full) - 200);
    expect(fitted.evaluated.length).toBeLessThan(full.evaluated.length);
    expect(fitted.evaluated.length).toBeGreaterThan(full.files.length + MCP_RUNNERS_UP);
    expect(fitted.evaluated).toEqual(full.evaluated.slice(0, fitted.evaluated.length));
    expect(fitted.trace).toEqual(full.trace);
    expect(fitted.files).toEqual(full.files);
    expect(fitted.warnings.at(-1)).toBe(
      `to stay within the output budget of ${tokensOf(full) - 200} tokens: \`evaluated\` holds the ${fitted.evaluated.length} most relevant of the 33 files judged`,
    );
  });

  it.each([
    {
      budget: 3000,
      evaluated: 3 + MCP_RUNNERS_UP,
      excerpts: [true, true, true],
      warning:
        "`evaluated` holds the 8 most relevant of the 33 files judged; the trace's cycles list no paths (their counts and queries stay)",
    },
    {
      budget: 2000,
      evaluated: 3 + MCP_RUNNERS_UP,
      excerpts: [true, true, false],
      warning:
        "`evaluated` holds the 8 most relevant of the 33 files judged; the trace's cycles list no paths (their counts and queries stay); 1 excerpt was shortened; the least relevant file has no excerpt (read it at its line ranges)",
    },
    {
      budget: 700,
      evaluated: 0,
      excerpts: [false, false, false],
      warning:
        "`evaluated` is empty (33 files were judged; the core ones are in `files`, the related in `related`); the trace's cycles list no paths (their counts and queries stay); the 3 least relevant files have no excerpt (read them at their line ranges)",
    },
  ])(
    'at $budget tokens keeps $evaluated judged files and the excerpts $excerpts',
    ({ budget, evaluated, excerpts, warning }) => {
      const fitted = fitPackToBudget(full, budget);
      expect(() => contextPackSchema.parse(fitted)).not.toThrow();
      expect(tokensOf(fitted)).toBeLessThanOrEqual(budget);
      expect(fitted.evaluated).toEqual(full.evaluated.slice(0, evaluated));
      expect(fitted.trace[0]?.evaluated).toEqual([]);
      expect(fitted.trace[0]?.query).toEqual(full.trace[0]?.query);
      expect(fitted.files.map((file) => file.excerpt !== '')).toEqual(excerpts);
      expect(fitted.warnings).toEqual([
        ...full.warnings,
        `to stay within the output budget of ${budget} tokens: ${warning}`,
      ]);
      // What the model needs to read the files itself always stays.
      expect(fitted.files.map(({ excerpt: _excerpt, ...file }) => file)).toEqual(
        full.files.map(({ excerpt: _excerpt, ...file }) => file),
      );
      expect(fitted.gaps).toEqual(full.gaps);
    },
  );

  it('shortens an excerpt at a line boundary and says so in it', () => {
    const shortened = fitPackToBudget(full, 2000).files[1]?.excerpt ?? '';
    const [kept = '', mark] = shortened.split('\n… ');
    expect(kept).not.toBe('');
    expect(full.files[1]?.excerpt.startsWith(`${kept}\n`)).toBe(true);
    expect(mark).toBe('(cut to fit the output budget; read the file at its line ranges)');
  });
});
