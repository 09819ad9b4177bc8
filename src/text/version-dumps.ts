/**
 * A task without the version dumps pasted into it: `xr.show_versions()`, `pip list`, `npx
 * envinfo`, `go env`. Their names (`LC_ALL`, `PseudoNetCDF`, `processor`, `commit`) match the
 * one file that prints versions, or any file, and say nothing about where the bug is; they are
 * found by their shape, with or without a heading or a code fence around them.
 */

/** `name: value`, `name   value` or `name==value`; a name of up to four words. */
const FIELD = /^\s*(?:[-*]\s+)?[A-Za-z_@][\w.@/()-]*(?: [\w.@/()-]+){0,3}(?::\s*|\s{2,}|==)(.*)$/;
/** A value that is a version, or what a dump writes for a package that is not there. */
const VERSION = /^\s*(?:v?\d[\w.+!-]*|none|installed|not installed|true|false|unknown|n\/a)(?!\w)/i;
/** A code fence's line (` ``` ` or `~~~`); a dump's are kept, so a block around it still opens and closes. */
export const FENCE = /^\s{0,3}(?:`{3,}|~{3,})/;
/** A short line inside a dump: its title, an underline, `[GCC 7.3.0]`, `</details>`. */
const SHORT_LINE = 40;
/** A dump lists this many versions at least, and fields make most of its lines. */
const MIN_VERSIONS = 8;
const MIN_FIELD_SHARE = 0.6;

export function withoutVersionDumps(lines: readonly string[]): string[] {
  const dropped = new Set<number>();
  let start = 0;
  let versions = 0;
  let fields = 0;
  let filled = 0;
  const close = (end: number) => {
    if (versions >= MIN_VERSIONS && fields >= MIN_FIELD_SHARE * filled) {
      // Short prose at either edge is the author's, not the dump's; a title in capitals is not.
      let first = Math.max(start, 1);
      while (first < end && !FIELD.test(lines[first] ?? '') && /[a-z]/.test(lines[first] ?? ''))
        first++;
      let last = end - 1;
      while (last > first && !FIELD.test(lines[last] ?? '')) last--;
      for (let index = first; index <= last; index++)
        if (!FENCE.test(lines[index] ?? '')) dropped.add(index);
    }
    versions = fields = filled = 0;
  };
  lines.forEach((line, index) => {
    const field = FIELD.exec(line);
    if (field || line.length <= SHORT_LINE) {
      if (filled === 0 && line.trim() === '') start = index + 1;
      if (line.trim() !== '') filled++;
      if (field) fields++;
      if (field && VERSION.test(field[1] ?? '')) versions++;
      return;
    }
    close(index);
    start = index + 1;
  });
  close(lines.length);
  return dropped.size === 0 ? [...lines] : lines.filter((_, index) => !dropped.has(index));
}
