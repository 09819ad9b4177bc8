/** The `code` of a Node.js system error (`ENOENT`), if it has one. */
export const errorCode = (error: unknown): string | undefined =>
  error instanceof Error && 'code' in error ? String(error.code) : undefined;
