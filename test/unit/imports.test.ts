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

describe('resolveAll: imports by each language’s own rules', () => {
  const MANIFESTS: Record<string, string> = {
    'go.mod': 'module example.com/shop\n\ngo 1.22\n',
    'composer.json': JSON.stringify({
      autoload: { 'psr-4': { 'Acme\\Billing\\': 'src/' } },
      'autoload-dev': { 'psr-4': { 'Acme\\Billing\\Tests\\': ['tests/'] } },
    }),
    'crates/core/Cargo.toml': '[package]\nname = "shop-core"\n\n[dependencies]\nname = "x"\n',
  };
  const paths = [
    ...Object.keys(MANIFESTS),
    'cart/cart.go',
    'cart/total.go',
    'cart/cart_test.go',
    'main.go',
    'crates/core/src/lib.rs',
    'crates/cli/src/main.rs',
    'crates/core/src/config.rs',
    'crates/core/src/config/parse.rs',
    'crates/core/src/search/mod.rs',
    'crates/core/src/search/matcher.rs',
    'src/Invoice.php',
    'src/Tax/Rate.php',
    'src/Tax/Zone.php',
    'tests/InvoiceTest.php',
    'vendor-less/Legacy/Thing.php',
    'lib/shop/cart.rb',
    'lib/shop/helpers.rb',
    'src/parser.c',
    'src/parser.h',
    'include/parser.h',
    'app/__init__.py',
    'app/models.py',
    'app/views.py',
  ];
  const resolver = createImportResolver(paths, (path) => MANIFESTS[path]?.split('\n'));

  it.each<[string, string, string, string[], string[]]>([
    [
      'a Go package: its files, not its tests',
      'main.go',
      'example.com/shop/cart',
      [],
      ['cart/cart.go', 'cart/total.go'],
    ],
    ['a Go import from outside the module', 'main.go', 'github.com/other/cart', [], []],
    [
      'Rust `mod config;` beside lib.rs',
      'crates/core/src/lib.rs',
      'self::config',
      [],
      ['crates/core/src/config.rs'],
    ],
    [
      'Rust `mod parse;` in config.rs: config/parse.rs',
      'crates/core/src/config.rs',
      'self::parse',
      [],
      ['crates/core/src/config/parse.rs'],
    ],
    [
      'Rust `use crate::search::matcher::Matcher`',
      'crates/core/src/config.rs',
      'crate::search::matcher::Matcher',
      [],
      ['crates/core/src/search/matcher.rs'],
    ],
    [
      'Rust `use super::config`',
      'crates/core/src/search/matcher.rs',
      'super::super::config',
      [],
      ['crates/core/src/config.rs'],
    ],
    [
      'Rust `use` of another crate of the workspace',
      'crates/cli/src/main.rs',
      'shop_core::search::matcher',
      ['Matcher'],
      ['crates/core/src/search/matcher.rs'],
    ],
    [
      'Rust: a crate named alone',
      'crates/cli/src/main.rs',
      'shop_core',
      ['search'],
      ['crates/core/src/lib.rs'],
    ],
    [
      'PHP through composer’s PSR-4 prefix',
      'tests/InvoiceTest.php',
      'Acme\\Billing\\Invoice',
      [],
      ['src/Invoice.php'],
    ],
    [
      'PHP grouped `use A\\{B, C}`',
      'src/Invoice.php',
      'Acme\\Billing\\Tax\\',
      ['Rate', 'Zone'],
      ['src/Tax/Rate.php', 'src/Tax/Zone.php'],
    ],
    [
      'PHP without a prefix: by the namespace’s tail',
      'src/Invoice.php',
      'Vendor\\Legacy\\Thing',
      [],
      ['vendor-less/Legacy/Thing.php'],
    ],
    ['Ruby `require_relative`', 'lib/shop/cart.rb', 'helpers', [], ['lib/shop/helpers.rb']],
    [
      'a C include beside the file, not the other one',
      'src/parser.c',
      'parser.h',
      [],
      ['src/parser.h'],
    ],
    [
      'Python `from . import models, views`',
      'app/__init__.py',
      '.',
      ['models', 'views'],
      ['app/models.py', 'app/views.py'],
    ],
  ])('%s', (_name, from, specifier, names, expected) => {
    expect(resolver.resolveAll(from, specifier, names)).toEqual(expected);
  });
});

describe('resolveAll: code imports code', () => {
  const resolver = createImportResolver([
    'docs/guide/dask.md',
    'tablib/core/dataset.py',
    'conf/app.yaml',
  ]);
  it.each<[string, string, string[]]>([
    ['a package that only a document is named after', 'dask', []],
    ['a module', 'tablib.core.dataset', ['tablib/core/dataset.py']],
    ['a file named with its extension', 'conf/app.yaml', ['conf/app.yaml']],
  ])('%s', (_name, specifier, expected) => {
    expect(resolver.resolveAll('tablib/core/merge.py', specifier, [])).toEqual(expected);
  });
});

describe('resolve: TypeScript `paths` and `baseUrl`', () => {
  const CONFIGS: Record<string, string> = {
    'tsconfig.base.json': [
      '{',
      '  // shared by the packages',
      '  "compilerOptions": {',
      '    "paths": { "@shared/*": ["packages/shared/src/*"], },',
      '  },',
      '}',
    ].join('\n'),
    'apps/web/tsconfig.json': JSON.stringify({
      extends: '../../tsconfig.base.json',
      compilerOptions: {
        baseUrl: '.',
        paths: { '@/*': ['src/*'], '@/ui/*': ['src/components/ui/*'], config: ['src/config.ts'] },
      },
    }),
    'apps/api/tsconfig.json': JSON.stringify({ extends: '../../tsconfig.base.json' }),
    'apps/legacy/jsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: 'lib' } }),
  };
  const resolver = createImportResolver(
    [
      ...Object.keys(CONFIGS),
      'apps/web/src/pages/home.tsx',
      'apps/web/src/lib/format.ts',
      'apps/web/src/components/ui/button/index.tsx',
      'apps/web/src/ui/button.ts',
      'apps/web/src/config.ts',
      'apps/api/src/server.ts',
      'packages/shared/src/dates.ts',
      'apps/legacy/lib/helpers.js',
      'apps/legacy/app.js',
      'other/format.ts',
    ],
    (path) => CONFIGS[path]?.split('\n'),
  );

  it.each<[string, string, string, string | undefined]>([
    ['a `*` pattern', 'apps/web/src/pages/home.tsx', '@/lib/format', 'apps/web/src/lib/format.ts'],
    [
      'the pattern with the longest prefix, and an index file',
      'apps/web/src/pages/home.tsx',
      '@/ui/button',
      'apps/web/src/components/ui/button/index.tsx',
    ],
    ['an exact pattern', 'apps/web/src/pages/home.tsx', 'config', 'apps/web/src/config.ts'],
    [
      'a pattern of an extended config (JSON with comments)',
      'apps/api/src/server.ts',
      '@shared/dates',
      'packages/shared/src/dates.ts',
    ],
    ['`baseUrl` alone', 'apps/legacy/app.js', 'helpers', 'apps/legacy/lib/helpers.js'],
    [
      'no mapping from a file the config does not govern',
      'other/format.ts',
      '@/lib/format',
      undefined,
    ],
  ])('%s', (_name, from, specifier, expected) => {
    expect(resolver.resolve(from, specifier)).toBe(expected);
  });
});
