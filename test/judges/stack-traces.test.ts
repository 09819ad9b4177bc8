import { describe, expect, it } from 'vitest';
import { stackTraces } from '../../src/judges/heuristic/stack-traces.js';

const pathsOf = (text: string) =>
  stackTraces(text).map((trace) => trace.map((frame) => frame.path));

describe('stackTraces', () => {
  it.each<[string, string, string[][]]>([
    [
      'a JavaScript trace, innermost frame first as printed',
      'TypeError: x is undefined\n    at parse (src/parse.js:3:1)\n    at load (src/load.js:9:2)\n    at main (src/index.js:1:1)',
      [['src/parse.js', 'src/load.js', 'src/index.js']],
    ],
    [
      'frames at the start of the line, with runtime frames',
      'Error: too long\nat Buffer.toString (node:buffer:798:17)\nat Object.isFormData (file:///app/node_modules/fetchy/lib/utils.js:195:42)',
      [['node:buffer', 'file:///app/node_modules/fetchy/lib/utils.js']],
    ],
    [
      'two traces with text between them',
      '    at a (src/a.js:1:1)\n    at b (src/b.js:1:1)\nThen, after a reload:\n    at c (src/c.js:1:1)',
      [['src/a.js', 'src/b.js'], ['src/c.js']],
    ],
    [
      'a Python traceback, reversed so that the innermost frame comes first',
      'Traceback (most recent call last):\n  File "app/main.py", line 3, in <module>\n    run()\n  File "app/models.py", line 12, in save_user\n    raise ValueError()\nValueError',
      [['app/models.py', 'app/main.py']],
    ],
    [
      'two traces with indented text between them (two failing tests)',
      '  ● first\n    at a (src/a.js:1:1)\n  ● second\n    at b (src/b.js:1:1)',
      [['src/a.js'], ['src/b.js']],
    ],
    [
      'constructors, aliases, async frames and a trailing brace',
      '    at new Store (src/store.js:1:1)\n    at Router.handle [as handle] (src/router.js:2:2)\n    at async file:///app/src/main.js:3:3 {',
      [['src/store.js', 'src/router.js', 'file:///app/src/main.js']],
    ],
    [
      'a Python traceback through <string> code',
      'Traceback (most recent call last):\n  File "<string>", line 1, in <module>\n  File "app/run.py", line 2, in main\n    go()\nKeyError',
      [['app/run.py']],
    ],
    ['no frame at all', 'It crashes at startup (sometimes)', []],
  ])('%s', (_name, text, expected) => {
    expect(pathsOf(text)).toEqual(expected);
  });

  it('reads traces padded with whitespace-only lines without hanging', () => {
    // A pattern that can match blank lines two ways backtracks exponentially on this: seconds at
    // four blocks, hours at ten. The limit guards against a hang; the read itself takes microseconds.
    const block = '    function f() {\n    \n  \n      return 1\n    \n    }\n';
    const text = `Crash\n    at parse (src/parse.js:1:1)\n${block.repeat(4)}Again:\n    at parse (src/parse.js:1:1)\n${'\n'.repeat(50_000)}`;
    expect(pathsOf(text)).toEqual([['src/parse.js'], ['src/parse.js']]);
  }, 1_000);

  it('keeps the function names of each frame', () => {
    expect(stackTraces('    at Object.isFormData (lib/utils.js:1:1)')[0]?.[0]?.names).toEqual([
      'Object',
      'isFormData',
    ]);
  });
});
