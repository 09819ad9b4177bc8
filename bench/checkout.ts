import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Writes `revision` of `gitDirectory` into `workTree` through the index file `indexFile`, as a
 * clone's checkout would (line endings and other attributes applied). Not `git archive`, which
 * leaves out what `.gitattributes` marks export-ignore: often every test, and tools a fix changes.
 */
export async function checkOut(
  gitDirectory: string,
  revision: string,
  workTree: string,
  indexFile: string,
): Promise<void> {
  const env = { ...process.env, GIT_INDEX_FILE: indexFile };
  await run('git', ['--git-dir', gitDirectory, 'read-tree', revision], { env });
  await run(
    'git',
    ['--git-dir', gitDirectory, '--work-tree', workTree, 'checkout-index', '-a', '-f'],
    { env },
  );
}
