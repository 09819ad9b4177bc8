/** A symbol a file defines, as its outline reports it. */
export interface DefinedSymbol {
  name: string;
  /** 1-based line of the definition. */
  line: number;
  exported: boolean;
}
