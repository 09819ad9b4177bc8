import { describe, expect, it } from 'vitest';
import { filesByStemOf } from '../../src/dispatch/files-by-stem.js';
import { compileKeyword, type KeywordPattern } from '../../src/dispatch/keyword.js';
import { matchWorkspace, weighKeywords } from '../../src/dispatch/match.js';
import { analyzeSource, indexWords, type SourceFile } from '../../src/repository/source-file.js';
import type { Workspace } from '../../src/repository/workspace.js';
import { StemTable } from '../../src/text/word-postings.js';

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

  it('finds through the index what a search of the texts finds', async () => {
    const keywords = ['token expiry', 'expiry clock', 'token', 'refreshToken', 'auth token'];
    const [indexed, read] = [workspaceOf(true), workspaceOf(false)];
    expect(filesByStemOf(read)).toBeUndefined();
    expect(matchWorkspace(indexed, await weighKeywords(keywords, indexed))).toEqual(
      matchWorkspace(read, await weighKeywords(keywords, read)),
    );
  });
});
