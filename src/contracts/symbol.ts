/** What a definition is, as a parser names it; the regular-expression outline does not say. */
export const SYMBOL_KINDS = [
  'function',
  'method',
  'class',
  'interface',
  'type',
  'enum',
  'module',
  'constant',
  'variable',
  'macro',
] as const;
export type SymbolKind = (typeof SYMBOL_KINDS)[number];

/** A symbol a file defines, as its outline reports it. */
export interface DefinedSymbol {
  name: string;
  /** 1-based line of the definition. */
  line: number;
  exported: boolean;
  /** Known when the file was parsed. */
  kind?: SymbolKind;
  /**
   * 1-based last line of the whole definition (a function's closing brace), when the file was
   * parsed: `line`..`endLine` is what an excerpt shows to show the definition whole.
   */
  endLine?: number;
}
