import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { API_BASE_URL, apiError, mockMessages, useMockApi } from '../support/msw-anthropic.js';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';
import { preToolUse, runHook, TASK } from './hook-runner.js';

const server = useMockApi();
afterEach(removeTempTrees);

describe('the PreToolUse hook with a Claude judge that fails', () => {
  it('lets the subagent start unchanged when the API rejects the key, and exits 0', async () => {
    const received = mockMessages(server, () => apiError(401));
    const run = await runHook(preToolUse({ description: 'Fix expiry', prompt: TASK }), {
      env: {
        ANTHROPIC_API_KEY: 'sk-rejected',
        ANTHROPIC_BASE_URL: API_BASE_URL,
        RETRIEVAL_HOOK_STORE: join(await createTempTree({}), 'store'),
      },
    });
    expect(received.length).toBeGreaterThan(0);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.notes).toEqual([
      expect.stringMatching(/^no change: .*rejected the API key \(401\)/),
    ]);
  });
});
