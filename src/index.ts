/** iterative-retrieval: the code context a subagent needs, found before it starts. */
export { iterativeRetrieve } from './retrieve.js';
export { buildIndex, type BuildIndexOptions, type BuiltIndex } from './build-index.js';
export {
  createWorkspaceCache,
  type WorkspaceCache,
  type WorkspaceCacheOptions,
} from './workspace-cache.js';
export { retrievalOptionsSchema, parseRetrievalOptions, type RetrievalOptions } from './options.js';
export { querySchema, type Query } from './contracts/query.js';
export {
  refinementSchema,
  verdictSchema,
  type Refinement,
  type RefinementAnswer,
  type Verdict,
} from './contracts/refinement.js';
export { type Judge, type JudgeContext } from './judges/judge.js';
export { createHeuristicJudge } from './judges/heuristic/heuristic-judge.js';
export {
  createClaudeJudge,
  DEFAULT_EVALUATOR_MODEL,
  DEFAULT_REFINER_MODEL,
  type ClaudeJudgeOptions,
} from './judges/claude/claude-judge.js';
export { connectClaudeJudge, type ConnectClaudeOptions } from './judges/claude/connect.js';
export {
  createAnthropicClient,
  type ModelClient,
  type AnthropicClientOptions,
} from './llm/anthropic-client.js';
export { DEFAULT_PRICES, type ModelPrice } from './llm/prices.js';
export type { TokenUsage } from './contracts/usage.js';
export type { Budgets, UsageTotals } from './loop/ledger.js';
export {
  loadPrompts,
  renderPrompt,
  PROMPT_NAMES,
  type Prompts,
  type PromptTemplate,
} from './prompts.js';
export type { Candidate, CandidateImport } from './contracts/candidate.js';
export type { ProgressEvent } from './loop/progress.js';
export {
  judgeSaysSufficient,
  noNewRelevantFiles,
  highlyRelevantFiles,
  STOP_CONDITION_NAMES,
  DEFAULT_STOP_WHEN,
  type StopCondition,
  type StopConditionName,
  type LoopSnapshot,
  type StopReason,
} from './loop/stop-conditions.js';
export type { Gap } from './loop/gaps.js';
export {
  CONTEXT_PACK_VERSION,
  contextPackSchema,
  contextPackJsonSchema,
  type ContextPack,
  type ContextFile,
  type RelatedFile,
} from './output/context-pack.js';
export type { CycleTrace } from './loop/cycle-trace.js';
export { formatContextPack, OUTPUT_FORMATS, type OutputFormat } from './output/format.js';
export {
  renderHandover,
  DEFAULT_HANDOVER_TOKENS,
  type HandoverOptions,
} from './output/handover.js';
export {
  RetrievalError,
  ConfigError,
  SearchError,
  JudgeError,
  AbortError,
  BudgetExceededError,
  ModelCallError,
  ModelOutputError,
} from './errors.js';
export { type Evaluation, type JudgedFile, evaluationSchema } from './contracts/evaluation.js';
export { type RepoOverview } from './contracts/overview.js';
export type { KeywordMatch } from './contracts/candidate.js';
export type { Ledger } from './contracts/ledger.js';
