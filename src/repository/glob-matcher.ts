import { GlobError } from './glob-error.js';
import { linearGlob } from './linear-glob.js';

export interface GlobMatcherOptions {
  /** Letters match in either case. */
  nocase?: boolean;
  /** A path one of these globs matches matches nothing (picomatch's `ignore`). */
  ignore?: readonly string[];
}

// A matcher for a list of globs (true when any matches), as picomatch reads them with `dot`, in
// time linear in the path (./linear-glob.ts). The usual shapes of excludes and secret-file globs,
// `**/name/**`, `**/name` and `**/*.suffix`, are told from a path's parts by set lookups, with no
// glob run (tried on every listed path, picomatch's expressions took 0.3 s of a run over 50k
// files); the others are tried only on paths that hold the text they spell out, outside `*`, `?`,
// `/`, brackets, braces and parentheses (each tried on every path, the 81 default excludes and
// secret-file globs had taken about 45 µs a path over 200k files). A glob that cannot be read
// (`globProblem`) matches nothing: a model's query may hold one; a user's was refused before.
export function globMatcher(
  globs: readonly string[],
  options: GlobMatcherOptions = {},
): (path: string) => boolean {
  const { ignore, nocase = false } = options;
  if (ignore !== undefined) {
    const matches = globMatcher(globs, { nocase });
    const ignored = globMatcher(ignore, { nocase });
    return (path) => matches(path) && !ignored(path);
  }
  // A query's usual `**/*` matches every listed path (none is empty or has a `.`/`..` part):
  // nothing to test.
  if (globs.some((glob) => glob === '**/*' || glob === '**')) return () => true;
  const shaped = shapedGlobs(globs, nocase);
  const matchers = globs
    .filter((glob) => !shaped.covers.has(glob))
    .flatMap((glob) => {
      const read = readGlob(glob, nocase);
      return 'test' in read ? [{ literals: requiredLiterals(glob, nocase), test: read.test }] : [];
    });
  const byGlob = (path: string, subject: string) =>
    matchers.some(
      ({ literals, test }) =>
        (literals === undefined || literals.every((literal) => subject.includes(literal))) &&
        test(path),
    );
  return (path) => {
    const subject = nocase ? path.toLowerCase() : path;
    const verdict = shaped.matches(subject);
    return (
      verdict === true || byGlob(path, subject) || (verdict === undefined && shaped.byGlob(path))
    );
  };
}

/** Why `glob` cannot be read here (an extglob, too many alternatives), or undefined. */
export function globProblem(glob: string): string | undefined {
  const read = readGlob(glob, false);
  return 'problem' in read ? read.problem : undefined;
}

/** `glob`'s test, or why it has none. */
function readGlob(
  glob: string,
  nocase: boolean,
): { test: (path: string) => boolean } | { problem: string } {
  try {
    return { test: linearGlob(glob, { nocase }) };
  } catch (error) {
    if (error instanceof GlobError) return { problem: error.message };
    throw error;
  }
}

/** A glob's name or suffix spelled with no character a glob reads as anything but itself. */
const LITERAL_NAME = /^[\w.-]+$/;
const isLiteralName = (name: string) => LITERAL_NAME.test(name) && name !== '.' && name !== '..';

/** Parts of a path for which picomatch's own reading differs from a plain comparison. */
const isOddPart = (part: string) => part === '' || part === '.' || part === '..';

// With `dot`, at any depth: `**/name/**` (any part of the path), `**/name` (the file's name),
// `**/*.suffix` (the end of the file's name).
function shapedGlobs(globs: readonly string[], nocase: boolean) {
  const parts = new Set<string>();
  const names = new Set<string>();
  const suffixes: string[] = [];
  const covers = new Set<string>();
  const cased = (text: string) => (nocase ? text.toLowerCase() : text);
  for (const glob of globs) {
    if (!glob.startsWith('**/')) continue;
    const rest = glob.slice(3);
    if (rest.endsWith('/**') && isLiteralName(rest.slice(0, -3)))
      parts.add(cased(rest.slice(0, -3)));
    else if (rest.startsWith('*') && isLiteralName(rest.slice(1)))
      suffixes.push(cased(rest.slice(1)));
    else if (isLiteralName(rest)) names.add(cased(rest));
    else continue;
    covers.add(glob);
  }
  const covered = [...covers].flatMap((glob) => {
    const read = readGlob(glob, nocase);
    return 'test' in read ? [read.test] : [];
  });
  return {
    covers,
    /**
     * Whether `subject` (lower-cased when `nocase`) matches, or undefined when it is not a path
     * as listings give them (relative, `/`-separated, no empty, `.` or `..` part):
     * only for those do these comparisons agree with picomatch (checked against it in
     * test/unit/glob-matcher.test.ts).
     */
    matches(subject: string): boolean | undefined {
      // One pass over the parts, with no array of them: every listed path comes here.
      let inParts = false;
      let start = 0;
      for (;;) {
        const end = subject.indexOf('/', start);
        const part = subject.slice(start, end === -1 ? undefined : end);
        if (isOddPart(part)) return undefined;
        if (parts.has(part)) inParts = true;
        if (end === -1)
          return inParts || names.has(part) || suffixes.some((suffix) => part.endsWith(suffix));
        start = end + 1;
      }
    },
    /** The same globs for a path of another form. */
    byGlob: (path: string) => covered.some((test) => test(path)),
  };
}

const OPENERS = '[{(';
const CLOSERS = ']})';
/** Characters that stand for something else, or for nothing (`/` may be matched by `**`). */
const SPECIAL = '*?/!+@';

/**
 * The text a path must hold for `glob` to match it, or undefined when that cannot be said: a
 * negated glob matches what it does not spell, and an escape would need picomatch's own parse.
 */
export function requiredLiterals(glob: string, nocase = false): string[] | undefined {
  if (glob.startsWith('!') || glob.includes('\\')) return undefined;
  const literals: string[] = [];
  let piece = '';
  let depth = 0;
  const flush = () => {
    if (piece) literals.push(nocase ? piece.toLowerCase() : piece);
    piece = '';
  };
  for (const character of glob) {
    if (OPENERS.includes(character)) {
      depth++;
      flush();
    } else if (CLOSERS.includes(character)) {
      depth = Math.max(0, depth - 1);
      flush();
    } else if (depth > 0 || SPECIAL.includes(character)) flush();
    else piece += character;
  }
  flush();
  return literals;
}
