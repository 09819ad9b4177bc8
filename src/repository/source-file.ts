import { posix } from 'node:path';
import { lineAt as lineOfText, lineStartsOf } from '../text/line-starts.js';
import { identifiersOf, splitIdentifier } from '../text/identifiers.js';
import { countLines } from '../text/count-lines.js';
import { stem } from '../text/stem.js';
import { indexText, type StemTable, type WordPostings } from '../text/word-postings.js';
import { symbolStemsOf, type SymbolStems } from '../text/symbol-stems.js';
import { extractOutline, hasOutline, type Outline } from '../structure/outline.js';
import { type FileKind } from '../contracts/file-kind.js';
import { RecentTexts, type HeldText } from './recent-texts.js';
import type { StoredRows } from './word-index.js';
import { readIntoWithin, readTextAgain, type FileIdentity } from '../file-system/tree.js';

/** A file read once per run, with the small indexes every cycle's matching reuses. */
export interface SourceFile {
  path: string;
  kind: FileKind;
  /** The content, each line break as `\n`. */
  text: string;
  lineCount: number;
  /**
   * The content's lines, split on first use and kept: only the files a run shows or parses are
   * asked for them, so the workspace holds one string per file, not one per line.
   */
  readonly lines: readonly string[];
  /** Line `line` (0-based; '' past the last), cut out of the text: the text is not split whole. */
  lineAt(line: number): string;
  outline: Outline;
  /**
   * Stems of the words of the file name without its extension, and of its directories. A task's
   * "JSON" or "rst" names a format: it is `json.py` or `rst.py`, not every `*.json` or `*.rst`
   * (which, counted, made the word look too common to matter).
   */
  fileNameStems: ReadonlySet<string>;
  directoryStems: ReadonlySet<string>;
  /** Its words by line, when they come from a stored index: searched instead of the text. */
  words?: IndexedWords | undefined;
  /** Where its text is not held: its bytes, read again where a search needs them. */
  bytes?: FileOnDisk | undefined;
}

/** A file's bytes, read again on each search rather than held. */
export interface FileOnDisk {
  /** Most bytes the file may have: a longer one reads as empty. */
  readonly maxBytes: number;
  /** Reads the file into `into` (`maxBytes` and one more): how many bytes, or undefined. */
  readInto(into: Uint8Array): number | undefined;
}

/** A file's words as a stored index keeps them (src/repository/word-index.ts). */
export interface IndexedWords {
  table: StemTable;
  postings: WordPostings;
  /** 0-based lines longer than a match may be (`MAX_MATCHED_LINE_LENGTH`), ascending. */
  longLines: Uint32Array;
  /** The stems of the outline's symbols' names, in its order. */
  symbolStemIds: SymbolStems;
  /** `fileNameStems` and `directoryStems`, as ids: a warm run finds no file's name stems itself. */
  nameStemIds: Uint32Array;
  directoryStemIds: Uint32Array;
  /** Where a stored index's rows (of files by stem) have this file, for one read from it. */
  stored?: { place: number; rows: StoredRows } | undefined;
}

// `a.test.ts` is looked for in the file name only, each directory's name scanned once: a search
// from every `.test.` to the path's end would be quadratic in a long directory name.
const TEST_PATH =
  /(^|\/)(__tests__|__mocks__|tests?|spec|specs|e2e|fixtures?|testdata|testing|[\w-]*-tests?)\/|(?:^|\/)(?=[^/]*$)[^/]*[._-](test|spec)s?(-d)?\.[^/]|(^|\/)test_[^/]+\.py$|_test\.go$|\.feature$|(^|\/)step_definitions\//i;
const DECLARATION_PATH = /\.d\.[cm]?ts$|\.pyi$/i;
const EXAMPLE_PATH =
  /(^|\/)(examples?|demos?|samples?|sandbox|playgrounds?|[\w-]*-playground|benchmarks?|benches|bench)\//i;
const CONFIG_NAME =
  /(^|\/)(\.github|\.circleci|\.husky|scripts)\/|(^|\/)[\w.-]*\.(config|conf)\.[cm]?[jt]s$|(^|\/)(karma|jest|vitest|webpack|rollup|babel|gulpfile|gruntfile|eslint)[\w.-]*\.[cm]?[jt]s$/i;
const DOCS_EXTENSIONS = new Set(['md', 'mdx', 'markdown', 'rst', 'txt', 'adoc']);
const CONFIG_EXTENSIONS = new Set([
  'json',
  'jsonc',
  'json5',
  'yaml',
  'yml',
  'toml',
  'ini',
  'cfg',
  'conf',
  'xml',
  'lock',
  'env',
  'properties',
]);

export function kindOf(path: string): FileKind {
  if (TEST_PATH.test(path)) return 'test';
  const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  if (DOCS_EXTENSIONS.has(extension) || /(^|\/)docs?\//i.test(path)) return 'docs';
  if (
    CONFIG_EXTENSIONS.has(extension) ||
    CONFIG_NAME.test(path) ||
    posix.basename(path).startsWith('.')
  )
    return 'config';
  if (EXAMPLE_PATH.test(path)) return 'example';
  if (DECLARATION_PATH.test(path)) return 'declaration';
  return 'source';
}

const wordsCache = new Map<string, string[]>();

/** Stems of an identifier's words, cached because identifiers repeat across a repository. */
export function stemsOfIdentifier(identifier: string): string[] {
  let stems = wordsCache.get(identifier);
  if (!stems) {
    stems = splitIdentifier(identifier).map(stem);
    if (wordsCache.size > 200_000) wordsCache.clear();
    wordsCache.set(identifier, stems);
  }
  return stems;
}

/** The stems of a name's identifiers: each identifier is split and stemmed once, and kept. */
function stemsOfText(text: string): Set<string> {
  const stems = new Set<string>();
  for (const identifier of identifiersOf(text))
    for (const word of stemsOfIdentifier(identifier)) stems.add(word);
  return stems;
}

const TYPESCRIPT = /\.(?:ts|tsx|mts|cts)$/i;
const TYPE_DEFINITION =
  /^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:interface\s+[A-Za-z_$]|type\s+[A-Za-z_$][\w$]*\s*(?:<.*>\s*)?=)/;
/**
 * What runs: functions, classes, enums, bindings, value exports, top-level calls. Ambient
 * `declare` forms, `export {}`, type-only exports and a property named `class?:` are not code.
 */
const RUNTIME_CODE =
  /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\b(?!\s*\??:)|^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+[A-Za-z_$]|^\s*(?:export\s+)?(?:const\s+)?enum\s|^\s*(?:export\s+)?(?:const|let|var)\s|\bexport\s+(?:const|let|var|function|class)\s|^\s*export\s*=|^\s*export\s+(?:\*|\{(?!\s*(?:type\b[^}]*)?\})|default\s+(?!interface\b|type\b)[A-Za-z_$]*\s*[^\s;]*)|^\s*(?:module\.)?exports\b|^[A-Za-z_$][\w$.]*\s*\(/;
/**
 * A TypeScript module that only declares types (JSX attribute tables, option interfaces) describes
 * an API without implementing it, as a `.d.ts` does.
 */
function declaresOnlyTypes(path: string, linesOf: () => readonly string[]): boolean {
  if (!TYPESCRIPT.test(path)) return false;
  const lines = linesOf();
  return (
    // Code comes early in real source: this stops at the first line of it.
    !lines.some((line) => RUNTIME_CODE.test(line)) &&
    lines.some((line) => TYPE_DEFINITION.test(line))
  );
}

/** Most names (of files, of directories) whose stems each cache keeps; past them, it starts again. */
const MAX_KEPT_NAMES = 50_000;

/**
 * `key`'s stems, found by `stemsOf` once and kept in `cache` for the next file that asks. Named
 * functions, not closures: every file read asks twice.
 */
function keptStems(
  cache: Map<string, ReadonlySet<string>>,
  key: string,
  stemsOf: (key: string) => ReadonlySet<string>,
): ReadonlySet<string> {
  let stems = cache.get(key);
  if (!stems) {
    stems = stemsOf(key);
    if (cache.size >= MAX_KEPT_NAMES) cache.clear();
    cache.set(key, stems);
  }
  return stems;
}

/**
 * A file name's stems, and the name's own as one word: a task that writes `VLOOKUP` or
 * `datareader` names `VLookup.php` or `data_reader.rb`, whose words are `v lookup`, `data reader`.
 * Files of one name (`index.ts`, `__init__.py`) share them.
 */
function stemsOfFileName(name: string): Set<string> {
  const stems = stemsOfText(name);
  const whole = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (stems.size > 1 && whole) stems.add(stem(whole));
  return stems;
}
const fileNameStemsCache = new Map<string, ReadonlySet<string>>();
const fileNameStemsOf = (name: string) => keptStems(fileNameStemsCache, name, stemsOfFileName);

/** `rst.py` → `rst`, `jquery.dataTables.js` → `jquery.dataTables`; `.gitignore` stays whole. */
function withoutLastExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/**
 * Files of a directory share its stems: each directory's are found once, and kept a while (the
 * root, `.`, has none).
 */
const directoryStemsCache = new Map<string, ReadonlySet<string>>();
const directoryStemsOf = (directory: string) =>
  keptStems(directoryStemsCache, directory, stemsOfText);

/** A file's content as a `SourceFile`'s text: each line break as `\n`. */
export const normalizeLineBreaks = (content: string) =>
  content.includes('\r') ? content.replace(/\r\n/g, '\n') : content;

/** What every file has by its path alone, and what is found from its text and outline on use. */
abstract class FileOfWorkspace implements SourceFile {
  abstract readonly kind: FileKind;
  abstract readonly lineCount: number;
  abstract readonly text: string;
  private cachedOutline: Outline | undefined;
  private cachedNameStems: ReadonlySet<string> | undefined;
  private cachedDirectoryStems: ReadonlySet<string> | undefined;

  constructor(readonly path: string) {}

  /** Found on first use: a warm run makes a file for every one listed, and searches a few. */
  get fileNameStems(): ReadonlySet<string> {
    return (this.cachedNameStems ??= this.findNameStems());
  }

  get directoryStems(): ReadonlySet<string> {
    return (this.cachedDirectoryStems ??= this.findDirectoryStems());
  }

  protected findNameStems(): ReadonlySet<string> {
    return fileNameStemsOf(withoutLastExtension(posix.basename(this.path)));
  }

  protected findDirectoryStems(): ReadonlySet<string> {
    return directoryStemsOf(posix.dirname(this.path));
  }

  /** The text, with its lines and line starts kept beside it for as long as it is. */
  protected abstract held(): HeldText;

  get lines(): readonly string[] {
    const held = this.held();
    return (held.splitLines ??= held.text.split('\n'));
  }

  lineAt(line: number): string {
    const held = this.held();
    // A few lines are asked for where a kept workspace would otherwise hold every line split.
    if (held.splitLines) return held.splitLines[line] ?? '';
    return lineOfText(held.text, (held.lineStarts ??= lineStartsOf(held.text)), line);
  }

  /**
   * Found on first use: only candidates, or a model's overview, ask for it (a search reads a
   * definition from its line alone), and most files of a large repository are neither.
   */
  get outline(): Outline {
    // Data, docs and config have no outline to find: their lines are not split to look. Lines
    // split here are not kept: most files whose outline is asked for never show a line.
    if (this.cachedOutline) return this.cachedOutline;
    const held = hasOutline(this.path) ? this.held() : undefined;
    return (this.cachedOutline = extractOutline(
      this.path,
      held ? (held.splitLines ?? held.text.split('\n')) : [],
    ));
  }
}

/**
 * A file read in this run. A class, not a literal with getters: a cold run makes one for every
 * file it reads.
 */
class ReadSource extends FileOfWorkspace implements HeldText {
  readonly text: string;
  readonly kind: FileKind;
  readonly lineCount: number;
  splitLines: string[] | undefined;
  lineStarts: number[] | undefined;

  constructor(path: string, content: string) {
    super(path);
    this.text = normalizeLineBreaks(content);
    this.lineCount = countLines(this.text);
    const kind = kindOf(path);
    this.kind =
      kind === 'source' && declaresOnlyTypes(path, () => this.text.split('\n'))
        ? 'declaration'
        : kind;
  }

  /** Its text is its own, held with it: so are its lines. */
  protected held(): HeldText {
    return this;
  }
}

export function analyzeSource(path: string, content: string): SourceFile {
  return new ReadSource(path, content);
}

/** What a file read elsewhere is, for ranking: its kind and length, found from its text there. */
export interface FileDescription {
  kind: FileKind;
  lineCount: number;
}

/** Where the files of a tree are read again from, and within what bound. */
export interface TreeToReadAgain {
  root: string;
  maxBytes: number;
}

/** The texts of described files used last: a search and an excerpt ask for one text in turn. */
const describedTexts = new RecentTexts<DescribedSource>(16, 4 * 1024 * 1024);

/**
 * A file read in this run whose text is not held here: read by another thread, which holds its
 * text and searches it (src/dispatch/partner.ts), or too large to hold among many. It keeps what
 * ranking needs, and reads the text again where something asks for it (a candidate's outline or
 * excerpt), the last few kept a while; `searchedOnDisk`, a search reads its bytes again too. Only
 * from the file listed: one gone or grown reads as empty. A class with no closures: a large tree
 * makes one for most files.
 */
class DescribedSource extends FileOfWorkspace implements FileOnDisk {
  readonly kind: FileKind;
  readonly lineCount: number;

  constructor(
    path: string,
    description: FileDescription,
    private readonly identity: FileIdentity | undefined,
    private readonly tree: TreeToReadAgain,
    private readonly searchedOnDisk: boolean,
  ) {
    super(path);
    this.kind = description.kind;
    this.lineCount = description.lineCount;
  }

  get text(): string {
    return this.held().text;
  }

  get bytes(): FileOnDisk | undefined {
    return this.searchedOnDisk ? this : undefined;
  }

  get maxBytes(): number {
    return this.tree.maxBytes;
  }

  readInto(into: Uint8Array): number | undefined {
    return readIntoWithin(this.tree.root, this.path, into, this.identity);
  }

  protected held(): HeldText {
    const kept = describedTexts.get(this);
    if (kept) return kept;
    const { root, maxBytes } = this.tree;
    const text = readTextAgain(root, this.path, maxBytes, this.identity);
    return describedTexts.set(this, normalizeLineBreaks(text));
  }
}

/** A file read and analysed, its text not held here (see `DescribedSource`). */
export function describedSource(
  path: string,
  description: FileDescription,
  identity: FileIdentity | undefined,
  tree: TreeToReadAgain,
  searchedOnDisk: boolean,
): SourceFile {
  return new DescribedSource(path, description, identity, tree, searchedOnDisk);
}

/** What a stored index keeps of a file that was read (src/repository/word-index.ts). */
export interface StoredAnalysis {
  kind: FileKind;
  lineCount: number;
  readonly outline: Outline;
}

/**
 * The texts of one workspace's restored files read last (`restoredTexts`). A run reads a few
 * thousand at most (to tell exact phrases, to cut excerpts), often one several times; a workspace
 * held across runs would otherwise keep every text any run read (13M characters after one task
 * at 50k files, 55M after ten). One per workspace, so that a workspace let go takes its texts,
 * and its files, with it.
 */
export type RestoredTexts = RecentTexts<SourceFile>;
export const restoredTexts = (): RestoredTexts => new RecentTexts(8192, 32 * 1024 * 1024);

/**
 * A file as a stored index describes it: its text is read only when something needs it (an
 * exact phrase to tell, an excerpt to cut), through `readText`. A class, not a literal with
 * getters: a warm run makes one for every file of the repository.
 */
class RestoredSource extends FileOfWorkspace {
  constructor(
    path: string,
    private readonly stored: StoredAnalysis,
    readonly words: IndexedWords,
    private readonly readText: () => string,
    private readonly texts: RestoredTexts,
  ) {
    super(path);
  }

  get kind(): FileKind {
    return this.stored.kind;
  }

  get lineCount(): number {
    return this.stored.lineCount;
  }

  override get outline(): Outline {
    return this.stored.outline;
  }

  protected override findNameStems(): ReadonlySet<string> {
    return stemsOfIds(this.words.nameStemIds, this.words.table);
  }

  protected override findDirectoryStems(): ReadonlySet<string> {
    return stemsOfIds(this.words.directoryStemIds, this.words.table);
  }

  get text(): string {
    return this.held().text;
  }

  protected held(): HeldText {
    return this.texts.get(this) ?? this.texts.set(this, normalizeLineBreaks(this.readText()));
  }
}

export function restoreSource(
  path: string,
  stored: StoredAnalysis,
  words: IndexedWords,
  readText: () => string,
  texts: RestoredTexts,
): SourceFile {
  return new RestoredSource(path, stored, words, readText, texts);
}

/**
 * A file's words by line, its symbols' stems and its name's, for a stored index: what searches of
 * it find.
 */
export function indexWords(
  file: Pick<SourceFile, 'text' | 'outline' | 'fileNameStems' | 'directoryStems'>,
  table: StemTable,
): IndexedWords {
  return {
    table,
    ...indexText(file.text, table),
    // Stemmed as the search stems them (`stemsOfIdentifier`), through the same cache.
    symbolStemIds: symbolStemsOf(
      file.outline.symbols.map((symbol) => stemsOfIdentifier(symbol.name)),
      table,
    ),
    nameStemIds: idsOf(file.fileNameStems, table),
    directoryStemIds: idsOf(file.directoryStems, table),
  };
}

const idsOf = (stems: ReadonlySet<string>, table: StemTable) =>
  Uint32Array.from(stems, (word) => table.intern(word));

const stemsOfIds = (ids: Uint32Array, table: StemTable): ReadonlySet<string> =>
  new Set(Array.from(ids, (id) => table.stems[id] ?? ''));
