import { describe, expect, it } from 'vitest';
import type { JudgeChoice } from '../../src/judges/judge-choice.js';
import { ConfigError } from '../../src/errors.js';
import { judgeForCall } from '../../src/mcp/call-judge.js';

describe('judgeForCall', () => {
  it.each<[JudgeChoice, JudgeChoice | undefined, JudgeChoice]>([
    ['auto', undefined, 'auto'],
    ['auto', 'heuristic', 'heuristic'],
    ['auto', 'claude', 'claude'],
    ['claude', undefined, 'claude'],
    ['claude', 'heuristic', 'heuristic'],
    ['heuristic', undefined, 'heuristic'],
    ['heuristic', 'auto', 'heuristic'],
    ['heuristic', 'heuristic', 'heuristic'],
  ])('a server on %s, a call asking %s: %s', (server, call, expected) => {
    expect(judgeForCall(server, call)).toBe(expected);
  });

  it('refuses the Claude judge to a call on a server started offline', () => {
    expect(() => judgeForCall('heuristic', 'claude')).toThrow(ConfigError);
    expect(() => judgeForCall('heuristic', 'claude')).toThrow(/--judge heuristic/);
  });
});
