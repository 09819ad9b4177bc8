import { describe, expect, it } from 'vitest';
import {
  alignWindow,
  definitionRanges,
  innermostRange,
  scanBrackets,
} from '../../src/dispatch/definition-ranges.js';
import type { DefinedSymbol } from '../../src/contracts/symbol.js';

const symbol = (line: number, endLine?: number): DefinedSymbol => ({
  name: `s${line}`,
  line,
  exported: false,
  ...(endLine === undefined ? {} : { endLine }),
});

/** [start, end, signatureEnd] of each symbol starting on `starts`. */
function ranges(path: string, text: string, starts: number[]): number[][] {
  return definitionRanges(
    path,
    text.split('\n'),
    starts.map((line) => symbol(line)),
  ).map((range) => [range.start, range.end, range.signatureEnd]);
}

const PYTHON = [
  'class Store:', // 1
  '    def get(self, key):', // 2
  '        def inner():', // 3
  '            return key', // 4
  '', // 5
  '        return inner()', // 6
  '', // 7
  '    def put(', // 8
  '        self,', // 9
  '        key,', // 10
  '    ):', // 11
  '        """Stores.', // 12
  'a docstring line at column 0 is rare; indentation would end here"""', // 13
  '', // 14
  'VALUE = 3', // 15
].join('\n');

const TYPESCRIPT = [
  'export function outer(a: string): string {', // 1
  "  const text = '}'; // a } in a comment", // 2
  '  function inner() {', // 3
  '    return `${a} {`;', // 4
  '  }', // 5
  '  /* } */ return inner();', // 6
  '}', // 7
  'export const limit = 3;', // 8
  'export interface Shape {', // 9
  '  size: number;', // 10
  '}', // 11
].join('\n');

const GO = [
  'type Id int', // 1
  '', // 2
  'func (s *Server) Handle(', // 3
  '\tw http.ResponseWriter,', // 4
  ') error {', // 5
  '\tif x {', // 6
  '\t\treturn nil', // 7
  '\t}', // 8
  '\treturn nil', // 9
  '}', // 10
].join('\n');

const RUST = [
  "impl<'a> Parser<'a> {", // 1
  "    fn next(&mut self) -> Option<&'a str> {", // 2
  "        let open = '{';", // 3
  '        None', // 4
  '    }', // 5
  '}', // 6
].join('\n');

const RUBY = [
  'module Tools', // 1
  '  def run(args)', // 2
  '    args.each do |arg|', // 3
  '      puts arg', // 4
  '    end', // 5
  '  end', // 6
  '', // 7
  '  def stop; end', // 8
  'end', // 9
].join('\n');

describe('definitionRanges infers where a definition ends', () => {
  it.each([
    ['python: nested functions and a multi-line signature', 'a.py', PYTHON, [1, 2, 3, 8, 15]],
    ['typescript: braces in strings, templates and comments', 'a.ts', TYPESCRIPT, [1, 3, 8, 9]],
    ['go: a declaration without a body, a signature over three lines', 'a.go', GO, [1, 3]],
    ['rust: lifetimes and a brace in a character literal', 'a.rs', RUST, [1, 2]],
    ['ruby: `end` closes at the definition’s own depth', 'a.rb', RUBY, [1, 2, 8]],
  ])('%s', (_name, path, text, starts) => {
    const expected: Record<string, number[][]> = {
      'a.py': [
        [1, 12, 1],
        [2, 6, 2],
        [3, 4, 3],
        [8, 12, 11],
        [15, 15, 15],
      ],
      'a.ts': [
        [1, 7, 1],
        [3, 5, 3],
        [8, 8, 8],
        [9, 11, 9],
      ],
      'a.go': [
        [1, 2, 2],
        [3, 10, 5],
      ],
      'a.rs': [
        [1, 6, 1],
        [2, 5, 2],
      ],
      'a.rb': [
        [1, 9, 1],
        [2, 6, 2],
        [8, 8, 8],
      ],
    };
    expect(ranges(path, text, starts)).toEqual(expected[path]);
  });

  it('prefers the parser’s end when the symbol has one', () => {
    const [range] = definitionRanges('a.ts', TYPESCRIPT.split('\n'), [symbol(1, 5)]);
    expect(range).toEqual({ start: 1, end: 5, signatureEnd: 1 });
  });

  it('stays bounded on unbalanced brackets: an unclosed body ends by indentation', () => {
    const lines = ['function broken() {', '  call(', '  more', 'const after = 1;'];
    expect(ranges('a.js', lines.join('\n'), [1])).toEqual([[1, 3, 1]]);
  });

  it('scans a huge file of unclosed brackets and quotes in linear time', () => {
    const lines = Array.from({ length: 50_000 }, (_, index) =>
      index % 2 ? `{ '( "[ /* ${'x'.repeat(40)}` : `function f${index}() { \``,
    );
    const symbols = Array.from({ length: 2000 }, (_, index) => symbol(index * 2 + 1));
    const started = performance.now();
    const result = definitionRanges('a.ts', lines, symbols);
    expect(result).toHaveLength(2000);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('innermostRange and alignWindow', () => {
  it('picks the smallest definition holding a line', () => {
    const all = definitionRanges('a.ts', TYPESCRIPT.split('\n'), [symbol(1), symbol(3)]);
    expect(innermostRange(all, 4)?.start).toBe(3);
    expect(innermostRange(all, 6)?.start).toBe(1);
    expect(innermostRange(all, 8)).toBeUndefined();
  });

  it.each([
    ['ends after the call closes', [2, 3], [1, 7], [2, 5]],
    ['starts where the call opens', [4, 5], [1, 7], [2, 5]],
    ['stays inside the definition', [4, 5], [3, 7], [3, 5]],
  ] as const)('%s', (_name, window, within, expected) => {
    const lines = ['function f() {', '  call(', '    a,', '    b,', '  );', '  return 1;', '}'];
    expect(alignWindow(scanBrackets(lines), [...window], [...within])).toEqual(expected);
  });
});
