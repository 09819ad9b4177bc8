import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { extractOutline } from '../../src/structure/outline.js';
import { ownString } from '../../src/text/own-string.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Heap in use after a full collection, in bytes. */
function heapAfterCollection(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

/** A file's text of about 100 KB: a long definition, an import, then filler. */
const textOf = (index: number) =>
  [
    `import { someLongImportedName${index} } from './a-long-module-specifier-${index}.js';`,
    `export function aDefinitionWithALongName${index}() {}`,
    ...Array.from({ length: 4000 }, (_, line) => `// filler line ${line} of file ${index}`),
  ].join('\n');

describe('ownString', () => {
  it('is the same text', () => {
    for (const text of ['', 'a', 'a name of more than thirteen characters', 'é😀\n'])
      expect(ownString(text)).toBe(text);
  });

  it('lets the text an outline was cut from go: 200 outlines of 100 KB texts keep far less', () => {
    const before = heapAfterCollection();
    const outlines = Array.from({ length: 200 }, (_, index) =>
      // The lines split here are cut from the whole text, as a file's are.
      extractOutline(`src/file${index}.ts`, textOf(index).split('\n')),
    );
    const kept = heapAfterCollection() - before;
    expect(outlines.every((outline) => outline.symbols.length === 1)).toBe(true);
    expect(outlines[7]?.imports[0]?.specifier).toBe('./a-long-module-specifier-7.js');
    // The texts are 200 × 100 KB: what is kept is their names, not them.
    expect(kept).toBeLessThan(2_000_000);
  });
});
