import { describe, expect, it } from 'vitest';
import { extractTaskTerms } from '../../src/judges/heuristic/task-terms.js';
import { stem } from '../../src/text/stem.js';

const keywordsOf = (task: string) => extractTaskTerms(task).keywords;
const importanceOf = (task: string, keyword: string) =>
  extractTaskTerms(task).importance.get(keyword) ?? 0;

describe('extractTaskTerms', () => {
  describe('keywords', () => {
    it.each<[string, string, string[]]>([
      [
        'identifiers in prose',
        'Fix refreshToken expiry when max_body_length is exceeded',
        ['refreshToken', 'max_body_length', 'expiry'],
      ],
      [
        'code spans and fenced code blocks',
        'Crash in `parseHeaders` when called\n```js\nconst out = normalizeHeaderValue(raw);\n```',
        ['parseHeaders', 'normalizeHeaderValue'],
      ],
      [
        'a quoted message of three or more words, verbatim',
        'Upload fails with "Request body larger than maxBodyLength limit" on big files',
        ['Request body larger than maxBodyLength limit', 'maxBodyLength'],
      ],
      [
        'a single-quoted message, not the words between two apostrophes',
        "Don't retry; it's 'invalid token signature' after refresh",
        ['invalid token signature', 'retry'],
      ],
      [
        'a single-quoted message',
        "Login fails with 'invalid token signature' after refresh",
        ['invalid token signature', 'login'],
      ],
      [
        'the message of an `Error:` line, verbatim',
        'Startup crash\nTypeError: config is not iterable in loader\n',
        ['config is not iterable in loader'],
      ],
      [
        'the function of a JavaScript stack frame',
        'Crash\n    at parseConfig (src/config/parse.js:10:5)\n',
        ['parseConfig'],
      ],
      [
        'the function of a Python frame',
        'Traceback:\n  File "app/models.py", line 12, in save_user\n',
        ['save_user'],
      ],
      ['the name of a mentioned file', 'Refactor the session-manager.ts file', ['session-manager']],
      [
        'a quoted message after a code span that quotes something too',
        'Calling `setLocale("zh-cn")` then `format()` throws "date value out of range" here',
        ['date value out of range', 'setLocale'],
      ],
    ])('takes %s', (_name, task, expected) => {
      expect(keywordsOf(task)).toEqual(expect.arrayContaining(expected));
    });

    it.each<[string, string, string[]]>([
      [
        'stop words and issue-template words',
        'The bug: expected behaviour is different, please reproduce the issue',
        ['the', 'bug', 'expected', 'behaviour', 'different', 'please', 'reproduce', 'issue'],
      ],
      [
        'quoted text of fewer than three words',
        "Login fails with 'bad token' after refresh",
        ['bad token'],
      ],
      [
        'code syntax words in code spans',
        'Crash in `const value = await fetchUser()`',
        ['const', 'value', 'await'],
      ],
      ['the rest of a link', 'Broken, see https://example.com/docs/guide', ['example', 'guide']],
    ])('drops %s', (_name, task, dropped) => {
      const keywords = keywordsOf(task).map((keyword) => keyword.toLowerCase());
      for (const word of dropped) expect(keywords).not.toContain(word);
    });

    it.each([
      'Expired tokens expire, expiry expires after expiring',
      'Renew the session; renewal renews sessions',
    ])('keeps one keyword per stem in %j', (task) => {
      const stems = keywordsOf(task).map(stem);
      expect(new Set(stems).size).toBe(stems.length);
    });

    it('finds no keyword in a task made only of stop words', () => {
      expect(keywordsOf('The bug: please fix it, thanks')).toEqual([]);
    });
  });

  describe('importance', () => {
    it.each<[string, string, string, string]>([
      ['a prose identifier', 'Fix refreshToken so tokens renew', 'refreshToken', 'tokens'],
      ['a code span', 'Crash in `parseHeaders` with empty headers', 'parseHeaders', 'empty'],
      [
        'a quoted message',
        'Upload fails with "body larger than limit" often',
        'body larger than limit',
        'upload',
      ],
      [
        'a stack-frame function',
        'Crash\n    at parseConfig (src/a.js:10:5)\n',
        'parseConfig',
        'crash',
      ],
      [
        'a title word',
        'Session expiry\n\nThe cookies are dropped by a browser',
        'expiry',
        'browser',
      ],
      [
        "a reproduction's compound identifier",
        'Style lost\n```js\nconst box = shallowReactive({ color: 1 })\n```',
        'shallowReactive',
        'color',
      ],
      [
        'a code span',
        'Style lost when `color` is set\n```css\n.box { width: 1px }\n```',
        'color',
        'width',
      ],
    ])('weighs %s above plain prose', (_name, task, strong, plain) => {
      expect(importanceOf(task, plain)).toBeGreaterThan(0);
      expect(importanceOf(task, strong)).toBeGreaterThan(importanceOf(task, plain));
    });

    it('lists keywords most important first', () => {
      const terms = extractTaskTerms('Fix refreshToken: "token signature is invalid" in login');
      const weights = terms.keywords.map((keyword) => terms.importance.get(keyword) ?? 0);
      expect(weights).toEqual([...weights].sort((left, right) => right - left));
    });
  });

  describe('mentioned paths', () => {
    it.each<[string, string, string[]]>([
      [
        'a file path',
        'The adapter in lib/adapters/http.js drops headers',
        ['lib/adapters/http.js'],
      ],
      ['a path starting with ./', 'See ./src/index.ts', ['src/index.ts']],
      [
        'a GitHub blob link',
        'Broken at https://github.com/o/r/blob/main/src/x.ts#L10 since 2.0',
        ['src/x.ts'],
      ],
    ])('records %s', (_name, task, paths) => {
      expect(extractTaskTerms(task).mentionedPaths).toEqual(expect.arrayContaining(paths));
    });

    it.each<[string, string]>([
      ['frames inside node_modules', '    at next (/app/node_modules/express/lib/router.js:3:1)'],
      ['Node internals', '    at Module._compile (node:internal/modules/cjs/loader:1105:14)'],
      ['version numbers', 'Broke when upgrading to 1.2.js'],
    ])('ignores %s', (_name, task) => {
      expect(extractTaskTerms(`Crash\n${task}\n`).mentionedPaths).toEqual([]);
    });

    it.each([
      [
        'a Python frame in site-packages',
        '  File "/usr/lib/python3.11/site-packages/requests/sessions.py", line 3, in send',
      ],
      ['a frame inside node_modules', '    at next (/app/node_modules/express/lib/router.js:3:1)'],
      [
        'a Node internal frame',
        '    at Module._compile (node:internal/modules/cjs/loader:1105:14)',
      ],
    ])('takes neither paths nor keywords from %s', (_name, frame) => {
      const terms = extractTaskTerms(`Crash on start\n${frame}\n`);
      expect(terms.mentionedPaths).toEqual([]);
      expect(terms.keywords.map((keyword) => keyword.toLowerCase())).toEqual(['crash', 'start']);
    });
  });

  describe('stack traces', () => {
    it.each<[string, string, string[][]]>([
      [
        'a JavaScript frame',
        'Crash\n    at parseConfig (src/config/parse.js:10:5)\n',
        [['src/config/parse.js']],
      ],
      [
        'a Python frame',
        'Traceback:\n  File "app/models.py", line 12, in save_user\n',
        [['app/models.py']],
      ],
      [
        'a frame in an installed package, as written',
        '    at Object.isFormData (file:///app/node_modules/fetchy/lib/utils.js:195:42)',
        [['file:///app/node_modules/fetchy/lib/utils.js']],
      ],
    ])('records %s', (_name, task, traces) => {
      const terms = extractTaskTerms(`Crash\n${task}\n`);
      expect(terms.traces).toEqual(traces);
      expect(terms.mentionedPaths).toEqual([]);
    });
  });

  describe('installed paths', () => {
    it.each<[string, string, string[]]>([
      [
        'a file of an installed package',
        'It throws in /app/node_modules/fetchy/lib/core/Fetchy.js',
        ['fetchy/lib/core/Fetchy.js'],
      ],
      [
        'a scoped package',
        'See node_modules/@vue/runtime-core/dist/runtime-core.cjs.js',
        ['@vue/runtime-core/dist/runtime-core.cjs.js'],
      ],
      [
        'the innermost of nested packages',
        'It throws in /app/node_modules/a/node_modules/express/lib/router.js',
        ['express/lib/router.js'],
      ],
      ['no installed package', 'It throws in src/config/parse.js', []],
    ])('records %s', (_name, text, paths) => {
      expect(extractTaskTerms(`Crash\n${text}\n`).installedPaths).toEqual(paths);
    });
  });

  it('reads no message between the apostrophes of two contractions', () => {
    expect(keywordsOf("Don't retry the upload; it's slow")).not.toContain('t retry the upload; it');
  });

  it('takes no keyword from the markup tags of a reproduction, but keeps components and names', () => {
    const keywords = keywordsOf(
      'List renders twice\n```vue\n<script setup lang="ts">\nimport { shallowReactive } from "vue"\n</script>\n<template><Suspense><div>{{ items }}</div></Suspense></template>\n```',
    ).map((keyword) => keyword.toLowerCase());
    expect(keywords).toEqual(expect.arrayContaining(['shallowreactive', 'suspense', 'items']));
    for (const tag of ['script', 'template', 'div']) expect(keywords).not.toContain(tag);
  });

  it('keeps generics, comparisons and framework elements in a reproduction', () => {
    const keywords = keywordsOf(
      'Leaves stay\n```vue\n<transition><keep-alive><router-view /></keep-alive></transition>\nconst n = count<maxItems ? ref<MyThing>() : 0\n```',
    ).map((keyword) => keyword.toLowerCase());
    expect(keywords).toEqual(
      expect.arrayContaining(['transition', 'keep', 'alive', 'maxitems', 'mything']),
    );
  });

  describe('issue templates', () => {
    const TEMPLATED = [
      'Watcher order changes with `computed`',
      '### Vue version',
      '3.4.37',
      '### Steps to reproduce',
      'Sync watchers of a computed run out of order.',
      '### System Info',
      '```shell',
      'System:',
      '    OS: macOS 14.6',
      '    CPU: (12) x64 Intel(R) Core(TM) i7-9750H CPU @ 2.60GHz',
      '  Binaries:',
      '    Yarn: 1.22.22 - ~/.nvm/versions/node/v20.16.0/bin/yarn',
      '```',
      '### Any additional comments?',
      '_No response_',
    ].join('\n');

    it('takes no keyword from headings, environment reports or empty fields', () => {
      const keywords = keywordsOf(TEMPLATED).map((keyword) => keyword.toLowerCase());
      expect(keywords).toEqual(expect.arrayContaining(['computed', 'watcher', 'sync']));
      for (const noise of ['macos', 'cpu', 'intel', 'yarn', 'binaries', 'system', 'response'])
        expect(keywords).not.toContain(noise);
    });
  });

  describe('wanted kinds', () => {
    it.each<[string, string[]]>([
      ['Add a unit test for the parser', ['test']],
      ['Write tests for the retry policy', ['test']],
      ['The test suite for billing is slow', ['test']],
      ['Update the documentation for the parser', ['docs']],
      ['Fix the README install steps', ['docs']],
      ['Add tests and update the docs for retries', ['docs', 'test']],
      ['Parser crashes; the tests pass though and the docs mention it', []],
      ['Login fails, as the documentation says it should not', []],
      ['Refresh tokens expire too early', []],
      ['The typings of refreshToken are wrong', ['declaration']],
      ['Fix the TypeScript types of the session', ['declaration']],
      ['The content type header is lost; I use TypeScript', []],
      ['The old name was removed from the declaration file', []],
    ])('%j wants %j', (task, kinds) => {
      expect([...extractTaskTerms(task).wantedKinds].sort()).toEqual(kinds);
    });
  });
});

describe('extractTaskTerms: short names marked as code', () => {
  it.each<[string, string, string[], string[]]>([
    ['a locale', 'Add the `ku` locale', ['ku'], []],
    ['a language tag', 'Dates in `zh-cn` use the wrong week start', ['zh-cn'], []],
    ['an option', 'The `no_proxy` setting is ignored', ['no_proxy'], []],
    ['a long flag', 'Support `--no-verify` on commit', ['--no-verify'], []],
    ['no version number', 'Broken since `1.2.3`', [], ['1.2.3']],
    ['no single letter', 'The `-z` flag is ignored', [], ['-z', 'z']],
    ['no keyword of the language', 'It returns `null`, even with `--null`', [], ['null', '--null']],
  ])('%s', (_name, task, present, absent) => {
    const { keywords } = extractTaskTerms(task);
    for (const keyword of present) expect(keywords).toContain(keyword);
    for (const keyword of absent) expect(keywords).not.toContain(keyword);
  });
});

describe('extractTaskTerms: messages filled with values', () => {
  it.each<[string, string, string[]]>([
    ['a count', 'It prints "3 known failures" and stops', ['3 known failures', 'known failures']],
    [
      'values on both sides',
      'Error: "Expected 2 arguments but got 5 instead" when calling it',
      ['arguments but got', 'instead'],
    ],
    [
      'a quoted value',
      'It says \'cannot open "x.txt" for writing\' today',
      ['cannot open', 'for writing'],
    ],
  ])('%s: the text between the values is searched too', (_name, task, parts) => {
    const { keywords } = extractTaskTerms(task);
    for (const part of parts.filter((part) => part.includes(' '))) expect(keywords).toContain(part);
  });

  it('adds nothing more for a message without values', () => {
    expect(extractTaskTerms('It says "cannot read the file" today').keywords).toEqual(
      expect.not.arrayContaining(['cannot read', 'the file']),
    );
  });
});

describe('extractTaskTerms: members written with their owners', () => {
  it.each<[string, string, string[], string[]]>([
    [
      'the last two parts of a chain in a code span',
      '`ds.Coarsen.construct` demotes coordinates',
      ['Coarsen.construct'],
      ['ds.Coarsen.construct'],
    ],
    [
      'in prose, with `::` or `#`',
      'Model::save and String#split',
      ['Model.save', 'String.split'],
      [],
    ],
    ['not a path', 'It reads /_layouts/archive.html twice', [], ['archive.html']],
    [
      "not the reporter's code",
      'It fails:\n```py\nxr.tutorial.load_dataset("air")\n```',
      [],
      ['tutorial.load_dataset'],
    ],
  ])('%s', (_name, task, present, absent) => {
    const { keywords } = extractTaskTerms(task);
    for (const keyword of present) expect(keywords).toContain(keyword);
    for (const keyword of absent) expect(keywords).not.toContain(keyword);
  });

  it('adds them after the other keywords, taking none of their places', () => {
    const words = Array.from(
      { length: 60 },
      (_, index) => `word${String.fromCharCode(97 + (index % 26))}${index}`,
    );
    const { keywords } = extractTaskTerms(`${words.join(' ')} and \`Coarsen.construct\``);
    expect(keywords.at(-1)).toBe('Coarsen.construct');
  });
});
