import { posix } from 'node:path';

/**
 * Imports that name a package, a module or a namespace rather than a file, resolved the way each
 * language's own tooling would: a Go import path is a directory of files, found through `go.mod`;
 * Rust's `mod x;` and `use crate::a::b` follow the module tree from the crate root; a PHP `use`
 * follows composer's PSR-4 prefixes; C and Ruby look beside the including file first.
 */

/** What these rules need to know of the workspace's paths. */
export interface PathIndex {
  has(path: string): boolean;
  /** Files directly in a directory ('' is the root). */
  filesIn(directory: string): readonly string[];
  /** Text lines of a manifest (`go.mod`, `composer.json`), when the workspace read it. */
  linesOf(path: string): readonly string[] | undefined;
  /** Every path with this base name. */
  named(baseName: string): readonly string[];
}

/** A Go package or a PHP namespace can hold many files; a neighbour list of them all says little. */
const MOST_FILES_PER_IMPORT = 12;

const extensionOf = (path: string) => path.slice(path.lastIndexOf('.') + 1).toLowerCase();
const join = (directory: string, name: string) => (directory ? `${directory}/${name}` : name);

/** Go: `module` lines of every `go.mod`, longest module path first. */
function goModules(index: PathIndex): { module: string; directory: string }[] {
  return index
    .named('go.mod')
    .flatMap((path) => {
      const line = index.linesOf(path)?.find((text) => text.startsWith('module '));
      const module = line?.slice('module '.length).trim().replace(/^"|"$/g, '');
      const directory = posix.dirname(path);
      return module ? [{ module, directory: directory === '.' ? '' : directory }] : [];
    })
    .sort((left, right) => right.module.length - left.module.length);
}

function goPackage(index: PathIndex, modules: ReturnType<typeof goModules>, specifier: string) {
  for (const { module, directory } of modules) {
    if (specifier !== module && !specifier.startsWith(`${module}/`)) continue;
    const packageDirectory = join(directory, specifier.slice(module.length + 1));
    return index
      .filesIn(packageDirectory.replace(/\/$/, ''))
      .filter((path) => path.endsWith('.go') && !path.endsWith('_test.go'))
      .slice(0, MOST_FILES_PER_IMPORT);
  }
  return [];
}

/** Rust: the directory a module's children live in (`src/a.rs` → `src/a`, `src/a/mod.rs` → `src/a`). */
function rustModuleDirectory(path: string): string {
  const base = posix.basename(path);
  const directory = posix.dirname(path) === '.' ? '' : posix.dirname(path);
  return ['mod.rs', 'lib.rs', 'main.rs'].includes(base)
    ? directory
    : join(directory, base.replace(/\.rs$/, ''));
}

/** The file of module `name` under `directory`: `name.rs` or `name/mod.rs`. */
function rustModuleFile(index: PathIndex, directory: string, name: string): string | undefined {
  return [join(directory, `${name}.rs`), join(directory, `${name}/mod.rs`)].find((path) =>
    index.has(path),
  );
}

/** The crate root's directory: the nearest ancestor holding `lib.rs` or `main.rs`. */
function rustCrateDirectory(index: PathIndex, path: string): string | undefined {
  let directory = posix.dirname(path);
  for (let depth = 0; depth < 32; depth++) {
    const here = directory === '.' ? '' : directory;
    if (index.has(join(here, 'lib.rs')) || index.has(join(here, 'main.rs'))) return here;
    if (here === '') return undefined;
    directory = posix.dirname(directory);
  }
  return undefined;
}

/** Follows `crate::a::b::C` (or `self::`, `super::`) down the module tree as far as files go. */
function rustPath(index: PathIndex, fromPath: string, specifier: string): string[] {
  const segments = specifier.split('::').filter(Boolean);
  let directory: string | undefined;
  let start = 1;
  if (segments[0] === 'crate') directory = rustCrateDirectory(index, fromPath);
  else if (segments[0] === 'self') directory = rustModuleDirectory(fromPath);
  else if (segments[0] === 'super') {
    directory = posix.dirname(rustModuleDirectory(fromPath));
    for (; segments[start] === 'super'; start++) directory = posix.dirname(directory);
    if (directory === '.') directory = '';
  } else return [];
  if (directory === undefined) return [];
  let found: string | undefined;
  for (const name of segments.slice(start)) {
    const file = rustModuleFile(index, directory, name);
    if (!file) break;
    found = file;
    directory = rustModuleDirectory(file);
  }
  return found ? [found] : [];
}

/** PHP: composer's PSR-4 prefixes (`"App\\": "src/"`), longest first. */
function composerPrefixes(index: PathIndex): { prefix: string; directory: string }[] {
  const prefixes: { prefix: string; directory: string }[] = [];
  for (const path of index.named('composer.json')) {
    let manifest: unknown;
    try {
      manifest = JSON.parse(index.linesOf(path)?.join('\n') ?? '');
    } catch {
      continue;
    }
    const base = posix.dirname(path) === '.' ? '' : posix.dirname(path);
    for (const section of ['autoload', 'autoload-dev']) {
      const psr4 = (manifest as Record<string, { 'psr-4'?: unknown }> | null)?.[section]?.['psr-4'];
      if (!psr4 || typeof psr4 !== 'object') continue;
      for (const [prefix, target] of Object.entries(psr4).slice(0, 100)) {
        for (const directory of [target].flat().slice(0, 10)) {
          if (typeof directory !== 'string') continue;
          prefixes.push({ prefix, directory: join(base, directory.replace(/^\.?\/|\/$/g, '')) });
        }
      }
    }
  }
  return prefixes.sort((left, right) => right.prefix.length - left.prefix.length);
}

function phpClass(index: PathIndex, prefixes: ReturnType<typeof composerPrefixes>, name: string) {
  const qualified = name.replace(/^\\/, '');
  for (const { prefix, directory } of prefixes) {
    if (!qualified.startsWith(prefix)) continue;
    const path = join(directory, `${qualified.slice(prefix.length).replaceAll('\\', '/')}.php`);
    if (index.has(path)) return [path];
  }
  return [];
}

export interface LanguageImports {
  /** Files the import names, by the language's own rules; empty when they do not apply. */
  resolve(fromPath: string, specifier: string, names: readonly string[]): string[];
}

export function createLanguageImports(index: PathIndex): LanguageImports {
  let modules: ReturnType<typeof goModules> | undefined;
  let prefixes: ReturnType<typeof composerPrefixes> | undefined;
  return {
    resolve(fromPath, specifier, names) {
      switch (extensionOf(fromPath)) {
        case 'go':
          return goPackage(index, (modules ??= goModules(index)), specifier);
        case 'rs':
          return rustPath(index, fromPath, specifier);
        case 'php': {
          prefixes ??= composerPrefixes(index);
          // `use A\B\{C, D}` names several classes of one namespace.
          const classes =
            names.length > 0 ? names.map((name) => `${specifier}\\${name}`) : [specifier];
          return classes.flatMap((name) => phpClass(index, prefixes ?? [], name));
        }
        case 'rb':
        case 'c':
        case 'h':
        case 'cc':
        case 'cpp':
        case 'hpp': {
          // `require_relative 'x'` and `#include "x.h"` are relative to the including file first.
          const directory = posix.dirname(fromPath) === '.' ? '' : posix.dirname(fromPath);
          const beside = posix.normalize(join(directory, specifier));
          return [beside, `${beside}.rb`].filter(
            (path) => !path.startsWith('..') && path !== fromPath && index.has(path),
          );
        }
        default:
          return [];
      }
    },
  };
}
