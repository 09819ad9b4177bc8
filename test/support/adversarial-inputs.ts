import { taskDigest } from '../../src/text/task-digest.js';
import { renderOverview } from '../../src/judges/claude/overview-text.js';
import { redactSecrets } from '../../src/redaction/redact.js';
import { globMatcher } from '../../src/repository/glob-matcher.js';
import { createImportResolver } from '../../src/structure/imports.js';
import { extractOutline, importGroupLines } from '../../src/structure/outline.js';
import { analyzeSource } from '../../src/repository/source-file.js';
import { compileKeyword } from '../../src/dispatch/keyword.js';
import { matchFile } from '../../src/dispatch/match.js';
import { buildExcerpt } from '../../src/dispatch/excerpt.js';
import {
  MAX_NEEDLE_LENGTH,
  byteSearch,
  fileByteSearch,
  isSearchableNeedle,
} from '../../src/dispatch/byte-search.js';
import { definitionRanges } from '../../src/dispatch/definition-ranges.js';
import { parseGitLog } from '../../src/history/git-log.js';
import { scoreFilesByHistory } from '../../src/history/history-scores.js';
import { namedFiles } from '../../src/judges/heuristic/named-files.js';
import { extractTaskTerms } from '../../src/judges/heuristic/task-terms.js';
import { buildTermModel } from '../../src/judges/heuristic/term-model.js';
import { openGaps } from '../../src/loop/gaps.js';
import { numberLines } from '../../src/output/handover.js';
import { formatMarkdown } from '../../src/output/markdown.js';
import { splitIdentifier } from '../../src/text/identifiers.js';
import { makeFile, makePack } from './context-pack-factory.js';
import type { JudgedFile } from '../../src/contracts/evaluation.js';
import type { RepoOverview } from '../../src/contracts/overview.js';

/**
 * Hostile text for everything that reads untrusted text (task text, file contents, file names,
 * commit messages): shapes a backtracking regular expression stumbles on, each about a megabyte,
 * and the extractors that must read them in linear time. `timeExtractors`
 * (./adversarial-timing.ts) times each extractor on each shape against a plain scan of the same
 * text. To cover a new reader of untrusted text, add it to `EXTRACTORS`.
 */

export const MEGABYTE = 1_000_000;

/** The outline skips longer lines, so shapes meant for its patterns come in lines this long. */
const OUTLINE_LINE = 399;

interface Shape {
  name: string;
  build: (size: number) => string;
}

const fill = (unit: string, length: number) =>
  unit.repeat(Math.ceil(length / unit.length)).slice(0, Math.max(0, length));

/** `unit` repeated: one long line unless the unit holds a line break. */
const repeated = (name: string, unit: string): Shape => ({
  name,
  build: (size) => fill(unit, size),
});

/** One line: `start`, then `filler` up to the size, then `end`. */
const between = (name: string, start: string, filler: string, end: string): Shape => ({
  name,
  build: (size) => start + fill(filler, size - start.length - end.length) + end,
});

/** Distinct tokens, `token(1)`, `token(2)`…, separated by spaces. */
const numbered = (name: string, token: (index: number) => string): Shape => ({
  name,
  build: (size) => {
    const parts: string[] = [];
    let length = 0;
    for (let index = 1; length < size; index++) {
      parts.push(token(index));
      length += token(index).length + 1;
    }
    return parts.join(' ').slice(0, size);
  },
});

/** Lines just short enough for the outline, each `start`, `filler`…, `end`. */
const lines = (name: string, start: string, filler: string, end: string): Shape => {
  const line = start + fill(filler, OUTLINE_LINE - start.length - end.length) + end;
  return { name, build: (size) => fill(`${line}\n`, size) };
};

const SHAPES: readonly Shape[] = [
  // The shapes the issue names.
  repeated('one token', 'a'),
  repeated('a run of word, dot, at and dash characters', 'ab.de@fg-hi'),
  repeated('dots between letters', 'a.'),
  repeated('dots only', '.'),
  repeated('a camelCase run', 'aB'),
  repeated('unclosed double quotes', '"a'),
  repeated('unclosed single quotes', " 'a"),
  repeated('unclosed curly quotes', '“a'),
  repeated('a stack of blank lines', '\n'),
  repeated('a stack of blank CRLF lines', '\r\n'),
  // Runs of the characters paths, markup and code are made of.
  repeated('slashes between names', '/a'),
  repeated('slashes only', '/'),
  repeated('dotted name parts', 'a.'),
  repeated('double colons between names', 'a::'),
  repeated('backslashes between names', 'a\\'),
  repeated('arrows between names', 'a->'),
  repeated('hashes between names', 'a#'),
  // Secret-named assignments, each opening a statement where a default secret is looked for.
  repeated('secret-named assignments', 'token = process.env.X || '),
  repeated('import groups never closed', 'from a import (\n'),
  repeated('use groups never closed', 'use a::{\n'),
  repeated('import groups closed between definitions', 'from a import (\n)\ndef a():\n'),
  repeated('use groups closed between definitions', 'use A\\{\n};\nfunction a() {\n'),
  repeated('at signs', '@'),
  repeated('dashes', '-'),
  repeated('colons and dots', ':.'),
  repeated('spaces', ' '),
  repeated('version fields', 'numpy: 1.2\n'),
  between('spaces after a list marker', '-', ' ', 'x'),
  repeated('lines of spaces', `${fill(' ', 79)}\n`),
  repeated('stack-frame openings', 'at '),
  repeated('stack frames', '    at f (a.js:1:1)\n'),
  repeated('python frames with unclosed quotes', 'File "a'),
  repeated('backticks', '`'),
  repeated('fences on one line', '```a'),
  repeated('fences on their own lines', '```\n'),
  repeated('angle brackets', '<'),
  repeated('HTML comment openers', '<!-- a\n'),
  repeated('ideographs', '中'),
  repeated('CJK quotes left open', '「中'),
  between('ideographs before a closing quote', '「', '中', 'x」'),
  repeated('template braces', '${{{{'),
  repeated('parentheses', '('),
  repeated('heading marks', '# '),
  repeated('error labels', 'Error: '),
  repeated('words on one long line', 'a '),
  repeated('many short lines', 'a\n'),
  repeated('many short paths', 'a/b.js '),
  numbered('distinct file names', (index) => `src/f${index}.js`),
  // A long run between the two ends a pattern needs, so that each attempt fails at the end.
  between('spaces after a stack frame', 'at a.js:1', ' ', 'x'),
  between('commas in a stack frame path', 'at ', ',', 'a.js:1'),
  between('dots before a file name', '', '.', 'a.js'),
  between('spaces inside a heading', '# a', ' ', 'b'),
  between('backticks before a carriage return', '', '`', '\rx'),
  between('spaces in a type alias', 'type A', ' ', 'x'),
  between('test-like directory names', '', 'a-test.', '/x'),
  // Lines for the outline's per-language patterns.
  lines('import lines padded with spaces', 'import', ' ', 'x'),
  lines('import lines of a name padded with spaces', 'import a', ' ', 'x'),
  lines('export lines padded with spaces', 'export a', ' ', ' from x'),
  lines('function lines padded with spaces', 'function', ' ', '('),
  lines('method lines of colons', 'type(', ': ', '{x'),
  lines('arrow lines with a spaced type', 'type = b :', ' ', 'x'),
  lines('from-import lines with a carriage return', 'from a import', ' ', 'x\ry'),
  lines('parentheses before a semicolon', '', '(', ';'),
  lines('use lines padded with spaces', 'use', ' ', '!'),
];

export interface AdversarialInput {
  name: string;
  text: string;
}

export const ADVERSARIAL_INPUT_NAMES: readonly string[] = SHAPES.map((shape) => shape.name);

/** The hostile inputs (all, or those named), each of `size` characters. */
export function adversarialInputs(
  size = MEGABYTE,
  names: readonly string[] = ADVERSARIAL_INPUT_NAMES,
): AdversarialInput[] {
  return SHAPES.filter((shape) => names.includes(shape.name)).map((shape) => ({
    name: shape.name,
    text: shape.build(size),
  }));
}

/**
 * The reference: what any reader of the text does at least once, split it into lines, lower-case
 * them and count their words.
 */
export function plainScan(text: string): number {
  let words = 0;
  for (const line of text.split('\n')) words += line.toLowerCase().match(/\w+/g)?.length ?? 0;
  return words;
}

/** The keywords a task of this text would search for, and a long one, compiled. */
const keywordsOf = (text: string) =>
  [...extractTaskTerms(text.slice(0, 10_000)).keywords, text.slice(0, 900)].flatMap((keyword) => {
    const pattern = compileKeyword(keyword);
    return pattern ? [{ ...pattern, weight: 1 }] : [];
  });

/** A repository of a few thousand paths, for the files a task names and imports. */
const overview: RepoOverview = {
  fileCount: 4000,
  paths: Array.from({ length: 4000 }, (_, index) => `src/module-${index % 40}/file-${index}.ts`),
  kinds: {},
  directories: [],
  symbols: {},
  history: [],
  packages: [{ name: 'package', directory: '' }],
};

/**
 * Everything that runs regular expressions (or other scans) over untrusted text, by name. Each
 * reads the hostile text as what it would be given: a task, a file's content or name, the output
 * of `git log`, a judge's description of a gap.
 */
export const EXTRACTORS: Record<string, (text: string) => unknown> = {
  // The offline judge's reading of a task: its terms (issue template, stack traces, paths, code
  // blocks, quoted messages), the lexicon's synonyms, and the repository's files it names.
  task: (text) => namedFiles(buildTermModel(text), overview),
  'identifier words': (text) => splitIdentifier(text),
  // A whole file's analysis (its kind, outline, words), and the task's keywords matched in it.
  'TypeScript file': (text) => matchFile(analyzeSource('src/a.ts', text), keywordsOf(text)),
  'file name': (text) => analyzeSource(text, 'x'),
  // Excerpts widen hits to whole definitions: brackets in a brace language, indentation in Python.
  excerpt: (text) => {
    const file = analyzeSource('src/a.ts', text);
    return buildExcerpt(file, matchFile(file, keywordsOf(text)), 2000);
  },
  // The scan's search of a file's bytes, for its longest needle: one from the text, and the same
  // spoiled in its middle, so that every place its ends match is checked to the middle.
  'byte search': (text) => {
    const needle = text.slice(0, MAX_NEEDLE_LENGTH).toLowerCase();
    const middle = needle.length >> 1;
    const spoiled = `${needle.slice(0, middle)}\x7f${needle.slice(middle + 1)}`;
    const search = byteSearch(text);
    return [needle, spoiled]
      .filter(isSearchableNeedle)
      .map((each) => [search?.holds(each), search?.linesHolding(each).length]);
  },
  // The same of a file read again as bytes, with every line it holds cut out and decoded.
  'byte search of a file read again': (text) => {
    const bytes = Buffer.from(text);
    const search = fileByteSearch({
      maxBytes: bytes.length,
      readInto: (into) => (into.set(bytes), bytes.length),
    });
    const needle = text.slice(0, MAX_NEEDLE_LENGTH).toLowerCase();
    const lines = isSearchableNeedle(needle) ? (search?.linesHolding(needle) ?? []) : [];
    return lines.reduce((length, line) => length + (search?.line(line).length ?? 0), 0);
  },
  // Where groups of imported names begin and end, asked for every line, in each family that has them.
  'import groups': (text) => {
    const lines = text.split('\n');
    const holding = (words: readonly string[]) =>
      lines.flatMap((line, index) =>
        words.some((word) => line.toLowerCase().includes(word)) ? [index] : [],
      );
    return ['a.py', 'a.rs', 'a.php'].map((path) => {
      const inGroup = importGroupLines(path, (line) => lines[line] ?? '', holding);
      return lines.filter((_, line) => inGroup(line)).length;
    });
  },
  // A file asked for by path with no hit: its beginning, past any license header.
  'license header': (text) => buildExcerpt(analyzeSource('src/a.ts', text), [], 2000),
  'definition ranges': (text) => {
    const lines = text.split('\n');
    const starts = Array.from({ length: Math.min(lines.length, 200) }, (_, index) => ({
      name: 'x',
      line: Math.floor((index * lines.length) / 200) + 1,
      exported: false,
    }));
    return [definitionRanges('a.py', lines, starts), definitionRanges('a.rs', lines, starts)];
  },
  // Each distinct word as an import specifier a file writes (the outline reads lines of 400
  // characters). Distinct: what is bounded here is the work per specifier, and a megabyte of
  // one repeated word would time half a million identical microsecond calls instead.
  // Each word as an import of each language, and through a tsconfig's `paths`.
  'import resolution': (text) => {
    const config =
      '{"compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["src/*"], "a*b": ["*"]}}}';
    const resolver = createImportResolver([...overview.paths, 'tsconfig.json'], (path) =>
      path === 'tsconfig.json' ? [config] : undefined,
    );
    const words = [...new Set(text.split(/\s+/).map((word) => word.slice(0, 400)))];
    return ['src/a.ts', 'src/a.php', 'src/a.rs', 'a.go', 'src/a.py', 'src/a.c'].map((from) =>
      words.map((word) => resolver.resolveAll(from, word, [word.slice(0, 40)])),
    );
  },
  // The text as a tsconfig: comments, trailing commas and all.
  tsconfig: (text) =>
    createImportResolver(['tsconfig.json', 'src/a.ts'], (path) =>
      path === 'tsconfig.json' ? text.split('\n') : undefined,
    ).resolve('src/a.ts', 'a'),
  'git history': (text) =>
    scoreFilesByHistory(
      parseGitLog(`\x1e${text}\x1d\nsrc/a.ts\n\x1eFix the parser\x1d\nsrc/b.ts\n`),
      text,
    ),
  // The Markdown hand-over of a file with this content: its whole text, numbered, may be shown.
  'hand-over': (text) =>
    formatMarkdown(
      makePack({
        files: [makeFile({ path: 'src/a.ts', excerpt: numberLines(text.slice(0, 2000)) })],
      }),
      { excerpts: true, budgetTokens: 6000, contents: new Map([['src/a.ts', numberLines(text)]]) },
    ),
  // The task as the evaluator gets it when it is long: dumps, long blocks and its middle cut.
  'task digest': (text) => taskDigest(text, 1000),
  // The planner's overview of a repository whose file names are the text's words.
  'planner overview': (text) => {
    const paths = [...new Set(text.split(/\s+/))].map((word) => `src/${word.slice(0, 200)}.py`);
    return renderOverview({ ...overview, fileCount: paths.length, paths: paths.sort() }, 2500);
  },
  // Secret redaction over file contents and the task: secretlint's preset and our own rule.
  'secret redaction': (text) => redactSecrets(text),
  // Globs a user or a model's query may give, on file paths of the text: each would backtrack
  // for hours as a regular expression on a long run of one name or of short parts.
  'globs on file paths': (text) => {
    const matches = globMatcher([
      '*a*a*a*a*a*a*a*a*a*[^a]',
      '**/a/**/a/**/a/**/a/**/[^a]',
      '{*,*}{*,*}{*,*}{*,*}[^a]',
    ]);
    const paths: string[] = [];
    for (let at = 0; at < text.length; at += 4096) paths.push(text.slice(at, at + 4096));
    return paths.filter(matches).length;
  },
  gaps: (text) => {
    const judged = { path: 'src/a.ts', relevance: 0.9, cycle: 1, missingContext: [text] };
    return openGaps([judged as unknown as JudgedFile], 0.5, 1);
  },
};

/**
 * The pattern the issue found (paths in task text, before the fix): quadratic on a long run of
 * path characters. Not an extractor; it shows that the runner stops what it must stop.
 */
export const BACKTRACKING_EXAMPLE: Record<string, (text: string) => unknown> = {
  'the old file-path pattern': (text) => /(?:[\w.@-]+\/)*[\w.@-]+\.(?:js|ts)\b/.test(text),
};

const outline = (path: string) => (text: string) => extractOutline(path, text.split(/\r?\n/));

/**
 * The outline of a file in each language family. It reads lines of at most 400 characters, so a
 * pattern that backtracks within a line costs about a second a megabyte, not minutes: these need
 * a tighter bound than `EXTRACTORS` to be caught.
 */
export const OUTLINES: Record<string, (text: string) => unknown> = {
  'TypeScript outline': outline('src/a.ts'),
  'JavaScript outline': outline('lib/a.js'),
  'Python outline': outline('pkg/a.py'),
  'Go outline': outline('cmd/a.go'),
  'Rust outline': outline('src/a.rs'),
  'Java outline': outline('src/A.java'),
  'C outline': outline('src/a.c'),
  'Ruby outline': outline('lib/a.rb'),
  'PHP outline': outline('src/a.php'),
};

/** Every extractor the worker can run, by name. */
export function extractorNamed(name: string): ((text: string) => unknown) | undefined {
  return { ...EXTRACTORS, ...OUTLINES, ...BACKTRACKING_EXAMPLE }[name];
}
