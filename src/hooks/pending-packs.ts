import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import {
  ensurePrivateDirectory,
  listDirectory,
  modifiedAt,
  readTextFileIfPresent,
  removeDirectoryIfEmpty,
  removeFile,
  renameIfPresent,
  writeFileAtomically,
} from '../file-system/private-store.js';

/**
 * Context the PreToolUse hook found, kept per session until the SubagentStart hook of the
 * subagent it was found for claims it. One file per subagent launch, in a directory per session.
 * SubagentStart names neither the launch nor its prompt, only the subagent's type, so a pack is
 * handed over only when it is provably this subagent's: the one pending pack of its type in the
 * session. Every launch the PreToolUse hook sees is kept, with an empty context when it found
 * nothing, and a launch's PreToolUse has always finished before its subagent starts, so a
 * starting subagent's own pack is always there; if another of the same type is there too, either
 * could be its own (two launches in one turn), and none is handed over. (A launch the PreToolUse
 * hook never saw, because it is not registered or its store could not be written, cannot be
 * told apart: the README says so.) A claim is a rename, which exactly
 * one of several SubagentStart hooks running at once wins, so no pack is delivered twice.
 */

/** Packs older than this are never delivered and are removed: their subagent started long ago. */
export const PENDING_PACK_LIFETIME_MS = 10 * 60 * 1000;

/** The subagent type Claude Code starts when the tool call names none. */
export const DEFAULT_SUBAGENT_TYPE = 'general-purpose';

const pendingPackSchema = z.object({
  version: z.literal(1),
  sessionId: z.string(),
  toolUseId: z.string(),
  packId: z.string(),
  subagentType: z.string(),
  /** Milliseconds since the epoch when the PreToolUse hook started. */
  createdAt: z.number(),
  /** The same section was also appended to the prompt. */
  inPrompt: z.boolean(),
  /** The section to hand over; empty for a launch that found nothing (it is kept all the same). */
  context: z.string(),
});
export type PendingPack = z.infer<typeof pendingPackSchema>;

/** What a starting subagent may have: its pack, or the number of packs it could be. */
export type Claim = { pack: PendingPack } | { ambiguous: number };

export interface PendingPacks {
  save(pack: PendingPack): Promise<void>;
  /**
   * The session's one pending pack for a subagent of this type, removed from the store; with
   * several, which is this subagent's cannot be told, and none is taken; undefined with none.
   */
  claim(sessionId: string, agentType: string, now: number): Promise<Claim | undefined>;
  /** Removes packs past their lifetime, and session directories long empty; returns how many. */
  removeStale(now: number): Promise<number>;
}

const PENDING = '.pending.json';
const SESSION_DIRECTORY = /^[0-9a-f]{32}$/;

const hashOf = (text: string, length: number) =>
  createHash('sha256').update(text).digest('hex').slice(0, length);

// Fifteen digits hold every millisecond timestamp, so names sort as their times do.
const fileNameOf = (pack: PendingPack) =>
  `${String(pack.createdAt).padStart(15, '0')}-${hashOf(pack.toolUseId, 16)}${PENDING}`;

function createdAtOf(name: string): number | undefined {
  const match = /^(\d{15})-/.exec(name);
  return match ? Number(match[1]) : undefined;
}

function parsePack(text: string): PendingPack | undefined {
  try {
    const parsed = pendingPackSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

const isStale = (createdAt: number, now: number) => now - createdAt > PENDING_PACK_LIFETIME_MS;

/** The store under `directory`, which is created private to this user on first use. */
export function openPendingPacks(directory: string): PendingPacks {
  // Session ids come from the input; hashed, they can never name a path outside the store.
  const sessionDirectory = (sessionId: string) => join(directory, hashOf(sessionId, 32));
  // Created and checked private once per store, before its first use.
  let checked: Promise<void> | undefined;
  const ready = () => (checked ??= ensurePrivateDirectory(directory));

  return {
    async save(pack) {
      await ready();
      const path = join(sessionDirectory(pack.sessionId), fileNameOf(pack));
      await writeFileAtomically(path, JSON.stringify(pack));
    },

    async claim(sessionId, agentType, now) {
      await ready();
      const folder = sessionDirectory(sessionId);
      const names = (await listDirectory(folder)).filter((name) => name.endsWith(PENDING));
      const candidates: { path: string; pack: PendingPack }[] = [];
      for (const name of names) {
        const path = join(folder, name);
        const text = await readTextFileIfPresent(path);
        // Gone: another SubagentStart hook claimed it between the listing and now.
        if (text === undefined) continue;
        const pack = parsePack(text);
        if (pack === undefined) {
          await removeFile(path);
          continue;
        }
        if (pack.sessionId !== sessionId || pack.subagentType !== agentType) continue;
        if (!isStale(pack.createdAt, now)) candidates.push({ path, pack });
      }
      const [only, ...others] = candidates;
      if (only === undefined) return undefined;
      if (others.length > 0) return { ambiguous: candidates.length };
      const claimed = `${only.path}.claimed-${randomUUID()}`;
      if (!(await renameIfPresent(only.path, claimed))) return undefined;
      await removeFile(claimed);
      return { pack: only.pack };
    },

    async removeStale(now) {
      await ready();
      let removed = 0;
      for (const session of await listDirectory(directory)) {
        if (!SESSION_DIRECTORY.test(session)) continue;
        const folder = join(directory, session);
        const names = await listDirectory(folder);
        for (const name of names) {
          const createdAt = createdAtOf(name);
          if (createdAt === undefined || !isStale(createdAt, now)) continue;
          await removeFile(join(folder, name));
          removed += 1;
        }
        // Only a directory untouched for a lifetime goes, so a save under way never loses it.
        const changed = await modifiedAt(folder);
        const empty = (await listDirectory(folder)).length === 0;
        if (empty && changed !== undefined && isStale(changed, now))
          await removeDirectoryIfEmpty(folder);
      }
      return removed;
    },
  };
}
