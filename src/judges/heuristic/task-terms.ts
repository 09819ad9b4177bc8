import { identifiersOf, isCompoundIdentifier, splitIdentifier } from '../../text/identifiers.js';
import { MEMBER_CHAINS, MEMBER_SEPARATOR, memberOf } from '../../dispatch/keyword.js';
import { splitFencedCode } from '../../text/code-blocks.js';
import { INLINE_CODE, withoutIssueTemplate } from '../../text/issue-template.js';
import { stem } from '../../text/stem.js';
import { cjkPhrases } from '../../text/cjk.js';
import { stackTraces, withoutStackFrames } from './stack-traces.js';
import { insideNodeModules, isLibraryPath } from './written-paths.js';
import { STOP_WORDS } from '../../text/stop-words.js';
import type { FileKind } from '../../contracts/file-kind.js';
import { IMPORTANCE } from './weights.js';

/**
 * What a task description says, in retrieval terms: the keywords to search for with an importance
 * each, the files it names, and the kinds of file it is about. Identifiers, code spans, quoted
 * messages and stack frames say more than prose, so they weigh more.
 */
export interface TaskTerms {
  /** Keywords, most important first. */
  keywords: string[];
  importance: ReadonlyMap<string, number>;
  /** Paths or file names the task mentions outside stack traces (`lib/adapters/http.js`, `session-manager.ts`). */
  mentionedPaths: string[];
  /**
   * Files of installed packages the task mentions outside stack traces, from the package's name
   * on (`fetchy/lib/utils.js` of `node_modules/fetchy/lib/utils.js`): in a report against a
   * library, a path in the reporter's installed copy names a file of the library itself.
   */
  installedPaths: string[];
  /** The stack traces quoted, each innermost frame first, with paths as written. */
  traces: string[][];
  wantedKinds: ReadonlySet<FileKind>;
  /** The task without its issue template (headings, environment report, empty fields). */
  text: string;
  /** The task's prose: no code blocks, stack frames, paths or links. */
  prose: string;
}

const MAX_KEYWORDS = 40;
const MAX_MEMBERS = 10;

/** Words of code syntax, too common to identify anything. */
const CODE_WORDS = new Set(
  `abstract as async await boolean break case catch class const constructor continue debugger def default
  delete do elif else enum export extends false final finally float for from func function if implements
  import in instanceof int interface is let new nil none null number object of package private protected
  public return self static str string super switch this throw throws true try type typeof undefined
  var void while with yield console log print println require module exports document window value
  args arg data result err error res req callback cb fn foo bar baz test expect it describe`.split(
    /\s+/,
  ),
);

/**
 * A path or file name with a known extension. It starts only where a path can start: not inside a
 * run of path characters, nor after a `/` that follows one, so that each run is tried once, not
 * once per character (which took seconds on a long token). The matches are the same as without
 * that condition: a match found later in such a run would have been found from its start.
 */
const FILE_PATH =
  /(?<![\w.@-])(?<![\w.@-]\/)(?:[\w.@-]+\/)*[\w.@-]+\.(?:[cm]?[jt]sx?|vue|svelte|py|go|rs|java|kt|scala|cs|swift|c|h|cc|cpp|hpp|rb|php|json|ya?ml|toml|md)\b(?!\s*\()/g;
/** A quoted message; a single quote counts only outside a word, not as a contraction's apostrophe. */
const QUOTED = /"([^"\n]{6,160})"|(?<!\w)'([^'\n]{6,160})'(?!\w)|“([^”\n]{6,160})”/g;
const ERROR_LINE = /\b(?:[A-Z]\w*)?(?:Error|Exception|Warning):\s*([^\n]{6,160})/g;
/**
 * The tag of a common HTML element or of a single-file component's block (`<div`, `</template`),
 * not a comparison (`count<max`), a generic (`ref<Thing>`), a framework's own element
 * (`<transition>`, `<keep-alive>`) or a form control a bug may be about (`<select>`).
 */
const MARKUP_TAG =
  /(?<![\w$)\]])<\/?(?:a|b|i|p|br|em|hr|h[1-6]|li|ol|ul|tr|td|th|div|img|nav|pre|code|span|body|form|head|html|link|main|meta|small|style|table|tbody|thead|title|aside|label|button|footer|header|strong|script|article|section|template)(?![\w-])/g;
const URL = /\bhttps?:\/\/\S+/g;
/** A name of two to forty characters with no spaces and two letters at least (not `1.2.3`). */
const SHORT_CODE_NAME =
  /^-{0,2}(?=[^A-Za-z]{0,39}[A-Za-z][^A-Za-z]{0,39}[A-Za-z])[A-Za-z0-9][\w.-]{1,39}$/;
/** The distinct members a text writes with their owners, as `Owner.member` from each chain's last two parts. */
function memberNames(text: string): string[] {
  const names = new Set<string>();
  for (const [chain] of text.matchAll(MEMBER_CHAINS)) {
    if (!memberOf(chain)) continue;
    const [owner = '', member = ''] = chain.split(MEMBER_SEPARATOR).slice(-2);
    names.add(`${owner}.${member}`);
  }
  return [...names];
}

/** A file of an installed package, from the package's name on (scoped or not). */
const INSTALLED = /^(?:@[\w.-]+\/)?[\w.-]+\/[^\s:]+$/;

export function extractTaskTerms(written: string): TaskTerms {
  const task = withoutIssueTemplate(written);
  const importance = new Map<string, number>();
  // A keyword keeps the spelling it was first seen in; later spellings count for it.
  const spellings = new Map<string, string>();
  const add = (keyword: string, weight: number) => {
    // From the start of a run only: `[…]+$` alone scans every run of punctuation to its end.
    const clean = keyword.trim().replace(/(?<![.,;:!?)])[.,;:!?)]+$/, '');
    if (clean.length < 2) return;
    const lower = clean.toLowerCase();
    const key = spellings.get(lower) ?? clean;
    spellings.set(lower, key);
    importance.set(
      key,
      Math.max(importance.get(key) ?? 0, weight) +
        (importance.has(key) ? IMPORTANCE.secondRole : 0),
    );
  };
  const mentionedPaths = new Set<string>();
  const installedPaths = new Set<string>();
  const mention = (path: string) => {
    if (!isLibraryPath(path)) mentionedPaths.add(path);
    const installed = insideNodeModules(path);
    if (installed !== undefined && INSTALLED.test(installed)) installedPaths.add(installed);
  };

  // Paths inside links (`…/blob/main/lib/x.js#L10`) are mentions; the rest of a URL is noise.
  for (const url of task.match(URL) ?? []) {
    const blob = /\/(?:blob|tree)\/[^/]+\/([^#?\s)]+)/.exec(url);
    if (blob?.[1]) mentionedPaths.add(blob[1]);
  }
  const text = task.replace(URL, ' ');

  // A frame of the project names a file and a function; a frame of a library or the runtime
  // names neither in this repository.
  const traces = stackTraces(text);
  for (const { path, names } of traces.flat()) {
    if (isLibraryPath(path)) continue;
    for (const name of names) if (isUsefulIdentifier(name)) add(name, IMPORTANCE.codeIdentifier);
  }
  // Frames, paths and links are consumed: their words are not the task's words.
  const rest = withoutStackFrames(text);
  for (const match of rest.matchAll(FILE_PATH)) {
    if (!/^\d/.test(match[0])) mention(match[0].replace(/^\.?\//, ''));
  }
  const framePaths = traces.flat().map((frame) => frame.path);
  for (const path of [...mentionedPaths, ...framePaths.filter((path) => !isLibraryPath(path))]) {
    const base = path.replaceAll('\\', '/').split('/').pop() ?? path;
    const stemName = base.replace(/\.[^.]+$/, '').replace(/\.(d|test|spec)$/, '');
    if (stemName.length > 2 && !/^index$/i.test(stemName)) add(stemName, IMPORTANCE.mentionedFile);
  }

  // Quotes pair within a code span or within the prose around spans, never across a span's
  // edge: in `locale("zh-cn")` fails with "Invalid date" the message is `Invalid date`.
  const spans = [...rest.matchAll(INLINE_CODE)].map((match) => match[1] ?? '');
  for (const part of [rest.replace(INLINE_CODE, ' '), ...spans])
    for (const match of part.matchAll(QUOTED))
      addMessage(match[1] ?? match[2] ?? match[3] ?? '', add);
  for (const match of rest.matchAll(ERROR_LINE)) addMessage(match[1] ?? '', add);

  const withoutPaths = rest.replace(FILE_PATH, ' ');
  // A reproduction's markup tags (`<script setup>`, `<template>`, `<div>`) are the page's
  // scaffolding, not this repository's names; components (`<Suspense>`) and attributes stay.
  const fenced = splitFencedCode(withoutPaths);
  const code = fenced.code.join('\n').replace(MARKUP_TAG, ' ');
  const prose = fenced.rest;
  const inline = [...prose.matchAll(INLINE_CODE)].map((match) => match[1] ?? '').join('\n');
  // A reproduction's plain words (`color`, `width`) are the reporter's code, not this repository's
  // names; its compound identifiers and the spans the reporter marked as code say more.
  for (const identifier of identifiersOf(code)) {
    if (!isUsefulIdentifier(identifier)) continue;
    add(
      identifier,
      isCompoundIdentifier(identifier) ? IMPORTANCE.codeIdentifier : IMPORTANCE.codeWord,
    );
  }
  for (const identifier of identifiersOf(inline)) {
    if (isUsefulIdentifier(identifier)) add(identifier, IMPORTANCE.codeIdentifier);
  }
  // A short name marked as code is the reporter's pointer, however short: a locale `ku`, a
  // language tag `zh-cn`, an option `no_proxy`. Words split from it would say nothing.
  for (const match of prose.matchAll(INLINE_CODE)) {
    const span = (match[1] ?? '').trim();
    // A chain of members (`ds.Coarsen.construct`) is searched as its owner and member, below.
    if (memberNames(span).length > 0) continue;
    if (SHORT_CODE_NAME.test(span) && !CODE_WORDS.has(span.replace(/^-+/, '').toLowerCase()))
      add(span, IMPORTANCE.codeIdentifier);
  }

  const title = prose.split('\n', 1)[0] ?? '';
  const titleWords = new Set(identifiersOf(title).map((word) => word.toLowerCase()));
  const counts = new Map<string, number>();
  for (const token of identifiersOf(prose.replace(INLINE_CODE, ' '))) {
    if (isCompoundIdentifier(token)) {
      if (isUsefulIdentifier(token)) add(token, IMPORTANCE.proseIdentifier);
      continue;
    }
    const word = token.toLowerCase();
    if (word.length < 3 || STOP_WORDS.has(word) || /\d/.test(word)) continue;
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  // One keyword per stem: "expiry" and "expires" are the same search.
  const byStem = new Map<string, string>();
  for (const [word, count] of counts) {
    const existing = byStem.get(stem(word));
    if (existing === undefined || (counts.get(existing) ?? 0) < count) byStem.set(stem(word), word);
  }
  for (const word of byStem.values()) {
    const repeated = Math.min(
      IMPORTANCE.maxRepeated,
      IMPORTANCE.repeated * ((counts.get(word) ?? 1) - 1),
    );
    add(word, (titleWords.has(word) ? IMPORTANCE.titleWord : IMPORTANCE.word) + repeated);
  }

  // Chinese, Japanese or Korean text is searched as written (src/text/cjk.ts), not dropped.
  const cjk = cjkPhrases(prose);
  for (const phrase of cjk.quoted) add(phrase, IMPORTANCE.quotedMessage);
  for (const phrase of cjk.runs) add(phrase, IMPORTANCE.word);

  // A member written with its owner (`Coarsen.construct`) counts only where the owner defines it,
  // so it adds to the words rather than taking their places.
  const members = new Set(
    memberNames(inline + '\n' + prose.replace(INLINE_CODE, ' ')).slice(0, MAX_MEMBERS),
  );
  for (const member of members) importance.set(member, IMPORTANCE.codeIdentifier);

  const keywords = [
    ...[...importance.entries()]
      .filter(([keyword]) => !members.has(keyword))
      .sort((left, right) => right[1] - left[1])
      .slice(0, MAX_KEYWORDS)
      .map(([keyword]) => keyword),
    ...members,
  ];
  return {
    keywords,
    importance: new Map(
      keywords.map((keyword) => [keyword, importance.get(keyword) ?? IMPORTANCE.word]),
    ),
    mentionedPaths: [...mentionedPaths],
    installedPaths: [...installedPaths],
    traces: traces.map((trace) => trace.map((frame) => frame.path)),
    wantedKinds: wantedKindsOf(prose),
    text: task,
    prose,
  };
}

function isUsefulIdentifier(identifier: string): boolean {
  if (identifier.length < 3 || CODE_WORDS.has(identifier.toLowerCase())) return false;
  const words = splitIdentifier(identifier);
  return words.length > 1 || !STOP_WORDS.has(words[0] ?? '');
}

function addMessage(message: string, add: (keyword: string, weight: number) => void): void {
  const words = message.trim().split(/\s+/);
  // A message of several words is searched verbatim; a single token is an identifier or a value.
  if (words.length < 3 || !/[a-z]/i.test(message) || /^https?:/.test(message)) return;
  add(message.trim(), IMPORTANCE.quotedMessage);
  // The source has a template where the message has values (`3 known failures` is written
  // `{n} known failures` or `%d known failures`): the text between the values is searched too.
  for (const part of constantParts(words))
    if (part !== message.trim()) add(part, IMPORTANCE.quotedMessage * IMPORTANCE.templatePartShare);
}

/** A word that is a value a message was filled with: a number, a quoted or bracketed value. */
const VALUE = /^(?:[-+]?[\d.,:%x]*\d[\d.,:%x]*|["'`(<[{].*|.*["'`)>\]}][.,;:]?)$/;

/** The runs of two words or more between a message's values (when it has any). */
function constantParts(words: readonly string[]): string[] {
  const parts: string[][] = [[]];
  for (const word of words) {
    if (VALUE.test(word)) parts.push([]);
    else parts.at(-1)?.push(word);
  }
  return parts.length === 1
    ? []
    : parts.filter((part) => part.length >= 2).map((part) => part.join(' '));
}

const TYPES = String.raw`(?:typescript )?(?:typings|types|type (?:definitions?|declarations?)|declaration files?)`;
/** A task about the type declarations themselves: "fix the typings", "missing types", "the types … are wrong". */
const TYPES_ASK = new RegExp(
  String.raw`\b(?:(?:fix|update|add|correct|improve) (?:the )?${TYPES}|(?:wrong|incorrect|missing|broken) ${TYPES}|${TYPES}\b[^.\n]{0,40}\b(?:are|is) (?:wrong|incorrect|missing|broken))\b`,
  'i',
);

function wantedKindsOf(prose: string): Set<FileKind> {
  const kinds = new Set<FileKind>();
  if (TYPES_ASK.test(prose)) kinds.add('declaration');
  // Only an explicit ask counts: most bug reports mention tests or docs in passing.
  if (
    /\b(unit tests?|test suites?|test cases?|(?:add|write|fix|update|improve) (?:a |the )?(?:unit )?tests?)\b/i.test(
      prose,
    )
  )
    kinds.add('test');
  if (
    /\b(?:add|write|fix|update|improve) (?:the )?(?:docs|documentation|readme|changelog)\b/i.test(
      prose,
    )
  )
    kinds.add('docs');
  return kinds;
}
