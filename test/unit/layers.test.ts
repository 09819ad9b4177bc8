import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The folders of src/ in the order a run goes through them (the README's layout): each may
 * import only from the folders before it, so no import runs back up the pipeline.
 */
const LAYERS = [
  'contracts',
  'file-system',
  'text',
  'redaction',
  'structure',
  'history',
  'repository',
  'dispatch',
  'llm',
  'judges',
  'loop',
  'output',
  'hooks',
  'mcp',
  'resident',
  'cli',
];

const SOURCE = join(import.meta.dirname, '../../src');
const layerOf = (path: string) => relative(SOURCE, path).split('/')[0] ?? '';

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(directory, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(directory, entry.name)]
        : [],
  );
}

describe('the layers of src/', () => {
  it('has a layer for every folder', () => {
    const folders = readdirSync(SOURCE, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.sort()).toEqual([...LAYERS].sort());
  });

  it('imports only from earlier layers (or files at the root of src/)', () => {
    const upward: string[] = [];
    for (const file of sourceFiles(SOURCE)) {
      const from = LAYERS.indexOf(layerOf(file));
      if (from < 0) continue;
      for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
        const target = normalize(join(dirname(file), specifier ?? ''));
        const to = LAYERS.indexOf(layerOf(target));
        if (to > from) upward.push(`${relative(SOURCE, file)} -> ${relative(SOURCE, target)}`);
      }
    }
    expect(upward).toEqual([]);
  });
});
