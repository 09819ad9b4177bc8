import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { constants, brotliCompressSync } from 'node:zlib';
import { GRAMMAR_FILES, RUNTIME_FILE } from '../src/structure/syntax/grammars.js';
import { bundleCli } from './bundle-cli.js';

/**
 * Builds the directory the marketplace installs (`plugin/`): the CLI bundled with its production
 * dependencies into `dist/bin/`, the prompts, and the plugin's own files; no node_modules, nothing
 * to install. Claude Code copies a plugin's whole source directory into its cache, and for a
 * marketplace added from a local directory it runs the hooks from that source directory itself,
 * so the directory has to be self-contained and small.
 */

const REPOSITORY = resolve(import.meta.dirname, '..');
/** What the plugin runs and shows, as the repository root has them for `--plugin-dir .`. */
const PLUGIN_FILES = ['.claude-plugin/plugin.json', 'hooks', '.mcp.json', 'agents', 'skills'];

const { values } = parseArgs({ options: { out: { type: 'string', default: 'plugin' } } });
const plugin = resolve(REPOSITORY, values.out);

const manifest = JSON.parse(await readFile(join(REPOSITORY, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  description: string;
  license: string;
  engines: Record<string, string>;
};

await rm(plugin, { recursive: true, force: true });
await bundleCli(join(plugin, 'dist/bin'));
await cp(join(REPOSITORY, 'prompts'), join(plugin, 'dist/prompts'), { recursive: true });
// The tree-sitter runtime and grammars, where src/file-system/inputs.ts `readPackagedFile` looks first:
// brotli keeps the twelve languages' WebAssembly to a fraction of its 21 MB.
await mkdir(join(plugin, 'dist/grammars'), { recursive: true });
for (const { packageName, file } of [RUNTIME_FILE, ...Object.values(GRAMMAR_FILES)]) {
  const wasm = await readFile(join(REPOSITORY, 'node_modules', packageName, file));
  const compressed = brotliCompressSync(wasm, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 9,
      [constants.BROTLI_PARAM_SIZE_HINT]: wasm.length,
    },
  });
  await writeFile(join(plugin, 'dist/grammars', `${file}.br`), compressed);
}
for (const path of PLUGIN_FILES) {
  await mkdir(dirname(join(plugin, path)), { recursive: true });
  await cp(join(REPOSITORY, path), join(plugin, path), { recursive: true });
}
// The CLI reads its version here; there are no dependencies left to install.
const pluginManifest = {
  name: manifest.name,
  version: manifest.version,
  description: manifest.description,
  license: manifest.license,
  private: true,
  type: 'module',
  engines: manifest.engines,
};
await writeFile(join(plugin, 'package.json'), `${JSON.stringify(pluginManifest, null, 2)}\n`);
console.log(`built ${plugin}`);
