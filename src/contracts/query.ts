import { z } from 'zod';

/**
 * What one DISPATCH searches for. Judges propose queries; the dispatcher runs them.
 * - `patterns`: globs (relative to the root) that bound the search; a literal path asks for that
 *   file explicitly, so it is a candidate even when no keyword matches it.
 * - `keywords`: identifiers, words or quoted phrases, matched code-aware against paths, defined
 *   symbols and contents.
 * - `excludes`: globs removed from the search.
 * - `focusAreas`: directories (relative to the root) where relevant files are expected; matching
 *   candidates rank higher.
 */
export const querySchema = z
  .object({
    patterns: z.array(z.string().trim().min(1)).default(['**/*']),
    keywords: z.array(z.string().trim().min(1)).default([]),
    excludes: z.array(z.string().trim().min(1)).default([]),
    focusAreas: z.array(z.string().trim().min(1)).default([]),
  })
  .strict();

export type Query = z.infer<typeof querySchema>;
