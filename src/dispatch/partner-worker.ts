import { parentPort, workerData } from 'node:worker_threads';
import { readFileWithinSync } from '../file-system/tree.js';
import type { PartnerFound } from '../repository/read-files.js';
import { analyseRead } from '../repository/read-verdict.js';
import { describedSource, type SourceFile } from '../repository/source-file.js';
import { compileKeyword } from './keyword.js';
import { KnownWordsTable } from './known-words.js';
import { scanFile } from './scan-file.js';
import type { PartnerAnswer, PartnerQuestion, PartnerSetup } from './partner.js';

/**
 * The partner's side (./partner.ts): it reads its share of the tree, holds those files' texts,
 * and searches them for each cycle's keywords while the main thread searches the rest.
 */

const { root, maxBytes, heldUpTo, entries } = workerData as PartnerSetup;
const answer = (message: PartnerAnswer) => parentPort?.postMessage(message);

const tree = { root, maxBytes };
const files: (SourceFile | undefined)[] = [];
answer({
  type: 'read',
  files: entries.map(({ path, identity }) => {
    const bytes = readFileWithinSync(root, path, maxBytes, identity);
    const read = analyseRead(path, bytes);
    if ('skipped' in read) return (files.push(undefined), read);
    files.push(
      'bytes' in bytes && bytes.bytes.length <= heldUpTo
        ? read
        : // Read again for each search, as the main thread's files of its size are.
          describedSource(path, read, identity, tree, true),
    );
    return { kind: read.kind, lineCount: read.lineCount };
  }),
});

const known = new KnownWordsTable(files.length);

parentPort?.on('message', ({ id, keywords, forgetBeyond }: PartnerQuestion) => {
  known.forgetBeyond(forgetBeyond);
  // The main thread compiled each of these: it compiles again to the same pattern. One that
  // does not fails the partner, and the main thread searches its files instead.
  const patterns = keywords.flatMap((keyword) => compileKeyword(keyword) ?? []);
  if (patterns.length !== keywords.length) throw new Error('a keyword did not compile');
  const found: PartnerFound[] = [];
  files.forEach((file, at) => {
    if (!file) return;
    scanFile(file, patterns, known.of(at)).forEach((scan, keyword) => {
      if (scan.match || scan.counted)
        found.push({ file: at, keyword, counted: scan.counted, match: scan.match });
    });
  });
  answer({ type: 'scanned', id, found });
});
