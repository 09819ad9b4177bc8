import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bypass, http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { callKindOf, evaluatedPath, type CallKind, type SentRequest } from './msw-anthropic.js';

/**
 * Record and replay of Messages API calls, keyed by a stable hash of the request body.
 * - replay (default): each request is answered from `test/fixtures/anthropic/<hash>.json`; a
 *   request with no fixture fails the test with the call, file and prompt it came from.
 * - `RECORD=1` with `ANTHROPIC_API_KEY`: requests go to the real API and each pair is saved.
 * - `AUTHOR_FIXTURES=1`: answers come from the test's hand-written answer function and are saved
 *   marked `"recorded": false` (how the fixtures in the repository were made: this machine cannot
 *   reach the API).
 */

export const API_URL = 'https://api.anthropic.com';
export const FIXTURES_DIRECTORY = join(import.meta.dirname, '../fixtures/anthropic');

export type FixtureMode = 'replay' | 'record' | 'author';

export interface RequestInfo {
  call: CallKind;
  path: string | undefined;
  prompt: string;
  body: SentRequest;
}

export interface Fixture {
  recorded: boolean;
  note: string;
  call: CallKind;
  path: string | null;
  prompt: string;
  request: SentRequest;
  response: { status: number; body: unknown };
}

export function fixtureMode(
  env: Readonly<Record<string, string | undefined>> = process.env,
): FixtureMode {
  if (env.RECORD === '1') {
    if (!env.ANTHROPIC_API_KEY)
      throw new Error('RECORD=1 needs ANTHROPIC_API_KEY to reach the API');
    return 'record';
  }
  return env.AUTHOR_FIXTURES === '1' ? 'author' : 'replay';
}

/** Keys in a fixed order, so the same request always hashes the same. */
function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, stable((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

export function fixtureKey(body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(stable(body)))
    .digest('hex')
    .slice(0, 16);
}

export function describeRequest(body: SentRequest): RequestInfo {
  const call = callKindOf(body);
  return {
    call,
    path: call === 'evaluate' ? evaluatedPath(body) : undefined,
    prompt: call === 'unknown' ? 'an unknown prompt' : `prompts/${call}.md`,
    body,
  };
}

export interface FixtureServerOptions {
  mode?: FixtureMode;
  /** The hand-written answer to a request, for author mode. */
  author?: (request: RequestInfo) => unknown;
  directory?: string;
}

/** An msw server that answers Messages API calls from fixtures; `problems` lists what went wrong. */
export function createFixtureServer(options: FixtureServerOptions = {}) {
  const mode = options.mode ?? fixtureMode();
  const directory = options.directory ?? FIXTURES_DIRECTORY;
  const problems: string[] = [];
  const requests: RequestInfo[] = [];
  const server = setupServer(
    http.post(`${API_URL}/v1/messages`, async ({ request }) => {
      const body = (await request.clone().json()) as SentRequest;
      const info = describeRequest(body);
      requests.push(info);
      const key = fixtureKey(body);
      const file = join(directory, `${key}.json`);
      if (mode === 'replay') {
        try {
          const fixture = JSON.parse(await readFile(file, 'utf8')) as Fixture;
          return HttpResponse.json(fixture.response.body as Record<string, unknown>, {
            status: fixture.response.status,
          });
        } catch {
          problems.push(
            `no fixture for the ${info.call} call${info.path ? ` on ${info.path}` : ''} (prompt ${info.prompt}, key ${key}): ` +
              'the request changed; re-record with RECORD=1 ANTHROPIC_API_KEY=… npx vitest run, or regenerate the hand-written ones with AUTHOR_FIXTURES=1',
          );
          return HttpResponse.json(
            { type: 'error', error: { type: 'not_found_error', message: 'no fixture' } },
            { status: 500, headers: { 'x-should-retry': 'false' } },
          );
        }
      }
      let status = 200;
      let answer: unknown;
      if (mode === 'record') {
        const real = await fetch(bypass(request));
        status = real.status;
        answer = await real.json();
      } else {
        if (!options.author) throw new Error('author mode needs an author function');
        answer = options.author(info);
      }
      const fixture: Fixture = {
        recorded: mode === 'record',
        note:
          mode === 'record'
            ? 'Recorded from the Anthropic API.'
            : 'Written by hand, not recorded: the answer comes from the hand-written table in the test that made it; usage figures are estimates. Replace with RECORD=1.',
        call: info.call,
        path: info.path ?? null,
        prompt: info.prompt,
        request: body,
        response: { status, body: answer },
      };
      await mkdir(directory, { recursive: true });
      await writeFile(file, `${JSON.stringify(fixture, null, 2)}\n`);
      return HttpResponse.json(answer as Record<string, unknown>, { status });
    }),
  );
  return { server, problems, requests, mode };
}
