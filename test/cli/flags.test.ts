import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseCliArguments } from '../../src/cli/flag-values.js';
import { FLAGS, type FlagOption } from '../../src/cli/flags.js';
import { retrievalOptionsFrom } from '../../src/cli/retrieval-settings.js';
import { USAGE } from '../../src/cli/usage.js';
import { retrieveContextInputSchema } from '../../src/mcp/tool-schema.js';
import { parseRetrievalOptions, retrievalOptionsSchema } from '../../src/options.js';

/** The flag table, `--help`, the library's options schema and the MCP tool cannot drift apart. */

const OPTION_FLAGS = FLAGS.flatMap((definition) =>
  definition.option !== undefined && definition.value !== undefined
    ? [{ flag: `--${definition.flag}`, option: definition.option, help: definition.help }]
    : [],
);

function numberSchemaOf(option: FlagOption): z.ZodNumber | undefined {
  let schema: z.ZodType = retrievalOptionsSchema.shape[option];
  while (schema instanceof z.ZodDefault || schema instanceof z.ZodOptional)
    schema = schema.unwrap() as z.ZodType;
  return schema instanceof z.ZodNumber ? schema : undefined;
}

const accepts = (parse: () => unknown) => {
  try {
    parse();
    return true;
  } catch {
    return false;
  }
};

describe('the flag table', () => {
  it('puts every flag in --help, and nothing else', () => {
    const listed = [...USAGE.matchAll(/^ {2}(?:-\w, )?--([\w-]+)/gm)].map((match) => match[1]);
    expect(listed).toEqual(FLAGS.map(({ flag }) => flag));
  });

  it.each(OPTION_FLAGS.filter(({ option }) => numberSchemaOf(option)))(
    '$flag accepts exactly the values `$option` accepts, and passes them on',
    ({ flag, option }) => {
      const schema = numberSchemaOf(option) as z.ZodNumber;
      const low = schema.minValue ?? 0;
      const high = Math.min(schema.maxValue ?? 1e6, 1e6);
      const probes = [
        low - 1,
        low,
        low + 0.5,
        (low + high) / 2,
        high,
        high + 1,
        -1,
        0,
        1e10,
        1e300,
      ];
      for (const value of probes) {
        const byLibrary = accepts(() => parseRetrievalOptions({ [option]: value }));
        const byFlag = accepts(() => parseCliArguments(['task', flag, String(value)]));
        expect({ value, byFlag }).toEqual({ value, byFlag: byLibrary });
        if (byFlag)
          expect(retrievalOptionsFrom(parseCliArguments(['task', flag, String(value)]))).toEqual(
            expect.objectContaining({ [option]: value }),
          );
      }
    },
  );

  it.each(OPTION_FLAGS.filter(({ help }) => /\(default: [\d.]+\)/.test(help)))(
    '$flag gives the default of `$option` in --help',
    ({ option, help }) => {
      const stated = Number(/\(default: ([\d.]+)\)/.exec(help)?.[1]);
      expect(stated).toBe(retrievalOptionsSchema.shape[option].parse(undefined));
    },
  );

  it.each(OPTION_FLAGS.filter(({ help }) => /\d+ to \d+|at most \d+/.test(help)))(
    '$flag gives the range of `$option` in --help',
    ({ option, help }) => {
      const schema = numberSchemaOf(option) as z.ZodNumber;
      const range = /(\d+) to (\d+)/.exec(help);
      if (range) expect(range.slice(1).map(Number)).toEqual([schema.minValue, schema.maxValue]);
      else expect(Number(/at most (\d+)/.exec(help)?.[1])).toBe(schema.maxValue);
    },
  );

  it('caps --concurrency and the library at the same 64', () => {
    expect(numberSchemaOf('concurrency')?.maxValue).toBe(64);
    expect(() => parseRetrievalOptions({ concurrency: 65 })).toThrow(/`concurrency`/);
    expect(() => parseCliArguments(['task', '--concurrency', '65'])).toThrow(/`--concurrency`/);
  });
});

describe('the MCP tool', () => {
  it('takes maxCycles in the library range, and says so in its JSON Schema', () => {
    const library = numberSchemaOf('maxCycles') as z.ZodNumber;
    const tool = retrieveContextInputSchema.shape.maxCycles;
    for (const value of [-1, 0, 1, 2.5, 3, 10, 11, 100])
      expect({ value, tool: tool.safeParse(value).success }).toEqual({
        value,
        tool: library.safeParse(value).success,
      });
    const { properties } = z.toJSONSchema(retrieveContextInputSchema) as unknown as {
      properties: { maxCycles: { minimum: number; maximum: number; description: string } };
    };
    expect(properties.maxCycles).toMatchObject({
      minimum: library.minValue,
      maximum: library.maxValue,
    });
    expect(properties.maxCycles.description).toContain(
      `(${library.minValue}–${library.maxValue}). Default ${retrievalOptionsSchema.shape.maxCycles.parse(undefined)};`,
    );
  });
});
