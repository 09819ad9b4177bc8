import { looksBinary, looksMinified } from './default-excludes.js';
import type { FileBytes } from '../file-system/tree.js';
import { analyzeSource, type SourceFile } from './source-file.js';

/** Why a file that was read is not searched. */
export type SkippedRead = 'binary' | 'minified' | 'too-large' | 'unreadable';

/**
 * What a read makes of a file: analysed, or skipped and why. The same wherever it is read (the
 * main thread, or the partner that reads and searches part of a large tree).
 */
export function analyseRead(path: string, read: FileBytes): SourceFile | { skipped: SkippedRead } {
  if ('skipped' in read) return { skipped: read.skipped };
  if (looksBinary(read.bytes)) return { skipped: 'binary' };
  const text = read.bytes.toString('utf8');
  if (looksMinified(text)) return { skipped: 'minified' };
  return analyzeSource(path, text);
}
