import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

// Each outside world is touched in one place, so a change there stays local.
const ANTHROPIC_SDK = {
  name: '@anthropic-ai/sdk',
  message: 'Import the SDK only inside src/llm/.',
};
const FILE_SYSTEM = ['node:fs', 'node:fs/promises'].map((name) => ({
  name,
  message: 'Touch the file system only through src/file-system/.',
}));
const MCP_SDK = {
  group: ['@modelcontextprotocol/server', '@modelcontextprotocol/server/*'],
  message: 'Import the MCP SDK only inside src/mcp/ and src/cli/mcp-command.ts.',
};
const restrict = (paths, patterns = []) => ({
  'no-restricted-imports': ['error', { paths, patterns }],
});

export default tseslint.config(
  // AssemblyScript (`*.as.ts`) reads like TypeScript, but its types are WebAssembly's own.
  { ignores: ['dist/', 'plugin/', 'coverage/', 'test/fixtures/', 'src/**/*.as.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      ...restrict([ANTHROPIC_SDK]),
    },
  },
  {
    files: ['src/**'],
    ignores: ['src/cli/main.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        {
          name: 'process',
          message: 'Only src/cli/main.ts touches process; pass what is needed in.',
        },
      ],
    },
  },
  { files: ['src/**'], rules: restrict([ANTHROPIC_SDK, ...FILE_SYSTEM], [MCP_SDK]) },
  { files: ['src/llm/**'], rules: restrict(FILE_SYSTEM, [MCP_SDK]) },
  {
    files: ['src/mcp/**', 'src/cli/mcp-command.ts'],
    rules: restrict([ANTHROPIC_SDK, ...FILE_SYSTEM]),
  },
  {
    files: ['src/file-system/**', 'src/cli/main.ts'],
    rules: restrict([ANTHROPIC_SDK], [MCP_SDK]),
  },
  prettier,
);
