import { afterEach, describe, expect, it } from 'vitest';
import { describeWorkspace } from '../../src/repository/overview.js';
import { openWorkspace } from '../../src/repository/workspace.js';
import { namedFiles } from '../../src/judges/heuristic/named-files.js';
import { buildTermModel } from '../../src/judges/heuristic/term-model.js';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';

afterEach(removeTempTrees);

// A library with a root package and one workspace package, as a reporter's trace would meet it.
const LIBRARY = {
  'package.json': JSON.stringify({ name: 'fetchy', version: '1.0.0' }),
  'lib/utils.js': 'export function isFormData(thing) { return false; }\n',
  'lib/core/request.js': 'export function request() {}\n',
  'lib/helpers/format.js': 'export function format() {}\n',
  'src/helpers/format.js': 'export function format() {}\n',
  'packages/cookies/package.json': JSON.stringify({ name: '@fetchy/cookies' }),
  'packages/cookies/src/jar.js': 'export class Jar {}\n',
  'test/fixtures/app/package.json': JSON.stringify({ name: 'fixture-app' }),
  'broken/package.json': '{ not json',
};

async function overviewOf(files: Record<string, string>) {
  const root = await createTempTree(files);
  return describeWorkspace(await openWorkspace(root, { maxFileBytes: 100_000, maxFiles: 1_000 }));
}

/** The files `task` names in the library. */
async function namedIn(task: string) {
  return namedFiles(buildTermModel(task), await overviewOf(LIBRARY));
}

describe('describeWorkspace: packages', () => {
  it("lists each package.json's name with its directory, skipping test fixtures and broken files", async () => {
    expect((await overviewOf(LIBRARY)).packages).toEqual([
      { name: 'fetchy', directory: '' },
      { name: '@fetchy/cookies', directory: 'packages/cookies' },
    ]);
  });
});

describe('namedFiles: modules named by their directory', () => {
  const PLUGINS = {
    'src/plugin/advancedFormat/index.js': 'export default function advancedFormat() {}\n',
    'src/plugin/timezone/index.js': 'export default function timezone() {}\n',
    'src/locale/timezone/index.js': 'export default {}\n',
    'crates/parser_core/src/lexer/mod.rs': 'pub fn lex() {}\n',
    'pkg/date_utils/__init__.py': 'def parse(): pass\n',
    'src/core/index.js': 'export {}\n',
  };
  const namedBy = async (task: string) =>
    [...namedFiles(buildTermModel(task), await overviewOf(PLUGINS)).named].sort();

  it.each<[string, string, string[]]>([
    [
      'an identifier that is one directory with an index file',
      'The advancedFormat plugin prints the wrong week of year',
      ['src/plugin/advancedFormat/index.js'],
    ],
    [
      'a Rust module directory',
      'Panic in `lexer` on an empty string',
      ['crates/parser_core/src/lexer/mod.rs'],
    ],
    [
      'a Python package, however it is written',
      'DateUtils.parse fails',
      ['pkg/date_utils/__init__.py'],
    ],
    ['nothing for a name two directories share', 'The `timezone` plugin is wrong', []],
    ['nothing for a plain word of the prose', 'The core of the formatter is slow', []],
    [
      'nothing for a package in the middle of a dotted name',
      '`fmt.core.render.Printer` drops the width',
      [],
    ],
    [
      'the module a dotted name ends with',
      '`fmt.lexer` drops the width',
      ['crates/parser_core/src/lexer/mod.rs'],
    ],
  ])('%s', async (_name, task, expected) => {
    expect(await namedBy(task)).toEqual(expected);
  });
});

describe('namedFiles', () => {
  it.each<[string, string, string[]]>([
    ['a path', 'Crash in lib/core/request.js', ['lib/core/request.js']],
    ['a file name only one file has', 'Crash in request.js', ['lib/core/request.js']],
    ['no file for a name two files share', 'Crash in format.js', []],
    [
      'a frame in an installed copy of the root package',
      'Crash\n    at isFormData (/app/node_modules/fetchy/lib/utils.js:3:1)',
      ['lib/utils.js'],
    ],
    [
      'a frame in an installed copy of a workspace package',
      'Crash\n    at Jar (/app/node_modules/@fetchy/cookies/src/jar.js:3:1)',
      ['packages/cookies/src/jar.js'],
    ],
    [
      'no file for a frame of another package, even with a path that exists here',
      'Crash\n    at merge (/app/node_modules/qs/lib/utils.js:3:1)',
      [],
    ],
    [
      "a file of an absolute path on the reporter's machine",
      'Crash\n    at request (/home/me/fetchy/lib/core/request.js:3:1)',
      ['lib/core/request.js'],
    ],
    ['no file for a relative path that only ends like one', 'See other-lib/lib/utils.js', []],
    [
      "no file for a short path at the end of the reporter's own path",
      'Crash\n    at main (/home/me/app/lib/utils.js:3:1)',
      [],
    ],
    [
      'no file for a Python library path',
      'Traceback:\n  File "/usr/lib/python3.11/site-packages/x/lib/core/request.js", line 1, in f\n',
      [],
    ],
  ])('%s', async (_name, task, expected) => {
    expect([...(await namedIn(task)).named]).toEqual(expected);
  });

  it.each<[string, string, string[]]>([
    [
      'the frames below the innermost one that names a file here',
      'Crash\n    at Buffer.toString (node:buffer:1:1)\n    at isFormData (/app/node_modules/fetchy/lib/utils.js:3:1)\n    at request (/app/node_modules/fetchy/lib/core/request.js:9:1)\n    at Jar (/app/node_modules/@fetchy/cookies/src/jar.js:3:1)',
      ['lib/core/request.js', 'packages/cookies/src/jar.js'],
    ],
    [
      'no file the task also names outside the trace',
      'Crash in lib/core/request.js\n    at isFormData (lib/utils.js:3:1)\n    at request (lib/core/request.js:9:1)',
      [],
    ],
    [
      'no file where another trace failed',
      '    at isFormData (lib/utils.js:3:1)\n    at request (lib/core/request.js:9:1)\nAnd later:\n    at request (lib/core/request.js:9:1)',
      [],
    ],
  ])('counts as callers %s', async (_name, task, expected) => {
    const { named, callers } = await namedIn(task);
    expect([...callers].sort()).toEqual(expected);
    for (const path of callers) expect(named.has(path)).toBe(true);
  });
});
