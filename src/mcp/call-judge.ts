import type { JudgeChoice } from '../judges/judge-choice.js';
import { ConfigError } from '../errors.js';

/**
 * The judge of one call. A call may narrow the server's judge, never widen it: a server started
 * with `--judge heuristic` stays offline (no model calls, no excerpt leaves the machine) whatever
 * a client asks for.
 */
export function judgeForCall(server: JudgeChoice, call: JudgeChoice | undefined): JudgeChoice {
  if (server !== 'heuristic') return call ?? server;
  if (call === 'claude')
    throw new ConfigError(
      'this server was started with `--judge heuristic`: a call cannot switch to the Claude judge',
      { option: 'judge' },
    );
  return 'heuristic';
}
