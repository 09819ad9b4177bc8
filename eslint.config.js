import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'coverage/', 'test/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // The SDK is touched in one place, so a provider change stays local.
      'no-restricted-imports': [
        'error',
        { paths: [{ name: '@anthropic-ai/sdk', message: 'Import the SDK only inside src/llm/.' }] },
      ],
    },
  },
  { files: ['src/llm/**'], rules: { 'no-restricted-imports': 'off' } },
  prettier,
);
