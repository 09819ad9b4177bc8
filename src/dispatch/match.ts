import { compileKeyword, isLiteral, type KeywordPattern } from './keyword.js';
import { filesByStemOf } from './files-by-stem.js';
import type { FileScan } from './keyword-match.js';
import { scanFile, scanKeyword } from './scan-file.js';
import { KnownWordsTable } from './known-words.js';
import { AbortError } from '../errors.js';
import type { SourceFile } from '../repository/source-file.js';
import type { Workspace } from '../repository/workspace.js';
import type { KeywordMatch } from '../contracts/candidate.js';

/** A keyword with its weight in this workspace: rarer keywords weigh more (BM25's idf). */
export interface WeightedKeyword extends KeywordPattern {
  weight: number;
}

/** A keyword over the whole workspace: its matches by path and how many files hold it. */
interface KeywordScan {
  byPath: Map<string, KeywordMatch>;
  frequency: number;
}

/**
 * By the workspace's files, as every cache of a workspace is: one taken again for an unchanged
 * tree (../repository/workspace-reuse.ts) shares them, and its searches with them.
 */
const scans = new WeakMap<Workspace['files'], Map<string, KeywordScan>>();

/** Per workspace, what its files are known to hold of the words searched so far. */
const knownWords = new WeakMap<Workspace['files'], KnownWordsTable>();

function knownWordsOf(workspace: Workspace): KnownWordsTable {
  let table = knownWords.get(workspace.files);
  if (!table)
    knownWords.set(workspace.files, (table = new KnownWordsTable(workspace.files.length)));
  return table;
}

const keyOf = (keyword: string) => keyword.toLowerCase();

/**
 * Most keywords' scans, and words' file bytes, a workspace keeps. One run searches a few dozen
 * keywords; a workspace kept across runs (../workspace-cache.ts) would otherwise grow with every
 * query. What is let go is only searched again when asked for.
 */
export const MAX_KEPT_SCANS = 256;
/**
 * Most matches the kept scans hold together. A common word matches thousands of files: at 50k
 * files, ten tasks' scans held 199k matches while 256 scans had not been reached, where the first
 * task's 22 held 39k.
 */
export const MAX_KEPT_MATCHES = 100_000;
const MAX_KNOWN_WORDS = 512;

/** Drops the oldest scans past either bound, but not those `spared`. */
export function forgetOldestScans(
  cache: Map<string, { byPath: ReadonlyMap<string, unknown> }>,
  bounds: { scans: number; matches: number },
  spared: ReadonlySet<string>,
): void {
  let matches = 0;
  for (const scan of cache.values()) matches += scan.byPath.size;
  for (const [key, scan] of cache) {
    if (cache.size <= bounds.scans && matches <= bounds.matches) return;
    if (spared.has(key)) continue;
    cache.delete(key);
    matches -= scan.byPath.size;
  }
}

/**
 * Each keyword with its weight, from how many files hold it. Finding that out is the search
 * itself, so each new keyword is matched against every file here, once per workspace: refined
 * queries mostly repeat earlier keywords, and later cycles pay only for new ones.
 */
export async function weighKeywords(
  keywords: readonly string[],
  workspace: Workspace,
  signal?: AbortSignal,
): Promise<WeightedKeyword[]> {
  let cache = scans.get(workspace.files);
  if (!cache) scans.set(workspace.files, (cache = new Map()));
  const seen = new Set<string>();
  const patterns: KeywordPattern[] = [];
  /** Each pattern's keyword as written, for a partner to compile as it was here. */
  const sourceOf = new Map<KeywordPattern, string>();
  for (const keyword of keywords) {
    const pattern = compileKeyword(keyword);
    if (!pattern || seen.has(keyOf(pattern.keyword))) continue;
    seen.add(keyOf(pattern.keyword));
    patterns.push(pattern);
    sourceOf.set(pattern, keyword);
  }
  const fresh = patterns.filter((pattern) => !cache.has(keyOf(pattern.keyword)));
  if (fresh.length > 0) {
    knownWords.get(workspace.files)?.forgetBeyond(MAX_KNOWN_WORDS);
    const found = fresh.map((): KeywordScan => ({ byPath: new Map(), frequency: 0 }));
    const count = (index: number, file: SourceFile, scan: FileScan | undefined) => {
      const keyword = found[index];
      if (!keyword || !scan) return;
      if (scan.counted) keyword.frequency++;
      if (scan.match) keyword.byPath.set(file.path, scan.match);
    };
    const indexed = filesByStemOf(workspace);
    if (indexed) {
      // Each keyword in the files that hold one of its words (a member, or text found as
      // written, in every file: its definitions are found by name, not by words).
      fresh.forEach((pattern, index) => {
        const everywhere = pattern.member !== undefined || isLiteral(pattern);
        const candidates = everywhere ? workspace.files.keys() : indexed.candidatesOf(pattern);
        for (const at of candidates) {
          const file = workspace.files[at];
          // One keyword in a file: no list made for each of the many files a common word is in.
          if (file) count(index, file, scanKeyword(file, pattern));
        }
      });
    } else {
      const known = knownWordsOf(workspace);
      const scanHere = (at: number) => {
        const file = workspace.files[at];
        if (file)
          scanFile(file, fresh, known.of(at)).forEach((scan, index) => count(index, file, scan));
      };
      // A partner searches its files while this thread searches the others.
      const partner = workspace.partner;
      const searched = partner?.scan(
        fresh.map((pattern) => sourceOf.get(pattern) ?? pattern.keyword),
        MAX_KNOWN_WORDS,
      );
      for (let at = 0; at < workspace.files.length; at++) if (!partner?.owns(at)) scanHere(at);
      const partnerFound = await searched?.catch(() => undefined);
      for (const { file, keyword, counted, match } of partnerFound ?? []) {
        const source = workspace.files[file];
        if (source) count(keyword, source, { counted, match });
      }
      // A partner that failed leaves its files to be searched here, their texts read again;
      // one stopped by the run's end ends the search.
      if (partner && !partnerFound) {
        if (signal?.aborted) throw new AbortError('interrupted while searching the repository');
        for (let at = 0; at < workspace.files.length; at++) if (partner.owns(at)) scanHere(at);
      }
    }
    const total = workspace.files.length;
    fresh.forEach((pattern, index) => {
      const keyword = found[index];
      if (!keyword) return;
      const weight = weightOf(total, keyword.frequency);
      for (const match of keyword.byPath.values()) match.weight = weight;
      cache.set(keyOf(pattern.keyword), keyword);
    });
    forgetOldestScans(cache, { scans: MAX_KEPT_SCANS, matches: MAX_KEPT_MATCHES }, seen);
  }
  return patterns.map((pattern) => ({
    ...pattern,
    weight: weightOf(workspace.files.length, cache.get(keyOf(pattern.keyword))?.frequency ?? 0),
  }));
}

function weightOf(total: number, frequency: number): number {
  return Math.log(1 + (total - frequency + 0.5) / (frequency + 0.5));
}

/** The matches of these keywords (weighed in this workspace) in every file, by path. */
export function matchWorkspace(
  workspace: Workspace,
  keywords: readonly WeightedKeyword[],
): Map<string, KeywordMatch[]> {
  const cache = scans.get(workspace.files);
  const byFile = new Map<string, KeywordMatch[]>();
  for (const keyword of keywords)
    // `forEach`, not `for…of`: no [path, match] pair made for each of a common word's files.
    cache?.get(keyOf(keyword.keyword))?.byPath.forEach((match, path) => {
      const list = byFile.get(path);
      if (list) list.push(match);
      else byFile.set(path, [match]);
    });
  return byFile;
}

/** Where each keyword matches one file; keywords that match nowhere in it are left out. */
export function matchFile(file: SourceFile, keywords: readonly WeightedKeyword[]): KeywordMatch[] {
  return scanFile(file, keywords).flatMap((scan, index) =>
    scan.match ? [{ ...scan.match, weight: keywords[index]?.weight ?? 0 }] : [],
  );
}
