import type { StopReason } from '../loop/stop-rules.js';
import type { ContextFile, ContextPack } from './context-pack.js';

export interface MarkdownOptions {
  /** Include each file's excerpt in a fenced code block. */
  excerpts: boolean;
}

const STOP_PHRASES: Record<StopReason, string> = {
  sufficient: 'the context was sufficient',
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
  return Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
}

/** Inline code that stays intact whatever backticks the text holds. */
function inlineCode(text: string): string {
  const ticks = '`'.repeat(longestBacktickRun(text) + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

/** A fence longer than any backtick run inside, so an excerpt holding ``` cannot close it early. */
function codeBlock(text: string, language: string): string {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${fence}${language}\n${text.replace(/\n+$/, '')}\n${fence}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
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

function fileSection(file: ContextFile, options: MarkdownOptions): string[] {
  const facts = [`relevance ${file.relevance.toFixed(2)}`, lineRangesText(file.lineRanges)];
  const blocks = [`## ${inlineCode(file.path)}`, facts.filter(Boolean).join(' · '), file.reason];
  if (file.missingContext.length > 0) {
    blocks.push(`Still needs: ${file.missingContext.map(oneLine).join('; ')}`);
  }
  if (options.excerpts && file.excerpt.trim() !== '') {
    blocks.push(codeBlock(file.excerpt, languageOf(file.path)));
  }
  return blocks;
}

function list(heading: string, items: readonly string[]): string[] {
  return items.length === 0 ? [] : [`## ${heading}`, items.map((item) => `- ${item}`).join('\n')];
}

/** The pack as Markdown, ready to paste into a subagent's prompt. */
export function formatMarkdown(pack: ContextPack, options: MarkdownOptions): string {
  const cycles = plural(pack.trace.length, 'cycle');
  const blocks = [
    `# Context for: ${oneLine(pack.task)}`,
    `Found by the ${inlineCode(pack.judge)} judge in ${cycles}; stopped because ${STOP_PHRASES[pack.stopReason]}.`,
  ];
  if (pack.files.length === 0) blocks.push('No relevant files were found for this task.');
  for (const file of pack.files) blocks.push(...fileSection(file, options));
  const gaps = pack.gaps.map((gap) => {
    const raisedBy = gap.raisedBy.map(inlineCode).join(', ');
    return `${oneLine(gap.description)}${raisedBy ? ` (raised by ${raisedBy})` : ''}`;
  });
  blocks.push(...list('Open gaps', gaps), ...list('Warnings', pack.warnings.map(oneLine)));
  // Excerpt lines can end in spaces; they carry no meaning in a prompt and trip whitespace checks.
  const text = blocks
    .filter((block) => block.trim() !== '')
    .join('\n\n')
    .replace(/[ \t]+$/gm, '');
  return `${text.trimEnd()}\n`;
}
