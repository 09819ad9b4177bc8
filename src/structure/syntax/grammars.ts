/**
 * The tree-sitter grammars the parser knows, each a WebAssembly build that its npm package ships
 * (nothing is downloaded at run time), and the file extensions each one reads.
 */

export type GrammarName =
  | 'javascript'
  | 'typescript'
  | 'tsx'
  | 'python'
  | 'go'
  | 'rust'
  | 'java'
  | 'kotlin'
  | 'c'
  | 'cpp'
  | 'c-sharp'
  | 'php'
  | 'ruby';

export interface GrammarFile {
  packageName: string;
  file: string;
}

/** The runtime's own WebAssembly, loaded before any grammar. */
export const RUNTIME_FILE: GrammarFile = {
  packageName: 'web-tree-sitter',
  file: 'tree-sitter.wasm',
};

export const GRAMMAR_FILES: Record<GrammarName, GrammarFile> = {
  javascript: { packageName: 'tree-sitter-javascript', file: 'tree-sitter-javascript.wasm' },
  typescript: { packageName: 'tree-sitter-typescript', file: 'tree-sitter-typescript.wasm' },
  tsx: { packageName: 'tree-sitter-typescript', file: 'tree-sitter-tsx.wasm' },
  python: { packageName: 'tree-sitter-python', file: 'tree-sitter-python.wasm' },
  go: { packageName: 'tree-sitter-go', file: 'tree-sitter-go.wasm' },
  rust: { packageName: 'tree-sitter-rust', file: 'tree-sitter-rust.wasm' },
  java: { packageName: 'tree-sitter-java', file: 'tree-sitter-java.wasm' },
  kotlin: {
    packageName: '@tree-sitter-grammars/tree-sitter-kotlin',
    file: 'tree-sitter-kotlin.wasm',
  },
  c: { packageName: 'tree-sitter-c', file: 'tree-sitter-c.wasm' },
  cpp: { packageName: 'tree-sitter-cpp', file: 'tree-sitter-cpp.wasm' },
  'c-sharp': { packageName: 'tree-sitter-c-sharp', file: 'tree-sitter-c_sharp.wasm' },
  php: { packageName: 'tree-sitter-php', file: 'tree-sitter-php.wasm' },
  ruby: { packageName: 'tree-sitter-ruby', file: 'tree-sitter-ruby.wasm' },
};

const GRAMMAR_BY_EXTENSION: Record<string, GrammarName> = {
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  py: 'python',
  pyi: 'python',
  go: 'go',
  rs: 'rust',
  java: 'java',
  kt: 'kotlin',
  kts: 'kotlin',
  c: 'c',
  // A header may be C or C++; the C++ grammar reads both.
  h: 'cpp',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  hxx: 'cpp',
  cs: 'c-sharp',
  php: 'php',
  rb: 'ruby',
};

/** The grammar for a path, or undefined: such a file is read as text, with the regex outline. */
export function grammarOf(path: string): GrammarName | undefined {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return undefined;
  return GRAMMAR_BY_EXTENSION[base.slice(dot + 1).toLowerCase()];
}
