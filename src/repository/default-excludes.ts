import { countLines } from '../text/count-lines.js';

/**
 * What is never worth a judge's attention: dependencies, build output, caches, lock files,
 * minified bundles, binaries and very large files. Users add their own with `excludes`.
 */

/** Directories skipped wherever they are (globs for fast-glob's `ignore`). */
export const DEFAULT_EXCLUDED_DIRECTORIES = [
  '.git',
  'node_modules',
  'bower_components',
  'jspm_packages',
  'vendor',
  'dist',
  'build',
  'out',
  'coverage',
  '.nyc_output',
  '.next',
  '.nuxt',
  '.svelte-kit',
  '.turbo',
  '.cache',
  '.parcel-cache',
  '.venv',
  'venv',
  '__pycache__',
  '.mypy_cache',
  '.pytest_cache',
  '.tox',
  'target',
  '.gradle',
  '.idea',
  '.vscode',
  '.terraform',
].map((directory) => `**/${directory}/**`);

/** Files skipped by name. */
export const DEFAULT_EXCLUDED_FILES = [
  '**/package-lock.json',
  '**/npm-shrinkwrap.json',
  '**/yarn.lock',
  '**/pnpm-lock.yaml',
  '**/bun.lockb',
  '**/Cargo.lock',
  '**/poetry.lock',
  '**/Pipfile.lock',
  '**/composer.lock',
  '**/Gemfile.lock',
  '**/go.sum',
  '**/*.min.js',
  '**/*.min.css',
  '**/*.map',
  '**/*.snap',
  '**/.DS_Store',
];

/** Extensions that are binary whatever their content. */
const BINARY_EXTENSIONS = new Set(
  `png jpg jpeg gif bmp ico webp avif tiff psd svgz mp3 mp4 wav ogg flac webm mov avi mkv pdf zip gz
  tgz bz2 xz 7z rar jar war ear class so dylib dll exe o a lib obj bin dat woff woff2 ttf otf eot
  pyc pyo wasm node sqlite db parquet pkl npy npz`.split(/\s+/),
);

export function hasBinaryExtension(path: string): boolean {
  return BINARY_EXTENSIONS.has(path.slice(path.lastIndexOf('.') + 1).toLowerCase());
}

/** A NUL byte in the first 8 KiB is git's own test for binary content. */
export function looksBinary(content: Uint8Array): boolean {
  // The typed array's own search, not a loop in JavaScript: it runs over every file read.
  return content.subarray(0, 8192).indexOf(0) !== -1;
}

/** Bundled or minified code: a few enormous lines. */
export function looksMinified(text: string): boolean {
  if (text.length < 2048) return false;
  // Over 300 characters a line on average: fewer lines than this. Ordinary code has many more,
  // and is not counted to its end.
  const fewest = text.length / 300;
  return countLines(text, fewest) < fewest;
}
