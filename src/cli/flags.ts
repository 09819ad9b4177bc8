/**
 * Every flag of the command line, once: its name, what it sets and its help. A flag that sets a
 * library option is checked by that option's schema in `retrievalOptionsSchema`; the others are
 * settings of the CLI, checked by `cliSettingsSchema` (./flag-values.ts). This module loads no
 * schema, so `--help` and `--version` answer without zod.
 */

/** The library options a flag sets. */
export type FlagOption =
  | 'maxCycles'
  | 'threshold'
  | 'minFiles'
  | 'minRelevance'
  | 'coreRelevance'
  | 'maxFiles'
  | 'maxRelated'
  | 'excludes'
  | 'allowSecretFiles'
  | 'maxCandidatesPerCycle'
  | 'maxRepositoryFiles'
  | 'history'
  | 'syntax'
  | 'timeoutSeconds'
  | 'concurrency'
  | 'maxCalls'
  | 'maxInputTokens'
  | 'maxCostUsd';

/** The settings of the CLI itself: how it reads the task, which judge, how it prints. */
export type FlagSetting =
  | 'help'
  | 'version'
  | 'schema'
  | 'taskFile'
  | 'root'
  | 'judge'
  | 'format'
  | 'nullSeparated'
  | 'related'
  | 'excerpts'
  | 'budgetTokens'
  | 'prompts'
  | 'evaluatorModel'
  | 'refinerModel'
  | 'stopWhen'
  | 'cacheDir'
  | 'noCache'
  | 'resident';

interface FlagBase {
  /** As typed after `--`. */
  flag: string;
  short?: string;
  /** The value's placeholder in `--help`; a flag without one is a switch. */
  value?: string;
  /** Given more than once, its values add up; any other flag keeps its last value. */
  repeatable?: boolean;
  help: string;
  group: 'search' | 'claude' | 'output';
}

/** A switch that sets a library option turns it off (`--no-history`); one that sets a setting turns it on. */
export type FlagDefinition = FlagBase &
  ({ option: FlagOption; setting?: never } | { setting: FlagSetting; option?: never });

export const FLAGS: readonly FlagDefinition[] = [
  {
    flag: 'task-file',
    value: '<path>',
    setting: 'taskFile',
    group: 'search',
    help: 'read the task from a file',
  },
  {
    flag: 'root',
    value: '<dir>',
    setting: 'root',
    group: 'search',
    help: 'repository to search (default: current directory)',
  },
  {
    flag: 'judge',
    value: '<name>',
    setting: 'judge',
    group: 'search',
    help: 'auto | heuristic | claude (default: auto)',
  },
  {
    flag: 'max-cycles',
    value: '<n>',
    option: 'maxCycles',
    group: 'search',
    help: 'most search cycles, 1 to 10 (default: 3)',
  },
  {
    flag: 'threshold',
    value: '<0-1>',
    option: 'threshold',
    group: 'search',
    help: 'relevance that counts as high for stopping early (default: 0.7)',
  },
  {
    flag: 'stop-when',
    value: '<name>',
    setting: 'stopWhen',
    repeatable: true,
    group: 'search',
    help: 'stop before --max-cycles when: sufficient (the refiner says the context is), no-new-relevant (a cycle added no highly relevant file), min-files; none runs every cycle (repeatable; default: sufficient and no-new-relevant)',
  },
  {
    flag: 'min-files',
    value: '<n>',
    option: 'minFiles',
    group: 'search',
    help: 'stop once this many highly relevant files are held (adds min-files to --stop-when; default: 3)',
  },
  {
    flag: 'min-relevance',
    value: '<0-1>',
    option: 'minRelevance',
    group: 'search',
    help: 'lowest relevance in the result, core or related; the best file is core if it reaches it (default: 0.5)',
  },
  {
    flag: 'core-relevance',
    value: '<0-1>',
    option: 'coreRelevance',
    group: 'search',
    help: 'lowest relevance of a core file, handed over with its content (default: 0.8)',
  },
  {
    flag: 'max-files',
    value: '<n>',
    option: 'maxFiles',
    group: 'search',
    help: 'most core files, 1 to 100 (default: 5)',
  },
  {
    flag: 'max-related',
    value: '<n>',
    option: 'maxRelated',
    group: 'search',
    help: 'most related files, listed as paths with one-line reasons, 0 to 50 (default: 10)',
  },
  {
    flag: 'exclude',
    value: '<glob>',
    option: 'excludes',
    repeatable: true,
    group: 'search',
    help: 'never consider matching files (repeatable)',
  },
  {
    flag: 'include-secret-file',
    value: '<glob>',
    option: 'allowSecretFiles',
    repeatable: true,
    group: 'search',
    help: 'allow a secret-looking file (.env, keys, credentials) as a candidate (repeatable; its excerpts are still redacted)',
  },
  {
    flag: 'max-candidates',
    value: '<n>',
    option: 'maxCandidatesPerCycle',
    group: 'search',
    help: 'most files judged per cycle (default: 30 offline, 12 with Claude)',
  },
  {
    flag: 'max-repository-files',
    value: '<n>',
    option: 'maxRepositoryFiles',
    group: 'search',
    help: 'most files of the repository read; past it, paths that share no word with the task, then generated, fixture, docs, example and test files and the deepest paths are left out first, with a warning (default: 50000)',
  },
  {
    flag: 'no-history',
    option: 'history',
    group: 'search',
    help: 'ignore the git history (by default the offline judge ranks higher the files that past commits like the task changed, and the Claude refiner is shown the files changed together with the relevant ones)',
  },
  {
    flag: 'cache-dir',
    value: '<dir>',
    setting: 'cacheDir',
    group: 'search',
    help: 'where each repository’s stored index is kept (default: $RETRIEVAL_CACHE_DIR, else iterative-retrieval in $XDG_CACHE_HOME or ~/.cache); a run takes unchanged files from it instead of reading them, and the first run on a repository builds it in the background',
  },
  {
    flag: 'no-cache',
    setting: 'noCache',
    group: 'search',
    help: 'neither read nor build a stored index (same as RETRIEVAL_CACHE_DIR=off)',
  },
  {
    flag: 'resident',
    setting: 'resident',
    group: 'search',
    help: 'with the offline judge, hand the run to a process that keeps the repository in memory (started by the first such run, in the background; it stops after 10 minutes without a run): later runs read only what changed. Ignored with --no-cache or the Claude judge',
  },
  {
    flag: 'no-syntax',
    option: 'syntax',
    group: 'search',
    help: 'do not parse candidates with tree-sitter (by default excerpts show whole definitions in 12 languages)',
  },
  {
    flag: 'timeout',
    value: '<seconds>',
    option: 'timeoutSeconds',
    group: 'search',
    help: 'stop and return the best context found so far after this long, at most 86400 (default: 30 for hook; none otherwise)',
  },
  {
    flag: 'evaluator-model',
    value: '<id>',
    setting: 'evaluatorModel',
    group: 'claude',
    help: 'model for per-file evaluation (default: claude-haiku-5-5, or RETRIEVAL_EVALUATOR_MODEL)',
  },
  {
    flag: 'refiner-model',
    value: '<id>',
    setting: 'refinerModel',
    group: 'claude',
    help: 'model for queries and refinements (default: claude-sonnet-5-5, or RETRIEVAL_REFINER_MODEL)',
  },
  {
    flag: 'prompts',
    value: '<dir>',
    setting: 'prompts',
    group: 'claude',
    help: 'use tuned copies of the prompts in this directory',
  },
  {
    flag: 'concurrency',
    value: '<n>',
    option: 'concurrency',
    group: 'claude',
    help: 'most model calls in flight, 1 to 64 (default: 8)',
  },
  {
    flag: 'max-calls',
    value: '<n>',
    option: 'maxCalls',
    group: 'claude',
    help: 'stop cleanly after this many model calls',
  },
  {
    flag: 'max-input-tokens',
    value: '<n>',
    option: 'maxInputTokens',
    group: 'claude',
    help: 'stop cleanly before exceeding this many input tokens',
  },
  {
    flag: 'max-cost',
    value: '<usd>',
    option: 'maxCostUsd',
    group: 'claude',
    help: 'stop cleanly before exceeding this estimated cost',
  },
  {
    flag: 'format',
    value: '<name>',
    setting: 'format',
    group: 'output',
    help: 'json | markdown | paths (default: json, or markdown on a terminal); paths quotes a name with a line break or quote as git does ("a\\nb.ts")',
  },
  {
    flag: 'null',
    short: 'z',
    setting: 'nullSeparated',
    group: 'output',
    help: 'paths separated by NUL bytes, never quoted, for xargs -0 (implies --format paths)',
  },
  {
    flag: 'related',
    setting: 'related',
    group: 'output',
    help: 'paths: list the related files after the core ones (json and markdown always include them)',
  },
  {
    flag: 'excerpts',
    setting: 'excerpts',
    group: 'output',
    help: "include each file's excerpt in markdown output",
  },
  {
    flag: 'budget-tokens',
    value: '<n>',
    setting: 'budgetTokens',
    group: 'output',
    help: 'markdown: fill up to this many tokens (at least 100) with whole files or excerpts, most relevant first; hook and mcp: most tokens of what they hand over (default: 6000 for hook and mcp; no limit otherwise)',
  },
  {
    flag: 'schema',
    setting: 'schema',
    group: 'output',
    help: 'print the JSON Schema of the json output and exit',
  },
  { flag: 'help', short: 'h', setting: 'help', group: 'output', help: 'show this help' },
  { flag: 'version', short: 'v', setting: 'version', group: 'output', help: 'show the version' },
];
