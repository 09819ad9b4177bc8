import { describe, expect, it } from 'vitest';
import { MAX_PARSED_CHARACTERS, parseSymbols } from '../../src/structure/syntax/parse-symbols.js';

/** `kind name first-last`, with `*` after the name when other files can use it. */
async function outline(
  path: string,
  lines: string[],
  budgetMs?: number,
): Promise<string[] | undefined> {
  const symbols = await parseSymbols(path, lines.join('\n'), budgetMs);
  return symbols?.map(
    (symbol) =>
      `${symbol.kind} ${symbol.name}${symbol.exported ? '*' : ''} ${symbol.line}-${symbol.endLine}`,
  );
}

describe('parseSymbols: definitions with their kind and whole extent, in twelve languages', () => {
  it.each<[string, string, string[], string[]]>([
    [
      'TypeScript',
      'src/store.ts',
      [
        "import { x } from './x.js';",
        'export interface Entry { id: string }',
        'export class Store {',
        '  get(id: string) {',
        '    const local = () => 1;',
        '    return local();',
        '  }',
        '}',
        'export const handler = async (request: Request) => {',
        '  return 1;',
        '};',
        'const LIMIT = 5;',
        'export type Id = string;',
      ],
      [
        'interface Entry* 2-2',
        'class Store* 3-8',
        'method get 4-7',
        'function handler* 9-11',
        'variable LIMIT 12-12',
        'type Id* 13-13',
      ],
    ],
    [
      'TSX',
      'src/view.tsx',
      ['export function View() {', '  return <div>{1}</div>;', '}'],
      ['function View* 1-3'],
    ],
    [
      'JavaScript',
      'lib/app.js',
      ['class App {', '  listen() {}', '}', 'function createServer() {', '  return 1;', '}'],
      ['class App 1-3', 'method listen 2-2', 'function createServer 4-6'],
    ],
    [
      'Python',
      'pkg/models.py',
      [
        'class Foo(Base):',
        '    @property',
        '    def bar(self):',
        '        def inner(): pass',
        '        return 1',
        '    def _private(self):',
        '        pass',
        'def top(a, b):',
        '    return a',
      ],
      ['class Foo* 1-7', 'method bar* 3-5', 'method _private 6-7', 'function top* 8-9'],
    ],
    [
      'Go',
      'server.go',
      [
        'package main',
        'type Server struct { a int }',
        'func (s *Server) Serve() error {',
        '  return nil',
        '}',
        'func helper() {}',
        'const Max = 3',
      ],
      ['type Server* 2-2', 'method Serve* 3-5', 'function helper 6-6', 'constant Max* 7-7'],
    ],
    [
      'Rust',
      'src/config.rs',
      [
        'pub struct Config { a: u32 }',
        'impl Config {',
        '    pub fn new() -> Self { Config { a: 1 } }',
        '    fn private(&self) {}',
        '}',
        'pub trait Run { fn run(&self); }',
        'macro_rules! m { () => {} }',
      ],
      [
        'class Config* 1-1',
        'function new* 3-3',
        'function private 4-4',
        'interface Run* 6-6',
        'method run 6-6',
        'macro m 7-7',
      ],
    ],
    [
      'Java',
      'src/main/java/a/Parser.java',
      [
        'package a;',
        'public class Parser {',
        '  public Parser() {}',
        '  private int x() { return 1; }',
        '}',
      ],
      ['class Parser* 2-5', 'method Parser* 3-3', 'method x 4-4'],
    ],
    [
      'Kotlin',
      'src/Foo.kt',
      ['class Foo {', '  fun baz(x: Int): Int { return x }', '}', 'private fun top() {}'],
      ['class Foo* 1-3', 'function baz* 2-2', 'function top 4-4'],
    ],
    [
      'C',
      'src/point.c',
      [
        '#define MAX 3',
        'static int helper(int a) { return a; }',
        'struct point { int x; };',
        'struct forward;',
        'int *make(void) {',
        '  return 0;',
        '}',
      ],
      ['macro MAX* 1-1', 'function helper 2-2', 'class point* 3-3', 'function make* 5-7'],
    ],
    [
      'C++ (and a header)',
      'include/widget.h',
      ['namespace ns {', 'class Widget { public: void draw(); };', 'void Widget::draw() { }', '}'],
      ['module ns* 1-4', 'class Widget* 2-2', 'function draw* 3-3'],
    ],
    [
      'C#',
      'src/C.cs',
      [
        'namespace N {',
        '  public class C {',
        '    public void M() {}',
        '    int P { get; set; }',
        '  }',
        '}',
      ],
      ['module N 1-6', 'class C* 2-5', 'method M* 3-3', 'variable P 4-4'],
    ],
    [
      'PHP',
      'src/Clock.php',
      [
        '<?php',
        'namespace App;',
        'class Clock extends Base {',
        '  public function add($x) { return 1; }',
        '  private function sub() {}',
        '}',
      ],
      ['class Clock* 3-6', 'method add* 4-4', 'method sub 5-5'],
    ],
    [
      'Ruby',
      'lib/parser.rb',
      [
        'module Fluent',
        '  class Parser',
        '    def parse(text)',
        '      1',
        '    end',
        '  end',
        'end',
      ],
      ['module Fluent* 1-7', 'class Parser* 2-6', 'method parse* 3-5'],
    ],
  ])('%s', async (_language, path, lines, expected) => {
    expect(await outline(path, lines)).toEqual(expected);
  });
});

describe('parseSymbols: what it leaves to the regex outline', () => {
  it.each<[string, string, string]>([
    ['a language without a grammar', 'src/main.zig', 'pub fn main() void {}'],
    ['a file with no extension', 'Makefile', 'all:\n\tcc main.c'],
    [
      'a file too long to parse',
      'src/generated.ts',
      'const x = 1;\n'.repeat(MAX_PARSED_CHARACTERS / 10),
    ],
  ])('%s', async (_name, path, text) => {
    expect(await parseSymbols(path, text)).toBeUndefined();
  });

  it('parses what it can of broken code and keeps going', async () => {
    expect(
      await outline('src/broken.py', [
        'def ok():',
        '    return 1',
        'def broken(:',
        'class After:',
        '    pass',
      ]),
    ).toContain('function ok* 1-2');
  });

  it('survives nesting deep enough to overflow a recursive walk', async () => {
    const deep = `const x = ${'['.repeat(50_000)}${']'.repeat(50_000)};\nfunction after() {}`;
    // About a second to parse here: a budget no busy machine runs out of, as the walk is the point.
    expect(await outline('src/deep.js', [deep], 60_000)).toContain('function after 2-2');
  });
});
