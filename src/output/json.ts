import type { ContextPack } from './context-pack.js';

/** The pack as pretty JSON (2-space indent, trailing newline), field for field. */
export function formatJson(pack: ContextPack): string {
  return `${JSON.stringify(pack, null, 2)}\n`;
}
