/** A glob the search cannot read in linear time (./linear-glob.ts): its message says why. */
export class GlobError extends Error {
  override readonly name = 'GlobError';
}
