/**
 * What a file is for. Ranking treats all but `source` as supporting material: type declarations
 * describe an API without implementing it, examples use it, tests check it.
 */
export const FILE_KINDS = ['source', 'declaration', 'example', 'test', 'docs', 'config'] as const;
export type FileKind = (typeof FILE_KINDS)[number];
