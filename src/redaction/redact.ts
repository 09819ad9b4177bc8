import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { rules as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend';
import type {
  SecretLintCoreConfig,
  SecretLintCoreConfigRule,
  SecretLintCoreResultMessage,
  SecretLintRuleCreator,
} from '@secretlint/types';
import { EXTRA_SECRETS_RULE_ID, extraSecretsRule } from './secret-rule.js';

// secretlint's profiler records a performance mark per rule and scan, keeps every entry forever
// and searches them linearly: in a long-lived process each run gets slower than the last. No
// profile is ever read here, so its marks are switched off.
secretLintProfiler.mark = () => {};

/**
 * Secrets are cut out of every text before it leaves the machine: secretlint's recommended
 * preset (cloud, VCS, chat, AI and package-registry tokens, private keys, connection strings)
 * plus our own rule for what it misses (./secret-rule.ts). Each secret becomes
 * `[REDACTED:<rule>]` on each line it spans, so a text keeps its lines and their numbers; the text
 * around it is kept byte for byte. Text inside JSON strings (a notebook's source, a JSON config) is
 * also read with its escapes undone, so `\"…\"` hides nothing.
 */

/** How many secrets one rule redacted. */
export interface Redaction {
  /** Short rule name, as in the `[REDACTED:<rule>]` marker: `aws`, `github`, `jwt`, `generic`… */
  rule: string;
  count: number;
}

export interface RedactedText {
  text: string;
  /** One entry per rule that redacted something, by rule name. */
  redactions: Redaction[];
}

const PRESET_RULE_PREFIX = '@secretlint/secretlint-rule-';

/**
 * Rules of the recommended preset that do not apply. `filter-comments` honours
 * `// secretlint-disable` comments, which must not let a searched repository's secret out. The
 * preset's rules are registered one by one because secretlint 12 ignores `disabled` on a rule
 * inside a preset.
 */
const SKIPPED_RULES = new Set([`${PRESET_RULE_PREFIX}filter-comments`]);

/** Rule options that differ from the preset's defaults. */
const RULE_OPTIONS: Record<string, object> = {
  // AWS access key IDs (`AKIA…`) are off by default; half a key pair is still worth hiding.
  [`${PRESET_RULE_PREFIX}aws`]: { enableIDScanRule: true },
};

const RULES: SecretLintCoreConfigRule[] = [
  ...recommendedRules
    .filter((rule) => !SKIPPED_RULES.has(rule.meta.id))
    .map((rule): SecretLintCoreConfigRule => {
      const options = RULE_OPTIONS[rule.meta.id];
      return options ? { id: rule.meta.id, rule, options } : { id: rule.meta.id, rule };
    }),
  { id: EXTRA_SECRETS_RULE_ID, rule: extraSecretsRule },
];

interface Finding {
  start: number;
  end: number;
  rule: string;
  /** Lower wins the label when findings overlap: a named token over a generic assignment. */
  rank: number;
}

function ruleName(message: SecretLintCoreResultMessage): string {
  return message.ruleId === EXTRA_SECRETS_RULE_ID
    ? message.messageId
    : message.ruleId.replace(PRESET_RULE_PREFIX, '');
}

function rankOf(message: SecretLintCoreResultMessage): number {
  if (message.ruleId !== EXTRA_SECRETS_RULE_ID) return 0;
  return message.messageId === 'generic' ? 2 : 1;
}

/**
 * Where the secret of a message is. Some preset rules (AWS secret access key, npm `_authToken`,
 * GitHub `x-oauth-basic`) report a range that starts at the match but is as long as the captured
 * secret, so the secret's tail would leak; the secret itself is in the message's data, so the
 * range is moved onto it. Closing quotes and punctuation that a greedy pattern (connection
 * strings) swallowed are given back.
 */
function spanOf(message: SecretLintCoreResultMessage, text: string): [number, number] {
  let [start, end] = message.range;
  for (const value of Object.values(message.data ?? {})) {
    if (typeof value !== 'string' || value.length < 8) continue;
    const at = text.indexOf(value, start);
    if (at >= start && at < end && at + value.length > end) {
      [start, end] = [at, at + value.length];
      break;
    }
  }
  while (end > start && `"'\`;,)]}>`.includes(text.charAt(end - 1))) end--;
  return [start, end];
}

/** Overlapping findings become one redaction, labelled by the best-ranked, longest finding. */
function mergeFindings(findings: Finding[]): Finding[] {
  const sorted = [...findings].sort(
    (left, right) => left.start - right.start || right.end - left.end || left.rank - right.rank,
  );
  const merged: Finding[] = [];
  for (const finding of sorted) {
    const last = merged.at(-1);
    if (!last || finding.start >= last.end) {
      merged.push({ ...finding });
      continue;
    }
    if (finding.rank < last.rank) Object.assign(last, { rule: finding.rule, rank: finding.rank });
    last.end = Math.max(last.end, finding.end);
  }
  return merged;
}

/**
 * Most secrets one text is redacted one by one for. secretlint compares each finding with every
 * later one (its filter of duplicates), in a loop no time limit can stop: a text of twenty
 * thousand (a dump of credentials, or a task made of them) held a run for 40 s. Past this many,
 * every line of the text is redacted.
 */
export const MAX_FINDINGS = 1_000;

/**
 * The rules, with their reports counted into `reported` and passed on to secretlint only while
 * they number at most MAX_FINDINGS.
 */
function countedConfig(reported: { count: number }): SecretLintCoreConfig {
  return {
    rules: RULES.map(({ rule, ...entry }) => {
      const counted: SecretLintRuleCreator = {
        ...rule,
        create: (context, options) =>
          rule.create(
            {
              ...context,
              report: (descriptor) => {
                if (++reported.count <= MAX_FINDINGS) context.report(descriptor);
              },
            },
            options,
          ),
      };
      return { ...entry, rule: counted };
    }),
  };
}

/**
 * Where each finding of `text` is: secretlint's messages as spans, labelled and ranked; or how
 * many there were, where they were more than MAX_FINDINGS.
 */
async function findingsIn(text: string): Promise<Finding[] | { tooMany: number }> {
  const reported = { count: 0 };
  const result = await lintSource({
    source: { filePath: 'excerpt.txt', content: text, contentType: 'text' },
    // Unmasked data lets spanOf find the secret; the messages never leave this module.
    options: { config: countedConfig(reported), noPhysicFilePath: true, maskSecrets: false },
  });
  if (reported.count > MAX_FINDINGS) return { tooMany: reported.count };
  return result.messages.flatMap((message): Finding[] => {
    const [start, end] = spanOf(message, text);
    return end > start ? [{ start, end, rule: ruleName(message), rank: rankOf(message) }] : [];
  });
}

const JSON_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  n: '\n',
  t: '\t',
  r: '\r',
};

/**
 * The text with JSON-string escapes undone (`\"` → `"`, `\n` → a line break), and for each of its
 * characters where it starts in the text, so findings in the view map back.
 */
function unescapedView(text: string): { view: string; origin: number[] } {
  let view = '';
  const origin: number[] = [];
  for (let index = 0; index < text.length; index++) {
    const next = text.charAt(index + 1);
    const escaped = text.charAt(index) === '\\' ? JSON_ESCAPES[next] : undefined;
    origin.push(index);
    if (escaped !== undefined) {
      view += escaped;
      index++;
    } else view += text.charAt(index);
  }
  origin.push(text.length);
  return { view, origin };
}

/**
 * The text with each line break one `\n` (a `\r\n`, or a `\r` alone, as old Mac files end
 * lines), and for each of its characters where it starts in the text: rules that read a secret
 * line by line (a key's body, a block of base64) would miss one whose lines end in `\r`.
 */
function lineBreakView(text: string): { view: string; origin: number[] } {
  let view = '';
  const origin: number[] = [];
  for (let index = 0; index < text.length; index++) {
    const character = text.charAt(index);
    origin.push(index);
    if (character !== '\r') view += character;
    else {
      view += '\n';
      if (text.charAt(index + 1) === '\n') index++;
    }
  }
  origin.push(text.length);
  return { view, origin };
}

/** `text` with `marker` in place of the span, once on each line the span covers. */
function replaceByLine(text: string, marker: string): string {
  return text
    .split('\n')
    .map(() => marker)
    .join('\n');
}

/**
 * Replaces every secret in `text` with `[REDACTED:<rule>]` (on each line a secret spans) and
 * counts them by rule. Rejects if secretlint fails, so that a caller never sends text that was
 * not checked.
 */
export async function redactSecrets(text: string): Promise<RedactedText> {
  if (text.length === 0) return { text, redactions: [] };
  const findings = await findingsIn(text);
  if ('tooMany' in findings) return redactedWhole(text, findings.tooMany);
  const views = [
    ...(/\\["n]/.test(text) ? [unescapedView(text)] : []),
    ...(text.includes('\r') ? [lineBreakView(text)] : []),
  ];
  for (const { view, origin } of views) {
    const found = await findingsIn(view);
    if ('tooMany' in found) return redactedWhole(text, found.tooMany);
    for (const finding of found)
      findings.push({
        ...finding,
        start: origin[finding.start] ?? text.length,
        end: origin[finding.end] ?? text.length,
      });
  }
  const merged = mergeFindings(findings);
  const counts = new Map<string, number>();
  const parts: string[] = [];
  let position = 0;
  for (const finding of merged) {
    const marker = `[REDACTED:${finding.rule}]`;
    parts.push(text.slice(position, finding.start));
    parts.push(replaceByLine(text.slice(finding.start, finding.end), marker));
    position = finding.end;
    counts.set(finding.rule, (counts.get(finding.rule) ?? 0) + 1);
  }
  parts.push(text.slice(position));
  const redactions = [...counts.entries()]
    .map(([rule, count]) => ({ rule, count }))
    .sort((left, right) => (left.rule < right.rule ? -1 : 1));
  return { text: parts.join(''), redactions };
}

/** A text of more than MAX_FINDINGS secrets: every line redacted, as holding `count`. */
function redactedWhole(text: string, count: number): RedactedText {
  return { text: replaceByLine(text, '[REDACTED:many]'), redactions: [{ rule: 'many', count }] };
}

/** How many secrets a redaction hid, whatever their rules. */
export const countRedactions = (redactions: readonly Redaction[]) =>
  redactions.reduce((sum, redaction) => sum + redaction.count, 0);
