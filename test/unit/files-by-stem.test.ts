import { describe, expect, it } from 'vitest';
import { filesByStemOf } from '../../src/dispatch/files-by-stem.js';
import { compileKeyword, type KeywordPattern } from '../../src/dispatch/keyword.js';
import { matchWorkspace, weighKeywords } from '../../src/dispatch/match.js';
import { analyzeSource, indexWords, type SourceFile } from '../../src/repository/source-file.js';
import type { Workspace } from '../../src/repository/workspace.js';
import { StemTable } from '../../src/text/word-postings.js';
import { keepIndex } from '../../src/repository/index-keeper.js';
import { decodeIndex, encodeIndex } from '../../src/repository/word-index.js';

const KEY = { size: 10, modifiedMs: 1_000, changedMs: 1_000 };

const FILES: Record<string, string> = {
  'src/auth/session.ts': 'export function refreshToken() {\n  // the token expiry is checked\n}\n',
  'src/auth/token.ts': 'export const expiry = 60;\n',
  'src/cache/store.ts': 'export const token = "a";\n',
  'src/expiry/clock.ts': 'export const now = () => 0;\n',
  'docs/guide.md': 'Tokens expire after an hour.\n',
};

/** The files, read as text, or with their words indexed as a stored index holds them. */
function workspaceOf(indexed: boolean): Workspace {
  const table = new StemTable();
  const files: SourceFile[] = Object.entries(FILES).map(([path, text]) => {
    const file = analyzeSource(path, text);
    if (indexed) file.words = indexWords(file, table);
    return file;
  });
  return { files } as unknown as Workspace;
}

/**
 * The files as a warm run has them: restored from a stored index written and read back (found
 * through its rows), but for `changed`, read again in the run (found through its own ids).
 */
function restoredWorkspace(changed: string): Workspace {
  const entryOf = (path: string) => ({ path, identity: undefined, ...KEY });
  const written = keepIndex(undefined, 10_000);
  for (const [path, text] of Object.entries(FILES))
    written.recordRead(entryOf(path), analyzeSource(path, text), () => text);
  const stored = decodeIndex(encodeIndex(written.result(1).updated));
  const keeper = keepIndex(stored, 10_000);
  const files = Object.entries(FILES).map(([path, text]) => {
    const file = stored.files.get(path);
    if (path === changed || file?.verdict !== 'read') {
      return keeper.recordRead(entryOf(path), analyzeSource(path, text), () => text);
    }
    return keeper.restore(entryOf(path), file, () => text);
  });
  return { files } as unknown as Workspace;
}

const pattern = (keyword: string): KeywordPattern => {
  const compiled = compileKeyword(keyword);
  if (!compiled) throw new Error(keyword);
  return compiled;
};

describe('filesByStemOf', () => {
  it.each<[string, string[]]>([
    // Both words in the text (`expire` is `expiry`'s), or one in the text and one in the path.
    ['token expiry', ['src/auth/session.ts', 'src/auth/token.ts', 'docs/guide.md']],
    ['expiry clock', ['src/expiry/clock.ts']],
    ['token', ['src/auth/session.ts', 'src/auth/token.ts', 'src/cache/store.ts', 'docs/guide.md']],
    ['token cache', ['src/cache/store.ts']],
    ['missing words', []],
  ])('looks at the files that hold every word of %j, in their text or path', (keyword, paths) => {
    const workspace = workspaceOf(true);
    const candidates = filesByStemOf(workspace)?.candidatesOf(pattern(keyword)) ?? [];
    expect(candidates.map((index) => workspace.files[index]?.path)).toEqual(paths);
  });

  it("finds through a stored index's rows what it finds through the files' own ids", () => {
    const keywords = ['token expiry', 'expiry clock', 'token', 'auth token', 'token cache'];
    const indexed = workspaceOf(true);
    for (const changed of ['src/auth/token.ts', 'docs/guide.md', 'none']) {
      const restored = restoredWorkspace(changed);
      expect(restored.files.filter((file) => file.words?.stored).length).toBe(
        changed === 'none' ? 5 : 4,
      );
      for (const keyword of keywords)
        expect(filesByStemOf(restored)?.candidatesOf(pattern(keyword)), keyword).toEqual(
          filesByStemOf(indexed)?.candidatesOf(pattern(keyword)),
        );
    }
  });

  it('finds through the index what a search of the texts finds', async () => {
    const keywords = ['token expiry', 'expiry clock', 'token', 'refreshToken', 'auth token'];
    const [indexed, read] = [workspaceOf(true), workspaceOf(false)];
    expect(filesByStemOf(read)).toBeUndefined();
    expect(matchWorkspace(indexed, await weighKeywords(keywords, indexed))).toEqual(
      matchWorkspace(read, await weighKeywords(keywords, read)),
    );
  });
});
