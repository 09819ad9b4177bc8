import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { chooseJudge } from '../../src/cli/choose-judge.js';
import { ConfigError } from '../../src/errors.js';

const logger = pino({ level: 'silent' });

describe('choosing the judge', () => {
  it.each([
    ['auto', {}, 'heuristic', 'no ANTHROPIC_API_KEY configured'],
    ['auto', { ANTHROPIC_API_KEY: '  ' }, 'heuristic', 'no ANTHROPIC_API_KEY configured'],
    ['auto', { ANTHROPIC_API_KEY: 'sk-test' }, 'claude', 'ANTHROPIC_API_KEY is configured'],
    [
      'auto',
      { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: 'http://127.0.0.1:8080' },
      'claude',
      'ANTHROPIC_API_KEY is configured at http://127.0.0.1:8080',
    ],
    ['claude', { ANTHROPIC_API_KEY: 'sk-test' }, 'claude', 'requested with --judge claude'],
    [
      'heuristic',
      { ANTHROPIC_API_KEY: 'sk-test' },
      'heuristic',
      'requested with --judge heuristic',
    ],
  ] as const)('%s with %o gives the %s judge', async (choice, env, name, because) => {
    const chosen = await chooseJudge({ choice, env, logger });
    expect(chosen.judge.name).toBe(name);
    expect(chosen.because).toBe(because);
  });

  it('refuses --judge claude without a key and says how to configure one', async () => {
    await expect(chooseJudge({ choice: 'claude', env: {}, logger })).rejects.toThrow(ConfigError);
    await expect(chooseJudge({ choice: 'claude', env: {}, logger })).rejects.toThrow(
      /set ANTHROPIC_API_KEY \(see \.env\.example\)/,
    );
  });

  it('names a prompts directory that lacks a prompt', async () => {
    await expect(
      chooseJudge({
        choice: 'claude',
        env: { ANTHROPIC_API_KEY: 'k' },
        promptsDirectory: '/nonexistent',
        logger,
      }),
    ).rejects.toThrow(/prompt `initial-query\.md` is missing from `\/nonexistent\/`/);
  });
});
