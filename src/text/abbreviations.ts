import { stem } from './stem.js';

/**
 * Abbreviations programmers use for common words, so that "authentication" finds `src/auth/` and
 * `req` finds "request". General programming vocabulary only; nothing project-specific.
 */
const ABBREVIATIONS: Record<string, string[]> = {
  authentication: ['auth', 'authn'],
  authenticate: ['auth', 'authn'],
  authorization: ['auth', 'authz'],
  authorize: ['auth', 'authz'],
  configuration: ['config', 'conf', 'cfg'],
  configure: ['config', 'conf', 'cfg'],
  repository: ['repo'],
  implementation: ['impl'],
  utility: ['util', 'utils'],
  utilities: ['util', 'utils'],
  message: ['msg'],
  request: ['req'],
  response: ['res', 'resp'],
  error: ['err'],
  context: ['ctx'],
  environment: ['env'],
  database: ['db'],
  document: ['doc'],
  documentation: ['docs', 'doc'],
  parameter: ['param', 'params'],
  argument: ['arg', 'args'],
  function: ['fn', 'func'],
  object: ['obj'],
  string: ['str'],
  number: ['num'],
  temporary: ['tmp', 'temp'],
  directory: ['dir'],
  initialize: ['init'],
  property: ['prop', 'props'],
  attribute: ['attr', 'attrs'],
  element: ['elem', 'el'],
  button: ['btn'],
  navigation: ['nav'],
  source: ['src'],
  destination: ['dest', 'dst'],
  specification: ['spec'],
  asynchronous: ['async'],
  synchronous: ['sync'],
  synchronize: ['sync'],
  administrator: ['admin'],
  application: ['app'],
  information: ['info'],
  library: ['lib'],
  middleware: ['mw'],
  password: ['pwd', 'passwd'],
  previous: ['prev'],
  reference: ['ref'],
  register: ['reg'],
  statistics: ['stats'],
  template: ['tpl', 'tmpl'],
  transaction: ['tx', 'txn'],
  value: ['val'],
  variable: ['var'],
  version: ['ver'],
  callback: ['cb'],
  component: ['comp'],
  children: ['child'],
  websocket: ['ws'],
  javascript: ['js'],
  typescript: ['ts'],
};

const equivalents = new Map<string, Set<string>>();
for (const [word, short] of Object.entries(ABBREVIATIONS)) {
  const long = stem(word);
  for (const abbreviation of short.map(stem)) {
    if (!equivalents.has(long)) equivalents.set(long, new Set([long]));
    if (!equivalents.has(abbreviation)) equivalents.set(abbreviation, new Set([abbreviation]));
    equivalents.get(long)?.add(abbreviation);
    equivalents.get(abbreviation)?.add(long);
  }
}

/** The stems that mean the same as this stem in code, itself first. */
export function equivalentStems(wordStem: string): string[] {
  const found = equivalents.get(wordStem);
  return found ? [wordStem, ...[...found].filter((other) => other !== wordStem)] : [wordStem];
}
