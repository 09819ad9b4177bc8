import { describe, expect, it } from 'vitest';
import { parseCliArguments } from '../../src/cli/flag-values.js';
import { retrievalOptionsFrom } from '../../src/cli/retrieval-settings.js';
import { parseRetrievalOptions } from '../../src/options.js';

describe('retrievalOptionsFrom', () => {
  it('keeps the library defaults for flags not given', () => {
    const options = parseRetrievalOptions(retrievalOptionsFrom(parseCliArguments(['task'])));
    expect(options).toMatchObject({
      maxCycles: 3,
      minRelevance: 0.5,
      coreRelevance: 0.8,
      maxFiles: 5,
      maxRelated: 10,
      excludes: [],
    });
  });

  it('passes every tuning flag to the library option it names', () => {
    const args = parseCliArguments(
      `hook --max-cycles 2 --threshold 0.8 --min-files 2 --min-relevance 0.6 --core-relevance 0.9 --max-files 4 --max-related 3 --max-candidates 9 --concurrency 3 --max-calls 5 --max-input-tokens 1000 --max-cost 0.5 --exclude dist/** --include-secret-file .env --no-history`.split(
        ' ',
      ),
    );
    expect(args.command).toBe('hook');
    expect(retrievalOptionsFrom(args)).toEqual({
      maxCycles: 2,
      threshold: 0.8,
      minFiles: 2,
      minRelevance: 0.6,
      coreRelevance: 0.9,
      maxFiles: 4,
      maxRelated: 3,
      maxCandidatesPerCycle: 9,
      concurrency: 3,
      maxCalls: 5,
      maxInputTokens: 1000,
      maxCostUsd: 0.5,
      excludes: ['dist/**'],
      allowSecretFiles: ['.env'],
      history: false,
      // --min-files turns the seed's rule on beside the default conditions.
      stopWhen: ['sufficient', 'no-new-relevant', 'min-files'],
    });
  });

  it.each<[string, string[], unknown]>([
    ['the defaults', [], ['sufficient', 'no-new-relevant']],
    [
      'the conditions given',
      ['--stop-when', 'min-files', '--stop-when', 'sufficient'],
      ['min-files', 'sufficient'],
    ],
    ['none: every cycle', ['--stop-when', 'none'], []],
    [
      '--stop-when over --min-files',
      ['--min-files', '2', '--stop-when', 'sufficient'],
      ['sufficient'],
    ],
  ])('stops the loop by %s', (_name, flags, stopWhen) => {
    const options = parseRetrievalOptions(
      retrievalOptionsFrom(parseCliArguments(['task', ...flags])),
    );
    expect(options.stopWhen).toEqual(stopWhen);
  });

  it('refuses a stop condition it does not know, naming the flag and the choices', () => {
    expect(() => parseCliArguments(['task', '--stop-when', 'sufficient,min-files'])).toThrow(
      '`--stop-when` must be one of sufficient, no-new-relevant, min-files, none (got "sufficient,min-files")',
    );
  });

  it.each<[string[], string]>([
    [['hook'], 'hook'],
    [['mcp', '--root', 'x'], 'mcp'],
    [['fix the retrieve command'], 'retrieve'],
    [['retrieve'], 'retrieve'],
  ])('reads %j as the %s command', (argv, command) => {
    expect(parseCliArguments(argv).command).toBe(command);
  });
});
