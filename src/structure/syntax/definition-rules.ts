import type { Node } from 'web-tree-sitter';
import type { SymbolKind } from '../../contracts/symbol.js';
import type { GrammarName } from './grammars.js';

/**
 * Which syntax nodes define a symbol, per grammar, by node type: a walk over the tree by type
 * costs nothing to prepare, where a tags query costs about a tenth of a second per grammar to
 * compile, more than parsing a run's candidates.
 */
export interface DefinitionRules {
  definitions: Readonly<Record<string, SymbolKind>>;
  /** The node that names a definition, where it is not the `name` field. */
  nameOf?: (node: Node) => Node | null;
  /** Whether other files can use the definition. */
  isExported: (node: Node, name: string) => boolean;
  /** The kind, where the node type alone does not tell it. */
  kindOf?: (node: Node, kind: SymbolKind) => SymbolKind;
}

const nameField = (node: Node) => node.childForFieldName('name');

/** A C or C++ declarator, unwrapped down to the identifier it declares (`*f(int)` → `f`). */
function declaredName(node: Node): Node | null {
  let current: Node | null = node.childForFieldName('declarator');
  for (let depth = 0; current && depth < 16; depth++) {
    // `Class::method`: the method's own name.
    if (current.type === 'qualified_identifier')
      current = current.childForFieldName('name') ?? null;
    else if (/identifier$|^operator_name$|^destructor_name$/.test(current.type)) return current;
    else current = current.childForFieldName('declarator') ?? current.namedChild(0);
  }
  return null;
}

const hasModifier = (node: Node, modifier: RegExp) =>
  node.children.some(
    (child) =>
      child !== null && /modifier/.test(child.type) && modifier.test(child.text.slice(0, 200)),
  );

const SCRIPT: Record<string, SymbolKind> = {
  function_declaration: 'function',
  generator_function_declaration: 'function',
  class_declaration: 'class',
  class: 'class',
  method_definition: 'method',
  // `const handler = (request) => …`: a function with a variable's name.
  variable_declarator: 'variable',
};
const TYPESCRIPT: Record<string, SymbolKind> = {
  ...SCRIPT,
  abstract_class_declaration: 'class',
  interface_declaration: 'interface',
  type_alias_declaration: 'type',
  enum_declaration: 'enum',
  internal_module: 'module',
  abstract_method_signature: 'method',
};
const scriptRules = (definitions: Record<string, SymbolKind>): DefinitionRules => ({
  definitions,
  nameOf: (node) => {
    // Only top-level or exported variables belong in an outline, not a function's locals.
    if (node.type !== 'variable_declarator') return nameField(node);
    const statement = node.parent;
    const scope = statement?.parent;
    return scope?.type === 'program' || scope?.type === 'export_statement' ? nameField(node) : null;
  },
  isExported: (node) => {
    const holder = node.type === 'variable_declarator' ? node.parent?.parent : node.parent;
    return holder?.type === 'export_statement';
  },
  kindOf: (node, kind) =>
    kind === 'variable' && /function|arrow/.test(node.childForFieldName('value')?.type ?? '')
      ? 'function'
      : kind,
});

const C_DEFINITIONS: Record<string, SymbolKind> = {
  function_definition: 'function',
  struct_specifier: 'class',
  union_specifier: 'class',
  enum_specifier: 'enum',
  type_definition: 'type',
  preproc_def: 'macro',
  preproc_function_def: 'macro',
};
const cRules = (definitions: Record<string, SymbolKind>): DefinitionRules => ({
  definitions,
  nameOf: (node) => {
    if (node.type === 'function_definition' || node.type === 'type_definition')
      return declaredName(node);
    // `struct point;` declares; only a body defines.
    if (/_specifier$/.test(node.type) && !node.childForFieldName('body')) return null;
    return nameField(node);
  },
  isExported: (node) =>
    !node.children.some(
      (child) => child?.type === 'storage_class_specifier' && child.text === 'static',
    ),
});

export const DEFINITION_RULES: Record<GrammarName, DefinitionRules> = {
  javascript: scriptRules(SCRIPT),
  typescript: scriptRules(TYPESCRIPT),
  tsx: scriptRules(TYPESCRIPT),
  python: {
    definitions: { function_definition: 'function', class_definition: 'class' },
    isExported: (_node, name) => !name.startsWith('_') || /^__\w+__$/.test(name),
    // A function in a class's block (perhaps under a decorator) is a method.
    kindOf: (node, kind) =>
      kind === 'function' &&
      [node.parent, node.parent?.parent, node.parent?.parent?.parent].some(
        (ancestor) => ancestor?.type === 'class_definition',
      )
        ? 'method'
        : kind,
  },
  go: {
    definitions: {
      function_declaration: 'function',
      method_declaration: 'method',
      type_spec: 'type',
      const_spec: 'constant',
    },
    isExported: (_node, name) => /^[A-Z]/.test(name),
  },
  rust: {
    definitions: {
      function_item: 'function',
      function_signature_item: 'method',
      struct_item: 'class',
      union_item: 'class',
      enum_item: 'enum',
      trait_item: 'interface',
      type_item: 'type',
      mod_item: 'module',
      const_item: 'constant',
      static_item: 'constant',
      macro_definition: 'macro',
    },
    isExported: (node) => node.children.some((child) => child?.type === 'visibility_modifier'),
  },
  java: {
    definitions: {
      class_declaration: 'class',
      record_declaration: 'class',
      interface_declaration: 'interface',
      annotation_type_declaration: 'interface',
      enum_declaration: 'enum',
      method_declaration: 'method',
      constructor_declaration: 'method',
    },
    isExported: (node) => hasModifier(node, /\bpublic\b/),
  },
  kotlin: {
    definitions: {
      class_declaration: 'class',
      object_declaration: 'class',
      function_declaration: 'function',
      type_alias: 'type',
    },
    isExported: (node) => !hasModifier(node, /\b(private|internal)\b/),
  },
  c: cRules(C_DEFINITIONS),
  cpp: cRules({
    ...C_DEFINITIONS,
    class_specifier: 'class',
    namespace_definition: 'module',
  }),
  'c-sharp': {
    definitions: {
      class_declaration: 'class',
      struct_declaration: 'class',
      record_declaration: 'class',
      interface_declaration: 'interface',
      enum_declaration: 'enum',
      method_declaration: 'method',
      constructor_declaration: 'method',
      property_declaration: 'variable',
      delegate_declaration: 'type',
      namespace_declaration: 'module',
      file_scoped_namespace_declaration: 'module',
    },
    isExported: (node) => hasModifier(node, /\b(public|protected)\b/),
  },
  php: {
    definitions: {
      function_definition: 'function',
      method_declaration: 'method',
      class_declaration: 'class',
      interface_declaration: 'interface',
      trait_declaration: 'class',
      enum_declaration: 'enum',
    },
    isExported: (node) => !hasModifier(node, /\bprivate\b/),
  },
  ruby: {
    definitions: { method: 'method', singleton_method: 'method', class: 'class', module: 'module' },
    isExported: () => true,
  },
};
