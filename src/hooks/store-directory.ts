import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

const clean = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);

function userName(): string {
  try {
    const { uid, username } = userInfo();
    return (uid >= 0 ? String(uid) : username).replace(/[^\w.-]/g, '_');
  } catch {
    return 'user';
  }
}

/**
 * Where the hook keeps context for SubagentStart, outside every repository: `RETRIEVAL_HOOK_STORE`
 * when set; else `pending-context` in the plugin's data directory (`CLAUDE_PLUGIN_DATA`, set for
 * hooks of an installed plugin); else a directory of this user in the system's temporary
 * directory. Whichever it is, it must be private to the user (see ensurePrivateDirectory).
 */
export function pendingPacksDirectory(env: Readonly<Record<string, string | undefined>>): string {
  const explicit = clean(env.RETRIEVAL_HOOK_STORE);
  if (explicit) return explicit;
  const pluginData = clean(env.CLAUDE_PLUGIN_DATA);
  if (pluginData) return join(pluginData, 'pending-context');
  return join(clean(env.TMPDIR) ?? tmpdir(), `iterative-retrieval-hook-${userName()}`);
}
