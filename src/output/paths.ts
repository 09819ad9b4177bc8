import type { ContextPack } from './context-pack.js';

/** The selected files' paths, one per line in the pack's order; empty when nothing was selected. */
export function formatPaths(pack: ContextPack): string {
  return pack.files.map((file) => `${file.path}\n`).join('');
}
