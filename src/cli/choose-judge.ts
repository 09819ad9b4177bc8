import type { Logger } from 'pino';
import { ConfigError } from '../errors.js';
import { createHeuristicJudge } from '../judges/heuristic/heuristic-judge.js';
import type { Judge } from '../judges/judge.js';
import type { JudgeChoice } from '../judges/judge-choice.js';
import type { CliArguments } from './flag-values.js';
import { readClaudeEnvironment } from './environment.js';

export interface ChosenJudge {
  judge: Judge;
  /** Why this judge, in words, for stderr. */
  because: string;
}

export interface JudgeSettings {
  choice: JudgeChoice;
  env: Readonly<Record<string, string | undefined>>;
  promptsDirectory?: string | undefined;
  evaluatorModel?: string | undefined;
  refinerModel?: string | undefined;
  logger: Logger;
}

/** `auto` picks Claude when an API key is configured, otherwise the offline judge. */
export async function chooseJudge(settings: JudgeSettings): Promise<ChosenJudge> {
  const { choice, env } = settings;
  if (choice === 'heuristic')
    return { judge: createHeuristicJudge(), because: 'requested with --judge heuristic' };
  const claude = readClaudeEnvironment(env);
  if (!claude) {
    if (choice === 'claude') {
      throw new ConfigError(
        '`--judge claude` needs an Anthropic API key: set ANTHROPIC_API_KEY (see .env.example), or use `--judge heuristic`',
        { option: '--judge' },
      );
    }
    return { judge: createHeuristicJudge(), because: 'no ANTHROPIC_API_KEY configured' };
  }
  const { apiKey, baseURL } = claude;
  // The Anthropic SDK loads only once a run will call Claude: the offline paths never pay for it.
  const { connectClaudeJudge } = await import('../judges/claude/connect.js');
  const judge = await connectClaudeJudge({
    apiKey,
    baseURL,
    evaluatorModel: settings.evaluatorModel ?? claude.evaluatorModel,
    refinerModel: settings.refinerModel ?? claude.refinerModel,
    promptsDirectory: settings.promptsDirectory,
    logger: settings.logger.child({ component: 'anthropic-sdk' }),
  });
  const where = baseURL ? ` at ${baseURL}` : '';
  return {
    judge,
    because:
      choice === 'claude'
        ? `requested with --judge claude${where}`
        : `ANTHROPIC_API_KEY is configured${where}`,
  };
}

/** The judge the command line asks for; `choice` stands in for `--judge` (an MCP call's own). */
export function chooseJudgeFor(
  args: CliArguments,
  env: JudgeSettings['env'],
  logger: Logger,
  choice: JudgeChoice = args.judge,
): Promise<ChosenJudge> {
  return chooseJudge({
    choice,
    env,
    promptsDirectory: args.prompts,
    evaluatorModel: args.evaluatorModel,
    refinerModel: args.refinerModel,
    logger,
  });
}
