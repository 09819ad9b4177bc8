import type { StopReason } from '../loop/stop-conditions.js';
import type { ContextFile, ContextPack, RelatedFile } from './context-pack.js';
import { taskTitle } from './task-title.js';
import { quotePath, unicodeEscape } from '../text/quote-path.js';
import { estimateTokens } from '../contracts/tokens.js';
import { oneLine } from '../text/one-line.js';

export interface MarkdownOptions {
  /** Include each file's excerpt in a fenced code block. */
  excerpts: boolean;
  /**
   * Most tokens of the whole text (`estimateTokens`). With it, every file's body is shown that
   * fits, whatever `excerpts` says: the room the headings, reasons, gaps and warnings leave goes
   * to whole files or excerpts, most relevant file first; when even those do not fit, the least
   * relevant files are left out.
   */
  budgetTokens?: number | undefined;
  /**
   * Whole files as they may be shown — numbered like excerpts and already redacted — by path.
   * Used only with `budgetTokens`: a whole file that fits is shown instead of its excerpt.
   */
  contents?: ReadonlyMap<string, string> | undefined;
  /**
   * Parts of files too long to show whole, by path (src/output/file-parts.ts). Used only with
   * `budgetTokens`: parts that fit are shown instead of the excerpt.
   */
  parts?: ReadonlyMap<string, FilePartsText> | undefined;
}

/** The enclosing definitions of a file's lines that matter, numbered, and what they leave out. */
export interface FilePartsText {
  /** "Parts of the file: lines 10–42 (function `x`); lines 1–9, 43–120 left out." */
  note: string;
  text: string;
}

const STOP_PHRASES: Record<StopReason, string> = {
  sufficient: 'the context was sufficient',
  'no-new-relevant': 'a cycle found no new highly relevant file',
  'min-files': 'enough highly relevant files were held',
  'stop-when': 'a stop condition was met',
  'max-cycles': 'the cycle limit was reached',
  'no-new-candidates': 'no new candidates were found',
  budget: 'a budget ran out',
  aborted: 'the run was aborted',
};

/** Fence languages by extension (`ext` or `ext:language`), or by name for files without one. */
const LANGUAGES = new Map(
  `ts tsx js jsx py go rs java scala php swift c cpp lua dart r sh bash zsh sql graphql proto vue
  svelte html css scss less mdx json jsonc yaml toml xml ini dockerfile makefile mts:ts cts:ts
  mjs:js cjs:js kt:kotlin kts:kotlin rb:ruby cs:csharp fs:fsharp h:c cc:cpp hpp:cpp m:objc
  ex:elixir exs:elixir erl:erlang hs:haskell pl:perl ps1:powershell md:markdown yml:yaml tf:hcl`
    .split(/\s+/)
    .map((entry): [string, string] => [entry.replace(/:.*/, ''), entry.replace(/^.*:/, '')]),
);

function languageOf(path: string): string {
  const name = (path.split('/').pop() ?? '').toLowerCase();
  const dot = name.lastIndexOf('.');
  return LANGUAGES.get(dot > 0 ? name.slice(dot + 1) : name) ?? '';
}

function longestBacktickRun(text: string): number {
  // A loop, not `Math.max(...runs)`: a file of many runs would overflow the call stack.
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

/** Inline code that stays intact whatever backticks the text holds. */
function inlineCode(text: string): string {
  const ticks = '`'.repeat(longestBacktickRun(text) + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

/**
 * Control characters but the tab and the line break, and the bidirectional overrides: a terminal
 * acts on the first (clears the screen, sets the clipboard), and the second show code in another
 * order than it runs (Trojan Source). In code they are written as escapes a reader can see.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it finds.
const UNSHOWN_IN_CODE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** A fence longer than any backtick run inside, so an excerpt holding ``` cannot close it early. */
function codeBlock(text: string, language: string): string {
  const shown = text.replace(UNSHOWN_IN_CODE, unicodeEscape);
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(shown) + 1));
  // Trailing runs are matched from their start only: `\n+$` alone rescans every run to its end.
  return `${fence}${language}\n${shown.replace(/(?<!\n)\n+$/, '')}\n${fence}`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function lineRangesText(ranges: ContextFile['lineRanges']): string {
  if (ranges.length === 0) return '';
  const single = ranges.length === 1 && ranges[0]?.[0] === ranges[0]?.[1];
  const parts = ranges.map(([start, end]) => (start === end ? `${start}` : `${start}–${end}`));
  return `${single ? 'line' : 'lines'} ${parts.join(', ')}`;
}

/** What is shown of a pack: the files kept, each with the blocks under its facts, and notes. */
interface Layout {
  sections: readonly (readonly [ContextFile, readonly string[]])[];
  /** How many of the related files are listed, most relevant first. */
  related: number;
  notes: readonly string[];
  /** Whether the open gaps and warnings are listed. */
  lists: boolean;
  /** Whether the whole task follows the title, when the title is only its first line. */
  wholeTask?: boolean;
}

function fileSection(file: ContextFile, body: readonly string[]): string[] {
  const facts = [`relevance ${file.relevance.toFixed(2)}`, lineRangesText(file.lineRanges)];
  // A file name or a reason that holds a line break must not start a heading of its own.
  const blocks = [
    `## ${inlineCode(quotePath(file.path))}`,
    facts.filter(Boolean).join(' · '),
    oneLine(file.reason),
  ];
  if (file.missingContext.length > 0) {
    blocks.push(`Still needs: ${file.missingContext.map(oneLine).join('; ')}`);
  }
  return [...blocks, ...body];
}

/** A related file on one line: where to look next, and why. */
function relatedItem(file: RelatedFile): string {
  const kind = file.kind === 'source' ? '' : `, ${file.kind}`;
  return `${inlineCode(quotePath(file.path))} (${file.relevance.toFixed(2)}${kind}): ${oneLine(file.reason)}`;
}

function relatedSection(related: readonly RelatedFile[]): string[] {
  if (related.length === 0) return [];
  return [
    '## Related files',
    'Not included: open one if the files above leave a gap.',
    related.map((file) => `- ${relatedItem(file)}`).join('\n'),
  ];
}

function list(heading: string, items: readonly string[]): string[] {
  return items.length === 0 ? [] : [`## ${heading}`, items.map((item) => `- ${item}`).join('\n')];
}

function render(pack: ContextPack, layout: Layout): string {
  const cycles = plural(pack.trace.length, 'cycle');
  const title = taskTitle(pack.task);
  const blocks = [
    `# Context for: ${title}`,
    `Found by the ${inlineCode(pack.judge)} judge in ${cycles}; stopped because ${STOP_PHRASES[pack.stopReason]}.`,
  ];
  if (layout.wholeTask && oneLine(pack.task) !== title)
    blocks.push('## Task', codeBlock(pack.task.trim(), 'text'));
  if (pack.files.length === 0) blocks.push('No relevant files were found for this task.');
  for (const [file, body] of layout.sections) blocks.push(...fileSection(file, body));
  blocks.push(...relatedSection(pack.related.slice(0, layout.related)));
  blocks.push(...layout.notes);
  if (layout.lists) {
    const gaps = pack.gaps.map((gap) => {
      const raisedBy = gap.raisedBy.map((path) => inlineCode(quotePath(path))).join(', ');
      return `${oneLine(gap.description)}${raisedBy ? ` (raised by ${raisedBy})` : ''}`;
    });
    blocks.push(...list('Open gaps', gaps), ...list('Warnings', pack.warnings.map(oneLine)));
  }
  // Excerpt lines can end in spaces; they carry no meaning in a prompt and trip whitespace checks.
  const text = blocks
    .filter((block) => block.trim() !== '')
    .join('\n\n')
    .replace(/(?<![ \t])[ \t]+$/gm, '');
  return `${text.trimEnd()}\n`;
}

/**
 * The bodies a file can have in a hand-over, best first: the whole file, its enclosing
 * definitions, then its excerpt.
 */
function bodyChoices(
  file: ContextFile,
  contents: ReadonlyMap<string, string>,
  partsByPath: ReadonlyMap<string, FilePartsText>,
): string[][] {
  const language = languageOf(file.path);
  const whole = contents.get(file.path) ?? '';
  const parts = partsByPath.get(file.path);
  return [
    ...(whole.trim() !== '' ? [['Whole file:', codeBlock(whole, language)]] : []),
    ...(parts && parts.text.trim() !== ''
      ? [[oneLine(parts.note), codeBlock(parts.text, language)]]
      : []),
    ...(file.excerpt.trim() !== '' ? [['Excerpt:', codeBlock(file.excerpt, language)]] : []),
  ];
}

function leftOutNote(file: ContextFile): string {
  const ranges = lineRangesText(file.lineRanges);
  return `Body left out to fit the token budget: read ${ranges || 'the file'}.`;
}

/** The title alone, the task clipped to fit: the last resort of a tiny budget. */
function titleWithin(pack: ContextPack, budgetTokens: number): string {
  const title = `# Context for: ${taskTitle(pack.task)}`;
  // Whole tokens of four characters, less the closing newline.
  const room = Math.floor(budgetTokens) * 4 - 1;
  if (room <= 0) return '';
  return `${title.length > room ? `${title.slice(0, room - 1)}…` : title}\n`;
}

function formatWithinBudget(
  pack: ContextPack,
  budgetTokens: number,
  contents: ReadonlyMap<string, string>,
  parts: ReadonlyMap<string, FilePartsText>,
): string {
  const fits = (text: string) => estimateTokens(text) <= budgetTokens;
  // Stable, so equally relevant files keep the pack's order.
  const ranked = [...pack.files].sort((left, right) => right.relevance - left.relevance);
  const choices = new Map(ranked.map((file) => [file, bodyChoices(file, contents, parts)]));
  // Every file starts with the note that stands for its body; a body replaces it if it fits.
  const bodies = new Map(
    ranked.map((file) => [file, choices.get(file)?.length ? [leftOutNote(file)] : []]),
  );
  let related = pack.related.length;
  const layoutOf = (kept: number, lists: boolean): Layout => {
    const shown = new Set(ranked.slice(0, kept));
    const omitted = ranked.length - kept;
    const relatedOmitted = pack.related.length - related;
    const notes = [
      omitted > 0
        ? `${plural(omitted, 'less relevant file')} left out to fit the token budget.`
        : '',
      relatedOmitted > 0
        ? `${plural(relatedOmitted, 'less relevant related file')} left out to fit the token budget.`
        : '',
      lists || pack.gaps.length + pack.warnings.length === 0
        ? ''
        : 'Open gaps and warnings left out to fit the token budget.',
    ];
    return {
      sections: pack.files
        .filter((file) => shown.has(file))
        .map((file) => [file, bodies.get(file) ?? []] as const),
      related,
      notes: notes.filter(Boolean),
      lists,
    };
  };
  // The gap and warning lists go first, then the least relevant related files, then the least
  // relevant core files: the core is the context, the related list only points further.
  let kept = ranked.length;
  const lists = fits(render(pack, layoutOf(kept, true)));
  while (related > 0 && !fits(render(pack, layoutOf(kept, lists)))) related--;
  while (kept > 0 && !fits(render(pack, layoutOf(kept, lists)))) kept--;
  if (!fits(render(pack, layoutOf(kept, lists)))) return titleWithin(pack, budgetTokens);
  // The most relevant file's whole body is worth more than naming the least relevant files: it
  // may take their places. Any other body only takes the room that is left.
  const [top] = ranked;
  const wholeTop = top && contents.has(top.path) ? choices.get(top)?.[0] : undefined;
  if (top && wholeTop) {
    const note = bodies.get(top) ?? [];
    bodies.set(top, wholeTop);
    let room = kept;
    while (room > 1 && !fits(render(pack, layoutOf(room, lists)))) room--;
    if (fits(render(pack, layoutOf(room, lists)))) kept = room;
    else bodies.set(top, note);
  }
  for (const file of ranked.slice(0, kept)) {
    const note = bodies.get(file) ?? [];
    if (note === wholeTop) continue;
    for (const choice of choices.get(file) ?? []) {
      bodies.set(file, choice);
      if (fits(render(pack, layoutOf(kept, lists)))) break;
      bodies.set(file, note);
    }
  }
  return render(pack, layoutOf(kept, lists));
}

/**
 * The pack as Markdown, ready to paste into a subagent's prompt. With `budgetTokens` it is the
 * hand-over: never longer than the budget, with as much of the files as fits.
 */
export function formatMarkdown(pack: ContextPack, options: MarkdownOptions): string {
  if (options.budgetTokens !== undefined)
    return formatWithinBudget(
      pack,
      options.budgetTokens,
      options.contents ?? new Map(),
      options.parts ?? new Map(),
    );
  return render(pack, {
    sections: pack.files.map((file) => [
      file,
      options.excerpts && file.excerpt.trim() !== ''
        ? [codeBlock(file.excerpt, languageOf(file.path))]
        : [],
    ]),
    related: pack.related.length,
    notes: [],
    lists: true,
    // Without a budget the task is shown whole, so the text stands on its own in a prompt.
    wholeTask: true,
  });
}
