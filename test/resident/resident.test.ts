import { once } from 'node:events';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { residentSocketOf } from '../../src/file-system/index-store.js';
import { reportsChanges } from '../../src/file-system/watch-directories.js';
import { createHeuristicJudge } from '../../src/judges/heuristic/heuristic-judge.js';
import { iterativeRetrieve } from '../../src/retrieve.js';
import { askResident } from '../../src/resident/resident-client.js';
import { MAX_REQUEST_BYTES } from '../../src/resident/resident-protocol.js';
import {
  MAX_CONNECTIONS,
  serveResident,
  type ResidentSettings,
} from '../../src/resident/resident-server.js';
import { exampleCopy } from '../support/example-copy.js';
import { answeringSocket, untilServed } from '../support/socket.js';
import { removeTempTrees } from '../support/temp-tree.js';

/** The resident process's server and the CLI's client, in this process, over a real socket. */

const TASK = 'Fix the authentication token expiry bug';
/** Where the system cannot watch a tree, the resident process lists it for every request. */
const watchable = await reportsChanges(tmpdir());
/** Resident processes (and sockets) started by a test: each is stopped, and waited for, after it. */
const stops: { stop: AbortController; ended: Promise<unknown> }[] = [];

afterEach(async () => {
  const stopping = stops.splice(0);
  for (const { stop } of stopping) stop.abort();
  // A process still writing its index would race the removal of its cache directory.
  await Promise.all(stopping.map(({ ended }) => ended));
  await removeTempTrees();
});

async function startResident(settings: Partial<ResidentSettings> = {}) {
  const { root, cacheDirectory } = await exampleCopy();
  await mkdir(cacheDirectory, { recursive: true, mode: 0o700 });
  const socketPath = residentSocketOf(cacheDirectory, root) ?? '';
  const stop = new AbortController();
  const ended = serveResident({
    root,
    socketPath,
    build: 'build-1',
    options: { root, cacheDirectory },
    idleMs: 60_000,
    logger: pino({ level: 'silent' }),
    signal: stop.signal,
    ...settings,
  });
  stops.push({ stop, ended });
  await untilServed(socketPath);
  const ask = (task: string, build = 'build-1', options: Record<string, unknown> = { root }) =>
    askResident(socketPath, { build, task, options }, { waitMs: 30_000 });
  return { root, cacheDirectory, socketPath, stop, ended, ask };
}

const EXPIRY_POLICY =
  'export function tokenExpiryPolicy(token: string) {\n  // authentication token expiry\n  return token;\n}\n';

const exists = (path: string) =>
  import('node:fs/promises').then(({ access }) =>
    access(path).then(
      () => true,
      () => false,
    ),
  );

describe('a resident process', { timeout: 30_000 }, () => {
  it('answers a run with the files a run in this process finds, then stops on its signal and removes its socket', async () => {
    const resident = await startResident();
    const reply = await resident.ask(TASK);
    const here = await iterativeRetrieve(TASK, {
      root: resident.root,
      judge: createHeuristicJudge(),
    });
    expect('pack' in reply && reply.pack.files.map((file) => file.path)).toEqual(
      here.files.map((file) => file.path),
    );
    resident.stop.abort();
    expect(await resident.ended).toBe('signal');
    expect(await exists(resident.socketPath)).toBe(false);
  });

  it.runIf(watchable)(
    'soon takes requests without listing the tree, and still finds a file added',
    async () => {
      const lines: { msg: string; listed?: boolean }[] = [];
      const logger = pino(
        { level: 'info' },
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            lines.push(JSON.parse(chunk.toString()) as (typeof lines)[number]);
            done();
          },
        }),
      );
      const resident = await startResident({ logger });
      const read = () => lines.filter((line) => line.msg === 'read repository').at(-1);
      // Watched once read, then listed again in the background: a request soon need not list.
      for (let wait = 0; wait < 100 && read()?.listed !== false; wait++) {
        await setTimeout(100);
        await resident.ask(TASK);
      }
      expect(read()).toMatchObject({ reused: true, listed: false });
      await writeFile(join(resident.root, 'src/auth/token-expiry-policy.ts'), EXPIRY_POLICY);
      const reply = await resident.ask(TASK);
      expect('pack' in reply && reply.pack.files.map((file) => file.path)).toContain(
        'src/auth/token-expiry-policy.ts',
      );
    },
  );

  it('finds a file added since the run before', async () => {
    const resident = await startResident();
    await resident.ask(TASK);
    await writeFile(join(resident.root, 'src/auth/token-expiry-policy.ts'), EXPIRY_POLICY);
    const reply = await resident.ask(TASK);
    expect('pack' in reply && reply.pack.files.map((file) => file.path)).toContain(
      'src/auth/token-expiry-policy.ts',
    );
  });

  it('refuses a CLI of another build, and stops so that one of its own can take the socket', async () => {
    const resident = await startResident();
    expect(await resident.ask(TASK, 'build-2')).toEqual({ failed: 'refused: another build' });
    expect(await resident.ended).toBe('other-build');
  });

  it('refuses a run on another root and a line that is not a request, and goes on serving', async () => {
    const resident = await startResident();
    const other = await resident.ask(TASK, 'build-1', { root: '/somewhere/else' });
    expect('failed' in other && other.failed).toMatch(/serves .* only/);
    const raw = await exchange(resident.socketPath, '{"protocol":1}\n');
    expect(raw).toBe('{"refused":"not a request"}\n');
    expect('pack' in (await resident.ask(TASK))).toBe(true);
  });

  it('drops a connection whose request runs over its bound, and goes on serving', async () => {
    const resident = await startResident();
    expect(await exchange(resident.socketPath, 'x'.repeat(MAX_REQUEST_BYTES + 1))).toBe('');
    expect('pack' in (await resident.ask(TASK))).toBe(true);
  });

  it('closes a connection that holds its request back, and goes on serving', async () => {
    const resident = await startResident({ requestWaitMs: 200 });
    const closed = await Promise.race([
      exchange(resident.socketPath, '{"build":'),
      setTimeout(5_000, 'still open'),
    ]);
    expect(closed).toBe('');
    expect('pack' in (await resident.ask(TASK))).toBe(true);
  });

  it(`holds at most ${MAX_CONNECTIONS} connections at once`, async () => {
    const resident = await startResident({ requestWaitMs: 20_000 });
    const held = Array.from({ length: MAX_CONNECTIONS }, () => {
      const socket = createConnection(resident.socketPath);
      socket.on('error', () => undefined);
      return socket;
    });
    await Promise.all(held.map((socket) => once(socket, 'connect')));
    // One more is closed at once, unanswered, while the others are held.
    expect(
      await Promise.race([
        exchange(resident.socketPath, '{"build":'),
        setTimeout(5_000, 'still open'),
      ]),
    ).toBe('');
    expect(held.every((socket) => !socket.closed)).toBe(true);
    for (const socket of held) socket.destroy();
    expect('pack' in (await resident.ask(TASK))).toBe(true);
  });

  it('stops after its idle time without a run, and removes its socket', async () => {
    const resident = await startResident({ idleMs: 300 });
    expect(await resident.ended).toBe('idle');
    expect(await exists(resident.socketPath)).toBe(false);
  });

  it('stops after its idle time even while something connects without asking', async () => {
    const resident = await startResident({ idleMs: 300 });
    // A server waiting to take the socket over checks that this one still answers.
    let ended: unknown;
    void resident.ended.then((reason) => (ended = reason));
    for (let probe = 0; probe < 100 && ended === undefined; probe++) {
      await untilServed(resident.socketPath).catch(() => undefined);
      await setTimeout(50);
    }
    expect(ended).toBe('idle');
  });

  it('stops when its socket file is removed, leaving the file of the process that replaced it', async () => {
    const resident = await startResident();
    await rm(resident.socketPath);
    const stop = new AbortController();
    const successor = serveResident({
      root: resident.root,
      socketPath: resident.socketPath,
      build: 'build-1',
      options: { root: resident.root },
      logger: pino({ level: 'silent' }),
      signal: stop.signal,
    });
    stops.push({ stop, ended: successor });
    await untilServed(resident.socketPath);
    expect(await resident.ended).toBe('socket-gone');
    // Its server's end did not take the successor's socket file with it.
    expect(await exists(resident.socketPath)).toBe(true);
    expect('pack' in (await resident.ask(TASK))).toBe(true);
  });

  it('leaves a socket another process serves, and takes over one that nobody serves', async () => {
    const resident = await startResident();
    const settings = {
      root: resident.root,
      socketPath: resident.socketPath,
      build: 'build-1',
      options: { root: resident.root },
      idleMs: 60_000,
      logger: pino({ level: 'silent' }),
    };
    expect(await serveResident(settings)).toBe('taken');
    resident.stop.abort();
    await resident.ended;
    // What a process killed before it could remove its socket leaves there.
    await writeFile(resident.socketPath, '');
    const stop = new AbortController();
    stops.push({ stop, ended: serveResident({ ...settings, signal: stop.signal }) });
    await untilServed(resident.socketPath);
    expect('pack' in (await resident.ask(TASK))).toBe(true);
  });
});

describe('two resident processes starting at once', { timeout: 30_000 }, () => {
  it("take over a dead process's socket file one of them only", async () => {
    const { root, cacheDirectory } = await exampleCopy();
    await mkdir(cacheDirectory, { recursive: true, mode: 0o700 });
    const socketPath = residentSocketOf(cacheDirectory, root) ?? '';
    for (let trial = 0; trial < 5; trial++) {
      await writeFile(socketPath, '');
      const both = [0, 1].map(() => {
        const stop = new AbortController();
        const ended = serveResident({
          root,
          socketPath,
          build: 'build-1',
          logger: pino({ level: 'silent' }),
          signal: stop.signal,
        });
        stops.push({ stop, ended });
        return { stop, ended };
      });
      const taken = await Promise.race([
        Promise.any(both.map(({ ended }) => ended)),
        setTimeout(3_000, 'both serve'),
      ]);
      expect(taken).toBe('taken');
      await untilServed(socketPath);
      for (const { stop } of both) stop.abort();
      await Promise.all(both.map(({ ended }) => ended));
    }
  });
});

describe('asking a resident process', { timeout: 30_000 }, () => {
  it.each([
    ['not JSON', 'not json\n', 'an answer that is not JSON'],
    ['not a pack', '{"pack":{"files":"none"}}\n', 'an answer that is not a context pack'],
    ['a refusal', '{"refused":"busy"}\n', 'refused: busy'],
  ])(
    'fails, for its caller to search itself, on an answer that is %s',
    async (_, answer, failed) => {
      const socketPath = await fakeResident(answer);
      expect(await askResident(socketPath, request, { waitMs: 10_000 })).toEqual({ failed });
    },
  );

  it('fails when no answer comes within its wait, or its signal stops it', async () => {
    const socketPath = await fakeResident(undefined);
    expect(await askResident(socketPath, request, { waitMs: 200 })).toEqual({
      failed: 'no answer within 200 ms',
    });
    const stop = new AbortController();
    const asked = askResident(socketPath, request, { waitMs: 10_000, signal: stop.signal });
    stop.abort();
    expect(await asked).toEqual({ failed: 'interrupted' });
  });

  it('fails when nothing serves the socket', async () => {
    const { cacheDirectory } = await exampleCopy();
    const reply = await askResident(join(cacheDirectory, 'none.sock'), request, { waitMs: 10_000 });
    expect('failed' in reply && reply.failed).toMatch(/ENOENT/);
  });
});

const request = { build: 'build-1', task: TASK, options: {} };

/** A socket whose stand-in process answers each request with `answer` (or never). */
async function fakeResident(answer: string | undefined): Promise<string> {
  const { cacheDirectory } = await exampleCopy();
  await mkdir(cacheDirectory, { recursive: true });
  const socketPath = join(cacheDirectory, 'fake.sock');
  const stop = new AbortController();
  stops.push({ stop, ended: Promise.resolve() });
  await answeringSocket(socketPath, answer, stop.signal);
  return socketPath;
}

/** Sends `text` on a new connection and returns all that comes back before it closes. */
function exchange(socketPath: string, text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = createConnection(socketPath);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(received));
    socket.write(text);
  });
}
