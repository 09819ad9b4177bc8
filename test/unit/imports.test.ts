import { describe, expect, it } from 'vitest';
import { createImportResolver } from '../../src/structure/imports.js';

const PATHS = [
  'src/index.ts',
  'src/a.ts',
  'src/b/index.ts',
  'src/c.tsx',
  'src/d.js',
  'src/e.ts',
  'src/e.js',
  'src/types.d.ts',
  'src/deep/nested/leaf.ts',
  'lib/utils.ts',
  'src/utils.ts',
  'app/__init__.py',
  'app/models.py',
  'app/views.py',
  'app/core/__init__.py',
  'app/core/utils.py',
  'pkg/sub/mod.py',
  'src/main/java/com/example/UserService.java',
];

const resolver = createImportResolver(PATHS);

describe('createImportResolver', () => {
  describe('relative script imports', () => {
    it.each([
      ['src/index.ts', './a.js', 'src/a.ts'],
      ['src/index.ts', './a', 'src/a.ts'],
      ['src/index.ts', './a.ts', 'src/a.ts'],
      ['src/index.ts', './c.js', 'src/c.tsx'],
      ['src/index.ts', './d.js', 'src/d.js'],
      ['src/index.ts', './types', 'src/types.d.ts'],
      ['src/index.ts', './b', 'src/b/index.ts'],
      ['src/index.ts', './b/index.js', 'src/b/index.ts'],
      ['src/deep/nested/leaf.ts', '../../b', 'src/b/index.ts'],
      ['src/deep/nested/leaf.ts', '../../a.js', 'src/a.ts'],
      ['src/b/index.ts', '..', 'src/index.ts'],
      ['src/b/index.ts', '../deep/nested/leaf.js', 'src/deep/nested/leaf.ts'],
      ['src/a.ts', '.', 'src/index.ts'],
      // `.ts` is tried before `.js` when both exist
      ['src/index.ts', './e.js', 'src/e.js'],
      ['src/index.ts', './e', 'src/e.ts'],
    ])('from %s, %s → %s', (from, specifier, expected) => {
      expect(resolver.resolve(from, specifier)).toBe(expected);
    });

    it.each([
      ['src/index.ts', './missing.js'],
      ['src/index.ts', './b/missing'],
      ['src/index.ts', '../../outside.js'],
      ['index.ts', '../src/a.js'],
    ])('from %s, %s resolves to nothing', (from, specifier) => {
      expect(resolver.resolve(from, specifier)).toBeUndefined();
    });
  });

  describe('Python imports', () => {
    it.each([
      ['app/views.py', '.models', 'app/models.py'],
      ['app/views.py', '.core.utils', 'app/core/utils.py'],
      ['app/views.py', '.core', 'app/core/__init__.py'],
      ['app/core/utils.py', '..models', 'app/models.py'],
      ['app/core/utils.py', '..', 'app/__init__.py'],
      ['app/views.py', '.', 'app/__init__.py'],
      ['main.py', 'pkg.sub.mod', 'pkg/sub/mod.py'],
      ['main.py', 'sub.mod', 'pkg/sub/mod.py'],
      ['main.py', 'app.models', 'app/models.py'],
      ['main.py', 'app', 'app/__init__.py'],
      ['main.py', 'app.core', 'app/core/__init__.py'],
    ])('from %s, %s → %s', (from, specifier, expected) => {
      expect(resolver.resolve(from, specifier)).toBe(expected);
    });

    it.each([
      ['app/views.py', '.missing'],
      ['main.py', 'pkg.sub.missing'],
      ['main.py', 'os.path'],
      ['main.py', 'pkg..mod'],
    ])('from %s, %s resolves to nothing', (from, specifier) => {
      expect(resolver.resolve(from, specifier)).toBeUndefined();
    });
  });

  describe('module paths', () => {
    it.each([
      [
        'src/main/java/com/example/App.java',
        'com.example.UserService',
        'src/main/java/com/example/UserService.java',
      ],
      ['src/index.ts', 'deep/nested/leaf', 'src/deep/nested/leaf.ts'],
      ['src/index.ts', 'src/a', 'src/a.ts'],
    ])('from %s, %s → %s', (from, specifier, expected) => {
      expect(resolver.resolve(from, specifier)).toBe(expected);
    });
  });

  describe('bare packages and ambiguous names', () => {
    it.each([
      ['react'],
      ['react-dom/client'],
      ['@scope/pkg'],
      ['node:fs'],
      ['node:fs/promises'],
      ['fs'],
      ['zod'],
      ['https://example.com/mod.ts'],
    ])('%s resolves to nothing', (specifier) => {
      expect(resolver.resolve('src/index.ts', specifier)).toBeUndefined();
    });

    it.each([
      // lib/utils.ts and src/utils.ts both end in `utils`; app/core/utils.py too
      ['src/index.ts', 'utils'],
      ['main.py', 'utils'],
      // src/index.ts, src/b/index.ts
      ['src/index.ts', 'index'],
    ])('from %s, the ambiguous %s resolves to nothing', (from, specifier) => {
      expect(resolver.resolve(from, specifier)).toBeUndefined();
    });

    it('an ambiguous suffix resolves once it is made unique', () => {
      expect(resolver.resolve('main.py', 'core.utils')).toBe('app/core/utils.py');
      expect(resolver.resolve('src/index.ts', 'lib/utils')).toBe('lib/utils.ts');
    });
  });

  it('resolves nothing in an empty workspace', () => {
    const empty = createImportResolver([]);
    expect(empty.resolve('src/index.ts', './a.js')).toBeUndefined();
    expect(empty.resolve('main.py', 'pkg.mod')).toBeUndefined();
  });
});
