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
      'Error: too long\nat Buffer.toString (node:buffer:798:17)\nat Object.isFormData (file:///app/node_modules/axios/lib/utils.js:195:42)',
      [['node:buffer', 'file:///app/node_modules/axios/lib/utils.js']],
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
    ['no frame at all', 'It crashes at startup (sometimes)', []],
  ])('%s', (_name, text, expected) => {
    expect(pathsOf(text)).toEqual(expected);
  });

  it('keeps the function names of each frame', () => {
    expect(stackTraces('    at Object.isFormData (lib/utils.js:1:1)')[0]?.[0]?.names).toEqual([
      'Object',
      'isFormData',
    ]);
  });
});
