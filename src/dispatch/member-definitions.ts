import type { KeywordMatch } from '../contracts/candidate.js';
import type { DefinedSymbol } from '../contracts/symbol.js';
import type { SourceFile } from '../repository/source-file.js';
import { identifiersOf } from '../text/identifiers.js';
import { MAX_MATCHED_LINE_LENGTH } from '../text/word-postings.js';
import { normalizeIdentifier, type KeywordPattern } from './keyword.js';

/**
 * Where a file defines a member that a task writes with its owner (`Coarsen.construct`,
 * `Model::save`): a member of that name elsewhere is some other owner's, and a file that defines
 * the owner's own member is where the behaviour lives.
 */

type Member = NonNullable<KeywordPattern['member']>;

/** A module is named by its file, or by its directory when the file is the directory's index. */
const MODULE_INDEX = /^(?:index|mod|__init__|init|main)$/;
/** How far up an owner's header is looked for: a class longer than this is rare and generated. */
const MAX_HEADER_DISTANCE = 5000;

function moduleName(path: string): string {
  const parts = path.split('/');
  const file = (parts.pop() ?? '').replace(/\..*$/, '');
  return normalizeIdentifier(MODULE_INDEX.test(file) ? (parts.pop() ?? file) : file);
}

const indentation = (line: string) => line.length - line.trimStart().length;

/** True when a line (not too long to be code) names the owner as one of its identifiers. */
function names(line: string | undefined, owner: string): boolean {
  return (
    line !== undefined &&
    line.length <= MAX_MATCHED_LINE_LENGTH &&
    identifiersOf(line).some((identifier) => normalizeIdentifier(identifier) === owner)
  );
}

/**
 * The header of the block a definition sits in: the nearest line above it indented less
 * (`class Coarsen:`, `impl Coarsen {`, `public class Coarsen extends Base`), or the line above a
 * lone `{` there.
 */
function enclosingHeader(lines: readonly string[], symbol: DefinedSymbol): string | undefined {
  const own = lines[symbol.line - 1] ?? '';
  const depth = indentation(own);
  if (depth === 0) return undefined;
  const last = Math.max(0, symbol.line - 1 - MAX_HEADER_DISTANCE);
  for (let index = symbol.line - 2; index >= last; index--) {
    const line = lines[index] ?? '';
    if (line.trim() === '' || indentation(line) >= depth) continue;
    return line.trim() === '{' ? lines[index - 1] : line;
  }
  return undefined;
}

/**
 * The member inside its owner: within the owner's definition where a parse gives its end,
 * otherwise under a header that names the owner, or on a line that does (a Go receiver
 * `func (c *Coarsen) construct(`, `Coarsen::construct(`, `Coarsen.prototype.construct =`).
 */
function isOwnedBy(file: SourceFile, symbol: DefinedSymbol, owner: string): boolean {
  const parsedOwner = file.outline.symbols.find(
    (candidate) =>
      candidate.endLine !== undefined &&
      candidate.line < symbol.line &&
      symbol.line <= candidate.endLine &&
      normalizeIdentifier(candidate.name) === owner,
  );
  if (parsedOwner) return true;
  const ownLine = file.lines[symbol.line - 1];
  const withoutName = ownLine?.replace(symbol.name, ' ');
  return names(withoutName, owner) || names(enclosingHeader(file.lines, symbol), owner);
}

/** The member's definitions in this file, each as an exact definition of the keyword. */
export function memberDefinitions(file: SourceFile, member: Member): KeywordMatch['definitions'] {
  const ownModule = moduleName(file.path) === member.owner;
  if (!ownModule && !member.ownerIsType) return [];
  return file.outline.symbols
    .filter(
      (symbol) =>
        normalizeIdentifier(symbol.name) === member.name &&
        (ownModule || isOwnedBy(file, symbol, member.owner)),
    )
    .map((symbol) => ({ name: symbol.name, line: symbol.line, exact: true }));
}
