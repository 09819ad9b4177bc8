import { posix } from 'node:path';

/**
 * The programming language of a file, by its extension: what the benchmark groups tasks by, and
 * which files the BM25 baseline indexes. Headers (`.h`) count as C.
 */
const LANGUAGES: Readonly<Record<string, readonly string[]>> = {
  JavaScript: ['js', 'jsx', 'mjs', 'cjs'],
  TypeScript: ['ts', 'tsx', 'mts', 'cts'],
  Python: ['py', 'pyi', 'pyx'],
  Go: ['go'],
  Rust: ['rs'],
  Java: ['java'],
  Kotlin: ['kt', 'kts'],
  Scala: ['scala', 'sc'],
  C: ['c', 'h'],
  'C++': ['cc', 'cpp', 'cxx', 'hpp', 'hh', 'hxx', 'ipp', 'tpp'],
  'C#': ['cs'],
  PHP: ['php'],
  Ruby: ['rb', 'rake', 'gemspec'],
  Swift: ['swift'],
  'Objective-C': ['m', 'mm'],
  Dart: ['dart'],
  Elixir: ['ex', 'exs'],
  Erlang: ['erl', 'hrl'],
  Haskell: ['hs'],
  OCaml: ['ml', 'mli'],
  Lua: ['lua'],
  Perl: ['pl', 'pm'],
  R: ['r'],
  Julia: ['jl'],
  Zig: ['zig'],
  Clojure: ['clj', 'cljs', 'cljc'],
  Groovy: ['groovy', 'gradle'],
  Shell: ['sh', 'bash', 'zsh'],
  Vue: ['vue'],
  Svelte: ['svelte'],
};

const LANGUAGE_BY_EXTENSION = new Map(
  Object.entries(LANGUAGES).flatMap(([language, extensions]) =>
    extensions.map((extension) => [extension, language] as const),
  ),
);

/** The language of `path`, or undefined for a file that is not code (docs, data, assets). */
export function languageOf(path: string): string | undefined {
  const name = posix.basename(path);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? LANGUAGE_BY_EXTENSION.get(name.slice(dot + 1).toLowerCase()) : undefined;
}

/** The most common language of `paths` (the first in order on a tie), or `other`. */
export function mainLanguageOf(paths: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const path of paths) {
    const language = languageOf(path);
    if (language) counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  let best: [string, number] = ['other', 0];
  for (const entry of counts) if (entry[1] > best[1]) best = entry;
  return best[0];
}
