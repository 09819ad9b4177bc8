/**
 * Where each line of a text starts: a line is then cut out of the text when it is needed, instead
 * of the whole text being split into one string per line.
 */
export function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/** Line `line` (0-based) of `text`, whose line starts are `starts`; '' past its last line. */
export function lineAt(text: string, starts: readonly number[], line: number): string {
  const start = starts[line];
  if (start === undefined) return '';
  const next = starts[line + 1];
  return text.slice(start, next === undefined ? text.length : next - 1);
}
