import { Parser, type Tree, type TreeCursor } from 'web-tree-sitter';
import type { DefinedSymbol, SymbolKind } from '../../contracts/symbol.js';
import { DEFINITION_RULES, type DefinitionRules } from './definition-rules.js';
import { grammarOf } from './grammars.js';
import { loadGrammar } from './load-grammar.js';
import { ownString } from '../../text/own-string.js';

/**
 * A file's defined symbols from its syntax tree: each with its kind and the lines its whole
 * definition spans. Undefined whenever the file cannot be parsed here (no grammar for its
 * language, too long, over the time budget, a parser error); the caller then keeps the regex
 * outline, so a failed parse costs precision, never a run.
 */

/** Longer files are generated or vendored more often than not, and parse slowly. */
export const MAX_PARSED_CHARACTERS = 256 * 1024;
/** A parse that takes longer is given up (tree-sitter's own cancellation, checked as it goes). */
const PARSE_BUDGET_MS = 1000;
const MAX_NAME_LENGTH = 200;
/** Definitions whose bodies are not searched for more: a function's locals are not its file's. */
const LEAF_KINDS = new Set<SymbolKind>([
  'function',
  'method',
  'constant',
  'variable',
  'macro',
  'type',
]);

let parser: Parser | undefined;

export async function parseSymbols(
  path: string,
  text: string,
  budgetMs = PARSE_BUDGET_MS,
): Promise<DefinedSymbol[] | undefined> {
  const grammar = grammarOf(path);
  if (!grammar || text.length > MAX_PARSED_CHARACTERS) return undefined;
  const language = await loadGrammar(grammar);
  if (!language) return undefined;
  let tree: Tree | null = null;
  try {
    parser ??= new Parser();
    parser.setLanguage(language);
    const deadline = performance.now() + budgetMs;
    tree = parser.parse(text, null, {
      // Returning true cancels the parse; the typings say void.
      progressCallback: (() => performance.now() > deadline) as () => void,
    });
    return tree ? collectSymbols(tree.walk(), DEFINITION_RULES[grammar]) : undefined;
  } catch {
    // A parser that failed may be left in any state: the next file gets a new one.
    parser = undefined;
    return undefined;
  } finally {
    tree?.delete();
  }
}

/** Every definition in the tree, in order, by one iterative walk (no recursion to overflow). */
function collectSymbols(cursor: TreeCursor, rules: DefinitionRules): DefinedSymbol[] {
  const symbols: DefinedSymbol[] = [];
  let enter = true;
  try {
    for (;;) {
      if (!(enter && cursor.gotoFirstChild())) {
        while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return symbols;
      }
      enter = visit(cursor, rules, symbols);
    }
  } finally {
    cursor.delete();
  }
}

/** Records the node under the cursor if it defines something; says whether to look inside it. */
function visit(cursor: TreeCursor, rules: DefinitionRules, symbols: DefinedSymbol[]): boolean {
  if (!cursor.nodeIsNamed) return false;
  const tableKind = rules.definitions[cursor.nodeType];
  if (!tableKind) return true;
  const node = cursor.currentNode;
  const nameNode = rules.nameOf ? rules.nameOf(node) : node.childForFieldName('name');
  const kind = rules.kindOf ? rules.kindOf(node, tableKind) : tableKind;
  const name = nameNode?.text.slice(0, MAX_NAME_LENGTH).trim();
  if (name) {
    // A node that ends at the start of a line (a `#define` takes its newline) ends on the last.
    const end = node.endPosition;
    symbols.push({
      // Cut from the file's text, which a kept outline would keep alive.
      name: ownString(name),
      line: node.startPosition.row + 1,
      endLine: end.column === 0 && end.row > node.startPosition.row ? end.row : end.row + 1,
      exported: rules.isExported(node, name),
      kind,
    });
  }
  return !LEAF_KINDS.has(kind);
}
