import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/**
 * The Claude Code plugin files, checked against the shapes Claude Code documents: the plugin
 * manifest (plugins reference), and the hook settings and event names published in
 * @anthropic-ai/claude-agent-sdk 0.3.330 (`sdk.d.ts`: `HOOK_EVENTS`, the settings' `hooks`).
 */

const ROOT = join(import.meta.dirname, '../..');
const readJson = (path: string): unknown => JSON.parse(readFileSync(join(ROOT, path), 'utf8'));
const packageJson = readJson('package.json') as {
  name: string;
  version: string;
  bin: Record<string, string>;
};

const KEBAB_CASE = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

const manifestSchema = z
  .object({
    name: z.string().regex(KEBAB_CASE),
    version: z.string().regex(SEMVER).optional(),
    description: z.string().min(1).optional(),
    author: z
      .object({ name: z.string().min(1), email: z.string().optional(), url: z.string().optional() })
      .strict()
      .optional(),
    homepage: z.string().optional(),
    repository: z.string().optional(),
    license: z.string().optional(),
    keywords: z.array(z.string()).optional(),
  })
  .strict();

const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'Notification',
  'UserPromptSubmit',
  'SessionStart',
  'SessionEnd',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PermissionRequest',
] as const;

const commandHookSchema = z
  .object({
    type: z.literal('command'),
    command: z.string().min(1),
    timeout: z.number().positive().optional(),
    statusMessage: z.string().optional(),
  })
  .strict();

const hooksFileSchema = z
  .object({
    description: z.string().optional(),
    hooks: z.partialRecord(
      z.enum(HOOK_EVENTS),
      z.array(
        z
          .object({ matcher: z.string().optional(), hooks: z.array(commandHookSchema).min(1) })
          .strict(),
      ),
    ),
  })
  .strict();

const mcpFileSchema = z
  .object({
    mcpServers: z.record(
      z.string(),
      z.object({ command: z.string(), args: z.array(z.string()).optional() }).strict(),
    ),
  })
  .strict();

/** YAML front matter as flat `key: value` pairs (the plugin's files use nothing more). */
function frontMatter(path: string): Record<string, string> {
  const text = readFileSync(join(ROOT, path), 'utf8');
  const block = /^---\n([\s\S]*?)\n---\n/.exec(text)?.[1];
  expect(block, `${path} has front matter`).toBeDefined();
  return Object.fromEntries(
    (block ?? '').split('\n').map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
    }),
  );
}

/** The CLI entry every plugin command runs, as `${CLAUDE_PLUGIN_ROOT}/…`. */
const ENTRY = `\${CLAUDE_PLUGIN_ROOT}/${Object.values(packageJson.bin)[0]}`;

describe('the Claude Code plugin', () => {
  it('has a manifest of the documented shape, named and versioned like the package', () => {
    const manifest = manifestSchema.parse(readJson('.claude-plugin/plugin.json'));
    expect(manifest).toMatchObject({ name: packageJson.name, version: packageJson.version });
  });

  it('lists the built plugin directory in its marketplace, built on install', () => {
    const marketplace = readJson('.claude-plugin/marketplace.json') as {
      plugins: { name: string; source: string }[];
    };
    // Not the repository root: Claude Code would copy the clone, node_modules and all (199 MB).
    expect(marketplace.plugins).toContainEqual(
      expect.objectContaining({ name: packageJson.name, source: './plugin' }),
    );
    const { scripts } = readJson('package.json') as { scripts: Record<string, string> };
    expect(scripts['build:plugin']).toBe('tsx scripts/build-plugin.ts');
    // `npm ci` in a fresh clone leaves the plugin ready for `claude plugin install`.
    expect(scripts.prepare).toContain('npm run build:plugin');
    expect(readFileSync(join(ROOT, '.gitignore'), 'utf8').split('\n')).toContain('/plugin/');
  });

  it('hooks the subagent tool under both its names, and the subagent start, with the CLI', () => {
    const { hooks } = hooksFileSchema.parse(readJson('hooks/hooks.json'));
    const preToolUse = hooks.PreToolUse ?? [];
    expect(preToolUse).toHaveLength(1);
    const matcher = new RegExp(`^(?:${preToolUse[0]?.matcher})$`);
    for (const tool of ['Agent', 'Task']) expect(matcher.test(tool)).toBe(true);
    for (const tool of ['Bash', 'Read', 'TaskCreate']) expect(matcher.test(tool)).toBe(false);
    expect(hooks.SubagentStart).toHaveLength(1);
    const commands = [...preToolUse, ...(hooks.SubagentStart ?? [])].flatMap(
      (entry) => entry.hooks,
    );
    for (const hook of commands) {
      // With a key in Claude Code's environment every launch would call Claude: capped. Without
      // one, the plugin's MCP server, which holds the repository already, answers the launches.
      expect(hook.command).toBe(`node "${ENTRY}" hook --max-cost 0.1 --resident`);
      // Under Claude Code's own limit, with room for the hook's time budget (30 s by default).
      expect(hook.timeout).toBeLessThanOrEqual(60);
    }
  });

  it('starts the MCP server with the CLI', () => {
    const { mcpServers } = mcpFileSchema.parse(readJson('.mcp.json'));
    expect(mcpServers['iterative-retrieval']).toEqual({
      command: 'node',
      args: [ENTRY, 'mcp', '--max-cost', '0.1'],
    });
  });

  it('has a context-scout agent that calls the CLI', () => {
    const meta = frontMatter('agents/context-scout.md');
    expect(meta.name).toBe('context-scout');
    expect(meta.description?.length).toBeGreaterThan(40);
    expect(readFileSync(join(ROOT, 'agents/context-scout.md'), 'utf8')).toContain(ENTRY);
  });

  it('has skills whose names match their folders and point at the real tool', () => {
    const folders = readdirSync(join(ROOT, 'skills'));
    expect(folders).toContain('iterative-retrieval');
    for (const folder of folders) {
      const meta = frontMatter(`skills/${folder}/SKILL.md`);
      expect(meta.name).toBe(folder);
      expect(meta.description?.length).toBeGreaterThan(40);
      expect(meta.description?.length).toBeLessThanOrEqual(1024);
      const text = readFileSync(join(ROOT, `skills/${folder}/SKILL.md`), 'utf8');
      expect(text).toContain(ENTRY);
      expect(text).toContain('retrieve_context');
    }
  });

  it('ships the files the plugin runs from', () => {
    const files = (readJson('package.json') as { files: string[] }).files;
    for (const path of ['.claude-plugin', 'hooks', '.mcp.json', 'agents', 'skills'])
      expect(files).toContain(path);
  });
});
