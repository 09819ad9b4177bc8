import { describe, expect, it } from 'vitest';
import { MAX_REDACTED_FILES, excerptCandidate } from '../../src/dispatch/dispatch.js';
import { analyzeSource, type SourceFile } from '../../src/repository/source-file.js';
import type { Workspace } from '../../src/repository/workspace.js';

/** A file whose text reads are counted: each redaction of it reads its text once. */
function countedFile(path: string): { file: SourceFile; reads: () => number } {
  const base = analyzeSource(path, 'export const token = "refresh";\n');
  let reads = 0;
  const file = Object.create(base, {
    text: { get: () => (reads++, base.text) },
  }) as SourceFile;
  return { file, reads: () => reads };
}

/** A workspace whose outlines come from elsewhere: only the redaction reads a file's text. */
const workspaceOf = (files: SourceFile[] = []) =>
  ({
    files,
    parsedOutline: () => Promise.resolve({ imports: [], symbols: [] }),
  }) as unknown as Workspace;
const workspace = workspaceOf();
const excerpt = (file: SourceFile, of = workspace) => excerptCandidate(of, file, [], 200);

describe('excerptCandidate: whole files redacted', () => {
  // A workspace held across runs (a resident process, an MCP server) would otherwise keep the
  // redacted lines of every file any run excerpted.
  it('keeps a file redacted for its next excerpt, and lets it go after enough others', async () => {
    const target = countedFile('src/target.ts');
    await excerpt(target.file);
    await excerpt(target.file);
    expect(target.reads()).toBe(1);
    for (let index = 0; index < MAX_REDACTED_FILES; index++)
      await excerpt(analyzeSource(`src/other${index}.ts`, 'const other = 1;\n'));
    const again = await excerpt(target.file);
    expect(target.reads()).toBe(2);
    expect(again.excerpt).toContain('export const token');
  });

  it('keeps each workspace its own: one let go takes its files with it', async () => {
    const target = countedFile('src/target.ts');
    const [first, second] = [workspaceOf([target.file]), workspaceOf([target.file])];
    await excerpt(target.file, first);
    await excerpt(target.file, second);
    expect(target.reads()).toBe(2);
  });
});
