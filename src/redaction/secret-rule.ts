import type { SecretLintRuleCreator, SecretLintSourceCode } from '@secretlint/types';

/**
 * A secretlint rule for what secretlint's recommended preset (12.0.0) misses: JSON Web Tokens,
 * Stripe keys, Google API keys and Anthropic keys of any length, Azure storage keys,
 * `Authorization` headers in any language's syntax, passwords in any URL, private keys shown as
 * numbered excerpt lines or cut short by an excerpt window, long base64 blobs, and secrets
 * assigned to a telling name (`api_key = "…"`, `DB_PASSWORD=CorrectHorseBattery`). Each message
 * id is also the short name a redaction is labelled with.
 */

/** The rule's id in a secretlint config. */
export const EXTRA_SECRETS_RULE_ID = 'iterative-retrieval/extra-secrets';

type Span = readonly [start: number, end: number];

const messages = {
  jwt: { en: () => 'found a JSON Web Token' },
  stripe: { en: () => 'found a Stripe secret key' },
  google: { en: () => 'found a Google API key' },
  anthropic: { en: () => 'found an Anthropic API key' },
  azure: { en: () => 'found an Azure storage or service bus key' },
  authorization: { en: () => 'found the credentials of an Authorization header' },
  privatekey: { en: () => 'found private key material' },
  base64: { en: () => 'found a block of base64 lines, likely key or certificate material' },
  'url-password': { en: () => 'found a password in a URL' },
  generic: { en: () => 'found a secret assigned to a name like api_key, password or token' },
};

export type ExtraSecretKind = keyof typeof messages;

// Header and payload both start with `eyJ` (`{"`); a token cut by an excerpt's line clipping
// has no signature but still carries its claims, so the signature is optional.
const JWT = /(?<![\w-])eyJ[\w-]{8,}\.eyJ[\w-]{4,}(?:\.[\w-]*)?/g;

// `sk_`/`rk_` secret and restricted keys (test mode too: they still open the account's API)
// and `whsec_` webhook signing secrets.
const STRIPE = /(?<![\w])(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9+/=]{24,})/g;

// Google API keys (`AIza` and 35 characters) and Anthropic keys, whatever length a test or a new
// key format gives them.
const GOOGLE = /(?<![\w-])AIza[0-9A-Za-z_-]{35}(?![\w-])/g;
const ANTHROPIC = /(?<![\w-])sk-ant-[A-Za-z0-9_-]{20,}/g;

// The key of an Azure connection string (`AccountKey=…;`, `SharedAccessKey=…`); only the key.
const AZURE = /\b(?:AccountKey|SharedAccessKey)=([A-Za-z0-9+/%]{20,}={0,2})/dg;

// `Authorization: Bearer <token>` however it is written: a header line, a curl `-H`, a JSON or
// Python dictionary (`"Authorization": "Token …"`), an index (`headers["Authorization"] = …`), a
// call (`setHeader('Authorization', 'Basic …')`), a template literal, the scheme and the
// credentials joined (`'Basic ' + '…'`). Only the credentials are redacted; a template
// (`Bearer ${token}`, `f"Bearer {token}"`) holds no credentials.
const AUTHORIZATION =
  /\bauthorization["'`]?\]?[ \t]*[:=,][ \t]*["'`]?(?:Bearer|Token|Basic)(?:[ \t]+|[ \t]*["'`][ \t]*\+[ \t]*["'`])([A-Za-z0-9._~+/=-]{8,})/dgi;

// A long run of base64 with both cases and digits on one line: key material or a token, not
// words, hashes in hex, or a data URI's image (`base64,` before it) or a digest (`sha512-…`).
const BASE64_BLOB = /(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{100,}={0,2}/g;
const NOT_A_SECRET_BEFORE = /(?:base64,|sha(?:1|256|384|512)-)$/;

function* base64Blobs(text: string): Generator<Span> {
  for (const match of text.matchAll(BASE64_BLOB)) {
    const blob = match[0];
    if (!/[a-z]/.test(blob) || !/[A-Z]/.test(blob) || !/\d/.test(blob)) continue;
    if (NOT_A_SECRET_BEFORE.test(text.slice(Math.max(0, match.index - 8), match.index))) continue;
    yield [match.index, match.index + blob.length];
  }
}

function* groupSpans(pattern: RegExp, text: string): Generator<Span> {
  for (const match of text.matchAll(pattern)) {
    const span = match.indices?.[1];
    if (span) yield span;
  }
}

// Any scheme's `user:password@` (redis, amqp, smtp…); only the password is redacted. The
// scheme's length is bounded so that a long dotted line is not scanned quadratically.
const URL_PASSWORD = /\b[a-z][a-z0-9+.-]{0,30}:\/\/[^\s:@/"'`]*:([^\s@/"'`]{3,})@/dgi;

// A name that says its value is secret, then `=`, `:`, `:=` or `=>`, then the value: quoted
// (8+ non-space characters, optionally after `Bearer `) or bare (8+ characters that cannot be a
// call, a type or an index). The name may be quoted (JSON) and prefixed (`DB_PASSWORD`,
// `clientSecret`); it must end with the telling word, so `tokenizer` or `password_hash` do not
// count. Spaces around the operator stay on one line: a YAML `token:` followed by a nested map is
// not a value.
const SECRET_NAME = String.raw`[\w.-]*?(?:api[_-]?key|(?:access|secret|private|signing|encryption|master|client|auth)[_-]?key|secret|token|password|passwd|pwd|passphrase|credentials?)`;
const ASSIGNMENT = new RegExp(
  String.raw`(?<![\w.$-])["'\x60]?(${SECRET_NAME})["'\x60]?[ \t]*(?::=|=>|=(?!=)|:(?!:))[ \t]*` +
    String.raw`(?:(["'\x60])(?:(?:Bearer|Basic|Token)[ \t]+)?([^\s"'\x60…]{8,})(?=\2|…|$)` +
    String.raw`|([^\s"'\x60,;(){}[\]<>…]{8,})(?=[\s,;…]|$))`,
  'dgim',
);

/**
 * Template and environment references: where a secret will come from, not the secret; and a
 * secret already redacted (a text checked twice).
 */
const PLACEHOLDER =
  /^(?:\$\{|\{\{|%\(|<[^>]*>$|\$[A-Z_][A-Z0-9_]*$|%[A-Z_][A-Z0-9_]*%$|\[REDACTED:[\w-]+\])/;
/** A bare value that is code: a member chain (`process.env.API_KEY!`) or a plain word. */
const CODE_LIKE = /^(?:[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+!?|[A-Za-z_]+!?)$/;
const MEMBER_CHAIN = /\./;
/** An environment variable's name (`DB_PASSWORD`): its value is data, even one made of letters. */
const ENVIRONMENT_NAME = /^["'\x60]?[A-Z][A-Z0-9_]*$/;

function* regexSpans(pattern: RegExp, text: string): Generator<Span> {
  for (const match of text.matchAll(pattern)) yield [match.index, match.index + match[0].length];
}

function* urlPasswords(text: string): Generator<Span> {
  for (const match of text.matchAll(URL_PASSWORD)) {
    const span = match.indices?.[1];
    if (span && !PLACEHOLDER.test(match[1] ?? '')) yield span;
  }
}

function* assignments(text: string): Generator<Span> {
  for (const match of text.matchAll(ASSIGNMENT)) {
    const name = match[1] ?? '';
    const quoted = match[3];
    const value = quoted ?? match[4] ?? '';
    const span = match.indices?.[quoted === undefined ? 4 : 3];
    if (!span || PLACEHOLDER.test(value)) continue;
    // A quoted path is where a secret lives (`'/run/secrets/db'`), or a route.
    if (quoted !== undefined && /^\.{0,2}\//.test(value)) continue;
    // In code a bare word is a variable (`password = userPassword`); in an environment file
    // (`DB_PASSWORD=CorrectHorseBatteryStaple`) it is the password. A member chain is code.
    const environment = ENVIRONMENT_NAME.test(name) && !MEMBER_CHAIN.test(value);
    if (quoted === undefined && CODE_LIKE.test(value) && !environment) continue;
    yield span;
  }
}

// A secret-named assignment, its value not yet read: where a literal after an environment
// lookup is a default secret (`apiKey = process.env.API_KEY || "…"`,
// `SECRET_KEY = os.environ.get("SECRET_KEY", "…")`, `ENV.fetch("TOKEN", "…")`).
const SECRET_ASSIGNED = new RegExp(
  String.raw`(?<![\w.$-])["'\x60]?(?:${SECRET_NAME})["'\x60]?[ \t]*(?::=|=>|=(?!=)|:(?!:))[ \t]*`,
  'gim',
);
/** How far after the operator a fallback is looked for: one statement, not a minified file. */
const FALLBACK_REACH = 300;
const ENVIRONMENT_LOOKUP = /\b(?:env|environ|getenv|ENV|GetEnvironmentVariable)\b/;
const QUOTED = /(["'\x60])([^\s"'\x60]{8,})\1/g;

/**
 * Quoted literals of 8+ characters after an environment lookup, on the line of a secret-named
 * assignment: the value the secret takes when the variable is unset is the secret itself. The
 * variable's own name (`"SECRET_KEY"`), a path and a placeholder are not.
 */
function* environmentFallbacks(text: string): Generator<Span> {
  const assigned = [...text.matchAll(SECRET_ASSIGNED)];
  for (const [at, match] of assigned.entries()) {
    // One statement: up to the line's end, the next such assignment or the reach, so that no
    // character is looked at for two assignments (linear however many there are).
    const start = match.index + match[0].length;
    const window = text.slice(
      start,
      Math.min(assigned[at + 1]?.index ?? text.length, start + FALLBACK_REACH),
    );
    const lineEnd = window.indexOf('\n');
    const rest = lineEnd === -1 ? window : window.slice(0, lineEnd);
    const lookup = ENVIRONMENT_LOOKUP.exec(rest);
    if (!lookup) continue;
    for (const quoted of rest.slice(lookup.index).matchAll(QUOTED)) {
      const value = quoted[2] ?? '';
      if (ENVIRONMENT_NAME.test(value) || PLACEHOLDER.test(value) || /^\.{0,2}\/|:\/\//.test(value))
        continue;
      const from = start + lookup.index + quoted.index + 1;
      yield [from, from + value.length];
    }
  }
}

const BEGIN_KEY = /-----BEGIN ?[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/;
const END_KEY = /-----END ?[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/;
// An excerpt's line number (`  12| `), indentation, a comment marker (a key pasted into a
// comment) and an opening quote come before a line's content. Each run of spaces follows
// something it needs, so no two runs can share the same spaces (linear on any line).
const LINE_PREFIX = /^[ \t]*(?:\d+\|[ \t]*)?(?:(?:\/\/|#|\*|--|;)[ \t]*)?["'\x60]?/;
// After the prefix: a line of a key's body, a PEM header (`Proc-Type: 4,ENCRYPTED`), nothing,
// or an excerpt's `…` (between windows, or where a long line was clipped). A `\n` escape, a
// closing quote and `+`/`,` of a key written as a string literal may follow the base64.
const BODY_CONTENT =
  /^(?:[A-Za-z0-9+/]+={0,2}|(?:Proc-Type|DEK-Info|Comment|Version):.*)?(?:\\n)?["'\x60]?[ \t]*(?:[+,][ \t]*)?(?:…[ \t]*)?$/;
const LONG_BASE64_CONTENT =
  /^[A-Za-z0-9+/]{40,}={0,2}(?:\\n)?["'\x60]?[ \t]*(?:[+,][ \t]*)?(?:…[ \t]*)?$/;
const MIN_BASE64_RUN = 3;

interface Line {
  text: string;
  start: number;
  end: number;
}

function linesOf(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (const line of text.split('\n')) {
    lines.push({ text: line, start, end: start + line.length });
    start += line.length + 1;
  }
  return lines;
}

function contentStart(line: Line): number {
  return line.start + (LINE_PREFIX.exec(line.text)?.[0].length ?? 0);
}

/** The line after its prefix (./LINE_PREFIX). */
const contentOf = (line: Line) => line.text.slice(contentStart(line) - line.start);

const isBlank = (line: Line) => /^[ \t]*(?:\d+\|[ \t]*)?(?:…[ \t]*)?$/.test(line.text);
const isBodyLine = (line: Line) => BODY_CONTENT.test(contentOf(line));

/**
 * Private key blocks, line by line so that excerpt numbering and missing halves do not hide them:
 * from a BEGIN marker down to its END marker, or over the body lines an excerpt window kept when
 * the END is not shown; from an END marker without its BEGIN, up over the body lines above it.
 */
function* privateKeys(text: string): Generator<Span> {
  const lines = linesOf(text);
  for (const [index, line] of lines.entries()) {
    const begin = BEGIN_KEY.exec(line.text);
    if (begin) {
      const start = line.start + begin.index;
      const sameLine = END_KEY.exec(line.text.slice(begin.index));
      if (sameLine) {
        yield [start, start + sameLine.index + sameLine[0].length];
        continue;
      }
      let end = line.end;
      for (let below = index + 1; below < lines.length; below++) {
        const next = lines[below];
        if (!next) break;
        const endMarker = END_KEY.exec(next.text);
        if (endMarker) {
          end = next.start + endMarker.index + endMarker[0].length;
          break;
        }
        if (!isBodyLine(next)) break;
        if (!isBlank(next)) end = next.end;
      }
      yield [start, end];
      continue;
    }
    const endMarker = END_KEY.exec(line.text);
    if (!endMarker) continue;
    // Part of the body may share the END's line (`…Q==\n-----END` in a JSON string).
    const before = /[A-Za-z0-9+/=\\]*$/.exec(line.text.slice(0, endMarker.index));
    let start = line.start + endMarker.index - (before?.[0].length ?? 0);
    for (let above = index - 1; above >= 0; above--) {
      const previous = lines[above];
      if (!previous || BEGIN_KEY.test(previous.text) || !isBodyLine(previous)) break;
      if (!isBlank(previous)) start = contentStart(previous);
    }
    yield [start, line.start + endMarker.index + endMarker[0].length];
  }
}

/** Runs of long base64 lines with no marker in sight: the middle of a key an excerpt cut out. */
function* base64Blocks(text: string): Generator<Span> {
  let run: Line[] = [];
  const flush = function* (): Generator<Span> {
    const first = run[0];
    const last = run.at(-1);
    if (first && last && run.length >= MIN_BASE64_RUN) yield [contentStart(first), last.end];
    run = [];
  };
  for (const line of linesOf(text)) {
    if (LONG_BASE64_CONTENT.test(contentOf(line))) run.push(line);
    else yield* flush();
  }
  yield* flush();
}

const DETECTORS: [ExtraSecretKind, (text: string) => Iterable<Span>][] = [
  ['jwt', (text) => regexSpans(JWT, text)],
  ['stripe', (text) => regexSpans(STRIPE, text)],
  ['google', (text) => regexSpans(GOOGLE, text)],
  ['anthropic', (text) => regexSpans(ANTHROPIC, text)],
  ['azure', (text) => groupSpans(AZURE, text)],
  ['authorization', (text) => groupSpans(AUTHORIZATION, text)],
  ['privatekey', privateKeys],
  ['base64', base64Blocks],
  ['base64', base64Blobs],
  ['url-password', urlPasswords],
  ['generic', assignments],
  ['generic', environmentFallbacks],
];

/** The rule, for a secretlint config; it reports each span with its kind as the message id. */
export const extraSecretsRule: SecretLintRuleCreator = {
  messages,
  meta: {
    id: EXTRA_SECRETS_RULE_ID,
    recommended: true,
    type: 'scanner',
    supportedContentTypes: ['text'],
  },
  create(context) {
    const translate = context.createTranslator(messages);
    return {
      file(source: SecretLintSourceCode) {
        for (const [kind, detect] of DETECTORS)
          for (const range of detect(source.content))
            context.report({ message: translate(kind), range });
      },
    };
  },
};
