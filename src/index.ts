/** iterative-retrieval: the code context a subagent needs, found before it starts. */
export { iterativeRetrieve } from './retrieve.js';
export { retrievalOptionsSchema, parseRetrievalOptions, type RetrievalOptions } from './options.js';
export { querySchema, type Query } from './query.js';
export {
  evaluationSchema,
  type Evaluation,
  type Judge,
  type JudgeContext,
  type JudgedFile,
  type RepoOverview,
} from './judges/judge.js';
export { createHeuristicJudge } from './judges/heuristic/heuristic-judge.js';
export type { Candidate, CandidateImport } from './dispatch/candidate.js';
export type { KeywordMatch } from './dispatch/match.js';
export type { ProgressEvent } from './loop/progress.js';
export type { StopReason } from './loop/stop-rules.js';
export type { Gap } from './loop/gaps.js';
export {
  CONTEXT_PACK_VERSION,
  contextPackSchema,
  contextPackJsonSchema,
  type ContextPack,
  type ContextFile,
  type CycleTrace,
} from './output/context-pack.js';
export { formatContextPack, OUTPUT_FORMATS, type OutputFormat } from './output/format.js';
export { RetrievalError, ConfigError, SearchError, JudgeError, AbortError } from './errors.js';
