import type { Workspace } from '../src/repository/workspace.js';
import { languageOf } from './languages.js';
import type { FileKind } from '../src/contracts/file-kind.js';

export const CODE_KINDS: ReadonlySet<FileKind> = new Set([
  'source',
  'declaration',
  'example',
  'test',
]);

/**
 * The classic baseline of the SWE-bench paper: BM25 of the whole issue text against every code
 * file's path and contents (sources, tests and examples alike), in one shot. Parameters are Pyserini's defaults (k1 = 0.9, b = 0.4);
 * tokens are lower-cased words with English stop words removed, as Lucene's analyser does, and
 * no code-aware splitting or stemming, which are what this project adds.
 */
const K1 = 0.9;
const B = 0.4;

const ENGLISH_STOP_WORDS = new Set(
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with'.split(
    ' ',
  ),
);

export function bm25Tokens(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9_]+/g) ?? []).filter(
    (token) => token.length > 1 && !ENGLISH_STOP_WORDS.has(token),
  );
}

/**
 * The workspace's code files (in any language: ./languages.ts) of the given kinds ranked by BM25
 * against the query text, best first. The classic baseline ranks every code file: sources,
 * declarations, examples and tests.
 */
export function rankByBm25(
  workspace: Workspace,
  query: string,
  kinds: ReadonlySet<FileKind> = CODE_KINDS,
): string[] {
  const documents = workspace.files
    .filter((file) => kinds.has(file.kind) && languageOf(file.path) !== undefined)
    .map((file) => {
      const counts = new Map<string, number>();
      const tokens = bm25Tokens(`${file.path.replace(/[/._-]/g, ' ')}\n${file.lines.join('\n')}`);
      for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
      return { path: file.path, counts, length: tokens.length };
    });
  const averageLength =
    documents.reduce((sum, document) => sum + document.length, 0) / Math.max(1, documents.length);
  const frequency = new Map<string, number>();
  for (const document of documents)
    for (const token of document.counts.keys())
      frequency.set(token, (frequency.get(token) ?? 0) + 1);
  const queryTokens = bm25Tokens(query);
  const scored = documents.map((document) => {
    let score = 0;
    for (const token of queryTokens) {
      const count = document.counts.get(token);
      if (!count) continue;
      const df = frequency.get(token) ?? 0;
      const idf = Math.log(1 + (documents.length - df + 0.5) / (df + 0.5));
      score +=
        (idf * count * (K1 + 1)) / (count + K1 * (1 - B + (B * document.length) / averageLength));
    }
    return { path: document.path, score };
  });
  return scored
    .filter((entry) => entry.score > 0)
    .sort((left, right) => right.score - left.score || (left.path < right.path ? -1 : 1))
    .map((entry) => entry.path);
}
