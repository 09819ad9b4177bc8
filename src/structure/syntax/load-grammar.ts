import { Language, Parser } from 'web-tree-sitter';
import { readPackagedFile } from '../../file-system/inputs.js';
import { GRAMMAR_FILES, RUNTIME_FILE, type GrammarName } from './grammars.js';

/**
 * The runtime and each grammar are loaded once per process, on first use: a run that only meets
 * Python files never compiles the C++ grammar. A grammar that cannot be loaded (not installed, a
 * broken build) is remembered as missing, and its files are read with the regex outline.
 */

let runtime: Promise<boolean> | undefined;
const grammars = new Map<GrammarName, Promise<Language | undefined>>();

function loadRuntime(): Promise<boolean> {
  runtime ??= (async () => {
    const wasmBinary = await readPackagedFile(RUNTIME_FILE.packageName, RUNTIME_FILE.file);
    if (!wasmBinary) return false;
    await Parser.init({ wasmBinary });
    return true;
  })().catch(() => false);
  return runtime;
}

export function loadGrammar(name: GrammarName): Promise<Language | undefined> {
  let grammar = grammars.get(name);
  if (!grammar) {
    grammar = (async () => {
      if (!(await loadRuntime())) return undefined;
      const { packageName, file } = GRAMMAR_FILES[name];
      const bytes = await readPackagedFile(packageName, file);
      return bytes ? await Language.load(bytes) : undefined;
    })().catch(() => undefined);
    grammars.set(name, grammar);
  }
  return grammar;
}
