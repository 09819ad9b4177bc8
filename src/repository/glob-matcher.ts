import picomatch from 'picomatch';

/**
 * picomatch's matcher for a list of globs (true when any matches), with a test that rules most
 * paths out before any glob's expression runs: the text a glob spells out, outside `*`, `?`,
 * `/`, brackets, braces and parentheses, must be in the path for it to match. The 81 default
 * excludes and secret-file globs, each an expression tried on every path, took about 45 µs a
 * path over 200k listed files; most paths hold none of `node_modules`, `.pem` or `.env`.
 */
export function globMatcher(
  globs: readonly string[],
  options: picomatch.PicomatchOptions = {},
): (path: string) => boolean {
  // A query's usual `**/*` matches every listed path (none is empty or has a `.`/`..` part):
  // nothing to test.
  const plain = Object.keys(options).every((option) => option === 'dot' || option === 'nocase');
  if (plain && options.dot === true && globs.some((glob) => glob === '**/*' || glob === '**'))
    return () => true;
  const nocase = options.nocase === true;
  const matchers = globs.map((glob) => ({
    literals: requiredLiterals(glob, nocase),
    test: picomatch(glob, options),
  }));
  return (path) => {
    const subject = nocase ? path.toLowerCase() : path;
    return matchers.some(
      ({ literals, test }) =>
        (literals === undefined || literals.every((literal) => subject.includes(literal))) &&
        test(path),
    );
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
