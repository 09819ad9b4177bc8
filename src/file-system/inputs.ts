import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { ConfigError, SearchError } from '../errors.js';

/** What a run reads besides the searched tree: its task, its prompts, the grammars it ships. */

/**
 * The text of a stream, refused past `maxBytes` (a ConfigError naming `what`): standard input
 * or a task file may be `/dev/zero`, and must not fill the memory before anything is checked.
 */
export async function readStreamText(
  stream: NodeJS.ReadableStream,
  maxBytes: number,
  what: string,
): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    total += bytes.length;
    if (total > maxBytes) {
      (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      throw new ConfigError(
        `${what} is longer than ${maxBytes.toLocaleString('en-US')} bytes: give the task, not a whole log`,
        { option: 'task' },
      );
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

/** Text of a task file, within `maxBytes`; errors name the path. */
export async function readTaskFile(path: string, maxBytes: number): Promise<string> {
  try {
    return await readStreamText(createReadStream(path), maxBytes, `the task file \`${path}\``);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new SearchError(`cannot read \`${path}\``, { cause: error, path });
  }
}

/** Where the plugin bundle keeps the grammars it ships, brotli-compressed, beside its `cli/`. */
const BUNDLED_FILES = new URL('../grammars/', import.meta.url);

/**
 * A file that a dependency ships (a grammar's WebAssembly), or undefined when it is not installed:
 * from the plugin bundle's own copy (`<file>.br`), else from the package in `node_modules`.
 * Read by path, not through the package's `exports`, which may not list the file.
 */
export async function readPackagedFile(
  packageName: string,
  file: string,
): Promise<Uint8Array | undefined> {
  const bundled = await readFile(new URL(`${file}.br`, BUNDLED_FILES)).catch(() => undefined);
  if (bundled) return brotliDecompressSync(bundled);
  for (const directory of createRequire(import.meta.url).resolve.paths(packageName) ?? []) {
    const bytes = await readFile(join(directory, packageName, file)).catch(() => undefined);
    if (bytes) return bytes;
  }
  return undefined;
}

/** Text of a file outside the searched tree (a prompt); errors name the path. */
export async function readTextFile(path: string | URL): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const shown = typeof path === 'string' ? path : decodeURIComponent(path.pathname);
    throw new SearchError(`cannot read \`${shown}\``, { cause: error, path: shown });
  }
}

/** Whether a directory is there (false for anything else, or nothing). */
export async function isDirectory(path: string | URL): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}
