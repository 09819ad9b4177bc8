import { z } from 'zod';
import type { Candidate } from './candidate.js';

/** What a judge says of one candidate. The rubric gives the bands their meaning. */
export const evaluationSchema = z
  .object({
    /** 0.8–1.0 directly implements the target; 0.5–0.7 related patterns or types; 0.2–0.4 tangential; below 0.2 irrelevant. */
    relevance: z.number().min(0).max(1),
    /** What in the file makes it (ir)relevant, concretely. */
    reason: z.string().min(1),
    /** Context this file needs that is not yet held (files, modules, symbols). */
    missingContext: z.array(z.string().min(1)),
    /** The judge could not judge the file (its model call failed); the score is a fallback. */
    unevaluated: z.boolean().optional(),
  })
  .strict();

export type Evaluation = z.infer<typeof evaluationSchema>;

/** An evaluation together with the file it is about and when it was made. */
export interface JudgedFile extends Evaluation {
  path: string;
  /** The cycle (1-based) in which the file was found and judged. */
  cycle: number;
  candidate: Candidate;
}
