import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/**
 * The CLI bundled with its dependencies into one directory: an entry, the partner thread's
 * entry, and a chunk per dynamic import. Node starts it faster than the compiled modules it is
 * made of, which it would resolve and link one by one (about 0.12 s of each run). The plugin
 * ships one (./build-plugin.ts); `npm run build` writes another to `dist/bin/`, which the
 * package's `bin` runs.
 */

const REPOSITORY = resolve(import.meta.dirname, '..');

export async function bundleCli(outdir: string): Promise<void> {
  await rm(outdir, { recursive: true, force: true });
  await build({
    entryPoints: {
      main: join(REPOSITORY, 'src/cli/main.ts'),
      // Started as a file of its own, beside the chunk that starts it (src/dispatch/partner.ts).
      'partner-worker': join(REPOSITORY, 'src/dispatch/partner-worker.ts'),
    },
    outdir,
    bundle: true,
    // Each dynamic import stays a file of its own, loaded only on the path that needs it.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Entry and chunks share one directory, so `import.meta.url` resolves alike from each:
    // `../../package.json` from the entry, `../prompts/` (else `../../prompts/`) from whichever
    // file holds src/prompts.ts.
    chunkNames: '[name]-[hash]',
    minify: true,
    keepNames: true,
    // The CommonJS dependencies (pino, fast-glob) `require` Node's own modules.
    banner: {
      js: "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);",
    },
    logLevel: 'warning',
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: { out: { type: 'string', default: join(REPOSITORY, 'dist/bin') } },
  });
  await bundleCli(resolve(values.out));
}
