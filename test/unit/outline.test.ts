import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  extractOutline,
  familyOf,
  importGroupLines,
  namesDefinedIn,
} from '../../src/structure/outline.js';
import type { ImportReference } from '../../src/structure/outline.js';
import type { DefinedSymbol } from '../../src/contracts/symbol.js';

function outlineOf(path: string, text: string) {
  return extractOutline(path, text.split('\n'));
}

function symbolNames(path: string, text: string): string[] {
  return outlineOf(path, text).symbols.map((symbol) => symbol.name);
}

describe('familyOf', () => {
  it.each([
    ['src/a.ts', 'script'],
    ['src/a.tsx', 'script'],
    ['lib/a.cjs', 'script'],
    ['App.vue', 'script'],
    ['app/models.py', 'python'],
    ['cmd/main.go', 'go'],
    ['src/lib.rs', 'rust'],
    ['Main.java', 'jvm'],
    ['main.c', 'c'],
    ['README.md', 'other'],
    ['Makefile', 'other'],
  ])('%s → %s', (path, family) => {
    expect(familyOf(path)).toBe(family);
  });
});

describe('extractOutline for TypeScript', () => {
  const TS = [
    "import { a, b as c } from './a.js';", // 1
    "import type { T } from '../types.js';",
    "import React from 'react';",
    "import './side-effect.js';",
    "export { x } from './re.js';", // 5
    '',
    'export function handle(req: Request): void {',
    '  const local = 1;',
    '  let other = 2;',
    '}', // 10
    'export async function load() {}',
    'function helper(',
    '  predicate: (x: number) => boolean,',
    '  name: (x) => boolean,',
    ') {', // 15
    '  return 1;',
    '}',
    'export default class Service extends Base {',
    '  constructor(private readonly x: number) {',
    '    super();', // 20
    '  }',
    '  async fetchUser(id: string): Promise<User> {',
    '    if (id) {',
    '      return x;',
    '    }', // 25
    '  }',
    '}',
    'export interface Options {',
    '  filter: (x: number) => boolean,',
    '  name: string;', // 30
    '}',
    "export type Mode = 'a' | 'b';",
    'type Local = string;',
    'export const LIMIT = 10;',
    'const handler = async (req) => {', // 35
    '  return 1;',
    '};',
    'export enum Color { Red }',
    'abstract class Shape {}',
  ].join('\n');

  it.each<[string, number, boolean]>([
    ['handle', 7, true],
    ['load', 11, true],
    ['helper', 12, false],
    ['Service', 18, true],
    ['fetchUser', 22, false],
    ['Options', 28, true],
    ['Mode', 32, true],
    ['Local', 33, false],
    ['LIMIT', 34, true],
    ['handler', 35, false],
    ['Color', 38, true],
    ['Shape', 39, false],
  ])('defines %s at line %i (exported: %s)', (name, line, exported) => {
    expect(outlineOf('src/service.ts', TS).symbols).toContainEqual<DefinedSymbol>({
      name,
      line,
      exported,
    });
  });

  it.each([
    ['an indented local const', 'local'],
    ['an indented local let', 'other'],
    ['a parameter typed as a function', 'predicate'],
    ['a parameter `name: (x) => boolean,`', 'name'],
    ['an interface member typed as a function', 'filter'],
    ['a constructor', 'constructor'],
    ['a control-flow keyword', 'if'],
  ])('does not define %s', (_what, name) => {
    expect(symbolNames('src/service.ts', TS)).not.toContain(name);
  });

  it('lists the symbols in line order', () => {
    const lines = outlineOf('src/service.ts', TS).symbols.map((symbol) => symbol.line);
    expect(lines).toEqual([...lines].sort((left, right) => left - right));
  });

  it.each<[string, string[], number]>([
    ['./a.js', ['a', 'b'], 1],
    ['../types.js', ['T'], 2],
    ['react', ['React'], 3],
    ['./side-effect.js', [], 4],
    ['./re.js', ['x'], 5],
  ])('imports %s binding %j at line %i', (specifier, names, line) => {
    expect(outlineOf('src/service.ts', TS).imports).toContainEqual<ImportReference>({
      specifier,
      names,
      line,
    });
  });

  it.each([
    ["import * as fs from 'node:fs';", ['fs']],
    ["import type { A, B as C } from './types.js';", ['A', 'B']],
    ["import React, { useState } from 'react';", ['React', 'useState']],
    ["import { type Props, render } from './render.js';", ['Props', 'render']],
  ])('records the names of %s', (line, names) => {
    expect(extractOutline('src/a.ts', [line]).imports[0]?.names).toEqual(names);
  });

  it('records an import that spans several lines at its closing line', () => {
    const outline = outlineOf(
      'src/index.ts',
      [
        'import {',
        '  a,',
        '  b,',
        "} from './x.js';",
        "import type {\n  T,\n} from '../types.js';",
      ].join('\n'),
    );
    expect(outline.imports.map(({ specifier, line }) => ({ specifier, line }))).toEqual([
      { specifier: './x.js', line: 4 },
      { specifier: '../types.js', line: 7 },
    ]);
    expect(outline.symbols).toEqual([]);
  });

  it.each([
    ['a dynamic import', "const mod = await import('./lazy.js');", './lazy.js'],
    ['a require in TypeScript', "const fs = require('node:fs');", 'node:fs'],
    ['a double-quoted specifier', 'import { z } from "zod";', 'zod'],
  ])('records %s', (_what, text, specifier) => {
    expect(outlineOf('src/a.ts', text).imports.map((entry) => entry.specifier)).toEqual([
      specifier,
    ]);
  });

  it('defines object-literal methods and arrow members with a body', () => {
    const text = [
      'const api = {',
      '  get(id) {',
      '    return id;',
      '  },',
      '  remove: (id) => {',
      '  },',
      '};',
    ].join('\n');
    expect(symbolNames('src/api.ts', text)).toEqual(['api', 'get', 'remove']);
  });
});

describe('extractOutline for CommonJS', () => {
  const CJS = [
    "'use strict';",
    "const a = require('./a');",
    'const { b } = require("../lib/b.js");',
    'module.exports.create = function create() {};',
    'exports.destroy = () => {};', // 5
    'Store.prototype.get = function (key) {};',
    'module.exports = Store;',
    'function Store() {}',
  ].join('\n');

  it.each<[string, number, boolean]>([
    ['create', 4, true],
    ['destroy', 5, true],
    ['get', 6, false],
    ['Store', 8, false],
  ])('defines %s at line %i (exported: %s)', (name, line, exported) => {
    expect(outlineOf('lib/store.js', CJS).symbols).toContainEqual<DefinedSymbol>({
      name,
      line,
      exported,
    });
  });

  it('records each require', () => {
    expect(outlineOf('lib/store.js', CJS).imports).toEqual<ImportReference[]>([
      { specifier: './a', names: [], line: 2 },
      { specifier: '../lib/b.js', names: [], line: 3 },
    ]);
  });

  it('does not take `module.exports = X` for a symbol named `exports`', () => {
    expect(symbolNames('lib/store.js', CJS)).not.toContain('exports');
  });
});

describe('extractOutline for Python', () => {
  const PY = [
    'import os',
    'import os.path',
    'from .models import User, Group',
    'from ..core.utils import helper as h',
    '', // 5
    'MAX_RETRIES = 3',
    '',
    'class UserService(BaseService):',
    '    def get_user(self, user_id):',
    '        local_value = 1', // 10
    '',
    'async def fetch_all():',
    '    pass',
  ].join('\n');

  it.each<[string, number]>([
    ['MAX_RETRIES', 6],
    ['UserService', 8],
    ['get_user', 9],
    ['fetch_all', 12],
  ])('defines %s at line %i', (name, line) => {
    expect(outlineOf('app/services.py', PY).symbols).toContainEqual<DefinedSymbol>({
      name,
      line,
      exported: false,
    });
  });

  it('does not define local variables', () => {
    expect(symbolNames('app/services.py', PY)).not.toContain('local_value');
  });

  it.each<[string, string[], number]>([
    ['os', [], 1],
    ['os.path', [], 2],
    ['.models', ['User', 'Group'], 3],
    ['..core.utils', ['helper'], 4],
  ])('imports %s binding %j at line %i', (specifier, names, line) => {
    expect(outlineOf('app/services.py', PY).imports).toContainEqual<ImportReference>({
      specifier,
      names,
      line,
    });
  });
});

describe('extractOutline for Go', () => {
  const GO = [
    'package server',
    '',
    'import "fmt"',
    '',
    'import (', // 5
    '\t"net/http"',
    '\tlog "github.com/sirupsen/logrus"',
    ')',
    '',
    'type Server struct {', // 10
    '\taddr string',
    '}',
    '',
    'type handlerFunc func()',
    '', // 15
    'func NewServer(addr string) *Server {',
    '\treturn &Server{addr: addr}',
    '}',
    '',
    'func (s *Server) Start() error {', // 20
    '\treturn nil',
    '}',
    '',
    'func (s *Server) handle(w http.ResponseWriter) {}',
  ].join('\n');

  it.each<[string, number, boolean]>([
    ['Server', 10, true],
    ['handlerFunc', 14, false],
    ['NewServer', 16, true],
    ['Start', 20, true],
    ['handle', 24, false],
  ])('defines %s at line %i (exported: %s)', (name, line, exported) => {
    expect(outlineOf('server/server.go', GO).symbols).toContainEqual<DefinedSymbol>({
      name,
      line,
      exported,
    });
  });

  it('does not take a struct field for a symbol', () => {
    expect(symbolNames('server/server.go', GO)).not.toContain('addr');
  });

  it.each<[string, number]>([
    ['fmt', 3],
    ['net/http', 6],
    ['github.com/sirupsen/logrus', 7],
  ])('imports %s at line %i', (specifier, line) => {
    expect(outlineOf('server/server.go', GO).imports).toContainEqual<ImportReference>({
      specifier,
      names: [],
      line,
    });
  });
});

describe('extractOutline for other files', () => {
  it.each([
    ['README.md', '# Title\n\nimport x from "y";\nfunction f() {}'],
    ['notes.txt', 'def f():\n  pass'],
  ])('finds nothing in %s', (path, text) => {
    expect(outlineOf(path, text)).toEqual({ imports: [], symbols: [] });
  });

  it('skips lines longer than 400 characters', () => {
    expect(outlineOf('src/a.ts', `export const a = '${'x'.repeat(400)}';`).symbols).toEqual([]);
  });
});

describe('extractOutline: imports that name modules and namespaces', () => {
  it.each<[string, string, ImportReference]>([
    [
      'Rust `mod x;`, as the module it declares',
      'mod config;',
      { specifier: 'self::config', names: [], line: 1 },
    ],
    [
      'Rust `pub(crate) mod x;`',
      'pub(crate) mod search;',
      { specifier: 'self::search', names: [], line: 1 },
    ],
    [
      'Rust `use` with a group',
      'use crate::search::{Matcher, Sink};',
      { specifier: 'crate::search', names: ['Matcher', 'Sink'], line: 1 },
    ],
    [
      'PHP `use` of a class',
      'use Acme\\Billing\\Invoice;',
      { specifier: 'Acme\\Billing\\Invoice', names: [], line: 1 },
    ],
    [
      'PHP `use function`',
      'use function Acme\\Billing\\total;',
      { specifier: 'Acme\\Billing\\total', names: [], line: 1 },
    ],
    [
      'PHP grouped `use`',
      'use Acme\\Billing\\Tax\\{Rate, Zone};',
      { specifier: 'Acme\\Billing\\Tax\\', names: ['Rate', 'Zone'], line: 1 },
    ],
  ])('%s', (_name, text, expected) => {
    const path = text.includes('\\') ? 'src/a.php' : 'src/lib.rs';
    expect(outlineOf(path, text).imports).toEqual([expected]);
  });
});

describe('extractOutline: imports whose names are grouped', () => {
  it.each<[string, string, string, ImportReference]>([
    [
      'Python, parenthesised on one line',
      'app/__init__.py',
      'from . import (models, views)',
      { specifier: '.', names: ['models', 'views'], line: 1 },
    ],
    [
      'Python, over several lines, with comments',
      'app/__init__.py',
      'from . import (\n    models,  # the tables\n    views as v,\n)',
      { specifier: '.', names: ['models', 'views'], line: 1 },
    ],
    [
      'Python, names on the opening and closing lines',
      'app/__init__.py',
      'from .core import (alpha,\n    beta, gamma)',
      { specifier: '.core', names: ['alpha', 'beta', 'gamma'], line: 1 },
    ],
    [
      'PHP, over several lines',
      'src/a.php',
      'use Acme\\Billing\\Tax\\{\n    Rate,\n    Zone,\n};',
      { specifier: 'Acme\\Billing\\Tax\\', names: ['Rate', 'Zone'], line: 1 },
    ],
    [
      'Rust, over several lines',
      'src/lib.rs',
      'use crate::search::{\n    Matcher, // the core\n    Sink,\n};',
      { specifier: 'crate::search', names: ['Matcher', 'Sink'], line: 1 },
    ],
  ])('%s', (_name, path, text, expected) => {
    expect(outlineOf(path, text).imports).toEqual([expected]);
  });

  it("reads on after a group's closing line", () => {
    const outline = outlineOf(
      'app/views.py',
      'from . import (\n    models,\n)\n\ndef index():\n    pass',
    );
    expect(outline.symbols.map((symbol) => symbol.name)).toEqual(['index']);
  });

  it('gives up a group never closed, and finds what follows it', () => {
    const names = Array.from({ length: 150 }, (_, index) => `    name${index},`);
    const text = ['from . import (', ...names, 'def later():', '    pass'].join('\n');
    const outline = outlineOf('app/views.py', text);
    expect(outline.imports[0]?.names).toHaveLength(100);
    expect(outline.symbols.map((symbol) => symbol.name)).toContain('later');
  });
});

describe('namesDefinedIn', () => {
  const nameDefinedOn = (path: string, text: string) => namesDefinedIn(path)(text);

  /** Every symbol the outline finds is named by its line read alone: a scan relies on it. */
  function expectEverySymbolNamedByItsLine(path: string, text: string) {
    const lines = text.split('\n');
    const symbols = extractOutline(path, lines).symbols;
    for (const symbol of symbols)
      expect(nameDefinedOn(path, lines[symbol.line - 1] ?? ''), `${path}:${symbol.line}`).toBe(
        symbol.name,
      );
    return symbols;
  }

  it.each<[string, string]>([
    ['app/services.py', 'class UserService(Base):\n    def get_user(self):\n        pass\nMAX = 3'],
    ['cmd/main.go', 'package main\n\ntype Server struct {}\n\nfunc (s *Server) Run() error {'],
    ['src/lib.rs', 'pub struct Matcher {}\nimpl Matcher {\n    pub fn find(&self) {}\n}'],
    ['src/Main.java', 'public class Main {\n  public static void main(String[] args) {'],
    ['src/a.php', '<?php\nclass Rate {\n    public function apply($x) {'],
    ['lib/a.rb', 'module Billing\n  class Rate\n    def apply(x)\n    end'],
    ['src/a.c', 'static int parse_header(const char *line) {\n  return 0;\n}'],
  ])('names what the outline finds on each line of %s', (path, text) => {
    expect(expectEverySymbolNamedByItsLine(path, text).length).toBeGreaterThan(0);
  });

  it("holds over this project's own sources", () => {
    const directory = join(import.meta.dirname, '../../src/dispatch');
    const files = readdirSync(directory).filter((name) => name.endsWith('.ts'));
    const found = files.flatMap((name) =>
      expectEverySymbolNamedByItsLine(name, readFileSync(join(directory, name), 'utf8')),
    );
    expect(found.length).toBeGreaterThan(50);
  });

  it('names nothing on a comment, a long line or a file without an outline', () => {
    expect(nameDefinedOn('src/a.ts', '// function handle() {')).toBeUndefined();
    expect(nameDefinedOn('src/a.ts', `function handle() { ${'x'.repeat(400)}`)).toBeUndefined();
    expect(nameDefinedOn('README.md', 'function handle() {')).toBeUndefined();
    expect(nameDefinedOn('src/a.ts', 'function handle() {')).toBe('handle');
  });
});

describe('importGroupLines', () => {
  /** The group lines as a scan asks for them: lines by number, lines holding words by search. */
  function groupLinesOf(path: string, lines: readonly string[]) {
    return importGroupLines(
      path,
      (line) => lines[line] ?? '',
      (words) =>
        lines.flatMap((text, line) =>
          words.some((word) => text.toLowerCase().includes(word)) ? [line] : [],
        ),
    );
  }

  it('tells the lines of a group of imported names, where the outline defines nothing', () => {
    const lines = [
      '<?php',
      'use Acme\\Util\\{',
      '    function format,',
      '};',
      'function format() {',
    ];
    const inGroup = groupLinesOf('src/a.php', lines);
    expect(lines.map((_, line) => inGroup(line))).toEqual([false, false, true, true, false]);
    expect(namesDefinedIn('src/a.php')(lines[2] ?? '')).toBe('format');
    expect(symbolNames('src/a.php', lines.join('\n'))).toEqual(['format']);
    expect(outlineOf('src/a.php', lines.join('\n')).symbols[0]?.line).toBe(5);
  });

  /** Whether each line defines a name in the outline, told from the line and the groups. */
  function expectAgreement(path: string, lines: readonly string[], label: string) {
    const inGroup = groupLinesOf(path, lines);
    const defined = new Set(extractOutline(path, lines).symbols.map((symbol) => symbol.line));
    const named = namesDefinedIn(path);
    lines.forEach((text, line) => {
      const found = named(text) !== undefined && !inGroup(line);
      expect(found, `${label}, line ${line + 1}`).toBe(defined.has(line + 1));
    });
  }

  it.each([98, 99, 100, 101])(
    'ends a group at its closing line or its limit (%i lines on)',
    (at) => {
      const names = Array.from({ length: 110 }, (_, index) =>
        index === 98 ? ')' : `    n${index},`,
      );
      const lines = ['from . import (', ...names.slice(0, at - 1), 'def a():', 'def b():'];
      expectAgreement('a.py', lines, `closer at 99, definitions at ${at} and ${at + 1}`);
      const unclosed = ['from . import (', ...Array(at - 1).fill('    n,'), 'def a():', 'def b():'];
      expectAgreement('a.py', unclosed, `no closer, definitions at ${at} and ${at + 1}`);
    },
  );

  // Lines that open, fill and close groups, define names, or only look like it, in each family.
  const SNIPPETS: Record<string, string[]> = {
    'a.py': [
      'from . import (',
      'from .core import (alpha,',
      '    beta,',
      ')',
      '    gamma)',
      'def handle():',
      '    def inner(x): return (x)',
      'class Rate:',
      'MAX = 3',
      'import os',
      '# from x import (',
      `from y import (${'z'.repeat(400)}`,
      'value = (',
    ],
    'a.rs': [
      'use crate::search::{',
      'pub(crate) use a::{B,',
      '    C,',
      '};',
      'pub fn run() {',
      '    mod_name::call();',
      'fn helper() {}',
      'mod inner;',
      'mod inner {',
      'struct Sink {}',
      '}',
      '// use a::{',
    ],
    'a.php': [
      'use Acme\\Util\\{',
      '    function format,',
      '    const LIMIT,',
      '};',
      'class Rate {',
      '    public function apply($x) {',
      '}',
      'function top() {',
      'use function Acme\\f;',
      'require_once "x.php";',
      'include "{$dir}/y.php";',
    ],
  };

  it.each(Object.keys(SNIPPETS))(
    'agrees with the outline line by line in generated %s files',
    (path) => {
      const snippets = SNIPPETS[path] ?? [];
      let seed = 7;
      const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
      for (let file = 0; file < 300; file++) {
        // Some files hold few closers, so that groups run to their limit.
        const closers = file % 3 === 0 ? 1 : 4;
        const lines = Array.from({ length: 20 + (next() % 200) }, () => {
          const snippet = snippets[next() % snippets.length] ?? '';
          return /^\s*[)}]/.test(snippet) && next() % closers !== 0 ? '    name,' : snippet;
        });
        expectAgreement(path, lines, `${path} file ${file}`);
      }
    },
  );
});
