import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import asc from 'assemblyscript/asc';

/**
 * Builds the byte search's WebAssembly kernel (src/dispatch/byte-search-kernel.as.ts) into the
 * module that carries it (src/dispatch/byte-search-kernel.ts), as base64: the sources, `dist/`
 * and the plugin's bundle then load it alike, with nothing to build on install.
 * `test/unit/byte-search.test.ts` builds it again and fails when the two differ.
 */

const SOURCE = join(import.meta.dirname, '../src/dispatch/byte-search-kernel.as.ts');
const KERNEL_MODULE = join(import.meta.dirname, '../src/dispatch/byte-search-kernel.ts');

export async function compileKernel(): Promise<Uint8Array> {
  const { binary, error, stderr } = await asc.compileString(await readFile(SOURCE, 'utf8'), {
    optimizeLevel: 3,
    shrinkLevel: 0,
    runtime: 'stub',
    enable: ['simd'],
    noAssert: true,
    // No `abort` import: nothing in the kernel can fail, and it needs no imports at all.
    use: ['abort='],
  });
  if (error || !binary) throw new Error(`the kernel did not compile: ${stderr.toString()}`);
  return binary;
}

export function kernelModule(binary: Uint8Array): string {
  return [
    '// Built by `npm run build:kernel` from ./byte-search-kernel.as.ts: do not edit.',
    `export const KERNEL_BASE64 =\n  '${Buffer.from(binary).toString('base64')}';`,
    '',
  ].join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  await writeFile(KERNEL_MODULE, kernelModule(await compileKernel()));
}
