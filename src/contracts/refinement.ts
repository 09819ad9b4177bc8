import { z } from 'zod';
import { querySchema } from './query.js';

/** The most files a verdict's `likelyEdited` puts first in the pack. */
export const MOST_LIKELY_EDITED = 5;

/**
 * What a refiner says after a cycle besides the next query: whether the context found so far is
 * enough for the task, and if not, what is still missing. The loop controller decides; the
 * verdict is one of the things it reads (see src/loop/stop-conditions.ts).
 */
export const verdictSchema = z
  .object({
    sufficient: z
      .boolean()
      .describe(
        'the files rated so far are enough for the task: another search would only add related files',
      ),
    missing: z.array(z.string()).describe('what the task still needs that no rated file holds'),
    reason: z.string().describe('why, in a sentence'),
    // Defaulted: answers recorded before the field existed still parse.
    likelyEdited: z
      .array(z.string())
      .default([])
      .describe(
        `the paths of rated files the change most likely edits, most likely first (at most ${MOST_LIKELY_EDITED})`,
      ),
  })
  .strict();

export type Verdict = z.infer<typeof verdictSchema>;

/** A refiner's answer: the next query, and its verdict on the context so far. */
export const refinementSchema = querySchema.extend({ verdict: verdictSchema }).strict();

export type Refinement = z.infer<typeof refinementSchema>;

/** A refinement as a judge may answer it: the fields with defaults may be left out. */
export type RefinementAnswer = z.input<typeof refinementSchema>;
