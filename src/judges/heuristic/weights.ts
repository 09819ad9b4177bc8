import type { FileKind } from '../../contracts/file-kind.js';

/**
 * Every tuning weight of the offline judge, in one place. Each was set on the benchmark's tuning
 * repositories and checked on the held-out ones (bench/split.ts); none names a repository, file
 * or task. Search-side weights (which field a keyword matched, a file kind's discount) live with
 * the ranking they shape, in src/dispatch/rank.ts.
 */

/** How much each kind of task term speaks for the task, before matching. */
export const IMPORTANCE = {
  /** A quoted message of three or more words: an error text, a log line. */
  quotedMessage: 1.3,
  /** The text between a quoted message's interpolated values (`{n} known failures`), as a share. */
  templatePartShare: 0.7,
  codeIdentifier: 1.2,
  /** A plain word in a code block: `color`, `items`. */
  codeWord: 0.9,
  proseIdentifier: 1.1,
  mentionedFile: 1.2,
  titleWord: 0.8,
  word: 0.6,
  /** Added per repetition of a plain word, up to `maxRepeated`. */
  repeated: 0.05,
  maxRepeated: 0.2,
  /** Added when a term turns up in a second role (a title word also in a code span). */
  secondRole: 0.05,
} as const;

/** A lexicon synonym of a task term ("throttle" for "rate limit") at most. */
export const SYNONYM_IMPORTANCE = 0.7;
/** Identifiers learned from relevant files, and keywords from other sources. */
export const LEARNED_IMPORTANCE = 0.45;
/** A word that is only part of a multi-word idea ("limit" of "rate limit") says less alone. */
export const PART_SHARE = 0.5;

/**
 * Calibration of a file's lexical score against the cycle's best file, so the rubric's bands keep
 * their meaning: score ≥ reference → 0.9, 70% → 0.72, 50% → 0.5, 25% → 0.16.
 */
export const CALIBRATION = {
  ceiling: 0.95,
  steepness: 3,
  /** When every file is weak, the reference is a file matching the task's strongest term in its
   * name and definitions and its second strongest in its content at this share. */
  secondTermShare: 0.66,
} as const;
export const MAX_RELEVANCE = 0.98;

/** Below this lexical relevance a file has no evidence of its own; neighbours and the past do not lift it. */
export const OWN_EVIDENCE = 0.15;
/** A source file the task names by path. */
export const NAMED_IN_TASK = 0.9;
/** A file a stack trace names only below the frame that failed is related: it called the failure. */
export const CALLER_IN_TRACE = 0.65;

/**
 * The share of the gap between a file's relevance and 1 that the repository's past closes when
 * the past fixes most like this task changed it. Combined as independent evidence (noisy-OR), so
 * strong files stay apart instead of piling up at the cap.
 */
export const HISTORY_WEIGHT = 0.7;

/**
 * Supporting material stays in its rubric band: tests and types are related (below the highly
 * relevant 0.7, so they neither end the loop early nor pass a strict `minRelevance`), a doc tangential.
 */
export const KIND_CEILINGS: Record<FileKind, number> = {
  source: 1,
  declaration: 0.65,
  test: 0.65,
  example: 0.6,
  config: 0.5,
  docs: 0.4,
};

/**
 * A test that matches the task strongly exercises the behaviour the task is about, and the
 * source file it tests is where that behaviour lives, whatever words that file uses: a test of
 * at least this relevance (before its kind's ceiling) lifts the files of the project it imports.
 */
export const STRONG_TEST = 0.8;
/** What a tested file is lifted to, as a share of its test's relevance. */
export const TESTED_SHARE = 0.85;
/** A module index a test imports is lifted less: every user of the module imports it. */
export const MODULE_INDEX_SHARE = 0.8;
/** A test that imports more of the project than this is an integration test: it points nowhere. */
export const MAX_TESTED_FILES = 3;

/** A file that imports, or is imported by, a relevant file is related context, up to this share of it. */
export const NEIGHBOUR_SHARE = 0.65;
/** Only a neighbour at least this relevant lifts the files beside it. */
export const STRONG_NEIGHBOUR = 0.7;

/**
 * The offline refiner calls the context sufficient once this many files are at least this
 * relevant (the seed's stopping rule, now the offline judge's own verdict).
 */
export const SUFFICIENT = { files: 3, relevance: 0.7 } as const;

/** Refine learns identifiers from files at least this relevant… */
export const LEARN_FROM = 0.5;
/** …and takes focus areas from the directories of files at least this relevant. */
export const FOCUS_FROM = 0.7;
